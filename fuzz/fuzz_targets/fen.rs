//! Any text as a FEN: an error, or a position whose FEN reads back to itself and whose legal
//! moves can all be played and undone.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi_arbiter::{Position, Setup};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(setup) = Setup::from_fen(text) {
        let again = Setup::from_fen(&setup.fen()).expect("a printed setup FEN reads back");
        assert_eq!(setup.fen(), again.fen());
        // An unchecked setup may be anything; validating it must not panic.
        let _ = Position::from_setup(setup);
    }
    let Ok(pos) = Position::from_fen(text) else {
        return;
    };
    let back = Position::from_fen(&pos.fen()).expect("a printed FEN reads back");
    assert_eq!(back.key(), pos.key());
    assert_eq!(back.fen(), pos.fen());
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), pos.count_legal());
    for m in moves {
        let mut p = pos;
        let undo = p.play_unchecked(m);
        assert!(
            !p.is_attacked(p.king(pos.turn()), p.turn()),
            "{m} leaves the king attacked"
        );
        p.undo(m, undo);
        assert_eq!(p.key(), pos.key());
        assert_eq!(p.fen(), pos.fen());
    }
});
