//! Any text as a move in each notation (ICCS, WXF, Chinese and both SAN dialects), on a few
//! positions: an error, or a legal move whose printed form parses back to the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi_arbiter::{Notation, Position, START_FEN, parse_move, print_move};

/// The start, a middlegame with doubled pieces on files, and an ending with pawns side by side.
const FENS: [&str; 3] = [
    START_FEN,
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 0 1",
    "3k5/4P4/3P1P3/4P4/9/9/9/4C4/4C4/4K4 w - - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let mut pos = Position::from_fen(FENS[first as usize % FENS.len()]).unwrap();
    if first & 0x80 != 0 {
        pos = pos.null_move();
    }
    for notation in Notation::ALL {
        match parse_move(&pos, text, notation) {
            Ok(parsed) => {
                assert!(
                    pos.is_legal(parsed.mv),
                    "{text:?} parsed to illegal {}",
                    parsed.mv
                );
                let printed = print_move(&pos, parsed.mv, notation);
                let again = parse_move(&pos, &printed, notation)
                    .unwrap_or_else(|e| panic!("printed {printed:?} does not parse: {e}"));
                assert_eq!(again.mv, parsed.mv, "{printed:?}");
            }
            Err(e) => {
                let _ = e.to_string();
                let _ = e.suggestions();
            }
        }
    }
});
