//! `adjudicate`: the nature of every move, the repetition cycles and their verdicts, and the
//! natural move limit status at a ply.

use super::input::{MovesSyntax, load_line_with};
use super::options::{SettingsText, event_choice, event_of, named_limit_profile, request_profile};
use super::{GameInput, ServiceError};
use crate::rules::adjudicate::{self, Report};
use crate::rules::event::Override;
use crate::rules::limit::ClaimOptions;

/// The options of `adjudicate`.
#[derive(Clone, Debug)]
pub struct AdjudicateOptions {
    /// Rule profile: cxa or axf.
    pub rules: String,
    /// A settings file for the rule profile (wins over `rules`).
    pub settings: Option<SettingsText>,
    /// An event file's text (events/*.json): its rules profile, overlay, occurrence counting and
    /// natural move limit (win over `rules`, `settings` and the default limit profile).
    pub event: Option<SettingsText>,
    /// The event's time control whose natural move limit applies (`None`: the event's default).
    pub time_control: Option<String>,
    /// Turn the tournament overlay on (a drawn cycle within the first moves: Red must vary).
    pub overlay: bool,
    /// Plies played when the natural move limit status is taken (`None`: the whole game).
    pub at: Option<u32>,
    /// The natural move limit profile: slow, rapid or amateur40 (`None`: the event's time
    /// control, else slow).
    pub limit_profile: Option<String>,
}

impl Default for AdjudicateOptions {
    fn default() -> AdjudicateOptions {
        AdjudicateOptions {
            rules: "cxa".into(),
            settings: None,
            event: None,
            time_control: None,
            overlay: false,
            at: None,
            limit_profile: None,
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
        serde_json::to_string_pretty(&self.to_json_value()).expect("report serialises")
    }

    /// The JSON object of [`Self::to_json`], as a value (the server writes it out as it goes,
    /// without holding its text).
    pub fn to_json_value(&self) -> serde_json::Value {
        crate::report::rulings::adjudicate_json(
            &self.report,
            &self.line.start,
            self.line.header(),
            self.line.error_json(),
        )
    }

    /// The text `xqa adjudicate` prints, in Chinese and English.
    pub fn to_text(&self) -> String {
        self.to_text_in(crate::report::text::TextLang::Both)
    }

    /// The text `xqa adjudicate --lang` prints (with the record's error at the end, if any).
    pub fn to_text_in(&self, lang: crate::report::text::TextLang) -> String {
        let mut out = crate::report::text::adjudicate_text(&self.report, &self.line.start, lang);
        if let Some(e) = &self.line.error {
            let n = self.line.moves.len();
            out.push('\n');
            if lang != crate::report::text::TextLang::En {
                out.push_str(&format!(
                    "棋谱有误：只裁决了前{n}步：{}\n",
                    crate::report::text::error_zh(e, Some(&self.line.start))
                ));
            }
            if lang != crate::report::text::TextLang::Zh {
                out.push_str(&format!(
                    "the record is broken: ruled on its first {n} plies only: {e}\n"
                ));
            }
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
    let event = event_of(options.event.as_ref())?;
    let profile = request_profile(
        &options.rules,
        options.settings.as_ref(),
        event.as_ref(),
        options.overlay,
    )?;
    let line = load_line_with(input, MovesSyntax::Rules)?;
    let time_control = event_choice(event.as_ref(), options.time_control.as_deref())?;
    // An explicit option wins over the event, and the report says so.
    let mut overrides = Vec::new();
    let limit = match (&options.limit_profile, time_control) {
        (Some(name), tc) => {
            let p = named_limit_profile(name)?;
            if let Some(tc) = tc {
                overrides.extend(Override::of(
                    "limit_profile",
                    tc.limit.name.clone(),
                    p.name.clone(),
                ));
            }
            p
        }
        (None, Some(tc)) => tc.limit.clone(),
        (None, None) => named_limit_profile("slow")?,
    };
    if let Some(e) = &event
        && options.overlay
        && !e.rules().tournament_overlay
    {
        overrides.extend(Override::of("overlay", "off".into(), "on".into()));
    }
    if let Some(at) = options.at {
        line.check_ply("--at", at)?;
    }
    let limit_options = ClaimOptions {
        profile: limit,
        rules: profile.clone(),
        ..ClaimOptions::default()
    };
    let mut report = adjudicate::adjudicate(&line.start, &line.moves, &profile)
        .map_err(|e| ServiceError::invalid(e.to_string()))?
        .with_natural_limit(&line.start, &line.moves, options.at, &limit_options)
        .map_err(|e| ServiceError::invalid(e.to_string()))?;
    let result = line.entry.as_ref().and_then(|g| g.game.result);
    if let (Some(e), Some(tc)) = (&event, time_control) {
        report = report.with_event(e, tc, result, &line.start);
        report.overrides = overrides;
    }
    let odds = time_control.map(|tc| tc.draw).unwrap_or_default();
    report = report.with_outcome(&line.start, odds, result);
    Ok((report, line))
}
