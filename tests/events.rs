//! Event files (issue 14): the two shipped events, the format's errors, and `--event` on
//! claim, adjudicate and screen.

use xiangqi_arbiter::rules::OccurrenceCounting;
use xiangqi_arbiter::rules::event::Event;
use xiangqi_arbiter::rules::limit::CountingMode;
use xiangqi_arbiter::rules::outcome::DrawOdds;

mod common;
use common::xqa;

const NATIONAL: &str = "events/2020-national-individual.json";
const TIANSHUI: &str = "events/2024-tianshui-amateur.json";

fn limits(e: &Event, tc: Option<&str>) -> (u32, Option<u32>, Option<u32>, Option<u32>) {
    let l = &e.time_control(tc).unwrap().limit;
    (l.moves, l.attack_cap, l.check_cap, l.refuse_attackers)
}

#[test]
fn the_national_championship_has_its_time_controls() {
    let e = Event::load(std::path::Path::new(NATIONAL)).unwrap();
    assert_eq!(
        e.time_control_names(),
        ["slow", "rapid", "super_rapid", "armageddon"]
    );
    assert_eq!(
        limits(&e, Some("super_rapid")),
        (50, Some(25), Some(8), None)
    );
    let draw = |tc: &str| e.time_control(Some(tc)).unwrap().draw;
    assert_eq!(draw("slow"), DrawOdds::Draw);
    assert_eq!(draw("rapid"), DrawOdds::Draw);
    assert_eq!(draw("super_rapid"), DrawOdds::Replay);
    assert_eq!(draw("armageddon"), DrawOdds::BlackWins, "和棋黑胜");
    let after = |tc: &str| e.time_control(Some(tc)).unwrap().claims_after_game;
    assert!(!after("slow"));
    assert!(after("rapid") && after("super_rapid") && after("armageddon"));
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
        err.contains("'blitz': not one of the event's (slow, rapid, super_rapid, armageddon)"),
        "{err}"
    );
}

#[test]
fn the_tianshui_event_counts_forty_moves_without_checks() {
    let e = Event::load(std::path::Path::new(TIANSHUI)).unwrap();
    assert_eq!(
        e.time_control_names(),
        ["group", "knockout", "rapid", "armageddon"]
    );
    for tc in [
        None,
        Some("group"),
        Some("knockout"),
        Some("rapid"),
        Some("armageddon"),
    ] {
        assert_eq!(limits(&e, tc), (40, None, Some(0), Some(3)), "{tc:?}");
        assert!(!e.time_control(tc).unwrap().claims_after_game, "{tc:?}");
    }
    assert_eq!(e.time_control(None).unwrap().name, "group");
    assert_eq!(
        e.time_control(Some("armageddon")).unwrap().draw,
        DrawOdds::BlackWins
    );
    assert_eq!(e.time_control(Some("rapid")).unwrap().draw, DrawOdds::Draw);
    assert!(e.rules().tournament_overlay);
    assert_eq!(e.rules().overlay_moves, 25);
    assert_eq!(e.no_draw_offer_within, Some(25));
    let err = e.time_control(Some("slow")).unwrap_err().to_string();
    assert!(err.contains("'slow': not one of the event's"), "{err}");
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
    // The report names the event; the time control where its limit is screened for.
    assert_eq!(g["event"], "2020年全国象棋个人锦标赛", "{g}");
    assert_eq!(g["time_control"], serde_json::Value::Null, "{g}");
    let (code, out, _) = xqa(&["screen", "--event", NATIONAL, d]);
    assert_eq!(code, 0);
    assert!(
        out.contains("but the event allows no draw offers within 25 moves"),
        "{out}"
    );
    assert!(
        out.starts_with(
            "赛事：2020年全国象棋个人锦标赛\nEvent: 2020 National Xiangqi Individual Championship\n"
        ),
        "{out}"
    );
    let args = [
        "screen",
        "--event",
        NATIONAL,
        "--time-control",
        "rapid",
        "--lang",
        "both",
        d,
    ];
    let (code, out, err) = xqa(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("赛事：2020年全国象棋个人锦标赛，赛制：快棋\nEvent: 2020 National"),
        "{out}"
    );
    assert!(
        out.lines()
            .nth(1)
            .unwrap()
            .ends_with(", time control rapid"),
        "{out}"
    );
    let (code, out, err) = xqa(&[
        "screen",
        "--json",
        "--event",
        NATIONAL,
        "--time-control",
        "rapid",
        d,
    ]);
    assert_eq!(code, 0, "{err}");
    let g: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(g["time_control"], "rapid", "{g}");
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

/// "Within 25 moves" (25回合内) is moves 1 to 25, both sides' 25th moves included: an idle cycle
/// whose ruling becomes due (its 3rd occurrence) on Red's or Black's 25th move means Red must
/// vary; on Red's 26th move it is a plain draw. The overlay reads the move that made the ruling
/// due, not the cycle's last repetition (the shuffle goes on for one more loop).
#[test]
fn within_25_moves_includes_both_sides_25th_moves_for_the_overlay() {
    for (padding, due, number, verdict) in [
        (41, 49, 25, "red_must_vary"),
        (42, 50, 25, "red_must_vary"),
        (43, 51, 26, "draw"),
    ] {
        let moves = common::padded_shuffle(padding, 3);
        let run = |extra: &[&str]| {
            let mut args = vec!["adjudicate", "--moves", &moves, "--json"];
            args.extend_from_slice(extra);
            let (code, out, err) = xqa(&args);
            assert_eq!(code, 0, "{err}");
            serde_json::from_str::<serde_json::Value>(&out).unwrap()
        };
        let v = run(&[]);
        let cycles = v["cycles"].as_array().unwrap();
        assert_eq!(cycles.len(), 1, "one repetition episode: {v}");
        let c = &cycles[0];
        assert_eq!(c["verdict"], "draw", "both sides idle: {c}");
        assert_eq!(c["due_ply"], due, "{c}");
        assert_eq!(c["due_move_number"], number, "{c}");
        assert_eq!(c["occurrences"], 4, "{c}");
        for extra in [
            &["--event", NATIONAL][..],
            &["--event", TIANSHUI],
            &["--overlay"],
        ] {
            let v = run(extra);
            let c = &v["cycles"][0];
            assert_eq!(c["verdict"], verdict, "padding {padding} {extra:?}: {c}");
            assert_eq!(v["verdict"], verdict, "padding {padding} {extra:?}");
            if verdict == "red_must_vary" {
                let en = c["reason_en"].as_str().unwrap();
                assert!(
                    en.contains(&format!(
                        "falls on move {number}, within the first 25 moves"
                    )),
                    "{en}"
                );
            }
        }
    }
}

/// A game recorded as drawn at move 25 (either side's 25th move) is an early draw; at move 26
/// it is not.
#[test]
fn within_25_moves_includes_both_sides_25th_moves_for_draw_offers() {
    let dir = temp_dir("early25");
    for (plies, flagged) in [
        (48, Some(24)),
        (49, Some(25)),
        (50, Some(25)),
        (51, None),
        (52, None),
    ] {
        let moves = common::padded_shuffle(plies, 0);
        let mut pgn = String::from("[Event \"t\"]\n[Result \"1/2-1/2\"]\n[Format \"ICCS\"]\n\n");
        for (i, m) in moves.split(' ').enumerate() {
            if i % 2 == 0 {
                pgn.push_str(&format!("{}. ", i / 2 + 1));
            }
            pgn.push_str(&format!("{}-{} ", &m[..2], &m[2..]));
        }
        pgn.push_str("1/2-1/2\n");
        let file = dir.join(format!("d{plies}.pgn"));
        std::fs::write(&file, pgn).unwrap();
        let (code, out, err) = xqa(&[
            "adjudicate",
            file.to_str().unwrap(),
            "--event",
            NATIONAL,
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        match flagged {
            Some(n) => {
                assert_eq!(v["early_draw"]["moves"], n, "{plies} plies");
                assert_eq!(v["early_draw"]["plies"], plies);
            }
            None => assert!(
                v.get("early_draw").is_none_or(|d| d.is_null()),
                "{plies} plies: {}",
                v["early_draw"]
            ),
        }
    }
}

fn json_of(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = xqa(args);
    assert!(code == 0 || code == 1, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// Red mates at ply 120 (the sample's recorded 1-0); under the rapid limit (50 moves) Black's
/// claim became valid at ply 100. In the 2020 rapid and play-off games a claim may be made
/// after the game, before signing (快棋细则 IV.2): it is ruled as at ply 100, the mate does not
/// override it, and the report says the outcome differs from the record. In a slow game (no
/// such rule, and 60 moves) the mate stands.
#[test]
fn a_claim_after_the_game_is_ruled_where_it_became_valid() {
    let file = "pgn-samples/claim_mate_on_limit.pgn";
    let claim = |extra: &[&str]| {
        let mut args = vec!["claim", file, "--claimant", "black", "--json"];
        args.extend_from_slice(extra);
        json_of(&args)
    };
    // Without an event: the claim at the end loses to the mate, but says when it was valid.
    let v = claim(&["--profile", "rapid"]);
    assert_eq!(v["verdict"], "game_over", "{v}");
    assert_eq!(v["valid_from_ply"], 100, "{v}");
    assert_eq!(v["outcome"]["result"], "1-0");
    assert_eq!(v["outcome"]["differs_from_record"], false);
    assert!(v["event"].is_null() && v["time_control"].is_null());
    // Both sides of the line: not valid at ply 99, valid at ply 100.
    assert_eq!(claim(&["--profile", "rapid", "--at", "99"])["valid"], false);
    assert_eq!(claim(&["--profile", "rapid", "--at", "100"])["valid"], true);
    assert!(claim(&["--profile", "rapid", "--at", "99"])["valid_from_ply"].is_null());
    // The rapid game of the 2020 event: ruled as at ply 100, a draw that overrides the 1-0.
    let v = claim(&["--event", NATIONAL, "--time-control", "rapid"]);
    assert_eq!(v["verdict"], "valid", "{v}");
    assert_eq!(v["at_ply"], 100);
    assert_eq!(v["claimed_at_ply"], 120);
    assert_eq!(v["valid_from_ply"], 100);
    assert_eq!(v["event"], "2020年全国象棋个人锦标赛");
    assert_eq!(v["time_control"], "rapid");
    let o = &v["outcome"];
    assert_eq!(o["result"], "1/2-1/2", "{o}");
    assert_eq!(o["recorded"], "1-0");
    assert_eq!(o["differs_from_record"], true);
    assert!(
        o["reason_en"]
            .as_str()
            .unwrap()
            .contains("differs from the recorded result 1-0"),
        "{o}"
    );
    // The play-off: the same claim is a Black win (和棋黑胜).
    let v = claim(&["--event", NATIONAL, "--time-control", "armageddon"]);
    assert_eq!(v["verdict"], "valid");
    assert_eq!(v["outcome"]["result"], "0-1");
    assert!(
        v["outcome"]["reason_en"]
            .as_str()
            .unwrap()
            .contains("a draw counts as a Black win (和棋黑胜)"),
        "{v}"
    );
    // A claim made during the game (--at before the record's end) is ruled where it is made.
    let v = claim(&[
        "--event",
        NATIONAL,
        "--time-control",
        "rapid",
        "--at",
        "110",
    ]);
    assert_eq!(v["verdict"], "valid");
    assert_eq!(v["at_ply"], 110);
    assert!(v["claimed_at_ply"].is_null());
    // At the record's end it is after the game, --at or not.
    let v = claim(&[
        "--event",
        NATIONAL,
        "--time-control",
        "rapid",
        "--at",
        "120",
    ]);
    assert_eq!(v["claimed_at_ply"], 120);
    // A slow game: 60 moves complete on the mating ply, never valid; the mate stands.
    let v = claim(&["--event", NATIONAL, "--time-control", "slow"]);
    assert_eq!(v["verdict"], "game_over");
    assert!(v["valid_from_ply"].is_null());
    assert_eq!(v["outcome"]["result"], "1-0");
    assert_eq!(v["outcome"]["differs_from_record"], false);
    // The text says all of it.
    let (_, out, _) = xqa(&[
        "claim",
        file,
        "--claimant",
        "black",
        "--event",
        NATIONAL,
        "--time-control",
        "armageddon",
    ]);
    assert!(out.contains("time control armageddon"), "{out}");
    assert!(
        out.contains("This claim is valid from move 51 (ply 100)."),
        "{out}"
    );
    assert!(
        out.contains("Claimed after the game (move 61, ply 120)"),
        "{out}"
    );
    assert!(out.contains("Outcome: 0-1 ("), "{out}");
    let (_, out, _) = xqa(&[
        "claim",
        file,
        "--claimant",
        "black",
        "--event",
        NATIONAL,
        "--time-control",
        "armageddon",
        "--lang",
        "zh",
    ]);
    assert!(
        out.contains("赛事：2020年全国象棋个人锦标赛，赛制：附加赛"),
        "{out}"
    );
    assert!(out.contains("此提和自第51回合（第100步）起成立。"), "{out}");
    assert!(out.contains("和棋黑胜"), "{out}");
    let (code, both, err) = xqa(&[
        "claim",
        file,
        "--claimant",
        "black",
        "--event",
        NATIONAL,
        "--time-control",
        "armageddon",
        "--lang",
        "both",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        both.contains("此提和自第51回合") && both.contains("valid from move 51"),
        "{both}"
    );
}

/// A drawn cycle (both sides idle) after move 25 ends the record: a draw, which in the play-off
/// counts as a Black win; within 25 moves Red must vary and no result is decided yet.
#[test]
fn a_drawn_cycle_in_the_play_off_is_a_black_win() {
    let adjudicate = |moves: &str, tc: &str| {
        json_of(&[
            "adjudicate",
            "--moves",
            moves,
            "--event",
            NATIONAL,
            "--time-control",
            tc,
            "--json",
        ])
    };
    let late = common::padded_shuffle(43, 2);
    let v = adjudicate(&late, "armageddon");
    assert_eq!(v["verdict"], "draw");
    assert_eq!(v["time_control"], "armageddon");
    assert_eq!(v["outcome"]["result"], "0-1", "{v}");
    assert!(
        v["outcome"]["reason_zh"]
            .as_str()
            .unwrap()
            .contains("和棋黑胜")
    );
    let v = adjudicate(&late, "slow");
    assert_eq!(v["outcome"]["result"], "1/2-1/2", "{v}");
    // The final's tie-break replays a draw: no result.
    let v = adjudicate(&late, "super_rapid");
    assert!(v["outcome"]["result"].is_null(), "{v}");
    let early = common::padded_shuffle(42, 2);
    let v = adjudicate(&early, "armageddon");
    assert_eq!(v["verdict"], "red_must_vary");
    assert!(v["outcome"]["result"].is_null(), "{v}");
    assert!(
        v["outcome"]["reason_en"]
            .as_str()
            .unwrap()
            .contains("Red must vary")
    );
    // A cycle the game left (the record goes on) decides nothing.
    let left = format!("{late} h2e2");
    assert!(adjudicate(&left, "armageddon")["outcome"]["result"].is_null());
    // The text names the event, the time control and the outcome.
    let (_, out, _) = xqa(&[
        "adjudicate",
        "--moves",
        &late,
        "--event",
        NATIONAL,
        "--time-control",
        "armageddon",
    ]);
    assert!(
        out.contains("event: 2020年全国象棋个人锦标赛, time control armageddon"),
        "{out}"
    );
    assert!(out.contains("outcome: 0-1 ("), "{out}");
    assert!(out.contains("裁决结果：0-1"), "{out}");
}

/// Options that conflict with the event: the limit options win and the report says so; the
/// rules options are a usage error naming both (never silently dropped).
#[test]
fn options_given_with_an_event_override_it_or_are_refused() {
    let moves = common::padded_shuffle(43, 2);
    let v = json_of(&[
        "adjudicate",
        "--moves",
        &moves,
        "--event",
        TIANSHUI,
        "--limit-profile",
        "rapid",
        "--json",
    ]);
    assert_eq!(v["natural_limit"]["profile"], "rapid");
    assert_eq!(
        v["overrides"],
        serde_json::json!([{"option": "limit_profile", "event": "amateur40", "given": "rapid"}])
    );
    let (_, out, _) = xqa(&[
        "adjudicate",
        "--moves",
        &moves,
        "--event",
        TIANSHUI,
        "--limit-profile",
        "rapid",
    ]);
    assert!(
        out.contains("limit_profile: rapid given, overriding the event's amateur40"),
        "{out}"
    );
    let v = json_of(&[
        "claim",
        "pgn-samples/claim_rapid.pgn",
        "--claimant",
        "red",
        "--event",
        NATIONAL,
        "--time-control",
        "rapid",
        "--limit",
        "40",
        "--json",
    ]);
    assert_eq!(v["required"], 40);
    assert_eq!(v["overrides"][0]["option"], "limit");
    assert_eq!(v["overrides"][0]["event"], "50");
    for args in [
        &[
            "adjudicate",
            "--moves",
            "h2e2",
            "--event",
            NATIONAL,
            "--rules",
            "axf",
        ][..],
        &[
            "claim",
            "--moves",
            "h2e2",
            "--claimant",
            "red",
            "--event",
            NATIONAL,
            "--rules",
            "axf",
        ],
        &[
            "claim",
            "--moves",
            "h2e2",
            "--claimant",
            "red",
            "--event",
            NATIONAL,
            "--profile",
            "rapid",
        ],
    ] {
        let (code, _, err) = xqa(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(
            err.contains("--event") && (err.contains("--rules") || err.contains("--profile")),
            "{err}"
        );
    }
    // Under --lang zh the usage error is in Chinese first.
    let (code, _, err) = xqa(&[
        "adjudicate",
        "--moves",
        "h2e2",
        "--event",
        NATIONAL,
        "--rules",
        "axf",
        "--lang",
        "zh",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("xqa：用法错误：选项 --event")
            && err.contains("--rules")
            && err.contains("同时使用"),
        "{err}"
    );
    // A file that cannot be read: Chinese under zh (the system's words in brackets), then the
    // English under both.
    let (code, _, err) = xqa(&["adjudicate", "no-such-file.pgn", "--lang", "zh"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("xqa：用法错误：no-such-file.pgn：第1局：无法读取（")
            && err.lines().count() == 1,
        "{err}"
    );
    let (_, _, err) = xqa(&["adjudicate", "no-such-file.pgn", "--lang", "both"]);
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines.len() == 2
            && lines[0].starts_with("xqa：用法错误：no-such-file.pgn：第1局：无法读取")
            && lines[1].starts_with("xqa: no-such-file.pgn: game 1: cannot open"),
        "{err}"
    );
}

/// A score sheet typed as text: a bare move list in Chinese, WXF or ICCS, with or without move
/// numbers, in a file of any name, is read by its content.
#[test]
fn a_bare_move_list_is_read_whatever_the_file_is_called() {
    let dir = temp_dir("bare");
    let want = ["h2e2", "h9g7", "h0g2", "i9h9"];
    for (name, text) in [
        ("sheet.txt", "炮二平五 马８进７ 马二进三 车９平８\n"),
        ("sheet", "炮二平五 马8进7\n马二进三 车9平8"),
        ("numbered.txt", "1. 炮二平五 马８进７ 2. 马二进三 车９平８"),
        ("wxf.txt", "C2.5 H8+7 H2+3 R9.8"),
        ("iccs.dat", "h2e2 h9g7 h0g2 i9h9"),
        ("iccs-dash.txt", "H2-E2 H9-G7 H0-G2 I9-H9"),
    ] {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        let v = json_of(&["adjudicate", file.to_str().unwrap(), "--json"]);
        let got: Vec<&str> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["iccs"].as_str().unwrap())
            .collect();
        assert_eq!(got, want, "{name}");
    }
    // Text that is no move list stays refused.
    let file = dir.join("notes.txt");
    std::fs::write(&file, "the arbiter's notes: 炮 was moved").unwrap();
    let (code, _, err) = xqa(&["validate", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("not a game record") || !err.is_empty(),
        "{err}"
    );
}
