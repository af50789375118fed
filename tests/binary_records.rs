//! XQF and CCBridge (CBR, CBL, CBF) readers against the real records of `tests/data/binary/`
//! (copied from the shared corpus; sources and licences in `tests/data/binary/README.md`).
//!
//! Every game of the trimmed manifest replays to exactly its reference main line (`ref_iccs`),
//! with the manifest's variation and comment counts, start position, result and tags; the
//! records the reference rejects are rejected at the same ply; and no truncated or corrupted
//! file makes a reader panic.

#![allow(clippy::result_large_err)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use xiangqi_arbiter::Color;
use xiangqi_arbiter::record::ccbridge::{self, CcbridgeKind};
use xiangqi_arbiter::record::{Game, GameResult, Line, RecordError, xqf};

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

fn read_entry(entry: &Value) -> Result<Game, RecordError> {
    let file = entry["file"].as_str().unwrap();
    let bytes = std::fs::read(data_dir().join(file)).unwrap();
    match entry["container"].as_str().unwrap() {
        "xqf" => xqf::read(&bytes),
        "cbl" | "cbr" | "cbf" => {
            let index = entry["game_index"].as_u64().unwrap() as usize;
            let mut entries = ccbridge::read_entries(&bytes, file);
            assert!(
                index < entries.len(),
                "{file}: only {} games",
                entries.len()
            );
            entries.swap_remove(index).into_result()
        }
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
        if want == "no-moves" && err.kind != "no_moves" {
            return Err(format!("rejected with {err}, want kind no_moves"));
        }
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
    // The reference CBF reader drops comments; this one keeps them (checked separately).
    let comments = if entry["container"] == "cbf" {
        wc
    } else {
        comments
    };
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
    if let Some(r) = entry["result_token"].as_str()
        && game.result.map(|r| r.token()) != Some(r)
    {
        return Err(format!("result {:?}, want {r}", game.result));
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

#[test]
fn ccbridge_games_replay_to_reference() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for entry in manifest()
        .iter()
        .filter(|e| matches!(e["container"].as_str(), Some("cbl" | "cbr" | "cbf")))
    {
        checked += 1;
        let file = entry["file"].as_str().unwrap();
        let got = read_entry(entry);
        if let Err(f) = check_game(entry, got) {
            failures.push(format!("{file}#{}: {f}", entry["game_index"]));
        }
    }
    assert_eq!(checked, 40);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn read_file(rel: &str) -> Vec<u8> {
    std::fs::read(data_dir().join(rel)).unwrap()
}

/// Every sample file, relative to the data folder.
fn sample_files() -> Vec<String> {
    let mut out: Vec<String> = manifest()
        .iter()
        .map(|e| e["file"].as_str().unwrap().to_owned())
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn xqf_header_text_is_decoded_from_gbk() {
    let g = xqf::read(&read_file(
        "xqf_hbsxcjp/chessManual/中国象棋棋谱大全.xqf/对局/- 江苏徐天红 (胜) 上海胡荣华 (1987年元月20日于江苏昆山).xqf",
    ));
    // This record breaks at ply 163; its header is still read by read_entry.
    assert!(g.is_err());
    let e = xqf::read_entry(
        &read_file(
            "xqf_hbsxcjp/chessManual/中国象棋棋谱大全.xqf/对局/- 江苏徐天红 (胜) 上海胡荣华 (1987年元月20日于江苏昆山).xqf",
        ),
        "x.xqf",
    );
    let tags: Vec<(&str, &str)> = e
        .game
        .tags
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        &tags[..6],
        &[
            ("Title", "五八炮对三步虎"),
            ("Event", "风华杯"),
            ("Date", "1987年元月20日"),
            ("Red", "江苏徐天红"),
            ("Black", "上海胡荣华"),
            ("Result", "1-0"),
        ]
    );
    assert_eq!(e.game.result, Some(GameResult::RedWins));

    // An annotated game: the game comment and move comments in GBK, variations kept.
    let g = xqf::read(&read_file("xqf_misc/eleeye_SAMPLE.XQF")).unwrap();
    assert_eq!(g.main.nodes.len(), 75);
    let comments: Vec<&String> = g.main.nodes.iter().flat_map(|n| &n.comments).collect();
    assert!(comments.iter().all(|c| !c.contains('\u{fffd}')));
    assert!(
        comments
            .iter()
            .any(|c| c.chars().any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch)))
    );
    // Move text is the ICCS of the move; the position is the record's byte offset.
    let first = &g.main.nodes[0];
    assert_eq!(first.text, first.mv.to_string());
    assert!(first.pos.column >= 0x400);
}

#[test]
fn xqf_endgame_diagram_and_black_to_move() {
    // An endgame study: the start position comes from the piece table.
    let g = xqf::read(&read_file(
        "xqf_hbsxcjp/chessManual/象棋杀着大全.xqf/01单兵和单炮类/第02局.XQF",
    ))
    .unwrap();
    assert_eq!(
        g.start.fen().split(' ').next().unwrap(),
        "3k5/4a4/5a3/9/9/9/9/4K4/4A4/4C4"
    );
    assert_eq!(g.tag("XqfType"), Some("3"));
    // Every game of the corpus whose manifest FEN has Black to move starts with Black.
    for entry in manifest()
        .iter()
        .filter(|e| e["container"] == "xqf" && e["ref_ok"] == true)
    {
        let fen = entry["fen"].as_str().unwrap();
        let g = read_entry(entry).unwrap();
        let black = fen.split(' ').nth(1) == Some("b");
        assert_eq!(g.start.turn() == Color::Black, black, "{fen}");
    }
}

#[test]
fn cbr_and_cbf_comments_and_variations() {
    let games = ccbridge::read(
        &read_file("ccbridge_cbl_cbr_cbf/test.cbr"),
        CcbridgeKind::Cbr,
    )
    .unwrap();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(
        g.tag("Title"),
        Some("黄丹青讲座004-破解新式弃马局的攻防要领")
    );
    assert_eq!(g.main.nodes.len(), 28);
    // 102 move records: the main line and a long variation tree.
    assert_eq!(g.main.total_moves(), 102);
    assert!(g.main.total_comments() >= 6);

    let games = ccbridge::read(
        &read_file("ccbridge_cbl_cbr_cbf/test.cbf"),
        CcbridgeKind::Cbf,
    )
    .unwrap();
    let g = &games[0];
    assert_eq!(g.tag("Title"), Some("第一局 屏风马巡河炮抵当头炮局(和)"));
    assert_eq!(g.tag("Event"), Some("居荣鑫《象棋古谱全局三种》"));
    assert_eq!(g.tag("Annotator"), Some("居荣鑫"));
    assert_eq!(g.tag("ECCO"), Some("C03"));
    assert_eq!(
        g.main.comments_before,
        vec!["中炮横车盘头马对屏风马双炮巡河".to_owned()]
    );
    assert!(g.main.nodes[6].comments[0].starts_with("当对方布成屏风马后"));
    assert!(g.main.nodes[49].comments[0].starts_with("至此，红方多兵"));
    assert_eq!(g.main.total_comments(), 8);
}

#[test]
fn cbl_library_reads_every_record() {
    let bytes = read_file("ccbridge_cbl_cbr_cbf/1989年龙化杯象棋名师邀请赛35局.CBL");
    assert_eq!(ccbridge::sniff(&bytes), Some(CcbridgeKind::Cbl));
    let entries = ccbridge::read_entries(&bytes, "lib.cbl");
    assert_eq!(entries.len(), 38);
    // Two records are section headings (an empty board, no moves): reported, not games.
    let headings: Vec<usize> = entries
        .iter()
        .filter(|e| e.error.as_ref().is_some_and(|e| e.kind == "no_moves"))
        .map(|e| e.index)
        .collect();
    assert_eq!(headings, vec![0, 21]);
    // A heading keeps its title and comment, for reports.
    assert_eq!(
        entries[0].game.tag("Title"),
        Some("龙化杯象棋名师邀请赛对局（男子组20局）")
    );
    assert_eq!(entries[0].game.main.comments_before.len(), 1);
    assert!(entries[0].game.main.nodes.is_empty());
    assert_eq!(entries[1].game.tag("Red"), Some("徐天红"));
    assert_eq!(entries[1].game.tag("Date"), Some("1989年6月3日"));
    // `read` keeps the 36 games and skips the headings.
    let games = ccbridge::read(&bytes, CcbridgeKind::Cbl).unwrap();
    assert_eq!(games.len(), 36);
}

#[test]
fn not_these_formats() {
    assert!(xqf::read(b"PK\x03\x04").is_err());
    assert_eq!(xqf::read(b"XQ").unwrap_err().kind, "truncated");
    let mut v = read_file("xqf_misc/eleeye_SAMPLE.XQF");
    v[2] = 19;
    assert_eq!(xqf::read(&v).unwrap_err().kind, "bad_header");
    assert_eq!(ccbridge::sniff(b"[Event \"x\"]"), None);
    let e = ccbridge::read_entries(b"hello", "h.txt");
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].error.as_ref().unwrap().kind, "unknown_format");
}

/// Reads whatever the bytes are with the reader their name asks for; must never panic.
fn read_any(name: &str, bytes: &[u8]) -> usize {
    if name.to_ascii_lowercase().ends_with(".xqf") {
        usize::from(xqf::read_entry(bytes, name).is_ok())
    } else {
        ccbridge::read_entries(bytes, name)
            .iter()
            .filter(|e| e.is_ok())
            .count()
    }
}

/// Truncations and corruptions of every sample: errors, never a panic (nor a hang).
#[test]
fn corrupt_input_never_panics() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut tried = 0;
    for name in sample_files() {
        let bytes = read_file(&name);
        let len = bytes.len();
        // Truncations: every length near the structures, then spread over the file.
        let mut cuts: Vec<usize> = (0..len.min(0x440)).step_by(7).collect();
        cuts.extend((0..64).map(|i| i * len / 64));
        for cut in cuts {
            read_any(&name, &bytes[..cut]);
            tried += 1;
        }
        // Flipped bytes: one, then several at once.
        for round in 0..48 {
            let mut v = bytes.clone();
            for _ in 0..(1 + round % 4) {
                let i = (next() % len as u64) as usize;
                v[i] ^= (next() % 255 + 1) as u8;
            }
            read_any(&name, &v);
            tried += 1;
        }
        // Overwritten flag and length bytes of the move area with extremes.
        for fill in [0x00u8, 0xFF, 0x7F, 0x80] {
            let mut v = bytes.clone();
            let from = len.saturating_sub(200).max(len / 2);
            for b in &mut v[from..] {
                *b = fill;
            }
            read_any(&name, &v);
            tried += 1;
        }
    }
    assert!(tried > 10_000, "{tried}");
}

/// An XQF 1.0 (version 10, unencrypted) file: `pieces` as (table slot, square), then move records
/// (ICCS, has next, has alternative, comment) after the root record.
fn xqf10(
    pieces: &[(usize, &str)],
    game_comment: &str,
    records: &[(&str, bool, bool, &str)],
) -> Vec<u8> {
    let code = |sq: &str| {
        let b = sq.as_bytes();
        (b[0] - b'a') * 10 + (b[1] - b'0')
    };
    let mut v = vec![0u8; 0x400];
    v[0] = b'X';
    v[1] = b'Q';
    v[2] = 10;
    for slot in 0..32 {
        v[0x10 + slot] = 0xFF;
    }
    for &(slot, sq) in pieces {
        v[0x10 + slot] = code(sq);
    }
    let title = "测试";
    let (gbk, _, _) = encoding_rs::GBK.encode(title);
    v[0x50] = gbk.len() as u8;
    v[0x51..0x51 + gbk.len()].copy_from_slice(&gbk);
    let mut push = |from: u8, to: u8, flags: u8, comment: &str| {
        v.extend([from + 0x18, to + 0x20, flags, 0]);
        let (c, _, _) = encoding_rs::GBK.encode(comment);
        v.extend((c.len() as i32).to_le_bytes());
        v.extend(c.iter());
    };
    push(
        0,
        0,
        if records.is_empty() { 0 } else { 0xF0 },
        game_comment,
    );
    for &(m, next, alt, comment) in records {
        let flags = if next { 0xF0 } else { 0 } | if alt { 0x0F } else { 0 };
        push(code(&m[..2]), code(&m[2..]), flags, comment);
    }
    v
}

const KINGS: [(usize, &str); 2] = [(4, "e0"), (20, "d9")];

#[test]
fn xqf10_tree_shape_and_black_first() {
    // Black moves first: the rook on a9 (Black slot 16) moves before anything of Red's.
    // Main line a9a8 e0f0 a8a1; alternative to e0f0: e0e1 with its own continuation a8a7.
    let pieces = [KINGS[0], KINGS[1], (16, "a9"), (0, "i0")];
    let bytes = xqf10(
        &pieces,
        "开局",
        &[
            ("a9a8", true, false, ""),
            ("e0f0", true, true, "出帅"),
            ("a8a1", false, false, ""),
            ("e0e1", true, false, "高帅"),
            ("a8a7", false, false, ""),
        ],
    );
    let g = xqf::read(&bytes).unwrap();
    assert_eq!(g.start.turn(), Color::Black);
    assert_eq!(g.tag("Title"), Some("测试"));
    assert_eq!(g.main.comments_before, vec!["开局".to_owned()]);
    let main: Vec<String> = g.main_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(main, ["a9a8", "e0f0", "a8a1"]);
    let n = &g.main.nodes[1];
    assert_eq!(n.comments, vec!["出帅".to_owned()]);
    assert_eq!(n.variations.len(), 1);
    let alt: Vec<String> = n.variations[0]
        .nodes
        .iter()
        .map(|n| n.mv.to_string())
        .collect();
    assert_eq!(alt, ["e0e1", "a8a7"]);
    assert_eq!(n.variations[0].nodes[0].comments, vec!["高帅".to_owned()]);
}

#[test]
fn xqf10_illegal_main_line_move_names_ply_move_and_reason() {
    let pieces = [KINGS[0], KINGS[1], (1, "b0"), (2, "c0"), (27, "b1")];
    // Ply 1: the red horse on b0 cannot go to c2, its leg b1 holds a black pawn.
    let bytes = xqf10(&pieces, "", &[("b0c2", false, false, "")]);
    let e = xqf::read(&bytes).unwrap_err();
    assert_eq!(e.kind, "illegal_move");
    assert_eq!(e.ply, Some(1));
    assert_eq!(e.move_text.as_deref(), Some("b0c2"));
    assert!(
        e.message.contains("the horse's leg on b1 is blocked"),
        "{}",
        e.message
    );
    assert_eq!(e.offset, Some(0x400 + 8));

    // A legal game, then the same with an illegal ply 2 inside a variation: only a warning.
    let pieces = [KINGS[0], KINGS[1], (0, "a0"), (16, "i9"), (25, "e5")];
    let bytes = xqf10(
        &pieces,
        "",
        &[
            ("a0a1", true, false, ""),
            ("i9i8", true, false, ""),
            ("a1a2", false, false, ""),
        ],
    );
    let g = xqf::read(&bytes).unwrap();
    assert_eq!(g.main.nodes.len(), 3);
    let bytes = xqf10(
        &pieces,
        "",
        &[
            ("a0a1", true, true, ""),
            ("i9i8", false, false, ""),
            ("e0f0", true, false, ""),
            ("d9e8", true, false, ""),
            ("a1a2", false, false, ""),
        ],
    );
    let entry = xqf::read_entry(&bytes, "v.xqf");
    assert!(entry.is_ok());
    assert_eq!(entry.warnings.len(), 1);
    assert_eq!(entry.warnings[0].ply, Some(2));
    let w = &entry.warnings[0];
    assert_eq!(w.move_text.as_deref(), Some("d9e8"));
    assert!(
        w.message
            .contains("the king moves one point along a rank or file"),
        "{}",
        w.message
    );
    // The cut variation keeps e0f0 and notes what was dropped (d9e8 and a1a2 after it).
    let alt = &entry.game.main.nodes[0].variations[0];
    assert_eq!(alt.nodes.len(), 1);
    assert!(
        alt.nodes[0].comments[0].contains("dropped moves: d9e8 a1a2"),
        "{:?}",
        alt.nodes[0].comments
    );
}

/// Version 11 is encrypted like 12 but without the rotation of the piece table: un-rotating a
/// version 12 file's table and setting version 11 must give the same game.
#[test]
fn xqf11_is_read_like_12_without_rotation() {
    let name =
        "xqf_hbsxcjp/chessManual/中国象棋棋谱大全.xqf/布局/后手布局应对方略/仙人指路对进卒.XQF";
    let v12 = read_file(name);
    assert_eq!(v12[2], 12);
    let f = |b: u8| -> u8 { ((54 * u32::from(b) * u32::from(b) + 221) & 0xFF) as u8 };
    let xy = f(v12[0x0D]).wrapping_mul(v12[0x0D]);
    let mut v11 = v12.clone();
    v11[2] = 11;
    for i in 0..32 {
        v11[0x10 + (usize::from(xy) + 1 + i) % 32] = v12[0x10 + i];
    }
    let a = xqf::read(&v12).unwrap();
    let b = xqf::read(&v11).unwrap();
    assert_eq!(a.normalized(), b.normalized());
    assert!(a.main.nodes.len() >= 13);
}

fn cbf(fen: &str, moves: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ChineseChessRecord Version=\"1.0\">\n <Head>\n  \
         <Name>A &amp; B</Name>\n  <Red>红</Red>\n  <RecordResult>2</RecordResult>\n  <FEN>{fen}</FEN>\n \
         </Head>\n <MoveList>\n  <Move value=\"00-00\" />\n{moves} </MoveList>\n</ChineseChessRecord>\n"
    )
}

#[test]
fn cbf_black_first_entities_and_illegal_move_position() {
    // Black to move from a custom position; y is counted from the top.
    let fen = "3k5/9/9/9/9/9/9/9/4A4/4K4 b - - 0 1";
    let text = cbf(
        fen,
        "  <Move value=\"30-40\"><![CDATA[将平中]]></Move>\n  <Move value=\"49-39\" end=\"1\" />\n",
    );
    let games = ccbridge::read(text.as_bytes(), CcbridgeKind::Cbf).unwrap();
    let g = &games[0];
    assert_eq!(g.start.turn(), Color::Black);
    assert_eq!(g.tag("Title"), Some("A & B"));
    assert_eq!(g.tag("Red"), Some("红"));
    assert_eq!(g.result, Some(GameResult::BlackWins));
    let moves: Vec<String> = g.main_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["d9e9", "e0d0"]);
    assert_eq!(g.main.nodes[0].comments, vec!["将平中".to_owned()]);
    assert_eq!(
        (g.main.nodes[1].pos.line, g.main.nodes[1].pos.column),
        (12, 3)
    );

    // An illegal move: the error gives the line and column of its <Move>.
    let text = cbf(
        fen,
        "  <Move value=\"30-40\" />\n  <Move value=\"48-37\" end=\"1\" />\n",
    );
    let e = ccbridge::read(text.as_bytes(), CcbridgeKind::Cbf).unwrap_err();
    assert_eq!((e.line, e.column, e.ply), (12, 3, Some(2)));
    assert_eq!(e.move_text.as_deref(), Some("e1d2"));
    assert!(
        e.message
            .contains("the kings would face each other on file e"),
        "{}",
        e.message
    );

    // Unknown attributes (an undocumented variation encoding) are refused, not ignored.
    let text = cbf(fen, "  <Move value=\"30-40\" var=\"1\" />\n");
    assert_eq!(
        ccbridge::read(text.as_bytes(), CcbridgeKind::Cbf)
            .unwrap_err()
            .kind,
        "record_syntax"
    );
    // Broken XML.
    let text = cbf(fen, "  <Move value=\"30-40\">\n");
    assert!(ccbridge::read(text.as_bytes(), CcbridgeKind::Cbf).is_err());
}

/// CBR version 1 (older CCBridge) has its fields and board block elsewhere and squares as
/// `x`/`y` nibbles. No real v1 file is at hand: this rewrites the v2 sample in the v1 layout as
/// vschess reads it, and expects the same game.
#[test]
fn cbr_version_1_layout() {
    let v2 = read_file("ccbridge_cbl_cbr_cbf/test.cbr");
    let mut v1 = vec![0u8; 1958];
    v1[..16].copy_from_slice(&v2[..16]);
    v1[19] = 1;
    for (from, to, room) in [
        (180, 52, 128),
        (692, 564, 64),
        (884, 756, 64),
        (1076, 948, 64),
        (1300, 1172, 64),
    ] {
        v1[to..to + room].copy_from_slice(&v2[from..from + room]);
    }
    v1[1820] = v2[2076];
    v1[1856..1856 + 98].copy_from_slice(&v2[2112..2112 + 98]);
    // The move records, squares re-encoded.
    let nibbles = |b: u8| ((b % 9) << 4) | (b / 9);
    let mut pos = 2214;
    let mut outstanding = 1; // the root, then what the flags promise
    let mut root = true;
    while outstanding > 0 {
        let r = &v2[pos..pos + 4];
        v1.extend([r[0], r[1], nibbles(r[2]), nibbles(r[3])]);
        pos += 4;
        if r[0] & 4 != 0 {
            let len = u32::from_le_bytes(v2[pos..pos + 4].try_into().unwrap()) as usize;
            v1.extend(&v2[pos..pos + 4 + len]);
            pos += 4 + len;
        }
        outstanding -= 1;
        if root {
            root = false;
            outstanding += usize::from(r[0] & 1 == 0);
        } else {
            outstanding += usize::from(r[0] & 1 == 0) + usize::from(r[0] & 2 != 0);
        }
    }
    let a = &ccbridge::read(&v2, CcbridgeKind::Cbr).unwrap()[0];
    let b = &ccbridge::read(&v1, CcbridgeKind::Cbr).unwrap()[0];
    assert_eq!(a.start, b.start);
    assert_eq!(a.normalized().main, b.normalized().main);
    assert_eq!(a.tag("Title"), b.tag("Title"));
    assert_eq!(a.main.total_moves(), 102);
}

#[test]
fn xqf_off_board_square_is_an_illegal_move() {
    let pieces = [KINGS[0], KINGS[1], (0, "a0")];
    let mut bytes = xqf10(&pieces, "", &[("a0a1", false, false, "")]);
    bytes[0x400 + 8] = 0x18 + 95; // the first move's from square: code 95
    let e = xqf::read(&bytes).unwrap_err();
    assert_eq!((e.kind.as_str(), e.ply), ("illegal_move", Some(1)));
    assert!(e.move_text.as_deref().unwrap().starts_with("95-1"), "{e}");
    assert!(e.message.contains("off the board"), "{e}");
}

/// A crafted file nesting variations thousands deep (each alternative's continuation has an
/// alternative ...): cut at the nesting limit with a warning; nothing overflows the stack.
#[test]
fn deeply_nested_variations_are_cut() {
    let pieces = [KINGS[0], KINGS[1], (0, "a0"), (16, "i9")];
    let (mut red, mut black) = (0u8, 9u8); // ranks of the two rooks
    let mut moves: Vec<(String, bool, bool, &str)> = Vec::new();
    for k in 0..5000 {
        let (file, rank, home, far) = if k % 2 == 0 {
            ('a', &mut red, 0u8, 1u8)
        } else {
            ('i', &mut black, 9u8, 8u8)
        };
        let other = if *rank == home { far } else { home };
        let third = if k % 2 == 0 { 2 } else { 7 };
        moves.push((format!("{file}{rank}{file}{third}"), false, true, ""));
        moves.push((format!("{file}{rank}{file}{other}"), true, false, ""));
        *rank = other;
    }
    moves.last_mut().unwrap().1 = false;
    let records: Vec<(&str, bool, bool, &str)> = moves
        .iter()
        .map(|(m, n, s, c)| (m.as_str(), *n, *s, *c))
        .collect();
    let bytes = xqf10(&pieces, "", &records);
    let entry = xqf::read_entry(&bytes, "deep.xqf");
    assert!(entry.is_ok(), "{:?}", entry.error);
    assert_eq!(entry.warnings.len(), 1);
    assert!(
        entry.warnings[0].message.contains("nested more than"),
        "{}",
        entry.warnings[0].message
    );
    assert_eq!(entry.game.main.nodes.len(), 1);
}

#[test]
fn bad_start_positions_are_located_and_keep_the_tags() {
    // A CBF whose FEN is not a position.
    let text = cbf("rnbakabnr/9/9 w", "");
    let e = &ccbridge::read_entries(text.as_bytes(), "bad.cbf")[0];
    let err = e.error.as_ref().unwrap();
    assert_eq!(
        (err.kind.as_str(), err.line, err.column),
        ("bad_position", 7, 3)
    );
    assert_eq!(e.game.tag("Title"), Some("A & B"));
    // A CBF whose FEN has no red king.
    let text = cbf("4k4/9/9/9/9/9/9/9/9/9 w - - 0 1", "");
    let err = ccbridge::read(text.as_bytes(), CcbridgeKind::Cbf).unwrap_err();
    assert_eq!(err.kind, "bad_position");
    assert!(err.message.contains("no king"), "{}", err.message);
    // An XQF piece table without the black king.
    let bytes = xqf10(&[KINGS[0], (0, "a0")], "", &[("a0a1", false, false, "")]);
    let err = xqf::read(&bytes).unwrap_err();
    assert_eq!(
        (err.kind.as_str(), err.offset),
        ("bad_position", Some(0x10))
    );
}

/// The CBF reader on text-level damage (byte flips mostly just break the UTF-8): truncation at
/// every character, and XML punctuation inserted or deleted anywhere.
#[test]
fn corrupt_cbf_text_never_panics() {
    let text = String::from_utf8(read_file("ccbridge_cbl_cbr_cbf/test.cbf")).unwrap();
    let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    for &b in bounds.iter().step_by(3) {
        let _ = ccbridge::read_entries(&text.as_bytes()[..b], "t.cbf");
    }
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let punct = [
        "<",
        ">",
        "\"",
        "'",
        "&",
        "/",
        "]]>",
        "<![CDATA[",
        "<!--",
        "=",
        " end=\"1\"",
        "&#x110000;",
        "&#65;",
    ];
    for _ in 0..3000 {
        let mut t = text.clone();
        for _ in 0..(1 + next() % 3) {
            let at = bounds[(next() % bounds.len() as u64) as usize].min(t.len());
            if !t.is_char_boundary(at) {
                continue;
            }
            if next() % 2 == 0 {
                t.insert_str(at, punct[(next() % punct.len() as u64) as usize]);
            } else if let Some(c) = t[at..].chars().next() {
                t.replace_range(at..at + c.len_utf8(), "");
            }
        }
        let _ = ccbridge::read_entries(t.as_bytes(), "t.cbf");
    }
}
