//! Rule profiles and limit profiles named by the options of a request, or read from a settings
//! file's text.

use super::ServiceError;
use crate::rules::Profile;
use crate::rules::event::{Event, EventError, TimeControl};
use crate::rules::limit::{self, CountingMode, LimitProfile};

/// The text of a JSON settings file, with the name that messages give it (its path).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsText {
    pub name: String,
    pub text: String,
}

/// The rule profile named `rules` (cxa or axf), or read from a settings file (which then wins).
pub fn rules_profile(
    rules: &str,
    settings: Option<&SettingsText>,
) -> Result<Profile, ServiceError> {
    match settings {
        Some(s) => serde_json::from_str::<Profile>(&s.text)
            .map_err(|e| ServiceError::invalid(format!("{}: invalid settings: {e}", s.name))),
        None => named_rules(rules),
    }
}

/// The rule profile named `rules`: cxa or axf.
pub fn named_rules(rules: &str) -> Result<Profile, ServiceError> {
    Profile::by_name(rules).ok_or_else(|| {
        ServiceError::usage(format!("unknown rules '{rules}' (expected cxa or axf)"))
    })
}

/// The natural move limit profile named `name`: slow, rapid or amateur40.
pub fn named_limit_profile(name: &str) -> Result<LimitProfile, ServiceError> {
    LimitProfile::by_name(name).ok_or_else(|| {
        ServiceError::usage(format!(
            "unknown limit profile '{name}' (expected slow, rapid or amateur40)"
        ))
    })
}

/// A claim's limit profile: `profile` by name, overlaid by a settings file, then by the custom
/// values given; with the counting mode the settings ask for, if any.
pub fn claim_limit_profile(
    profile: &str,
    settings: Option<&SettingsText>,
    limit_n: Option<u32>,
    attack_cap: Option<Option<u32>>,
    check_cap: Option<Option<u32>>,
) -> Result<(LimitProfile, Option<CountingMode>), ServiceError> {
    let mut settings_obj = match settings {
        Some(s) => limit::LimitSettings::from_json(&s.text)
            .map_err(|e| ServiceError::invalid(format!("{}: {e}", s.name)))?,
        None => limit::LimitSettings::default(),
    };
    if settings_obj.base.is_none() {
        settings_obj.base = Some(profile.to_owned());
    }
    if limit_n.is_some() {
        settings_obj.moves = limit_n;
    }
    if let Some(c) = attack_cap {
        settings_obj.attack_cap = Some(c);
    }
    if let Some(c) = check_cap {
        settings_obj.check_cap = Some(c);
    }
    let profile = settings_obj
        .profile()
        .map_err(|e| ServiceError::invalid(e.to_string()))?;
    Ok((profile, settings_obj.counting))
}

/// The event of an event file's text (events/*.json), if one is given.
pub fn event_of(text: Option<&SettingsText>) -> Result<Option<Event>, ServiceError> {
    text.map(|t| Event::from_json(&t.text, &t.name).map_err(event_error))
        .transpose()
}

/// An event's time control `name` (or its default one).
pub fn event_time_control<'e>(
    event: &'e Event,
    name: Option<&str>,
) -> Result<&'e TimeControl, ServiceError> {
    event
        .time_control(name)
        .map_err(|e| ServiceError::usage(e.to_string()))
}

/// The time control chosen with an event: `name`, or the event's default; none without an
/// event (a time control named without one is a usage error: it would be dropped).
pub fn event_choice<'e>(
    event: Option<&'e Event>,
    name: Option<&str>,
) -> Result<Option<&'e TimeControl>, ServiceError> {
    match (event, name) {
        (Some(e), n) => event_time_control(e, n).map(Some),
        (None, Some(n)) => Err(ServiceError::usage(format!(
            "time control '{n}' given without an event: choose an event (--event, event=) or leave the time control out"
        ))),
        (None, None) => Ok(None),
    }
}

/// An event file that cannot be read (exit 2) or does not describe an event (exit 1).
pub fn event_error(e: EventError) -> ServiceError {
    if e.unreadable {
        ServiceError::usage(e.to_string())
    } else {
        ServiceError::invalid(e.to_string())
    }
}

/// The rule profile of a request: the event's when one is given, else `rules` or a settings
/// file; with the tournament overlay turned on when `overlay` asks for it.
pub fn request_profile(
    rules: &str,
    settings: Option<&SettingsText>,
    event: Option<&Event>,
    overlay: bool,
) -> Result<Profile, ServiceError> {
    let mut profile = match event {
        Some(e) => e.rules().clone(),
        None => rules_profile(rules, settings)?,
    };
    profile.tournament_overlay |= overlay;
    Ok(profile)
}
