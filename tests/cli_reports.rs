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
    assert!(zh.contains("共1局，检查"), "{zh}");
    assert!(!zh.contains("plies") && !zh.contains("games"), "{zh}");
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
    assert!(zh.starts_with("规则：中国象棋协会规则\n"), "{zh}");
    assert!(zh.contains("裁决："), "{zh}");
    assert!(!zh.contains("verdict") && !zh.contains("rules:"), "{zh}");
    // The move number beside the ply: ply 3 is in move 2.
    let row = zh
        .lines()
        .find(|l| l.trim_start().starts_with("3 "))
        .unwrap();
    assert!(row.split_whitespace().nth(1) == Some("2"), "{row}");
    // Both languages: a header line in each, the side and each target named in both.
    let (_, both, _) = xqa(&["adjudicate", game, "--lang", "both"]);
    let lines: Vec<&str> = both.lines().collect();
    let h = lines
        .iter()
        .position(|l| l.starts_with("步"))
        .expect("Chinese header");
    assert!(lines[h].ends_with("目标"), "{both}");
    assert!(
        lines[h + 1].trim_start().starts_with("ply") && lines[h + 1].ends_with("targets"),
        "{both}"
    );
    let row = lines[h + 2];
    assert!(row.contains("红 red"), "{row}");
    let chase = lines.iter().find(|l| l.contains("←")).expect("a chase row");
    assert!(
        chase.contains("(by ") || chase.contains("(joint by "),
        "{chase}"
    );
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
    assert!(zh.contains("；慢棋，计数方式：自最后吃子起"), "{zh}");
    assert!(
        zh.contains("自然限着提和：红方，第61回合（第121步）"),
        "{zh}"
    );
    assert!(
        zh.contains("计数范围：第1-61回合（第2-121步），第1回合（第1步）吃子之后"),
        "{zh}"
    );
    // The rows name the moves in Chinese notation only, with the move number beside the ply.
    assert!(zh.contains("    第  6回合 第 11步 车一进九 将\n"), "{zh}");
    for part in zh.split('（').skip(1) {
        let inside = part.split('）').next().unwrap();
        assert!(
            !inside.chars().any(|c| c.is_ascii_alphabetic()),
            "English inside Chinese brackets: {inside}"
        );
    }
}

/// The ASCII words (two letters or more) of `text` that are not data: file names, the players'
/// names, echoed move text in 「」 and the labelled ICCS column.
fn english_words(text: &str, data: &[String]) -> Vec<String> {
    let mut t = text.to_owned();
    for d in data.iter().filter(|d| !d.is_empty()) {
        t = t.replace(d.as_str(), " ");
    }
    // Echoed record text.
    let mut kept = String::new();
    let mut rest = t.as_str();
    while let Some(a) = rest.find('「') {
        kept.push_str(&rest[..a]);
        rest = rest[a..].split_once('」').map_or("", |(_, r)| r);
    }
    kept.push_str(rest);
    kept.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() >= 2 && *w != "ICCS")
        .map(str::to_owned)
        .collect()
}

/// The players' names of every game of `file` (data, not words of the report).
fn names(file: &str) -> Vec<String> {
    let (_, out, _) = xqa(&["screen", "--json", "--all", file]);
    let mut v = vec![file.to_owned()];
    for line in out.lines() {
        let doc: Value = serde_json::from_str(line).unwrap();
        for k in ["red", "black", "source"] {
            if let Some(s) = doc["header"][k].as_str().or(doc[k].as_str()) {
                v.push(s.to_owned());
            }
        }
    }
    // Longest first, so that a name containing another is taken whole.
    v.sort_by_key(|s| std::cmp::Reverse(s.len()));
    v
}

#[test]
fn chinese_reports_hold_no_english_word() {
    // (The check itself: data is left out, words are found.)
    assert_eq!(
        english_words(
            "规则：cxa，a.pgn 第1局，红方Hu Ronghua：「Cbe3」 ICCS e7←e2",
            &["Hu Ronghua".to_owned(), "a.pgn".to_owned()]
        ),
        vec!["cxa"]
    );
    let mut files: Vec<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/pgn-samples"))
            .unwrap()
            .map(|e| format!("pgn-samples/{}", e.unwrap().file_name().to_string_lossy()))
            .filter(|f| !f.ends_with(".md"))
            .collect();
    files.sort();
    let mut all_data = vec![
        "pgn-samples/README.md".to_owned(),
        "pgn-samples/".to_owned(),
    ];
    let mut checked = 0;
    for f in &files {
        let data = names(f);
        all_data.extend(data.iter().cloned());
        let runs: Vec<Vec<&str>> = vec![
            vec!["adjudicate", f, "--lang", "zh"],
            vec!["claim", f, "--claimant", "red", "--lang", "zh"],
            vec!["claim", f, "--claimant", "black", "--lang", "zh"],
        ];
        for args in runs {
            let (_, out, _) = xqa(&args);
            let words = english_words(&out, &data);
            assert!(
                words.is_empty(),
                "{args:?}: English words {words:?} in\n{out}"
            );
            checked += 1;
        }
        // The Chinese lines of both languages.
        let (_, out, _) = xqa(&["adjudicate", f]);
        let zh: String = out
            .lines()
            .filter(|l| l.trim_start().starts_with(|c: char| !c.is_ascii()))
            .map(|l| format!("{l}\n"))
            .collect();
        let words = english_words(&zh, &data);
        assert!(
            words.is_empty(),
            "{f} --lang both: English words {words:?} in\n{zh}"
        );
    }
    all_data.sort_by_key(|s| std::cmp::Reverse(s.len()));
    for args in [
        vec!["screen", "--lang", "zh", "pgn-samples/"],
        vec![
            "screen",
            "--lang",
            "zh",
            "--draws",
            "--limit-profile",
            "rapid",
            "pgn-samples/",
        ],
    ] {
        let (_, out, _) = xqa(&args);
        assert!(out.contains("共") && out.contains("局"), "{out}");
        let words = english_words(&out, &all_data);
        assert!(
            words.is_empty(),
            "{args:?}: English words {words:?} in\n{out}"
        );
    }
    assert!(checked >= 40, "{checked}");
}

/// With `--lang zh` the closing error line of a broken record is Chinese too, located and with
/// the move text; the other languages keep the English line.
#[test]
fn a_broken_record_closes_with_a_chinese_error_line_under_lang_zh() {
    for args in [
        vec!["adjudicate", BROKEN, "--lang", "zh"],
        vec!["claim", BROKEN, "--claimant", "red", "--lang", "zh"],
    ] {
        let (code, _, err) = xqa(&args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains("棋谱有误："), "{args:?}: {err}");
        assert!(
            err.contains("车一进三") && err.contains(":12:4"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("the record is invalid"), "{args:?}: {err}");
    }
    let (code, _, err) = xqa(&["adjudicate", BROKEN, "--lang", "both"]);
    assert_eq!(code, 1);
    assert!(err.contains("the record is invalid"), "{err}");
}
