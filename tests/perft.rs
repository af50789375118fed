//! Perft against the reference values in tests/data/perft.txt (copied from shared/perft/positions.txt,
//! each confirmed by two independent engines). Counts up to 20 million nodes run in the normal test
//! run; the deep ones run with `cargo test --release -- --ignored`.

use xiangqi_arbiter::{Position, perft, perft::divide, perft_parallel};

const DATA: &str = include_str!("data/perft.txt");
const FAST_LIMIT: u64 = 20_000_000;

fn cases() -> Vec<(String, u32, u64)> {
    DATA.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut f = l.split(';');
            let fen = f.next().unwrap().to_owned();
            let depth = f.next().unwrap().trim().parse().unwrap();
            let nodes = f.next().unwrap().trim().parse().unwrap();
            (fen, depth, nodes)
        })
        .collect()
}

fn check(deep: bool) {
    let mut ran = 0;
    for (fen, depth, nodes) in cases() {
        if (nodes > FAST_LIMIT) != deep {
            continue;
        }
        let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(perft(&pos, depth), nodes, "perft({depth}) of {fen}");
        ran += 1;
    }
    assert!(ran > 0);
}

#[test]
fn perft_reference_values() {
    check(false);
}

#[test]
#[ignore = "deep perft (depth 5-6, up to 5.4 billion nodes): cargo test --release -- --ignored"]
fn perft_reference_values_deep() {
    check(true);
}

#[test]
fn parallel_and_divide_agree() {
    for (fen, depth, nodes) in cases() {
        if nodes > 2_000_000 || depth < 3 {
            continue;
        }
        let pos = Position::from_fen(&fen).unwrap();
        assert_eq!(perft_parallel(&pos, depth), nodes, "{fen}");
        assert_eq!(
            divide(&pos, depth).iter().map(|(_, n)| n).sum::<u64>(),
            nodes,
            "{fen}"
        );
    }
}

#[test]
fn fen_round_trip() {
    for (fen, _, _) in cases() {
        let pos = Position::from_fen(&fen).unwrap();
        assert_eq!(pos.fen(), fen);
        assert_eq!(Position::from_fen(&pos.fen()).unwrap(), pos);
    }
}
