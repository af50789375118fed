//! Every command's `--json` output, on real records (the samples of `pgn-samples/`, broken and
//! binary ones included), validates against the published report schema `docs/schema.json`; and
//! the schema is strict enough to reject the old names (`incidents`, `mv`, `"line": 0`).

use serde_json::Value;
use std::path::{Path, PathBuf};

mod common;
use common::{json_lines, xqa};

fn root() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A validator for the definition `def` of the schema (`None`: the whole schema).
fn validator(def: Option<&str>) -> jsonschema::Validator {
    let mut schema = root();
    if let Some(def) = def {
        let obj = schema.as_object_mut().unwrap();
        obj.remove("anyOf");
        obj.insert("$ref".into(), format!("#/$defs/{def}").into());
    }
    jsonschema::draft202012::new(&schema).expect("the schema compiles")
}

/// Checks that `doc` is a `def` (and so a document of the whole schema).
fn check(def: &str, doc: &Value, what: &str) {
    for v in [validator(Some(def)), validator(None)] {
        let errors: Vec<String> = v
            .iter_errors(doc)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{what}: {errors:#?}\n{doc:#}");
    }
    assert_eq!(doc["schema"], 1, "{what}");
}

fn samples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("pgn-samples");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e != "md"))
        .collect();
    v.sort();
    v
}

const BROKEN: &str = "pgn-samples/illegal-move-chinese.pgn";

#[test]
fn validate_and_convert_errors_follow_the_schema() {
    let (code, out, _) = xqa(&["validate", "--json", "pgn-samples", "/nonexistent/x.pgn"]);
    assert_eq!(code, 2);
    let games = json_lines(&out);
    assert!(games.len() >= samples().len(), "{out}");
    for g in &games {
        check("validate", g, "validate");
    }
    // The missing file: no pretended format, line or column.
    let missing = games
        .iter()
        .find(|g| g["header"]["source"]["file"] == "/nonexistent/x.pgn")
        .unwrap();
    assert_eq!(missing["format"], Value::Null);
    assert_eq!(missing["error"]["kind"], "io");
    assert_eq!(missing["error"]["line"], Value::Null);
    assert_eq!(missing["error"]["column"], Value::Null);
    // A binary record names a byte offset when broken; a text one a line and column.
    let broken = games
        .iter()
        .find(|g| {
            g["header"]["source"]["file"]
                .as_str()
                .is_some_and(|f| f.ends_with("illegal-move-chinese.pgn"))
        })
        .unwrap();
    assert_eq!(broken["error"]["line"], 12);
    assert_eq!(broken["error"]["offset"], Value::Null);
    assert_eq!(broken["error"]["game"], 1);
    // Its score-sheet repairs (docs/schema.json $defs/repair): 车一进三 was 车二进三.
    let repair = &broken["error"]["repairs"][0];
    assert_eq!(repair["edits"][0]["op"], "replace");
    assert_eq!(repair["edits"][0]["ply"], 11);
    assert_eq!(repair["edits"][0]["iccs"], "h0h3");
    assert_eq!(repair["edits"][0]["text"], "车二进三");
    assert_eq!(repair["edits"][0]["ply2"], Value::Null);
    assert_eq!(repair["replays_to_end"], true);
    assert_eq!(repair["plies_replayed"], 12);
    assert_eq!(broken["error"]["repairs_cut_short"], false);
    // A valid game's warnings carry none.
    assert!(games.iter().all(|g| {
        g["warnings"]
            .as_array()
            .into_iter()
            .flatten()
            .all(|w| w["repairs"] == Value::Array(vec![]))
    }));

    let (code, _, err) = xqa(&["convert", "--json", BROKEN, "/nonexistent/y.pgn"]);
    assert_eq!(code, 2);
    let errors = json_lines(
        &err.lines()
            .filter(|l| l.starts_with('{'))
            .collect::<Vec<_>>()
            .join("\n"),
    );
    assert_eq!(errors.len(), 2, "{err}");
    for e in &errors {
        check("error_document", e, "convert error");
    }
    let bad_move = errors.iter().find(|e| e["error"]["ply"] == 11).unwrap();
    assert_eq!(bad_move["error"]["line"], 12);
    assert_eq!(bad_move["error"]["suggestions"][0], "车二进三");
}

#[test]
fn single_game_commands_follow_the_schema_on_every_sample() {
    let mut ruled = 0;
    for path in samples() {
        let p = path.to_str().unwrap();
        let (code, out, err) = xqa(&["adjudicate", p, "--json"]);
        let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{p}: {e} {err}"));
        if code == 0 {
            check("adjudicate", &v, p);
            ruled += 1;
        } else if v.get("rules").is_some() {
            // A broken record: ruled on as far as it goes.
            check("adjudicate", &v, p);
            assert!(v["error"].is_object(), "{p}");
        } else {
            check("error_document", &v, p);
        }
        for side in ["red", "black"] {
            let (code, out, _) = xqa(&["claim", p, "--claimant", side, "--json"]);
            let v: Value = serde_json::from_str(&out).unwrap();
            check(
                if v.get("verdict").is_some() {
                    "claim"
                } else {
                    "error_document"
                },
                &v,
                p,
            );
            assert!(code == 0 || v.get("error").is_some(), "{p}");
        }
        let (_, out, _) = xqa(&["show", p, "--json", "--at", "1"]);
        let v: Value = serde_json::from_str(&out).unwrap();
        check(
            if v.get("fen").is_some() {
                "show"
            } else {
                "error_document"
            },
            &v,
            p,
        );
        let (_, out, _) = xqa(&["moves", p, "--json", "--at", "1"]);
        let v: Value = serde_json::from_str(&out).unwrap();
        check(
            if v.get("fen").is_some() {
                "moves"
            } else {
                "error_document"
            },
            &v,
            p,
        );
    }
    assert!(ruled >= 15, "most samples are ruled on ({ruled})");
}

#[test]
fn screen_follows_the_schema() {
    let (code, out, err) = xqa(&[
        "screen",
        "--json",
        "--all",
        "--draws",
        "--limit-profile",
        "slow",
        "pgn-samples",
        "tests/data/limit",
        "/nonexistent/z.pgn",
    ]);
    assert_eq!(code, 2, "{err}");
    let games = json_lines(&out);
    let mut cycles = 0;
    for g in &games {
        check("screen", g, "screen");
        // (Lines for files that are no game record carry no cycles.)
        cycles += g["cycles"].as_array().map_or(0, Vec::len);
    }
    assert!(cycles > 0, "some cycle is reported: {out}");
    let broken = games
        .iter()
        .find(|g| {
            g["header"]["source"]["file"]
                .as_str()
                .is_some_and(|f| f.ends_with("illegal-move-chinese.pgn"))
        })
        .unwrap();
    assert_eq!(broken["error"]["ply"], 11);
    assert_eq!(broken["error"]["move_text"], "车一进三");
}

#[test]
fn fen_inputs_perft_moves_and_errors_follow_the_schema() {
    let (code, out, _) = xqa(&["adjudicate", "--moves", "h2e2 h7e7 h0g2 h9g7", "--json"]);
    assert_eq!(code, 0, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    check("adjudicate", &v, "adjudicate --moves");
    assert_eq!(v["header"], Value::Null);
    assert_eq!(v["moves"][2]["move_number"], 2);
    assert_eq!(v["moves"][2]["wxf"], "H2+3");
    assert_eq!(v["moves"][2]["chinese"], "马二进三");
    assert_eq!(v["moves"][3]["side"], "black");

    let (_, out, _) = xqa(&["perft", "2", "--divide", "--json"]);
    check("perft", &serde_json::from_str(&out).unwrap(), "perft");
    let (_, out, _) = xqa(&["moves", "--json", "--notation", "wxf"]);
    check("moves", &serde_json::from_str(&out).unwrap(), "moves");
    let (_, out, _) = xqa(&["show", "--moves", "h2e2 h9g7", "--json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    check("show", &v, "show --moves");
    assert_eq!(v["last_move"]["chinese"], "马８进７");

    // Errors with --json: the error document on standard output, as well as the message.
    for args in [
        &["adjudicate", "--moves", "h2e2 a0a5", "--json"][..],
        &["adjudicate", BROKEN, "--game", "5", "--json"],
        &["show", BROKEN, "--at", "99", "--json"],
        &["claim", "--claimant", "red", "--fen", "bad", "--json"],
    ] {
        let (code, out, err) = xqa(args);
        assert!(code == 1 || code == 2, "{args:?}");
        assert!(err.starts_with("xqa: "), "{args:?}: {err}");
        check(
            "error_document",
            &serde_json::from_str(&out).unwrap(),
            &format!("{args:?}"),
        );
    }
}

#[test]
fn the_schema_rejects_the_old_names() {
    let v = validator(None);
    // screen's old `incidents`, claim's old `mv`, an error with `"line": 0`.
    let (_, out, _) = xqa(&["screen", "--json", "--all", "--draws", "pgn-samples"]);
    let mut g = json_lines(&out)
        .into_iter()
        .find(|g| g.get("cycles").is_some())
        .unwrap();
    let cycles = g.as_object_mut().unwrap().remove("cycles").unwrap();
    g["incidents"] = cycles;
    assert!(!v.is_valid(&g));

    let (_, out, _) = xqa(&[
        "claim",
        "pgn-samples/claim_slow_valid.pgn",
        "--claimant",
        "red",
        "--json",
    ]);
    let mut c: Value = serde_json::from_str(&out).unwrap();
    assert!(v.is_valid(&c));
    let first = c["moves"][0].as_object_mut().unwrap();
    let iccs = first.remove("iccs").unwrap();
    first.insert("mv".into(), iccs);
    assert!(!v.is_valid(&c));

    let (_, out, _) = xqa(&["validate", "--json", BROKEN]);
    let mut e: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert!(v.is_valid(&e));
    e["error"]["column"] = 0.into();
    assert!(!v.is_valid(&e));
}

#[test]
fn the_web_review_gives_the_schema_error_object() {
    // (The review is the server's /api/review; its `error` is the error object of every other
    // report, not a shape of its own.)
    use xiangqi_arbiter::service::{self, GameInput};
    let error = validator(Some("error"));
    let mut broken = 0;
    let mut binary = false;
    let mut files = samples();
    files.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/binary/cut.xqf"));
    let xqf = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/binary/xqf_misc/eleeye_SAMPLE.XQF"),
    )
    .unwrap();
    for path in files {
        let name = path.display().to_string();
        let bytes = if name.ends_with("cut.xqf") {
            // A binary record cut inside its moves: located by a byte offset.
            xqf[..0x440].to_vec()
        } else {
            std::fs::read(&path).unwrap()
        };
        let Ok(review) = service::review(&GameInput::record(bytes.clone(), &name, 1)) else {
            continue;
        };
        let Some(e) = &review.error else { continue };
        broken += 1;
        let errors: Vec<String> = error.iter_errors(e).map(|x| x.to_string()).collect();
        assert!(errors.is_empty(), "{name}: {errors:?}\n{e:#}");
        let report = &service::validate(&bytes, &name)[0];
        let v = serde_json::to_value(report).unwrap();
        assert_eq!(&v["error"], e, "{name}: the review's error is validate's");
        if name.ends_with("cut.xqf") {
            assert!(e["offset"].is_u64(), "{e}");
            assert_eq!(e["line"], Value::Null, "{e}");
            binary = true;
        }
    }
    assert!(broken >= 2 && binary, "{broken} {binary}");
}
