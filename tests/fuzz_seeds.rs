//! The seed corpora and the dictionary of the fuzz targets (fuzz/seeds/<target>/, fuzz/dict/),
//! built from the project's own samples and test data, and checked here.
//!
//! Random bytes almost never form a 10-rank FEN or a Chinese move, so the `fen` and `notation`
//! targets barely test anything unseeded (issue 32: `fen` stalled at 66 coverage points, and
//! `notation` produced no Chinese character in five minutes). The seeds are:
//! * `fen`: the FENs of the perft, notation and rules test data;
//! * `notation`: on each position of the target (both sides to move), moves written in every
//!   notation, and the tokens of the notation test tables (the tricky and the wrong ones);
//! * `records`: one record of every format the target reads (PGN in every notation and encoding,
//!   DhtmlXQ, XQF, CBR, a cut CBL, CBF, WXF, and a record in the target's CBL wrapping), from
//!   pgn-samples/ and tests/data/binary/, and the records of the issues its runs found;
//! * `rules`: real games and repetition cycles, as the target reads them (the index of each move
//!   among the legal moves).
//!
//! Rebuild them (after changing a target, its positions or the data) with
//! `cargo test --release --test fuzz_seeds -- --ignored`, which rewrites fuzz/seeds/ and
//! fuzz/dict/xiangqi.dict; the test run by CI checks that what is committed is still what the
//! targets need (the positions and formats match the targets, the moves read back).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use xiangqi_arbiter::record::{self, Format};
use xiangqi_arbiter::{Move, Notation, Position, START_FEN, Setup, parse_move, print_move};

/// The positions of fuzz/fuzz_targets/notation.rs, in its order (checked against its source).
const NOTATION_FENS: [&str; 3] = [
    START_FEN,
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 0 1",
    "3k5/4P4/3P1P3/4P4/9/9/9/4C4/4C4/4K4 w - - 0 1",
];

/// The positions of fuzz/fuzz_targets/rules.rs, in its order (checked against its source).
const RULES_FENS: [&str; 3] = [
    START_FEN,
    "2bak2r1/4aP3/4b4/2r1C4/4P4/2B6/4R3R/B8/1p7/c3K4 w - - 0 1",
    "3akab2/9/4b4/p1h1p3p/2p3p2/4P1P2/P1P1C3P/2H1B4/4A4/2BAK4 w - - 0 1",
];

/// The formats of fuzz/fuzz_targets/records.rs, chosen by the first byte modulo 9 (the ninth
/// choice wraps the rest in a CBL library).
const RECORD_FORMATS: [Option<Format>; 8] = [
    None,
    Some(Format::Pgn),
    Some(Format::Dhtmlxq),
    Some(Format::Xqf),
    Some(Format::Cbr),
    Some(Format::Cbl),
    Some(Format::Cbf),
    Some(Format::Wxf),
];
const CBL_WRAPPED: u8 = 8;

/// Plies a `rules` input plays at most.
const RULES_PLIES: usize = 40;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn text(rel: &str) -> String {
    String::from_utf8(read(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The data lines of a test table (no comments, no blank lines), split at tabs.
fn table(rel: &str) -> Vec<Vec<String>> {
    text(rel)
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect()
}

/// The `"fen"` values of a JSON-lines file.
fn jsonl_fens(rel: &str) -> Vec<String> {
    text(rel)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["fen"].as_str().map(str::to_owned))
        .collect()
}

fn legal(pos: &Position) -> Vec<Move> {
    pos.legal_moves().into_iter().collect()
}

/// The position of a `notation` input whose first byte is `first`, as the target makes it.
fn notation_position(first: u8) -> Position {
    let pos = Position::from_fen(NOTATION_FENS[first as usize % NOTATION_FENS.len()]).unwrap();
    if first & 0x80 != 0 {
        pos.null_move()
    } else {
        pos
    }
}

/// A file name part for any text: ASCII letters, digits and `-` kept, anything else as hex.
fn name_part(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'-' {
                (b as char).to_string()
            } else {
                format!("{b:02x}")
            }
        })
        .collect()
}

type Corpus = BTreeMap<String, Vec<u8>>;

fn fen_seeds() -> Corpus {
    let mut fens: Vec<String> = NOTATION_FENS
        .iter()
        .chain(&RULES_FENS)
        .map(|f| f.to_string())
        .collect();
    fens.extend(table("tests/data/perft.txt").iter().map(|r| {
        // (FEN;depth;nodes)
        r[0].split(';').next().unwrap().to_owned()
    }));
    fens.extend(
        table("tests/data/notation_cases.tsv")
            .iter()
            .filter(|r| r[0].contains('/'))
            .map(|r| r[0].clone()),
    );
    fens.extend(
        table("tests/data/notation_ffish_wxf.txt")
            .iter()
            .step_by(60)
            .map(|r| r[0].clone()),
    );
    fens.extend(
        jsonl_fens("tests/data/rules/cxa.jsonl")
            .into_iter()
            .step_by(4),
    );
    fens.extend(
        jsonl_fens("tests/data/rules/axf.jsonl")
            .into_iter()
            .step_by(8),
    );
    let mut out = Corpus::new();
    for f in fens {
        if !out.values().any(|v| v == f.as_bytes()) {
            out.insert(format!("fen-{:03}", out.len()), f.into_bytes());
        }
    }
    out
}

fn notation_seeds() -> Corpus {
    let mut out = Corpus::new();
    // Legal moves in every notation, on every position and side of the target.
    for fen in 0..NOTATION_FENS.len() as u8 {
        for side in [0, 0x80] {
            let first = fen | side;
            let pos = notation_position(first);
            let moves = legal(&pos);
            let step = (moves.len() / 3).max(1);
            for (k, &m) in moves.iter().step_by(step).take(3).enumerate() {
                for n in Notation::ALL {
                    let mut seed = vec![first];
                    seed.extend_from_slice(print_move(&pos, m, n).as_bytes());
                    out.insert(format!("legal-{first:02x}-{}-{k}-{m}", n.name()), seed);
                }
            }
        }
    }
    // The tokens of the notation tables: real forms (traditional glyphs, full-width digits,
    // tandem pawns, ...) and wrong ones, on the start position (Black to move for `start_b`).
    let mut tokens = Vec::new();
    for file in [
        "tests/data/notation_cases.tsv",
        "tests/data/notation_errors.tsv",
    ] {
        for r in table(file) {
            let first = if r[0] == "start_b" { 0x80 } else { 0 };
            if !tokens.contains(&(first, r[2].clone())) {
                tokens.push((first, r[2].clone()));
            }
        }
    }
    for (k, (first, t)) in tokens.into_iter().enumerate() {
        let mut seed = vec![first];
        seed.extend_from_slice(t.as_bytes());
        out.insert(format!("table-{k:03}"), seed);
    }
    out
}

/// The records seeds: `ok-` ones are read without an error, `bad-` ones hold errors.
fn records_seeds() -> Corpus {
    let mut out = Corpus::new();
    let mut add = |name: &str, first: u8, bytes: &[u8]| {
        let mut seed = vec![first];
        seed.extend_from_slice(bytes);
        out.insert(name.to_owned(), seed);
    };
    let format_byte = |f: Format| {
        RECORD_FORMATS
            .iter()
            .position(|&x| x == Some(f))
            .expect("a format of the target") as u8
    };
    let mut samples: Vec<PathBuf> = std::fs::read_dir(root().join("pgn-samples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    samples.sort();
    for p in samples {
        let name = p.file_name().unwrap().to_str().unwrap().to_owned();
        let format = match p.extension().and_then(|e| e.to_str()) {
            Some("pgn") => Format::Pgn,
            Some("txt" | "html") => Format::Dhtmlxq,
            Some("xqf") => Format::Xqf,
            Some("cbr") => Format::Cbr,
            Some("cbf") => Format::Cbf,
            Some("wxf") => Format::Wxf,
            _ => continue,
        };
        let kind = if name.starts_with("illegal") {
            "bad"
        } else {
            "ok"
        };
        let bytes = read(&format!("pgn-samples/{name}"));
        add(
            &format!("{kind}-{}", name_part(&name)),
            format_byte(format),
            &bytes,
        );
        // The same record with its format detected.
        if matches!(
            name.as_str(),
            "annotated-chinese.pgn" | "annotated.dhtmlxq.txt"
        ) || format != Format::Pgn && format != Format::Dhtmlxq
        {
            add(&format!("{kind}-detected-{}", name_part(&name)), 0, &bytes);
        }
    }
    let cbr = read("pgn-samples/sample.cbr");
    let magic = b"CCBridge Record\0";
    assert!(cbr.starts_with(magic));
    // The target's ninth choice puts a library header and the CBR magic before the rest: one
    // record, then two.
    add("ok-cbl-wrapped-one", CBL_WRAPPED, &cbr[magic.len()..]);
    let mut two = cbr[magic.len()..].to_vec();
    two.extend_from_slice(&cbr);
    add("ok-cbl-wrapped-two", CBL_WRAPPED, &two);
    // A real library cut after its first slot of the index (an error: cut short).
    let cbl = read("tests/data/binary/ccbridge_cbl_cbr_cbf/1989年龙化杯象棋名师邀请赛35局.CBL");
    add("bad-cbl-cut", format_byte(Format::Cbl), &cbl[..4096]);
    add(
        "ok-xqf-hbsxcjp",
        format_byte(Format::Xqf),
        &read("tests/data/binary/xqf_hbsxcjp/chessManual/象棋杀着大全.xqf/02单马类/第11A局.XQF"),
    );
    // The records of issue 32: a DhtmlXQ text after the game with a leading space (and form
    // feed), and one with a line of U+3000 before a tag-like line, converted to PGN; a PGN game
    // whose text after the result has both.
    for (name, t) in [
        ("space", " x"),
        ("form-feed", "\u{c}x"),
        ("ideographic-space", "x\n\u{3000}\n[A"),
    ] {
        let rec = format!(
            "[DhtmlXQ]\n[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\n\
             [DhtmlXQ_trailing_text]{t}[/DhtmlXQ_trailing_text]\n[/DhtmlXQ]\n"
        );
        add(
            &format!("ok-issue32-dhtmlxq-{name}"),
            format_byte(Format::Dhtmlxq),
            rec.as_bytes(),
        );
    }
    add(
        "ok-issue32-pgn",
        format_byte(Format::Pgn),
        "1. h2e2 h9g7 *\n{\n\u{3000}\n[A\n \u{a0}x".as_bytes(),
    );
    out
}

/// A `rules` input playing `moves` from the target's position `fen`: the index of each move
/// among the legal moves, as the target picks them.
fn rules_input(fen: u8, moves: &[Move]) -> Vec<u8> {
    let mut pos = Position::from_fen(RULES_FENS[fen as usize]).unwrap();
    let mut seed = vec![fen];
    for &m in moves.iter().take(RULES_PLIES) {
        let k = legal(&pos)
            .iter()
            .position(|&x| x == m)
            .unwrap_or_else(|| panic!("{m} is legal"));
        seed.push(u8::try_from(k).expect("fewer than 256 legal moves"));
        pos.play_unchecked(m);
    }
    seed
}

fn rules_seeds() -> Corpus {
    let mut out = Corpus::new();
    // Openings of real games (from the start).
    let games = text("tests/data/rules/games.jsonl");
    for (k, line) in games.lines().step_by(4).enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["fen"].as_str() != Some(START_FEN) {
            continue;
        }
        let mut pos = Position::start();
        let mut moves = Vec::new();
        for t in v["moves"].as_str().unwrap().split(' ').take(RULES_PLIES) {
            let m = parse_move(&pos, t, Notation::Iccs).unwrap().mv;
            pos.play_unchecked(m);
            moves.push(m);
        }
        out.insert(format!("game-{k:02}"), rules_input(0, &moves));
    }
    // Repetition cycles from every position: a move of each side and back, four times over
    // (perpetual checks and chases among them), for moves spread over the legal ones.
    let back = |pos: &Position, m: Move| {
        legal(pos)
            .into_iter()
            .find(|r| r.from == m.to && r.to == m.from)
    };
    for fen in 0..RULES_FENS.len() as u8 {
        let start = Position::from_fen(RULES_FENS[fen as usize]).unwrap();
        let firsts = legal(&start);
        let mut cycles = 0;
        // (Quiet moves only: after a capture the position never comes back.)
        let quiet = |pos: &Position, m: Move| pos.piece_at(m.to).is_none();
        for &a in firsts.iter().step_by((firsts.len() / 8).max(1)) {
            if !quiet(&start, a) {
                continue;
            }
            let mut p = start;
            p.play_unchecked(a);
            for b in legal(&p).into_iter().filter(|&b| quiet(&p, b)) {
                let mut q = p;
                q.play_unchecked(b);
                let Some(a_back) = back(&q, a) else {
                    continue;
                };
                let mut r = q;
                r.play_unchecked(a_back);
                let Some(b_back) = back(&r, b) else {
                    continue;
                };
                let moves: Vec<Move> = [a, b, a_back, b_back].repeat(4);
                out.insert(format!("cycle-{fen}-{a}-{b}"), rules_input(fen, &moves));
                cycles += 1;
                break;
            }
            if cycles == 5 {
                break;
            }
        }
    }
    out
}

/// The dictionary: the notation's glyphs and signs, the tags and the markers of the formats, the
/// FEN's usual fields.
fn dictionary() -> String {
    let mut words: Vec<&str> = Vec::new();
    // Chinese notation: pieces (both sides, simplified and traditional), directions, positions,
    // numerals and full-width digits and signs.
    words.extend(
        "帅 帥 将 將 仕 士 相 象 马 馬 傌 碼 码 车 車 俥 砗 硨 炮 砲 包 兵 卒 进 進 退 平 前 中 后 後 \
         一 二 三 四 五 六 七 八 九 壹 贰 貳 叁 參 肆 伍 陆 陸 柒 捌 玖 \
         １ ２ ３ ４ ５ ６ ７ ８ ９ ＋ － ＝ ． 　"
            .split(' ')
            .filter(|w| !w.is_empty()),
    );
    words.push("\u{3000}");
    // WXF, ICCS and SAN.
    words.extend([
        "R", "H", "N", "E", "B", "A", "K", "C", "P", "+", "-", "=", ".", "a0", "i9",
    ]);
    words.extend([
        "h2e2", "h2-e2", "C2=5", "H8+7", "+P", "-R", "x", "#", "10", "Che3", "exe5",
    ]);
    // PGN.
    words.extend([
        "[Event \"",
        "[FEN \"",
        "[Format \"",
        "[Result \"",
        "\"]\n",
        "Chinese",
        "WXF",
        "ICCS",
        "SAN",
        "SAN-WinBoard",
        "1-0",
        "0-1",
        "1/2-1/2",
        "*",
        "1.",
        "1...",
        "{",
        "}",
        "(",
        ")",
        ";",
        "$1",
        "!?",
        "\n\n",
        "\r\n",
        "\u{feff}",
        "\u{a0}",
        "\u{c}",
    ]);
    // DhtmlXQ.
    words.extend([
        "[DhtmlXQ]",
        "[/DhtmlXQ]",
        "[DhtmlXQ_binit]",
        "[/DhtmlXQ_binit]",
        "[DhtmlXQ_movelist]",
        "[/DhtmlXQ_movelist]",
        "[DhtmlXQ_comment0]",
        "[/DhtmlXQ_comment0]",
        "[DhtmlXQ_move_0_1_1]",
        "[DhtmlXQ_result]",
        "[DhtmlXQ_trailing_text]",
        "[DhtmlXQ_title]",
        "||",
    ]);
    // Binary formats' magic.
    words.extend(["XQ", "CCBridge Record\0", "CCBridgeLibrary\0", "CCBridge"]);
    // FEN.
    words.extend([
        "rnbakabnr",
        "RNBAKABNR",
        "/9/",
        "1c5c1",
        "1C5C1",
        "p1p1p1p1p",
        "P1P1P1P1P",
        " w - - 0 1",
        " b - - 0 1",
        " r ",
    ]);
    let mut out = String::from(
        "# libFuzzer dictionary of Xiangqi notation and records (written by\n\
         # `cargo test --release --test fuzz_seeds -- --ignored`; see tests/fuzz_seeds.rs).\n",
    );
    for (k, w) in words.iter().enumerate() {
        if !w.is_ascii() || w.chars().any(|c| c.is_control()) {
            out.push_str(&format!("# {}\n", w.escape_debug()));
        }
        out.push_str(&format!("w{k}=\""));
        for b in w.bytes() {
            if b.is_ascii_graphic() && b != b'"' && b != b'\\' || b == b' ' {
                out.push(b as char);
            } else {
                out.push_str(&format!("\\x{b:02X}"));
            }
        }
        out.push_str("\"\n");
    }
    out
}

fn corpora() -> Vec<(&'static str, Corpus)> {
    vec![
        ("fen", fen_seeds()),
        ("notation", notation_seeds()),
        ("records", records_seeds()),
        ("rules", rules_seeds()),
    ]
}

fn seeds_dir(target: &str) -> PathBuf {
    root().join("fuzz/seeds").join(target)
}

/// Rewrites fuzz/seeds/ and fuzz/dict/xiangqi.dict.
#[test]
#[ignore = "writes fuzz/seeds and fuzz/dict: run with -- --ignored to rebuild them"]
fn write_fuzz_seeds() {
    for (target, corpus) in corpora() {
        let dir = seeds_dir(target);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, bytes) in &corpus {
            std::fs::write(dir.join(name), bytes).unwrap();
        }
        println!("{target}: {} seeds", corpus.len());
    }
    let dict = root().join("fuzz/dict");
    std::fs::create_dir_all(&dict).unwrap();
    std::fs::write(dict.join("xiangqi.dict"), dictionary()).unwrap();
}

/// The committed seeds of a target, by name.
fn committed(target: &str) -> Corpus {
    let mut out = Corpus::new();
    for e in std::fs::read_dir(seeds_dir(target)).unwrap_or_else(|e| panic!("{target}: {e}")) {
        let p = e.unwrap().path();
        out.insert(
            p.file_name().unwrap().to_str().unwrap().to_owned(),
            std::fs::read(&p).unwrap(),
        );
    }
    out
}

/// The positions and formats written here are the targets' own.
#[test]
fn seeds_follow_the_targets() {
    let src = |t: &str| text(&format!("fuzz/fuzz_targets/{t}.rs"));
    let (notation, rules, records) = (src("notation"), src("rules"), src("records"));
    for fen in &NOTATION_FENS[1..] {
        assert!(
            notation.contains(fen),
            "{fen} is not in the notation target"
        );
    }
    for fen in &RULES_FENS[1..] {
        assert!(rules.contains(fen), "{fen} is not in the rules target");
    }
    let formats: Vec<String> = RECORD_FORMATS
        .iter()
        .map(|f| match f {
            None => "None,".to_owned(),
            Some(f) => format!("Some(Format::{f:?}),"),
        })
        .collect();
    let listed: Vec<&str> = records
        .lines()
        .map(str::trim)
        .skip_while(|l| !l.starts_with("const FORMATS"))
        .skip(1)
        .take_while(|l| !l.starts_with(']'))
        .collect();
    assert_eq!(listed, formats, "the records target's formats");
}

/// What is committed is what the targets need: every FEN reads, every legal-move seed reads
/// back as its move in its notation, every `ok-` record reads without an error, every `rules`
/// seed plays moves; small files, a few hundred in all; the dictionary is the generator's.
#[test]
fn committed_seeds_are_good_inputs() {
    let mut total = 0;
    for (target, corpus) in corpora() {
        let have = committed(target);
        assert!(
            have.len() >= corpus.len() / 2 && !have.is_empty(),
            "{target}: {} seeds committed, {} built: rebuild them (see tests/fuzz_seeds.rs)",
            have.len(),
            corpus.len()
        );
        total += have.len();
        for (name, bytes) in &have {
            assert!(bytes.len() <= 16 << 10, "{target}/{name} is large");
        }
    }
    assert!(total <= 500, "{total} seeds");
    for (name, bytes) in committed("fen") {
        let fen = std::str::from_utf8(&bytes).unwrap();
        Setup::from_fen(fen).unwrap_or_else(|e| panic!("fen/{name}: {e}"));
    }
    for (name, bytes) in committed("notation") {
        let Some(rest) = name.strip_prefix("legal-") else {
            continue;
        };
        // legal-<first byte>-<notation>-<k>-<ICCS move>
        let parts: Vec<&str> = rest.split('-').collect();
        let first = u8::from_str_radix(parts[0], 16).unwrap();
        assert_eq!(bytes[0], first, "{name}");
        let n = Notation::ALL
            .into_iter()
            .find(|n| n.name() == parts[1])
            .unwrap();
        let pos = notation_position(first);
        let t = std::str::from_utf8(&bytes[1..]).unwrap();
        let m = parse_move(&pos, t, n).unwrap_or_else(|e| panic!("notation/{name}: {e}"));
        assert_eq!(m.mv.to_string(), parts[3], "notation/{name}");
    }
    let mut formats = std::collections::BTreeSet::new();
    for (name, bytes) in committed("records") {
        if !name.starts_with("ok-") {
            continue;
        }
        let choice = bytes[0] as usize % (RECORD_FORMATS.len() + 1);
        let entries = if choice == RECORD_FORMATS.len() {
            let mut lib = b"CCBridgeLibrary\0".to_vec();
            lib.resize(66_624, 0);
            lib.extend_from_slice(b"CCBridge Record\0");
            lib.extend_from_slice(&bytes[1..]);
            record::read_bytes("seed", &lib, Some(Format::Cbl))
        } else {
            record::read_bytes("seed", &bytes[1..], RECORD_FORMATS[choice])
        };
        assert!(!entries.is_empty(), "records/{name}");
        for e in &entries {
            assert!(e.error.is_none(), "records/{name}: {:?}", e.error);
            formats.insert(format!("{:?}", e.format));
        }
    }
    assert_eq!(formats.len(), 7, "every format has a record: {formats:?}");
    for (name, bytes) in committed("rules") {
        assert!(
            (bytes[0] as usize) < RULES_FENS.len() && bytes.len() > 4,
            "rules/{name}"
        );
    }
    assert_eq!(
        text("fuzz/dict/xiangqi.dict"),
        dictionary(),
        "rebuild the dictionary"
    );
}
