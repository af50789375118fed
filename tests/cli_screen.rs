//! `xqa screen` end to end: whole directories ruled on in parallel, each game's cycles the same
//! as `xqa adjudicate` gives for that game alone, rulings due on the third occurrence, unreadable
//! inputs.

mod common;
use common::{json_lines, xqa};

#[test]
fn every_game_of_the_samples_is_screened_as_adjudicate_rules_it() {
    let (code, out, err) = xqa(&["screen", "--json", "--all", "--draws", "pgn-samples"]);
    assert_eq!(code, 0, "{err}");
    let games = json_lines(&out);
    assert!(games.len() >= 20, "{} games", games.len());
    assert!(err.contains("games"), "summary on stderr: {err}");
    let mut cycles_seen = 0;
    // The samples' README is no game record: said once, with its path, and not screened.
    let not_records: Vec<_> = games
        .iter()
        .filter(|g| g.get("not_a_record").is_some())
        .collect();
    assert_eq!(not_records.len(), 1, "{not_records:?}");
    assert_eq!(not_records[0]["source"], "pgn-samples/README.md");
    let games: Vec<_> = games.iter().filter(|g| g.get("header").is_some()).collect();
    for g in games {
        let source = g["header"]["source"]["file"].as_str().unwrap();
        let number = g["header"]["source"]["game"].as_u64().unwrap().to_string();
        let (code, single, err) = xqa(&["adjudicate", source, "--game", &number, "--json"]);
        let single: serde_json::Value = serde_json::from_str(&single).unwrap();
        if code != 0 {
            // A record with a bad move: both rule on the part before it, and give the error.
            assert!(g["error"].is_object(), "{source} {number}: {err}");
            assert_eq!(
                g["error"]["ply"], single["error"]["ply"],
                "{source} {number}"
            );
        }
        let cycles = g["cycles"].as_array().unwrap();
        let expected = single["cycles"].as_array().unwrap();
        assert_eq!(cycles.len(), expected.len(), "{source} game {number}");
        for (c, e) in cycles.iter().zip(expected) {
            for field in [
                "start_ply",
                "end_ply",
                "occurrences",
                "red",
                "black",
                "verdict",
            ] {
                assert_eq!(c[field], e[field], "{source} game {number}: {field}");
            }
            let loop_len = c["moves_iccs"].as_array().unwrap().len();
            assert!(
                loop_len >= 4 && loop_len % 2 == 0,
                "{source}: loop {loop_len}"
            );
            assert_eq!(c["moves_chinese"].as_array().unwrap().len(), loop_len);
            cycles_seen += 1;
        }
        assert_eq!(g["plies"], single["moves"].as_array().unwrap().len());
    }
    assert!(cycles_seen >= 4, "{cycles_seen} cycles");
}

#[test]
fn text_report_names_the_forbidden_side_with_the_loop_and_reasons() {
    let (code, out, err) = xqa(&["screen", "pgn-samples/chinese-no-spaces.pgn"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("plies 104-110, occurrence 2"), "{out}");
    assert!(
        out.contains("Red 长捉 (forbidden), Black 两闲 (allowed): Red must vary"),
        "{out}"
    );
    assert!(
        out.contains("loop: 车四平三 卒７平６ 车三平四 卒６平７"),
        "{out}"
    );
    assert!(out.contains("红方必须变着"), "{out}");
    assert!(out.contains("1 games, 127 plies screened"), "{out}");
}

#[test]
fn the_third_occurrence_makes_the_ruling_due_and_draws_are_listed_on_request() {
    let dir = common::Scratch::new("screen");
    // RULES.md 图6: Red's rook checks back and forth, Black's general steps aside; twice round.
    std::fs::write(
        dir.join("perpetual.pgn"),
        "[FEN \"2b6/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - - 0 1\"]\n[Format \"ICCS\"]\n\n\
         1. f0-e0 e8-f8 2. e0-f0 f8-e8 3. f0-e0 e8-f8 4. e0-f0 f8-e8 *\n",
    )
    .unwrap();
    // Both sides shuffle a rook: a drawn cycle, reported only with --draws.
    std::fs::write(
        dir.join("shuffle.pgn"),
        "[FEN \"r2ak4/4a4/9/9/9/9/9/9/4A4/3AK3R w - - 0 1\"]\n[Format \"ICCS\"]\n\n\
         1. i0-i1 a9-a8 2. i1-i0 a8-a9 3. i0-i1 a9-a8 4. i1-i0 a8-a9 *\n",
    )
    .unwrap();
    let d = dir.to_str().unwrap();
    let (code, out, err) = xqa(&["screen", "--json", d]);
    assert_eq!(code, 0, "{err}");
    let games = json_lines(&out);
    assert_eq!(games.len(), 1, "{out}");
    let incidents = games[0]["cycles"].as_array().unwrap();
    assert_eq!(incidents.len(), 1, "{out}");
    assert_eq!(incidents[0]["verdict"], "red_must_vary");
    assert_eq!(incidents[0]["occurrences"], 3);
    assert_eq!(incidents[0]["ruling_due"], true);
    assert_eq!(incidents[0]["red"]["name"], "长将");
    assert_eq!(
        incidents[0]["moves_iccs"],
        serde_json::json!(["f0e0", "e8f8", "e0f0", "f8e8"])
    );
    assert!(err.contains("(1 with the ruling due)"), "{err}");

    let (code, out, err) = xqa(&["screen", "--json", "--draws", d]);
    assert_eq!(code, 0, "{err}");
    let games = json_lines(&out);
    assert_eq!(games.len(), 2, "{out}");
    let shuffle = games
        .iter()
        .find(|g| {
            g["header"]["source"]["file"]
                .as_str()
                .unwrap()
                .ends_with("shuffle.pgn")
        })
        .unwrap();
    assert_eq!(shuffle["cycles"][0]["verdict"], "draw");
    assert_eq!(shuffle["cycles"][0]["red"]["name"], "两闲");
}

#[test]
fn a_missing_input_is_reported_and_exits_2_after_screening_the_rest() {
    let (code, out, err) = xqa(&[
        "screen",
        "no-such-file.pgn",
        "pgn-samples/chinese-no-spaces.pgn",
    ]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("no-such-file.pgn: cannot be read"), "{out}");
    assert!(out.contains("车四平三"), "the rest is screened: {out}");
    assert!(err.contains("could not be read"), "{err}");
}

#[test]
fn unknown_rules_are_a_usage_error() {
    let (code, _, err) = xqa(&["screen", "--rules", "fide", "pgn-samples"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown rules 'fide'"), "{err}");
}

#[test]
fn natural_limit_points_are_the_first_plies_where_xqa_claim_counts_enough() {
    let mut seen = 0;
    for (file, profile) in [
        ("pgn-samples/claim_slow_valid.pgn", "slow"),
        ("pgn-samples/claim_slow_checks_void.pgn", "slow"),
        ("pgn-samples/claim_slow_checks_void.pgn", "rapid"),
        ("pgn-samples/claim_rapid.pgn", "rapid"),
        ("pgn-samples/claim_mate_on_limit.pgn", "slow"),
    ] {
        let (code, out, err) = xqa(&["screen", "--json", "--limit-profile", profile, file]);
        assert_eq!(code, 0, "{err}");
        let games = json_lines(&out);
        assert_eq!(games.len(), 1, "{file}: {out}");
        let limit = games[0]["limit"].as_array().cloned().unwrap_or_default();
        for l in &limit {
            let claimant = l["claimant"].as_str().unwrap();
            let ply = l["ply"].as_u64().unwrap();
            let claim = |at: u64| -> serde_json::Value {
                let at = at.to_string();
                let (code, out, err) = xqa(&[
                    "claim",
                    file,
                    "--claimant",
                    claimant,
                    "--profile",
                    profile,
                    "--at",
                    &at,
                    "--json",
                ]);
                assert!(code == 0 || code == 1, "{err}");
                serde_json::from_str(&out).unwrap()
            };
            let at = claim(ply);
            assert_eq!(at["needed"], 0, "{file} {profile} {claimant} at {ply}");
            assert_eq!(
                at["opponent_needed"], 0,
                "{file} {profile} {claimant} at {ply}"
            );
            assert_eq!(
                at["valid"], l["valid"],
                "{file} {profile} {claimant} at {ply}"
            );
            let before = claim(ply - 1);
            assert!(
                before["needed"] != 0 || before["opponent_needed"] != 0,
                "{file} {profile} {claimant}: already counted at {}",
                ply - 1
            );
            seen += 1;
        }
    }
    // claim_slow_checks_void: Red's checks are void beyond the cap, so only Black reaches 60.
    assert_eq!(seen, 9);
}
