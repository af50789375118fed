//! Random legal lines from a few positions, classified and adjudicated under both profiles:
//! never a panic, one nature per move, every chase target an enemy piece, and the same ruling
//! in the four orientations of the board (mirrored, colours swapped, both: natures, targets,
//! joint flags, cycles and natural-limit counts map back unchanged, issue 29).
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi_arbiter::rules::orientation::differences;
use xiangqi_arbiter::rules::{NatureKind, Profile, adjudicate};
use xiangqi_arbiter::{Position, START_FEN};

const FENS: [&str; 3] = [
    START_FEN,
    "2bak2r1/4aP3/4b4/2r1C4/4P4/2B6/4R3R/B8/1p7/c3K4 w - - 0 1",
    "3akab2/9/4b4/p1h1p3p/2p3p2/4P1P2/P1P1C3P/2H1B4/4A4/2BAK4 w - - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let start = Position::from_fen(FENS[first as usize % FENS.len()]).unwrap();
    let mut pos = start;
    let mut line = Vec::new();
    for &b in rest.iter().take(40) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[b as usize % moves.len()];
        pos.play_unchecked(m);
        line.push(m);
    }
    for profile in [Profile::cxa(), Profile::axf()] {
        let report = adjudicate::adjudicate(&start, &line, &profile).expect("a legal line");
        assert_eq!(report.natures.len(), line.len());
        let mut p = start;
        for (m, n) in line.iter().zip(&report.natures) {
            let mover = p.turn();
            p.play_unchecked(*m);
            if n.kind == NatureKind::Chase {
                for t in &n.targets {
                    let piece = p.piece_at(t.square).expect("a chased square holds a piece");
                    assert_eq!(piece.color, !mover, "{m}: chased own piece");
                }
            }
        }
        let (_, diffs) = differences(&start, &line, &profile);
        assert!(diffs.is_empty(), "{}: {diffs:?}", profile.name);
    }
});
