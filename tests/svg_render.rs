//! The SVG board as a reader sees it: rendered to PNG by librsvg (`rsvg-convert`, Debian's
//! librsvg2-bin) with a CJK font (fonts-noto-cjk), then measured. `.ci/run` installs both; when
//! they are missing this test fails and says what to install.
//!
//! Each piece's glyph is found as the pixels that change when only the glyphs are left out of
//! the same picture; its bounding box must lie inside the piece's disc and be centred on it.

use std::process::Command;
use xiangqi_arbiter::{Move, Position, svg};

mod common;

fn render(svg_text: &str, name: &str) -> (u32, u32, Vec<u8>) {
    // (Removed when the guard is dropped, the test passing or not.)
    let dir = common::Scratch::new(&format!("svg-render-{name}"));
    let svg_path = dir.join(format!("{name}.svg"));
    let png_path = dir.join(format!("{name}.png"));
    std::fs::write(&svg_path, svg_text).unwrap();
    let out = Command::new("rsvg-convert")
        .arg(&svg_path)
        .arg("-o")
        .arg(&png_path)
        .output()
        .expect("rsvg-convert not found: install Debian's librsvg2-bin (and fonts-noto-cjk)");
    assert!(
        out.status.success(),
        "rsvg-convert failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let decoder = png::Decoder::new(std::fs::File::open(&png_path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let channels = info.color_type.samples();
    let mut rgb = Vec::with_capacity((info.width * info.height * 3) as usize);
    for px in buf[..info.buffer_size()].chunks(channels) {
        rgb.extend_from_slice(&px[..3]);
    }
    (info.width, info.height, rgb)
}

/// A CJK font must be installed, or every glyph is a box and the test would measure boxes.
fn assert_cjk_font() {
    let out = Command::new("fc-list")
        .arg(":lang=zh")
        .output()
        .expect("fc-list (fontconfig) not found");
    assert!(
        !String::from_utf8_lossy(&out.stdout).trim().is_empty(),
        "no CJK font installed: install Debian's fonts-noto-cjk"
    );
}

/// The value of attribute `name` in `line`.
fn attr(line: &str, name: &str) -> f64 {
    let key = format!(" {name}=\"");
    let at = line.find(&key).unwrap() + key.len();
    line[at..].split('"').next().unwrap().parse().unwrap()
}

/// The picture with every piece's glyph left out (the discs and rings stay).
fn without_glyphs(doc: &str) -> String {
    doc.lines()
        .map(|l| {
            match (
                l.contains("class=\"piece "),
                l.find("<text"),
                l.find("</text>"),
            ) {
                (true, Some(a), Some(b)) => format!("{}{}", &l[..a], &l[b + "</text>".len()..]),
                _ => l.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn check_glyphs_inside_discs(doc: &str, name: &str) -> usize {
    let (w, h, full) = render(doc, name);
    let (w2, h2, bare) = render(&without_glyphs(doc), &format!("{name}-bare"));
    assert_eq!((w, h), (w2, h2));
    let mut checked = 0;
    for line in doc.lines().filter(|l| l.contains("class=\"piece ")) {
        let (cx, cy, r) = (attr(line, "cx"), attr(line, "cy"), attr(line, "r"));
        let glyph = line
            .split("\">")
            .last()
            .unwrap()
            .trim_end_matches("</text></g>");
        let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
        let reach = r as u32 + 12;
        for y in (cy as u32).saturating_sub(reach)..(cy as u32 + reach).min(h) {
            for x in (cx as u32).saturating_sub(reach)..(cx as u32 + reach).min(w) {
                let i = ((y * w + x) * 3) as usize;
                let diff: u32 = (0..3)
                    .map(|k| full[i + k].abs_diff(bare[i + k]) as u32)
                    .sum();
                if diff > 60 {
                    (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
                }
            }
        }
        assert!(
            x0 <= x1,
            "{name}: glyph {glyph} at ({cx},{cy}) drew nothing"
        );
        // Every corner of the glyph's bounding box lies inside the disc.
        for (x, y) in [(x0, y0), (x1, y0), (x0, y1), (x1 + 1, y1 + 1)] {
            let d = ((x as f64 - cx).powi(2) + (y as f64 - cy).powi(2)).sqrt();
            assert!(
                d <= r,
                "{name}: glyph {glyph} at ({cx},{cy}): box {x0},{y0}-{x1},{y1} leaves the disc of radius {r} ({d:.1})"
            );
        }
        // And it is centred: its middle within a few pixels of the disc's centre.
        let (mx, my) = ((x0 + x1 + 1) as f64 / 2.0, (y0 + y1 + 1) as f64 / 2.0);
        assert!(
            (mx - cx).abs() <= 3.0 && (my - cy).abs() <= 3.0,
            "{name}: glyph {glyph} at ({cx},{cy}) is off centre: box {x0},{y0}-{x1},{y1}, middle ({mx},{my})"
        );
        checked += 1;
    }
    checked
}

#[test]
fn every_glyph_lies_inside_its_disc_and_is_centred() {
    assert_cjk_font();
    // The start position holds all fourteen glyphs.
    let doc = svg::position(&Position::start(), None, Some("start"));
    assert_eq!(check_glyphs_inside_discs(&doc, "start"), 32);
    // A middle game position with a last move and crowded banks of the river.
    let fen = "r1bakab1r/9/1cn4c1/p1p1p1p1p/4n4/2P1P4/P5P1P/1C2C1N2/9/RNBAKAB1R w";
    let pieces = fen
        .split(' ')
        .next()
        .unwrap()
        .chars()
        .filter(char::is_ascii_alphabetic)
        .count();
    let pos = Position::from_fen(fen).unwrap();
    let m = Move::parse_iccs("b0c2").unwrap();
    let doc = svg::position(&pos.after(m), Some(m), Some("ply 9: 马八进七"));
    assert_eq!(check_glyphs_inside_discs(&doc, "middle"), pieces);
}

#[test]
fn river_text_is_drawn_and_not_covered() {
    assert_cjk_font();
    // Pieces on every point of both banks of the river.
    let pos = Position::from_fen("4k4/9/9/9/rncpppcnr/RNCPPPCNR/9/9/9/4K4 w").unwrap();
    let doc = svg::position(&pos, None, None);
    let (w, _, full) = render(&doc, "river");
    let river: String = doc
        .lines()
        .filter(|l| {
            !l.contains(">楚<") && !l.contains(">河<") && !l.contains(">汉<") && !l.contains(">界<")
        })
        .collect::<Vec<_>>()
        .join("\n");
    let (_, _, bare) = render(&river, "river-bare");
    // Each character of 楚河 汉界 shows: some pixels change when it is left out, all of them
    // outside every disc.
    for line in doc.lines().filter(|l| {
        ["楚", "河", "汉", "界"]
            .iter()
            .any(|c| l.contains(&format!(">{c}<")))
    }) {
        let (x, y) = (attr(line, "x") as u32, attr(line, "y") as u32);
        let changed = (y.saturating_sub(30)..y + 10)
            .flat_map(|py| (x.saturating_sub(20)..x + 20).map(move |px| (px, py)))
            .filter(|&(px, py)| {
                let i = ((py * w + px) * 3) as usize;
                (0..3)
                    .map(|k| full[i + k].abs_diff(bare[i + k]) as u32)
                    .sum::<u32>()
                    > 60
            })
            .count();
        assert!(
            changed > 20,
            "river character at ({x},{y}) is not visible ({changed} pixels)"
        );
    }
}
