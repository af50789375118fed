//! The time controls a live count may be started under: the event's (`xqa serve --event`), or
//! without an event the natural move limit profiles a claim may name. A count is started only
//! under one of them, so that its claim state and its ruling cannot fail later for a name the
//! event does not have; a count started without one gets the default, recorded.

use crate::rules::event::Event;
use crate::rules::limit::{Lang, LimitProfile, profile_title};
use serde::Serialize;

/// One choice of time control.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TimeControlChoice {
    /// The value a count records (`time_control`): the event's time control, or without an
    /// event the limit profile's name. `None`: the event's one natural move limit (an event that
    /// names no time controls).
    pub name: Option<String>,
    /// Its Chinese name (慢棋, 快棋 ...), if known.
    pub name_zh: Option<String>,
    /// The clock, as the event file describes it.
    pub clock: Option<String>,
    /// The natural move limit it applies.
    pub limit: LimitProfile,
    /// The choice a count gets when none is given.
    pub default: bool,
}

impl TimeControlChoice {
    /// "slow 慢棋", or the event's limit in both languages.
    fn label(&self) -> String {
        match (&self.name, &self.name_zh) {
            (Some(n), Some(zh)) => format!("{n} {zh}"),
            (Some(n), None) => n.clone(),
            (None, _) => "（不指定 none: 本赛事统一限着 the event's limit）".into(),
        }
    }
}

/// Where the choices come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChoiceSource {
    /// The event's time controls.
    Event,
    /// The built-in natural move limit profiles (no event).
    Profiles,
}

/// The time controls of a venue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TimeControls {
    pub source: ChoiceSource,
    pub choices: Vec<TimeControlChoice>,
}

/// A time control refused, in both languages, naming the choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub message: String,
}

impl TimeControls {
    /// The choices of the event (its named time controls, and its event-wide limit if it has
    /// one), or without an event the built-in limit profiles (slow the default).
    pub fn of(event: Option<&Event>) -> TimeControls {
        let Some(event) = event else {
            return TimeControls {
                source: ChoiceSource::Profiles,
                choices: LimitProfile::NAMES
                    .iter()
                    .map(|&n| TimeControlChoice {
                        name: Some(n.to_owned()),
                        name_zh: Some(profile_title(n, Lang::Zh)).filter(|zh| zh != n),
                        clock: None,
                        limit: LimitProfile::by_name(n).expect("a built-in profile"),
                        default: n == "slow",
                    })
                    .collect(),
            };
        };
        // The default as the rulings take it: a `None` time control under this event.
        let default = event.time_control(None).ok().map(|tc| tc.name.clone());
        let mut choices: Vec<TimeControlChoice> = event
            .time_controls
            .iter()
            .map(|tc| TimeControlChoice {
                name: Some(tc.name.clone()),
                name_zh: tc.name_zh.clone(),
                clock: tc.clock.clone(),
                limit: tc.limit.clone(),
                default: default.as_deref() == Some(tc.name.as_str()),
            })
            .collect();
        // (The event-wide limit is what a ruling takes without a time control only when the event
        // names no default among its time controls.)
        if let Some(l) = event
            .limit
            .as_ref()
            .filter(|l| default.as_ref() == Some(&l.name))
        {
            choices.push(TimeControlChoice {
                name: None,
                name_zh: None,
                clock: l.clock.clone(),
                limit: l.limit.clone(),
                default: true,
            });
        }
        TimeControls {
            source: ChoiceSource::Event,
            choices,
        }
    }

    /// The time control a count records for `given` (empty = none given): `given` when it is one
    /// of the choices, else the default; refused (naming the choices) when it is not one, or when
    /// none is given and there is no default.
    pub fn resolve(&self, given: Option<&str>) -> Result<Option<String>, Refused> {
        let given = given.map(str::trim).filter(|s| !s.is_empty());
        let found = match given {
            Some(g) => self.choices.iter().find(|c| c.name.as_deref() == Some(g)),
            None => self.choices.iter().find(|c| c.default),
        };
        if let Some(c) = found {
            return Ok(c.name.clone());
        }
        let list = self
            .choices
            .iter()
            .map(TimeControlChoice::label)
            .collect::<Vec<_>>()
            .join(", ");
        let whose_zh = match self.source {
            ChoiceSource::Event => "本赛事的赛制",
            ChoiceSource::Profiles => "可用的限着规定",
        };
        let whose_en = match self.source {
            ChoiceSource::Event => "the event's time controls",
            ChoiceSource::Profiles => "the natural move limit profiles",
        };
        let message = match given {
            Some(g) => {
                let g: String = g.chars().take(60).collect();
                format!(
                    "赛制 {g:?} 不在{whose_zh}之中（可选：{list}）; time control {g:?} is not one \
                     of {whose_en} ({list})"
                )
            }
            None => format!(
                "请选择赛制：本赛事有多个赛制而未指定默认（可选：{list}）; choose a time control: \
                 the event has several and no default ({list})"
            ),
        };
        Err(Refused { message })
    }
}
