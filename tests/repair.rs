//! Score-sheet repair measured on real games with generated slips (fixed seed): every kind of
//! slip of the table, in Chinese, WXF and ICCS sheets, read by the PGN reader.
//!
//! Goal: 90 % of single-slip sheets have the game played as their first repair, 97 % among the
//! repairs offered. `cargo run --release --example repair_rates` prints the rates per kind, with
//! today's suggestions for comparison, on a larger sample.

mod common;
#[path = "common/slips.rs"]
mod slips;

use slips::{Kind, Rng};
use xiangqi_arbiter::notation::Notation;

/// Sheets per kind and notation (kept small: CI runs this in seconds).
const PER_KIND: usize = 12;

#[test]
fn single_slips_are_repaired() {
    let games = slips::games();
    assert!(games.len() > 1000, "{} games", games.len());
    let mut rng = Rng(0x5eed_0030);
    let (mut n, mut top, mut any) = (0, 0, 0);
    let mut misses = Vec::new();
    // Per kind (over the three notations): sheets, first repair right, offered.
    let mut per_kind = std::collections::BTreeMap::<Kind, [usize; 3]>::new();
    for notation in [Notation::Chinese, Notation::Wxf, Notation::Iccs] {
        for kind in Kind::ALL {
            let mut made = 0;
            let mut tries = 0;
            while made < PER_KIND && tries < PER_KIND * 10 {
                tries += 1;
                let g = &games[rng.below(games.len())];
                let Some(sheet) = slips::make(g, notation, kind, &mut rng) else {
                    continue;
                };
                made += 1;
                let o = slips::measure(&sheet);
                n += 1;
                top += usize::from(o.after_top);
                any += usize::from(o.after_any);
                let k = per_kind.entry(kind).or_default();
                k[0] += 1;
                k[1] += usize::from(o.after_top);
                k[2] += usize::from(o.after_any);
                if !o.after_top {
                    misses.push(format!("{:?} {:?}: {}", notation, kind, sheet.pgn()));
                }
            }
        }
    }
    let (t, a) = (top as f64 / n as f64, any as f64 / n as f64);
    eprintln!("{n} sheets: top-1 {t:.3}, among offered {a:.3}");
    for m in misses.iter().take(5) {
        eprintln!("missed: {m}");
    }
    for (kind, [n, top, any]) in &per_kind {
        eprintln!("{}: top-1 {top}/{n}, offered {any}/{n}", kind.name());
    }
    assert!(t >= 0.90, "top-1 {t:.3} over {n} sheets");
    assert!(a >= 0.97, "among offered {a:.3} over {n} sheets");
    // Each kind on its own (24-36 sheets: the weakest, left out, gives 32/36 top-1 and 35/36
    // offered on this seed; the floors leave room for one sheet less, not for a kind to fall
    // behind).
    for (kind, [n, top, any]) in &per_kind {
        let (t, a) = (*top as f64 / *n as f64, *any as f64 / *n as f64);
        assert!(t >= 0.85, "{}: top-1 {top}/{n}", kind.name());
        assert!(a >= 0.94, "{}: offered {any}/{n}", kind.name());
    }
}

#[test]
fn two_slips_pinned_down_by_the_rest_are_repaired() {
    let games = slips::games();
    let mut rng = Rng(0x2_5eed_0030);
    let (mut n, mut any) = (0, 0);
    let kinds = [
        (Kind::Digit, Kind::LeftOut),
        (Kind::LeftOut, Kind::Piece),
        (Kind::Direction, Kind::Twice),
        (Kind::Swapped, Kind::FileNumeral),
    ];
    for &pair in &kinds {
        let mut made = 0;
        let mut tries = 0;
        while made < 6 && tries < 60 {
            tries += 1;
            let g = &games[rng.below(games.len())];
            let Some(sheet) = slips::make_two(g, Notation::Chinese, pair, &mut rng) else {
                continue;
            };
            made += 1;
            n += 1;
            any += usize::from(slips::measure(&sheet).after_any);
        }
    }
    let a = any as f64 / n as f64;
    eprintln!("{n} sheets with two slips: the game played offered on {a:.3}");
    assert!(n >= 20);
    assert!(a >= 0.6, "two slips: among offered {a:.3} over {n} sheets");
}

#[test]
fn a_valid_game_has_no_repairs_and_a_failing_one_says_so() {
    let games = slips::games();
    let texts = slips::written(&games[0], Notation::Chinese);
    let sheet = slips::Sheet {
        kind: Kind::Digit,
        notation: Notation::Chinese,
        truth: games[0].clone(),
        texts,
        at: 0,
    };
    let e = xiangqi_arbiter::record::pgn::parse_game(&sheet.pgn(), 1);
    assert!(e.error.is_none());
    let mut broken = sheet.clone();
    broken.texts.remove(11);
    let e = xiangqi_arbiter::record::pgn::parse_game(&broken.pgn(), 1);
    let err = e.error.expect("fails");
    let best = &err.repairs[0];
    assert!(best.replays_to_end);
    assert_eq!(
        best.edits[0].op,
        xiangqi_arbiter::record::repair::EditOp::Insert
    );
    assert_eq!(best.edits[0].ply, 12);
    assert!(
        best.explanation_en.contains("Black's move 6"),
        "{}",
        best.explanation_en
    );
    assert!(
        best.explanation_zh.contains("黑方第6回合"),
        "{}",
        best.explanation_zh
    );
}

/// A short opening with Black's 2nd move (车９平８) left out, which the later 车８进８ pins down,
/// with tags, a comment and a variation.
const BROKEN: &str = "[Event \"Club match\"]\n[Red \"A\"]\n[Black \"B\"]\n\n\
    1. 炮二平五 {中炮} 马８进７ 2. 马二进三 (2. 兵七进一 卒７进１) 3. 车一平二 马２进３ \
    4. 车二进六 炮８平９ 5. 车二平三 炮９退１ 6. 马八进七 车８进８ *\n";

#[test]
fn xqa_repair_writes_the_game_keeping_everything_and_marking_the_edit() {
    let dir = common::Scratch::new("repair");
    let input = dir.join("broken.pgn");
    std::fs::write(&input, BROKEN).unwrap();
    let out = dir.join("fixed.pgn");
    let (i, o) = (input.to_str().unwrap(), out.to_str().unwrap());

    // validate names the slip below the error, Chinese first.
    let (code, text, _) = common::xqa(&["validate", i]);
    assert_eq!(code, 1);
    assert!(
        text.contains("ply 4 (move 2, Black) 车一平二 cannot be played. Likely: Black's move 2 was left out; with 车９平８ there the rest replays to the end."),
        "{text}"
    );
    assert!(text.contains("第4步（第2回合，黑方）「车一平二」无法走。可能：漏记了黑方第2回合；在此补上「车９平８」后其余着法均可走完。"), "{text}");
    let (code, json, _) = common::xqa(&["validate", "--json", i]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    let r = &v["error"]["repairs"][0];
    assert_eq!(r["edits"][0]["op"], "insert");
    assert_eq!(r["edits"][0]["ply"], 4);
    assert_eq!(r["edits"][0]["iccs"], "i9h9");
    assert_eq!(r["edits"][0]["text"], "车９平８");
    assert_eq!(r["replays_to_end"], true);
    assert_eq!(r["plies_replayed"], 12);

    let (code, _, err) = common::xqa(&["repair", i, "-o", o]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("Black's move 2 was left out"), "{err}");
    let fixed = std::fs::read_to_string(&out).unwrap();
    for kept in [
        "[Event \"Club match\"]",
        "[Red \"A\"]",
        "中炮",
        "兵七进一",
        "卒７进１",
        "xqa 修正",
        "车９平８",
    ] {
        assert!(fixed.contains(kept), "{kept} in {fixed}");
    }
    let (code, text, _) = common::xqa(&["validate", o]);
    assert_eq!(code, 0, "{text}");
    // Written by xqa repair: overwritten without --force.
    let (code, _, err) = common::xqa(&["repair", i, "-o", o]);
    assert_eq!(code, 0, "{err}");
    // Anything else is not, unless asked.
    let (code, _, err) = common::xqa(&["repair", i, "-o", i]);
    assert_eq!(code, 2);
    assert!(err.contains("--force"), "{err}");
    assert_eq!(std::fs::read_to_string(&input).unwrap(), BROKEN);
    let (code, _, err) = common::xqa(&["repair", i, "-o", i, "--force"]);
    assert_eq!(code, 0, "{err}");
    let (code, text, _) = common::xqa(&["validate", i]);
    assert_eq!(code, 0, "{text}");
    // A valid game has nothing to repair; a repair out of range is a usage error.
    let (code, _, err) = common::xqa(&["repair", o]);
    assert_eq!(code, 1);
    assert!(err.contains("nothing to repair"), "{err}");
    std::fs::write(&input, BROKEN).unwrap();
    let (code, _, err) = common::xqa(&["repair", i, "--pick", "99"]);
    assert_eq!(code, 2, "{err}");
    let (code, list, _) = common::xqa(&["repair", i, "--list"]);
    assert_eq!(code, 0);
    assert!(
        list.starts_with(i) && list.contains("1. 漏记了黑方第2回合"),
        "{list}"
    );
}
