//! The same ruling from every side of the board (issue 29): every game of a fixed, stratified
//! sample of the shared games (tests/data/rules/orientation_sample.jsonl: every game whose
//! positions repeat, and every eighth of the others) ruled in the four orientations (as played,
//! mirrored left to right, colours swapped, both) under CXA and AXF (tournament overlay off)
//! must map back unchanged: every move's nature, idle kind, chase targets with how they are won
//! and their joint flags and participants, every repetition cycle (patterns and verdict, sides
//! swapped with the colours) and every natural-limit count.
//!
//! The whole of ../shared/games: `cargo run --release --example orientation -- ../shared/games`.

use rayon::prelude::*;
use serde_json::Value;
use xiangqi_arbiter::rules::Profile;
use xiangqi_arbiter::rules::orientation::differences;
use xiangqi_arbiter::{Move, Position};

fn sample() -> Vec<(String, Position, Vec<Move>, u64)> {
    include_str!("data/rules/orientation_sample.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("json");
            let moves = v["moves"]
                .as_str()
                .expect("moves")
                .split_whitespace()
                .map(|m| Move::parse_iccs(m).expect("iccs"))
                .collect();
            (
                format!(
                    "{}#{}",
                    v["source"].as_str().expect("source"),
                    v["game_index"]
                ),
                Position::from_fen(v["fen"].as_str().expect("fen")).expect("fen"),
                moves,
                v["repeats"].as_u64().expect("repeats"),
            )
        })
        .collect()
}

fn check(profile: Profile) {
    let games = sample();
    let plies: usize = games.iter().map(|g| g.2.len()).sum();
    let repeating = games.iter().filter(|g| g.3 >= 2).count();
    // The sample is what its extractor says (a test of an emptied file would pass).
    assert!(
        games.len() >= 700 && plies >= 75_000,
        "{} games",
        games.len()
    );
    assert!(repeating >= 540, "{repeating} repeating games");
    let found: Vec<(String, usize, Vec<String>)> = games
        .par_iter()
        .map(|(name, start, moves, _)| {
            let (played, diffs) = differences(start, moves, &profile);
            let lines = diffs
                .iter()
                .map(|d| {
                    format!(
                        "{name} ply {} {} {}: {} | {}",
                        d.ply,
                        d.orientation.name(),
                        d.aspect.name(),
                        d.played,
                        d.other
                    )
                })
                .collect();
            (name.clone(), played.cycles.len(), lines)
        })
        .collect();
    let cycles: usize = found.iter().map(|f| f.1).sum();
    assert!(cycles >= 500, "{cycles} cycles ruled");
    let all: Vec<&String> = found.iter().flat_map(|f| &f.2).collect();
    assert!(
        all.is_empty(),
        "{}: {} differences between orientations:\n{}",
        profile.name,
        all.len(),
        all.iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    eprintln!(
        "{}: {} games, {plies} plies, {cycles} cycles, 4 orientations agree",
        profile.name,
        games.len()
    );
}

#[test]
fn cxa_rulings_do_not_depend_on_orientation() {
    check(Profile::cxa());
}

#[test]
fn axf_rulings_do_not_depend_on_orientation() {
    check(Profile::axf());
}
