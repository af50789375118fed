//! Test kit of the concept files (test builds only): classify the last move of a line (a FEN and
//! ICCS moves) under a profile, and the same line in all four orientations of the board
//! (identity, mirrored a<->i, colours swapped with the board turned round, and both), asserting
//! that every orientation gets the same nature: the same kind and idle kind, the same targets
//! (on the transformed squares), each won the same way, with the same joint flag, the same
//! capturer and the same other participants, and the same reason.
//!
//! Every constructed position of the concept tests goes through [`every_orientation`], so that
//! a rule that holds on one side of the board holds on the other and for the other colour.

use crate::position::Position;
use crate::rules::nature::{IdleKind, MoveNature, NatureKind, WinHow, try_classify_line};
use crate::rules::profile::Profile;
use crate::types::{Move, Square};

/// One of the four orientations of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Orientation {
    /// As given.
    Identity,
    /// Files mirrored (a<->i), colours kept.
    Mirror,
    /// Colours swapped (red<->black) and the board turned round (each square to the one
    /// opposite), so that each side still plays from its own side.
    Swap,
    /// Both: colours swapped and ranks turned, files kept.
    MirrorSwap,
}

pub(crate) const ALL: [Orientation; 4] = [
    Orientation::Identity,
    Orientation::Mirror,
    Orientation::Swap,
    Orientation::MirrorSwap,
];

impl Orientation {
    fn mirrors_files(self) -> bool {
        matches!(self, Orientation::Mirror | Orientation::Swap)
    }

    fn swaps(self) -> bool {
        matches!(self, Orientation::Swap | Orientation::MirrorSwap)
    }

    /// Where the square `s` goes.
    pub(crate) fn square(self, s: Square) -> Square {
        let (f, r) = (s.file().index() as i32, s.rank().index() as i32);
        let f = if self.mirrors_files() { 8 - f } else { f };
        let r = if self.swaps() { 9 - r } else { r };
        Square::from_xy(f, r).expect("on the board")
    }

    /// The line (`fen`, ICCS `moves`) in this orientation.
    pub(crate) fn line(self, fen: &str, moves: &str) -> (String, String) {
        let mut fields = fen.split_whitespace();
        let mut ranks: Vec<String> = fields
            .next()
            .expect("placement")
            .split('/')
            .map(|r| {
                let r: String = if self.mirrors_files() {
                    r.chars().rev().collect()
                } else {
                    r.to_string()
                };
                if self.swaps() {
                    r.chars()
                        .map(|c| {
                            if c.is_ascii_uppercase() {
                                c.to_ascii_lowercase()
                            } else {
                                c.to_ascii_uppercase()
                            }
                        })
                        .collect()
                } else {
                    r
                }
            })
            .collect();
        let mut turn = fields.next().unwrap_or("w").to_string();
        if self.swaps() {
            ranks.reverse();
            turn = if turn == "b" { "w".into() } else { "b".into() };
        }
        let moves = moves
            .split_whitespace()
            .map(|m| {
                let m = Move::parse_iccs(m).expect("ICCS move");
                Move::new(self.square(m.from), self.square(m.to)).to_string()
            })
            .collect::<Vec<_>>()
            .join(" ");
        (format!("{} {turn}", ranks.join("/")), moves)
    }
}

/// The nature of the last move of `moves` played from `fen`, under `profile`. Panics when the
/// FEN is not a legal position or a move is not legal.
pub(crate) fn last(fen: &str, moves: &str, profile: &Profile) -> MoveNature {
    let start = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let line: Vec<Move> = moves
        .split_whitespace()
        .map(|m| Move::parse_iccs(m).unwrap_or_else(|| panic!("{m}: not ICCS")))
        .collect();
    let natures = try_classify_line(&start, &line, profile).unwrap_or_else(|(_, e)| panic!("{e}"));
    natures.last().expect("a move").clone()
}

/// One chase target as [`Seen`] compares it: (target, joint, how, capturer, the other
/// participants sorted, reason).
type SeenTarget = (Square, bool, WinHow, Option<Square>, Vec<Square>, String);

/// What of a nature must not change with the orientation, its squares mapped back by `o`.
#[derive(Debug, PartialEq, Eq)]
struct Seen {
    kind: NatureKind,
    idle_kind: Option<IdleKind>,
    /// The targets, sorted by square.
    targets: Vec<SeenTarget>,
}

fn seen(n: &MoveNature, back: Orientation) -> Seen {
    let mut targets: Vec<SeenTarget> = n
        .targets
        .iter()
        .map(|t| {
            let by: Vec<Square> = t.by.iter().map(|&s| back.square(s)).collect();
            let mut rest: Vec<Square> = by.iter().skip(1).copied().collect();
            rest.sort();
            (
                back.square(t.square),
                t.joint,
                t.how,
                by.first().copied(),
                rest,
                t.reason.clone(),
            )
        })
        .collect();
    targets.sort_by_key(|t| t.0);
    Seen {
        kind: n.kind,
        idle_kind: n.idle_kind,
        targets,
    }
}

/// [`last`] in all four orientations: asserts that they agree (see the module comment) and
/// returns the nature on the board as given.
pub(crate) fn every_orientation(fen: &str, moves: &str, profile: &Profile) -> MoveNature {
    let n = last(fen, moves, profile);
    let want = seen(&n, Orientation::Identity);
    for o in ALL {
        let (f, m) = o.line(fen, moves);
        let t = last(&f, &m, profile);
        // Every orientation is its own inverse.
        assert_eq!(seen(&t, o), want, "{o:?}: {f} | {m}");
    }
    n
}

/// [`every_orientation`] under the CXA profile.
pub(crate) fn cxa(fen: &str, moves: &str) -> MoveNature {
    every_orientation(fen, moves, &Profile::cxa())
}

/// [`every_orientation`] under the AXF profile.
pub(crate) fn axf(fen: &str, moves: &str) -> MoveNature {
    every_orientation(fen, moves, &Profile::axf())
}

/// The chased squares, sorted.
pub(crate) fn targets(n: &MoveNature) -> Vec<String> {
    let mut v: Vec<String> = n.targets.iter().map(|t| t.square.to_string()).collect();
    v.sort();
    v
}

/// The pieces taking part in the chase of `square`, sorted.
pub(crate) fn by(n: &MoveNature, square: &str) -> Vec<String> {
    let t = n
        .targets
        .iter()
        .find(|t| t.square.to_string() == square)
        .unwrap_or_else(|| panic!("{square} not chased: {n:?}"));
    let mut v: Vec<String> = t.by.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Asserts the nature is a chase of exactly `squares` (sorted) and returns it.
pub(crate) fn assert_chase(n: &MoveNature, squares: &[&str]) {
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(targets(n), squares, "{n:?}");
}

/// Asserts the nature is idle with the idle kind `kind`.
pub(crate) fn assert_idle(n: &MoveNature, kind: Option<IdleKind>) {
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    assert_eq!(n.idle_kind, kind, "{n:?}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_orientation_is_its_own_inverse_and_keeps_a_legal_line() {
        let (fen, moves) = ("4k4/9/9/9/4n4/9/9/9/R8/3K5 w", "a1a5");
        for o in ALL {
            let (f, m) = o.line(fen, moves);
            assert_eq!(
                o.line(&f, &m),
                (fen.to_string(), moves.to_string()),
                "{o:?}"
            );
            last(&f, &m, &Profile::cxa());
        }
        let a5 = Square::parse("a5").unwrap();
        assert_eq!(Orientation::Mirror.square(a5).to_string(), "i5");
        assert_eq!(Orientation::Swap.square(a5).to_string(), "i4");
        assert_eq!(Orientation::MirrorSwap.square(a5).to_string(), "a4");
        assert_eq!(
            Orientation::Swap.line(fen, moves).0,
            "5k3/8r/9/9/9/4N4/9/9/9/4K4 b"
        );
    }
}
