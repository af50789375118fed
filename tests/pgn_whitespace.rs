//! One definition of white space and of "looks like a tag" for the PGN splitter, reader and
//! writer (src/record/pgn_layout.rs), tested with every character it counts as white space, and
//! the two round-trip defects of issue 32 that a difference between them caused (found by the
//! `records` fuzz target): the indentation of the text after the result was printed, then
//! dropped by the reader; and a blank line of U+3000 before a tag-like line of that text made the
//! converted PGN read back as two games.

use xiangqi_arbiter::Notation;
use xiangqi_arbiter::record::pgn_layout::is_space;
use xiangqi_arbiter::record::{Game, dhtmlxq, pgn};

/// Every white space character of PGN, named (Unicode `White_Space`).
const SPACES: [char; 25] = [
    '\t', '\n', '\u{b}', '\u{c}', '\r', ' ', '\u{85}', '\u{a0}', '\u{1680}', '\u{2000}',
    '\u{2001}', '\u{2002}', '\u{2003}', '\u{2004}', '\u{2005}', '\u{2006}', '\u{2007}', '\u{2008}',
    '\u{2009}', '\u{200a}', '\u{2028}', '\u{2029}', '\u{202f}', '\u{205f}', '\u{3000}',
];

/// The white space that can stand inside a line (all but the line feed).
fn spaces_in_a_line() -> impl Iterator<Item = char> {
    SPACES.into_iter().filter(|&c| c != '\n')
}

/// Writes `game` as PGN, reads it back (one game, no error) and checks that the game read back
/// prints the same: the PGN and the game read back.
fn pgn_round_trip(game: &Game, notation: Notation) -> (String, Game) {
    let text = pgn::write_games([game], notation);
    let back = pgn::read_str(&text, "round-trip");
    assert_eq!(back.len(), 1, "{text:?} read as {} games", back.len());
    assert!(back[0].error.is_none(), "{:?}\n{text:?}", back[0].error);
    let again = pgn::write_games([&back[0].game], notation);
    assert_eq!(text, again, "printed differently after reading back");
    (text, back.into_iter().next().unwrap().game)
}

/// The one game of a DhtmlXQ record with the given text after the game.
fn dhtmlxq_with_trailing_text(t: &str) -> Game {
    let rec = format!(
        "[DhtmlXQ]\n[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n\
         [DhtmlXQ_trailing_text]{t}[/DhtmlXQ_trailing_text]\n[/DhtmlXQ]\n"
    );
    let mut games = dhtmlxq::read_str(&rec, "dhtmlxq");
    assert_eq!(games.len(), 1);
    assert!(games[0].error.is_none(), "{:?}", games[0].error);
    games.remove(0).game
}

/// A game with one move and no result, whose text after the result is `t`.
fn game_with_trailing_text(t: &str) -> Game {
    let mut g = pgn::read_str("1. h2e2\n", "g").remove(0).game;
    g.trailing_text = Some(t.to_owned());
    g
}

#[test]
fn the_white_space_of_pgn_is_unicode_white_space() {
    let all: Vec<char> = (0..=0x10FFFF)
        .filter_map(char::from_u32)
        .filter(|&c| is_space(c))
        .collect();
    assert_eq!(all, SPACES);
    // Not white space: the zero-width space and the byte-order mark.
    assert!(!is_space('\u{200b}') && !is_space('\u{feff}'));
}

/// Issue 32, first defect: `[DhtmlXQ_trailing_text] x` converted to PGN as `*\n x`, which read
/// back and printed as `*\nx`; the same with a form feed.
#[test]
fn indentation_of_the_text_after_the_result_survives_pgn() {
    for t in [" x", "\u{c}x", "\u{3000}\u{3000}x\n y", "\n\n  x\n"] {
        let game = dhtmlxq_with_trailing_text(t);
        // Through DhtmlXQ and back, then to PGN, as the fuzz target converts.
        let converted = dhtmlxq::read_str(&dhtmlxq::write_games([&game]), "again")
            .remove(0)
            .game;
        assert_eq!(converted.trailing_text, game.trailing_text);
        for notation in Notation::ALL {
            let (text, back) = pgn_round_trip(&converted, notation);
            let want = t.trim_start_matches('\n').trim_end();
            assert_eq!(back.trailing_text.as_deref(), Some(want), "{text:?}");
        }
    }
    // Read from PGN: the indentation of the first line with text is kept; the white space that
    // separates text on the result's own line from the result is not.
    let g = pgn::read_str("1. h2e2 *\n\n\u{a0} x\n  y  \n", "p")
        .remove(0)
        .game;
    assert_eq!(g.trailing_text.as_deref(), Some("\u{a0} x\n  y"));
    let g = pgn::read_str("1. h2e2 *\u{3000} x\n  y\n", "p")
        .remove(0)
        .game;
    assert_eq!(g.trailing_text.as_deref(), Some("x\n  y"));
}

/// Issue 32, second defect: `[DhtmlXQ_trailing_text]x\n<U+3000>\n[A` was written as PGN that
/// read back as two games, and the PGN `*\n{\n<U+3000>\n[A` printed differently on every round.
#[test]
fn a_blank_line_of_ideographic_space_before_a_tag_like_line_keeps_one_game() {
    let game = dhtmlxq_with_trailing_text("x\n\u{3000}\n[A");
    for notation in Notation::ALL {
        let (text, back) = pgn_round_trip(&game, notation);
        assert_eq!(back.trailing_text.as_deref(), Some("x [A"), "{text:?}");
        assert_eq!(back.main_moves(), game.main_moves());
    }
    let first = pgn::read_str("*\n{\n\u{3000}\n[A", "p");
    assert_eq!(first.len(), 1);
    assert!(first[0].error.is_none(), "{:?}", first[0].error);
    let (text, back) = pgn_round_trip(&first[0].game, Notation::Chinese);
    assert_eq!(back.trailing_text.as_deref(), Some("{ [A"), "{text:?}");
}

/// With every white space character, the text after the result reads back as it was written
/// (one game, the same words, printed the same twice), whether its lines are blank, indented or
/// would start a game (a tag pair, or move 1 after a result).
#[test]
fn text_after_the_result_with_every_space_reads_back_as_one_game() {
    for c in spaces_in_a_line() {
        for t in [
            format!("x\n{c}\n[A"),
            format!("x\n{c}\n{c}[A \"b\"]"),
            format!("{c}[Event \"b\"]\n1. h2e2 *"),
            format!("1-0\n{c}\n{c}1. h2e2"),
            format!("{c}x{c}\n{c}{c}\n{c}y{c}"),
            format!("{{\n{c}\n[A \"b\"]\n}}"),
        ] {
            let game = game_with_trailing_text(&t);
            for notation in [Notation::Iccs, Notation::Chinese] {
                let (text, back) = pgn_round_trip(&game, notation);
                let words = |s: &str| s.split(is_space).filter(|w| !w.is_empty()).count();
                let got = back.trailing_text.as_deref().unwrap_or("");
                assert_eq!(words(got), words(&t), "U+{:04X}: {text:?}", c as u32);
                assert_eq!(back.main_moves(), game.main_moves());
            }
            // And from DhtmlXQ, converted.
            let game = dhtmlxq_with_trailing_text(&t);
            pgn_round_trip(&game, Notation::Chinese);
        }
    }
}

/// The splitter and the reader skip the same white space: a tag line indented with any of it
/// starts the next game and reads as a tag, and any of it separates moves.
#[test]
fn every_space_separates_games_and_moves() {
    for c in spaces_in_a_line() {
        let text = format!(
            "[Event \"a\"]\n1.{c}h2e2{c}h9g7{c}*\n{c}[Event \"b\"]{c}\n{c}1. h2e2 h9g7 1-0\n\
             {c}1. h2e2 0-1\n"
        );
        let games = pgn::read_str(&text, "p");
        assert_eq!(games.len(), 3, "U+{:04X}: {games:?}", c as u32);
        for g in &games {
            assert!(g.error.is_none(), "U+{:04X}: {:?}", c as u32, g.error);
        }
        assert_eq!(games[0].game.main_moves().len(), 2);
        assert_eq!(games[1].game.tag("Event"), Some("b"));
        assert_eq!(games[2].game.main_moves().len(), 1);
        // A comment left open: a line of that space and a tag pair start the next game.
        let text = format!("1. h2e2 {{ open\n{c}\n[Event \"b\"]\n1. h2e2 *\n");
        let games = pgn::read_str(&text, "p");
        assert_eq!(games.len(), 2, "U+{:04X}: {games:?}", c as u32);
        assert!(games[0].error.is_some());
        assert_eq!(games[1].game.tag("Event"), Some("b"));
    }
}

/// A comment with a line of any white space before a line starting with `[` is written so that
/// it stays in its game (the writer drops that blank line, as the splitter would take it and a
/// tag pair after it for the start of a game if the comment were left open).
#[test]
fn comments_with_every_space_stay_in_their_game() {
    for c in spaces_in_a_line() {
        let mut game = pgn::read_str("1. h2e2 h9g7 *\n", "p").remove(0).game;
        game.main.nodes[0].comments = vec![format!("a\n{c}\n{c}[Event \"b\"]\nc")];
        let (text, back) = pgn_round_trip(&game, Notation::Chinese);
        assert_eq!(back.main.nodes[0].comments.len(), 1, "{text:?}");
        assert!(back.main.nodes[0].comments[0].contains("[Event \"b\"]"));
    }
}
