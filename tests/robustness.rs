//! Robustness: bad input gets a clear error and a documented exit code (0/1/2), never a panic.

use std::process::{Command, Output, Stdio};
use xiangqi_arbiter::{Position, Setup, perft};

mod common;
use common::{stderr, stdout, xqa_output as xqa};

/// Asserts the exit code and that nothing panicked.
fn expect_code(o: &Output, code: i32, what: &str) {
    let err = stderr(o);
    assert!(!err.contains("panicked"), "{what}: panic: {err}");
    assert!(!err.contains("overflow"), "{what}: overflow: {err}");
    assert_eq!(o.status.code(), Some(code), "{what}: stderr {err}");
}

/// A fresh scratch directory for one test, removed when the guard is dropped (even by a
/// failing test).
fn scratch(name: &str) -> common::Scratch {
    common::Scratch::new(&format!("robustness-{name}"))
}

/// Pseudo-random junk bytes (no magic of any format).
fn junk(n: usize) -> Vec<u8> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

#[test]
fn closed_stdout_is_not_a_panic() {
    for args in [
        &["show"][..],
        &["moves"],
        &["perft", "2", "--divide"],
        &["adjudicate", "--moves", "h2e2 h9g7"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xqa"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the reading end before the program writes anything.
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        expect_code(&o, 0, &format!("{args:?} | (closed)"));
    }
}

#[test]
fn perft_depth_limits() {
    let o = xqa(&["perft", "4294967295", "--threads", "0"]);
    expect_code(&o, 2, "perft huge depth");
    assert!(stderr(&o).contains("too deep"), "{}", stderr(&o));

    let o = xqa(&["perft", "2", "--threads", "100000"]);
    expect_code(&o, 2, "perft absurd thread count");
    assert!(stderr(&o).contains("--threads"), "{}", stderr(&o));

    for threads in ["0", "1", "2"] {
        let o = xqa(&["perft", "0", "--divide", "--threads", threads]);
        expect_code(&o, 0, "perft 0 --divide");
        assert!(stdout(&o).starts_with("depth 0: 1 nodes"), "{}", stdout(&o));
    }
}

#[test]
fn divide_at_depth_zero_is_empty() {
    let pos = Position::start();
    assert!(perft::divide(&pos, 0).is_empty());
    assert!(perft::divide_parallel(&pos, 0).is_empty());
    assert_eq!(perft::perft(&pos, 0), 1);
    assert_eq!(perft::divide(&pos, 1).len(), 44);
}

#[test]
fn huge_fen_error_is_short() {
    let fen = "9".repeat(100_000);
    for cmd in ["perft", "moves", "show"] {
        let args: Vec<&str> = match cmd {
            "perft" => vec!["perft", "1", "--fen", &fen],
            _ => vec![cmd, "--fen", &fen],
        };
        let o = xqa(&args);
        expect_code(&o, 1, cmd);
        assert!(stderr(&o).len() < 1000, "{cmd}: {} bytes", stderr(&o).len());
    }
}

#[test]
fn bad_fens_are_errors() {
    for fen in [
        "",
        "é",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR/9 w",
        "9/9/9/9/9/9/9/9/9/9 w",
        "4k4/9/9/9/9/9/9/9/9/4K4 w",
        "10/9/9/9/9/9/9/9/9/9 w",
        "4k4/9/9/9/9/9/9/9/9/3K5 w - - 99999999999999999999 1",
        "4k4/9/9/9/9/9/9/9/9/3K5 x",
        "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 0 extra",
        "4k4/9/9/9/9/9/9/9/9/3K5/ w",
        "4k4//9/9/9/9/9/9/9/3K5 w",
    ] {
        for cmd in ["moves", "show", "claim"] {
            let mut args = vec![cmd, "--fen", fen];
            if cmd == "claim" {
                args.extend(["--claimant", "red"]);
            }
            let o = xqa(&args);
            let code = o.status.code();
            assert!(
                code == Some(1) || code == Some(0),
                "{cmd} --fen {fen:?}: {code:?} {}",
                stderr(&o)
            );
            expect_code(&o, code.unwrap(), fen);
        }
    }
}

#[test]
fn junk_named_cbl_is_invalid_not_an_empty_library() {
    let dir = scratch("cbl");
    let junk_cbl = dir.join("junk.cbl");
    std::fs::write(&junk_cbl, junk(5000)).unwrap();
    let o = xqa(&["validate", junk_cbl.to_str().unwrap()]);
    expect_code(&o, 1, "validate junk.cbl");
    assert!(stdout(&o).contains("bad_header"), "{}", stdout(&o));
    let o = xqa(&["show", junk_cbl.to_str().unwrap()]);
    expect_code(&o, 1, "show junk.cbl");
    assert!(stderr(&o).contains("CBL"), "{}", stderr(&o));
}

#[test]
fn cbr_named_cbl_is_read_as_cbr() {
    let dir = scratch("cbr-as-cbl");
    let cbr = std::fs::read("tests/data/binary/ccbridge_cbl_cbr_cbf/test.cbr").unwrap();
    let as_cbl = dir.join("game.cbl");
    std::fs::write(&as_cbl, cbr).unwrap();
    let o = xqa(&["validate", as_cbl.to_str().unwrap()]);
    expect_code(&o, 0, "validate a CBR named .cbl");
}

#[test]
fn junk_and_empty_records_are_errors_not_panics() {
    let dir = scratch("junk");
    let mut files = Vec::new();
    for ext in ["pgn", "xqf", "cbl", "cbr", "cbf", "txt"] {
        for (name, bytes) in [
            ("junk", junk(3000)),
            ("tiny", junk(3)),
            ("empty", Vec::new()),
        ] {
            let p = dir.join(format!("{name}.{ext}"));
            std::fs::write(&p, bytes).unwrap();
            files.push(p);
        }
    }
    for f in &files {
        let path = f.to_str().unwrap();
        for args in [
            vec!["validate", path],
            vec!["convert", path],
            vec!["show", path],
            vec!["adjudicate", path],
            vec!["claim", path, "--claimant", "red"],
        ] {
            let o = xqa(&args);
            let code = o.status.code();
            // An empty PGN holds no games: validate/convert succeed, the others have no game 1.
            assert!(
                code == Some(0) || code == Some(1),
                "{args:?}: {code:?} {}",
                stderr(&o)
            );
            expect_code(&o, code.unwrap(), &format!("{args:?}"));
        }
    }
}

#[test]
fn out_of_range_game_and_ply() {
    let dir = scratch("range");
    let f = dir.join("ok.pgn");
    std::fs::write(&f, "[Event \"x\"]\n1. h2e2 h9g7 2. h0g2 *\n").unwrap();
    let f = f.to_str().unwrap();
    for args in [
        vec!["show", f, "--game", "0"],
        vec!["show", f, "--game", "999"],
        vec!["show", f, "--at", "4"],
        vec!["show", f, "--at", "4294967295"],
        vec!["adjudicate", f, "--game", "18446744073709551615"],
        vec![
            "claim",
            f,
            "--claimant",
            "red",
            "--at",
            "4294967295",
            "--svg",
            "/dev/null",
        ],
        vec![
            "claim",
            f,
            "--claimant",
            "red",
            "--from-claim",
            "4294967295",
        ],
    ] {
        // Out-of-range games and plies are usage errors (issue 13), naming the valid range.
        let o = xqa(&args);
        expect_code(&o, 2, &format!("{args:?}"));
        assert!(stderr(&o).contains(" takes "), "{args:?}: {}", stderr(&o));
    }
    expect_code(
        &xqa(&["claim", f, "--claimant", "red", "--limit", "0"]),
        1,
        "--limit 0",
    );
    expect_code(&xqa(&["show", f, "--at", "0"]), 0, "show --at 0");
}

/// Positions without kings (or with kings facing) are refused by `from_setup`, but an unchecked
/// position must still answer every question without panicking.
#[test]
fn unchecked_positions_without_kings_do_not_panic() {
    for fen in [
        "9/9/9/9/9/9/9/9/9/9 w - - 0 1",
        "9/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "4k4/9/9/9/9/9/9/9/9/9 w - - 0 1",
        "4k4/9/9/9/9/9/9/9/9/9 b - - 0 1",
        "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "9/9/9/9/9/9/9/9/4R4/9 w - - 0 1",
        "9/9/9/9/9/9/9/9/4r4/9 b - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR b - - 0 1",
        "ppppppppp/ppppppppp/ppppppppp/ppppppppp/ppppppppp/PPPPPPPPP/PPPPPPPPP/PPPPPPPPP/PPPPPPPPP/PPPPPPPPP w - - 0 1",
        "kkkkkkkkk/9/9/9/9/9/9/9/9/KKKKKKKKK w - - 0 1",
    ] {
        let setup = Setup::from_fen(fen).unwrap();
        let mut pos = Position::from_setup_unchecked(&setup);
        let _ = pos.is_check();
        let _ = pos.checkers();
        let _ = pos.is_checkmate();
        let _ = pos.is_stalemate();
        let _ = pos.has_legal_move();
        let _ = pos.count_legal();
        let _ = pos.fen();
        let _ = pos.key();
        let _ = xiangqi_arbiter::diagram::text(&pos.to_setup(), None);
        let moves = pos.legal_moves();
        assert_eq!(moves.len(), pos.count_legal(), "{fen}");
        let _ = perft::perft(&pos, 2);
        for m in moves {
            let before = pos;
            let undo = pos.play_unchecked(m);
            pos.undo(m, undo);
            assert_eq!(pos.fen(), before.fen(), "{fen} {m}");
            for n in [
                xiangqi_arbiter::Notation::Iccs,
                xiangqi_arbiter::Notation::Wxf,
                xiangqi_arbiter::Notation::Chinese,
            ] {
                let _ = xiangqi_arbiter::print_move(&pos, m, n);
            }
        }
        let _ = pos.null_move();
    }
}

#[test]
fn truncated_variation_and_stray_braces_are_errors_not_panics_or_hangs() {
    let dir = scratch("pgn-edges");
    let cases: &[(&str, &str, &str)] = &[
        (
            "cut.pgn",
            "[Event \"x\"]\n1. h2e2 (1... h9g7 2. ",
            "variation not closed",
        ),
        ("brace.pgn", "1. h2e2 } h9g7 *\n", "'}' without '{'"),
        (
            "braces.pgn",
            "1. h2e2 {{{ x }}} h9g7 *\n",
            "'}' without '{'",
        ),
    ];
    for (name, text, message) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let p = path.to_str().unwrap();
        for args in [
            vec!["validate", p],
            vec!["convert", p],
            vec!["adjudicate", p],
        ] {
            let o = xqa(&args);
            expect_code(&o, 1, &format!("{args:?}"));
            assert!(
                stderr(&o).contains(message) || stdout(&o).contains(message),
                "{args:?}: {}",
                stderr(&o)
            );
        }
    }
}

#[cfg(unix)]
#[test]
fn directory_symlink_loops_are_walked_once() {
    let dir = scratch("symlink-loop");
    let d = dir.join("d");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("g.pgn"), "1. h2e2 h9g7 *\n").unwrap();
    std::os::unix::fs::symlink("../d", d.join("loop")).unwrap();
    let o = xqa(&["validate", "--json", d.to_str().unwrap()]);
    expect_code(&o, 0, "validate loop");
    assert_eq!(stdout(&o).lines().count(), 1, "{}", stdout(&o));
}

#[test]
fn convert_of_a_missing_file_is_an_io_error() {
    let o = xqa(&["convert", "/no/such/file.pgn"]);
    expect_code(&o, 2, "convert missing");
}
