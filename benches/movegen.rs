//! Move generation benchmarks: legal moves on middlegame positions, make/undo, perft(4) and
//! perft(5) from the start (single thread, bulk counting at the last ply).

use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use xiangqi_arbiter::{Move, Position, perft};

/// Middlegame positions from tests/data/perft.txt and real games.
const MIDDLEGAMES: &[&str] = &[
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
    "r1bakab1r/9/1c2c4/p3p3p/2p3p2/2P3P2/P3P3P/1C2C4/9/R1BAKAB1R w - - 0 1",
];

fn bench(c: &mut Criterion) {
    let positions: Vec<Position> = MIDDLEGAMES
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    let moves: usize = positions.iter().map(|p| p.legal_moves().len()).sum();

    let mut g = c.benchmark_group("legal_moves");
    g.throughput(Throughput::Elements(moves as u64));
    g.bench_function("middlegames", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).legal_moves().len())
                .sum::<usize>()
        })
    });
    g.bench_function("count_middlegames", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).count_legal())
                .sum::<usize>()
        })
    });
    g.finish();

    let lists: Vec<(Position, Vec<Move>)> = positions
        .iter()
        .map(|p| (*p, p.legal_moves().into_iter().collect()))
        .collect();
    let mut g = c.benchmark_group("make_undo");
    g.throughput(Throughput::Elements(moves as u64));
    g.bench_function("middlegames", |b| {
        b.iter(|| {
            let mut keys = 0u64;
            for (pos, ms) in &lists {
                let mut p = *pos;
                for &m in ms {
                    let u = p.play_unchecked(m);
                    keys ^= p.key();
                    p.undo(m, u);
                }
            }
            keys
        })
    });
    g.bench_function("copy_make", |b| {
        b.iter(|| {
            let mut keys = 0u64;
            for (pos, ms) in &lists {
                for &m in ms {
                    keys ^= pos.after(m).key();
                }
            }
            keys
        })
    });
    g.finish();

    let start = Position::start();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.throughput(Throughput::Elements(3_290_240));
    g.bench_function("start_depth4", |b| b.iter(|| perft(black_box(&start), 4)));
    g.throughput(Throughput::Elements(133_312_995));
    g.bench_function("start_depth5", |b| b.iter(|| perft(black_box(&start), 5)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
