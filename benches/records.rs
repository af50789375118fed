//! Parse + validate throughput of the record readers on one core (moves per second).
//!
//! * `pgn/iccs`: the 1,391-game ICCS file (wxf.ca dump, one multi-game PGN, UTF-8).
//! * `pgn/chinese_big5`: the 222 CCPD records (Big5, traditional characters, one game per file).
//! * `pgn/chinese_utf8`: the 15-game Chinese file with no spaces between moves.
//! * `dhtmlxq/variations`: the vschess DhtmlXQ file (1,446 branches; all moves counted).
//!
//! * `repair/*`: reading one broken Chinese sheet (a real game with one generated slip of each
//!   kind, fixed seed) including its score-sheet repair search, per game; `repair/worst` the
//!   slowest of 70 such sheets.
//!
//! Measured 2026-12-07 (issue 30, load ~8): validation of valid records no slower with the repair
//! search in (it runs only on a failing game): CPU-time rates before / after, ICCS 3.42 / 3.54 M
//! moves/s, Big5 1.65 / 1.72 M, DhtmlXQ 3.37 / 3.50 M; criterion medians before / after: ICCS
//! 82.9 / 49.0 ms, Big5 43.1 / 24.2 ms, Chinese UTF-8 1.34 / 0.64 ms, DhtmlXQ 64.9 / 43.5 ms
//! (the machine was busier for the "before" run). Repair: 6.7-8.6 ms per broken sheet by kind
//! (medians of ten sheets), 11.2 ms for the slowest of the 70.
//!
//! Run: `cargo bench --bench records` (criterion prints "thrpt" in moves/s; before it, each set's
//! rate per core of CPU time, which is what counts on a shared machine).
//!
//! Measured 2026-11-29 on the shared 2-core build machine (load ~7), CPU-time rates:
//! ICCS 1.7 M moves/s, DhtmlXQ 1.6 M, Chinese UTF-8 0.9-1.8 M (small sample, noisy), Chinese Big5
//! as 222 separate small files 0.75 M (per-file encoding detection and set-up dominate; the same
//! games as one 3 MB Big5 file validate at about 1.0 M moves/s per core with `xqa validate
//! --threads 1`, everything included).

#[path = "../tests/common/slips.rs"]
mod slips;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use xiangqi_arbiter::record::{self, GameEntry};

fn data(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/games")
        .join(p)
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Reads and replays every game of every source; returns the number of moves replayed.
fn run(sources: &[(String, Vec<u8>)]) -> usize {
    let mut moves = 0;
    for (name, bytes) in sources {
        for e in record::read_bytes(name, bytes, None) {
            moves += count(&e);
        }
    }
    moves
}

fn count(e: &GameEntry) -> usize {
    assert!(e.is_ok(), "{:?}", e.error);
    e.game.main.total_moves()
}

/// CPU time of the current thread in nanoseconds (Linux), for timing on a busy machine.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn load(paths: &[PathBuf]) -> Vec<(String, Vec<u8>)> {
    paths
        .iter()
        .map(|p| (p.display().to_string(), std::fs::read(p).unwrap()))
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut ccpd = Vec::new();
    files_under(&data("ccpd_big5_pgn"), &mut ccpd);
    let sets = [
        (
            "pgn/iccs",
            load(&[data("wukong_xqdb/pgn/Hu_Ronghua_1391_UCI_games.pgn")]),
        ),
        ("pgn/chinese_big5", load(&ccpd)),
        (
            "pgn/chinese_utf8",
            load(&[data("wukong_xqdb/pgn/xqdb_traditional.pgn")]),
        ),
        (
            "dhtmlxq/variations",
            load(&[data("dhtmlxq_text/vschess_dhtmlxq.txt")]),
        ),
    ];
    // CPU time of this thread per move: criterion's wall-clock numbers suffer on a shared machine.
    for (name, sources) in &sets {
        let moves = run(sources);
        let rounds = 5;
        let (t, cpu0) = (std::time::Instant::now(), thread_cpu_ns());
        for _ in 0..rounds {
            black_box(run(black_box(sources)));
        }
        let wall = t.elapsed().as_secs_f64();
        let secs = match (cpu0, thread_cpu_ns()) {
            (Some(a), Some(b)) if b > a => (b - a) as f64 / 1e9,
            _ => wall,
        };
        eprintln!(
            "{name}: {moves} moves, {:.2} M validated moves/s per core of CPU time ({:.2} M/s wall clock)",
            (moves * rounds) as f64 / secs / 1e6,
            (moves * rounds) as f64 / wall / 1e6
        );
    }
    let mut g = c.benchmark_group("records");
    for (name, sources) in &sets {
        let moves = run(sources);
        g.throughput(Throughput::Elements(moves as u64));
        g.bench_function(*name, |b| b.iter(|| black_box(run(black_box(sources)))));
    }
    g.finish();
}

/// Broken Chinese sheets: ten of each kind of slip, fixed seed.
fn broken_sheets() -> Vec<(slips::Kind, String)> {
    let games = slips::games();
    let mut rng = slips::Rng(0x5eed_be9c);
    let mut out = Vec::new();
    for kind in slips::Kind::ALL {
        let mut made = 0;
        while made < 10 {
            let g = &games[rng.below(games.len())];
            if let Some(s) = slips::make(g, xiangqi_arbiter::Notation::Chinese, kind, &mut rng) {
                out.push((kind, s.pgn()));
                made += 1;
            }
        }
    }
    out
}

fn bench_repair(c: &mut Criterion) {
    let sheets = broken_sheets();
    let read = |text: &str| {
        let e = record::pgn::parse_game(text, 1);
        assert!(e.error.is_some());
        e
    };
    // The slowest sheet, by CPU time of one read.
    let mut worst = (0.0, 0);
    for (k, (_, t)) in sheets.iter().enumerate() {
        let t0 = std::time::Instant::now();
        black_box(read(t));
        let s = t0.elapsed().as_secs_f64();
        if s > worst.0 {
            worst = (s, k);
        }
    }
    let mut g = c.benchmark_group("repair");
    for kind in slips::Kind::ALL {
        let set: Vec<&String> = sheets
            .iter()
            .filter(|(k, _)| *k == kind)
            .map(|(_, t)| t)
            .collect();
        g.throughput(Throughput::Elements(set.len() as u64));
        g.bench_function(kind.name().replace(' ', "_"), |b| {
            b.iter(|| {
                for t in &set {
                    black_box(read(t));
                }
            })
        });
    }
    let worst_text = &sheets[worst.1].1;
    g.throughput(Throughput::Elements(1));
    g.bench_function("worst", |b| b.iter(|| black_box(read(worst_text))));
    g.finish();
}

criterion_group! {
    name = repair;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(3));
    targets = bench_repair
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches, repair);
