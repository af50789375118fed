//! `xqa claim` and `xqa show` on the claim samples of `pgn-samples/`: the JSON fields, the text
//! report in both languages, the SVG picture, and clear errors.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{stderr, stdout, xqa_output as xqa};

fn sample_path(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("pgn-samples")
        .join(file)
}

/// The FEN tag and the movetext (move numbers and `H2-E2` moves, comments removed) of a sample.
fn fen_and_moves(file: &str) -> (String, String) {
    let text = std::fs::read_to_string(sample_path(file)).unwrap();
    let fen = text
        .lines()
        .find_map(|l| l.strip_prefix("[FEN \""))
        .map(|l| l.trim_end_matches("\"]").to_string())
        .unwrap();
    let body: String = text
        .lines()
        .filter(|l| !l.starts_with('[') && !l.starts_with('{'))
        .collect::<Vec<_>>()
        .join("\n");
    (fen, body)
}

fn claim(file: &str, extra: &[&str]) -> Output {
    let (fen, moves) = fen_and_moves(file);
    let mut args = vec!["claim", "--fen", &fen, "--moves", &moves];
    args.extend_from_slice(extra);
    xqa(&args)
}

fn claim_json(file: &str, extra: &[&str]) -> Value {
    let mut args = extra.to_vec();
    args.push("--json");
    let o = claim(file, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

fn check(v: &Value, expected: Value) {
    for (k, e) in expected.as_object().unwrap() {
        assert_eq!(&v[k], e, "field {k} in {v:#}");
    }
}

const REQUIRED_FIELDS: [&str; 15] = [
    "profile",
    "claimant",
    "at_ply",
    "window_start_ply",
    "claimant_moves",
    "checks",
    "mate_threats",
    "chases",
    "void",
    "counted",
    "required",
    "opponent_moves",
    "admissible",
    "valid",
    "needed",
];

#[test]
fn slow_valid_claim() {
    let v = claim_json("claim_slow_valid.pgn", &["--claimant", "red"]);
    for f in REQUIRED_FIELDS {
        assert!(v.get(f).is_some(), "missing {f}");
    }
    check(
        &v,
        serde_json::json!({"profile": "slow", "claimant": "red", "at_ply": 121,
            "window_start_ply": 1, "claimant_moves": 60, "checks": 10, "mate_threats": 0,
            "chases": 5, "void": 0, "counted": 60, "required": 60, "opponent_moves": 60,
            "admissible": true, "valid": true, "needed": 0}),
    );
    assert_eq!(v["moves"].as_array().unwrap().len(), 60);
    let first = &v["moves"][0];
    assert_eq!(
        (first["ply"].as_u64(), first["nature"].as_str()),
        (Some(3), Some("idle"))
    );
    assert_eq!(
        (first["counted"].as_bool(), first["void"].is_null()),
        (Some(true), true)
    );
    assert!(
        first["chinese"].as_str().unwrap().starts_with('车'),
        "{first}"
    );
    let en = stdout(&claim("claim_slow_valid.pgn", &["--claimant", "red"]));
    assert!(
        en.contains("VALID: red's claim stands, the game is drawn."),
        "{en}"
    );
    assert!(
        en.contains("Window: moves 1-61, plies 2-121 (after the capture at move 1, ply 1)"),
        "{en}"
    );
    assert!(
        en.contains(
            "red: 60 moves: 10 checks, 0 mate threats, 5 chases; 0 void; 60 counted of 60 required"
        ),
        "{en}"
    );
    let zh = stdout(&claim(
        "claim_slow_valid.pgn",
        &["--claimant", "red", "--lang", "zh"],
    ));
    assert!(zh.contains("提和成立：红方要求成立，判和。"), "{zh}");
    assert!(
        zh.contains("计数范围：第1-61回合（第2-121步），第1回合（第1步）吃子之后"),
        "{zh}"
    );
    assert!(zh.contains("其中将10着、杀0着、捉5着"), "{zh}");
    assert!(
        zh.contains("规则：自然限着（慢棋）：双方连续60回合未吃子"),
        "{zh}"
    );
}

#[test]
fn checks_beyond_ten_are_void() {
    let v = claim_json("claim_slow_checks_void.pgn", &["--claimant", "red"]);
    check(
        &v,
        serde_json::json!({"profile": "slow", "claimant": "red", "at_ply": 120,
            "window_start_ply": 0, "claimant_moves": 60, "checks": 14, "mate_threats": 0,
            "chases": 0, "void": 4, "counted": 56, "required": 60, "opponent_moves": 60,
            "admissible": true, "valid": false, "needed": 4}),
    );
    let void: Vec<u64> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["void"] == "check_cap")
        .map(|m| m["ply"].as_u64().unwrap())
        .collect();
    assert_eq!(void, [63, 79, 81, 83]);
    let en = stdout(&claim(
        "claim_slow_checks_void.pgn",
        &["--claimant", "red", "--lang", "en"],
    ));
    assert!(
        en.contains("NOT VALID: red has 56 counted moves of 60; 4 more needed."),
        "{en}"
    );
    assert!(en.contains("Void moves:"), "{en}");
    let zh = stdout(&claim(
        "claim_slow_checks_void.pgn",
        &["--claimant", "red", "--lang", "zh"],
    ));
    assert!(
        zh.contains("提和不成立：红方计入56着，须60着，尚差4着。"),
        "{zh}"
    );
    assert!(zh.contains("（不计：超出将军限额）"), "{zh}");
    // Black's claim in the same game stands.
    let b = claim_json("claim_slow_checks_void.pgn", &["--claimant", "black"]);
    check(&b, serde_json::json!({"valid": true, "counted": 60}));
}

#[test]
fn rapid_claim() {
    let v = claim_json(
        "claim_rapid.pgn",
        &["--claimant", "red", "--profile", "rapid"],
    );
    check(
        &v,
        serde_json::json!({"profile": "rapid", "claimant": "red", "at_ply": 102,
            "window_start_ply": 0, "claimant_moves": 51, "checks": 9, "mate_threats": 0,
            "chases": 0, "void": 1, "counted": 50, "required": 50, "opponent_moves": 51,
            "admissible": true, "valid": true, "needed": 0}),
    );
    let zh = stdout(&claim(
        "claim_rapid.pgn",
        &["--claimant", "red", "--profile", "rapid", "--lang", "zh"],
    ));
    assert!(zh.contains("；快棋，计数方式：自最后吃子起"), "{zh}");
    assert!(zh.contains("其中将最多计8着"), "{zh}");
    let en = stdout(&claim(
        "claim_rapid.pgn",
        &["--claimant", "red", "--profile", "rapid"],
    ));
    assert!(
        en.contains("at most 25 count; of them at most 8 checks;"),
        "{en}"
    );
    // Custom flags: the slow rule with the rapid check cap.
    let v = claim_json(
        "claim_rapid.pgn",
        &[
            "--claimant",
            "red",
            "--limit",
            "50",
            "--attack-cap",
            "25",
            "--check-cap",
            "8",
        ],
    );
    check(
        &v,
        serde_json::json!({"profile": "custom", "void": 1, "counted": 50, "valid": true}),
    );
    let v = claim_json(
        "claim_rapid.pgn",
        &["--claimant", "red", "--limit", "50", "--check-cap", "none"],
    );
    check(
        &v,
        serde_json::json!({"void": 0, "counted": 51, "valid": true}),
    );
}

#[test]
fn amateur40_refused_for_attacking_pieces() {
    let v = claim_json(
        "claim_amateur40_refused.pgn",
        &["--claimant", "black", "--profile", "amateur40"],
    );
    check(
        &v,
        serde_json::json!({"profile": "amateur40", "claimant": "black", "at_ply": 80,
            "window_start_ply": 0, "claimant_moves": 40, "checks": 0, "mate_threats": 0,
            "chases": 0, "void": 0, "counted": 40, "required": 40, "opponent_moves": 40,
            "admissible": false, "valid": false, "needed": 0, "attacking_pieces": 4,
            "discretionary": true}),
    );
    let en = stdout(&claim(
        "claim_amateur40_refused.pgn",
        &["--claimant", "black", "--profile", "amateur40"],
    ));
    assert!(en.contains("REFUSED (at the arbiter's discretion): the count is reached, but 4 attacking pieces are on the board."), "{en}");
    let zh = stdout(&claim(
        "claim_amateur40_refused.pgn",
        &[
            "--claimant",
            "black",
            "--profile",
            "amateur40",
            "--lang",
            "zh",
        ],
    ));
    assert!(
        zh.contains("原则上不予判和（裁判酌情）：回合数已够，但场上有4个进攻子力。"),
        "{zh}"
    );
    assert!(zh.contains("将军一律不计"), "{zh}");
}

#[test]
fn mate_on_the_limit_ply_wins() {
    let v = claim_json("claim_mate_on_limit.pgn", &["--claimant", "black"]);
    check(
        &v,
        serde_json::json!({"profile": "slow", "claimant": "black", "at_ply": 120,
            "window_start_ply": 0, "claimant_moves": 60, "checks": 0, "mate_threats": 0,
            "chases": 0, "void": 0, "counted": 60, "required": 60, "opponent_moves": 60,
            "admissible": true, "valid": false, "needed": 0, "ending": "checkmate"}),
    );
    let en = stdout(&claim("claim_mate_on_limit.pgn", &["--claimant", "black"]));
    assert!(en.contains("NOT VALID: black is checkmated on the board at move 61, ply 120; the result on the board takes precedence over the draw."), "{en}");
    let zh = stdout(&claim(
        "claim_mate_on_limit.pgn",
        &["--claimant", "black", "--lang", "zh"],
    ));
    assert!(
        zh.contains(
            "提和不成立：第61回合（第120步）黑方被将死，棋局已分胜负，胜负优先于限着和棋。"
        ),
        "{zh}"
    );
    // At ply 118 Black is one move short.
    let v = claim_json(
        "claim_mate_on_limit.pgn",
        &["--claimant", "black", "--at", "118"],
    );
    check(
        &v,
        serde_json::json!({"at_ply": 118, "claimant_moves": 59, "needed": 1, "valid": false, "ending": null}),
    );
    // Red's mate threat and checks are listed.
    let v = claim_json("claim_mate_on_limit.pgn", &["--claimant", "red"]);
    check(
        &v,
        serde_json::json!({"checks": 6, "mate_threats": 1, "void": 0}),
    );
}

#[test]
fn from_claim_counting_and_settings_file() {
    let v = claim_json(
        "claim_slow_valid.pgn",
        &["--claimant", "red", "--from-claim", "41"],
    );
    check(
        &v,
        serde_json::json!({"counting": "from_claim", "window_start_ply": 41, "claimant_moves": 40,
            "opponent_moves": 40, "needed": 20}),
    );
    let dir = common::Scratch::new("claim");
    let settings = dir.join("event.json");
    std::fs::write(
        &settings,
        r#"{"base": "slow", "name": "club", "moves": 56, "check_cap": 10}"#,
    )
    .unwrap();
    let v = claim_json(
        "claim_slow_checks_void.pgn",
        &[
            "--claimant",
            "red",
            "--settings",
            settings.to_str().unwrap(),
        ],
    );
    check(
        &v,
        serde_json::json!({"profile": "club", "required": 56, "counted": 56, "valid": true}),
    );
    std::fs::write(&settings, r#"{"counting": "from_claim"}"#).unwrap();
    let o = claim(
        "claim_slow_valid.pgn",
        &[
            "--claimant",
            "red",
            "--settings",
            settings.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--from-claim PLY"), "{}", stderr(&o));
    let v = claim_json(
        "claim_slow_valid.pgn",
        &[
            "--claimant",
            "red",
            "--settings",
            settings.to_str().unwrap(),
            "--from-claim",
            "61",
        ],
    );
    check(
        &v,
        serde_json::json!({"counting": "from_claim", "window_start_ply": 61, "claimant_moves": 30}),
    );
    std::fs::write(&settings, r#"{"moves": 0}"#).unwrap();
    let o = claim(
        "claim_slow_checks_void.pgn",
        &[
            "--claimant",
            "red",
            "--settings",
            settings.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("the move limit must be at least 1"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn svg_board_at_the_claim_ply() {
    let dir = common::Scratch::new("claim-svg");
    let file = dir.join("claim.svg");
    let o = claim(
        "claim_mate_on_limit.pgn",
        &[
            "--claimant",
            "black",
            "--svg",
            file.to_str().unwrap(),
            "--lang",
            "zh",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<?xml") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains(">楚<") && svg.contains("class=\"last-move\""));
    assert!(svg.contains("黑方第61回合（第120步）提和"), "caption");
    // Three pieces: two kings and the rook on d1, the mating move g1d1 marked.
    assert_eq!(svg.matches("class=\"piece ").count(), 3);
    assert!(svg.contains("data-square=\"d1\""));
    assert!(svg.contains("last move g1d1"));

    let show = dir.join("show.svg");
    let (fen, moves) = fen_and_moves("claim_slow_valid.pgn");
    let o = xqa(&[
        "show",
        "--fen",
        &fen,
        "--moves",
        &moves,
        "--at",
        "1",
        "--svg",
        show.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("(俥)") && text.contains("[將]"), "{text}");
    let svg = std::fs::read_to_string(&show).unwrap();
    assert!(svg.contains("last move i0i6"));
    assert!(svg.contains("ply 1: i0i6 车一进六"), "caption");
    assert!(text.contains("Last move: ply 1, i0i6 车一进六"), "{text}");
    assert_eq!(svg.matches("class=\"piece ").count(), 4);
}

#[test]
fn bad_input_gives_clear_errors() {
    let o = xqa(&["claim", "--moves", "h2e2 h9g7 h0h5", "--claimant", "red"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("ply 3: 'h0h5'"), "{}", stderr(&o));
    let o = xqa(&["claim", "--moves", "h2e2 zz", "--claimant", "red"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("ply 2: 'zz' is not an ICCS move"),
        "{}",
        stderr(&o)
    );
    // An out-of-range --at is a usage error naming the valid range.
    let o = xqa(&["claim", "--moves", "h2e2", "--claimant", "red", "--at", "5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--at 5 is past the end of the game: it takes 0 to 1"),
        "{}",
        stderr(&o)
    );
    let o = xqa(&["claim", "--moves", "h2e2", "--claimant", "green"]);
    assert_eq!(o.status.code(), Some(2));
    let o = xqa(&[
        "claim",
        "--moves",
        "h2e2",
        "--claimant",
        "red",
        "--profile",
        "blitz",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("unknown base profile 'blitz'"),
        "{}",
        stderr(&o)
    );
    let o = xqa(&["claim", "--fen", "bad", "--claimant", "red"]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn claims_read_records_by_path() {
    // The same report whether the game comes from the file or from --fen/--moves.
    for (file, claimant, profile) in [
        ("claim_slow_valid.pgn", "red", "slow"),
        ("claim_slow_checks_void.pgn", "red", "slow"),
        ("claim_rapid.pgn", "red", "rapid"),
        ("claim_amateur40_refused.pgn", "black", "amateur40"),
        ("claim_mate_on_limit.pgn", "black", "slow"),
    ] {
        let path = sample_path(file);
        let o = xqa(&[
            "claim",
            path.to_str().unwrap(),
            "--claimant",
            claimant,
            "--profile",
            profile,
            "--json",
        ]);
        assert!(o.status.success(), "{file}: {}", stderr(&o));
        let mut from_path: Value = serde_json::from_str(&stdout(&o)).unwrap();
        let mut from_moves = claim_json(file, &["--claimant", claimant, "--profile", profile]);
        // Only a record has a game header.
        assert_eq!(from_path["header"]["source"]["game"], 1, "{file}");
        assert_eq!(from_moves["header"], Value::Null, "{file}");
        from_path.as_object_mut().unwrap().remove("header");
        from_moves.as_object_mut().unwrap().remove("header");
        // Only a record has a result to compare the outcome with.
        assert_eq!(
            from_path["outcome"]["result"], from_moves["outcome"]["result"],
            "{file}"
        );
        assert!(from_moves["outcome"]["recorded"].is_null(), "{file}");
        from_path.as_object_mut().unwrap().remove("outcome");
        from_moves.as_object_mut().unwrap().remove("outcome");
        assert_eq!(from_path, from_moves, "{file}");
    }
    let o = xqa(&[
        "claim",
        sample_path("claim_rapid.pgn").to_str().unwrap(),
        "--game",
        "2",
        "--claimant",
        "red",
    ]);
    // An out-of-range --game is a usage error.
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("game 2: no such game: the file holds 1 game"),
        "{}",
        stderr(&o)
    );
    let o = xqa(&["claim", "no/such/file.pgn", "--claimant", "red"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn claim_on_a_real_record_with_a_long_capture_free_stretch() {
    // tests/data/limit/zhao_guorong_00000302.pgn: 381 plies, 151 without capture (see README there).
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/limit/zhao_guorong_00000302.pgn");
    let o = xqa(&[
        "claim",
        path.to_str().unwrap(),
        "--claimant",
        "red",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["at_ply"], 381);
    let counted = v["counted"].as_u64().unwrap();
    assert_eq!(
        counted + v["void"].as_u64().unwrap(),
        v["claimant_moves"].as_u64().unwrap()
    );
    let o = xqa(&["show", path.to_str().unwrap(), "--at", "200"]);
    assert!(o.status.success(), "{}", stderr(&o));
}
