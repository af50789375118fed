//! The adjudication report: every move's nature with its chase targets, every repetition cycle
//! with both sides' patterns and the ruling, as a text table or one JSON object (issue 4).

use serde::Serialize;

use crate::position::Position;
use crate::rules::nature::{LineError, MoveNature, try_classify_line};
use crate::rules::profile::Profile;
use crate::rules::repetition::{Cycle, Verdict, final_verdict, find_cycles};
use crate::types::{Color, Move};

/// One move in the report.
#[derive(Clone, Debug, Serialize)]
pub struct MoveReport {
    /// 1-based ply number within the line.
    pub ply: usize,
    pub side: Color,
    pub iccs: String,
    /// The move in Chinese notation (马二退一).
    pub chinese: Option<String>,
    pub nature: String,
    pub idle_kind: Option<String>,
    pub targets: Vec<TargetReport>,
    /// The captured piece (FEN letter), if any.
    pub capture: Option<String>,
}

/// One chase target in the report.
#[derive(Clone, Debug, Serialize)]
pub struct TargetReport {
    pub square: String,
    /// FEN letter of the chased piece.
    pub piece: String,
    pub joint: bool,
    pub how: String,
    /// What made it a chase (`ChaseTarget::reason`).
    pub reason: String,
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub rules: String,
    pub moves: Vec<MoveReport>,
    pub cycles: Vec<Cycle>,
    /// The ruling on the most recent cycle, or `none`.
    pub verdict: Verdict,
    /// The natural move limit status for both possible claimants (see
    /// [`Report::with_natural_limit`]); absent until computed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub natural_limit: Option<NaturalLimitSection>,
    /// The event whose regulations were applied (see [`Report::with_event`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// The event's time control whose regulations were applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_control: Option<String>,
    /// Options given with the event that override its regulations.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<crate::rules::event::Override>,
    /// The result the ruling gives under the regulations (see [`Report::with_outcome`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<crate::rules::outcome::Outcome>,
    /// The game is recorded as drawn before the move from which the event allows draw offers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub early_draw: Option<crate::rules::event::EarlyDraw>,
    #[serde(skip)]
    pub natures: Vec<MoveNature>,
}

/// The natural move limit (自然限着) status at one ply, for both possible claimants.
#[derive(Clone, Debug, Serialize)]
pub struct NaturalLimitSection {
    /// Plies played when the status is taken.
    pub at_ply: u32,
    /// The limit profile applied (slow, rapid, amateur40 or custom).
    pub profile: String,
    pub red: crate::rules::limit::LimitReport,
    pub black: crate::rules::limit::LimitReport,
}

/// The move in Chinese notation.
fn chinese(pos: &Position, m: Move) -> Option<String> {
    Some(crate::notation::print_move(
        pos,
        m,
        crate::notation::Notation::Chinese,
    ))
}

/// Parses a line of ICCS moves (separated by spaces or commas; move numbers like `1.` are
/// skipped), checking each against the position. Errors name the move number and the text.
pub fn parse_iccs_line(start: &Position, text: &str) -> Result<Vec<Move>, String> {
    let mut pos = *start;
    let mut out = Vec::new();
    for tok in text.split(|c: char| c.is_whitespace() || c == ',') {
        let tok = tok.trim();
        if tok.is_empty()
            || tok
                .trim_end_matches('.')
                .chars()
                .all(|c| c.is_ascii_digit())
        {
            continue;
        }
        let ply = out.len() + 1;
        let m = Move::parse_iccs(tok)
            .ok_or_else(|| format!("ply {ply}: '{tok}' is not an ICCS move (like h2e2)"))?;
        if !pos.legal_moves().contains(&m) {
            let why = match pos.piece_at(m.from) {
                None => "there is no piece on the from-square".to_string(),
                Some(p) if p.color != pos.turn() => {
                    format!("the piece there is not {}'s", pos.turn().name())
                }
                Some(_) => "the move is not legal here".to_string(),
            };
            return Err(format!(
                "ply {ply}: '{tok}': {why} (position {})",
                pos.fen()
            ));
        }
        pos.play_unchecked(m);
        out.push(m);
    }
    Ok(out)
}

/// Classifies every move and rules on every cycle.
pub fn adjudicate(
    start: &Position,
    moves: &[Move],
    profile: &Profile,
) -> Result<Report, LineError> {
    let natures = try_classify_line(start, moves, profile).map_err(|(_, e)| e)?;
    let cycles = find_cycles(start, moves, &natures, profile);
    let mut pos = *start;
    let mut reports = Vec::with_capacity(moves.len());
    for (i, n) in natures.iter().enumerate() {
        reports.push(MoveReport {
            ply: i + 1,
            side: n.side,
            iccs: n.mv.to_string(),
            chinese: chinese(&pos, n.mv),
            nature: n.kind.name().to_string(),
            idle_kind: n.idle_kind.map(|k| k.name().to_string()),
            targets: n
                .targets
                .iter()
                .map(|t| TargetReport {
                    square: t.square.to_string(),
                    piece: t.piece.char().to_string(),
                    joint: t.joint,
                    how: t.how.name().to_string(),
                    reason: t.reason.clone(),
                })
                .collect(),
            capture: n.capture.map(|p| p.char().to_string()),
        });
        pos.play_unchecked(n.mv);
    }
    Ok(Report {
        rules: profile.name.clone(),
        moves: reports,
        verdict: final_verdict(&cycles),
        cycles,
        natural_limit: None,
        event: None,
        time_control: None,
        overrides: Vec::new(),
        outcome: None,
        early_draw: None,
        natures,
    })
}

/// Pads to a display width, counting CJK characters as two columns.
fn pad(s: &str, width: usize) -> String {
    let w: usize = s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
    format!("{s}{}", " ".repeat(width.saturating_sub(w)))
}

impl Report {
    /// Adds the natural move limit status after `at_ply` plies (the whole line when `None`),
    /// reusing the natures already computed.
    pub fn with_natural_limit(
        mut self,
        start: &Position,
        moves: &[Move],
        at_ply: Option<u32>,
        options: &crate::rules::limit::ClaimOptions,
    ) -> Result<Report, crate::rules::limit::LimitError> {
        let at = at_ply.unwrap_or(moves.len() as u32);
        let status =
            crate::rules::limit::natural_limit_status(start, moves, &self.natures, at, options)?;
        self.natural_limit = Some(NaturalLimitSection {
            at_ply: at,
            profile: options.profile.name.clone(),
            red: status.red,
            black: status.black,
        });
        Ok(self)
    }

    /// Names the event and checks its regulations on the record: a game recorded as drawn
    /// (`result`) before the move from which the event allows draw offers is flagged. (The
    /// event's rules profile is the one to adjudicate with: [`crate::rules::event::Event::rules`].)
    pub fn with_event(
        mut self,
        event: &crate::rules::event::Event,
        time_control: &crate::rules::event::TimeControl,
        result: Option<crate::record::game::GameResult>,
        start: &Position,
    ) -> Report {
        self.event = Some(event.name.clone());
        self.time_control = Some(time_control.name.clone());
        self.early_draw = event.early_draw(result, self.moves.len(), start.turn());
        self
    }

    /// Adds the outcome of the ruling ([`crate::rules::outcome::of_cycles`]), a draw scored as
    /// `odds` say, compared with the record's `result`. `start` is the line's start position.
    pub fn with_outcome(
        mut self,
        start: &Position,
        odds: crate::rules::outcome::DrawOdds,
        result: Option<crate::record::game::GameResult>,
    ) -> Report {
        let mut end = *start;
        for n in &self.natures {
            end.play_unchecked(n.mv);
        }
        self.outcome = Some(
            crate::rules::outcome::of_cycles(&self.cycles, self.natures.len(), &end, odds)
                .against_record(result),
        );
        self
    }

    /// The report as one JSON object.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("report serializes")
    }

    /// The report as a text table followed by the cycles.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(out, "rules: {}", self.rules);
        if let Some(e) = &self.event {
            let _ = writeln!(out, "event: {e}");
        }
        if let Some(d) = &self.early_draw {
            let _ = writeln!(
                out,
                "early draw: recorded {} after {} moves, but the event allows no draw offers within {} moves\n  {}\n  {}",
                d.result, d.moves, d.within, d.reason_zh, d.reason_en
            );
        }
        let _ = writeln!(
            out,
            "{:>4}  {:<5}  {:<5} {:<8} {:<16} targets",
            "ply", "side", "iccs", "move", "nature"
        );
        for (m, n) in self.moves.iter().zip(&self.natures) {
            let mv = m.chinese.clone().unwrap_or_else(|| m.iccs.clone());
            let nature = match n.idle_kind {
                Some(k) => format!("{}({}) {}", n.kind.name_zh(), k.name_zh(), k.name()),
                None => format!("{} {}", n.kind.name_zh(), n.kind.name()),
            };
            let targets: Vec<String> = n
                .targets
                .iter()
                .map(|t| {
                    let by: Vec<String> = t.by.iter().map(|s| s.to_string()).collect();
                    format!(
                        "{}{}{} by {} ({})",
                        t.piece.glyph(),
                        t.square,
                        if t.joint { " joint" } else { "" },
                        t.how.name(),
                        by.join("+")
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "{:>4}  {:<5}  {:<5} {} {:<16} {}",
                m.ply,
                m.side.name(),
                m.iccs,
                pad(&mv, 8),
                nature,
                targets.join(", ")
            );
        }
        if self.cycles.is_empty() {
            let _ = writeln!(out, "\nno position repeated");
        }
        for c in &self.cycles {
            let _ = writeln!(
                out,
                "\ncycle plies {}-{} (occurrence {}: {} along the loop, {} visits; counted {}):\n  red:   {} {} [{}]\n  black: {} {} [{}]\n  verdict: {}\n  {}\n  {}",
                c.start_ply,
                c.end_ply,
                c.occurrences,
                c.loop_occurrences,
                c.visits,
                c.counting.name(),
                c.red.name,
                c.red.pattern,
                c.red.natures.join(" "),
                c.black.name,
                c.black.pattern,
                c.black.natures.join(" "),
                c.verdict.name(),
                c.reason_zh,
                c.reason_en
            );
        }
        if let Some(nl) = &self.natural_limit {
            use crate::rules::limit::Lang;
            let _ = writeln!(
                out,
                "\nnatural move limit 自然限着 ({}) at ply {}:",
                nl.profile, nl.at_ply
            );
            for r in [&nl.red, &nl.black] {
                let _ = writeln!(out, "  {}", r.verdict_text(Lang::En));
                let _ = writeln!(out, "  {}", r.verdict_text(Lang::Zh));
            }
        }
        let _ = writeln!(out, "\nverdict: {}", self.verdict.name());
        out
    }
}
