//! Verdict-side options of the repetition rulings (issue 16, items 7 to 9), on constructed
//! cycles: how occurrences are counted, the tournament overlay, and the AXF allowances with the
//! side labels following the profile.

use xiangqi_arbiter::rules::{OccurrenceCounting, Profile, Verdict, adjudicate, find_cycles};
use xiangqi_arbiter::{Move, Position};

fn line(text: &str) -> Vec<Move> {
    text.split_whitespace()
        .map(|m| Move::parse_iccs(m).unwrap())
        .collect()
}

// ---- occurrences ----

/// Both rooks go round a three-move loop back to the start, then shuffle on a two-move loop: the
/// start position stands for the third time at ply 10, but only the second time along the loop.
const SHUFFLE: &str = "r2ak4/4a4/9/9/9/9/9/9/4A4/3AK3R w";
const ROUTES: &str = "i0i1 a9a8 i1i2 a8a7 i2i0 a7a9 i0i1 a9a8 i1i0 a8a9";

#[test]
fn a_position_reached_by_another_route_is_no_turn_of_the_loop() {
    let start = Position::from_fen(SHUFFLE).unwrap();
    let r = adjudicate::adjudicate(&start, &line(ROUTES), &Profile::cxa()).unwrap();
    let c = r.cycles.last().unwrap();
    assert_eq!((c.start_ply, c.end_ply), (6, 10));
    assert_eq!(c.loop_occurrences, 2);
    assert_eq!(c.visits, 3);
    assert_eq!(c.counting, OccurrenceCounting::AlongLoop);
    assert_eq!(c.occurrences, 2, "the default counts along the loop");
    assert!(
        c.reason_en.contains("2 along the loop, 3 visits"),
        "{}",
        c.reason_en
    );
    assert!(c.reason_zh.contains("尚未到裁决次数"), "{}", c.reason_zh);

    let mut every = Profile::cxa();
    every.occurrence_counting = OccurrenceCounting::EveryVisit;
    let r = adjudicate::adjudicate(&start, &line(ROUTES), &every).unwrap();
    let c = r.cycles.last().unwrap();
    assert_eq!((c.loop_occurrences, c.visits, c.occurrences), (2, 3, 3));
    assert!(c.reason_en.contains("ruling applies"), "{}", c.reason_en);
}

#[test]
fn both_counts_agree_on_a_loop_played_from_its_first_stand() {
    let start = Position::from_fen(SHUFFLE).unwrap();
    let moves = line("i0i1 a9a8 i1i0 a8a9 i0i1 a9a8 i1i0 a8a9 i0i1");
    for counting in [
        OccurrenceCounting::AlongLoop,
        OccurrenceCounting::EveryVisit,
    ] {
        let mut p = Profile::cxa();
        p.occurrence_counting = counting;
        let cycles = find_cycles(
            &start,
            &moves,
            &xiangqi_arbiter::rules::classify_line(&start, &moves, &p),
            &p,
        );
        assert_eq!(cycles.len(), 1);
        let c = &cycles[0];
        assert_eq!((c.start_ply, c.end_ply), (0, 9));
        assert_eq!((c.loop_occurrences, c.visits, c.occurrences), (3, 3, 3));
        assert_eq!(c.verdict, Verdict::Draw);
    }
}

#[test]
fn the_counts_are_in_the_json_and_the_text_report() {
    let start = Position::from_fen(SHUFFLE).unwrap();
    let r = adjudicate::adjudicate(&start, &line(ROUTES), &Profile::cxa()).unwrap();
    let v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    let c = v["cycles"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(c["occurrences"], 2);
    assert_eq!(c["loop_occurrences"], 2);
    assert_eq!(c["visits"], 3);
    assert_eq!(c["counting"], "along_loop");
    let text = r.to_text();
    assert!(
        text.contains(
            "cycle plies 6-10 (occurrence 2: 2 along the loop, 3 visits; counted along_loop)"
        ),
        "{text}"
    );
}

#[test]
fn occurrence_counting_is_a_settings_field() {
    let p: Profile = serde_json::from_str(r#"{"occurrence_counting": "every_visit"}"#).unwrap();
    assert_eq!(p.occurrence_counting, OccurrenceCounting::EveryVisit);
    assert_eq!(
        Profile::cxa().occurrence_counting,
        OccurrenceCounting::AlongLoop
    );
    assert_eq!(
        Profile::axf().occurrence_counting,
        OccurrenceCounting::AlongLoop
    );
    assert!(serde_json::from_str::<Profile>(r#"{"occurrence_counting": "sometimes"}"#).is_err());
}
