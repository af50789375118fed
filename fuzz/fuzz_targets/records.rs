//! Any bytes, read as any record format: errors, never panics. A game read without error must
//! survive a round trip through PGN (ICCS, WXF and Chinese move text) and DhtmlXQ with the same
//! start position and the same main line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi_arbiter::Notation;
use xiangqi_arbiter::record::{Format, Game, dhtmlxq, pgn, read_bytes};

const FORMATS: [Option<Format>; 7] = [
    None,
    Some(Format::Pgn),
    Some(Format::Dhtmlxq),
    Some(Format::Xqf),
    Some(Format::Cbr),
    Some(Format::Cbl),
    Some(Format::Cbf),
];

fn same_game(what: &str, a: &Game, b: &Game) {
    assert_eq!(
        a.start.fen(),
        b.start.fen(),
        "{what}: start position changed"
    );
    assert_eq!(a.main_moves(), b.main_moves(), "{what}: main line changed");
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let format = FORMATS[first as usize % FORMATS.len()];
    for entry in read_bytes("fuzz", rest, format) {
        if let Some(e) = &entry.error {
            // Every error can be printed.
            let _ = e.to_string();
            continue;
        }
        let game = &entry.game;
        for notation in [Notation::Iccs, Notation::Wxf, Notation::Chinese] {
            let text = pgn::write_games([game], notation);
            let back = pgn::read_str(&text, "roundtrip");
            assert_eq!(back.len(), 1, "PGN {notation:?} round trip: {text}");
            assert!(
                back[0].error.is_none(),
                "PGN {notation:?}: {:?}\n{text}",
                back[0].error
            );
            same_game("PGN", game, &back[0].game);
        }
        let text = dhtmlxq::write_games([game]);
        let back = dhtmlxq::read_str(&text, "roundtrip");
        assert_eq!(back.len(), 1, "DhtmlXQ round trip: {text}");
        assert!(
            back[0].error.is_none(),
            "DhtmlXQ: {:?}\n{text}",
            back[0].error
        );
        same_game("DhtmlXQ", game, &back[0].game);
    }
});
