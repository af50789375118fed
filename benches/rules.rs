//! Move-nature throughput on long real games (tests/data/rules/games.jsonl, from the shared game
//! collection): every move of every game classified under the CXA profile. Target: at least
//! 120,000 classified moves per second on one core (issue 16).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use xiangqi_arbiter::rules::{Profile, classify_line};
use xiangqi_arbiter::{Move, Position};

fn games() -> Vec<(Position, Vec<Move>)> {
    include_str!("../tests/data/rules/games.jsonl")
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

fn bench(c: &mut Criterion) {
    let games = games();
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
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
