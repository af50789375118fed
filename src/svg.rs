//! SVG pictures of a position: the board with its river (楚河 汉界, as in the text diagram) and palaces, the pieces as
//! discs with their Chinese glyphs in red and black, and the last move marked.
//!
//! The output is a standalone SVG 1.1 document (no external resources); fonts fall back through
//! common CJK families to `serif`.
//!
//! ```
//! use xiangqi_arbiter::{Position, Move, svg};
//! let pos = Position::start();
//! let m = Move::parse_iccs("h2e2").unwrap();
//! let doc = svg::position(&pos.after(m), Some(m), Some("1. 炮二平五"));
//! assert!(doc.starts_with("<?xml") && doc.contains(">汉<") && doc.contains("炮"));
//! ```

use crate::diagram::diagram_glyph;
use crate::position::Position;
use crate::setup::Setup;
use crate::types::{Color, Move, Square};
use std::fmt::Write;

/// Distance between two lines of the board, in SVG user units.
const CELL: i32 = 56;
/// Space around the grid (room for the file numbers).
const MARGIN: i32 = 66;
const RED: &str = "#c8102e";
const BLACK: &str = "#1a1a1a";
const BOARD: &str = "#f2d7a4";
const LINE: &str = "#5a3a1a";
const MARK: &str = "#1f6fd1";
const DISC: &str = "#fbeed5";
/// Font size of the river text: small enough to fit between the discs on the two banks.
const RIVER_SIZE: i32 = CELL / 3 + 1;
/// Font size of a piece's glyph.
const GLYPH_SIZE: i32 = CELL * 9 / 16;
/// Radius of a piece's disc, and of the ring inside it that the glyph must stay within.
const DISC_R: i32 = CELL * 7 / 16;
const RING_R: i32 = DISC_R - 5;
const TARGET: &str = "#e0650b";
const FONT: &str = "'KaiTi','STKaiti','Kaiti SC','AR PL UKai CN','Noto Serif CJK SC','Source Han Serif SC','SimSun',serif";

/// What to draw besides the pieces.
#[derive(Clone, Debug, Default)]
pub struct SvgOptions {
    /// The last move: its start and end points are marked.
    pub last: Option<Move>,
    /// A line of text under the board (for example the ply and the move).
    pub caption: Option<String>,
    /// Also write the ICCS coordinates (a-i, 0-9) around the board.
    pub iccs_coordinates: bool,
    /// Pieces to ring as targets (the pieces a move chases or checks).
    pub targets: Vec<Square>,
    /// A selected piece (live entry).
    pub selected: Option<Square>,
    /// Points to dot as legal destinations (live entry).
    pub dots: Vec<Square>,
}

/// The alphabetic baseline that centres a CJK glyph of this size on `y`. A CJK glyph fills the
/// em box, whose middle lies 0.38 em above the baseline in CJK fonts (ascent 0.88, descent 0.12).
/// Set explicitly because renderers differ on `dominant-baseline="central"` (librsvg puts the
/// glyphs too high with it).
fn baseline(y: i32, size: i32) -> i32 {
    y + (size * 38 + 50) / 100
}

fn x_of(file: i32) -> i32 {
    MARGIN + file * CELL
}

fn y_of(rank: i32) -> i32 {
    MARGIN + (9 - rank) * CELL
}

fn point(sq: Square) -> (i32, i32) {
    (
        x_of(sq.file().index() as i32),
        y_of(sq.rank().index() as i32),
    )
}

/// Escapes text for use in XML character data and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' && c != '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// Draws a board setup.
pub fn board(setup: &Setup, options: &SvgOptions) -> String {
    let width = 2 * MARGIN + 8 * CELL;
    let caption_h = if options.caption.is_some() { 36 } else { 0 };
    let height = 2 * MARGIN + 9 * CELL + caption_h;
    let mut s = String::with_capacity(16 * 1024);
    let w = &mut s;
    // Writing to a String cannot fail.
    let _ = writeln!(w, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        w,
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#
    );
    let _ = writeln!(w, "<title>{}</title>", escape(&title(setup, options)));
    let _ = writeln!(
        w,
        r#"<rect x="0" y="0" width="{width}" height="{height}" fill="{BOARD}"/>"#
    );

    // Grid: ten ranks across, the two edge files top to bottom, the inner files broken by the river.
    let _ = writeln!(
        w,
        r#"<g stroke="{LINE}" stroke-width="1.6" fill="none" stroke-linecap="square">"#
    );
    let _ = writeln!(
        w,
        r#"<rect x="{}" y="{}" width="{}" height="{}" stroke-width="3"/>"#,
        x_of(0) - 5,
        y_of(9) - 5,
        8 * CELL + 10,
        9 * CELL + 10
    );
    for r in 0..10 {
        let _ = writeln!(
            w,
            r#"<line x1="{}" y1="{y}" x2="{}" y2="{y}"/>"#,
            x_of(0),
            x_of(8),
            y = y_of(r)
        );
    }
    for f in 0..9 {
        let x = x_of(f);
        if f == 0 || f == 8 {
            let _ = writeln!(
                w,
                r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}"/>"#,
                y_of(9),
                y_of(0)
            );
        } else {
            let _ = writeln!(
                w,
                r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}"/>"#,
                y_of(9),
                y_of(5)
            );
            let _ = writeln!(
                w,
                r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}"/>"#,
                y_of(4),
                y_of(0)
            );
        }
    }
    // Palaces: the two diagonals of d0-f2 and d7-f9.
    for (lo, hi) in [(0, 2), (7, 9)] {
        let _ = writeln!(
            w,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            x_of(3),
            y_of(lo),
            x_of(5),
            y_of(hi)
        );
        let _ = writeln!(
            w,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            x_of(5),
            y_of(lo),
            x_of(3),
            y_of(hi)
        );
    }
    // Position marks of the cannons and pawns.
    for (f, r) in [
        (1, 2),
        (7, 2),
        (1, 7),
        (7, 7),
        (0, 3),
        (2, 3),
        (4, 3),
        (6, 3),
        (8, 3),
        (0, 6),
        (2, 6),
        (4, 6),
        (6, 6),
        (8, 6),
    ] {
        mark_point(w, f, r);
    }
    let _ = writeln!(w, "</g>");

    // The river: 楚河 on Red's left, 汉界 on the right, one character between two files each, so
    // that no piece standing on either bank covers it (see `river_text_clears_every_disc`).
    let river_y = (y_of(5) + y_of(4)) / 2;
    let _ = writeln!(
        w,
        r#"<g font-family="{FONT}" font-size="{RIVER_SIZE}" fill="{LINE}" text-anchor="middle">"#
    );
    for (ch, file) in [('楚', 1), ('河', 2), ('汉', 5), ('界', 6)] {
        let _ = writeln!(
            w,
            r#"<text x="{}" y="{}">{ch}</text>"#,
            x_of(file) + CELL / 2,
            baseline(river_y, RIVER_SIZE)
        );
    }
    let _ = writeln!(w, "</g>");

    // File numbers: Black's 1-9 above (from Black's right), Red's 九-一 below.
    let _ = writeln!(
        w,
        r#"<g font-family="{FONT}" font-size="16" fill="{LINE}" text-anchor="middle">"#
    );
    const RED_NUM: [&str; 9] = ["九", "八", "七", "六", "五", "四", "三", "二", "一"];
    for f in 0..9 {
        let _ = writeln!(
            w,
            r#"<text x="{}" y="{}">{}</text>"#,
            x_of(f),
            baseline(MARGIN - CELL * 7 / 16 - 18, 16),
            f + 1
        );
        let _ = writeln!(
            w,
            r#"<text x="{}" y="{}">{}</text>"#,
            x_of(f),
            baseline(y_of(0) + CELL * 7 / 16 + 18, 16),
            RED_NUM[f as usize]
        );
    }
    if options.iccs_coordinates {
        for f in 0..9 {
            let _ = writeln!(
                w,
                r#"<text x="{}" y="{}" font-size="11" font-family="monospace">{}</text>"#,
                x_of(f) + 16,
                baseline(y_of(0) + CELL * 7 / 16 + 18, 11),
                (b'a' + f as u8) as char
            );
        }
        for r in 0..10 {
            let _ = writeln!(
                w,
                r#"<text x="{}" y="{}" font-size="11" font-family="monospace">{r}</text>"#,
                x_of(0) - CELL * 7 / 16 - 14,
                baseline(y_of(r), 11)
            );
        }
    }
    let _ = writeln!(w, "</g>");

    // The last move: a dashed ring where the piece came from, a solid frame where it went.
    if let Some(m) = options.last {
        let (fx, fy) = point(m.from);
        let (tx, ty) = point(m.to);
        let r = CELL / 2 - 2;
        let _ = writeln!(
            w,
            r#"<g class="last-move" fill="none" stroke="{MARK}" stroke-width="3">"#
        );
        let _ = writeln!(
            w,
            r#"<circle cx="{fx}" cy="{fy}" r="{}" stroke-dasharray="6 4"/>"#,
            r - 6
        );
        let _ = writeln!(
            w,
            r#"<line x1="{fx}" y1="{fy}" x2="{tx}" y2="{ty}" stroke-opacity="0.35" stroke-width="5"/>"#
        );
        let _ = writeln!(
            w,
            r#"<rect x="{}" y="{}" width="{}" height="{}" rx="6"/>"#,
            tx - r,
            ty - r,
            2 * r,
            2 * r
        );
        let _ = writeln!(w, "</g>");
    }

    // Pieces.
    let _ = writeln!(
        w,
        r#"<g font-family="{FONT}" font-size="{GLYPH_SIZE}" font-weight="bold" text-anchor="middle">"#
    );
    for sq in Square::ALL {
        let Some(p) = setup.piece_at(sq) else {
            continue;
        };
        let (x, y) = point(sq);
        let ink = match p.color {
            Color::Red => RED,
            Color::Black => BLACK,
        };
        let _ = writeln!(
            w,
            r#"<g class="piece {}" data-square="{sq}"><circle cx="{x}" cy="{y}" r="{DISC_R}" fill="{DISC}" stroke="{ink}" stroke-width="2.5"/><circle cx="{x}" cy="{y}" r="{RING_R}" fill="none" stroke="{ink}" stroke-width="1"/><text x="{x}" y="{}" fill="{ink}">{}</text></g>"#,
            p.color.name(),
            baseline(y, GLYPH_SIZE),
            diagram_glyph(p)
        );
    }
    let _ = writeln!(w, "</g>");
    marks(w, options);

    if let Some(c) = &options.caption {
        // Squeeze a caption that would not fit (CJK glyphs are about one em wide, others half).
        let size = 17.0;
        let estimate: f64 = c
            .chars()
            .map(|ch| if (ch as u32) < 0x2E80 { 0.56 } else { 1.0 })
            .sum::<f64>()
            * size;
        let room = (width - 24) as f64;
        let fit = if estimate > room {
            format!(r#" textLength="{room}" lengthAdjust="spacingAndGlyphs""#)
        } else {
            String::new()
        };
        let _ = writeln!(
            w,
            r#"<text x="{}" y="{}" font-family="{FONT}" font-size="{size}" fill="{LINE}" text-anchor="middle"{fit}>{}</text>"#,
            width / 2,
            baseline(height - caption_h / 2 - 4, 17),
            escape(c)
        );
    }
    let _ = writeln!(w, "</svg>");
    s
}

/// The small corner marks on the cannon and pawn points.
fn mark_point(w: &mut String, f: i32, r: i32) {
    let (x, y) = (x_of(f), y_of(r));
    let (d, l) = (4, 10);
    for (sx, sy) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
        if (f == 0 && sx < 0) || (f == 8 && sx > 0) {
            continue;
        }
        let (cx, cy) = (x + sx * d, y + sy * d);
        let _ = writeln!(
            w,
            r#"<polyline points="{},{cy} {cx},{cy} {cx},{}" stroke-width="1.2"/>"#,
            cx + sx * l,
            cy + sy * l
        );
    }
}

/// The targets, the selection and the destination dots, over the pieces.
fn marks(w: &mut String, options: &SvgOptions) {
    let r = CELL / 2 - 1;
    if !options.targets.is_empty() {
        let _ = writeln!(
            w,
            r#"<g class="targets" fill="none" stroke="{TARGET}" stroke-width="3.5">"#
        );
        for &sq in &options.targets {
            let (x, y) = point(sq);
            let _ = writeln!(
                w,
                r#"<circle class="target" data-square="{sq}" cx="{x}" cy="{y}" r="{r}" stroke-dasharray="5 3"/>"#
            );
        }
        let _ = writeln!(w, "</g>");
    }
    if let Some(sq) = options.selected {
        let (x, y) = point(sq);
        let _ = writeln!(
            w,
            r#"<circle class="selected" data-square="{sq}" cx="{x}" cy="{y}" r="{r}" fill="none" stroke="{MARK}" stroke-width="4"/>"#
        );
    }
    if !options.dots.is_empty() {
        let _ = writeln!(w, r#"<g class="dots" fill="{MARK}" fill-opacity="0.55">"#);
        for &sq in &options.dots {
            let (x, y) = point(sq);
            let _ = writeln!(
                w,
                r#"<circle class="dot" data-square="{sq}" cx="{x}" cy="{y}" r="8"/>"#
            );
        }
        let _ = writeln!(w, "</g>");
    }
}

fn title(setup: &Setup, options: &SvgOptions) -> String {
    let mut t = format!("Xiangqi position {}", setup.fen());
    if let Some(m) = options.last {
        let _ = write!(t, ", last move {m}");
    }
    t
}

/// Draws a position with an optional last move and caption.
pub fn position(pos: &Position, last: Option<Move>, caption: Option<&str>) -> String {
    board(
        &pos.to_setup(),
        &SvgOptions {
            last,
            caption: caption.map(str::to_owned),
            ..SvgOptions::default()
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_draws_every_piece_and_the_board() {
        let doc = position(&Position::start(), None, None);
        assert_eq!(doc.matches("class=\"piece red\"").count(), 16);
        assert_eq!(doc.matches("class=\"piece black\"").count(), 16);
        assert!(
            ["楚", "河", "汉", "界"]
                .iter()
                .all(|c| doc.contains(&format!(">{c}<")))
        );
        assert!(doc.contains(">帥<") && doc.contains(">將<"));
        assert!(!doc.contains("last-move"));
        // Ten ranks, 2 full and 14 half files, 4 palace diagonals.
        assert_eq!(doc.matches("<line ").count(), 10 + 2 + 14 + 4);
        assert!(doc.trim_end().ends_with("</svg>"));
    }

    /// Every river character's em box keeps clear of every disc a piece on either bank
    /// (ranks 4 and 5, any file) could draw, stroke included.
    #[test]
    fn river_text_clears_every_disc() {
        let river_y = (y_of(5) + y_of(4)) / 2;
        let half = RIVER_SIZE as f64 / 2.0;
        let disc = DISC_R as f64 + 1.25;
        for first in [1, 2, 5, 6] {
            let cx = (x_of(first) + CELL / 2) as f64;
            let (x0, x1, y0, y1) = (
                cx - half,
                cx + half,
                river_y as f64 - half,
                river_y as f64 + half,
            );
            for file in 0..9 {
                for rank in [4, 5] {
                    let (px, py) = (x_of(file) as f64, y_of(rank) as f64);
                    let dx = px.clamp(x0, x1) - px;
                    let dy = py.clamp(y0, y1) - py;
                    assert!(
                        (dx * dx + dy * dy).sqrt() > disc,
                        "river character at file {first}.5 touches the disc on file {file}, rank {rank}"
                    );
                }
            }
        }
    }

    #[test]
    fn last_move_and_caption_are_drawn_and_escaped() {
        let m = Move::parse_iccs("h2e2").unwrap();
        let doc = position(&Position::start().after(m), Some(m), Some("a <b> & \"c\""));
        assert!(doc.contains("class=\"last-move\""));
        assert!(doc.contains("a &lt;b&gt; &amp; &quot;c&quot;"));
        assert!(doc.contains("data-square=\"e2\""));
        assert!(!doc.contains("data-square=\"h2\""));
    }
}
