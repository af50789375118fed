//! Move notations: the tricky cases of FORMATS.md, error kinds, and print/parse round trips over
//! thousands of positions (random walks from the start and from positions full of tandem pieces).

use xiangqi_arbiter::notation::{
    self, Notation, ParseOptions, chinese, iccs, parse_move_with, print_move, sniff,
};
use xiangqi_arbiter::{Color, Move, Piece, Position, Role, START_FEN, Setup, Square, parse_move};

fn position(fen: &str) -> Position {
    let fen = match fen {
        "start" => START_FEN.to_string(),
        "start_b" => START_FEN.replace(" w ", " b "),
        f => f.to_string(),
    };
    Position::from_fen(&fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e}"))
}

/// Rows of a tab-separated data file, without comments and blank lines.
fn rows(data: &str) -> Vec<Vec<&str>> {
    data.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').collect())
        .collect()
}

fn options(s: Option<&&str>) -> ParseOptions {
    let mut o = ParseOptions::default();
    if let Some(s) = s {
        for w in s.split(',') {
            match w.trim() {
                "xqbase" => o.xqbase_tandem = true,
                "one_based" => o.iccs_one_based = true,
                "" => {}
                other => panic!("unknown option {other}"),
            }
        }
    }
    o
}

#[test]
fn tricky_cases_of_formats_md() {
    let data = include_str!("data/notation_cases.tsv");
    let mut n = 0;
    for row in rows(data) {
        let (fen, nota, text, expected) = (row[0], row[1], row[2], row[3]);
        let pos = position(fen);
        let notation: Notation = nota.parse().unwrap();
        let got = parse_move_with(&pos, text, notation, &options(row.get(4)));
        if let Some(kind) = expected.strip_prefix('!') {
            match got {
                Ok(p) => panic!("{fen} {text}: expected {kind}, got {}", p.mv),
                Err(e) => assert_eq!(e.kind(), kind, "{fen} {text}: {e}"),
            }
        } else {
            let (mv, by_legality) = match expected.strip_suffix('~') {
                Some(m) => (m, true),
                None => (expected, false),
            };
            let p = got.unwrap_or_else(|e| panic!("{fen} {text}: expected {mv}, got {e}"));
            assert_eq!(p.mv.to_string(), mv, "{fen} {text}");
            assert_eq!(p.resolved_by_legality, by_legality, "{fen} {text}");
        }
        n += 1;
    }
    assert!(n >= 85, "only {n} cases");
}

#[test]
fn error_kinds_and_suggestions() {
    let data = include_str!("data/notation_errors.tsv");
    for row in rows(data) {
        let (fen, nota, text, kind) = (row[0], row[1], row[2], row[3]);
        let pos = position(fen);
        let notation: Notation = nota.parse().unwrap();
        let e = match parse_move(&pos, text, notation) {
            Ok(p) => panic!("{fen} {text}: expected {kind}, got {}", p.mv),
            Err(e) => e,
        };
        assert_eq!(e.kind(), kind, "{fen} {text}: {e}");
        assert!(!e.message().is_empty());
        assert_eq!(e.text(), text);
        for s in e.suggestions() {
            // Every suggestion is a legal move in the same notation.
            let p = parse_move(&pos, &s, notation)
                .unwrap_or_else(|err| panic!("{text}: suggestion {s} does not parse: {err}"));
            assert!(pos.is_legal(p.mv));
        }
        if let Some(want) = row.get(4) {
            assert!(
                e.suggestions().iter().any(|s| s == want),
                "{fen} {text}: suggestions {:?} lack {want} ({e})",
                e.suggestions()
            );
        }
    }
}

#[test]
fn messages_say_why() {
    let cases: &[(&str, &str, &str)] = &[
        ("start", "马二进四", "leg on g0"),
        ("2bk5/9/9/9/9/9/9/9/3N5/2B1K4 w", "相七进五", "eye on d1"),
        (
            "2b1k4/9/9/9/9/2B6/9/9/9/3K5 w",
            "相七进五",
            "cross the river",
        ),
        ("start", "仕四进三", "palace"),
        ("start", "车一进四", "blocked by the red pawn on i3"),
        ("start", "兵三平四", "before crossing the river"),
        ("4k4/9/9/9/9/9/9/9/4N4/4K4 w", "马五进四", "kings facing"),
        (
            "4k4/9/9/9/3r5/9/9/9/3R5/3K5 w",
            "车六平五",
            "attacked by the rook on d5",
        ),
        ("4k4/9/9/9/9/9/P8/9/9/3K1r3 w", "兵九进一", "does not parry"),
        ("start", "炮二进七x", "not a Chinese move"),
        (
            "3k5/9/9/9/9/9/9/4K4/9/9 w",
            "帅五进一",
            "cannot leave the palace",
        ),
        ("3k5/9/9/9/9/9/9/9/r8/C3K4 w", "炮九进一", "needs a screen"),
        (
            "3k5/9/9/9/9/9/9/9/r8/C3K4 w",
            "炮九进九",
            "blocked by the black rook on a1",
        ),
        ("start", "兵三进二", "one point at a time"),
    ];
    for (fen, text, needle) in cases {
        let e = parse_move(&position(fen), text, Notation::Chinese).unwrap_err();
        assert!(
            e.message().contains(needle),
            "{text}: '{}' lacks '{needle}'",
            e.message()
        );
    }
    // Ambiguity lists the candidates.
    let pos = position("5k3/9/9/9/9/9/4N4/9/4N4/3K5 w");
    let e = parse_move(&pos, "马五进七", Notation::Chinese).unwrap_err();
    let mut c: Vec<String> = e.candidates().iter().map(|m| m.to_string()).collect();
    c.sort();
    assert_eq!(c, ["e1c2", "e3c4"]);
    assert!(
        e.message().contains("e3c4") && e.message().contains("e1c2"),
        "{e}"
    );
}

// ------------------------------------------------------------------------------------------
// Round trips.

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Checks every legal move of `pos` in every notation and returns how many moves were checked.
fn round_trip(pos: &Position) -> usize {
    let moves = pos.legal_moves();
    let mut seen = std::collections::HashMap::new();
    for &m in &moves {
        for notation in Notation::ALL {
            let text = print_move(pos, m, notation);
            let sniffed = if notation.is_san() {
                Notation::San
            } else {
                notation
            };
            assert_eq!(sniff(&text), Some(sniffed), "{}: sniff {text}", pos.fen());
            let p = notation::parse_move(pos, &text, notation).unwrap_or_else(|e| {
                panic!(
                    "{}: {m} printed {text} in {notation} does not parse: {e}",
                    pos.fen()
                )
            });
            assert_eq!(p.mv, m, "{}: {text} in {notation}", pos.fen());
            assert!(!p.resolved_by_legality, "{}: {text}", pos.fen());
            // Distinct moves get distinct texts.
            if let Some(other) = seen.insert((notation, text.clone()), m) {
                panic!("{}: {other} and {m} both print {text}", pos.fen());
            }
        }
        // The dpxq convention and the 1-10 rank dialect read back too.
        let mut dp = String::new();
        chinese::write_dpxq(pos, m, &mut dp);
        let p = parse_move(pos, &dp, Notation::Chinese)
            .unwrap_or_else(|e| panic!("{}: dpxq {dp} for {m}: {e}", pos.fen()));
        assert_eq!(p.mv, m, "{}: dpxq {dp}", pos.fen());
        let one = iccs::format_one_based(m);
        let opts = ParseOptions {
            iccs_one_based: true,
            ..Default::default()
        };
        assert_eq!(
            parse_move_with(pos, &one, Notation::Iccs, &opts)
                .unwrap()
                .mv,
            m
        );
    }
    moves.len()
}

fn random_walk(mut pos: Position, rng: &mut Rng, plies: usize, checked: &mut usize) {
    for _ in 0..plies {
        *checked += round_trip(&pos);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.after(moves[rng.below(moves.len())]);
    }
}

#[test]
fn round_trip_random_walks_from_start() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    for _ in 0..60 {
        random_walk(Position::start(), &mut rng, 120, &mut checked);
    }
    assert!(checked > 100_000, "{checked}");
}

/// A random legal position full of tandem pieces: rooks, horses, cannons sharing files, pawns in
/// groups of 2-5 on one or two files, elephants and advisors sharing files.
fn tandem_position(rng: &mut Rng) -> Option<Position> {
    let mut setup = Setup::empty();
    let put = |setup: &mut Setup, sq: Option<Square>, piece: Piece| -> bool {
        match sq {
            Some(sq) if setup.piece_at(sq).is_none() => {
                setup.set(sq, Some(piece));
                true
            }
            _ => false,
        }
    };
    for color in Color::ALL {
        // Squares are chosen from Red's view and flipped for Black.
        let view = |f: i32, r: i32| {
            let sq = Square::from_xy(f, r)?;
            Some(if color == Color::Red { sq } else { sq.flip() })
        };
        let p = |role| Piece::new(color, role);
        let kings = [(3, 0), (4, 0), (5, 0), (3, 1), (4, 1), (3, 2), (5, 2)];
        let (kf, kr) = kings[rng.below(kings.len())];
        put(&mut setup, view(kf, kr), p(Role::King));
        if rng.below(2) == 0 {
            let f = [3, 5][rng.below(2)];
            put(&mut setup, view(f, 0), p(Role::Advisor));
            put(&mut setup, view(f, 2), p(Role::Advisor));
        }
        if rng.below(2) == 0 {
            let f = [2, 6][rng.below(2)];
            put(&mut setup, view(f, 0), p(Role::Elephant));
            put(&mut setup, view(f, 4), p(Role::Elephant));
        } else if rng.below(2) == 0 {
            put(&mut setup, view(0, 2), p(Role::Elephant));
            put(&mut setup, view(4, 2), p(Role::Elephant));
        }
        for role in [Role::Rook, Role::Horse, Role::Cannon] {
            match rng.below(3) {
                0 => {
                    let f = rng.below(9) as i32;
                    for _ in 0..2 {
                        put(&mut setup, view(f, rng.below(10) as i32), p(role));
                    }
                }
                1 => {
                    put(
                        &mut setup,
                        view(rng.below(9) as i32, rng.below(10) as i32),
                        p(role),
                    );
                }
                _ => {}
            }
        }
        // Pawns: groups on one or two files, mostly across the river so they can move sideways.
        let groups: &[&[usize]] = &[
            &[2],
            &[3],
            &[4],
            &[5],
            &[2, 2],
            &[3, 2],
            &[2, 1],
            &[2, 2, 1],
        ];
        let g = groups[rng.below(groups.len())];
        let mut files: Vec<i32> = (0..9).collect();
        for &count in g {
            let f = files.remove(rng.below(files.len()));
            let mut ranks: Vec<i32> = (3..10).collect();
            for _ in 0..count {
                let r = ranks.remove(rng.below(ranks.len()));
                put(&mut setup, view(f, r), p(Role::Pawn));
            }
        }
    }
    setup.turn = if rng.below(2) == 0 {
        Color::Red
    } else {
        Color::Black
    };
    Position::from_setup(setup).ok()
}

#[test]
fn round_trip_positions_full_of_tandem_pieces() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut checked = 0;
    let mut positions = 0;
    let mut tandem_pawn_files = 0;
    while positions < 1500 {
        let Some(pos) = tandem_position(&mut rng) else {
            continue;
        };
        positions += 1;
        // Count positions where the side to move has pawns on two tandem files.
        let us = pos.turn();
        let files = (0..9)
            .filter(|&f| {
                (0..10)
                    .filter(|&r| {
                        pos.piece_at(Square::from_xy(f, r).unwrap())
                            == Some(Piece::new(us, Role::Pawn))
                    })
                    .count()
                    >= 2
            })
            .count();
        if files >= 2 {
            tandem_pawn_files += 1;
        }
        random_walk(pos, &mut rng, 6, &mut checked);
    }
    assert!(checked > 50_000, "{checked}");
    assert!(tandem_pawn_files > 100, "{tandem_pawn_files}");
}

#[test]
fn printing_conventions() {
    let start = Position::start();
    let m = |s| Move::parse_iccs(s).unwrap();
    assert_eq!(print_move(&start, m("h2e2"), Notation::Chinese), "炮二平五");
    assert_eq!(print_move(&start, m("h2e2"), Notation::Wxf), "C2.5");
    assert_eq!(print_move(&start, m("h2e2"), Notation::Iccs), "h2e2");
    let b = start.after(m("h2e2"));
    assert_eq!(print_move(&b, m("h9g7"), Notation::Chinese), "马８进７");
    assert_eq!(print_move(&b, m("h9g7"), Notation::Wxf), "H8+7");
    let p = position("5k3/9/4P4/4P4/4P4/9/9/9/9/3K5 w");
    assert_eq!(print_move(&p, m("e6f6"), Notation::Chinese), "中兵平四");
    assert_eq!(print_move(&p, m("e6f6"), Notation::Wxf), "P5.4");
    let p = position("5k3/4P4/4P4/4P4/4P4/9/9/9/9/3K5 w");
    assert_eq!(print_move(&p, m("e8f8"), Notation::Wxf), "++.4");
    assert_eq!(print_move(&p, m("e7f7"), Notation::Wxf), "P+.4");
    assert_eq!(print_move(&p, m("e7f7"), Notation::Chinese), "二兵平四");
    let p = position("5k3/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w");
    assert_eq!(print_move(&p, m("g6f6"), Notation::Chinese), "一兵平四");
    assert_eq!(print_move(&p, m("c5b5"), Notation::Wxf), "7-.8");
    let mut s = String::new();
    chinese::write_dpxq(&p, m("c5b5"), &mut s);
    assert_eq!(s, "后七平八");
    let p = position("5k3/9/9/4R4/9/9/4R4/9/9/3K5 w");
    assert_eq!(print_move(&p, m("e3e1"), Notation::Chinese), "后车退二");
    assert_eq!(print_move(&p, m("e3e1"), Notation::Wxf), "R--2");
}

#[test]
fn sniffing() {
    assert_eq!(sniff("h2e2"), Some(Notation::Iccs));
    assert_eq!(sniff("H2-E2"), Some(Notation::Iccs));
    assert_eq!(sniff("h10g8"), Some(Notation::Iccs));
    assert_eq!(sniff("C2.5"), Some(Notation::Wxf));
    assert_eq!(sniff("Ｃ２＝５"), Some(Notation::Wxf));
    assert_eq!(sniff("+P+1"), Some(Notation::Wxf));
    assert_eq!(sniff("炮二平五"), Some(Notation::Chinese));
    assert_eq!(sniff("前九平八"), Some(Notation::Chinese));
    assert_eq!(sniff("1."), None);
    assert_eq!(sniff("1-0"), None);
    assert_eq!(sniff("{comment}"), None);
    assert_eq!(
        notation::sniff_iccs_ranks("h10g8"),
        Some(notation::IccsRanks::OneBased)
    );
    assert_eq!(
        notation::sniff_iccs_ranks("h0g2"),
        Some(notation::IccsRanks::ZeroBased)
    );
    assert_eq!(notation::sniff_iccs_ranks("h2e2"), None);
}

#[test]
fn notation_names() {
    for n in Notation::ALL {
        assert_eq!(n.to_string().parse::<Notation>().unwrap(), n);
        assert_eq!(
            serde_json::to_string(&n).unwrap(),
            format!("\"{}\"", n.name())
        );
    }
    assert!("klingon".parse::<Notation>().is_err());
}

/// CPU time of the current thread in nanoseconds (Linux), for timing on a busy machine.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Parse throughput on real-looking input: every move of random games, in ICCS and Chinese.
/// Prints moves per second; the assertion is loose because the machine is shared.
#[test]
fn parse_throughput() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    type Game = (Position, Vec<(String, String, Move)>);
    let mut games: Vec<Game> = Vec::new();
    for _ in 0..200 {
        let start = Position::start();
        let mut pos = start;
        let mut moves = Vec::new();
        for _ in 0..150 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len())];
            moves.push((
                print_move(&pos, m, Notation::Iccs),
                print_move(&pos, m, Notation::Chinese),
                m,
            ));
            pos = pos.after(m);
        }
        games.push((start, moves));
    }
    let total: usize = games.iter().map(|g| g.1.len()).sum();
    for (name, pick) in [("iccs", 0usize), ("chinese", 1)] {
        let notation = if pick == 0 {
            Notation::Iccs
        } else {
            Notation::Chinese
        };
        let t = std::time::Instant::now();
        let cpu0 = thread_cpu_ns();
        let rounds = 5;
        for _ in 0..rounds {
            for (start, moves) in &games {
                let mut pos = *start;
                for (a, b, m) in moves {
                    let text = if pick == 0 { a } else { b };
                    let p = parse_move(&pos, text, notation).unwrap();
                    assert_eq!(p.mv, *m);
                    pos.play_unchecked(p.mv);
                }
            }
        }
        let wall = t.elapsed().as_secs_f64();
        // CPU time of this thread when the OS reports it (the machine may be shared), else wall time.
        let secs = match (cpu0, thread_cpu_ns()) {
            (Some(a), Some(b)) if b > a => (b - a) as f64 / 1e9,
            _ => wall,
        };
        let rate = (total * rounds) as f64 / secs;
        println!(
            "{name}: {:.2} M validated moves/s per core ({:.2} M/s wall clock)",
            rate / 1e6,
            (total * rounds) as f64 / wall / 1e6
        );
        assert!(rate > 100_000.0, "{name}: {rate}");
    }
}

/// Every move token of 294 real records (CCPD Big5 Chinese, xqbase GBK Chinese, wxf.ca full-width
/// WXF, ICCS) resolves to the reference move.
#[test]
fn real_records_resolve_to_reference_moves() {
    let data = include_str!("data/notation_real.txt");
    let (mut games, mut moves, mut by_legality) = (0, 0, 0);
    for row in rows(data) {
        let (source, fen, nota, pairs) = (row[0], row[1], row[2], row[3]);
        let notation: Notation = nota.parse().unwrap();
        let mut pos = position(fen);
        let words: Vec<&str> = pairs.split(' ').collect();
        for (ply, w) in words.chunks(2).enumerate() {
            let (tok, want) = (w[0], w[1]);
            let p = parse_move(&pos, tok, notation).unwrap_or_else(|e| {
                panic!(
                    "{source} ply {}: {tok} ({want}) in {}: {e}",
                    ply + 1,
                    pos.fen()
                )
            });
            assert_eq!(p.mv.to_string(), want, "{source} ply {}: {tok}", ply + 1);
            by_legality += p.resolved_by_legality as usize;
            pos = pos.after(p.mv);
            moves += 1;
        }
        games += 1;
    }
    assert!(
        games >= 290 && moves > 25_000,
        "{games} games, {moves} moves"
    );
    assert!(by_legality > 0, "no plain form resolved by legality");
    println!("{games} games, {moves} moves, {by_legality} resolved by legality");
}

/// Fairy-Stockfish's WXF names (committed data from pyffish) read back to the same moves, and
/// plain (non-tandem) moves print exactly as Fairy-Stockfish prints them, up to `=` for `.`.
#[test]
fn fairy_stockfish_wxf_names() {
    let data = include_str!("data/notation_ffish_wxf.txt");
    let (mut positions, mut moves, mut same_print) = (0, 0, 0);
    for row in rows(data) {
        let pos = position(row[0]);
        positions += 1;
        let words: Vec<&str> = row[1].split(' ').collect();
        for w in words.chunks(2) {
            let (want, name) = (w[0], w[1]);
            let p = parse_move(&pos, name, Notation::Wxf)
                .unwrap_or_else(|e| panic!("{}: {name} ({want}): {e}", pos.fen()));
            assert_eq!(p.mv.to_string(), want, "{}: {name}", pos.fen());
            let mine = print_move(&pos, p.mv, Notation::Wxf).replace('.', "=");
            let c: Vec<char> = name.chars().collect();
            let m: Vec<char> = mine.chars().collect();
            if c[0].is_ascii_uppercase() && c[1].is_ascii_digit() && m[1].is_ascii_digit() {
                assert_eq!(mine, name, "{}: {want}", pos.fen());
            }
            same_print += (mine == name) as usize;
            moves += 1;
        }
    }
    assert!(positions > 1000 && moves > 15_000, "{positions} {moves}");
    println!("{positions} positions, {moves} moves, {same_print} printed identically");
}

#[test]
fn syntax_errors_point_at_the_character() {
    let start = Position::start();
    let e = parse_move(&start, "炮二走五", Notation::Chinese).unwrap_err();
    assert!(e.message().contains("character 3 '走'"), "{e}");
    let e = parse_move(&start, "炮二平", Notation::Chinese).unwrap_err();
    assert!(e.message().contains("this has 3"), "{e}");
    let e = parse_move(&start, "C2x5", Notation::Wxf).unwrap_err();
    assert!(e.message().contains("character 3 'x'"), "{e}");
    // A token in another notation: said so, and the move offered in the expected notation.
    let e = parse_move(&start, "h2e2", Notation::Chinese).unwrap_err();
    assert_eq!(e.kind(), "syntax");
    assert!(e.message().contains("ICCS move h2e2"), "{e}");
    assert_eq!(e.suggestions(), ["炮二平五"]);
    let e = parse_move(&start, "炮二平五", Notation::Wxf).unwrap_err();
    assert_eq!(e.suggestions(), ["C2.5"]);
}

/// Random garbage made of notation characters never panics, in any notation.
#[test]
fn garbage_never_panics() {
    let alphabet: Vec<char> = "车馬炮兵卒相仕帅将前中后後一二三四五六七八九进退平1234567890１２３＋－＝．KAEHRCPBNabcdehi+-.=!? 　#"
        .chars()
        .collect();
    let positions = [
        Position::start(),
        position("5k3/4P4/4P4/4P4/4P4/9/9/9/9/3K5 w"),
        position("5k3/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w"),
        position("3k5/9/9/9/9/2p3p2/2p3p2/9/9/5K3 b"),
    ];
    let mut rng = Rng(0xABCD_EF01_2345_6789);
    let mut ok = 0;
    for i in 0..50_000 {
        let len = rng.below(7);
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        let pos = &positions[i % positions.len()];
        for notation in Notation::ALL {
            let opts = ParseOptions {
                xqbase_tandem: i % 2 == 0,
                iccs_one_based: i % 3 == 0,
            };
            match parse_move_with(pos, &text, notation, &opts) {
                Ok(p) => {
                    assert!(pos.is_legal(p.mv), "{text}: {}", p.mv);
                    ok += 1;
                }
                Err(e) => {
                    assert!(!e.message().is_empty());
                    for s in e.suggestions() {
                        assert!(parse_move(pos, &s, notation).is_ok(), "{text} -> {s}");
                    }
                }
            }
        }
        let _ = sniff(&text);
    }
    assert!(ok > 0);
}

#[test]
fn xqa_moves_command() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_xqa"))
            .args(args)
            .output()
            .expect("run xqa");
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (code, out, _) = run(&["moves", "--notation", "chinese", "--json"]);
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["count"], 44);
    assert_eq!(v["notation"], "chinese");
    assert!(
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["iccs"] == "h2e2" && m["text"] == "炮二平五")
    );
    let (code, out, _) = run(&[
        "moves",
        "--fen",
        "5k3/4P4/4P4/4P4/4P4/9/9/9/9/3K5 w",
        "--notation",
        "wxf",
    ]);
    assert_eq!(code, Some(0));
    assert!(out.contains("++.4\te8f8"), "{out}");
    assert!(out.contains("legal moves for red"), "{out}");
    let (code, out, _) = run(&["moves"]);
    assert_eq!(code, Some(0));
    assert_eq!(out.lines().count(), 45);
    let (code, _, err) = run(&["moves", "--fen", "9/9/9 w"]);
    assert_eq!(code, Some(1), "{err}");
    let (code, _, _) = run(&["moves", "--notation", "klingon"]);
    assert_eq!(code, Some(2));
}

#[test]
fn errors_serialize_to_json() {
    let pos = position("5k3/9/9/9/9/9/4N4/9/4N4/3K5 w");
    let e = parse_move(&pos, "马五进七", Notation::Chinese).unwrap_err();
    let v = serde_json::to_value(&e).unwrap();
    assert_eq!(v["kind"], "ambiguous");
    assert_eq!(v["text"], "马五进七");
    assert_eq!(v["notation"], "chinese");
    assert_eq!(v["candidates"].as_array().unwrap().len(), 2);
    assert_eq!(v["suggestions"][0], "前马进七");
    // Older WXF software letters: G/S advisor, M elephant.
    let start = Position::start();
    assert_eq!(
        parse_move(&start, "M3+5", Notation::Wxf)
            .unwrap()
            .mv
            .to_string(),
        "g0e2"
    );
    assert_eq!(
        parse_move(&start, "G4+5", Notation::Wxf)
            .unwrap()
            .mv
            .to_string(),
        "f0e1"
    );
}

/// The writers reproduce real records: xqbase-written PGNs and wxf.ca/ICCS tokens exactly, CCPD
/// (Big5) tokens up to glyph variants, except where CCPD leaves out 前/后 (flagged when read).
#[test]
fn printing_reproduces_real_records() {
    let data = include_str!("data/notation_real.txt");
    let (mut same, mut minimal) = (0, 0);
    for row in rows(data) {
        let (source, fen, nota, pairs) = (row[0], row[1], row[2], row[3]);
        let notation: Notation = nota.parse().unwrap();
        let mut pos = position(fen);
        let words: Vec<&str> = pairs.split(' ').collect();
        for w in words.chunks(2) {
            let p = parse_move(&pos, w[0], notation).unwrap();
            let mine = print_move(&pos, p.mv, notation);
            let mut norm: String = w[0]
                .chars()
                .map(|c| match c {
                    '車' | '俥' => '车',
                    '馬' | '傌' => '马',
                    '砲' | '包' => '炮',
                    '帥' => '帅',
                    '將' => '将',
                    '進' => '进',
                    '後' => '后',
                    c => c,
                })
                .collect();
            if notation == Notation::Wxf {
                // wxf.ca writes full width, '=' for sideways moves and the tandem sign first.
                let mut c: Vec<char> = norm
                    .chars()
                    .map(|c| match c as u32 {
                        0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFEE0).unwrap(),
                        _ => c,
                    })
                    .map(|c| if c == '=' { '.' } else { c })
                    .collect();
                if matches!(c[0], '+' | '-') && c[1].is_ascii_alphabetic() {
                    c.swap(0, 1);
                }
                norm = c.into_iter().collect();
            }
            if pos.turn() == Color::Black {
                for (r, b) in [("帅", "将"), ("仕", "士"), ("相", "象"), ("兵", "卒")] {
                    norm = norm.replace(r, b);
                }
            }
            if mine == norm {
                same += 1;
            } else {
                assert!(
                    source.starts_with("ccpd") && p.resolved_by_legality,
                    "{source}: {} printed {mine}",
                    w[0]
                );
                minimal += 1;
            }
            pos = pos.after(p.mv);
        }
    }
    assert!(same > 30_000, "{same}");
    println!("{same} identical, {minimal} CCPD minimal disambiguations");
}

/// `check_move` agrees with the move generator on every pseudo-legal and random square pair, and
/// explains every rejection.
#[test]
fn check_move_agrees_with_movegen() {
    let mut rng = Rng(0x5555_AAAA_1234_4321);
    let mut pos = Position::start();
    for ply in 0..3000 {
        let legal = pos.legal_moves();
        if legal.is_empty() || ply % 150 == 0 {
            pos = Position::start();
            continue;
        }
        for m in pos.pseudo_legal_moves().into_iter().chain((0..40).map(|_| {
            Move::new(
                Square::from_index(rng.below(90)),
                Square::from_index(rng.below(90)),
            )
        })) {
            let ok = notation::check_move(&pos, m);
            assert_eq!(ok.is_ok(), legal.contains(&m), "{} {m}", pos.fen());
            assert_eq!(notation::is_legal_move(&pos, m), legal.contains(&m));
            if let Err(e) = ok {
                assert!(!e.message().is_empty() && e.kind() != "syntax");
            }
        }
        pos = pos.after(legal[rng.below(legal.len())]);
    }
}

/// Printed moves with one character replaced (near misses): never a panic, an accepted move is
/// legal, every suggestion is a legal move, and most near misses get a suggestion.
#[test]
fn near_misses_get_legal_suggestions() {
    let alphabet: Vec<char> = "车马炮兵卒相仕帅将前中后一二三四五六七八九进退平１２３４５６７８９KAEHRCP123456789+-.abcdefghi0"
        .chars()
        .collect();
    let mut rng = Rng(0x0F0F_1234_ABCD_9876);
    let (mut errors, mut with_suggestion) = (0, 0);
    for walk in 0..40 {
        let mut pos = if walk % 2 == 0 {
            Position::start()
        } else {
            loop {
                if let Some(p) = tandem_position(&mut rng) {
                    break p;
                }
            }
        };
        for _ in 0..30 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            for &m in legal.iter().take(12) {
                for notation in Notation::ALL {
                    let mut chars: Vec<char> = print_move(&pos, m, notation).chars().collect();
                    let i = rng.below(chars.len());
                    chars[i] = alphabet[rng.below(alphabet.len())];
                    let text: String = chars.into_iter().collect();
                    match parse_move(&pos, &text, notation) {
                        Ok(p) => assert!(legal.contains(&p.mv), "{text}"),
                        Err(e) => {
                            errors += 1;
                            let s = e.suggestions();
                            with_suggestion += !s.is_empty() as usize;
                            for t in s {
                                let p = parse_move(&pos, &t, notation).unwrap_or_else(|err| {
                                    panic!("{}: {text} suggests {t}: {err}", pos.fen())
                                });
                                assert!(legal.contains(&p.mv));
                            }
                        }
                    }
                }
            }
            pos = pos.after(legal[rng.below(legal.len())]);
        }
    }
    assert!(errors > 1000, "{errors}");
    println!("{with_suggestion} of {errors} near misses got suggestions");
    assert!(
        with_suggestion * 10 > errors * 9,
        "{with_suggestion} of {errors}"
    );
}

/// Fairy-Stockfish (the engine of pychess.org) SAN on 300 random games: we print exactly its SAN
/// (ranks 1-10) and read every token back to the same move; the WinBoard dialect (ranks 0-9, bare
/// pawns) reads back too, and its tokens tell the rank base.
#[test]
fn san_agrees_with_fairy_stockfish() {
    use notation::san::{self, RankBase};
    let data = include_str!("data/san/fsf_random_games.tsv");
    let mut checked = 0;
    for (g, line) in data.lines().enumerate() {
        let (uci, sans) = line.split_once('\t').unwrap();
        let mut pos = Position::start();
        let mut winboard = Vec::new();
        for (u, s) in uci.split(' ').zip(sans.split(' ')) {
            let opts = ParseOptions {
                iccs_one_based: true,
                ..Default::default()
            };
            let m = parse_move_with(&pos, u, Notation::Iccs, &opts).unwrap().mv;
            assert_eq!(print_move(&pos, m, Notation::San), s, "game {g}: {u}");
            assert_eq!(
                parse_move(&pos, s, Notation::San).unwrap().mv,
                m,
                "game {g}: {s}"
            );
            let w = print_move(&pos, m, Notation::SanWinboard);
            assert_eq!(
                parse_move(&pos, &w, Notation::SanWinboard).unwrap().mv,
                m,
                "game {g}: {w}"
            );
            winboard.push(w);
            pos = pos.after(m);
            checked += 1;
        }
        let words: Vec<&str> = sans.split(' ').collect();
        let told = san::sniff_rank_base(words.iter().copied());
        assert_eq!(told, Some(RankBase::One), "game {g}");
        let told = san::sniff_rank_base(winboard.iter().map(String::as_str));
        assert_eq!(told, Some(RankBase::Zero), "game {g}");
    }
    assert!(checked > 15_000, "{checked}");
}

#[test]
fn san_tokens_and_errors() {
    let start = Position::start();
    let mv = |t: &str, n: Notation| parse_move(&start, t, n).map(|p| p.mv.to_string());
    // The examples of the two ecosystems.
    assert_eq!(mv("Che3", Notation::San).unwrap(), "h2e2");
    assert_eq!(mv("Cbe3", Notation::San).unwrap(), "b2e2");
    assert_eq!(mv("Cbe2", Notation::SanWinboard).unwrap(), "b2e2");
    assert_eq!(mv("Pc5", Notation::San).unwrap(), "c3c4");
    assert_eq!(mv("c4", Notation::SanWinboard).unwrap(), "c3c4");
    assert_eq!(mv("Hc3", Notation::San).unwrap(), "b0c2");
    assert_eq!(mv("Nc2", Notation::SanWinboard).unwrap(), "b0c2");
    assert_eq!(mv("Cxh10", Notation::San).unwrap(), "h2h9");
    assert_eq!(mv("Chxh9+", Notation::SanWinboard).unwrap(), "h2h9");
    assert_eq!(mv("Ｃｈｅ３", Notation::San).unwrap(), "h2e2");
    // Two cannons reach e3: the file is needed.
    let e = parse_move(&start, "Ce3", Notation::San).unwrap_err();
    assert_eq!(e.kind(), "ambiguous");
    assert_eq!(e.suggestions(), vec!["Cbe3", "Che3"]);
    // Wrong rank base, wrong side, no piece, illegal.
    assert_eq!(
        parse_move(&start, "Rb10", Notation::SanWinboard)
            .unwrap_err()
            .kind(),
        "syntax"
    );
    assert_eq!(
        parse_move(&start, "Hc8", Notation::San).unwrap_err().kind(),
        "wrong_side"
    );
    assert_eq!(
        parse_move(&start, "Ra5", Notation::San).unwrap_err().kind(),
        "illegal_movement"
    );
    assert!(parse_move(&start, "Qe2", Notation::San).is_err());
    // Sniffing: SAN tokens, not ICCS ones.
    assert_eq!(sniff("Che3"), Some(Notation::San));
    assert_eq!(sniff("exe5"), Some(Notation::San));
    assert_eq!(sniff("Rxb9"), Some(Notation::San));
    assert_eq!(sniff("h2e2"), Some(Notation::Iccs));
    assert_eq!(sniff("C2.5"), Some(Notation::Wxf));
}
