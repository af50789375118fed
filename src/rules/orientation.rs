//! The four orientations of a board (issue 29): a ruling must not depend on which way the board
//! is drawn. Xiangqi's rules know no left or right, and (the tournament overlay off) no colour:
//! the board turned by 180 degrees with Red and Black swapped and the side to move swapped is
//! the same game played by the other side.
//!
//! [`Orientation`] maps squares, pieces, moves, positions and verdicts; [`ruling`] rules a line
//! in one orientation and maps the answer back to the board as played, in a form that does not
//! depend on the order pieces are listed in; [`differences`] rules it in all four and lists what
//! does not map back. The measuring tool `examples/orientation.rs`, the test
//! `tests/rules_orientation.rs` and the fuzz target `rules` are built on it.

use crate::position::Position;
use crate::rules::limit::{self, ClaimPosition, CountingMode, LimitProfile};
use crate::rules::nature::{LineError, MoveNature, try_classify_line};
use crate::rules::profile::Profile;
use crate::rules::repetition::{Cycle, SidePattern, Verdict, find_cycles};
use crate::setup::Setup;
use crate::types::{Color, Move, Piece, Square};

/// One way of drawing the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Orientation {
    /// The board as played.
    AsPlayed,
    /// Files a..i become i..a.
    Mirrored,
    /// The board turned by 180 degrees, Red and Black swapped, the side to move swapped.
    ColoursSwapped,
    /// Both: ranks turned over and colours swapped (files kept).
    Both,
}

impl Orientation {
    /// The four orientations, the board as played first.
    pub const ALL: [Orientation; 4] = [
        Orientation::AsPlayed,
        Orientation::Mirrored,
        Orientation::ColoursSwapped,
        Orientation::Both,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Orientation::AsPlayed => "as_played",
            Orientation::Mirrored => "mirrored",
            Orientation::ColoursSwapped => "colours_swapped",
            Orientation::Both => "both",
        }
    }

    fn mirrors_files(self) -> bool {
        matches!(self, Orientation::Mirrored | Orientation::ColoursSwapped)
    }

    /// Whether Red and Black trade places.
    pub fn swaps_colours(self) -> bool {
        matches!(self, Orientation::ColoursSwapped | Orientation::Both)
    }

    /// Where a square goes. Every orientation is its own inverse, so the same map brings a
    /// square back.
    pub fn square(self, s: Square) -> Square {
        let (mut f, mut r) = (s.file().index() as i32, s.rank().index() as i32);
        if self.mirrors_files() {
            f = 8 - f;
        }
        if self.swaps_colours() {
            r = 9 - r;
        }
        Square::from_xy(f, r).expect("an orientation keeps a square on the board")
    }

    pub fn color(self, c: Color) -> Color {
        if self.swaps_colours() { !c } else { c }
    }

    pub fn piece(self, p: Piece) -> Piece {
        Piece {
            color: self.color(p.color),
            role: p.role,
        }
    }

    pub fn mv(self, m: Move) -> Move {
        Move {
            from: self.square(m.from),
            to: self.square(m.to),
        }
    }

    /// The position drawn this way (a legal position stays legal: the rules are symmetric).
    pub fn position(self, pos: &Position) -> Position {
        let s = pos.to_setup();
        let mut board = [None; 90];
        for (i, p) in s.board.iter().enumerate() {
            board[self.square(Square::from_index(i)).index()] = p.map(|p| self.piece(p));
        }
        Position::from_setup(Setup {
            board,
            turn: self.color(s.turn),
            ..s
        })
        .expect("an oriented legal position is legal")
    }

    pub fn verdict(self, v: Verdict) -> Verdict {
        match v {
            Verdict::RedMustVary if self.swaps_colours() => Verdict::BlackMustVary,
            Verdict::BlackMustVary if self.swaps_colours() => Verdict::RedMustVary,
            v => v,
        }
    }
}

/// The profile with the tournament overlay off: the overlay is not colour-blind by design (an
/// early drawn cycle means Red must vary), so orientation is compared without it.
pub fn colour_blind(profile: &Profile) -> Profile {
    let mut p = profile.clone();
    p.tournament_overlay = false;
    p
}

/// One move's ruling, mapped back to the board as played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRuling {
    /// Nature (`check`, `chase` ...).
    pub kind: &'static str,
    /// The idle kind, if any.
    pub idle_kind: Option<&'static str>,
    /// The targets as `piece square how`, sorted.
    pub targets: Vec<String>,
    /// The targets' joint flags, in the order of `targets`.
    pub joint: Vec<bool>,
    /// The participants of each joint target (sorted squares), in the order of `targets`. Who is
    /// named for a target any of several pieces could take alone is a free choice and not kept.
    pub participants: Vec<Vec<Square>>,
}

/// One natural-limit count (the `slow` profile, counted from the last capture), mapped back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitCount {
    /// Plies played when the claim is judged.
    pub at_ply: u32,
    pub claimant: Color,
    pub checks: u32,
    pub mate_threats: u32,
    pub chases: u32,
    pub void: u32,
    pub counted: u32,
}

/// A line's ruling, mapped back to the board as played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    pub moves: Vec<MoveRuling>,
    /// Each cycle as `start-end occurrences red-pattern/black-pattern verdict`.
    pub cycles: Vec<String>,
    pub limits: Vec<LimitCount>,
    /// Why the classification stopped early, if it did.
    pub error: Option<String>,
}

fn move_ruling(n: &MoveNature, o: Orientation) -> MoveRuling {
    let mut t: Vec<(String, bool, Vec<Square>)> = n
        .targets
        .iter()
        .map(|x| {
            let mut by: Vec<Square> = if x.joint {
                x.by.iter().map(|&b| o.square(b)).collect()
            } else {
                Vec::new()
            };
            by.sort();
            (
                format!(
                    "{} {} {}",
                    o.piece(x.piece).char(),
                    o.square(x.square),
                    x.how.name()
                ),
                x.joint,
                by,
            )
        })
        .collect();
    t.sort();
    MoveRuling {
        kind: n.kind.name(),
        idle_kind: n.idle_kind.map(|k| k.name()),
        targets: t.iter().map(|x| x.0.clone()).collect(),
        joint: t.iter().map(|x| x.1).collect(),
        participants: t.into_iter().map(|x| x.2).collect(),
    }
}

fn pattern(p: &SidePattern) -> String {
    format!("{}({})", p.name, p.natures.join(","))
}

fn cycle_text(c: &Cycle, o: Orientation) -> String {
    let (red, black) = if o.swaps_colours() {
        (&c.black, &c.red)
    } else {
        (&c.red, &c.black)
    };
    format!(
        "{}-{} x{} {}/{} {}",
        c.start_ply,
        c.end_ply,
        c.occurrences,
        pattern(red),
        pattern(black),
        o.verdict(c.verdict).name()
    )
}

/// The natural-limit counts of both claimants at the end of every capture-free window (the ply
/// before each capture, and the end of the line).
fn limit_counts(
    start: &Position,
    moves: &[Move],
    natures: &[MoveNature],
    o: Orientation,
) -> Vec<LimitCount> {
    let n = natures.len();
    let Ok(facts) = limit::facts_for_line(start, &moves[..n], natures) else {
        return Vec::new();
    };
    let mut ends: Vec<u32> = facts
        .iter()
        .filter(|f| f.capture && f.ply > 1)
        .map(|f| f.ply - 1)
        .collect();
    ends.push(n as u32);
    let mut out = Vec::new();
    for at in ends {
        for claimant in [Color::Red, Color::Black] {
            let Ok(r) = limit::count(
                &facts,
                at,
                claimant,
                &LimitProfile::slow(),
                CountingMode::FromCapture,
                0,
                &ClaimPosition::default(),
            ) else {
                continue;
            };
            out.push(LimitCount {
                at_ply: at,
                claimant: o.color(claimant),
                checks: r.checks,
                mate_threats: r.mate_threats,
                chases: r.chases,
                void: r.void,
                counted: r.counted,
            });
        }
    }
    out.sort_by_key(|c| (c.at_ply, c.claimant == Color::Black));
    out
}

/// Rules the line from `start` drawn in orientation `o` (natures, cycles, natural-limit counts)
/// and maps the answer back to the board as played. `start` and `moves` are as played.
pub fn ruling(start: &Position, moves: &[Move], profile: &Profile, o: Orientation) -> Ruling {
    let ostart = o.position(start);
    let omoves: Vec<Move> = moves.iter().map(|&m| o.mv(m)).collect();
    let (natures, error) = match try_classify_line(&ostart, &omoves, profile) {
        Ok(n) => (n, None),
        Err((n, e)) => (
            n,
            Some(match e {
                LineError::Illegal(e) => format!("illegal move {}", e.index + 1),
                e => e.to_string(),
            }),
        ),
    };
    let played = &omoves[..natures.len()];
    Ruling {
        moves: natures.iter().map(|n| move_ruling(n, o)).collect(),
        cycles: find_cycles(&ostart, played, &natures, profile)
            .iter()
            .map(|c| cycle_text(c, o))
            .collect(),
        limits: limit_counts(&ostart, &omoves, &natures, o),
        error,
    }
}

/// What differs between the board as played and another orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Aspect {
    /// The nature (check, mate threat, chase, idle, undetermined).
    Nature,
    /// The idle kind of an idle move.
    IdleKind,
    /// The set of chase targets (piece, square, how won).
    Targets,
    /// A target's joint flag.
    Joint,
    /// The pieces taking part in a joint target.
    Participants,
    /// A repetition cycle (patterns, verdict).
    Cycle,
    /// A natural-limit count.
    Limit,
    /// Where the classification stopped.
    Error,
}

impl Aspect {
    pub const ALL: [Aspect; 8] = [
        Aspect::Nature,
        Aspect::IdleKind,
        Aspect::Targets,
        Aspect::Joint,
        Aspect::Participants,
        Aspect::Cycle,
        Aspect::Limit,
        Aspect::Error,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Aspect::Nature => "nature",
            Aspect::IdleKind => "idle_kind",
            Aspect::Targets => "targets",
            Aspect::Joint => "joint",
            Aspect::Participants => "participants",
            Aspect::Cycle => "cycle",
            Aspect::Limit => "limit",
            Aspect::Error => "error",
        }
    }
}

/// One difference: in orientation `orientation`, at `ply` (1-based; 0 for the line as a whole),
/// `aspect` reads `other` where the board as played reads `played`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    pub orientation: Orientation,
    pub ply: usize,
    pub aspect: Aspect,
    pub played: String,
    pub other: String,
}

fn move_text(m: &MoveRuling) -> String {
    let mut s = m.kind.to_string();
    if let Some(k) = m.idle_kind {
        s.push_str(&format!("({k})"));
    }
    for (i, t) in m.targets.iter().enumerate() {
        s.push_str(&format!(" [{t}"));
        if m.joint[i] {
            s.push_str(" joint");
            for p in &m.participants[i] {
                s.push_str(&format!(" {p}"));
            }
        }
        s.push(']');
    }
    s
}

/// The first aspect in which two rulings of a move differ, coarsest first.
fn move_aspect(a: &MoveRuling, b: &MoveRuling) -> Option<Aspect> {
    if a.kind != b.kind {
        Some(Aspect::Nature)
    } else if a.idle_kind != b.idle_kind {
        Some(Aspect::IdleKind)
    } else if a.targets != b.targets {
        Some(Aspect::Targets)
    } else if a.joint != b.joint {
        Some(Aspect::Joint)
    } else if a.participants != b.participants {
        Some(Aspect::Participants)
    } else {
        None
    }
}

/// Compares a ruling of another orientation with the ruling of the board as played.
pub fn compare(played: &Ruling, other: &Ruling, o: Orientation) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut push = |ply, aspect, a: String, b: String| {
        out.push(Difference {
            orientation: o,
            ply,
            aspect,
            played: a,
            other: b,
        })
    };
    if played.error != other.error || played.moves.len() != other.moves.len() {
        push(
            0,
            Aspect::Error,
            format!("{} moves {:?}", played.moves.len(), played.error),
            format!("{} moves {:?}", other.moves.len(), other.error),
        );
    }
    for (i, (a, b)) in played.moves.iter().zip(&other.moves).enumerate() {
        if let Some(aspect) = move_aspect(a, b) {
            push(i + 1, aspect, move_text(a), move_text(b));
        }
    }
    if played.cycles != other.cycles {
        push(
            0,
            Aspect::Cycle,
            played.cycles.join("; "),
            other.cycles.join("; "),
        );
    }
    for (a, b) in played.limits.iter().zip(&other.limits) {
        if a != b {
            push(
                a.at_ply as usize,
                Aspect::Limit,
                format!("{a:?}"),
                format!("{b:?}"),
            );
        }
    }
    if played.limits.len() != other.limits.len() {
        push(
            0,
            Aspect::Limit,
            format!("{} counts", played.limits.len()),
            format!("{} counts", other.limits.len()),
        );
    }
    out
}

/// Rules the line in all four orientations under `profile` with the tournament overlay off,
/// and lists every difference from the board as played. Also returns the ruling as played.
pub fn differences(
    start: &Position,
    moves: &[Move],
    profile: &Profile,
) -> (Ruling, Vec<Difference>) {
    let profile = colour_blind(profile);
    let played = ruling(start, moves, &profile, Orientation::AsPlayed);
    let mut out = Vec::new();
    for o in &Orientation::ALL[1..] {
        let other = ruling(start, moves, &profile, *o);
        out.extend(compare(&played, &other, *o));
    }
    (played, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_orientation_is_its_own_inverse_and_keeps_legality() {
        let pos = Position::from_fen("2bak4/4a4/4b2c1/p7p/2p2rn2/2P3B2/P2CP3P/5C3/4A4/2BAK2R1 w")
            .unwrap();
        for o in Orientation::ALL {
            for i in 0..90 {
                let s = Square::from_index(i);
                assert_eq!(o.square(o.square(s)), s);
            }
            let q = o.position(&pos);
            assert_eq!(o.position(&q).fen(), pos.fen());
            assert_eq!(q.legal_moves().len(), pos.legal_moves().len(), "{o:?}");
        }
        let a0 = Square::from_xy(0, 0).unwrap();
        let sq = |o: Orientation| o.square(a0).to_string();
        assert_eq!(sq(Orientation::Mirrored), "i0");
        assert_eq!(sq(Orientation::ColoursSwapped), "i9");
        assert_eq!(sq(Orientation::Both), "a9");
        let swapped = Orientation::ColoursSwapped.position(&pos);
        assert_eq!(swapped.turn(), Color::Black);
    }
}
