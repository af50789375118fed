//! Event settings files (`events/*.json`): an event's own regulations on top of the rulebook.
//!
//! An event file names the rules profile the move natures and cycles are judged by, the
//! event's regulations that are not rulebook rules (the tournament overlay, the ban on early
//! draw offers, how occurrences are counted), and its time controls, each with its own natural
//! move limit profile (自然限着, RULES.md §4). [`Event::load`] reads and checks one; the rest of
//! the crate takes what it gives: [`Event::rules`] (a [`Profile`] with the overlay and the
//! occurrence counting set), [`Event::time_control`] (a [`LimitProfile`] and its
//! [`CountingMode`]) and [`Event::early_draw`].
//!
//! # Format
//!
//! One JSON object. Every field but `name` is optional; unknown fields are errors (a misspelt
//! regulation must not be silently ignored).
//!
//! ```json
//! {
//!   "name": "2020年全国象棋个人锦标赛",
//!   "name_en": "2020 National Xiangqi Individual Championship",
//!   "rules": "cxa",
//!   "rules_options": {"node_budget": 100000},
//!   "red_must_vary_within": 25,
//!   "no_draw_offer_within": 25,
//!   "occurrence_counting": "along_loop",
//!   "limit": {"base": "slow"},
//!   "time_controls": [
//!     {"name": "slow", "limit": {"base": "slow"}},
//!     {"name": "rapid", "clock": "15 min + 10 s", "limit": {"base": "rapid"}}
//!   ],
//!   "default_time_control": "slow",
//!   "notes": "..."
//! }
//! ```
//!
//! | field | meaning |
//! |---|---|
//! | `name`, `name_en` | the event's name (Chinese, English), printed in reports |
//! | `rules` | `cxa` (default) or `axf`: the rules profile |
//! | `rules_options` | any field of [`Profile`] (for example `node_budget`), over the profile of `rules`; the fields the event sets itself (below) and `name` are refused here |
//! | `red_must_vary_within` | N: the tournament overlay, a cycle whose verdict would be a draw within the first N moves (回合) of a game from the initial array means Red must vary ([`Profile::tournament_overlay`]); absent: off |
//! | `no_draw_offer_within` | N: no draw offers within the first N moves (moves 1 to N, both sides' Nth moves included); `adjudicate` and `screen` flag a game recorded as drawn in fewer than N moves ([`Event::early_draw`]) |
//! | `occurrence_counting` | `along_loop` (default) or `every_visit` ([`OccurrenceCounting`]) |
//! | `limit` | the natural move limit when no time control is chosen: a [`LimitSettings`] object (`base` slow, rapid, armageddon or amateur40, `name`, `moves`, `attack_cap`, `check_cap`, `refuse_attackers`, `counting`) |
//! | `time_controls` | a list of `{"name", "name_zh", "clock", "limit", "draw", "claims_after_game"}`: each time control (slow, rapid, armageddon ...) with its own limit settings; `name_zh` its Chinese name and `clock` free text; `draw` what a drawn game scores as: `draw` (default), `black_wins` (和棋黑胜, a play-off's draw odds), `red_wins` or `replay` (played again until someone wins); `claims_after_game` (default false): a natural move limit claim may be made after the game, before signing, and is ruled as at the ply where it became valid (a later mate or flag fall does not override it) |
//! | `default_time_control` | the time control used when none is chosen (before `limit`) |
//! | `notes` | free text: where the regulations come from |
//!
//! At least one of `limit` and `time_controls` must be given. Errors name the file and the
//! field (and, for JSON errors, the line and column).
//!
//! ```
//! use xiangqi_arbiter::rules::event::Event;
//!
//! let text = r#"{"name": "club", "red_must_vary_within": 25, "limit": {"base": "rapid"}}"#;
//! let event = Event::from_json(text, "club.json").unwrap();
//! assert!(event.rules().tournament_overlay);
//! assert_eq!(event.time_control(None).unwrap().limit.moves, 50);
//! let err = Event::from_json(r#"{"name": "x", "limit": {}, "overlay": 1}"#, "x.json").unwrap_err();
//! assert!(err.to_string().starts_with("x.json: unknown field `overlay`"), "{err}");
//! ```

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::record::game::GameResult;
use crate::rules::limit::{CountingMode, LimitProfile, LimitSettings};
use crate::rules::outcome::DrawOdds;
use crate::rules::profile::{OccurrenceCounting, Profile};
use crate::types::Color;

/// An event file that cannot be read or does not describe an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventError {
    /// The file (or the name given to [`Event::from_json`]).
    pub file: String,
    /// What is wrong, naming the field.
    pub message: String,
    /// The file could not be read at all (an I/O error, not a bad event).
    pub unreadable: bool,
}

impl fmt::Display for EventError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

impl std::error::Error for EventError {}

/// The file as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EventFile {
    name: String,
    #[serde(default)]
    name_en: Option<String>,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    rules_options: Option<serde_json::Map<String, Value>>,
    #[serde(default)]
    red_must_vary_within: Option<u32>,
    #[serde(default)]
    no_draw_offer_within: Option<u32>,
    #[serde(default)]
    occurrence_counting: Option<OccurrenceCounting>,
    /// Read on its own (as [`LimitSettings`]), so that its errors name the field.
    #[serde(default)]
    limit: Option<Value>,
    #[serde(default)]
    time_controls: Vec<Value>,
    #[serde(default)]
    default_time_control: Option<String>,
    #[serde(default)]
    notes: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TimeControlFile {
    name: String,
    #[serde(default)]
    name_zh: Option<String>,
    #[serde(default)]
    clock: Option<String>,
    limit: Value,
    #[serde(default)]
    draw: Option<DrawOdds>,
    #[serde(default)]
    claims_after_game: bool,
}

/// One time control of an event, with its natural move limit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TimeControl {
    /// `slow`, `rapid`, `armageddon` ..., or `event` for the event-wide `limit`.
    pub name: String,
    /// Its Chinese name (慢棋, 快棋 ...), if the file gives one.
    pub name_zh: Option<String>,
    /// The clock, as the file describes it (free text).
    pub clock: Option<String>,
    /// The natural move limit profile.
    pub limit: LimitProfile,
    /// When the natural move limit count starts.
    pub counting: CountingMode,
    /// What a drawn game scores as (和棋黑胜 in a play-off).
    pub draw: DrawOdds,
    /// A natural move limit claim may be made after the game (before signing) and is then
    /// ruled as at the ply where it became valid: a later mate or flag fall does not override it
    /// (2020 快棋细则 IV.2).
    pub claims_after_game: bool,
}

/// A checked event: what the front ends pass to the rules engine.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event {
    /// Where the event was read from.
    pub source: String,
    pub name: String,
    pub name_en: Option<String>,
    /// The rules profile, with the event's overlay and occurrence counting; its `name` is the
    /// base profile's (`cxa` or `axf`).
    rules: Profile,
    /// No draw offers within this many moves (回合): moves 1 to N, both sides' Nth included.
    pub no_draw_offer_within: Option<u32>,
    /// The event-wide natural move limit (the file's `limit`).
    pub limit: Option<TimeControl>,
    /// The named time controls, in file order.
    pub time_controls: Vec<TimeControl>,
    pub default_time_control: Option<String>,
    pub notes: Option<String>,
}

/// The event and the time control a ruling was made under, as reports name them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Regulations {
    pub event: String,
    pub event_en: Option<String>,
    pub time_control: String,
    pub time_control_zh: Option<String>,
    pub clock: Option<String>,
    /// The options given with the event that override its regulations.
    pub overrides: Vec<Override>,
}

/// An option given with an event that overrides one of its regulations (an explicit option
/// wins, and the report says so).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Override {
    /// The option: `limit`, `attack_cap`, `check_cap`, `overlay`.
    pub option: String,
    /// The event's value.
    pub event: String,
    /// The value given.
    pub given: String,
}

impl Override {
    /// `option` given as `given` over the event's `event`, if they differ.
    pub fn of(option: &str, event: String, given: String) -> Option<Override> {
        (event != given).then(|| Override {
            option: option.to_owned(),
            event,
            given,
        })
    }

    /// "limit: 40 given, overriding the event's 50".
    pub fn text(&self, lang: crate::rules::limit::Lang) -> String {
        match lang {
            crate::rules::limit::Lang::Zh => format!(
                "{}：按指定的{}，而非本赛事规定的{}",
                self.option, self.given, self.event
            ),
            crate::rules::limit::Lang::En => format!(
                "{}: {} given, overriding the event's {}",
                self.option, self.given, self.event
            ),
        }
    }
}

impl Regulations {
    pub fn of(event: &Event, tc: &TimeControl) -> Regulations {
        Regulations {
            event: event.name.clone(),
            event_en: event.name_en.clone(),
            time_control: tc.name.clone(),
            time_control_zh: tc.name_zh.clone(),
            clock: tc.clock.clone(),
            overrides: Vec::new(),
        }
    }

    /// "Event: 2020年全国象棋个人锦标赛 (2020 National ...), time control rapid (10 min + 10 s)".
    pub fn line(&self, lang: crate::rules::limit::Lang) -> String {
        let mut out = self.head(lang);
        for o in &self.overrides {
            out.push_str(&format!("  {}\n", o.text(lang)));
        }
        out
    }

    fn head(&self, lang: crate::rules::limit::Lang) -> String {
        match lang {
            crate::rules::limit::Lang::Zh => format!(
                "赛事：{}，赛制：{}{}\n",
                self.event,
                self.time_control_zh
                    .as_deref()
                    .unwrap_or(&self.time_control),
                self.clock
                    .as_deref()
                    .map_or(String::new(), |c| format!("（{c}）"))
            ),
            crate::rules::limit::Lang::En => format!(
                "Event: {}{}, time control {}{}\n",
                self.event_en.as_deref().unwrap_or(&self.event),
                if self.event_en.is_some() {
                    format!(" ({})", self.event)
                } else {
                    String::new()
                },
                self.time_control,
                self.clock
                    .as_deref()
                    .map_or(String::new(), |c| format!(" ({c})"))
            ),
        }
    }
}

/// A game recorded as drawn before the move from which the event allows draw offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EarlyDraw {
    /// The record's result ("1/2-1/2").
    pub result: String,
    /// The game's length in moves (回合): the move number of its last move, counted from the
    /// record's first move.
    pub moves: u32,
    /// Plies in the record.
    pub plies: u32,
    /// The event's `no_draw_offer_within`.
    pub within: u32,
    pub reason_zh: String,
    pub reason_en: String,
}

/// Profile fields an event sets with its own top-level fields, refused in `rules_options`.
const OWN_FIELDS: [(&str, &str); 4] = [
    ("name", "name"),
    ("tournament_overlay", "red_must_vary_within"),
    ("overlay_moves", "red_must_vary_within"),
    ("occurrence_counting", "occurrence_counting"),
];

impl Event {
    /// Reads and checks an event file.
    pub fn load(path: &Path) -> Result<Event, EventError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| EventError {
            file: file.clone(),
            message: format!("cannot read the event file: {e}"),
            unreadable: true,
        })?;
        Event::from_json(&text, &file)
    }

    /// Reads and checks an event from JSON text; `file` names it in errors.
    pub fn from_json(text: &str, file: &str) -> Result<Event, EventError> {
        let err = |message: String| EventError {
            file: file.to_owned(),
            message,
            unreadable: false,
        };
        let raw: EventFile = serde_json::from_str(text).map_err(|e| err(e.to_string()))?;
        if raw.name.trim().is_empty() {
            return Err(err("name: the event needs a name".into()));
        }
        let base = raw.rules.as_deref().unwrap_or("cxa");
        let mut rules = Profile::by_name(base).ok_or_else(|| {
            err(format!(
                "rules: unknown rules '{base}' (expected cxa or axf)"
            ))
        })?;
        if let Some(options) = &raw.rules_options {
            for (field, own) in OWN_FIELDS {
                if options.contains_key(field) {
                    return Err(err(format!(
                        "rules_options.{field}: set by the event's own field `{own}`"
                    )));
                }
            }
            let mut merged = serde_json::to_value(&rules).expect("profile serialises");
            if let Value::Object(m) = &mut merged {
                for (k, v) in options {
                    m.insert(k.clone(), v.clone());
                }
            }
            rules =
                serde_json::from_value(merged).map_err(|e| err(format!("rules_options: {e}")))?;
        }
        match raw.red_must_vary_within {
            Some(0) => {
                return Err(err(
                    "red_must_vary_within: must be at least 1 (leave it out for no overlay)".into(),
                ));
            }
            Some(n) => {
                rules.tournament_overlay = true;
                rules.overlay_moves = n;
            }
            None => rules.tournament_overlay = false,
        }
        if raw.no_draw_offer_within == Some(0) {
            return Err(err(
                "no_draw_offer_within: must be at least 1 (leave it out for no rule)".into(),
            ));
        }
        if let Some(c) = raw.occurrence_counting {
            rules.occurrence_counting = c;
        }
        let settings = |v: &Value, at: &str| -> Result<LimitSettings, EventError> {
            LimitSettings::deserialize(v).map_err(|e| err(format!("{at}: {e}")))
        };
        let limit = match &raw.limit {
            None => None,
            Some(v) => Some(
                time_control("event", None, None, &settings(v, "limit")?)
                    .map_err(|m| err(format!("limit: {m}")))?,
            ),
        };
        let mut time_controls: Vec<TimeControl> = Vec::with_capacity(raw.time_controls.len());
        for (i, v) in raw.time_controls.iter().enumerate() {
            let tc = TimeControlFile::deserialize(v)
                .map_err(|e| err(format!("time_controls[{i}]: {e}")))?;
            let name = tc.name.trim();
            if name.is_empty() || name == "event" {
                return Err(err(format!(
                    "time_controls[{i}].name: '{}' cannot name a time control",
                    tc.name
                )));
            }
            if time_controls.iter().any(|t| t.name == name) {
                return Err(err(format!(
                    "time_controls[{i}].name: '{name}' is named twice"
                )));
            }
            let at = format!("time_controls[{i}] ({name}).limit");
            let limit = settings(&tc.limit, &at)?;
            let mut t = time_control(name, tc.name_zh.clone(), tc.clock.clone(), &limit)
                .map_err(|m| err(format!("{at}: {m}")))?;
            t.draw = tc.draw.unwrap_or_default();
            t.claims_after_game = tc.claims_after_game;
            time_controls.push(t);
        }
        if limit.is_none() && time_controls.is_empty() {
            return Err(err(
                "the event gives no natural move limit: add `limit` or `time_controls`".into(),
            ));
        }
        if let Some(d) = &raw.default_time_control
            && !time_controls.iter().any(|t| &t.name == d)
        {
            return Err(err(format!(
                "default_time_control: '{d}' is not one of the time controls ({})",
                names(&time_controls)
            )));
        }
        Ok(Event {
            source: file.to_owned(),
            name: raw.name,
            name_en: raw.name_en,
            rules,
            no_draw_offer_within: raw.no_draw_offer_within,
            limit,
            time_controls,
            default_time_control: raw.default_time_control,
            notes: raw.notes,
        })
    }

    /// The rules profile the event's games are judged by (overlay and counting included).
    pub fn rules(&self) -> &Profile {
        &self.rules
    }

    /// The names of the time controls, in file order.
    pub fn time_control_names(&self) -> Vec<&str> {
        self.time_controls.iter().map(|t| t.name.as_str()).collect()
    }

    /// The time control `name`, or with `None` the default one: `default_time_control`, else
    /// the event-wide `limit`, else the only time control. An unknown name, or a choice left
    /// open among several, is an error listing the names.
    pub fn time_control(&self, name: Option<&str>) -> Result<&TimeControl, EventError> {
        let err = |message: String| EventError {
            file: self.source.clone(),
            message,
            unreadable: false,
        };
        match name {
            Some(n) => self.time_controls.iter().find(|t| t.name == n).ok_or_else(|| {
                if self.time_controls.is_empty() {
                    err(format!(
                        "time control '{n}': the event names no time controls (one natural move limit for all games)"
                    ))
                } else {
                    err(format!(
                        "time control '{n}': not one of the event's ({})",
                        names(&self.time_controls)
                    ))
                }
            }),
            None => {
                if let Some(d) = &self.default_time_control {
                    return self.time_control(Some(d));
                }
                if let Some(l) = &self.limit {
                    return Ok(l);
                }
                match self.time_controls.as_slice() {
                    [only] => Ok(only),
                    _ => Err(err(format!(
                        "the event has several time controls ({}): choose one with --time-control",
                        names(&self.time_controls)
                    ))),
                }
            }
        }
    }

    /// A game recorded as drawn in fewer moves than the event allows draw offers: the record's
    /// result and its length. `plies` are the record's moves, `first` the side that made the
    /// first. `None` when the event has no such rule, the result is not a draw, or the game is
    /// long enough.
    pub fn early_draw(
        &self,
        result: Option<GameResult>,
        plies: usize,
        first: Color,
    ) -> Option<EarlyDraw> {
        early_draw(self.no_draw_offer_within?, result, plies, first)
    }
}

/// [`Event::early_draw`] for a rule of `within` moves.
pub fn early_draw(
    within: u32,
    result: Option<GameResult>,
    plies: usize,
    first: Color,
) -> Option<EarlyDraw> {
    if result != Some(GameResult::Draw) {
        return None;
    }
    // The move number of the last move: Red's and Black's move make one 回合; a record that
    // opens with Black's move counts that move as the first.
    let offset = usize::from(first == Color::Black);
    let moves = (plies + offset).div_ceil(2) as u32;
    if !crate::rules::repetition::within_moves(moves, within) {
        return None;
    }
    Some(EarlyDraw {
        result: GameResult::Draw.token().to_owned(),
        moves,
        plies: plies as u32,
        within,
        reason_zh: format!("本赛事规定{within}回合内不得提和，而对局记录为和棋，仅{moves}回合"),
        reason_en: format!(
            "the event allows no draw offers within {within} moves, but the game is recorded as drawn after {moves} moves"
        ),
    })
}

fn names(tcs: &[TimeControl]) -> String {
    tcs.iter()
        .map(|t| t.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn time_control(
    name: &str,
    name_zh: Option<String>,
    clock: Option<String>,
    settings: &LimitSettings,
) -> Result<TimeControl, String> {
    let mut settings = settings.clone();
    if settings.name.is_none() && settings.base.is_none() && name != "event" {
        // A time control named like a built-in profile (slow, rapid ...) defaults to it.
        if LimitProfile::by_name(name).is_some() {
            settings.base = Some(name.to_owned());
        }
    }
    let limit = settings.profile().map_err(|e| e.to_string())?;
    Ok(TimeControl {
        name: name.to_owned(),
        name_zh,
        clock,
        limit,
        counting: settings.counting.unwrap_or_default(),
        draw: DrawOdds::Draw,
        claims_after_game: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NATIONAL: &str = include_str!("../../events/2020-national-individual.json");
    const TIANSHUI: &str = include_str!("../../events/2024-tianshui-amateur.json");

    #[test]
    fn the_shipped_events_read() {
        let e = Event::from_json(NATIONAL, "national").unwrap();
        assert_eq!(
            e.time_control_names(),
            ["slow", "rapid", "super_rapid", "armageddon"]
        );
        assert_eq!(e.rules().name, "cxa");
        assert!(e.rules().tournament_overlay);
        assert_eq!(e.rules().overlay_moves, 25);
        assert_eq!(e.no_draw_offer_within, Some(25));
        let t = Event::from_json(TIANSHUI, "tianshui").unwrap();
        assert_eq!(t.time_control(None).unwrap().limit.moves, 40);
    }

    #[test]
    fn early_draw_counts_moves_from_the_first() {
        let moves =
            |plies, first| early_draw(25, Some(GameResult::Draw), plies, first).map(|d| d.moves);
        // Within 25 moves: moves 1 to 25, both sides' 25th included.
        assert_eq!(moves(48, Color::Red), Some(24));
        assert_eq!(moves(49, Color::Red), Some(25), "Red's 25th move");
        assert_eq!(moves(50, Color::Red), Some(25), "Black's 25th move");
        assert_eq!(moves(51, Color::Red), None, "Red's 26th move");
        // Black's first move is move 1: 49 plies end with Black's 25th move.
        assert_eq!(moves(49, Color::Black), Some(25));
        assert_eq!(moves(50, Color::Black), None);
        assert!(early_draw(25, Some(GameResult::RedWins), 10, Color::Red).is_none());
        assert!(early_draw(25, None, 10, Color::Red).is_none());
    }
}
