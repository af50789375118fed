//! Verdict-side options of the repetition rulings (issue 16, items 7 to 9), on constructed
//! cycles: how occurrences are counted, the tournament overlay, and the AXF allowances with the
//! side labels following the profile.

use xiangqi_arbiter::rules::{OccurrenceCounting, Profile, Verdict, adjudicate, find_cycles};
use xiangqi_arbiter::{Move, Position};

mod common;

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

// ---- AXF allowances, and the labels following the profile ----
//
// The natures are written by hand on a real board (both rooks shuffling, the other pieces
// standing where the targets say), so that each test exercises the verdict alone.

use xiangqi_arbiter::rules::{ChaseTarget, Cycle, MoveNature, NatureKind, WinHow};
use xiangqi_arbiter::{Color, Piece, Role, Square};

/// Red's rook i0-i1-i0, Black's rook a9-a8-a9, twice round; a red crossed pawn on e6 faces a
/// black horse on e7, black cannons stand on c5 and g5.
const BOARD: &str = "r2ak4/9/4n4/4P4/2c3c2/9/9/9/4A4/3AK3R w";
const LOOP: &str = "i0i1 a9a8 i1i0 a8a9 i0i1 a9a8 i1i0 a8a9";

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn target(square: &str, role: Role, how: WinHow, by: &str) -> ChaseTarget {
    ChaseTarget {
        square: sq(square),
        piece: Piece {
            color: Color::Black,
            role,
        },
        joint: false,
        how,
        by: vec![sq(by)],
        reason: String::new(),
    }
}

/// Red's four moves get `red[i % red.len()]`; Black's moves are idle.
fn cycle(red: &[(NatureKind, Vec<ChaseTarget>)], profile: &Profile) -> Cycle {
    cycle_on(BOARD, red, profile)
}

fn cycle_on(fen: &str, red: &[(NatureKind, Vec<ChaseTarget>)], profile: &Profile) -> Cycle {
    let start = Position::from_fen(fen).unwrap();
    let moves = line(LOOP);
    let natures: Vec<MoveNature> = moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| {
            let side = if i % 2 == 0 { Color::Red } else { Color::Black };
            let (kind, targets) = if side == Color::Red {
                red[(i / 2) % red.len()].clone()
            } else {
                (NatureKind::Idle, Vec::new())
            };
            MoveNature {
                mv,
                side,
                kind,
                idle_kind: None,
                targets,
                pawn_targets: Vec::new(),
                capture: None,
                nodes: 0,
            }
        })
        .collect();
    let cycles = find_cycles(&start, &moves, &natures, profile);
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    cycles.into_iter().next().unwrap()
}

fn chase(t: ChaseTarget) -> (NatureKind, Vec<ChaseTarget>) {
    (NatureKind::Chase, vec![t])
}

/// Asserts Red's label and the verdict under a profile.
fn assert_red(c: &Cycle, pattern: &str, allowances: &[&str], verdict: Verdict) {
    assert_eq!(c.red.pattern, pattern, "{c:?}");
    assert_eq!(c.red.allowances, allowances, "{c:?}");
    assert_eq!(c.verdict, verdict, "{c:?}");
    // The label and the verdict agree: a forbidden side against allowed play must vary.
    assert_eq!(
        pattern == "forbidden",
        verdict == Verdict::RedMustVary,
        "{c:?}"
    );
}

#[test]
fn one_piece_chasing_different_pieces_in_turn() {
    let red = [
        chase(target("c5", Role::Cannon, WinHow::Capture, "i1")),
        chase(target("g5", Role::Cannon, WinHow::Capture, "i0")),
    ];
    let c = cycle(&red, &Profile::cxa());
    assert_eq!(c.red.name, "长捉");
    assert_red(&c, "forbidden", &[], Verdict::RedMustVary);
    let c = cycle(&red, &Profile::axf());
    assert_eq!(c.red.name, "长捉");
    assert_red(&c, "allowed", &["different_targets"], Verdict::Draw);
    assert!(
        c.reason_en
            .contains("one piece chasing different pieces in turn is allowed"),
        "{}",
        c.reason_en
    );
    assert!(
        c.reason_zh.contains("一子轮流捉不同的子允许"),
        "{}",
        c.reason_zh
    );
    // One and the same piece chased every time is a perpetual chase under both.
    let same = [chase(target("c5", Role::Cannon, WinHow::Capture, "i1"))];
    assert_red(
        &cycle(&same, &Profile::cxa()),
        "forbidden",
        &[],
        Verdict::RedMustVary,
    );
    assert_red(
        &cycle(&same, &Profile::axf()),
        "forbidden",
        &[],
        Verdict::RedMustVary,
    );
}

#[test]
fn check_alternating_with_chase() {
    let red = [
        (NatureKind::Check, Vec::new()),
        chase(target("c5", Role::Cannon, WinHow::Capture, "i0")),
    ];
    let c = cycle(&red, &Profile::cxa());
    assert_eq!(c.red.name, "一将一捉");
    assert_red(&c, "forbidden", &[], Verdict::RedMustVary);
    let c = cycle(&red, &Profile::axf());
    assert_red(&c, "allowed", &["check_and_chase"], Verdict::Draw);
    // Perpetual check stays forbidden under both.
    let checks = [(NatureKind::Check, Vec::new())];
    assert_red(
        &cycle(&checks, &Profile::cxa()),
        "forbidden",
        &[],
        Verdict::RedMustVary,
    );
    assert_red(
        &cycle(&checks, &Profile::axf()),
        "forbidden",
        &[],
        Verdict::RedMustVary,
    );
}

#[test]
fn perpetual_mate_threat() {
    let red = [(NatureKind::MateThreat, Vec::new())];
    let c = cycle(&red, &Profile::cxa());
    assert_eq!(c.red.name, "长杀");
    assert_red(&c, "forbidden", &[], Verdict::RedMustVary);
    let c = cycle(&red, &Profile::axf());
    assert_red(&c, "allowed", &["mate_threat"], Verdict::Draw);
    // A mate threat that also chases one piece that cannot escape is a perpetual chase under
    // AXF (`mate_threat_may_chase`).
    let red = [(
        NatureKind::MateThreat,
        vec![target("c5", Role::Cannon, WinHow::Capture, "i1")],
    )];
    assert_red(
        &cycle(&red, &Profile::axf()),
        "forbidden",
        &[],
        Verdict::RedMustVary,
    );
}

#[test]
fn chasing_a_protected_piece() {
    // The rook on i1 / i0 attacks a protected cannon: won only through an exchange.
    let red = [chase(target("c5", Role::Cannon, WinHow::Exchange, "i1"))];
    let mut cxa_like = Profile::cxa();
    assert!(!cxa_like.protected_chase_allowed);
    assert_red(
        &cycle(&red, &cxa_like),
        "forbidden",
        &[],
        Verdict::RedMustVary,
    );
    let c = cycle(&red, &Profile::axf());
    assert_red(&c, "allowed", &["protected_target"], Verdict::Draw);
    // Taken by a piece worth less (a horse or cannon on a rook) it is forbidden whether or not
    // the target is protected. (The capturer is read from the board: the red pawn on e6.)
    let red = [chase(target("e7", Role::Rook, WinHow::Exchange, "e6"))];
    let mut axf = Profile::axf();
    axf.king_pawn_chase_allowed = false;
    assert_red(&cycle(&red, &axf), "forbidden", &[], Verdict::RedMustVary);
    // The option alone turns the CXA reading into the AXF one.
    cxa_like.protected_chase_allowed = true;
    let red = [chase(target("c5", Role::Cannon, WinHow::Exchange, "i1"))];
    assert_red(
        &cycle(&red, &cxa_like),
        "allowed",
        &["protected_target"],
        Verdict::Draw,
    );
}

#[test]
fn general_and_pawn_chases() {
    // The crossed pawn e6 alone bears on the horse e7.
    let red = [chase(target("e7", Role::Horse, WinHow::Capture, "e6"))];
    assert_red(
        &cycle(&red, &Profile::cxa()),
        "forbidden",
        &[],
        Verdict::RedMustVary,
    );
    let c = cycle(&red, &Profile::axf());
    assert_red(&c, "allowed", &["king_pawn_chase"], Verdict::Draw);
    // A joint chase with another piece is no pawn chasing by itself.
    let mut joint = target("e7", Role::Horse, WinHow::Capture, "e6");
    joint.joint = true;
    joint.by.push(sq("i1"));
    assert_red(
        &cycle(&[chase(joint)], &Profile::axf()),
        "forbidden",
        &[],
        Verdict::RedMustVary,
    );
    // Nor is a chase of a piece that a rook also bears on (the rook takes part, whatever piece
    // the chase is charged to): a red rook on a7 attacks the horse along the rank.
    let with_rook = "r2ak4/9/R3n4/4P4/2c3c2/9/9/9/4A4/3AK3R w";
    let red = [chase(target("e7", Role::Horse, WinHow::Capture, "e6"))];
    assert_red(
        &cycle_on(with_rook, &red, &Profile::axf()),
        "forbidden",
        &[],
        Verdict::RedMustVary,
    );
    // With the option off, the AXF table counts the pawn's chase.
    let mut axf = Profile::axf();
    axf.king_pawn_chase_allowed = false;
    assert_red(&cycle(&red, &axf), "forbidden", &[], Verdict::RedMustVary);
}

#[test]
fn labels_follow_the_profile_on_a_rulebook_cycle() {
    // AXF diagram 27 (case axf-orange-41): a cannon chases two black rooks on alternate moves.
    let case = include_str!("data/rules/axf.jsonl")
        .lines()
        .find(|l| l.contains("\"axf-orange-41\""))
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(case).unwrap();
    let start = Position::from_fen(v["fen"].as_str().unwrap()).unwrap();
    let moves: Vec<Move> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| Move::parse_iccs(m.as_str().unwrap()).unwrap())
        .collect();
    let axf = adjudicate::adjudicate(&start, &moves, &Profile::axf()).unwrap();
    let c = axf.cycles.last().unwrap();
    assert_eq!(c.red.name, "长捉");
    assert_eq!(c.red.pattern, "allowed");
    assert_eq!(c.red.allowances, ["different_targets"]);
    assert_eq!(axf.verdict, Verdict::Draw);
    let cxa = adjudicate::adjudicate(&start, &moves, &Profile::cxa()).unwrap();
    let c = cxa.cycles.last().unwrap();
    assert_eq!(c.red.pattern, "forbidden");
    assert!(c.red.allowances.is_empty());
}

// ---- mutual forbidden play (互打, issue 16 item 3, `Profile::pawn_chases_in_mutual_play`) ----

/// The last cycle of the line in all four orientations of the board, with the colours of the
/// cycle's sides (as given: Red, Black) swapped back; asserts the four agree on the verdict and
/// both sides' patterns, and returns the cycle on the board as given.
fn cycle_in_every_orientation(fen: &str, moves: &str, profile: &Profile) -> Cycle {
    let start = Position::from_fen(fen).unwrap();
    let r = adjudicate::adjudicate(&start, &line(moves), profile).unwrap();
    let c = r.cycles.last().cloned().expect("a cycle");
    for (mirror, swap) in [(true, false), (false, true), (true, true)] {
        let (f, m) = common::oriented(fen, moves, mirror, swap);
        let r =
            adjudicate::adjudicate(&Position::from_fen(&f).unwrap(), &line(&m), profile).unwrap();
        let t = r.cycles.last().expect("a cycle");
        let (red, black, verdict) = if swap {
            let v = match t.verdict {
                Verdict::RedMustVary => Verdict::BlackMustVary,
                Verdict::BlackMustVary => Verdict::RedMustVary,
                v => v,
            };
            (&t.black, &t.red, v)
        } else {
            (&t.red, &t.black, t.verdict)
        };
        assert_eq!(
            (verdict, red, black),
            (c.verdict, &c.red, &c.black),
            "mirror={mirror} swap={swap}: {f} | {m}"
        );
    }
    c
}

/// Red K e0, C a2, N b2, P e6 (crossed); Black K f9, R a8, N d7, B e7. The red pawn shuttles
/// e6-d6-e6 and each step attacks, by itself, an unprotected piece (d7, then e7); the black
/// rook shuttles a8-b8-a8 and chases the unprotected horse b2, then the cannon a2.
const MUTUAL: &str = "5k3/r8/3nb4/4P4/9/9/9/CN7/9/4K4 w";
const MUTUAL_LOOP: &str = "e6d6 a8b8 d6e6 b8a8 e6d6 a8b8 d6e6 b8a8";

#[test]
fn a_pawn_chasing_by_itself_is_idle_but_its_threats_are_kept() {
    // CXA 第27条: a pawn attacking by itself is idle; the nature keeps the threat for 互打.
    let start = Position::from_fen(MUTUAL).unwrap();
    let natures =
        xiangqi_arbiter::rules::classify_line(&start, &line(MUTUAL_LOOP), &Profile::cxa());
    let red = &natures[0];
    assert_eq!(red.kind, NatureKind::Idle, "{red:?}");
    assert_eq!(red.pawn_targets.len(), 1, "{red:?}");
    assert_eq!(red.pawn_targets[0].square.to_string(), "d7");
    assert_eq!(natures[1].kind, NatureKind::Chase);
    // Not recorded when the option is off.
    let off = Profile {
        pawn_chases_in_mutual_play: false,
        ..Profile::cxa()
    };
    let natures = xiangqi_arbiter::rules::classify_line(&start, &line(MUTUAL_LOOP), &off);
    assert!(natures[0].pawn_targets.is_empty());
    assert_eq!(natures[0].kind, NatureKind::Idle);
}

#[test]
fn a_pawn_chasing_by_itself_against_a_perpetual_chase_is_mutual_forbidden_play() {
    // 互打: Black's perpetual chase (长捉, forbidden) meets Red's pawn threats, which then
    // count as chases: both sides forbidden, a draw (CXA table, RULES.md §3).
    let c = cycle_in_every_orientation(MUTUAL, MUTUAL_LOOP, &Profile::cxa());
    assert_eq!(c.verdict, Verdict::Draw, "{c:?}");
    assert_eq!(c.red.pattern, "forbidden");
    assert_eq!(c.red.name, "长捉");
    assert_eq!(c.black.name, "长捉");
    assert!(
        c.reason_en.contains("mutual forbidden play"),
        "{}",
        c.reason_en
    );
    assert!(c.reason_zh.contains("互打"), "{}", c.reason_zh);
    // Without the exception the pawn is idle and Black must vary.
    let off = Profile {
        pawn_chases_in_mutual_play: false,
        ..Profile::cxa()
    };
    let c = cycle_in_every_orientation(MUTUAL, MUTUAL_LOOP, &off);
    assert_eq!(c.verdict, Verdict::BlackMustVary, "{c:?}");
    assert_eq!(c.red.pattern, "allowed");
}

#[test]
fn without_the_pawn_s_threats_the_perpetual_chase_must_vary() {
    // The same loop without the black horse and elephant: the pawn threatens nothing, Red's
    // moves are plain idle moves, Black's 长捉 against allowed moves must vary.
    let c = cycle_in_every_orientation(
        "5k3/r8/9/4P4/9/9/9/CN7/9/4K4 w",
        MUTUAL_LOOP,
        &Profile::cxa(),
    );
    assert_eq!(c.verdict, Verdict::BlackMustVary, "{c:?}");
    assert_eq!(c.red.pattern, "allowed");
    assert!(!c.reason_en.contains("mutual"), "{}", c.reason_en);
}

#[test]
fn a_pawn_chasing_by_itself_against_allowed_play_stays_idle() {
    // No red cannon or horse: Black's rook chases nothing, both sides play allowed moves, and
    // the pawn's threats stay idle (no mutual forbidden play): a draw, Red's pattern allowed.
    let c = cycle_in_every_orientation(
        "5k3/r8/3nb4/4P4/9/9/9/9/9/4K4 w",
        MUTUAL_LOOP,
        &Profile::cxa(),
    );
    assert_eq!(c.verdict, Verdict::Draw, "{c:?}");
    assert_eq!(c.red.pattern, "allowed");
    assert_eq!(c.black.pattern, "allowed");
    assert!(!c.reason_en.contains("mutual"), "{}", c.reason_en);
}

#[test]
fn the_axf_table_has_no_mutual_play_exception() {
    // AXF: pawn chases are allowed anyway, and so is Black's rook chasing different pieces in
    // turn: a draw, with no 互打 in the reason.
    let c = cycle_in_every_orientation(MUTUAL, MUTUAL_LOOP, &Profile::axf());
    assert_eq!(c.verdict, Verdict::Draw, "{c:?}");
    assert_eq!(c.black.allowances, ["different_targets"]);
    assert!(!c.reason_en.contains("mutual"), "{}", c.reason_en);
}

// ---- AXF rule 38: threatening to "check and capture" (抽将) is allowed (issue 21) ----

#[test]
fn a_threat_to_win_by_checks_does_not_count_toward_an_axf_perpetual_chase() {
    // The same loop, Red's every move a chase of the cannon c5: won by a series of checks, the
    // chase is allowed under AXF (rule 38) and forbidden under CXA (第24条: 捉 includes the
    // win by checks); won by a capture, it is forbidden under both.
    let by_checks = [chase(target("c5", Role::Cannon, WinHow::Checks, "i1"))];
    let c = cycle(&by_checks, &Profile::axf());
    assert_red(&c, "allowed", &["check_and_capture"], Verdict::Draw);
    assert!(
        c.reason_en
            .contains("threatening to check and capture is allowed"),
        "{}",
        c.reason_en
    );
    assert!(c.reason_zh.contains("长抽将得子允许"), "{}", c.reason_zh);
    assert_red(
        &cycle(&by_checks, &Profile::cxa()),
        "forbidden",
        &[],
        Verdict::RedMustVary,
    );
    let mut strict = Profile::axf();
    strict.check_and_capture_allowed = false;
    assert_red(
        &cycle(&by_checks, &strict),
        "forbidden",
        &[],
        Verdict::RedMustVary,
    );
    let by_capture = [chase(target("c5", Role::Cannon, WinHow::Capture, "i1"))];
    assert_red(
        &cycle(&by_capture, &Profile::axf()),
        "forbidden",
        &[],
        Verdict::RedMustVary,
    );
}

/// AXF diagram 97 (orange 142): the red cannon steps a9-a8-a9; on a8 it threatens a discovered
/// check by the rook d8 that wins the rook i3 or the horse a5 (抽将), on a9 it joins the rook
/// against the advisor e8. The black general steps f8-f9-f8.
const DIAGRAM_97: &str = "C1Na5/3Rak3/4bc3/2p6/n5b2/9/1p6r/4B4/4A4/2B1KA3 w";
const DIAGRAM_97_LOOP: &str = "a9a8 f8f9 a8a9 f9f8 a9a8 f8f9";

#[test]
fn perpetually_threatening_to_check_and_capture_is_a_draw_under_axf() {
    let c = cycle_in_every_orientation(DIAGRAM_97, DIAGRAM_97_LOOP, &Profile::axf());
    assert_eq!(c.verdict, Verdict::Draw, "{c:?}");
    assert!(
        c.red.allowances.contains(&"check_and_capture".to_string()),
        "{c:?}"
    );
    // Without the allowance the same play is a perpetual chase.
    let mut strict = Profile::axf();
    strict.check_and_capture_allowed = false;
    let c = cycle_in_every_orientation(DIAGRAM_97, DIAGRAM_97_LOOP, &strict);
    assert_eq!(c.verdict, Verdict::RedMustVary, "{c:?}");
}

#[test]
fn a_threat_by_checks_alternating_with_a_direct_chase_is_allowed_under_axf() {
    // Orange 24: the red rook d3-h3-d3. On h3 it threatens Rh8+ and then the horse d8 (won by
    // checks); on d3 it attacks the horse d8 directly. Only every other move chases in the
    // sense of the perpetual-chase rule: a draw. The direct chase alone would be forbidden.
    let fen = "N1ra1a3/3nk4/4b4/p1p6/6b1p/2P6/P2R4P/4B4/4A4/2B1KA3 w";
    let c = cycle_in_every_orientation(fen, "d3h3 e8e9 h3d3 e9e8 d3h3 e8e9", &Profile::axf());
    assert_eq!(c.verdict, Verdict::Draw, "{c:?}");
    assert_eq!(c.red.allowances, ["check_and_capture"], "{c:?}");
    let mut strict = Profile::axf();
    strict.check_and_capture_allowed = false;
    let c = cycle_in_every_orientation(fen, "d3h3 e8e9 h3d3 e9e8 d3h3 e8e9", &strict);
    assert_eq!(c.verdict, Verdict::RedMustVary, "{c:?}");
}

// ---- AXF rule 32: two pieces chasing two pieces in turn, over the repeated play (issue 21) ----

/// AXF diagram 80 (orange 118): red rooks i8 and b1, black cannons h9 and a0.
const DIAGRAM_80: &str = "3rkabc1/4a3R/4b4/9/9/9/9/B8/1R2A4/c1BAK4 w";

#[test]
fn two_rooks_chasing_two_cannons_in_turn_is_a_draw_under_axf() {
    // As recorded: each rook chases its cannon for a whole loop in turn. The shortest loop at
    // the end shows one rook chasing one cannon; the repeated play, two chasing two.
    let moves = "i8h8 h9i9 b1a1 a0b0 h8i8 i9h9 i8h8 h9i9 a1b1 b0a0 b1a1 a0b0";
    let c = cycle_in_every_orientation(DIAGRAM_80, moves, &Profile::axf());
    assert_eq!(c.verdict, Verdict::Draw, "{c:?}");
    assert_eq!(c.red.allowances, ["different_targets"], "{c:?}");
    // Judged on the shortest loop alone, it is a perpetual chase.
    let mut shortest = Profile::axf();
    shortest.chase_in_turn_over_repetition = false;
    let c = cycle_in_every_orientation(DIAGRAM_80, moves, &shortest);
    assert_eq!(c.verdict, Verdict::RedMustVary, "{c:?}");
    // The diagram's own order, the rooks alternating move by move: a draw either way.
    let alternating = "i8h8 h9i9 b1a1 a0b0 h8i8 i9h9 a1b1 b0a0 i8h8 h9i9 b1a1 a0b0";
    for p in [Profile::axf(), shortest] {
        let c = cycle_in_every_orientation(DIAGRAM_80, alternating, &p);
        assert_eq!(c.verdict, Verdict::Draw, "{c:?}");
    }
}

#[test]
fn one_rook_chasing_one_cannon_through_the_whole_repetition_must_vary_under_axf() {
    // The same board, only the rook on the right chasing the cannon h9-i9 round after round:
    // one piece chasing one piece is a perpetual chase over the whole repetition too.
    let moves = "i8h8 h9i9 h8i8 i9h9 i8h8 h9i9 h8i8 i9h9 i8h8 h9i9";
    let c = cycle_in_every_orientation(DIAGRAM_80, moves, &Profile::axf());
    assert_eq!(c.verdict, Verdict::RedMustVary, "{c:?}");
    assert!(c.red.allowances.is_empty(), "{c:?}");
}
