//! Dumps every move's full nature (kind, idle kind, capture, targets with square, piece, joint,
//! how, participants and reason) and every repetition cycle's ruling, for checking that a
//! speed-up changes no result (compare two dumps byte for byte).
//!
//! `dump_natures [--axf] OUT PATH...`: every game of the records under PATH (files or
//! directories, read as `xqa screen` reads them; a `.jsonl` file of `fen` + `moves` lines is read
//! as such). Writes OUT (natures and cycles) and OUT.nodes (the search nodes of every move, which
//! may change with a faster search).
use std::fmt::Write as _;

#[path = "common/games.rs"]
mod games;

use rayon::prelude::*;
use xiangqi_arbiter::rules::{Profile, find_cycles, try_classify_line};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let profile = if args.first().is_some_and(|a| a == "--axf") {
        args.remove(0);
        Profile::axf()
    } else {
        Profile::cxa()
    };
    if args.len() < 2 {
        eprintln!("usage: dump_natures [--axf] OUT PATH...");
        std::process::exit(2);
    }
    let out = args.remove(0);
    let games = games::read_games(&args);
    let dumps: Vec<(String, String)> = games
        .par_iter()
        .map(|(name, start, moves)| {
            let (natures, err) = match try_classify_line(start, moves, &profile) {
                Ok(n) => (n, None),
                Err((n, e)) => (n, Some(e.to_string())),
            };
            let mut d = String::new();
            let mut nodes = String::new();
            let _ = writeln!(d, "game {name} plies {} error {err:?}", natures.len());
            for (ply, x) in natures.iter().enumerate() {
                let _ = write!(
                    d,
                    "{} {} {} {} idle={} capture={}",
                    ply + 1,
                    x.mv,
                    x.side.name(),
                    x.kind.name(),
                    x.idle_kind.map_or("-", |k| k.name()),
                    x.capture.map_or('-', |p| p.char()),
                );
                for t in &x.targets {
                    let _ = write!(
                        d,
                        " [{} {} joint={} how={} by=",
                        t.square,
                        t.piece.char(),
                        t.joint,
                        t.how.name()
                    );
                    for (i, s) in t.by.iter().enumerate() {
                        let _ = write!(d, "{}{s}", if i > 0 { "," } else { "" });
                    }
                    let _ = write!(d, " reason={:?}]", t.reason);
                }
                d.push('\n');
                let _ = writeln!(nodes, "{name} {} {}", ply + 1, x.nodes);
            }
            let played = &moves[..natures.len()];
            for c in find_cycles(start, played, &natures, &profile) {
                let _ = writeln!(d, "cycle {}", serde_json::to_string(&c).expect("cycle"));
            }
            (d, nodes)
        })
        .collect();
    let mut all = String::new();
    let mut all_nodes = String::new();
    for (d, n) in dumps {
        all.push_str(&d);
        all_nodes.push_str(&n);
    }
    std::fs::write(&out, all).expect("write");
    std::fs::write(format!("{out}.nodes"), all_nodes).expect("write nodes");
}
