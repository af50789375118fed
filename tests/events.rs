//! Event files (issue 14): the two shipped events, the format's errors, and `--event` on
//! claim, adjudicate and screen.

use xiangqi_arbiter::rules::OccurrenceCounting;
use xiangqi_arbiter::rules::event::Event;
use xiangqi_arbiter::rules::limit::CountingMode;

mod common;
use common::xqa;

const NATIONAL: &str = "events/2020-national-individual.json";
const TIANSHUI: &str = "events/2024-tianshui-amateur.json";

fn limits(e: &Event, tc: Option<&str>) -> (u32, Option<u32>, Option<u32>, Option<u32>) {
    let l = &e.time_control(tc).unwrap().limit;
    (l.moves, l.attack_cap, l.check_cap, l.refuse_attackers)
}

#[test]
fn the_national_championship_has_its_three_time_controls() {
    let e = Event::load(std::path::Path::new(NATIONAL)).unwrap();
    assert_eq!(e.time_control_names(), ["slow", "rapid", "armageddon"]);
    assert_eq!(limits(&e, Some("slow")), (60, Some(30), Some(10), None));
    assert_eq!(limits(&e, Some("rapid")), (50, Some(25), Some(8), None));
    assert_eq!(
        limits(&e, Some("armageddon")),
        (50, Some(25), Some(8), None)
    );
    assert_eq!(
        limits(&e, None),
        (60, Some(30), Some(10), None),
        "default: slow"
    );
    assert_eq!(
        e.time_control(None).unwrap().counting,
        CountingMode::FromCapture
    );
    let r = e.rules();
    assert_eq!(r.name, "cxa");
    assert!(r.tournament_overlay);
    assert_eq!(r.overlay_moves, 25);
    assert_eq!(r.occurrence_counting, OccurrenceCounting::AlongLoop);
    assert_eq!(e.no_draw_offer_within, Some(25));
    let err = e.time_control(Some("blitz")).unwrap_err().to_string();
    assert!(
        err.contains("'blitz': not one of the event's (slow, rapid, armageddon)"),
        "{err}"
    );
}

#[test]
fn the_tianshui_event_counts_forty_moves_without_checks() {
    let e = Event::load(std::path::Path::new(TIANSHUI)).unwrap();
    assert!(e.time_control_names().is_empty());
    assert_eq!(limits(&e, None), (40, None, Some(0), Some(3)));
    assert!(e.rules().tournament_overlay);
    assert_eq!(e.rules().overlay_moves, 25);
    assert_eq!(e.no_draw_offer_within, Some(25));
    let err = e.time_control(Some("rapid")).unwrap_err().to_string();
    assert!(err.contains("the event names no time controls"), "{err}");
}

fn error(text: &str) -> String {
    Event::from_json(text, "ev.json").unwrap_err().to_string()
}

#[test]
fn errors_name_the_file_and_the_field() {
    let e = error(r#"{"name": "x", "limit": {}, "red_must_vary": 25}"#);
    assert!(
        e.starts_with("ev.json: unknown field `red_must_vary`"),
        "{e}"
    );
    assert!(e.contains("line 1 column"), "{e}");
    let e = error(r#"{"limit": {}}"#);
    assert!(e.starts_with("ev.json: missing field `name`"), "{e}");
    let e = error(r#"{"name": "x", "limit": {"base": "blitz"}}"#);
    assert!(e.starts_with("ev.json: limit: "), "{e}");
    assert!(e.contains("unknown base profile 'blitz'"), "{e}");
    let e = error(r#"{"name": "x", "time_controls": [{"name": "slow", "limit": {"check": 3}}]}"#);
    assert!(
        e.starts_with("ev.json: time_controls[0] (slow).limit: unknown field `check`"),
        "{e}"
    );
    let e = error(r#"{"name": "x", "time_controls": [{"name": "slow"}]}"#);
    assert!(
        e.starts_with("ev.json: time_controls[0]: missing field `limit`"),
        "{e}"
    );
    let e = error(r#"{"name": "x", "rules": "fide", "limit": {}}"#);
    assert!(e.contains("rules: unknown rules 'fide'"), "{e}");
    let e = error(r#"{"name": "x", "rules_options": {"tournament_overlay": true}, "limit": {}}"#);
    assert!(
        e.contains(
            "rules_options.tournament_overlay: set by the event's own field `red_must_vary_within`"
        ),
        "{e}"
    );
    let e = error(r#"{"name": "x", "rules_options": {"bogus": 1}, "limit": {}}"#);
    assert!(e.contains("rules_options: unknown field `bogus`"), "{e}");
    let e = error(r#"{"name": "x"}"#);
    assert!(e.contains("no natural move limit"), "{e}");
    let e = error(r#"{"name": "x", "limit": {}, "default_time_control": "slow"}"#);
    assert!(
        e.contains("default_time_control: 'slow' is not one of the time controls"),
        "{e}"
    );
    let e = error(
        r#"{"name": "x", "time_controls": [{"name": "slow", "limit": {}}, {"name": "slow", "limit": {}}]}"#,
    );
    assert!(
        e.contains("time_controls[1].name: 'slow' is named twice"),
        "{e}"
    );
    let e = error(r#"{"name": "x", "limit": {}, "red_must_vary_within": 0}"#);
    assert!(
        e.contains("red_must_vary_within: must be at least 1"),
        "{e}"
    );
    let e = error("{\"name\": \"x\",\n \"limit\": {},}");
    assert!(e.contains("line 2"), "{e}");
}

#[test]
fn rules_options_apply_over_the_base_profile() {
    let e = Event::from_json(
        r#"{"name": "open", "rules": "axf", "rules_options": {"node_budget": 5000},
            "occurrence_counting": "every_visit", "limit": {"base": "rapid", "counting": "from_claim"}}"#,
        "open.json",
    )
    .unwrap();
    let r = e.rules();
    assert_eq!(r.name, "axf");
    assert_eq!(r.node_budget, 5000);
    assert!(r.protected_chase_allowed, "the AXF base is kept");
    assert!(!r.tournament_overlay);
    assert_eq!(r.occurrence_counting, OccurrenceCounting::EveryVisit);
    assert_eq!(
        e.time_control(None).unwrap().counting,
        CountingMode::FromClaim
    );
    // A time control named like a built-in profile takes it as its base.
    let e = Event::from_json(
        r#"{"name": "x", "time_controls": [{"name": "rapid", "limit": {}}]}"#,
        "x.json",
    )
    .unwrap();
    assert_eq!(e.time_control(None).unwrap().limit.moves, 50);
}

/// A scratch directory, removed when the guard is dropped (even by a failing test).
fn temp_dir(tag: &str) -> common::Scratch {
    common::Scratch::new(&format!("events-{tag}"))
}

/// Six moves from the initial array, the horses going out and back, recorded as a draw.
const SHORT_DRAW: &str = "[Event \"test\"]\n[Result \"1/2-1/2\"]\n[Format \"ICCS\"]\n\n\
    1. h2-e2 h9-g7 2. b0-c2 b9-c7 3. c2-b0 c7-b9 4. b0-c2 b9-c7 5. c2-b0 c7-b9 \
    6. b0-c2 b9-c7 1/2-1/2\n";

#[test]
fn adjudicate_flags_a_game_drawn_before_draw_offers_are_allowed() {
    let dir = temp_dir("adj");
    let file = dir.join("short.pgn");
    std::fs::write(&file, SHORT_DRAW).unwrap();
    let f = file.to_str().unwrap();
    let (code, out, err) = xqa(&["validate", f]);
    assert_eq!(code, 0, "the sample record is valid: {out}{err}");
    let (code, out, err) = xqa(&["adjudicate", f, "--event", NATIONAL, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["event"], "2020年全国象棋个人锦标赛");
    let d = &v["early_draw"];
    assert_eq!(d["result"], "1/2-1/2");
    assert_eq!(d["within"], 25);
    assert_eq!(d["moves"], 6, "{d}");
    assert_eq!(d["plies"], 12, "{d}");
    assert_eq!(v["natural_limit"]["profile"], "slow");
    // Without the event nothing is flagged.
    let (_, out, _) = xqa(&["adjudicate", f, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v.get("early_draw").is_none());
    assert!(v.get("event").is_none());
    // The text report says it too, and the time control chooses the limit.
    let (code, out, err) = xqa(&[
        "adjudicate",
        f,
        "--event",
        NATIONAL,
        "--time-control",
        "rapid",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("early draw: recorded 1/2-1/2 after"), "{out}");
    assert!(out.contains("natural move limit (rapid)"), "{out}");
}

#[test]
fn the_event_chooses_the_overlay_on_adjudicate() {
    let moves = "b0c2 b9c7 c2b0 c7b9";
    let (_, out, _) = xqa(&["adjudicate", "--moves", moves, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verdict"], "draw");
    for event in [NATIONAL, TIANSHUI] {
        let (code, out, err) = xqa(&["adjudicate", "--moves", moves, "--event", event, "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["verdict"], "red_must_vary", "{event}");
    }
}

#[test]
fn screen_flags_early_draws_and_rules_with_the_event() {
    let dir = temp_dir("screen");
    std::fs::write(dir.join("short.pgn"), SHORT_DRAW).unwrap();
    let d = dir.to_str().unwrap();
    let (code, out, err) = xqa(&["screen", "--json", d]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.trim().is_empty(),
        "no incident without the event: {out}"
    );
    let (code, out, err) = xqa(&["screen", "--json", "--event", NATIONAL, d]);
    assert_eq!(code, 0, "{err}");
    let g: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(g["early_draw"]["within"], 25);
    assert_eq!(g["early_draw"]["result"], "1/2-1/2");
    // The overlay of the event rules the early shuffle: Red must vary.
    let incidents = g["cycles"].as_array().unwrap();
    assert!(!incidents.is_empty(), "{g}");
    assert!(
        incidents.iter().all(|i| i["verdict"] == "red_must_vary"),
        "{g}"
    );
    assert!(
        err.contains("1 games recorded as drawn before draw offers are allowed"),
        "{err}"
    );
    let (code, out, _) = xqa(&["screen", "--event", NATIONAL, d]);
    assert_eq!(code, 0);
    assert!(
        out.contains("but the event allows no draw offers within 25 moves"),
        "{out}"
    );
}

#[test]
fn claim_takes_the_limit_and_the_counting_of_the_event() {
    let file = "pgn-samples/claim_amateur40_refused.pgn";
    let (code, out, err) = xqa(&[
        "claim",
        file,
        "--claimant",
        "red",
        "--event",
        TIANSHUI,
        "--json",
    ]);
    assert!(code == 0 || code == 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["required"], 40, "{out}");
    assert_eq!(v["admissible"], false, "{out}");
    let (code, out, err) = xqa(&[
        "claim",
        "pgn-samples/claim_rapid.pgn",
        "--claimant",
        "red",
        "--event",
        NATIONAL,
        "--time-control",
        "armageddon",
        "--json",
    ]);
    assert!(code == 0 || code == 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["required"], 50, "{out}");
    // Usage errors: a time control without an event, an unknown one, an event and a profile.
    let (code, _, err) = xqa(&["claim", file, "--claimant", "red", "--time-control", "slow"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = xqa(&[
        "claim",
        file,
        "--claimant",
        "red",
        "--event",
        NATIONAL,
        "--time-control",
        "blitz",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("time control 'blitz'"), "{err}");
    let (code, _, _) = xqa(&[
        "claim",
        file,
        "--claimant",
        "red",
        "--event",
        NATIONAL,
        "--profile",
        "rapid",
    ]);
    assert_eq!(code, 2);
    // A bad event file is invalid input (1), a missing one an I/O error (2).
    let dir = temp_dir("bad");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"name": "x", "limit": {}, "overlay": true}"#).unwrap();
    let (code, _, err) = xqa(&[
        "adjudicate",
        "--moves",
        "h2e2",
        "--event",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.json: unknown field `overlay`"), "{err}");
    let (code, _, err) = xqa(&[
        "adjudicate",
        "--moves",
        "h2e2",
        "--event",
        "/no/such/event.json",
    ]);
    assert_eq!(code, 2, "{err}");
}
