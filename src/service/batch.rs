//! The batch commands over records: `validate`, `convert` and `screen`, on in-memory records (for
//! the server and the Python package) and on paths (for the CLI's directory walks).

use super::ServiceError;
use super::options::{
    SettingsText, event_of, event_time_control, named_limit_profile, request_profile,
};
use crate::record::Notation;
use crate::report::{ConvertFormat, GameReport, Summary};
use crate::rules::limit::ClaimOptions;
use crate::rules::screen::{GameScreen, ScreenOptions, ScreenSummary};
use std::io::{self, Write};
use std::path::PathBuf;

/// The report on every game of the record in `bytes`: the objects `xqa validate --json` prints,
/// one per game, for a file named `name`.
pub fn validate(bytes: &[u8], name: &str) -> Vec<GameReport> {
    // (Game by game: only the reports are kept, not every game read.)
    validate_games(bytes, name).collect()
}

/// The report on every game of the record in `bytes`, one at a time as the games are read (the
/// server writes each out before reading the next: memory stays that of one game).
pub fn validate_games<'a>(bytes: &'a [u8], name: &'a str) -> impl Iterator<Item = GameReport> + 'a {
    super::input::games_in(bytes, name).map(|entry| GameReport::of(&entry))
}

/// The reports as `xqa validate --json` prints them: one JSON object per line.
pub fn validate_json_lines(reports: &[GameReport]) -> String {
    let mut out = String::new();
    for r in reports {
        out.push_str(&serde_json::to_string(r).expect("report serialises"));
        out.push('\n');
    }
    out
}

/// Validates every game of the paths on the current rayon pool, writing the lines of
/// `xqa validate` to `out` (see [`crate::report::validate`]).
pub fn validate_paths(paths: &[PathBuf], json: bool, out: &mut dyn Write) -> io::Result<Summary> {
    crate::report::validate(paths, json, out)
}

/// The notation and format named by `xqa convert --to` and `--format`.
pub fn convert_options(
    to: &str,
    format: &str,
    rank_base: Option<&str>,
) -> Result<(Notation, ConvertFormat), ServiceError> {
    let notation: Notation = to
        .parse()
        .map_err(|e| ServiceError::usage(format!("--to: {e}")))?;
    // SAN numbers ranks 1-10 (pychess.org) or 0-9 (WinBoard).
    let notation = match (notation.is_san(), rank_base) {
        (true, Some("0")) => Notation::SanWinboard,
        (true, Some("1")) => Notation::San,
        (true, Some(other)) => {
            return Err(ServiceError::usage(format!(
                "--rank-base: '{other}' (0 for WinBoard, 1 for pychess.org)"
            )));
        }
        (false, Some(_)) => return Err(ServiceError::usage("--rank-base: only for --to san")),
        (_, None) => notation,
    };
    let format = match format.to_ascii_lowercase().as_str() {
        "pgn" => ConvertFormat::Pgn,
        "dhtmlxq" | "ubb" => ConvertFormat::Dhtmlxq,
        "wxf" => ConvertFormat::Wxf,
        other => {
            return Err(ServiceError::usage(format!(
                "--format: unknown format '{other}' (pgn, dhtmlxq or wxf)"
            )));
        }
    };
    Ok((notation, format))
}

/// The record in `bytes` rewritten in `format` (PGN in `notation`): the text `xqa convert`
/// writes. Fails on the first game that cannot be converted, with its error.
pub fn convert(
    bytes: &[u8],
    name: &str,
    notation: Notation,
    format: ConvertFormat,
) -> Result<String, ServiceError> {
    let mut text = String::new();
    for entry in super::input::read_games(bytes, name) {
        if let Some(e) = entry.error {
            return Err(ServiceError::record(e));
        }
        crate::report::write_converted(&entry.game, notation, format, &mut text);
    }
    Ok(text)
}

/// Game `game` (1-based) of the record in `bytes` rewritten in `format`: `xqa convert --game`.
/// Errors: no such game (usage, naming the valid range), or the game is invalid.
pub fn convert_game(
    bytes: &[u8],
    name: &str,
    game: usize,
    notation: Notation,
    format: ConvertFormat,
) -> Result<String, ServiceError> {
    let entry = super::input::load_game(bytes, name, game)?;
    let mut text = String::new();
    crate::report::write_converted(&entry.game, notation, format, &mut text);
    Ok(text)
}

/// Converts every game of the paths (see [`crate::report::convert`]): (converted, failed,
/// unreadable). With `json`, the games not converted are reported on `err` as JSON error
/// documents (`{"schema":1,"code","error"}`), one per line.
pub fn convert_paths(
    paths: &[PathBuf],
    notation: Notation,
    format: ConvertFormat,
    json: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<(usize, usize, usize)> {
    crate::report::convert(paths, notation, format, json, out, err)
}

/// The options of `screen`.
#[derive(Clone, Debug)]
pub struct ScreenRequest {
    /// Rule profile: cxa or axf.
    pub rules: String,
    /// A settings file for the rule profile (wins over `rules`).
    pub settings: Option<SettingsText>,
    /// Also report drawn cycles.
    pub draws: bool,
    /// With `json`, one object for every game.
    pub all: bool,
    /// One JSON object per reported game per line.
    pub json: bool,
    /// Also report where a natural move limit claim would first be valid, under this profile.
    pub limit_profile: Option<String>,
    /// An event file's text (events/*.json): its rules profile, overlay and draw-offer rule;
    /// with `time_control`, its natural move limit too.
    pub event: Option<SettingsText>,
    /// The event's time control whose natural move limit is screened for.
    pub time_control: Option<String>,
    /// Turn the tournament overlay on.
    pub overlay: bool,
}

impl Default for ScreenRequest {
    fn default() -> ScreenRequest {
        ScreenRequest {
            rules: "cxa".into(),
            settings: None,
            draws: false,
            all: false,
            json: false,
            limit_profile: None,
            event: None,
            time_control: None,
            overlay: false,
        }
    }
}

/// The screening options a request names.
pub fn screen_options(request: &ScreenRequest) -> Result<ScreenOptions, ServiceError> {
    let event = event_of(request.event.as_ref())?;
    let profile = request_profile(
        &request.rules,
        request.settings.as_ref(),
        event.as_ref(),
        request.overlay,
    )?;
    let event_limit = match (&event, &request.time_control) {
        (Some(e), Some(tc)) => Some(event_time_control(e, Some(tc))?.limit.clone()),
        _ => None,
    };
    let limit = match &request.limit_profile {
        None => event_limit.map(|limit| ClaimOptions {
            profile: limit,
            rules: profile.clone(),
            ..ClaimOptions::default()
        }),
        Some(name) => Some(ClaimOptions {
            profile: named_limit_profile(name)?,
            rules: profile.clone(),
            ..ClaimOptions::default()
        }),
    };
    Ok(ScreenOptions {
        profile,
        draws: request.draws,
        all: request.all,
        json: request.json,
        limit,
        draw_offer_within: event.as_ref().and_then(|e| e.no_draw_offer_within),
        event: event.as_ref().map(|e| {
            // (The time control is named where its limit is the one screened for.)
            let tc = request
                .time_control
                .as_ref()
                .filter(|_| request.limit_profile.is_none())
                .and_then(|tc| e.time_controls.iter().find(|t| &t.name == tc));
            crate::rules::screen::EventNames {
                event: e.name.clone(),
                event_en: e.name_en.clone(),
                time_control: tc.map(|t| t.name.clone()),
                time_control_zh: tc.and_then(|t| t.name_zh.clone()),
            }
        }),
    })
}

/// Screens every game of the record in `bytes` (in parallel on the current rayon pool).
pub fn screen(bytes: &[u8], name: &str, options: &ScreenOptions) -> Vec<GameScreen> {
    use rayon::prelude::*;
    super::input::read_games(bytes, name)
        .par_iter()
        .map(|e| GameScreen::of(e, options))
        .collect()
}

/// The objects `xqa screen --json --all` prints for every game of the record in `bytes`, one
/// per line (see [`crate::report::screen::game_json`]).
pub fn screen_json_lines(bytes: &[u8], name: &str, options: &ScreenOptions) -> String {
    use rayon::prelude::*;
    let entries = super::input::read_games(bytes, name);
    let screens: Vec<GameScreen> = entries
        .par_iter()
        .map(|e| GameScreen::of(e, options))
        .collect();
    let mut out = String::new();
    for (g, e) in screens.iter().zip(&entries) {
        out.push_str(&crate::report::screen::game_json(g, e, options).to_string());
        out.push('\n');
    }
    out
}

/// Screens every game of the paths, writing the report to `out` (see
/// [`crate::report::screen::screen`]).
pub fn screen_paths(
    paths: &[PathBuf],
    options: &ScreenOptions,
    lang: crate::report::text::TextLang,
    out: &mut dyn Write,
) -> io::Result<ScreenSummary> {
    crate::report::screen::screen(paths, options, lang, out)
}
