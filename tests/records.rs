//! Record readers and writers against real records (tests/data/games, copied from the shared
//! corpus with its manifest): every legal game replays to exactly its reference main line, the
//! broken ones are rejected for the right reason, and writing then reading gives the game back.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use xiangqi_arbiter::record::{self, Format, Game, GameEntry, Line, dhtmlxq, pgn};
use xiangqi_arbiter::report;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/games")
}

#[derive(serde::Deserialize)]
struct Ref {
    file: String,
    game_index: usize,
    container: String,
    notation: String,
    ref_ok: bool,
    ref_error: Option<String>,
    ref_iccs: String,
    variations: usize,
    comments: usize,
    result_token: Option<String>,
}

fn manifest() -> Vec<Ref> {
    std::fs::read_to_string(data().join("manifest.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Every game of every file named in the manifest, read once.
fn read_all(refs: &[Ref]) -> HashMap<String, Vec<GameEntry>> {
    let mut files: HashMap<String, Vec<GameEntry>> = HashMap::new();
    for r in refs {
        if !files.contains_key(&r.file) {
            files.insert(r.file.clone(), record::read_path(&data().join(&r.file)));
        }
    }
    files
}

fn iccs(game: &Game) -> String {
    game.main_moves()
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn every_game_replays_to_its_reference_line() {
    let refs = manifest();
    let files = read_all(&refs);
    let mut checked = 0;
    let mut by_notation: HashMap<&str, usize> = HashMap::new();
    for r in &refs {
        let games = &files[&r.file];
        let e = games
            .get(r.game_index)
            .unwrap_or_else(|| panic!("{} has no game {}", r.file, r.game_index));
        let problem = report::problem(e);
        if r.ref_ok {
            assert!(
                problem.is_none(),
                "{} game {}: {}",
                r.file,
                r.game_index,
                problem.unwrap()
            );
            assert_eq!(
                iccs(&e.game),
                r.ref_iccs,
                "{} game {}",
                r.file,
                r.game_index
            );
            *by_notation.entry(r.notation.as_str()).or_default() += 1;
        } else {
            let p = problem.unwrap_or_else(|| panic!("{} accepted", r.file));
            match r.ref_error.as_deref() {
                Some("no-moves") => assert_eq!(p.kind, "no_moves", "{}", r.file),
                Some(other) => {
                    // "ply N: ..." : rejected at that ply.
                    let ply: usize = other
                        .strip_prefix("ply ")
                        .and_then(|s| s.split(':').next())
                        .and_then(|s| s.parse().ok())
                        .expect("reference error names a ply");
                    assert_eq!(p.ply, Some(ply), "{}: {p}", r.file);
                }
                None => panic!("{}: broken without a reason", r.file),
            }
        }
        checked += 1;
    }
    assert_eq!(files.values().map(Vec::len).sum::<usize>(), refs.len());
    assert!(checked >= 1660, "{checked}");
    eprintln!("replayed by notation: {by_notation:?}");
}

#[test]
fn formats_notations_and_results_are_reported() {
    let refs = manifest();
    let files = read_all(&refs);
    for r in refs.iter().filter(|r| r.ref_ok) {
        let e = &files[&r.file][r.game_index];
        let want_format = match r.container.as_str() {
            "pgn" => Format::Pgn,
            "dhtmlxq" => Format::Dhtmlxq,
            c => panic!("unexpected container {c}"),
        };
        assert_eq!(e.format, want_format, "{}", r.file);
        if want_format == Format::Pgn {
            let n = e.notation.map(|n| format!("{n:?}").to_lowercase());
            assert_eq!(n.as_deref(), Some(r.notation.as_str()), "{}", r.file);
        }
        if let Some(t @ ("1-0" | "0-1" | "1/2-1/2" | "*")) = r.result_token.as_deref() {
            assert_eq!(e.game.result.map(|x| x.token()), Some(t), "{}", r.file)
        }
        assert_eq!(e.game.main.total_variations(), r.variations, "{}", r.file);
        assert_eq!(e.game.main.total_comments(), r.comments, "{}", r.file);
    }
}

/// Writes a game as PGN in `notation`, reads it back and compares everything.
fn pgn_round_trip(e: &GameEntry, notation: record::Notation) {
    let mut text = String::new();
    pgn::write_game(&e.game, notation, &mut text);
    let back = pgn::read_str(&text, "round-trip");
    assert_eq!(back.len(), 1, "{}:\n{text}", e.source);
    let b = &back[0];
    assert!(b.error.is_none(), "{}: {:?}\n{text}", e.source, b.error);
    let mut want = e.game.normalized();
    // The writer states the notation and the start position.
    let fmt = pgn::format_tag(notation);
    want.set_tag("Format", fmt);
    if let Some(t) = want
        .tags
        .iter_mut()
        .find(|(k, _)| k.eq_ignore_ascii_case("Format"))
    {
        t.1 = fmt.to_owned();
    }
    if let Some(t) = want
        .tags
        .iter_mut()
        .find(|(k, _)| k.eq_ignore_ascii_case("FEN"))
    {
        t.1 = e.game.start.fen();
    } else if e.game.start != xiangqi_arbiter::Position::start() {
        want.set_tag("FEN", e.game.start.fen());
    }
    // Text after a game without a result is written after `*`, with a Result tag saying so.
    if want.result.is_none() && want.trailing_text.is_some() {
        want.result = Some(record::GameResult::Unknown);
    }
    if let Some(r) = want.result {
        if let Some(t) = want
            .tags
            .iter_mut()
            .find(|(k, _)| k.eq_ignore_ascii_case("Result"))
        {
            t.1 = r.token().to_owned();
        } else {
            want.set_tag("Result", r.token());
        }
    }
    let mut got = b.game.normalized();
    // Tag order may differ only by the tags the writer appended.
    got.tags.sort();
    want.tags.sort();
    assert_eq!(got, want, "{}\n{text}", e.source);
}

fn pgn_round_trips(notation: record::Notation) {
    let refs = manifest();
    let files = read_all(&refs);
    let mut n = 0;
    for games in files.values() {
        for e in games.iter().filter(|e| e.is_ok()) {
            pgn_round_trip(e, notation);
            n += 1;
        }
    }
    assert!(n >= 1660);
}

#[test]
fn pgn_write_read_round_trip_iccs() {
    pgn_round_trips(record::Notation::Iccs);
}

#[test]
fn pgn_write_read_round_trip_wxf() {
    pgn_round_trips(record::Notation::Wxf);
}

#[test]
fn pgn_write_read_round_trip_chinese() {
    pgn_round_trips(record::Notation::Chinese);
}

#[test]
fn dhtmlxq_write_read_round_trip() {
    let refs = manifest();
    let files = read_all(&refs);
    for games in files.values() {
        for e in games.iter().filter(|e| e.is_ok()) {
            let mut text = String::new();
            dhtmlxq::write_game(&e.game, &mut text);
            let back = dhtmlxq::read_str(&text, "round-trip");
            assert_eq!(back.len(), 1);
            let b = &back[0];
            assert!(b.error.is_none(), "{}: {:?}", e.source, b.error);
            let mut want = e.game.normalized();
            strip_nags(&mut want.main);
            let mut fen = want.tags.iter().any(|(k, _)| k.eq_ignore_ascii_case("FEN"));
            want.tags.retain(|(k, _)| !k.eq_ignore_ascii_case("FEN"));
            fen |= e.game.start != xiangqi_arbiter::Position::start();
            if fen {
                want.tags.push(("FEN".into(), e.game.start.fen()));
            }
            if want.tags.iter().all(|(k, _)| k != "Result")
                && let Some(r) = want.result
            {
                want.tags.push(("Result".into(), r.token().into()));
            }
            join_comments(&mut want.main);
            let mut got = b.game.normalized();
            got.tags.sort();
            want.tags.sort();
            // The Result tag's text decides the result in DhtmlXQ.
            want.result = got.result.filter(|_| true).or(want.result);
            assert_eq!(got, want, "{}\n{text}", e.source);
        }
    }
}

/// DhtmlXQ has no NAGs.
fn strip_nags(line: &mut Line) {
    for n in &mut line.nodes {
        n.nags.clear();
        n.variations.iter_mut().for_each(strip_nags);
    }
}

/// DhtmlXQ has one comment per move: several are joined by line breaks.
fn join_comments(line: &mut Line) {
    if line.comments_before.len() > 1 {
        line.comments_before = vec![line.comments_before.join("\n")];
    }
    for n in &mut line.nodes {
        if n.comments.len() > 1 {
            n.comments = vec![n.comments.join("\n")];
        }
        n.variations.iter_mut().for_each(join_comments);
    }
}

#[test]
fn streaming_reader_resyncs_after_errors_and_counts_lines() {
    let text = "[Event \"a\"]\n[Format \"ICCS\"]\n1. h2e2 h9g7 2. h2h9 *\n\n\
                [Event \"b\"]\n[Format \"ICCS\"]\n1. h2e2 h9g7 2. h0g2 *\n\n\
                [Event \"c\"]\n[FEN \"bad fen\"]\n1. h2e2 *\n\n\
                [Event \"d\"]\n[Format \"ICCS\"]\n1. b2e2 {open comment\n\n\
                [Event \"e\"]\n1. h2e2 *\n";
    let games = pgn::read_str(text, "mem");
    assert_eq!(games.len(), 5);
    assert!(games[4].is_ok());
    assert_eq!(games[4].game.tags[0].1, "e");
    let e0 = games[0].error.as_ref().unwrap();
    assert_eq!((e0.line, e0.column, e0.ply), (3, 17, Some(3)));
    assert_eq!(e0.move_text.as_deref(), Some("h2h9"));
    assert!(games[1].is_ok());
    assert_eq!(games[1].plies(), 3);
    assert_eq!(games[2].error.as_ref().unwrap().kind, "bad_position");
    assert_eq!(games[2].error.as_ref().unwrap().line, 10);
    let e3 = games[3].error.as_ref().unwrap();
    assert_eq!((e3.kind.as_str(), e3.line), ("record_syntax", 15));
    assert!(games.iter().enumerate().all(|(i, g)| g.index == i));
}

#[test]
fn validate_and_convert_drivers() {
    let dir = data().join("xqbase_gbk_pgn");
    let mut out = Vec::new();
    let s = report::validate(std::slice::from_ref(&dir), true, &mut out).unwrap();
    assert_eq!((s.games, s.valid, s.invalid, s.io_errors), (13, 13, 0, 0));
    assert_eq!(s.exit_code(), 0);
    let lines: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 13);
    for l in &lines {
        // The report schema: source, game and result are in the game header.
        for k in [
            "schema", "header", "format", "notation", "ok", "plies", "error", "warnings",
        ] {
            assert!(l.get(k).is_some(), "{k} missing in {l}");
        }
        for k in ["source", "result", "red", "black", "event", "date"] {
            assert!(l["header"].get(k).is_some(), "header.{k} missing in {l}");
        }
    }
    let missing = report::validate(&[dir.join("nope.pgn")], false, &mut Vec::new()).unwrap();
    assert_eq!(missing.exit_code(), 2);

    let mut out = Vec::new();
    let mut err = Vec::new();
    let (done, failed, _) = report::convert(
        &[data().join("wukong_xqdb/dhtmlxq_html")],
        record::Notation::Iccs,
        report::ConvertFormat::Pgn,
        false,
        &mut out,
        &mut err,
    )
    .unwrap();
    assert_eq!((done, failed), (5, 0));
    let text = String::from_utf8(out).unwrap();
    let back = pgn::read_str(&text, "converted");
    assert_eq!(back.len(), 5);
    assert!(back.iter().all(|g| g.is_ok() && g.plies() > 70));
    assert!(text.contains("[Title \"Holland DING Wa Chong (W) Germany SCHAEFER Nobert\"]"));
}

fn xqa(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    use std::io::Write;
    let text = stdin.unwrap_or_default().to_owned();
    let (child, feeder) = common::xqa_fed(args, std::process::Stdio::piped(), move |mut pipe| {
        pipe.write_all(text.as_bytes()).unwrap();
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn samples(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("pgn-samples")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn cli_validate_exit_codes_and_json() {
    // A bad move: exit 1, with where and why.
    let (code, out, err) = xqa(
        &["validate", "--json", &samples("illegal-move-chinese.pgn")],
        None,
    );
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["format"], "pgn");
    assert_eq!(v["notation"], "chinese");
    assert_eq!(v["plies"], 10);
    let e = &v["error"];
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(12), Some(4))
    );
    assert_eq!(e["ply"], 11);
    assert_eq!(e["move_text"], "车一进三");
    assert!(!e["kind"].as_str().unwrap().is_empty());
    assert!(e["suggestions"].as_array().is_some());
    assert!(err.contains("1 games: 0 valid, 1 invalid"), "{err}");

    // Standard input, all valid: exit 0 and a summary line.
    let (code, out, _) = xqa(&["validate", "-"], Some("1. h2e2 h9g7 2. h0g2 *\n"));
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("1 games: 1 valid, 0 invalid; 3 plies"),
        "{out}"
    );

    // A missing file: exit 2.
    let (code, _, _) = xqa(&["validate", "/nonexistent/x.pgn"], None);
    assert_eq!(code, 2);

    // Every sample reads; only the illegal-move one is invalid.
    let (code, out, err) = xqa(&["validate", "--json", &samples("")], None);
    assert_eq!(code, 1, "{err}");
    let bad: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["ok"] == false)
        .collect();
    assert_eq!(bad.len(), 1, "{out}");
    assert!(
        bad[0]["header"]["source"]["file"]
            .as_str()
            .unwrap()
            .ends_with("illegal-move-chinese.pgn")
    );
}

#[test]
fn cli_convert_keeps_everything() {
    let src = samples("annotated-iccs.pgn");
    let original = record::read_path(Path::new(&src)).remove(0);
    assert!(original.is_ok(), "{:?}", original.error);
    for to in ["chinese", "wxf", "iccs"] {
        let (code, out, err) = xqa(&["convert", "--to", to, &src], None);
        assert_eq!(code, 0, "{err}");
        let back = pgn::read_str(&out, "converted").remove(0);
        assert!(back.is_ok(), "{to}: {:?}\n{out}", back.error);
        assert_eq!(
            back.game.main.total_moves(),
            original.game.main.total_moves()
        );
        assert_eq!(
            back.game.main.total_comments(),
            original.game.main.total_comments()
        );
        assert_eq!(back.game.trailing_text, original.game.trailing_text);
        assert_eq!(back.game.tag("Site"), Some("Club \"Dragon\" room"));
    }
    let (code, out, err) = xqa(&["convert", "--format", "dhtmlxq", &src], None);
    assert_eq!(code, 0, "{err}");
    let back = dhtmlxq::read_str(&out, "converted").remove(0);
    assert!(back.is_ok());
    assert_eq!(back.game.main_moves(), original.game.main_moves());
    assert_eq!(
        back.game.main.total_variations(),
        original.game.main.total_variations()
    );
    let (code, _, _) = xqa(&["convert", "--to", "klingon", &src], None);
    assert_eq!(code, 2);
}

#[test]
fn games_without_tags_after_a_result_are_separate_games() {
    let text = "1. h2e2 h9g7 2. h0g2 i9h9 1-0\n\n1. b2e2 b9c7 0-1\n1. c3c4 *\n";
    let games = pgn::read_str(text, "bare.pgn");
    let lines: Vec<String> = games.iter().map(|e| iccs(&e.game)).collect();
    assert_eq!(lines, ["h2e2 h9g7 h0g2 i9h9", "b2e2 b9c7", "c3c4"]);
    assert!(games.iter().all(|e| e.error.is_none()));
    // Text after a result is not mistaken for a new game.
    let text =
        "[Event \"x\"]\n1. h2e2 h9g7 1-0\nA note after the result.\n1. is a numbered remark\n";
    assert_eq!(pgn::read_str(text, "note.pgn").len(), 1);
}

/// A DhtmlXQ field may span lines; the PGN written from it keeps each tag on one line (line
/// breaks become spaces), so the PGN reads back as one game with the same moves. Found by the
/// `records` fuzz target.
#[test]
fn multi_line_tag_values_stay_one_pgn_tag() {
    let text = "[DhtmlXQ]\n[DhtmlXQ_event]Open\n[Black \"x\"]\nround 2[/DhtmlXQ_event]\n\
                [DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n";
    let games = dhtmlxq::read_str(text, "multi-line");
    assert_eq!(games.len(), 1);
    assert!(games[0].error.is_none(), "{:?}", games[0].error);
    let event = games[0]
        .game
        .tags
        .iter()
        .find(|(k, _)| k == "Event")
        .unwrap();
    assert!(event.1.contains('\n'), "{event:?}");
    for notation in [record::Notation::Iccs, record::Notation::Chinese] {
        let out = pgn::write_games([&games[0].game], notation);
        let back = pgn::read_str(&out, "pgn");
        assert_eq!(back.len(), 1, "{out}");
        assert!(back[0].error.is_none(), "{:?}\n{out}", back[0].error);
        assert_eq!(iccs(&back[0].game), iccs(&games[0].game));
        let event = back[0]
            .game
            .tags
            .iter()
            .find(|(k, _)| k == "Event")
            .unwrap();
        assert_eq!(event.1, "Open [Black \"x\"] round 2");
    }
}

/// A run of eight or more non-ASCII characters glued into one word of an ICCS game is an error
/// naming the text, not a panic on a byte that is not a character boundary (found by the
/// `records` fuzz target).
#[test]
fn non_ascii_words_in_an_iccs_game_are_errors() {
    for body in [
        "1. h2e2 h9g7 2. é炮二平五马８进７炮",
        "1. h2e2 炮二平五马８进７炮",
    ] {
        let text = format!("[Format \"ICCS\"]\n\n{body}\n");
        let games = pgn::read_str(&text, "iccs");
        assert_eq!(games.len(), 1);
        let e = games[0].error.as_ref().expect("an error");
        assert!(
            e.to_string().contains('炮') || e.to_string().contains('é'),
            "{e}"
        );
    }
}

/// Text after the result that looks like the start of another game (move 1, or a tag pair) is
/// written so that it reads back as the same game's trailing text, not as a new game (found by
/// the `records` fuzz target).
#[test]
fn trailing_text_that_looks_like_a_game_stays_trailing_text() {
    // As read from a DhtmlXQ record, whose trailing text may hold anything.
    let text = "[FEN \"3rkab2/4a4/4b4/8p/p7c/2R6/4c3n/N3C3B/4A4/2BA1K3 b - - 0 1\"]*\n\
                1. foo\n4. bar\n1-0\n";
    let mut games = pgn::read_str(text, "trailing");
    assert_eq!(games.len(), 1, "{games:?}");
    assert!(games[0].error.is_none(), "{:?}", games[0].error);
    assert_eq!(
        games[0].game.trailing_text.as_deref(),
        Some("1. foo\n4. bar\n1-0")
    );
    games[0].game.trailing_text = Some("1. foo\n4. bar\n\n  [Round \"x\"]\n1-0\n1. baz".into());
    let trailing = games[0].game.trailing_text.clone().expect("trailing text");
    for notation in [record::Notation::Iccs, record::Notation::Chinese] {
        let out = pgn::write_games([&games[0].game], notation);
        let back = pgn::read_str(&out, "pgn");
        assert_eq!(back.len(), 1, "{out}");
        assert!(back[0].error.is_none(), "{:?}\n{out}", back[0].error);
        let again = back[0].game.trailing_text.clone().expect("trailing text");
        // The words survive; only line breaks before would-be game starts became spaces.
        assert_eq!(
            again.split_whitespace().collect::<Vec<_>>(),
            trailing.split_whitespace().collect::<Vec<_>>(),
            "{out}"
        );
    }
}

/// A game whose tags name its notation twice is written with one `Format` tag, the notation the
/// moves are written in (a duplicate `[Format "ICCS"]` used to survive a conversion to WXF and
/// make the output unreadable; found by the `records` fuzz target).
#[test]
fn duplicate_format_tags_do_not_survive_conversion() {
    let text = "[Format \"ICCS\"]\n[Result \"*\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 *\n";
    let games = pgn::read_str(text, "dup");
    assert!(games[0].error.is_none(), "{:?}", games[0].error);
    let game = games[0].game.clone();
    for notation in [record::Notation::Wxf, record::Notation::Chinese] {
        let out = pgn::write_games([&game], notation);
        assert_eq!(out.matches("[Format ").count(), 1, "{out}");
        let back = pgn::read_str(&out, "pgn");
        assert!(back[0].error.is_none(), "{:?}\n{out}", back[0].error);
        assert_eq!(iccs(&back[0].game), "h2e2 h9g7");
    }
}

/// Tag names from other formats that PGN cannot hold as they are (a name not starting with a
/// letter, or holding spaces, quotes or brackets) are written so that each reads back as a tag of
/// the same game (found by the `records` fuzz target).
#[test]
fn odd_tag_names_are_written_as_tags() {
    let mut game = pgn::read_str("1. h2e2 h9g7 *\n", "odd").remove(0).game;
    game.tags.push(("(date".into(), "2026".into()));
    game.tags.push(("my \"odd\" [name]".into(), "v".into()));
    game.tags.push(("".into(), "empty".into()));
    let out = pgn::write_games([&game], record::Notation::Iccs);
    let back = pgn::read_str(&out, "pgn");
    assert_eq!(back.len(), 1, "{out}");
    assert!(back[0].error.is_none(), "{:?}\n{out}", back[0].error);
    let tags: Vec<(&str, &str)> = back[0]
        .game
        .tags
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert!(tags.contains(&("X(date", "2026")), "{tags:?}");
    assert!(tags.contains(&("my__odd___name_", "v")), "{tags:?}");
    assert!(tags.contains(&("X", "empty")), "{tags:?}");
    assert_eq!(iccs(&back[0].game), "h2e2 h9g7");
}

/// A comment holding a blank line and then a tag pair (possible in a DhtmlXQ comment) is written
/// so that the PGN reads back as one game with that comment (found by the `records` fuzz target).
#[test]
fn comments_holding_tag_lines_stay_comments() {
    let mut game = pgn::read_str("1. h2e2 h9g7 *\n", "c").remove(0).game;
    game.main.nodes[0].comments = vec!["note\n\n[Site \"x\"]\n\n  \n[Red \"y\"] end".into()];
    let out = pgn::write_games([&game], record::Notation::Iccs);
    let back = pgn::read_str(&out, "pgn");
    assert_eq!(back.len(), 1, "{out}");
    assert!(back[0].error.is_none(), "{:?}\n{out}", back[0].error);
    assert_eq!(iccs(&back[0].game), "h2e2 h9g7");
    let c = back[0].game.main.nodes[0].comments.join(" ");
    assert!(
        c.contains("[Site \"x\"]") && c.contains("[Red \"y\"] end"),
        "{c}"
    );
}

/// A URL-encoded DhtmlXQ record with a '%' before a multi-byte character is read (the '%' kept as
/// it is), not a panic on a character boundary (found by the `records` fuzz target).
#[test]
fn percent_before_a_multi_byte_character_is_not_a_panic() {
    let text = "%5BDhtmlXQ%5D%5BDhtmlXQ_title%5D%禰x%E5%B1%80%5B/DhtmlXQ_title%5D\
                %5BDhtmlXQ_movelist%5D77477062%5B/DhtmlXQ_movelist%5D%5B/DhtmlXQ%5D";
    let games = record::read_bytes("pct", text.as_bytes(), Some(Format::Dhtmlxq));
    assert_eq!(games.len(), 1);
    assert!(games[0].error.is_none(), "{:?}", games[0].error);
    assert_eq!(iccs(&games[0].game), "h2e2 h9g7");
    let title: Vec<&String> = games[0].game.tags.iter().map(|(_, v)| v).collect();
    assert!(title.iter().any(|v| v.contains("%禰x局")), "{title:?}");
}

/// A game from the standard placement but numbered from another move (a DhtmlXQ or XQF record
/// may say so) keeps its FEN in PGN, so the move numbers read back (found by the `records` fuzz
/// target).
#[test]
fn standard_placement_with_other_move_number_keeps_its_fen() {
    let text = "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 7\"]\n\n\
                7. h2e2 h9g7 *\n";
    let games = pgn::read_str(text, "num");
    assert!(games[0].error.is_none(), "{:?}", games[0].error);
    let fen = games[0].game.start.fen();
    assert!(fen.ends_with(" 7"), "{fen}");
    let mut game = games[0].game.clone();
    game.tags.retain(|(k, _)| k != "FEN");
    let out = pgn::write_games([&game], record::Notation::Iccs);
    let back = pgn::read_str(&out, "pgn");
    assert!(back[0].error.is_none(), "{:?}\n{out}", back[0].error);
    assert_eq!(back[0].game.start.fen(), fen, "{out}");
    assert_eq!(iccs(&back[0].game), "h2e2 h9g7");
}

/// DhtmlXQ keeps a start from the standard placement numbered from another move (its `fen` field
/// is written), as PGN does (found by the `records` fuzz target, which now also checks DhtmlXQ
/// round trips field by field).
#[test]
fn dhtmlxq_keeps_the_move_number_of_a_standard_start() {
    let text = "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 7\"]\n\n\
                7. h2e2 h9g7 *\n";
    let mut game = pgn::read_str(text, "num").remove(0).game;
    game.tags.retain(|(k, _)| k != "FEN");
    let out = dhtmlxq::write_games([&game]);
    let back = dhtmlxq::read_str(&out, "dhtmlxq");
    assert!(back[0].error.is_none(), "{:?}\n{out}", back[0].error);
    assert_eq!(back[0].game.start.fen(), game.start.fen(), "{out}");
    assert_eq!(iccs(&back[0].game), "h2e2 h9g7");
}

/// A carriage return that does not end a line (in a comment, a tag or the text after the game)
/// survives DhtmlXQ, which used to drop every CR (found by the `records` fuzz target).
#[test]
fn dhtmlxq_keeps_a_lone_carriage_return() {
    let mut game = pgn::read_str("1. h2e2 h9g7 *\n", "cr").remove(0).game;
    game.main.nodes[0].comments = vec!["a\rb\r\nc".into()];
    game.tags.push(("Remark".into(), "x\ry".into()));
    game.trailing_text = Some("t\ru".into());
    let out = dhtmlxq::write_games([&game]);
    let back = dhtmlxq::read_str(&out, "dhtmlxq");
    assert!(back[0].error.is_none(), "{:?}\n{out}", back[0].error);
    let g = &back[0].game;
    assert_eq!(g.main.nodes[0].comments, ["a\rb\nc"], "{out}");
    assert_eq!(g.tag("Remark"), Some("x\ry"), "{out}");
    assert_eq!(g.trailing_text.as_deref(), Some("t\ru"), "{out}");
}

/// Comments and trailing text with CR LF line ends (from binary records) are written as PGN so
/// that the game read back prints the same text: a reader drops the CRs at line ends, and the
/// writer used to keep them (found by the `records` fuzz target's printer stability check).
#[test]
fn pgn_printer_is_stable_on_crlf_comments() {
    let mut game = pgn::read_str("1. h2e2 h9g7 *\n", "crlf").remove(0).game;
    game.main.nodes[0].comments = vec!["和\r\n".into(), "two\r\r\nlines".into()];
    game.main.comments_before = vec!["first\r\n\r\nsecond\r".into()];
    game.trailing_text = Some("after\r\r\nthe\r\ngame".into());
    for notation in [record::Notation::Iccs, record::Notation::Chinese] {
        let out = pgn::write_games([&game], notation);
        let back = pgn::read_str(&out, "pgn");
        assert_eq!(back.len(), 1, "{out}");
        assert!(back[0].error.is_none(), "{:?}\n{out}", back[0].error);
        let again = pgn::write_games([&back[0].game], notation);
        assert_eq!(out, again);
        let g = &back[0].game;
        assert_eq!(g.main.nodes[0].comments, ["和\n", "two\nlines"], "{out}");
        assert_eq!(g.trailing_text.as_deref(), Some("after\nthe\ngame"));
    }
}

/// A game whose Result tag says something else than its result (or nothing a reader
/// understands) keeps its result in DhtmlXQ, where the `result` field decides it (found by the
/// `records` fuzz target).
#[test]
fn dhtmlxq_result_field_states_the_games_result() {
    let text = "[Result \"1/2廣州-1/2\"]\n\n1. h2e2 h9g7 1/2-1/2\n\n\
                [Result \"1-0\"]\n\n1. h2e2 h9g7 *\n\n\
                [Result \"红胜\"]\n\n1. h2e2 h9g7 1-0\n";
    let games = pgn::read_str(text, "res");
    let want = [
        (record::GameResult::Draw, "1/2-1/2"),
        (record::GameResult::Unknown, "*"),
        // The text as written is kept as a tag; the result field gets the standard token.
        (record::GameResult::RedWins, "1-0"),
    ];
    for (e, (result, field)) in games.iter().zip(want) {
        assert!(e.error.is_none(), "{:?}", e.error);
        assert_eq!(e.game.result, Some(result));
        let out = dhtmlxq::write_games([&e.game]);
        assert!(
            out.contains(&format!("[DhtmlXQ_result]{field}[/DhtmlXQ_result]")),
            "{out}"
        );
        let back = dhtmlxq::read_str(&out, "dhtmlxq");
        assert!(back[0].error.is_none(), "{:?}\n{out}", back[0].error);
        assert_eq!(back[0].game.result, Some(result), "{out}");
    }
    assert_eq!(games[2].game.tag("ResultText"), Some("红胜"));
    assert!(out_has_kind(&games[0], "result_not_understood"));
}

fn out_has_kind(e: &record::GameEntry, kind: &str) -> bool {
    e.warnings.iter().any(|w| w.kind == kind)
}

/// Tag names DhtmlXQ cannot hold as they are (brackets or spaces in the name, or a name the reader
/// takes for a field of its own: `movelist`, `binit`, `comment3`, `move_0_1_1`, `trailing_text`)
/// are written so that each value reads back as a tag and the game is unchanged; such a tag used
/// to vanish, or to replace the moves, the start or a comment (found by the `records` fuzz target
/// on a PGN tag line `[Blac[BlackTeam ""]`).
#[test]
fn dhtmlxq_writes_odd_tag_names_as_tags() {
    let mut game = pgn::read_str("{c} 1. h2e2 h9g7 *\n", "odd").remove(0).game;
    let odd = [
        ("Blac[BlackTeam", "v1", "Blac_BlackTeam"),
        ("my name]", "v2", "my_name_"),
        ("movelist", "7062", "Xmovelist"),
        ("binit", "99", "Xbinit"),
        ("comment1", "not a comment", "Xcomment1"),
        ("move_0_1_1", "1022", "Xmove_0_1_1"),
        ("trailing_text", "t", "Xtrailing_text"),
        ("", "empty", "X"),
        ("DhtmlXQ_movelist='1022'", "js", "DhtmlXQ_movelist_'1022'"),
    ];
    for (k, v, _) in odd {
        game.tags.push((k.into(), v.into()));
    }
    let out = dhtmlxq::write_games([&game]);
    let back = dhtmlxq::read_str(&out, "dhtmlxq");
    assert_eq!(back.len(), 1, "{out}");
    assert!(back[0].error.is_none(), "{:?}\n{out}", back[0].error);
    let g = &back[0].game;
    assert_eq!(iccs(g), "h2e2 h9g7", "{out}");
    assert_eq!(g.start, game.start);
    assert_eq!(g.main.comments_before, ["c"], "{out}");
    assert!(g.main.nodes.iter().all(|n| n.comments.is_empty()), "{out}");
    assert!(
        g.main.nodes.iter().all(|n| n.variations.is_empty()),
        "{out}"
    );
    assert_eq!(g.trailing_text, None, "{out}");
    for (_, v, name) in odd {
        assert_eq!(g.tag(name), Some(v), "{name}: {out}");
    }
}

/// A comment or tag value quoting a dpxq page's JavaScript (`DhtmlXQ_movelist = '...'`) is
/// written so that it does not read back as the game's moves.
#[test]
fn dhtmlxq_text_quoting_a_javascript_movelist_stays_text() {
    let mut game = pgn::read_str("*\n", "js").remove(0).game;
    let js = "var DhtmlXQ_movelist = '77477062';";
    game.main.comments_before = vec![js.into()];
    game.tags.push(("Remark".into(), js.into()));
    let out = dhtmlxq::write_games([&game]);
    let back = dhtmlxq::read_str(&out, "dhtmlxq");
    assert_eq!(back.len(), 1, "{out}");
    assert!(back[0].error.is_none(), "{:?}\n{out}", back[0].error);
    let g = &back[0].game;
    assert_eq!(iccs(g), "", "{out}");
    assert_eq!(g.main.comments_before, [js], "{out}");
    assert_eq!(g.tag("Remark"), Some(js), "{out}");
}

/// Several CRs before a line break (`\r\r\n`, seen in HTML pages saved on Windows) are one line
/// break in DhtmlXQ, so the game read back prints the same record (the first CR used to be kept
/// as an escape and the second dropped; found by the `records` fuzz target's printer stability
/// check).
#[test]
fn dhtmlxq_printer_is_stable_on_crs_before_a_line_break() {
    let mut game = pgn::read_str("1. h2e2 h9g7 *\n", "cr").remove(0).game;
    game.main.nodes[0].comments = vec!["a\r\r\nb\r\r\r\nc\rd\r".into()];
    game.tags.push(("Remark".into(), "x\r\r\ny".into()));
    let out = dhtmlxq::write_games([&game]);
    let back = dhtmlxq::read_str(&out, "dhtmlxq");
    assert!(back[0].error.is_none(), "{:?}\n{out}", back[0].error);
    let g = &back[0].game;
    assert_eq!(g.main.nodes[0].comments, ["a\nb\nc\rd\r"], "{out}");
    assert_eq!(g.tag("Remark"), Some("x\ny"), "{out}");
    assert_eq!(dhtmlxq::write_games([g]), out);
}

/// A tag value holding a backslash right before a quote and a `]` (`\"] [FEN "..."]`, from a
/// DhtmlXQ field) is written as `\\\"]` and read back as one value: the reader used to take the
/// quote after an escaped backslash as the end of the value and the rest as more tags (found by
/// the `records` fuzz target).
#[test]
fn escaped_backslash_before_an_escaped_quote_stays_in_the_tag() {
    let mut game = pgn::read_str("1. h2e2 h9g7 *\n", "bs").remove(0).game;
    let v = r#"a \"] [ECCO "C70"] [FEN "9/9/9/9/9/9/9/9/9/9 w"] z\\"#;
    game.tags.push(("Remark".into(), v.into()));
    let out = pgn::write_games([&game], record::Notation::Iccs);
    let back = pgn::read_str(&out, "pgn");
    assert_eq!(back.len(), 1, "{out}");
    assert!(back[0].error.is_none(), "{:?}\n{out}", back[0].error);
    assert_eq!(back[0].game.tag("Remark"), Some(v), "{out}");
    assert_eq!(back[0].game.tag("ECCO"), None, "{out}");
    assert_eq!(iccs(&back[0].game), "h2e2 h9g7");
}

/// A game with text after it but no result is written with `*` ending its movetext and a Result
/// tag saying `*`, so that the game read back prints the same (the tag used to appear only on
/// the second printing; found by the `records` fuzz target).
#[test]
fn text_after_a_game_without_result_prints_the_same_twice() {
    let mut games = pgn::read_str("[Event \"x\"]\n\n1. h2e2 h9g7\n", "no-result");
    assert_eq!(games.len(), 1);
    assert!(games[0].error.is_none(), "{:?}", games[0].error);
    assert_eq!(games[0].game.result, None);
    games[0].game.trailing_text = Some("Text after the result \"] [Red \"x".into());
    for notation in [record::Notation::Iccs, record::Notation::Chinese] {
        let out = pgn::write_games([&games[0].game], notation);
        assert!(out.contains("[Result \"*\"]"), "{out}");
        let back = pgn::read_str(&out, "pgn");
        assert_eq!(back.len(), 1, "{out}");
        assert!(back[0].error.is_none(), "{:?}\n{out}", back[0].error);
        assert_eq!(back[0].game.result, Some(record::GameResult::Unknown));
        assert_eq!(back[0].game.main_moves(), games[0].game.main_moves());
        let again = pgn::write_games([&back[0].game], notation);
        assert_eq!(out, again);
    }
}

/// Blank lines at the start and end of a game's trailing text are not written: a reader drops them, and
/// the game read back would print differently (found by the `records` fuzz target).
#[test]
fn blank_lines_ending_the_trailing_text_are_not_written() {
    let mut games = pgn::read_str("[Event \"x\"]\n\n1. h2e2 h9g7 *\n", "trailing-blank");
    assert_eq!(games.len(), 1);
    games[0].game.trailing_text = Some("\n \r\nA signature.\nhtmlXQ]\n\n \n".into());
    let out = pgn::write_games([&games[0].game], record::Notation::Iccs);
    let back = pgn::read_str(&out, "pgn");
    assert_eq!(back.len(), 1, "{out}");
    assert!(back[0].error.is_none(), "{:?}\n{out}", back[0].error);
    assert_eq!(
        back[0].game.trailing_text.as_deref(),
        Some("A signature.\nhtmlXQ]")
    );
    assert_eq!(
        pgn::write_games([&back[0].game], record::Notation::Iccs),
        out
    );
}

/// A DhtmlXQ record with two `result` fields takes its result from the first one it
/// understands, as PGN does with Result tags, so that converting it to PGN and back keeps the
/// result (the last field used to win, and an unreadable last field left no result while the
/// PGN written from it said 1-0; found by the `records` fuzz target).
#[test]
fn the_first_understood_dhtmlxq_result_field_gives_the_result() {
    let text = "[DhtmlXQ]\n[DhtmlXQ_result]1-0[/DhtmlXQ_result]\n\
                [DhtmlXQ_result]0-0[/DhtmlXQ_result]\n\
                [DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n";
    let games = dhtmlxq::read_str(text, "two-results");
    assert_eq!(games.len(), 1);
    assert!(games[0].error.is_none(), "{:?}", games[0].error);
    assert_eq!(games[0].game.result, Some(record::GameResult::RedWins));
    let out = pgn::write_games([&games[0].game], record::Notation::Iccs);
    let back = pgn::read_str(&out, "pgn");
    assert_eq!(
        back[0].game.result,
        Some(record::GameResult::RedWins),
        "{out}"
    );
    assert_eq!(
        pgn::write_games([&back[0].game], record::Notation::Iccs),
        out
    );
}

#[test]
fn pgn_write_read_round_trip_san_pychess() {
    pgn_round_trips(record::Notation::San);
}

#[test]
fn pgn_write_read_round_trip_san_winboard() {
    pgn_round_trips(record::Notation::SanWinboard);
}

/// Every real record written as a WXF file reads back with the same moves, start, result and
/// tags, and the WXF text prints the same after reading back (write, read, write).
#[test]
fn wxf_file_write_read_round_trip() {
    use xiangqi_arbiter::record::wxf_file;
    let refs = manifest();
    let files = read_all(&refs);
    let mut n = 0;
    for games in files.values() {
        for e in games.iter().filter(|e| e.is_ok()) {
            let mut text = String::new();
            wxf_file::write_game(&e.game, &mut text);
            let back = wxf_file::read_str(&text, "round-trip");
            assert_eq!(back.len(), 1, "{}\n{text}", e.source);
            let b = &back[0];
            assert!(b.error.is_none(), "{}: {:?}\n{text}", e.source, b.error);
            assert_eq!(b.format, Format::Wxf);
            assert_eq!(
                b.game.main_moves(),
                e.game.main_moves(),
                "{}\n{text}",
                e.source
            );
            assert_eq!(b.game.start, e.game.start, "{}", e.source);
            assert_eq!(b.game.result, e.game.result, "{}\n{text}", e.source);
            for (k, v) in &e.game.tags {
                if ["FEN", "Format", "Result"]
                    .iter()
                    .any(|t| t.eq_ignore_ascii_case(k))
                    || v.trim().is_empty()
                    || v.contains(['\n', '\r'])
                    || !k.chars().all(char::is_alphanumeric)
                {
                    continue;
                }
                assert!(
                    b.game
                        .tags
                        .iter()
                        .any(|(k2, v2)| k2.eq_ignore_ascii_case(k) && v2 == v.trim()),
                    "{}: tag {k} {v:?} lost\n{text}",
                    e.source
                );
            }
            let mut again = String::new();
            wxf_file::write_game(&b.game, &mut again);
            assert_eq!(again, text, "{}", e.source);
            n += 1;
        }
    }
    assert!(n >= 1660, "{n}");
}

/// The SAN samples of pgn-samples/ (pychess and WinBoard) read with the right rank base, from
/// the moves alone, and convert into each other.
#[test]
fn san_samples_read_and_convert() {
    let read = |name: &str| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("pgn-samples")
            .join(name);
        record::read_path(&path).remove(0)
    };
    let py = read("pychess-san.pgn");
    let wb = read("winboard-san.pgn");
    assert!(py.is_ok() && wb.is_ok(), "{:?} {:?}", py.error, wb.error);
    assert_eq!(py.notation, Some(record::Notation::San));
    assert_eq!(wb.notation, Some(record::Notation::SanWinboard));
    assert_eq!(py.game.main_moves(), wb.game.main_moves());
    assert_eq!(py.plies(), 40);
    // A pychess movetext without any 10 or 0 rank, told by its P letters; WinBoard by bare pawns.
    let g = pgn::read_str("1. Pc5 Pc6 2. Hc3 Hc8 *\n", "p").remove(0);
    assert_eq!(g.notation, Some(record::Notation::San), "{:?}", g.error);
    let g = pgn::read_str("1. c4 c5 2. Hc2 Hc7 *\n", "w").remove(0);
    assert_eq!(
        g.notation,
        Some(record::Notation::SanWinboard),
        "{:?}",
        g.error
    );
    // The Format tag the writer sets reads back.
    let mut out = String::new();
    pgn::write_game(&py.game, record::Notation::SanWinboard, &mut out);
    assert!(out.contains("[Format \"SAN-WinBoard\"]"));
    let back = pgn::read_str(&out, "b").remove(0);
    assert_eq!(back.notation, Some(record::Notation::SanWinboard));
    assert_eq!(back.game.main_moves(), py.game.main_moves());
}

#[test]
fn wxf_file_sample_and_bare_movetext() {
    use xiangqi_arbiter::record::wxf_file;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("pgn-samples/annotated.wxf");
    let e = record::read_path(&path).remove(0);
    assert!(e.is_ok(), "{:?}", e.error);
    assert_eq!(e.format, Format::Wxf);
    assert_eq!(e.notation, Some(record::Notation::Wxf));
    assert_eq!(e.plies(), 8);
    assert_eq!(e.game.result, Some(record::GameResult::RedWins));
    assert_eq!(e.game.tag("Red"), Some("Lu Qin"));
    assert_eq!(e.game.tag("RedTeam"), Some("Guangdong"));
    // `r9=8!?3.`: the marks belong to the move before them.
    assert_eq!(e.game.main.nodes[3].nags, [5]);
    assert_eq!(e.game.main.nodes[4].comments, ["a comment\nover two lines"]);
    // A bare movetext, with lower-case black pieces and '='.
    let b = wxf_file::read_str("1. C2=5 h8+7\n2. H2+3 r9=8\n", "bare").remove(0);
    assert!(b.is_ok(), "{:?}", b.error);
    assert_eq!(b.plies(), 4);
    // Errors name the line and column.
    let bad =
        wxf_file::read_str("FORMAT WXF\nSTART{\n 1. C2=5 h8+7\n 2. H2+4\n}END\n", "bad").remove(0);
    let err = bad.error.expect("an error");
    assert_eq!((err.line, err.column, err.ply), (4, 5, Some(3)), "{err:?}");
    // ICCS moves under FORMAT ICCS; missing }END is an error.
    let i = wxf_file::read_str("FORMAT ICCS\nSTART{\n1. H2-E2 H9-G7\n}END\n", "i").remove(0);
    assert!(i.is_ok() && i.plies() == 2, "{:?}", i.error);
    let open = wxf_file::read_str("FORMAT WXF\nSTART{\n1. C2=5\n", "o").remove(0);
    assert_eq!(open.error.expect("error").kind, "record_syntax");
}

/// Results in every form, warnings of every kind, on real records and small cases.
#[test]
fn results_and_warnings() {
    use record::{GameResult as R, Warnings};
    for (t, r) in [
        ("1-0", R::RedWins),
        ("W", R::RedWins),
        ("红胜", R::RedWins),
        ("紅勝", R::RedWins),
        ("红先胜", R::RedWins),
        ("黑负", R::RedWins),
        ("L", R::BlackWins),
        ("黑胜", R::BlackWins),
        ("黑勝", R::BlackWins),
        ("D", R::Draw),
        ("和棋", R::Draw),
        ("和局", R::Draw),
        ("1/2-1/2", R::Draw),
        ("未知", R::Unknown),
        ("*", R::Unknown),
    ] {
        assert_eq!(R::parse_text(t), Some(r), "{t}");
    }
    assert_eq!(R::parse_text("banana"), None);
    // The real DhtmlXQ record (vschess): 未知 is the unknown result, not null.
    let e = record::read_path(&data().join("dhtmlxq_text/vschess_dhtmlxq.txt")).remove(0);
    assert_eq!(e.game.result, Some(R::Unknown));
    assert_eq!(e.game.tag("Result"), Some("*"));
    assert_eq!(e.game.tag("ResultText"), Some("未知"));
    assert!(
        e.warning_flags().contains(Warnings::VARIATION_CUT),
        "{:?}",
        e.warnings
    );
    // DhtmlXQ: W/L/D, viewer fields, the blacktime template quirk.
    let d = dhtmlxq::read_str(
        "[DhtmlXQ][DhtmlXQ_init]500,350[/DhtmlXQ_init][DhtmlXQ_gamepreview]x[/DhtmlXQ_gamepreview]\
         [DhtmlXQ_result]L[/DhtmlXQ_result][DhtmlXQ_redtime]10[/DhtmlXQ_redtime]\
         [DhtmlXQ_blacktime][/DhtmlXQ_time][DhtmlXQ_black]B[/DhtmlXQ_black]\
         [DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]",
        "d",
    )
    .remove(0);
    assert!(d.is_ok(), "{:?}", d.error);
    assert_eq!(d.game.result, Some(R::BlackWins));
    let names: Vec<&str> = d.game.tags.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        names,
        ["Result", "ResultText", "RedTime", "Black"],
        "{:?}",
        d.game.tags
    );
    let mut out = String::new();
    dhtmlxq::write_game(&d.game, &mut out);
    assert!(
        !out.contains("blacktime") && !out.contains("DhtmlXQ_time"),
        "{out}"
    );
    assert!(
        !out.contains("DhtmlXQ_init") && !out.contains("gamepreview"),
        "{out}"
    );
    // PGN: duplicate tags, a result nobody understands, Black first from the start.
    let p = pgn::read_str(
        "[Event \"a\"]\n[Event \"b\"]\n[Result \"Red resigned?\"]\n[Format \"ICCS\"]\n\n1. ... h9g7 *\n",
        "p",
    )
    .remove(0);
    assert!(p.is_ok(), "{:?}", p.error);
    let f = p.warning_flags();
    assert!(
        f.contains(
            Warnings::DUPLICATE_TAG | Warnings::RESULT_NOT_UNDERSTOOD | Warnings::BLACK_FIRST
        ),
        "{:?}",
        p.warnings
    );
    assert_eq!(
        f.names(),
        [
            "black_moves_first",
            "side_to_move_corrected",
            "result_not_understood",
            "duplicate_tag"
        ]
    );
    // A bare DhtmlXQ string whose usual reading has Black first: the other y axis reads it
    // with Red first.
    let y = dhtmlxq::read_str("[DhtmlXQ_movelist]72427767[/DhtmlXQ_movelist]", "y").remove(0);
    assert!(
        y.warning_flags().contains(Warnings::OTHER_Y_AXIS),
        "{:?} {:?}",
        y.warnings,
        y.error
    );
    // Warnings reach the text output of validate.
    let dir = common::Scratch::new("warn");
    let f = dir.join("w.pgn");
    std::fs::write(&f, "[Event \"a\"]\n[Event \"b\"]\n\n1. h2e2 h9g7 *\n").unwrap();
    let (code, out, _) = xqa(&["validate", f.to_str().unwrap()], None);
    assert_eq!(code, 0);
    assert!(
        out.contains("warning: ") && out.contains("[duplicate_tag]"),
        "{out}"
    );
    let (_, json, _) = xqa(&["validate", "--json", f.to_str().unwrap()], None);
    assert!(json.contains("\"kind\":\"duplicate_tag\""), "{json}");
}

/// A record with one move left out: the wrong_side error says which side's move is missing and
/// which moves would let the rest replay.
#[test]
fn a_missing_move_is_named() {
    // Real game 1 of the ICCS file with Black's 3rd move taken out.
    let refs = manifest();
    let files = read_all(&refs);
    let e = files
        .values()
        .flatten()
        .find(|e| e.is_ok() && e.notation == Some(record::Notation::Iccs) && e.plies() > 30)
        .expect("an ICCS game");
    let mut moves: Vec<String> = e.game.main.nodes.iter().map(|n| n.mv.to_string()).collect();
    let missing = moves.remove(5);
    let text = format!(
        "[Format \"ICCS\"]\n[FEN \"{}\"]\n\n{}\n",
        e.game.start.fen(),
        moves.join(" ")
    );
    let g = pgn::read_str(&text, "m").remove(0);
    let err = g.error.expect("an error");
    assert_eq!(err.kind, "wrong_side", "{err:?}");
    {
        assert_eq!(err.ply, Some(6), "{err:?}");
        assert!(
            err.message.contains("seems to be missing before ply 6"),
            "{}",
            err.message
        );
        assert!(
            err.suggestions.contains(&missing),
            "{missing} not in {:?}",
            err.suggestions
        );
    }
}

#[test]
fn dhtmlxq_does_not_write_tags_named_as_viewer_fields_that_a_reader_drops() {
    // (Found by the records fuzz target on pgn-samples/annotated-iccs.pgn: its Format tag was
    // written as the viewer field DhtmlXQ_Format, dropped on reading back, so the record printed
    // differently the second time.)
    let text = "[Event \"e\"]\n[Format \"ICCS\"]\n[Length \"90 minutes\"]\n[Ver \"3\"]\n\n\
                1. h2e2 h9g7 *\n";
    let game = &pgn::read_str(text, "t.pgn")[0].game;
    let written = dhtmlxq::write_games([game]);
    assert!(
        !written.to_ascii_lowercase().contains("dhtmlxq_format]"),
        "{written}"
    );
    let back = dhtmlxq::read_str(&written, "t.txt");
    assert!(back[0].error.is_none(), "{:?}", back[0].error);
    assert_eq!(dhtmlxq::write_games([&back[0].game]), written);
    // The other tags keep their values (under a name the viewer does not take).
    for value in ["90 minutes", "3", "e"] {
        assert!(
            back[0].game.tags.iter().any(|(_, v)| v == value),
            "{value}: {:?}",
            back[0].game.tags
        );
    }
}
