//! The single-game commands on broken records (`show`, `adjudicate`, `claim` work on the legal
//! part and report the error, exit code 1), the range checks of `--game` and `--at` (usage
//! errors, exit code 2, naming the valid range), `convert --game`, `moves --at` on a record, and
//! the languages of the text reports (`--lang zh|en|both`).

use serde_json::Value;

mod common;
use common::xqa;

/// Broken at ply 11 (车一进三 at line 12, column 4): 10 legal plies.
const BROKEN: &str = "pgn-samples/illegal-move-chinese.pgn";

#[test]
fn show_looks_at_the_legal_part_of_a_broken_record() {
    let (code, out, err) = xqa(&["show", BROKEN, "--at", "5"]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("FEN: "), "{out}");
    assert!(out.contains("Last move: ply 5"), "{out}");
    assert!(
        out.contains("The record is broken after ply 10") && out.contains("车一进三"),
        "{out}"
    );
    assert!(err.contains("the record is invalid"), "{err}");

    let (code, out, _) = xqa(&["show", BROKEN, "--json"]);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["at"], 10, "the whole legal part by default");
    assert_eq!(v["moves"].as_array().unwrap().len(), 10);
    assert_eq!(v["last_move"]["ply"], 10);
    assert_eq!(v["last_move"]["move_number"], 5);
    assert_eq!(v["last_move"]["side"], "black");
    assert_eq!(v["error"]["ply"], 11);
    assert_eq!(v["error"]["line"], 12);
    assert_eq!(v["error"]["column"], 4);
    assert_eq!(v["error"]["move_text"], "车一进三");

    // Past the legal part: a usage error naming the range.
    let (code, _, err) = xqa(&["show", BROKEN, "--at", "11"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--at 11") && err.contains("0 to 10"), "{err}");
}

#[test]
fn adjudicate_and_claim_rule_on_the_legal_part_of_a_broken_record() {
    let (code, out, err) = xqa(&["adjudicate", BROKEN, "--json"]);
    assert_eq!(code, 1, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["moves"].as_array().unwrap().len(), 10);
    assert_eq!(v["error"]["ply"], 11);
    assert_eq!(v["header"]["source"]["file"], BROKEN);
    let (code, out, _) = xqa(&["adjudicate", BROKEN]);
    assert_eq!(code, 1);
    assert!(out.contains("ruled on its first 10 plies only"), "{out}");

    let (code, out, err) = xqa(&["claim", BROKEN, "--claimant", "red", "--json"]);
    assert_eq!(code, 1, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["at_ply"], 10);
    assert!(v["error"]["kind"].is_string(), "{v}");
    let (code, out, _) = xqa(&["claim", BROKEN, "--claimant", "red", "--at", "6"]);
    assert_eq!(code, 1);
    assert!(out.contains("judged on its first 10 plies only"), "{out}");
}

#[test]
fn game_and_ply_ranges_are_usage_errors() {
    for cmd in ["show", "adjudicate", "moves"] {
        let (code, _, err) = xqa(&[cmd, BROKEN, "--game", "0"]);
        assert_eq!(code, 2, "{cmd}: {err}");
        assert!(err.contains("--game takes 1"), "{cmd}: {err}");
        let (code, _, err) = xqa(&[cmd, BROKEN, "--game", "3"]);
        assert_eq!(code, 2, "{cmd}: {err}");
        assert!(err.contains("holds 1 game"), "{cmd}: {err}");
    }
    let (code, _, err) = xqa(&["claim", BROKEN, "--game", "0", "--claimant", "red"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = xqa(&["adjudicate", "--moves", "h2e2 h9g7", "--at", "3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("it takes 0 to 2"), "{err}");
    let (code, _, err) = xqa(&["moves", BROKEN, "--at", "12"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("0 to 10"), "{err}");
}

#[test]
fn convert_one_game_and_list_moves_at_a_ply_of_a_record() {
    let sample = "pgn-samples/annotated-iccs.pgn";
    let (code, all, err) = xqa(&["convert", "--to", "wxf", sample]);
    assert_eq!(code, 0, "{err}");
    let (code, one, err) = xqa(&["convert", "--to", "wxf", "--game", "1", sample]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(one, all, "a one-game file converts the same");
    let (code, _, err) = xqa(&["convert", "--game", "2", sample]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--game takes 1"), "{err}");
    let (code, _, err) = xqa(&["convert", "--game", "1", BROKEN]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("车一进三"), "{err}");

    let (_, shown, _) = xqa(&["show", sample, "--at", "3", "--json"]);
    let fen = serde_json::from_str::<Value>(&shown).unwrap()["fen"]
        .as_str()
        .unwrap()
        .to_owned();
    let (code, at, err) = xqa(&["moves", sample, "--at", "3", "--notation", "chinese"]);
    assert_eq!(code, 0, "{err}");
    let (_, from_fen, _) = xqa(&["moves", "--fen", &fen, "--notation", "chinese"]);
    assert_eq!(at, from_fen);
    let (_, json, _) = xqa(&["moves", sample, "--at", "3", "--json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["fen"], fen.as_str());
    assert_eq!(v["moves"][0]["side"], "black");
}

fn has_cjk(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[test]
fn text_reports_in_each_language_with_move_numbers() {
    let game = "pgn-samples/chinese-no-spaces.pgn";
    let (code, en, _) = xqa(&["screen", "--lang", "en", game]);
    assert_eq!(code, 0);
    assert!(
        en.contains("cycle: moves 52-55, plies 104-110, occurrence 2"),
        "{en}"
    );
    assert!(!en.contains("循环："), "{en}");
    let (_, zh, _) = xqa(&["screen", "--lang", "zh", game]);
    assert!(
        zh.contains("循环：第52-55回合（第104-110步），第2次出现："),
        "{zh}"
    );
    assert!(zh.contains("红方长捉（禁止着法）"), "{zh}");
    // (The run's summary line, shared with the JSON mode's stderr, stays English.)
    assert!(
        zh.lines()
            .filter(|l| !l.contains("games,"))
            .all(|l| !l.contains("plies")),
        "{zh}"
    );
    let (_, both, _) = xqa(&["screen", game]);
    assert!(
        both.contains("循环：") && both.contains("cycle: "),
        "{both}"
    );

    let (code, en, _) = xqa(&["adjudicate", game, "--lang", "en"]);
    assert_eq!(code, 0);
    assert!(en.starts_with("rules: cxa\n"), "{en}");
    assert!(en.contains("plies 104-110"), "{en}");
    // English labels and natures only (the moves themselves are Chinese notation).
    for l in en.lines().filter(|l| l.contains("verdict")) {
        assert!(!has_cjk(l), "{l}");
    }
    let (_, zh, _) = xqa(&["adjudicate", game, "--lang", "zh"]);
    assert!(zh.starts_with("规则：cxa\n"), "{zh}");
    assert!(zh.contains("裁决："), "{zh}");
    assert!(!zh.contains("verdict") && !zh.contains("rules:"), "{zh}");
    // The move number beside the ply: ply 3 is in move 2.
    let row = zh
        .lines()
        .find(|l| l.trim_start().starts_with("3 "))
        .unwrap();
    assert!(row.split_whitespace().nth(1) == Some("2"), "{row}");
    let (code, _, err) = xqa(&["adjudicate", game, "--lang", "fr"]);
    assert_eq!(code, 2, "{err}");

    // Claim: no English inside Chinese brackets, a colon after labels.
    let (_, zh, _) = xqa(&[
        "claim",
        "pgn-samples/claim_slow_valid.pgn",
        "--claimant",
        "red",
        "--lang",
        "zh",
    ]);
    assert!(zh.contains("（慢棋，计数方式：自最后吃子起）"), "{zh}");
    for part in zh.split('（').skip(1) {
        let inside = part.split('）').next().unwrap();
        assert!(
            !inside.chars().any(|c| c.is_ascii_alphabetic()),
            "English inside Chinese brackets: {inside}"
        );
    }
}
