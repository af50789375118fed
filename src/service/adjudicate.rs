//! `adjudicate`: the nature of every move, the repetition cycles and their verdicts, and the
//! natural move limit status at a ply.

use super::input::{MovesSyntax, load_line_with};
use super::options::{SettingsText, named_limit_profile, rules_profile};
use super::{GameInput, ServiceError};
use crate::rules::adjudicate::{self, Report};
use crate::rules::limit::ClaimOptions;

/// The options of `adjudicate`.
#[derive(Clone, Debug)]
pub struct AdjudicateOptions {
    /// Rule profile: cxa or axf.
    pub rules: String,
    /// A settings file for the rule profile (wins over `rules`).
    pub settings: Option<SettingsText>,
    /// Plies played when the natural move limit status is taken (`None`: the whole game).
    pub at: Option<u32>,
    /// The natural move limit profile: slow, rapid or amateur40.
    pub limit_profile: String,
}

impl Default for AdjudicateOptions {
    fn default() -> AdjudicateOptions {
        AdjudicateOptions {
            rules: "cxa".into(),
            settings: None,
            at: None,
            limit_profile: "slow".into(),
        }
    }
}

/// The ruling on a game, with the line ruled on. A broken record is ruled on as far as its legal
/// part goes, and `line.error` says why it stops.
#[derive(Clone, Debug)]
pub struct AdjudicateReport {
    pub report: Report,
    pub line: super::Line,
}

impl std::ops::Deref for AdjudicateReport {
    type Target = Report;
    fn deref(&self) -> &Report {
        &self.report
    }
}

impl AdjudicateReport {
    /// The JSON object `xqa adjudicate --json` prints (pretty, without the final newline).
    pub fn to_json(&self) -> String {
        let v = crate::report::rulings::adjudicate_json(
            &self.report,
            &self.line.start,
            self.line.header(),
            self.line.error_json(),
        );
        serde_json::to_string_pretty(&v).expect("report serialises")
    }

    /// The text `xqa adjudicate` prints, in Chinese and English.
    pub fn to_text(&self) -> String {
        self.to_text_in(crate::report::text::TextLang::Both)
    }

    /// The text `xqa adjudicate --lang` prints (with the record's error at the end, if any).
    pub fn to_text_in(&self, lang: crate::report::text::TextLang) -> String {
        let mut out = crate::report::text::adjudicate_text(&self.report, &self.line.start, lang);
        if let Some(e) = &self.line.error {
            out.push_str(&format!(
                "\nthe record is broken: ruled on its first {} plies only: {e}\n",
                self.line.moves.len()
            ));
        }
        out
    }
}

/// Rules on the game of `input`: the report `xqa adjudicate` prints (`to_json` for `--json`,
/// `to_text` otherwise). A broken record is ruled on up to its bad move.
pub fn adjudicate(
    input: &GameInput,
    options: &AdjudicateOptions,
) -> Result<AdjudicateReport, ServiceError> {
    let (report, line) = adjudicate_line(input, options)?;
    Ok(AdjudicateReport { report, line })
}

/// As [`adjudicate`], giving the report and the line ruled on apart.
pub fn adjudicate_line(
    input: &GameInput,
    options: &AdjudicateOptions,
) -> Result<(Report, super::Line), ServiceError> {
    let profile = rules_profile(&options.rules, options.settings.as_ref())?;
    let line = load_line_with(input, MovesSyntax::Rules)?;
    if let Some(at) = options.at {
        line.check_ply("--at", at)?;
    }
    let limit_options = ClaimOptions {
        profile: named_limit_profile(&options.limit_profile)?,
        rules: profile.clone(),
        ..ClaimOptions::default()
    };
    let report = adjudicate::adjudicate(&line.start, &line.moves, &profile)
        .map_err(|e| ServiceError::invalid(e.to_string()))?
        .with_natural_limit(&line.start, &line.moves, options.at, &limit_options)
        .map_err(|e| ServiceError::invalid(e.to_string()))?;
    Ok((report, line))
}
