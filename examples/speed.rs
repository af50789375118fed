//! Quick throughput probe for the rules engine (same data as benches/rules.rs).
//!
//! `speed [-v] [--dump FILE]`: classify every move of tests/data/rules/games.jsonl under the CXA
//! profile and print moves per second. `-v` prints each game's time; `--dump FILE` writes every
//! move's full nature (kind, idle kind, targets with square/piece/joint/how/by, capture, nodes),
//! one line per move, so that a speed-up can be checked to change no result (compare two dumps
//! byte for byte).
use std::fmt::Write as _;
use std::time::Instant;
use xiangqi_arbiter::rules::{NatureKind, Profile, classify_line};
use xiangqi_arbiter::{Move, Position};
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "-v");
    let dump_path = args
        .iter()
        .position(|a| a == "--dump")
        .map(|i| args.get(i + 1).expect("--dump FILE").clone());
    let mut dump = String::new();
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
    for (gi, l) in include_str!("../tests/data/rules/games.jsonl")
        .lines()
        .enumerate()
    {
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
        if dump_path.is_some() {
            for (ply, x) in nat.iter().enumerate() {
                let _ = write!(
                    dump,
                    "{gi} {} {} {} {} idle={} capture={} nodes={}",
                    ply + 1,
                    x.mv,
                    x.side.name(),
                    x.kind.name(),
                    x.idle_kind.map_or("-", |k| k.name()),
                    x.capture.map_or('-', |p| p.char()),
                    x.nodes
                );
                for t in &x.targets {
                    let _ = write!(
                        dump,
                        " [{} {} joint={} how={} by=",
                        t.square,
                        t.piece.char(),
                        t.joint,
                        t.how.name()
                    );
                    for (i, s) in t.by.iter().enumerate() {
                        let _ = write!(dump, "{}{s}", if i > 0 { "," } else { "" });
                    }
                    dump.push(']');
                }
                dump.push('\n');
            }
        }
        if verbose {
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
    if let Some(p) = dump_path {
        std::fs::write(&p, dump).expect("write dump");
    }
}
