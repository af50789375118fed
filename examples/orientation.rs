//! Measures how far the rulings depend on the way the board is drawn (issue 29): every game of
//! the records under PATH ruled in the four orientations (as played, mirrored left to right,
//! colours swapped = board turned 180 degrees with Red/Black and the side to move swapped, both)
//! under the CXA and AXF profiles (tournament overlay off), each answer mapped back to the board
//! as played ([`xiangqi_arbiter::rules::orientation`]).
//!
//! `orientation [--cxa|--axf] [--list FILE] PATH...`
//!
//! Prints, per profile, the plies read and how many differences of each aspect (nature, idle
//! kind, target set, joint flag, joint participants, cycle, natural-limit count, where the
//! classification stopped), with the positions (moves) they fall on. `--list FILE` writes every
//! difference, one a line, with the FEN before the move. Exit status 1 when anything differs.
//!
//! `orientation [--cxa|--axf] --line FEN MOVES...`: the nature of every move of one line (ICCS)
//! in the four orientations, mapped back, with each target's reason (for reading a difference).
//!
//! Whole corpus: `cargo run --release --example orientation -- ../shared/games`.

#[path = "common/games.rs"]
mod games;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use rayon::prelude::*;
use xiangqi_arbiter::rules::Profile;
use xiangqi_arbiter::rules::orientation::{Aspect, Orientation, colour_blind, differences};
use xiangqi_arbiter::rules::try_classify_line;
use xiangqi_arbiter::{Move, Position};

/// Per aspect: how many differences, at which plies.
type Counts = BTreeMap<Aspect, (usize, BTreeSet<usize>)>;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut profiles = vec![Profile::cxa(), Profile::axf()];
    let mut list: Option<String> = None;
    while let Some(a) = args.first().cloned() {
        match a.as_str() {
            "--cxa" => profiles = vec![Profile::cxa()],
            "--axf" => profiles = vec![Profile::axf()],
            "--list" if args.len() > 1 => {
                list = Some(args[1].clone());
                args.remove(0);
            }
            _ => break,
        }
        args.remove(0);
    }
    if args.first().is_some_and(|a| a == "--line") && args.len() >= 2 {
        show_line(&args[1], &args[2..], &profiles);
        return;
    }
    if args.is_empty() {
        eprintln!("usage: orientation [--cxa|--axf] [--list FILE] PATH...");
        std::process::exit(2);
    }
    let games = games::read_games(&args);
    let plies: usize = games.iter().map(|g| g.2.len()).sum();
    let mut listing = String::new();
    let mut any = false;
    for profile in &profiles {
        let per_game: Vec<(String, Counts)> = games
            .par_iter()
            .map(|(name, start, moves)| {
                let (_, diffs) = differences(start, moves, profile);
                let mut counts = Counts::new();
                let mut text = String::new();
                for d in &diffs {
                    let e = counts.entry(d.aspect).or_default();
                    e.0 += 1;
                    e.1.insert(d.ply);
                    let fen = if d.ply > 0 {
                        let mut p = *start;
                        for &m in &moves[..d.ply - 1] {
                            p.play_unchecked(m);
                        }
                        format!("{} {}", p.fen(), moves[d.ply - 1])
                    } else {
                        String::new()
                    };
                    let _ = writeln!(
                        text,
                        "{} {name} ply {} {} {}: {} | {} | {fen}",
                        profile.name,
                        d.ply,
                        d.orientation.name(),
                        d.aspect.name(),
                        d.played,
                        d.other
                    );
                }
                (text, counts)
            })
            .collect();
        let mut totals: BTreeMap<Aspect, (usize, usize, usize)> = BTreeMap::new();
        for (text, counts) in &per_game {
            listing.push_str(text);
            for (a, (n, plies)) in counts {
                let t = totals.entry(*a).or_default();
                t.0 += n;
                t.1 += plies.len();
                t.2 += 1;
            }
        }
        println!(
            "{}: {} games, {plies} plies, 4 orientations",
            profile.name,
            games.len()
        );
        for a in Aspect::ALL {
            let (n, at, g) = totals.get(&a).copied().unwrap_or_default();
            println!(
                "  {:<13} {n:>6} differences ({at} plies, {g} games)",
                a.name()
            );
            any |= n > 0;
        }
    }
    if let Some(path) = list {
        std::fs::write(&path, listing).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    if any {
        std::process::exit(1);
    }
}

/// Prints the natures of one line in the four orientations (squares mapped back).
fn show_line(fen: &str, moves: &[String], profiles: &[Profile]) {
    let start = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let moves: Vec<Move> = moves
        .iter()
        .flat_map(|m| m.split_whitespace())
        .map(|m| Move::parse_iccs(m).unwrap_or_else(|| panic!("bad move {m}")))
        .collect();
    for profile in profiles {
        let profile = colour_blind(profile);
        for o in Orientation::ALL {
            let ostart = o.position(&start);
            let omoves: Vec<Move> = moves.iter().map(|&m| o.mv(m)).collect();
            let natures = match try_classify_line(&ostart, &omoves, &profile) {
                Ok(n) => n,
                Err((n, e)) => {
                    println!("{e}");
                    n
                }
            };
            for (i, n) in natures.iter().enumerate() {
                println!(
                    "{} {:<15} ply {} {} {} {:?} nodes {}",
                    profile.name,
                    o.name(),
                    i + 1,
                    moves[i],
                    n.kind.name(),
                    n.idle_kind.map(|k| k.name()),
                    n.nodes
                );
                for t in &n.targets {
                    let by: Vec<String> = t.by.iter().map(|&b| o.square(b).to_string()).collect();
                    println!(
                        "    {} {} joint={} how={} by={} {}",
                        o.piece(t.piece).char(),
                        o.square(t.square),
                        t.joint,
                        t.how.name(),
                        by.join(","),
                        t.reason
                    );
                }
            }
        }
    }
}
