//! Screening whole databases for rule incidents (`xqa screen`; the driver and its report are in
//! `crate::report::screen`): every game of the records is
//! read, its main line replayed and its repetition cycles ruled on, in
//! parallel on the current rayon pool, and the games with an incident are reported in input order.
//!
//! An incident is a repetition cycle whose ruling is that one side must vary (长打 against
//! allowed play), or a cycle or move the search budget could not decide. Only the moves whose
//! natures a ruling reads are judged: those of the repetition cycles (and every move for the
//! natural move limit); the rest of a game costs a legality check a move. Drawn cycles are listed
//! too with [`ScreenOptions::draws`]. A record that cannot be read or replayed to the end is
//! screened as far as it goes and its error is reported with the game.

use serde::Serialize;

use crate::notation::{Notation, print_move};
use crate::position::Position;
use crate::record::game::GameEntry;
use crate::report::problem;
use crate::rules::event::{EarlyDraw, early_draw};
use crate::rules::limit::{ClaimOptions, claim_with_natures};
use crate::rules::nature::{NatureKind, try_classify_line_where};
use crate::rules::profile::Profile;
use crate::rules::repetition::{Cycle, Verdict, find_cycles, plies_ruled_on};
use crate::types::{Color, Move};

/// What to screen for.
#[derive(Clone, Debug)]
pub struct ScreenOptions {
    pub profile: Profile,
    /// Also report drawn cycles (both sides allowed, or both forbidden).
    pub draws: bool,
    /// Report every game, with or without incidents (JSON mode).
    pub all: bool,
    /// One JSON object per reported game per line instead of text.
    pub json: bool,
    /// Also find where a natural move limit (自然限着) claim would first be valid, under these
    /// options (their `rules` are ignored: the screening profile judges the natures).
    pub limit: Option<ClaimOptions>,
    /// An event's ban on draw offers within this many moves (`no_draw_offer_within` of an event
    /// file): a game recorded as drawn in fewer moves is reported.
    pub draw_offer_within: Option<u32>,
    /// The event screened under (its name, as reports name it), if any.
    pub event: Option<EventNames>,
}

/// The event and the time control a screen follows, as its reports name them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventNames {
    pub event: String,
    pub event_en: Option<String>,
    /// The time control whose natural move limit is screened for (none: the limit is not
    /// screened, or screened under a profile given by name).
    pub time_control: Option<String>,
    pub time_control_zh: Option<String>,
}

impl EventNames {
    /// "赛事：2020年全国象棋个人锦标赛，赛制：快棋" / "Event: 2020 National ..., time control rapid".
    pub fn line(&self, lang: crate::rules::limit::Lang) -> String {
        use crate::rules::limit::Lang;
        match lang {
            Lang::Zh => format!(
                "赛事：{}{}\n",
                self.event,
                self.time_control
                    .as_ref()
                    .map_or(String::new(), |tc| format!(
                        "，赛制：{}",
                        self.time_control_zh.as_deref().unwrap_or(tc)
                    ))
            ),
            Lang::En => format!(
                "Event: {}{}\n",
                self.event_en.as_deref().unwrap_or(&self.event),
                self.time_control
                    .as_ref()
                    .map_or(String::new(), |tc| format!(", time control {tc}"))
            ),
        }
    }
}

/// A point where a natural move limit claim would be valid: the first ply of a capture-free
/// stretch at which the claimant's counted moves reach the limit.
#[derive(Clone, Debug, Serialize)]
pub struct LimitIncident {
    pub claimant: Color,
    /// Plies played when the claim would first be valid.
    pub ply: u32,
    /// The stretch without capture opens after this ply.
    pub window_start_ply: u32,
    pub counted: u32,
    pub required: u32,
    /// Whether the claim passes the profile's admissibility test at that point.
    pub admissible: bool,
    /// Whether the claim stands (count reached, admissible, the game not over on the board).
    pub valid: bool,
}

/// One reported cycle: the cycle as `xqa adjudicate` gives it, with the moves of its loop.
#[derive(Clone, Debug, Serialize)]
pub struct Incident {
    #[serde(flatten)]
    pub cycle: Cycle,
    /// The occurrence count has reached the one the rulebook rules on (the third, by default).
    pub ruling_due: bool,
    /// The moves of one loop of the cycle, in Chinese notation.
    pub moves_chinese: Vec<String>,
    /// The same moves in ICCS.
    pub moves_iccs: Vec<String>,
}

/// The screening of one game.
#[derive(Clone, Debug, Serialize)]
pub struct GameScreen {
    pub source: String,
    /// 1-based number of the game in its source.
    pub game: usize,
    pub red: Option<String>,
    pub black: Option<String>,
    pub event: Option<String>,
    pub date: Option<String>,
    /// Plies of the main line screened (up to the first error).
    pub plies: usize,
    /// Why the record could not be screened to its end.
    pub error: Option<String>,
    /// The input could not be read at all (missing file, I/O error).
    #[serde(skip)]
    pub unreadable: bool,
    /// Plies (1-based) whose nature the search budget could not decide, among the moves judged:
    /// those whose natures the repetition cycles read (with [`ScreenOptions::limit`], every
    /// move). A move of a game that repeats nothing rules on nothing and is not judged.
    pub undetermined: Vec<usize>,
    pub incidents: Vec<Incident>,
    /// Natural move limit claims that would be valid (with [`ScreenOptions::limit`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub limit: Vec<LimitIncident>,
    /// Recorded as drawn before the move from which the event allows draw offers (with
    /// [`ScreenOptions::draw_offer_within`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub early_draw: Option<EarlyDraw>,
}

impl GameScreen {
    /// Screens one game as read from its record.
    pub fn of(entry: &GameEntry, options: &ScreenOptions) -> GameScreen {
        let game = &entry.game;
        let moves = game.main_moves();
        // A record without moves (a title entry of a library) has nothing to screen.
        let mut error = problem(entry)
            .filter(|e| e.kind != crate::record::error::kind::NO_MOVES)
            .map(|e| e.to_string());
        // Only the moves whose natures the cycles read are judged (the rest of a game, which
        // repeats nothing, costs a legality check a move), unless the natural move limit
        // counts every move's nature.
        let judged = options
            .limit
            .is_none()
            .then(|| plies_ruled_on(&game.start, &moves));
        let judge = |i: usize| {
            judged
                .as_ref()
                .is_none_or(|j| j.get(i).copied().unwrap_or(true))
        };
        let natures = match try_classify_line_where(&game.start, &moves, &options.profile, judge) {
            Ok(n) => n,
            Err((n, e)) => {
                error.get_or_insert_with(|| e.to_string());
                n
            }
        };
        let moves = &moves[..natures.len()];
        let undetermined = natures
            .iter()
            .enumerate()
            .filter(|(_, n)| n.kind == NatureKind::Undetermined)
            .map(|(i, _)| i + 1)
            .collect();
        let incidents = find_cycles(&game.start, moves, &natures, &options.profile)
            .into_iter()
            .filter(|c| options.draws || c.verdict != Verdict::Draw)
            .map(|cycle| incident(&game.start, moves, cycle, &options.profile))
            .collect();
        let limit = options.limit.as_ref().map_or_else(Vec::new, |claim| {
            limit_incidents(&game.start, moves, &natures, claim)
        });
        // The record's own length and result (not the part screened: a record broken later
        // was still recorded as drawn after all its moves).
        let early_draw = options.draw_offer_within.and_then(|within| {
            early_draw(
                within,
                game.result,
                game.main.nodes.len(),
                game.start.turn(),
            )
        });
        let tag = |name: &str| game.tag(name).filter(|v| !v.is_empty()).map(str::to_owned);
        GameScreen {
            source: entry.source.clone(),
            game: entry.index + 1,
            red: tag("Red"),
            black: tag("Black"),
            event: tag("Event"),
            date: tag("Date"),
            plies: natures.len(),
            unreadable: entry
                .error
                .as_ref()
                .is_some_and(|e| e.kind == crate::record::error::kind::IO),
            error,
            undetermined,
            incidents,
            limit,
            early_draw,
        }
    }

    /// Whether the game has anything to report.
    pub fn has_incident(&self) -> bool {
        !self.incidents.is_empty()
            || !self.undetermined.is_empty()
            || !self.limit.is_empty()
            || self.early_draw.is_some()
    }
}

/// For each stretch without capture and each claimant, the first ply at which a natural move
/// limit claim would be valid. Only plies late enough in a stretch for the claimant to have made
/// the required number of moves are counted.
fn limit_incidents(
    start: &Position,
    moves: &[Move],
    natures: &[crate::rules::nature::MoveNature],
    claim: &ClaimOptions,
) -> Vec<LimitIncident> {
    let mut out = Vec::new();
    let need = claim.profile.moves as usize;
    if need == 0 || moves.len() < need {
        return out;
    }
    let mut pos = *start;
    let mut last_capture = 0usize;
    let mut found = [false; 2];
    for (i, &m) in moves.iter().enumerate() {
        if pos.piece_at(m.to).is_some() {
            last_capture = i + 1;
            found = [false; 2];
        }
        pos.play_unchecked(m);
        let ply = i + 1;
        // Each side needs `need` moves of its own in the stretch.
        if ply - last_capture + 1 < 2 * need || found == [true; 2] {
            continue;
        }
        for claimant in [Color::Red, Color::Black] {
            let k = claimant.index();
            if found[k] {
                continue;
            }
            let Ok(r) = claim_with_natures(
                start,
                &moves[..ply],
                &natures[..ply],
                claimant,
                ply as u32,
                claim,
            ) else {
                continue;
            };
            if r.needed == 0 && r.opponent_needed == 0 {
                found[k] = true;
                out.push(LimitIncident {
                    claimant,
                    ply: ply as u32,
                    window_start_ply: r.window_start_ply,
                    counted: r.counted,
                    required: r.required,
                    admissible: r.admissible,
                    valid: r.valid,
                });
            }
        }
    }
    out
}

/// The cycle with the moves of its last loop.
fn incident(start: &Position, moves: &[Move], cycle: Cycle, profile: &Profile) -> Incident {
    let loop_len = {
        // The loop is the shortest one ending at `end_ply`: find where its position stood last.
        let mut pos = *start;
        let mut keys = Vec::with_capacity(cycle.end_ply + 1);
        keys.push(pos.key());
        for &m in &moves[..cycle.end_ply] {
            pos.play_unchecked(m);
            keys.push(pos.key());
        }
        let last = keys[cycle.end_ply];
        keys[..cycle.end_ply]
            .iter()
            .rposition(|&k| k == last)
            .map_or(0, |j| cycle.end_ply - j)
    };
    let from = cycle.end_ply - loop_len;
    let mut pos = *start;
    for &m in &moves[..from] {
        pos.play_unchecked(m);
    }
    let mut moves_chinese = Vec::with_capacity(loop_len);
    let mut moves_iccs = Vec::with_capacity(loop_len);
    for &m in &moves[from..cycle.end_ply] {
        moves_chinese.push(print_move(&pos, m, Notation::Chinese));
        moves_iccs.push(m.to_string());
        pos.play_unchecked(m);
    }
    Incident {
        ruling_due: cycle.occurrences >= profile.ruling_occurrence,
        cycle,
        moves_chinese,
        moves_iccs,
    }
}

/// Totals of a screening run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ScreenSummary {
    pub games: usize,
    pub plies: usize,
    /// Games with at least one incident.
    pub games_with_incidents: usize,
    /// Cycles reported.
    pub incidents: usize,
    /// Of those, cycles whose occurrence count has reached the ruling.
    pub rulings_due: usize,
    pub undetermined_moves: usize,
    /// Games recorded as drawn before the event allows draw offers.
    pub early_draws: usize,
    /// Games that could not be read or replayed to the end.
    pub invalid: usize,
    /// Inputs that could not be read at all (missing files, I/O errors).
    pub unreadable: usize,
    /// Files that hold no game record in any known format (reported with their path, not
    /// counted among the games).
    pub not_records: usize,
    /// Directory entries skipped as not regular files (FIFOs, devices, sockets).
    pub skipped: usize,
    pub seconds: f64,
}

impl std::fmt::Display for ScreenSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} games, {} plies screened in {:.2} s ({:.0} moves/s): {} cycles reported in {} games \
             ({} with the ruling due), {} undetermined moves, {} games invalid, {} inputs unreadable",
            self.games,
            self.plies,
            self.seconds,
            if self.seconds > 0.0 {
                self.plies as f64 / self.seconds
            } else {
                0.0
            },
            self.incidents,
            self.games_with_incidents,
            self.rulings_due,
            self.undetermined_moves,
            self.invalid,
            self.unreadable
        )?;
        if self.early_draws > 0 {
            write!(
                f,
                ", {} games recorded as drawn before draw offers are allowed",
                self.early_draws
            )?;
        }
        if self.not_records > 0 {
            write!(f, ", {} files not game records", self.not_records)?;
        }
        if self.skipped > 0 {
            write!(f, ", {} entries skipped (not regular files)", self.skipped)?;
        }
        Ok(())
    }
}
