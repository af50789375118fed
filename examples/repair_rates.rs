//! Rates of the score-sheet repair per kind of slip, next to today's suggestions (the failing
//! move's own suggestions), over real games with generated slips (fixed seed).
//!
//! `cargo run --release --example repair_rates [SHEETS_PER_KIND] [SEED]` (default 51, as the
//! issue's table; the seed defaults to the one the numbers were first taken with, so that another
//! seed gives held-out sheets). Prints, per notation and kind: sheets, the game played as the first suggestion / among
//! the suggestions (before), as the first repair / among the repairs (after), searches the budget
//! cut short, and the time per sheet (mean and worst, reading included).

#[path = "../tests/common/slips.rs"]
mod slips;

use slips::{Kind, Rng};
use std::time::Instant;
use xiangqi_arbiter::notation::Notation;

fn main() {
    let per: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(51);
    let seed: u64 = std::env::args()
        .nth(2)
        .and_then(|a| match a.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16).ok(),
            None => a.parse().ok(),
        })
        .unwrap_or(0x5eed_0031);
    let games = slips::games();
    println!(
        "{} games; {per} sheets per kind and notation; seed {seed:#x}",
        games.len()
    );
    println!(
        "{:<8} {:<14} {:>5} {:>11} {:>11} {:>11} {:>11} {:>4} {:>8} {:>8}",
        "notation",
        "slip",
        "n",
        "before top",
        "before any",
        "after top",
        "after any",
        "cut",
        "mean ms",
        "max ms"
    );
    let mut rng = Rng(seed);
    let mut total = [0usize; 5];
    for notation in [Notation::Chinese, Notation::Wxf, Notation::Iccs] {
        for kind in Kind::ALL {
            let mut c = [0usize; 6];
            let (mut time, mut worst) = (0.0f64, 0.0f64);
            let mut tries = 0;
            while c[0] < per && tries < per * 10 {
                tries += 1;
                let g = &games[rng.below(games.len())];
                let Some(sheet) = slips::make(g, notation, kind, &mut rng) else {
                    continue;
                };
                let t0 = Instant::now();
                let o = slips::measure(&sheet);
                let ms = t0.elapsed().as_secs_f64() * 1e3;
                time += ms;
                worst = worst.max(ms);
                if std::env::var_os("REPAIR_TRACE").is_some() {
                    trace(&sheet, o.after_top);
                }
                if !o.after_top && std::env::var_os("REPAIR_MISSES").is_some() {
                    miss(&sheet);
                }
                c[0] += 1;
                c[1] += usize::from(o.before_top);
                c[2] += usize::from(o.before_any);
                c[3] += usize::from(o.after_top);
                c[4] += usize::from(o.after_any);
                c[5] += usize::from(o.cut_short);
            }
            if c[0] == 0 {
                continue;
            }
            for k in 0..5 {
                total[k] += c[k];
            }
            println!(
                "{:<8} {:<14} {:>5} {:>11} {:>11} {:>11} {:>11} {:>4} {:>8.1} {:>8.1}",
                notation.name(),
                kind.name(),
                c[0],
                format!("{}/{}", c[1], c[0]),
                format!("{}/{}", c[2], c[0]),
                format!("{}/{}", c[3], c[0]),
                format!("{}/{}", c[4], c[0]),
                c[5],
                time / c[0] as f64,
                worst
            );
        }
    }
    let pct = |k: usize| 100.0 * total[k] as f64 / total[0] as f64;
    println!(
        "all single slips: {} sheets; before: top {:.1} %, any {:.1} %; after: top {:.1} %, any {:.1} %",
        total[0],
        pct(1),
        pct(2),
        pct(3),
        pct(4)
    );
    // Two slips in one game.
    let mut rng = Rng(seed.wrapping_add(1));
    let (mut n, mut top, mut any) = (0, 0, 0);
    for _ in 0..per * 4 {
        let g = &games[rng.below(games.len())];
        let a = Kind::ALL[rng.below(7)];
        let b = Kind::ALL[rng.below(7)];
        let Some(sheet) = slips::make_two(g, Notation::Chinese, (a, b), &mut rng) else {
            continue;
        };
        let o = slips::measure(&sheet);
        n += 1;
        top += usize::from(o.after_top);
        any += usize::from(o.after_any);
    }
    println!("two slips (Chinese): {n} sheets; after: top {top}/{n}, any {any}/{n}");
}

/// Prints a sheet the first repair got wrong: the slip, the error and the repairs offered.
fn miss(sheet: &slips::Sheet) {
    let e = xiangqi_arbiter::record::pgn::parse_game(&sheet.pgn(), 1);
    let Some(err) = e.error else { return };
    let lo = sheet.at.saturating_sub(2);
    println!(
        "MISS {:?} {:?} slip at ply {} ({}), failing ply {:?}",
        sheet.notation,
        sheet.kind,
        sheet.at + 1,
        sheet.texts[lo..(sheet.at + 3).min(sheet.texts.len())].join(" "),
        err.ply
    );
    for r in &err.repairs {
        println!(
            "    {} {}",
            if r.moves == sheet.truth { "*" } else { " " },
            r.explanation_en
        );
    }
}

/// One line per sheet: the slip's ply, the failing ply and whether the first repair was right.
fn trace(sheet: &slips::Sheet, top: bool) {
    let e = xiangqi_arbiter::record::pgn::parse_game(&sheet.pgn(), 1);
    let Some(err) = e.error else { return };
    println!(
        "TRACE {:?} {:?} at {} fail {} top {top}",
        sheet.notation,
        sheet.kind,
        sheet.at + 1,
        err.ply.unwrap_or(0)
    );
}
