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

/// Rules on the game of `input`: the report `xqa adjudicate` prints (`Report::to_json` for
/// `--json`, `Report::to_text` otherwise).
pub fn adjudicate(input: &GameInput, options: &AdjudicateOptions) -> Result<Report, ServiceError> {
    Ok(adjudicate_line(input, options)?.0)
}

/// As [`adjudicate`], also giving the line ruled on (for drawing its positions).
pub fn adjudicate_line(
    input: &GameInput,
    options: &AdjudicateOptions,
) -> Result<(Report, super::Line), ServiceError> {
    let profile = rules_profile(&options.rules, options.settings.as_ref())?;
    let line = load_line_with(input, MovesSyntax::Rules)?;
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
