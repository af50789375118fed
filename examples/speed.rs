//! Quick throughput probe for the rules engine (same data as benches/rules.rs).
use std::time::Instant;
use xiangqi_arbiter::rules::{NatureKind, Profile, classify_line};
use xiangqi_arbiter::{Move, Position};
fn main() {
    let mut profile = Profile::cxa();
    let env = |k: &str, d: u32| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    profile.mate_ply_cap = env("MATE", profile.mate_ply_cap);
    profile.chase_check_cap = env("CC", profile.chase_check_cap);
    profile.refutation_mate_cap = env("REF", profile.refutation_mate_cap);
    profile.node_budget = env("BUDGET", 200_000) as u64;
    let t = Instant::now();
    let (mut n, mut und, mut max_nodes) = (0usize, 0usize, 0u64);
    for l in include_str!("../tests/data/rules/games.jsonl").lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        let pos = Position::from_fen(v["fen"].as_str().unwrap()).unwrap();
        let moves: Vec<Move> = v["moves"]
            .as_str()
            .unwrap()
            .split_whitespace()
            .map(|m| Move::parse_iccs(m).unwrap())
            .collect();
        let tg = Instant::now();
        let nat = classify_line(&pos, &moves, &profile);
        assert_eq!(nat.len(), moves.len(), "{}", v["source"]);
        n += nat.len();
        und += nat
            .iter()
            .filter(|x| x.kind == NatureKind::Undetermined)
            .count();
        max_nodes = max_nodes.max(nat.iter().map(|x| x.nodes).max().unwrap_or(0));
        if std::env::args().nth(1).is_some() {
            eprintln!(
                "{} plies {:.3}s {}",
                moves.len(),
                tg.elapsed().as_secs_f64(),
                v["source"]
            );
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{n} moves in {s:.3}s = {:.0} moves/s; undetermined {und}; max nodes {max_nodes}",
        n as f64 / s
    );
}
