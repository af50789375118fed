//! Rules-engine throughput (target: at least 120,000 classified moves per second on one core for
//! `xqa screen --threads 1` over the shared game collection, issue 16).
//!
//! - `classify_line/real_games`: every move of the long real games of
//!   tests/data/rules/games.jsonl classified under the CXA profile.
//! - `screen/sample`: what `xqa screen --threads 1` does per game ([`GameScreen::of`]: every move
//!   checked for legality, the moves the repetition cycles read classified, the cycles ruled on) on tests/data/rules/screen_sample.jsonl, every
//!   sixth game of the shared collection (the screening target's own mix of games), on one thread.
//! - `worst_case/cycle_20` and `worst_case/cycle_2000`: the ruling ([`adjudicate::adjudicate`]:
//!   every move classified, every cycle ruled on) of a 23-piece position whose four-move cycle
//!   repeats, 20 and 2,000 plies (issue 21, item 4: 2,000 plies may cost at most 5 x 20 plies).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use xiangqi_arbiter::record::{Format, Game, GameEntry, MoveNode, SourcePos};
use xiangqi_arbiter::rules::screen::{GameScreen, ScreenOptions};
use xiangqi_arbiter::rules::{Profile, adjudicate, classify_line};
use xiangqi_arbiter::{Move, Position};

fn read(jsonl: &str) -> Vec<(Position, Vec<Move>)> {
    jsonl
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("json");
            let pos = Position::from_fen(v["fen"].as_str().unwrap()).expect("fen");
            let moves = v["moves"]
                .as_str()
                .unwrap()
                .split_whitespace()
                .map(|m| Move::parse_iccs(m).expect("iccs"))
                .collect();
            (pos, moves)
        })
        .collect()
}

/// The games as `xqa screen` reads them (one entry a game, the moves of its main line).
fn entries(jsonl: &str) -> Vec<GameEntry> {
    read(jsonl)
        .into_iter()
        .enumerate()
        .map(|(i, (pos, moves))| {
            let mut game = Game::new(pos);
            for m in moves {
                game.main
                    .nodes
                    .push(MoveNode::new(m, m.to_string(), SourcePos::default()));
            }
            GameEntry::ok("screen_sample.jsonl", i, Format::Pgn, game)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let games = read(include_str!("../tests/data/rules/games.jsonl"));
    let total: usize = games.iter().map(|(_, m)| m.len()).sum();
    let profile = Profile::cxa();
    let mut group = c.benchmark_group("rules");
    group.sample_size(10);
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("classify_line/real_games", |b| {
        b.iter(|| {
            let mut n = 0;
            for (pos, moves) in &games {
                n += classify_line(pos, moves, &profile).len();
            }
            assert_eq!(n, total);
        })
    });

    // `xqa screen --threads 1` with its default options (CXA, no draws, text mode).
    let sample = entries(include_str!("../tests/data/rules/screen_sample.jsonl"));
    let plies: usize = sample.iter().map(|e| e.game.main.nodes.len()).sum();
    let options = ScreenOptions {
        profile: Profile::cxa(),
        draws: false,
        all: false,
        json: false,
        limit: None,
        draw_offer_within: None,
        event: None,
    };
    group.throughput(Throughput::Elements(plies as u64));
    group.bench_function("screen/sample", |b| {
        b.iter(|| {
            let mut n = 0;
            for e in &sample {
                n += GameScreen::of(e, &options).plies;
            }
            assert_eq!(n, plies);
        })
    });
    group.finish();

    // The worst case: a 23-piece position whose four-move cycle repeats (issue 21, item 4).
    let start =
        Position::from_fen("2baNab1C/2N1c1n2/R1Ck5/5Rrn1/r8/5p3/3c5/3A5/9/2BAK1B2 w").expect("fen");
    let cycle: Vec<Move> = ["c0a2", "g8i7", "a2c0", "i7g8"]
        .iter()
        .map(|m| Move::parse_iccs(m).expect("iccs"))
        .collect();
    let mut group = c.benchmark_group("worst_case");
    group.sample_size(10);
    for plies in [20usize, 2000] {
        let moves: Vec<Move> = cycle.iter().copied().cycle().take(plies).collect();
        group.throughput(Throughput::Elements(plies as u64));
        group.bench_function(format!("cycle_{plies}"), |b| {
            b.iter(|| {
                let report = adjudicate::adjudicate(&start, &moves, &profile).expect("legal");
                assert_eq!(report.natures.len(), plies);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
