//! Hostile input and resource bounds (issue 12): nothing hangs, nothing eats the machine, every
//! error says where. Every input is built by the test itself (FIFOs with `mkfifo`, symbolic links
//! to `/dev/zero`, generated files, an endless game fed on standard input by the test).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use xiangqi_arbiter::record::{self, Format, dhtmlxq, pgn, read_bytes};

mod common;
use common::{Scratch, xqa_cmd, xqa_fed};

/// A scratch directory, removed when the returned guard is dropped (even by a failing test).
fn tmp(name: &str) -> Scratch {
    Scratch::new(&format!("hostile-{name}"))
}

/// Waits for a child at most `limit`, killing it when it takes longer (a hang fails the test
/// instead of blocking it). Returns the exit code and the peak resident memory seen, in KiB.
fn wait_bounded(mut child: Child, limit: Duration) -> (Option<i32>, u64) {
    let start = Instant::now();
    let mut peak = 0;
    loop {
        peak = peak.max(peak_rss_kib(child.id()));
        if let Some(status) = child.try_wait().unwrap() {
            return (status.code(), peak);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the command did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The peak resident set (VmHWM) of a running process, in KiB (0 when it is gone).
fn peak_rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

/// Runs xqa to the end (at most a minute): exit code, stdout, stderr, peak memory in KiB.
fn run(args: &[&str]) -> (i32, String, String, u64) {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let scratch = tmp(&format!("out{n}"));
    let out_path = scratch.join("o");
    let err_path = out_path.with_extension("e");
    let child = xqa_cmd(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let (code, peak) = wait_bounded(child, Duration::from_secs(60));
    let out = std::fs::read_to_string(&out_path).unwrap();
    let err = std::fs::read_to_string(&err_path).unwrap();
    (code.unwrap_or(-1), out, err, peak)
}

/// Tests that time themselves or load the machine run one at a time: a timing taken while
/// another test of this file reads 200 MB is noise.
static HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn heavy() -> std::sync::MutexGuard<'static, ()> {
    HEAVY.lock().unwrap_or_else(|e| e.into_inner())
}

const GAME: &str = "[Event \"t\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n";

fn mkfifo(p: &Path) {
    let ok = Command::new("mkfifo").arg(p).status().unwrap().success();
    assert!(ok, "mkfifo {}", p.display());
}

// ---------------------------------------------------------------------------------------------
// 1. Directory walks take regular files only; content decides the format.
// ---------------------------------------------------------------------------------------------

#[test]
fn walks_skip_fifos_and_devices_and_sniff_by_content() {
    let d = tmp("walk");
    std::fs::write(d.join("a.pgn"), GAME).unwrap();
    // Records whose names say nothing: read by their content.
    std::fs::write(d.join("noext"), GAME).unwrap();
    std::fs::write(d.join("b.pgns"), GAME).unwrap();
    std::fs::write(
        d.join("c.dpxq"),
        "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]",
    )
    .unwrap();
    std::fs::write(d.join("notes.md"), "# hello\nnothing to see\n").unwrap();
    mkfifo(&d.join("pipe.pgn"));
    std::os::unix::fs::symlink("/dev/zero", d.join("zero.pgn")).unwrap();

    for cmd in ["validate", "screen", "convert"] {
        let (code, out, err, peak) = run(&[cmd, d.to_str().unwrap()]);
        let all = format!("{out}{err}");
        assert!(code == 0 || code == 1, "{cmd}: exit {code}\n{all}");
        assert!(peak < 500 * 1024, "{cmd}: {peak} KiB");
        if cmd != "screen" {
            assert!(
                all.contains("pipe.pgn") && all.contains("FIFO"),
                "{cmd}: {all}"
            );
            assert!(
                all.contains("zero.pgn") && all.contains("character device"),
                "{cmd}: {all}"
            );
            assert!(all.contains("notes.md"), "{cmd}: {all}");
        }
        if cmd == "validate" {
            assert_eq!(code, 0, "{all}");
            assert!(all.contains("4 games: 4 valid"), "{all}");
        }
    }
    // JSON: the skipped entries and the file that is no record are said, with their paths.
    let (_, out, _, _) = run(&["validate", "--json", d.to_str().unwrap()]);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.iter().any(|v| {
        v["source"]
            .as_str()
            .is_some_and(|s| s.ends_with("pipe.pgn"))
            && v["skipped"].is_string()
    }));
    assert!(lines.iter().any(|v| {
        v["source"]
            .as_str()
            .is_some_and(|s| s.ends_with("notes.md"))
            && v["not_a_record"].is_string()
    }));

    // Named directly, a FIFO or device is refused: exit 2, never a hang.
    for name in ["pipe.pgn", "zero.pgn"] {
        let p = d.join(name);
        for cmd in [
            vec!["validate", p.to_str().unwrap()],
            vec!["convert", p.to_str().unwrap()],
            vec!["screen", p.to_str().unwrap()],
            vec!["adjudicate", p.to_str().unwrap()],
            vec!["show", p.to_str().unwrap()],
        ] {
            let (code, out, err, _) = run(&cmd);
            assert_eq!(code, 2, "{cmd:?}: {out}{err}");
            assert!(err.contains("not a regular file") || out.contains("not a regular file"));
        }
    }
}

#[test]
fn a_run_that_reads_no_game_says_so() {
    let d = tmp("nogame");
    std::fs::write(d.join("readme.txt"), "hello\n").unwrap();
    std::fs::write(d.join("picture.png"), b"\x89PNG\r\n\x1a\n\0\0\0").unwrap();
    let (code, out, err, _) = run(&["validate", d.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("readme.txt: not a game record"), "{out}");
    assert!(out.contains("picture.png: not a game record"), "{out}");
    assert!(err.contains("no game read"), "{err}");
    let (code, _, err, _) = run(&["convert", d.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no game read"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// 2. DhtmlXQ reading is linear in the number of blocks.
// ---------------------------------------------------------------------------------------------

fn blocks(n: usize, sep: &str) -> Vec<u8> {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!(
            "[DhtmlXQ][DhtmlXQ_title]{i}[/DhtmlXQ_title][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]{sep}"
        ));
    }
    s.into_bytes()
}

fn time_read(bytes: &[u8], n: usize) -> f64 {
    let t = Instant::now();
    let games = read_bytes("x.txt", bytes, None);
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(games.len(), n);
    assert!(games.iter().all(|g| g.error.is_none()));
    assert_eq!(games[n - 1].game.tags[0].1, (n - 1).to_string());
    secs
}

#[test]
fn dhtmlxq_reading_is_linear_in_blocks() {
    let _heavy = heavy();
    for sep in ["\n", ""] {
        let small = blocks(10_000, sep);
        let large = blocks(100_000, sep);
        // Best of five: timings are noisy on a shared machine (other work only slows a run).
        let best = |b: &[u8], n| {
            (0..5)
                .map(|_| time_read(b, n))
                .fold(f64::INFINITY, f64::min)
        };
        let (t1, t2) = (best(&small, 10_000), best(&large, 100_000));
        // Ten times the blocks: linear reading takes about ten times as long, quadratic a
        // hundred. The bound sits between them with room for a loaded machine, where the large
        // input's cache misses cost more (a CI run under load measured 14.9x).
        assert!(
            t2 <= 30.0 * t1.max(0.01),
            "10,000 blocks {t1:.3} s, 100,000 blocks {t2:.3} s (separator {sep:?})"
        );
    }
    // A block on line 3 of a one-line-per-block file is located on line 3.
    let mut b = blocks(2, "\n");
    b.extend_from_slice(b"[DhtmlXQ][DhtmlXQ_movelist]7749[/DhtmlXQ_movelist][/DhtmlXQ]\n");
    let games = read_bytes("x.txt", &b, None);
    let e = games[2].error.as_ref().expect("illegal move");
    assert_eq!((e.game, e.line, e.column), (2, 3, 28), "{e}");
}

// ---------------------------------------------------------------------------------------------
// 3. One nesting limit: what convert writes, validate reads.
// ---------------------------------------------------------------------------------------------

/// A DhtmlXQ record whose branches nest `depth` deep (branch k replaces move 1 of branch k-1).
fn nested_dhtmlxq(depth: usize) -> String {
    let mut s = String::from("[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n");
    for k in 1..=depth {
        let mv = if k % 2 == 1 { "1927" } else { "7747" };
        s.push_str(&format!(
            "[DhtmlXQ_move_{}_1_{k}]{mv}[/DhtmlXQ_move_{}_1_{k}]\n",
            k - 1,
            k - 1
        ));
    }
    s.push_str("[/DhtmlXQ]\n");
    s
}

#[test]
fn nesting_limit_is_the_same_for_every_reader_and_writer() {
    // On a thread with rayon's default worker stack: the limit must fit it.
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let depth = record::MAX_NESTING;
            let g = dhtmlxq::read_str(&nested_dhtmlxq(depth), "n.txt").remove(0);
            assert!(
                g.error.is_none() && g.warnings.is_empty(),
                "{:?}",
                g.warnings
            );
            assert_eq!(g.game.main.total_variations(), depth);
            for notation in [
                record::Notation::Iccs,
                record::Notation::Wxf,
                record::Notation::Chinese,
            ] {
                let mut text = String::new();
                pgn::write_game(&g.game, notation, &mut text);
                let back = pgn::read_str(&text, "n.pgn").remove(0);
                assert!(back.error.is_none(), "{:?}", back.error);
                assert!(back.warnings.is_empty(), "{:?}", back.warnings);
                assert_eq!(back.game.main.total_variations(), depth);
            }
            let mut text = String::new();
            dhtmlxq::write_game(&g.game, &mut text);
            let back = dhtmlxq::read_str(&text, "n.txt").remove(0);
            assert_eq!(back.game.main.total_variations(), depth);

            // One deeper: the variation is cut, with where and the limit.
            let g = dhtmlxq::read_str(&nested_dhtmlxq(depth + 1), "n.txt").remove(0);
            assert!(g.error.is_none());
            let w = g
                .warnings
                .iter()
                .find(|w| w.message.contains("nested"))
                .expect("a nesting warning");
            assert!(w.line > 1 && w.message.contains(&depth.to_string()), "{w}");
            // The writers never write what the readers refuse.
            let mut text = String::new();
            pgn::write_game(&g.game, record::Notation::Iccs, &mut text);
            let back = pgn::read_str(&text, "n.pgn").remove(0);
            assert!(back.error.is_none(), "{:?}", back.error);

            // PGN one deeper than the limit: an error naming the limit.
            let mut s = String::from("1. h2e2 ");
            for _ in 0..=depth {
                s.push_str("(1. b0c2 ");
            }
            for _ in 0..=depth {
                s.push(')');
            }
            let e = pgn::read_str(&s, "d.pgn")
                .remove(0)
                .error
                .expect("too deep");
            assert!(e.message.contains(&depth.to_string()) && e.line == 1, "{e}");
        })
        .unwrap()
        .join()
        .unwrap();
}

// ---------------------------------------------------------------------------------------------
// 4. Error text is bounded.
// ---------------------------------------------------------------------------------------------

#[test]
fn a_junk_token_is_echoed_as_a_short_prefix() {
    let d = tmp("junk");
    let p = d.join("junk.pgn");
    let mut f = std::fs::File::create(&p).unwrap();
    f.write_all(b"[Event \"j\"]\n\n1. ").unwrap();
    f.write_all(&vec![b'x'; 20 << 20]).unwrap();
    f.write_all(b"\n").unwrap();
    drop(f);
    let (code, out, err, peak) = run(&["validate", "--json", p.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(out.len() < 4096, "{} bytes of output", out.len());
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let t = v["error"]["move_text"].as_str().unwrap();
    assert!(t.ends_with(&format!("… ({} bytes)", 20 << 20)), "{t}");
    assert!(peak < 300 * 1024, "{peak} KiB");
    let (_, out, _, _) = run(&["validate", p.to_str().unwrap()]);
    assert!(out.len() < 4096, "{} bytes of output", out.len());
}

// ---------------------------------------------------------------------------------------------
// 5. Memory stays flat in file size; one game has a size cap.
// ---------------------------------------------------------------------------------------------

#[test]
fn one_game_of_a_million_is_read_in_flat_memory() {
    let _heavy = heavy();
    let d = tmp("million");
    let p = d.join("m.pgn");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&p).unwrap());
    for i in 0..1_000_000 {
        writeln!(f, "[Round \"{i}\"]\n1. h2e2 h9g7 *\n").unwrap();
    }
    f.flush().unwrap();
    drop(f);
    let path = p.to_str().unwrap();
    for cmd in ["show", "adjudicate"] {
        let (code, out, err, peak) = run(&[cmd, path, "--game", "1000000"]);
        assert_eq!(code, 0, "{cmd}: {out}{err}");
        assert!(peak < 100 * 1024, "{cmd}: {peak} KiB");
    }
    let (code, _, err, peak) = run(&["claim", path, "--game", "1000000", "--claimant", "red"]);
    assert!(code == 0 || code == 1, "{err}");
    assert!(peak < 100 * 1024, "claim: {peak} KiB");
    // A game past the end is a usage error (exit 2) naming the range.
    let (code, _, err, peak) = run(&["show", path, "--game", "1000001"]);
    assert_eq!(code, 2);
    assert!(err.contains("holds 1000000 games"), "{err}");
    assert!(peak < 100 * 1024, "{peak} KiB");
}

#[test]
fn an_endless_game_on_stdin_is_cut_at_the_cap() {
    let args = ["validate", "--json", "--max-game-bytes", "1000000", "-"];
    let (mut child, feeder) = xqa_fed(&args, Stdio::null(), |mut stdin| {
        // Tags, then moves without end (until the reader is killed): 50 MB at most.
        let _ = stdin.write_all(b"[Event \"endless\"]\n\n");
        let line = "1. h2e2 h9g7 2. e2h2 g7h9 ".repeat(40) + "\n";
        for _ in 0..50_000 {
            if stdin.write_all(line.as_bytes()).is_err() {
                return;
            }
        }
    });
    let mut stdout = child.stdout.take().unwrap();
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let mut byte = [0u8; 1];
        while stdout.read(&mut byte).map(|n| n == 1).unwrap_or(false) {
            if byte[0] == b'\n' {
                break;
            }
            buf.push(byte[0]);
        }
        let _ = tx.send(String::from_utf8_lossy(&buf).into_owned());
    });
    let first = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the capped game is reported while the input still flows");
    let peak = peak_rss_kib(pid);
    let _ = child.kill();
    let _ = child.wait();
    let _ = feeder.join();
    let v: serde_json::Value = serde_json::from_str(&first).unwrap();
    assert_eq!(v["error"]["kind"], "too_large", "{first}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("1000000"),
        "{first}"
    );
    assert!(peak < 100 * 1024, "{peak} KiB");
}

#[test]
fn a_game_over_a_cap_is_an_error_and_the_next_game_is_read() {
    let d = tmp("caps");
    let p = d.join("caps.pgn");
    let long = "1. h2e2 h9g7 2. e2h2 g7h9 ".repeat(100);
    let mut comment = String::from("{");
    comment.push_str(&"c".repeat(50_000));
    comment.push('}');
    std::fs::write(
        &p,
        format!(
            "[Event \"long\"]\n\n{long}*\n\n[Event \"comment\"]\n\n1. h2e2 {comment} *\n\n{GAME}"
        ),
    )
    .unwrap();
    let path = p.to_str().unwrap();
    let (code, out, _, _) = run(&["validate", "--json", "--max-game-bytes", "20000", path]);
    assert_eq!(code, 1);
    let v: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v.len(), 3, "{out}");
    assert_eq!(v[0]["ok"], true, "{out}");
    assert_eq!(v[1]["error"]["kind"], "too_large", "{out}");
    assert_eq!(v[1]["error"]["line"], 5, "{out}");
    assert_eq!(v[2]["ok"], true, "{out}");
    assert_eq!(v[2]["plies"], 4, "{out}");

    let (code, out, _, _) = run(&["validate", "--json", "--max-plies", "100", path]);
    assert_eq!(code, 1);
    let v: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v[0]["error"]["kind"], "too_large", "{out}");
    assert_eq!(v[0]["error"]["ply"], 101, "{out}");
    assert_eq!(
        (&v[1]["ok"], &v[2]["ok"]),
        (&true.into(), &true.into()),
        "{out}"
    );
    // Raised, the caps let the games through.
    let (code, _, err, _) = run(&["validate", "--max-plies", "0", path]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_cbl_library_is_read_record_by_record_and_a_truncated_one_is_an_error() {
    let lib =
        std::fs::read("tests/data/binary/ccbridge_cbl_cbr_cbf/1989年龙化杯象棋名师邀请赛35局.CBL")
            .unwrap();
    let whole = read_bytes("x.cbl", &lib, None);
    let good = whole.iter().filter(|g| g.error.is_none()).count();
    assert!(good >= 30, "{good}");
    // Every prefix of the library reads as an error or as some of its games, never as an empty
    // library that is fine.
    let mut k = 0;
    while k < lib.len() {
        let games = read_bytes("x.cbl", &lib[..k], None);
        let ok = games.iter().filter(|g| g.error.is_none()).count();
        assert!(
            ok > 0 || games.iter().any(|g| g.error.is_some()),
            "prefix of {k} bytes: an empty library"
        );
        if ok == 0 {
            let e = games.iter().find_map(|g| g.error.as_ref()).unwrap();
            assert!(e.offset.is_some(), "{e}");
        }
        k += 997;
    }
}

const CBL: &str = "tests/data/binary/ccbridge_cbl_cbr_cbf/1989年龙化杯象棋名师邀请赛35局.CBL";

/// A library of `n` records: the real library's header and index, then its records (one
/// 4,096-byte slot each) over and over. Returns the path and the number of valid games in it.
fn cbl_of(dir: &Path, name: &str, n: usize) -> (PathBuf, usize) {
    let lib = std::fs::read(CBL).unwrap();
    let slots = u32::from_le_bytes(lib[60..64].try_into().unwrap()) as usize;
    let first = 66_624 + 276 * slots;
    let records: Vec<&[u8]> = lib[first..].chunks(4096).collect();
    assert!(
        records
            .iter()
            .all(|r| r.starts_with(b"CCBridge Record\0") && r.len() == 4096)
    );
    let valid: Vec<bool> = read_bytes("x.cbl", &lib, None)
        .iter()
        .map(|g| g.error.is_none())
        .collect();
    assert_eq!(valid.len(), records.len());
    let p = dir.join(name);
    let mut f = std::io::BufWriter::new(std::fs::File::create(&p).unwrap());
    f.write_all(&lib[..first]).unwrap();
    for i in 0..n {
        f.write_all(records[i % records.len()]).unwrap();
    }
    f.flush().unwrap();
    let good = (0..n).filter(|i| valid[i % valid.len()]).count();
    (p, good)
}

#[test]
fn a_large_cbl_library_is_read_in_flat_memory_and_linear_time() {
    let _heavy = heavy();
    let d = tmp("cbl-large");
    // 50,000 records: a 205 MB library.
    let (big, big_good) = cbl_of(&d, "big.cbl", 50_000);
    let (small, small_good) = cbl_of(&d, "small.cbl", 5_000);
    let size = std::fs::metadata(&big).unwrap().len();
    assert!(size > 200_000_000, "{size}");
    let timed = |p: &Path| {
        let t = Instant::now();
        let r = run(&["validate", p.to_str().unwrap()]);
        (t.elapsed().as_secs_f64(), r)
    };
    let (t_big, (code, out, err, peak)) = timed(&big);
    assert_eq!(code, 1, "{err}"); // (the library holds headings and broken records)
    let summary = format!(
        "50000 games: {big_good} valid, {} invalid",
        50_000 - big_good
    );
    assert!(
        out.contains(&summary),
        "{summary}\n{}",
        &out[out.len() - 300..]
    );
    // A generous ceiling: the library was read whole before (over 200 MB here).
    assert!(
        peak < 60 * 1024,
        "validate of a {size}-byte library: {peak} KiB"
    );
    // Ten times the records take at most about ten times as long (best of two for the small).
    let t_small = (0..2)
        .map(|_| {
            let (t, (_, out, _, _)) = timed(&small);
            let summary = format!("5000 games: {small_good} valid");
            assert!(out.contains(&summary), "{summary}");
            t
        })
        .fold(f64::INFINITY, f64::min);
    assert!(
        t_big <= 15.0 * t_small.max(0.05),
        "5,000 records {t_small:.3} s, 50,000 records {t_big:.3} s"
    );
    // One game near the end of the library, streamed to it.
    let path = big.to_str().unwrap();
    let (code, out, err, peak) = run(&["show", path, "--game", "49999", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let lib = read_bytes("x.cbl", &std::fs::read(CBL).unwrap(), None);
    let want = &lib[49_998 % lib.len()];
    let tag = |k: &str| {
        want.game
            .tags
            .iter()
            .find(|t| t.0 == k)
            .map(|t| t.1.as_str())
    };
    assert_eq!(v["header"]["red"].as_str(), tag("Red"), "{out}");
    assert_eq!(v["header"]["black"].as_str(), tag("Black"), "{out}");
    assert_eq!(v["at"], want.plies(), "{out}");
    assert!(peak < 60 * 1024, "show --game 49999: {peak} KiB");
    let (code, _, err, peak) = run(&["convert", path, "-o", d.join("big.pgn").to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(peak < 60 * 1024, "convert: {peak} KiB");
}

/// `validate` of a library fed through a pipe (standard input, which cannot seek back).
fn validate_stdin(lib: &[u8]) -> (i32, String) {
    let lib = lib.to_vec();
    let (child, feeder) = xqa_fed(
        &["validate", "--json", "-"],
        Stdio::null(),
        move |mut stdin| {
            // (In small writes, so that the reader sees a stream.)
            for c in lib.chunks(1000) {
                if stdin.write_all(c).is_err() {
                    return;
                }
            }
        },
    );
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn a_cbl_library_streams_from_a_file_a_pipe_and_memory_alike() {
    let lib = std::fs::read(CBL).unwrap();
    let whole = read_bytes("x.cbl", &lib, None);
    let d = tmp("cbl-alike");
    let p = d.join("x.cbl");
    std::fs::write(&p, &lib).unwrap();
    // From the file system (the parallel driver and the one-at-a-time reader).
    let summary = |g: &record::GameEntry| {
        (
            g.index,
            g.game.tags.clone(),
            g.game.main_moves(),
            g.game.result,
            g.error.as_ref().map(|e| (e.kind.clone(), e.offset, e.ply)),
            g.warnings.len(),
        )
    };
    let mut streamed = Vec::new();
    record::for_each_game(&[record::Input::File(p.clone())], |g| streamed.push(g));
    assert_eq!(streamed.len(), whole.len());
    for (a, b) in whole.iter().zip(&streamed) {
        assert_eq!(summary(a), summary(b));
    }
    let one = record::read_path(&p);
    for (a, b) in whole.iter().zip(&one) {
        assert_eq!(summary(a), summary(b));
    }
    // From a pipe: the same report as from the file.
    let (code, out) = validate_stdin(&lib);
    let (code_file, out_file, _, _) = run(&["validate", "--json", p.to_str().unwrap()]);
    assert_eq!(code, code_file);
    let file = format!("\"file\":\"{}\"", p.display());
    assert!(out_file.contains(&file), "{out_file}");
    assert_eq!(out.replace("\"file\":\"-\"", &file), out_file);
    assert_eq!(out.lines().count(), whole.len());

    // A slot count that does not lead to the records: a file is searched for them by their
    // magic; a stream cannot be, and says so.
    let mut wrong = lib.clone();
    wrong[60..64].copy_from_slice(&1_000_000u32.to_le_bytes());
    let searched = read_bytes("w.cbl", &wrong, None);
    assert_eq!(searched.len(), whole.len());
    for (a, b) in whole.iter().zip(&searched) {
        assert_eq!(summary(a), summary(b));
    }
    let (code, out) = validate_stdin(&wrong);
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(v["error"]["kind"], "truncated", "{out}");
    assert_eq!(v["error"]["offset"], lib.len(), "{out}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("from a stream"),
        "{out}"
    );
    // A record over the cap is an error at its offset, and the next record is read.
    let (code, out, _, _) = run(&[
        "validate",
        "--json",
        "--max-game-bytes",
        "3000",
        p.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["error"]["kind"], "too_large", "{out}");
    assert_eq!(first["error"]["offset"], 101_952, "{out}");
    let n = out.lines().filter(|l| l.contains("too_large")).count();
    assert_eq!(n, whole.len(), "{out}");
}

// ---------------------------------------------------------------------------------------------
// 6. Encodings per game, with a say.
// ---------------------------------------------------------------------------------------------

#[test]
fn stray_bytes_in_utf8_are_replaced_with_a_located_warning() {
    let mut f: Vec<u8> = "[Event \"全国赛\"]\n\n1. 炮二平五 {好".as_bytes().to_vec();
    let bad_at = f.len();
    f.extend_from_slice(b"\xff\xfe\xfd");
    f.extend_from_slice("棋} 马８进７ 2. 马二进三 车９平８ *\n".as_bytes());
    let games = read_bytes("u.pgn", &f, Some(Format::Pgn));
    let g = &games[0];
    assert!(g.error.is_none(), "{:?}", g.error);
    assert_eq!(g.plies(), 4);
    assert_eq!(g.encoding, Some(record::TextEncoding::Utf8));
    let w = g
        .warnings
        .iter()
        .find(|w| w.kind == "encoding")
        .expect("a warning");
    assert_eq!(w.offset, Some(bad_at as u64), "{w}");
    assert_eq!(w.line, 3, "{w}");
    assert!(w.message.contains("utf-8"), "{w}");
    // The same through DhtmlXQ.
    let mut d = b"[DhtmlXQ][DhtmlXQ_title]\xe5\x85\xa8\xff[/DhtmlXQ_title]".to_vec();
    d.extend_from_slice(b"[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]");
    let g = read_bytes("d.txt", &d, None).remove(0);
    assert!(g.error.is_none());
    assert_eq!(g.game.tags[0].1, "全\u{FFFD}");
    assert_eq!(g.warnings[0].offset, Some(27), "{:?}", g.warnings);
}

#[test]
fn each_game_of_a_mixed_gbk_big5_file_gets_its_own_encoding() {
    let gbk = record::encoding::encode(
        "[Event \"全国象棋锦标赛\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n\n",
        record::TextEncoding::Gbk,
    )
    .into_owned();
    let big5 = record::encoding::encode(
        "[Event \"全國象棋錦標賽\"]\n\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ *\n\n",
        record::TextEncoding::Big5,
    )
    .into_owned();
    for file in [
        [gbk.clone(), big5.clone()].concat(),
        [big5.clone(), gbk.clone()].concat(),
    ] {
        let games = read_bytes("m.pgn", &file, Some(Format::Pgn));
        assert_eq!(games.len(), 2);
        for g in &games {
            assert!(g.error.is_none(), "{:?}", g.error);
            assert_eq!(g.plies(), 4);
            assert!(g.warnings.is_empty(), "{:?}", g.warnings);
        }
        let encs: Vec<_> = games.iter().map(|g| g.encoding.unwrap()).collect();
        assert!(
            encs.contains(&record::TextEncoding::Gbk) && encs.contains(&record::TextEncoding::Big5)
        );
    }
    // An error in a game read as GBK names the encoding.
    let bad = record::encoding::encode(
        "[Event \"全国\"]\n\n1. 炮二平五 马８进７ 2. 车一进三 *\n",
        record::TextEncoding::Gbk,
    );
    let e = read_bytes("b.pgn", &bad, Some(Format::Pgn))
        .remove(0)
        .error
        .expect("illegal move");
    assert!(e.message.contains("gbk"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// 8. Binary formats keep their location in JSON.
// ---------------------------------------------------------------------------------------------

#[test]
fn binary_errors_give_a_byte_offset_in_json() {
    let xqf = std::fs::read("tests/data/binary/xqf_misc/eleeye_SAMPLE.XQF").unwrap();
    let d = tmp("bin");
    let p = d.join("cut.xqf");
    std::fs::write(&p, &xqf[..0x300]).unwrap();
    let (code, out, _, _) = run(&["validate", "--json", p.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert!(v["error"]["offset"].as_u64().is_some(), "{out}");
}

// ---------------------------------------------------------------------------------------------
// 9. A tiny node budget gives undetermined natures, never a crash.
// ---------------------------------------------------------------------------------------------

#[test]
fn claim_takes_rule_settings_and_a_tiny_budget_is_undetermined() {
    let d = tmp("budget");
    let s = d.join("budget.json");
    std::fs::write(&s, "{\"node_budget\": 1}").unwrap();
    // The red rook goes back and forth attacking the horse on g7 (a chase, found by a search).
    let moves = "h2e2 h9g7 h0g2 i9h9 i0h0 h9i9 h0h6 i9h9 h6g6 h9i9 g6h6 i9h9 h6g6 h9i9";
    let claim = |settings: &Path| {
        let (code, out, err, _) = run(&[
            "claim",
            "--moves",
            moves,
            "--claimant",
            "red",
            "--limit",
            "3",
            "--rule-settings",
            settings.to_str().unwrap(),
            "--json",
        ]);
        assert!(code == 0 || code == 1, "exit {code}: {out}{err}");
        serde_json::from_str::<serde_json::Value>(&out).expect("a JSON report")
    };
    let tiny = claim(&s);
    // Out of budget: undetermined, never a determined nature that needed the search.
    assert_eq!(tiny["chases"], 0, "{tiny}");
    assert!(tiny["undetermined"].as_u64().unwrap() > 0, "{tiny}");
    std::fs::write(&s, "{\"node_budget\": 200000}").unwrap();
    let full = claim(&s);
    assert_eq!(full["chases"], 1, "{full}");
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    let (code, _, err, _) = run(&[
        "claim",
        "--fen",
        fen,
        "--moves",
        moves,
        "--claimant",
        "black",
        "--rule-settings",
        "/nonexistent.json",
    ]);
    assert_eq!(code, 2, "{err}");
}

// ---------------------------------------------------------------------------------------------
// 10. Line numbers are 64-bit.
// ---------------------------------------------------------------------------------------------

#[test]
fn line_numbers_past_four_billion_do_not_wrap() {
    let first = 5_000_000_000u64;
    let e = pgn::parse_game("\n\n1. h2e2 h9g7 2. h2e3 *\n", first)
        .error
        .expect("illegal");
    assert_eq!(e.line, first + 2);
}
