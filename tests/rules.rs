//! Rule-engine tests: every CXA rulebook diagram (natures of every move and the ruling), every AXF
//! case (ruling under the AXF profile), and constructed positions for the clauses of RULES.md §2.

use serde_json::Value;
use xiangqi_arbiter::rules::{IdleKind, MoveNature, NatureKind, Profile, adjudicate};
use xiangqi_arbiter::{Move, Position};

mod common;

struct Case {
    id: String,
    fen: String,
    moves: Vec<Move>,
    natures: Option<Vec<String>>,
    verdict: String,
}

fn load(text: &str) -> Vec<Case> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("case json");
            Case {
                id: v["id"].as_str().unwrap().to_string(),
                fen: v["fen"].as_str().unwrap().to_string(),
                moves: v["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| Move::parse_iccs(m.as_str().unwrap()).unwrap())
                    .collect(),
                natures: v["natures"]
                    .as_array()
                    .map(|a| a.iter().map(|n| n.as_str().unwrap().to_string()).collect()),
                verdict: v["verdict"].as_str().unwrap().to_string(),
            }
        })
        .collect()
}

/// The case-file name of a nature: an idle move with idle kind exchange is `exchange`.
fn case_name(n: &MoveNature) -> &'static str {
    match (n.kind, n.idle_kind) {
        (NatureKind::Idle, Some(IdleKind::Exchange)) => "exchange",
        (k, _) => k.name(),
    }
}

/// Runs the cases; returns the ids that fail, with what went wrong.
fn failures(cases: &[Case], profile: &Profile) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for c in cases {
        let start = Position::from_fen(&c.fen).unwrap_or_else(|e| panic!("{}: {e}", c.id));
        let report = adjudicate::adjudicate(&start, &c.moves, profile)
            .unwrap_or_else(|e| panic!("{}: {e}", c.id));
        let got: Vec<&str> = report.natures.iter().map(case_name).collect();
        let mut wrong = Vec::new();
        if let Some(want) = &c.natures
            && got != *want
        {
            wrong.push(format!("natures {got:?} want {want:?}"));
        }
        if report.verdict.name() != c.verdict {
            wrong.push(format!(
                "verdict {} want {}",
                report.verdict.name(),
                c.verdict
            ));
        }
        if !wrong.is_empty() {
            out.push((c.id.clone(), wrong.join("; ")));
        }
    }
    out
}

/// Cases the engine does not yet rule as the book does (see the report in the commit log: most
/// differ on one move's nature where the book weighs a positional idea, such as an exchange offer
/// that also threatens, that the engine's material-and-legality reading of §2 does not see).
/// The tests fail when any other case fails (a regression) and when a listed case starts
/// passing (so that the list is kept honest).
const CXA_KNOWN_FAILURES: &[&str] = &["参考图34"];

const AXF_KNOWN_FAILURES: &[&str] = &[];

fn check_against_known(name: &str, cases: &[Case], profile: &Profile, known: &[&str]) {
    let fails = failures(cases, profile);
    for (id, why) in &fails {
        eprintln!("{name} FAIL {id}: {why}");
    }
    eprintln!("{name}: {}/{} pass", cases.len() - fails.len(), cases.len());
    let failing: Vec<&str> = fails.iter().map(|(id, _)| id.as_str()).collect();
    let regressions: Vec<&(String, String)> = fails
        .iter()
        .filter(|(id, _)| !known.contains(&id.as_str()))
        .collect();
    assert!(
        regressions.is_empty(),
        "{name} regressions: {regressions:#?}"
    );
    let fixed: Vec<&&str> = known.iter().filter(|k| !failing.contains(k)).collect();
    assert!(
        fixed.is_empty(),
        "{name} cases now pass; remove them from the known failures: {fixed:?}"
    );
}

#[test]
fn cxa_cases() {
    let cases = load(include_str!("data/rules/cxa.jsonl"));
    assert_eq!(cases.len(), 63);
    check_against_known("CXA", &cases, &Profile::cxa(), CXA_KNOWN_FAILURES);
}

#[test]
fn axf_cases() {
    let cases = load(include_str!("data/rules/axf.jsonl"));
    assert_eq!(cases.len(), 122);
    check_against_known("AXF", &cases, &Profile::axf(), AXF_KNOWN_FAILURES);
}

// ---- RULES.md §2, clause by clause, on small constructed positions ----

/// The nature of the last move of `moves` played from `fen`, under `profile`.
fn last_nature(fen: &str, moves: &str, profile: &Profile) -> MoveNature {
    let start = Position::from_fen(fen).unwrap();
    let line: Vec<Move> = moves
        .split_whitespace()
        .map(|m| Move::parse_iccs(m).unwrap())
        .collect();
    let natures = xiangqi_arbiter::rules::try_classify_line(&start, &line, profile)
        .unwrap_or_else(|(_, e)| panic!("{e}"));
    natures.last().unwrap().clone()
}

fn cxa(fen: &str, moves: &str) -> MoveNature {
    last_nature(fen, moves, &Profile::cxa())
}

fn target_squares(n: &MoveNature) -> Vec<String> {
    n.targets.iter().map(|t| t.square.to_string()).collect()
}

#[test]
fn rook_attacking_an_unprotected_horse_chases_it() {
    let n = cxa("4k4/9/9/9/4n4/9/9/9/R8/3K5 w", "a1a5");
    assert_eq!(n.kind, NatureKind::Chase);
    assert_eq!(target_squares(&n), ["e5"]);
    assert!(!n.targets[0].joint);
    assert_eq!(n.targets[0].how, xiangqi_arbiter::rules::WinHow::Capture);
}

#[test]
fn attacking_a_protected_piece_of_lower_value_is_idle() {
    let n = cxa("4k4/9/4r4/9/4n4/9/9/9/R8/3K5 w", "a1a5");
    assert_eq!(n.kind, NatureKind::Idle);
}

#[test]
fn horse_on_a_protected_rook_is_a_chase_by_net_gain() {
    let n = cxa("4k4/9/4r4/9/4r4/9/9/1N7/9/3K5 w", "b2c4");
    assert_eq!(n.kind, NatureKind::Chase);
    assert_eq!(target_squares(&n), ["e5"]);
    assert_eq!(n.targets[0].how, xiangqi_arbiter::rules::WinHow::Exchange);
}

#[test]
fn false_root_through_a_pin_is_no_protection() {
    // The black rook on e7 protects the horse on c7 but is pinned on the e-file by the red rook.
    let n = cxa("4k4/9/2n1r4/9/9/9/9/4R4/R8/3K5 w", "a1a7");
    assert_eq!(n.kind, NatureKind::Chase);
    assert_eq!(target_squares(&n), ["c7"]);
    // Without the pin the root is real: idle.
    let n = cxa("4k4/9/2n1r4/9/9/9/9/9/R8/3K5 w", "a1a7");
    assert_eq!(n.kind, NatureKind::Idle);
}

#[test]
fn under_protected_piece_is_chased_jointly() {
    // Horse e5 protected once (pawn e6), attacked by the rook and, after the move, the cannon
    // (screen e3): cannon takes, pawn retakes, rook takes the pawn.
    let n = cxa("4k4/9/9/4p4/R3n4/9/4P4/9/8C/3K5 w", "i1e1");
    assert_eq!(n.kind, NatureKind::Chase);
    assert_eq!(target_squares(&n), ["e5"]);
    assert!(n.targets[0].joint, "{n:?}");
}

#[test]
fn trading_off_the_only_protector_of_a_second_piece_is_a_chase() {
    // RULES.md §2.1/§2.3, two-step win: the cannon comes to i5 and, over the pawn f5, attacks
    // the horse c5 that only the elephant e7 protects. Cannon for horse is even, but the
    // horse alone protects the crossed pawn e4 the red horse d2 attacks: after the elephant
    // takes back, the horse takes the pawn. Cannon and horse chase the horse c5 together.
    let n = cxa("4k4/9/4b4/9/2n2P3/4p4/9/3N5/9/3K4C w", "i0i5");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target_squares(&n), ["c5"]);
    assert_eq!(n.targets[0].how, xiangqi_arbiter::rules::WinHow::Exchange);
    assert!(n.targets[0].joint);
    let mut by: Vec<String> = n.targets[0].by.iter().map(|s| s.to_string()).collect();
    by.sort();
    assert_eq!(by, ["d2", "i5"]);
    // Without the pawn the trade wins nothing: idle.
    let n = cxa("4k4/9/4b4/9/2n2P3/9/9/3N5/9/3K4C w", "i0i5");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
}

#[test]
fn a_capture_uncovering_an_attack_on_a_rook_is_a_chase() {
    // RULES.md §2.1/§2.3, capture with gain of tempo: the horse f5 can take the elephant e7
    // (protected by the elephant g9); with the other horse on f4, taking lifts the leg of
    // f4 towards the rook g6, so the recapture costs the rook.
    let n = cxa("4k1b2/9/4b4/6r2/5N3/9/7N1/9/9/3K5 w", "h3f4");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target_squares(&n), ["e7"]);
    assert!(n.targets[0].joint);
}

#[test]
fn a_two_step_win_completed_by_a_pawn_is_idle() {
    // As above, but the pawn e3, not a horse, would take the pawn e4 after the trade: the
    // general or a pawn attacking by itself is idle (CXA, 参考图33).
    let n = cxa("4k4/9/4b4/9/2n2P3/4p4/4P4/9/9/3K4C w", "i0i5");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    // The AXF profile has no two-step wins (a protected piece is won only on its square).
    let n = last_nature(
        "4k4/9/4b4/9/2n2P3/4p4/9/3N5/9/3K4C w",
        "i0i5",
        &Profile::axf(),
    );
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
}

#[test]
fn a_capture_that_lets_a_standing_mate_threat_through_is_no_threat() {
    // RULES.md §2.5 (safety) with the opponent threatening mate: Black mates by Ri2-i0 (the
    // rook b1 holds d1, the general e9 holds e0). The red rook attacks the unprotected horse
    // g5, but taking it lets the mate through: no threat, idle. The shallow safety test is
    // switched off here (refutation_mate_cap 0) so that only the standing-mate reading sees it.
    let fen = "4k4/9/9/9/6n2/R8/9/8r/1r7/3K5 w";
    let mut p = Profile::cxa();
    p.refutation_mate_cap = 0;
    let n = last_nature(fen, "a4a5", &p);
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    p.safety_sees_standing_mate = false;
    let n = last_nature(fen, "a4a5", &p);
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
}

#[test]
fn discovered_attack_is_a_new_chase() {
    let n = cxa("4k4/9/9/9/RN2c4/9/9/9/9/3K5 w", "b5c3");
    assert_eq!(n.kind, NatureKind::Chase);
    assert_eq!(target_squares(&n), ["e5"]);
    assert_eq!(
        n.targets[0].by.first().map(|s| s.to_string()),
        Some("a5".into())
    );
}

#[test]
fn a_piece_moving_in_as_a_cannon_screen_chases() {
    let n = cxa("4k4/9/9/9/C3n4/9/1N7/9/9/3K5 w", "b3c5");
    assert_eq!(n.kind, NatureKind::Chase);
    assert_eq!(target_squares(&n), ["e5"]);
}

#[test]
fn the_general_chasing_alone_is_idle() {
    let n = cxa("5k3/9/9/9/9/9/9/3n5/4K4/9 w", "e1e2");
    assert_eq!(n.kind, NatureKind::Idle);
}

#[test]
fn a_pawn_taking_part_in_a_joint_chase_is_a_chase() {
    // Pawn c4 and rook together win the horse c5 protected by the pawn c6; neither alone does
    // (the pawn alone would give a pawn for the horse, which is no gain: the pawn floats).
    let n = cxa("4k4/9/9/2p6/2n6/2P6/9/9/R8/5K3 w", "a1a5");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert!(n.targets[0].joint);
    assert!(n.targets[0].by.iter().any(|s| s.to_string() == "c4"));
}

#[test]
fn a_pawn_chasing_alone_is_idle() {
    // The crossed pawn steps next to an unprotected horse: a pawn alone does not chase.
    let n = cxa("4k4/9/9/3n5/9/3P5/9/9/9/5K3 w", "d4d5");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
}

#[test]
fn a_continuing_threat_is_idle() {
    // 从捉到捉: the rook keeps attacking the same horse from another square.
    let n = cxa("4k4/9/9/9/R3n4/9/9/9/9/3K5 w", "a5b5");
    assert_eq!(n.kind, NatureKind::Idle);
}

#[test]
fn a_threat_appearing_while_answering_a_check_is_idle() {
    // The general steps out of the rook's check and so frees the horse's leg: the horse now
    // attacks the unprotected black horse, but the threat came from answering the check.
    let n = cxa("3k5/9/9/9/9/9/9/9/3n5/r3KN3 w", "e0e1");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    // The same threat made without a check to answer is a chase.
    let n = cxa("3k5/9/9/9/9/9/9/9/3n5/4KN3 w", "e0e1");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
}

#[test]
fn facing_rooks_offer_an_exchange() {
    let n = cxa("4k4/4n4/2r6/9/9/9/1N7/9/R8/3K5 w", "a1c1");
    assert_eq!(n.kind, NatureKind::Idle);
    assert_eq!(n.idle_kind, Some(IdleKind::Exchange));
}

#[test]
fn a_mate_threat_and_a_check() {
    let n = cxa("4k4/R8/9/9/9/9/9/9/R8/3K5 w", "a1b1");
    assert_eq!(n.kind, NatureKind::MateThreat);
    let n = cxa("4k4/R8/9/9/9/9/9/9/R8/3K5 w", "a8a9");
    assert_eq!(n.kind, NatureKind::Check);
}

#[test]
fn a_threat_the_opponent_walked_into_is_not_charged() {
    // 自毙: the black horse steps into the rook's line; Red's next, unrelated move is idle.
    let n = cxa("4k4/9/3n5/9/R8/9/9/9/9/3K5 b", "d7e5 d0d1");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
}

#[test]
fn a_pinned_piece_does_not_attack_off_its_line() {
    let n = cxa("3k5/4r4/9/9/9/4R4/n8/9/9/4K4 w", "e4e3");
    assert_ne!(n.kind, NatureKind::Chase, "{n:?}");
}

#[test]
fn the_net_gain_test_counts_the_whole_exchange() {
    // Rook takes a horse protected by a pawn: rook for horse is a loss, so no chase.
    let n = cxa("4k4/9/9/9/4p4/4n4/9/9/R8/3K5 w", "a1a4");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
}

#[test]
fn a_chase_by_checks_is_charged_to_the_checking_piece_where_it_stands() {
    // The horse uncovers the rook on the i-file: Ri9+ drives the general off rank 9 and the rook
    // then takes the horse a9 (抽将). The chaser is the rook on i0 (not the square it would
    // capture from after the check, which holds nothing, or an enemy piece, now).
    let n = cxa("n3k4/9/9/9/9/9/8N/9/9/3K4R w", "i3g4");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target_squares(&n), ["a9"]);
    assert_eq!(n.targets[0].how, xiangqi_arbiter::rules::WinHow::Checks);
    assert_eq!(
        n.targets[0]
            .by
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
        ["i0"]
    );
}

#[test]
fn a_check_that_takes_a_rook_facing_it_is_the_exchange_not_a_chase() {
    // Ra9 faces the black rook d9 (兑: each can take the other; a9 is guarded by the horse b7).
    // Rxd9 would also check the general f9 and then take the horse d5, but that line opens with
    // the exchange itself: the opponent, on the move, can take first. Idle, exchange.
    let n = cxa("3r1k3/9/1N7/9/3n5/9/9/9/9/R2K5 w", "a0a9");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    assert_eq!(n.idle_kind, Some(IdleKind::Exchange));
    // The same check-and-capture on a horse (no exchange: it cannot take the rook) chases.
    let n = cxa("3n1k3/9/1N7/9/3n5/9/9/9/9/R2K5 w", "a0a9");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
}

#[test]
fn a_pawn_taking_a_piece_with_a_false_root_still_chases_alone() {
    // Hf7 makes the elephant e7's recapture on g5 lose to mate (Rd8: the horse covers d8 and e9
    // once its leg e7 is empty), so the pawn h5 can now take the elephant g5. The horse also
    // bears on g5, but the root is false, the elephant counts as unprotected, and the pawn takes
    // it by itself: idle (CXA), as the book rules it (参考图5).
    let n = cxa("3k1a3/R8/4b4/7N1/6bP1/9/9/4B4/4A4/3AK1B2 w", "h6f7");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    // A horse (h3) in the pawn's place chases.
    let n = cxa("3k1a3/R8/4b4/7N1/6b2/9/7N1/4B4/4A4/3AK1B2 w", "h6f7");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target_squares(&n), ["g5"]);
}

#[test]
fn uncovering_two_rooks_against_each_other_offers_an_exchange() {
    // The horse steps off the a-file: the rooks a1 and a8 now face each other (兑), though
    // neither moved. Idle, exchange.
    let n = cxa("r3k4/9/9/9/N8/9/9/R8/9/3K5 w", "a5c4");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    assert_eq!(n.idle_kind, Some(IdleKind::Exchange));
    // A piece stepping between two cannons as their common screen offers the exchange too.
    let n = cxa("c3k4/9/9/9/9/1N7/9/C8/9/3K5 w", "b4a6");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    assert_eq!(n.idle_kind, Some(IdleKind::Exchange));
}

#[test]
fn a_mate_that_needs_the_offered_rook_is_the_exchange_not_a_mate_threat() {
    // Rf1 offers the rook exchange on the f-file; taking the rook f5 would also mate (the pawn
    // e8 covers e9), but the opponent, on the move, can just as well take first (the horse h2
    // takes back): idle, exchange (图29).
    let n = cxa("5k3/4P4/9/9/5r3/9/9/7N1/R8/4K4 w", "a1f1");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    assert_eq!(n.idle_kind, Some(IdleKind::Exchange));
    // Against a horse, which cannot take back, the same move threatens mate.
    let n = cxa("5k3/4P4/9/9/5n3/9/9/7N1/R8/4K4 w", "a1f1");
    assert_eq!(n.kind, NatureKind::MateThreat, "{n:?}");
}

#[test]
fn a_piece_forced_to_interpose_and_then_taken_is_won_by_checks() {
    // After Ri5, Red threatens Rxe5+ (the rook f8 must interpose on e8: the pawn c9 covers d9,
    // the horse f9 stands on f9), then the pawn sacrifice Pd9+ drags the general off e9 and the
    // rook takes the unprotected rook e8: the rook f8 is chased by a series of checks (图24).
    // (The pawn d3 shuts the d-file, so that Pd9 is no mate.)
    let n = cxa("2P1kn3/5r3/9/9/4p4/8R/3P5/9/9/3K5 w", "i4i5");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target_squares(&n), ["f8"]);
    assert_eq!(n.targets[0].how, xiangqi_arbiter::rules::WinHow::Checks);
}

#[test]
fn a_threat_freed_by_blocking_a_check_is_idle() {
    // Re3+ leaves the cannon g1 unguarded (the general cannot step out of its palace to g1);
    // the advisor's block frees the black rook to take it, but the block does not make that
    // threat: idle (参考图19).
    let n = cxa("4ka3/9/5a3/9/9/9/6R2/9/5KCr1/9 w", "g3e3 f9e8");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    // The rook stepping next to the unguarded cannon, no check to answer, chases it.
    let n = cxa("4ka3/9/5a3/9/9/9/2R6/9/5KC2/7r1 w", "c3c4 h0h1");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
}

#[test]
fn a_pawn_sacrificed_to_win_a_rook_is_a_gain_but_not_for_a_horse() {
    // After Rf3, ...e2+ (the crossed pawn gives itself up with check) uncovers the rook on the
    // red rook b3: a pawn for a rook is a gain, the pawn floating at most a horse's worth
    // (参考图29): a chase by checks.
    let n = cxa("5k3/9/9/9/5r3/9/1R2p4/9/4K4/9 b", "f5f3");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target_squares(&n), ["b3"]);
    assert_eq!(n.targets[0].how, xiangqi_arbiter::rules::WinHow::Checks);
    // The same line winning a horse for the pawn is no gain (图24): idle.
    let n = cxa("5k3/9/9/9/5r3/9/1N2p4/9/4K4/9 b", "f5f3");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
}

#[test]
fn a_win_by_checks_whose_capture_walks_into_mate_is_no_chase() {
    // The rook steps to a4: next move a9+ drives the general to d8 and the rook takes the horse
    // on g9 (抽将): a chase.
    let n = cxa("3k2n2/4a4/9/9/9/7R1/9/9/9/4K4 w", "h4a4");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(n.targets[0].how, xiangqi_arbiter::rules::WinHow::Checks);
    // Same, but once the rook has taken the horse Black mates at once (rook i0, the horse on f3
    // covering e1): the win is not safe (RULES.md §2.5), so no chase.
    let n = cxa("3k2n2/4a4/9/9/8r/7R1/5n3/9/9/4K4 w", "h4a4");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
}

#[test]
fn a_check_that_costs_material_on_every_defence_is_a_joint_chase() {
    // RULES.md §2.1 (抽将, read per defence): the cannon comes to h8 and threatens Ch9+ over the
    // advisor f9. The general stepping up to e8 is mated by Rg8, the elephant interposing on g9
    // is taken by the rook, the advisor stepping off loses it to further checks: no one piece
    // is lost on every defence, but every defence loses one, so cannon and rook chase the
    // elephant together (CXA 参考图41).
    let fen = "2baka3/C8/4b1R2/9/9/9/9/9/4A4/4KA3 w";
    let n = cxa(fen, "a8h8");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    let e7 = n
        .targets
        .iter()
        .find(|t| t.square.to_string() == "e7")
        .expect("e7 chased");
    assert_eq!(e7.how, xiangqi_arbiter::rules::WinHow::Checks);
    assert!(e7.joint, "{n:?}");
    let mut by: Vec<String> = e7.by.iter().map(|s| s.to_string()).collect();
    by.sort();
    assert_eq!(by, ["g7", "h8"]);
    // Without the per-defence reading a win by checks needs one piece lost on every defence.
    let mut p = Profile::cxa();
    p.checks_win_per_defence = false;
    assert_eq!(last_nature(fen, "a8h8", &p).kind, NatureKind::Idle);
    // Without the advisor f9 there is no screen, no check, no chase.
    let n = cxa("2bak4/C8/4b1R2/9/9/9/9/9/4A4/4KA3 w", "a8h8");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
}

#[test]
fn a_counter_win_the_opponent_already_had_does_not_make_a_capture_unsafe() {
    // The black rook comes to f6 and attacks the crossed pawn a6. After rook takes a6 Red can
    // check on the opened f-file and then take the c3 pawn, but Red could take c3 anyway: the
    // capture of a6 costs nothing it did not already cost, so the threat is real: a chase.
    let n = cxa("5k3/4a4/9/P8/5r3/9/2p4R1/9/4A4/4K4 b", "f5f6");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target_squares(&n), ["a6"]);
}

#[test]
fn a_capture_costing_as_much_as_it_gains_still_chases() {
    // RULES.md §2: the only protector does not chase when the capture "costs more than it
    // gains". The rook comes to c5: it attacks the unrooted horse on c7 and is the only
    // protector of its cannon on a5, which the black rook would then take: horse for cannon,
    // an equal cost, so still a chase (图28).
    let n = cxa("r3k4/9/2n6/9/C6R1/9/3P5/9/9/3K5 w", "h5c5");
    assert_eq!(n.kind, NatureKind::Chase);
    assert_eq!(target_squares(&n), ["c7"]);
    // Protecting a rook instead, which the black rook has just attacked, the capture would
    // cost more than the horse: idle. (With the rook on a5 standing attacked, see
    // `a_protector_leaving_its_ward_standing_under_attack_still_chases`.)
    let n = last_nature(
        "1r2k4/9/2n6/9/R6R1/9/3P5/9/9/3K5 b",
        "b9a9 h5c5",
        &Profile::cxa(),
    );
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
}

#[test]
fn a_protector_leaving_its_ward_standing_under_attack_still_chases() {
    // RULES.md §2, the capturer's duty, read with `duty_needs_fresh_attack` (图22, 图12). The
    // red rook on h2 is the only protector of the cannon on a2, which the black rook on a8
    // attacks. It slides to g2, still guarding the cannon, and attacks the crossed pawn on g4:
    // taking it would lose the cannon, but the attack on the cannon stood before Black's last
    // move, so the rook chases the pawn.
    let standing = "4k4/r8/9/9/9/6p2/9/C6R1/4A4/3AK4 w";
    let n = cxa(standing, "h2g2");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target_squares(&n), ["g4"]);
    // When Black's last move made the attack on the cannon, the rook must answer it first: the
    // same slide is idle.
    let fresh = "4k4/1r7/9/9/9/6p2/9/C6R1/4A4/3AK4 b";
    let n = last_nature(fresh, "b8a8 h2g2", &Profile::cxa());
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    // The literal reading (every duty holds the threat back) makes the standing case idle too.
    let literal = Profile {
        duty_needs_fresh_attack: false,
        ..Profile::cxa()
    };
    let n = last_nature(standing, "h2g2", &literal);
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    // With the rook already on g2: the cannon that Black has just attacked steps to b2, out of
    // the attack, and frees the rook's capture of the pawn: a chase (图12).
    let n = last_nature(
        "4k4/1r7/9/9/9/6p2/9/C5R2/4A4/3AK4 b",
        "b8a8 a2b2",
        &Profile::cxa(),
    );
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target_squares(&n), ["g4"]);
    // The cannon stood attacked: the rook's threat was already there as such (charged when it
    // was made), but it could not really be carried out while the cannon hung on the rook.
    // The cannon stepping out of the attack frees its protector: a chase of the pawn by the
    // rook, however long the attack stood (参考图16: the pawn attacked on e6 from the start
    // of the line steps to d6 and frees the rook's capture of f3).
    let stood = "4k4/r8/9/9/9/6p2/9/C5R2/4A4/3AK4 w";
    let n = cxa(stood, "a2b2");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target_squares(&n), ["g4"]);
    // (The literal reading never saw the threat before, and calls the step a chase too.)
    let n = last_nature(stood, "a2b2", &literal);
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    // Without `ward_escape_frees_protector`, the standing case's step is idle.
    let no_release = Profile {
        ward_escape_frees_protector: false,
        ..Profile::cxa()
    };
    let n = last_nature(stood, "a2b2", &no_release);
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    // A piece the capturer shields on a line (a pin, 图23) counts however long it has stood:
    // the red cannon on c6 would uncover its rook on a6 to the black rook on f6 by taking the
    // horse on c1 (the same cannon and rook stood so in the diagram): idle.
    let n = cxa("2bakab2/9/9/R2C1r3/2p6/9/9/9/2n6/3K5 w", "d6c6");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
}

#[test]
fn stepping_out_of_danger_to_guard_a_cannon_screen_is_a_joint_chase() {
    // The red cannon h8 aims over its horse g8 at the unprotected black rook f8, which attacks
    // the horse. The red rook on g6 hangs to the black horse f4, so the threat on f8 could not
    // really be carried out. The rook steps to g7, out of danger and next to the screen: the
    // rook could no longer parry by taking the horse, and rook, horse and cannon chase it
    // together (参考图39).
    let n = cxa("4k4/5rNC1/9/6R2/9/5n3/9/3A5/9/3K5 w", "g6g7");
    assert_eq!(n.kind, NatureKind::Chase);
    assert_eq!(target_squares(&n), ["f8"]);
    assert!(n.targets[0].joint);
    // A rook that merely steps out of danger, taking no part, makes the threat real but does
    // not chase (参考图37, 参考图21).
    let n = cxa("4k4/5rNC1/9/2R6/9/1n7/9/3A5/9/3K5 w", "c6d6");
    assert_eq!(n.kind, NatureKind::Idle);
    // With the rook safe on g3 the threat on f8 was already real: moving next to the screen
    // continues it (从捉到捉).
    let n = cxa("4k4/5rNC1/9/9/9/5n3/6R2/3A5/9/3K5 w", "g3g7");
    assert_eq!(n.kind, NatureKind::Idle);
}

#[test]
fn stepping_out_of_danger_to_cover_what_the_capture_gives_away_is_a_joint_chase() {
    // The red horse e3 attacks the unprotected black cannon f5 and is the only protector of the
    // red cannon g4, which the black rook g7 attacks: taking f5 would give g4 away, cannon for
    // cannon; and the red rook i1 hangs to the cannon i9. The rook steps to g1, out of danger
    // and behind g4: it takes over the horse's duty, so the capture becomes real, and without
    // the rook it would not be. Horse and rook chase f5 together (参考图15: the black rook
    // steps back to h3 beside the horse g3 that the capturing cannon's move would leave bare).
    let n = cxa("3aka2c/9/6r2/8p/5c3/6C2/4N4/9/8R/3K5 w", "i1g1");
    assert_eq!(n.kind, NatureKind::Chase);
    assert_eq!(target_squares(&n), ["f5"]);
    assert!(n.targets[0].joint);
    let mut by: Vec<String> = n.targets[0].by.iter().map(|s| s.to_string()).collect();
    by.sort();
    assert_eq!(by, ["e3", "g1"]);
    // Stepping out of danger elsewhere leaves g4 to the horse: the capture still costs as much
    // as it wins, no threat at all, idle.
    let n = cxa("3aka2c/9/6r2/8p/5c3/6C2/4N4/9/8R/3K5 w", "i1h1");
    assert_eq!(n.kind, NatureKind::Idle);
}

#[test]
fn cutting_a_root_by_checks_is_a_chase() {
    // The red rook a5 attacks the unprotected black horse a8, but Black would answer Rxa8 by
    // Ng1+, forking the general and the elephant e2 (the advisor e1 keeps the general from
    // guarding it): a win-back by checks, less than the horse, a root by checks of a8. The
    // cannon h0 steps to h2, on the horse's leg: no more Ng1+, the root is cut (断根), and the
    // rook chases the horse alone (图3: the elephant to g0 blocking Rh0+, 长捉无根子).
    let fen = "3k5/n8/9/9/R8/9/7n1/4B4/4A4/4K2C1 w";
    let n = cxa(fen, "h0h2");
    assert_eq!(n.kind, NatureKind::Chase);
    assert_eq!(target_squares(&n), ["a8"]);
    assert!(!n.targets[0].joint);
    // The elephant stepping away from the fork is not needed for the capture (take it away and
    // there is nothing to win back): idle.
    let n = cxa(fen, "e2g4");
    assert_eq!(n.kind, NatureKind::Idle);
    // Without the reading (and under AXF, where a win-back by checks is no root), the threat
    // on a8 merely continues (从捉到捉).
    let mut p = Profile::cxa();
    p.cut_check_root_is_new = false;
    assert_eq!(last_nature(fen, "h0h2", &p).kind, NatureKind::Idle);
    assert_eq!(
        last_nature(fen, "h0h2", &Profile::axf()).kind,
        NatureKind::Idle
    );
}

#[test]
fn an_exchange_offer_that_cannot_be_accepted_leaves_a_chase() {
    // The red cannon g8 and the black cannon d8 attack each other over the horse e8. With the
    // red horse on b6, the black cannon cannot take g8: the horse would mate on d7 (the black
    // general is hemmed in). The offer cannot be accepted, so the cannon chases d8, and the
    // horse's move makes it so (参考图49: 长捉无根子, by the cannon alone).
    let n = cxa("3aka3/3cn1C2/9/9/9/N8/9/9/9/3K5 w", "a4b6");
    assert_eq!(n.kind, NatureKind::Chase);
    assert_eq!(target_squares(&n), ["d8"]);
    assert!(!n.targets[0].joint);
    // The horse going elsewhere leaves an exchange the black cannon can accept: idle.
    let n = cxa("3aka3/3cn1C2/9/9/9/N8/9/9/9/3K5 w", "a4b2");
    assert_eq!(n.kind, NatureKind::Idle);
    // AXF: a mutual attack of equals is an exchange offer whatever follows.
    let n = last_nature("3aka3/3cn1C2/9/9/9/N8/9/9/9/3K5 w", "a4b6", &Profile::axf());
    assert_eq!(n.kind, NatureKind::Idle);
}

#[test]
fn under_protected_piece_with_spare_attackers_is_chased_jointly() {
    // The black horse c5 is protected once (rook c9). The red rook comes to d5: rook, cannon
    // f5 (over the rook) and horse e4 attack it, and any two of them win it. No piece wins it
    // alone, so the chase is joint, by all three (参考图49). (The rook also blocks the black
    // horse's leg toward e4, so the horses do not stand in an exchange.)
    let n = cxa("2r1k4/9/9/3R5/2n2C3/4N4/9/9/9/3K5 w", "d6d5");
    assert_eq!(n.kind, NatureKind::Chase);
    assert_eq!(target_squares(&n), ["c5"]);
    assert!(n.targets[0].joint);
    let mut by: Vec<String> = n.targets[0].by.iter().map(|s| s.to_string()).collect();
    by.sort();
    assert_eq!(by, ["d5", "e4", "f5"]);
    // With the horse on d3 instead, horse and horse can take each other (兑) and the rook only
    // presses that exchange (图21's reading): idle, exchange.
    let n = cxa("2r1k4/9/9/3R5/2n2C3/9/3N5/9/9/3K5 w", "d6d5");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    assert_eq!(n.idle_kind, Some(IdleKind::Exchange), "{n:?}");
}

#[test]
fn pinning_the_only_protector_is_a_joint_chase() {
    // The cannon comes to b9 and pins the elephant on c9 (advisor d9 as screen, general e9):
    // the elephant can no longer take back on e7, so rook and cannon win it together.
    let n = cxa("2bak4/4a4/4b4/9/1C2R4/9/9/9/9/4K4 w", "b5b9");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target_squares(&n), ["e7"]);
    assert!(n.targets[0].joint, "{n:?}");
    assert!(n.targets[0].by.iter().any(|s| s.to_string() == "b9"));
    // Without the pin the elephant is protected: idle.
    let n = cxa("2bak4/4a4/4b4/9/1C2R4/9/9/9/9/4K4 w", "b5b6");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
}

#[test]
fn a_piece_shielding_the_capturer_from_a_pin_does_not_take_part() {
    // The horse comes to e1: the black cannon on e9 (screen e8) now faces three pieces, so the
    // rook on e3 may leave the file, and horse and rook each attack the cannon on d3. Each one
    // only shields the other from the pin: the chase is by one piece, not joint.
    let n = cxa("4ck3/4a4/9/9/9/9/3cR4/6N2/9/4K4 w", "g2e1");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    let d3 = n
        .targets
        .iter()
        .find(|t| t.square.to_string() == "d3")
        .expect("d3 chased");
    assert!(!d3.joint, "{n:?}");
}

#[test]
fn a_pawn_helped_only_by_a_pin_still_attacks_by_itself() {
    // The black cannon comes to e5 and pins the red advisor on e1 (elephant e2 as screen): the
    // pawn on f3 could now take the advisor on f2 for nothing, but the pawn is the only piece
    // attacking f2: a pawn attacking by itself is idle (CXA).
    let n = cxa("3k5/9/9/9/c8/9/5p3/4BA3/4A4/4K4 b", "a5e5");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
}

#[test]
fn a_cannon_attacking_over_its_own_screen_chases_alone() {
    // The cannon attacks the unprotected horse over its own pawn: one piece chases.
    let n = cxa("4k4/9/9/9/2P1n4/9/C8/9/9/3K5 w", "a3a5");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target_squares(&n), ["e5"]);
    assert!(!n.targets[0].joint, "{n:?}");
}

#[test]
fn a_capture_uncovering_a_piece_worth_the_gain_still_chases() {
    // The red cannon comes to c6 and attacks the unprotected rook on c1 over the pawn on c5;
    // taking it would uncover the rook on a6 to the black rook on f6: rook for rook, no loss,
    // so the capturer's duty does not cancel the chase (RULES.md §2: "costs more than it gains").
    let n = cxa("2bakab2/9/9/R2C1r3/2p6/9/9/9/2r6/3K5 w", "d6c6");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target_squares(&n), ["c1"]);
    // A horse on c1 is worth less than the rook the capture uncovers: idle.
    let n = cxa("2bakab2/9/9/R2C1r3/2p6/9/9/9/2n6/3K5 w", "d6c6");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
}

#[test]
fn a_piece_joining_the_attack_on_a_piece_standing_in_an_exchange_presses_the_exchange() {
    // The horses on f5 and h6 can take each other (兑). The red rook comes back to f6: h6 is now
    // attacked twice and protected once (rook h3), but Black can trade horse for horse on f5:
    // the rook presses the exchange, it does not chase (CXA 图21).
    let n = cxa("3aka3/5R3/9/7n1/5N3/9/7r1/4B4/9/4K4 w", "f8f6");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    assert_eq!(n.idle_kind, Some(IdleKind::Exchange), "{n:?}");
    // The horse arriving on f5 makes the pair itself (the exchange was not on offer before);
    // h6 is won only with the horse (the rook alone would lose itself to the rook h3), and
    // the horse can trade itself off: the attack rests on the exchange partner, an exchange
    // offer (参考图50: the black rook freeing its horse's leg towards the red horse).
    let n = cxa("3aka3/9/9/5R1n1/9/3N5/7r1/4B4/9/4K4 w", "d4f5");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    assert_eq!(n.idle_kind, Some(IdleKind::Exchange), "{n:?}");
}

#[test]
fn a_piece_that_could_take_ours_for_nothing_stands_in_no_exchange() {
    // As in 图21, but the rook comes to a6 and does not protect the horse on f5: the black
    // horse taking f5 would win it, not trade it, so h6 stands in no exchange (兑 is an even
    // trade) and the rook joining the attack on it chases.
    let n = cxa("3aka3/R8/9/7n1/5N3/9/7r1/4B4/9/4K4 w", "a8a6");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target_squares(&n), ["h6"]);
}

#[test]
fn a_cannon_on_a_rook_standing_in_an_exchange_still_chases() {
    // The rooks on d4 and e4 can take each other; the red cannon comes to f4 and attacks d4
    // over the red rook: cannon for rook wins whatever the exchange (net gain beats protection).
    let n = cxa("3aka3/9/9/4p4/9/3rR4/9/5C3/9/5K3 w", "f2f4");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target_squares(&n), ["d4"]);
}

#[test]
fn protecting_a_piece_that_stands_in_an_exchange_is_an_exchange_offer() {
    // The horses on f5 and h6 can take each other; the red rook comes to f8 and protects f5:
    // the horse exchange now stands even (CXA 图30, the cannon to b6).
    let n = cxa("3aka3/R8/9/7n1/5N3/9/7r1/4B4/9/4K4 w", "a8f8");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    assert_eq!(n.idle_kind, Some(IdleKind::Exchange), "{n:?}");
}

// ---- repetition ----

#[test]
fn pattern_names_follow_the_rulebook() {
    let report = adjudicate::adjudicate(
        &Position::from_fen("2b6/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w").unwrap(),
        &["f0e0", "e8f8", "e0f0", "f8e8", "f0e0"]
            .iter()
            .map(|m| Move::parse_iccs(m).unwrap())
            .collect::<Vec<_>>(),
        &Profile::cxa(),
    )
    .unwrap();
    let c = report.cycles.last().unwrap();
    assert_eq!(c.red.name, "长将");
    assert_eq!(c.black.name, "两闲");
    assert_eq!(c.red.pattern, "forbidden");
    assert_eq!(c.occurrences, 2);
    assert_eq!(report.verdict.name(), "red_must_vary");
}

#[test]
fn no_repetition_means_no_verdict() {
    let report = adjudicate::adjudicate(
        &Position::start(),
        &[Move::parse_iccs("h2e2").unwrap()],
        &Profile::cxa(),
    )
    .unwrap();
    assert!(report.cycles.is_empty());
    assert_eq!(report.verdict.name(), "none");
}

#[test]
fn tournament_overlay_turns_an_early_draw_into_red_must_vary() {
    let moves: Vec<Move> = ["b0c2", "b9c7", "c2b0", "c7b9"]
        .iter()
        .map(|m| Move::parse_iccs(m).unwrap())
        .collect();
    // The overlay is an event's regulation, off in the CXA profile (issue 16, item 9).
    let r = adjudicate::adjudicate(&Position::start(), &moves, &Profile::cxa()).unwrap();
    assert_eq!(r.verdict.name(), "draw");
    let mut overlay = Profile::cxa();
    overlay.tournament_overlay = true;
    let r = adjudicate::adjudicate(&Position::start(), &moves, &overlay).unwrap();
    assert_eq!(r.verdict.name(), "red_must_vary");
    assert!(r.cycles[0].reason_en.contains("tournament overlay"));
}

#[test]
fn json_report_has_the_issue_4_shape() {
    let start = Position::from_fen("2b6/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w").unwrap();
    let moves: Vec<Move> = ["f0e0", "e8f8", "e0f0", "f8e8"]
        .iter()
        .map(|m| Move::parse_iccs(m).unwrap())
        .collect();
    let r = adjudicate::adjudicate(&start, &moves, &Profile::cxa()).unwrap();
    let v: Value = serde_json::from_str(&r.to_json()).unwrap();
    assert_eq!(v["rules"], "cxa");
    let m = &v["moves"][0];
    for k in [
        "ply",
        "side",
        "iccs",
        "chinese",
        "nature",
        "idle_kind",
        "targets",
        "capture",
    ] {
        assert!(m.get(k).is_some(), "moves[0].{k} missing");
    }
    let c = &v["cycles"][0];
    for k in [
        "start_ply",
        "end_ply",
        "occurrences",
        "red",
        "black",
        "verdict",
        "reason_zh",
        "reason_en",
    ] {
        assert!(c.get(k).is_some(), "cycles[0].{k} missing");
    }
    for k in ["natures", "pattern", "name"] {
        assert!(c["red"].get(k).is_some(), "red.{k} missing");
    }
    assert_eq!(v["verdict"], "red_must_vary");
    assert_eq!(c["red"]["natures"], serde_json::json!(["check", "check"]));
}

#[test]
fn real_games_classify_every_move_without_running_out() {
    for l in include_str!("data/rules/games.jsonl").lines() {
        let v: Value = serde_json::from_str(l).unwrap();
        let start = Position::from_fen(v["fen"].as_str().unwrap()).unwrap();
        let moves: Vec<Move> = v["moves"]
            .as_str()
            .unwrap()
            .split_whitespace()
            .map(|m| Move::parse_iccs(m).unwrap())
            .collect();
        let r = adjudicate::adjudicate(&start, &moves, &Profile::cxa())
            .unwrap_or_else(|e| panic!("{}: {e}", v["source"]));
        assert_eq!(r.moves.len(), moves.len());
        assert!(
            r.natures.iter().all(|n| n.kind != NatureKind::Undetermined),
            "{}: undetermined nature with the default budget",
            v["source"]
        );
        let axf = adjudicate::adjudicate(&start, &moves, &Profile::axf()).unwrap();
        assert_eq!(axf.cycles.len(), r.cycles.len());
        if v["max_position_repeats"].as_u64().unwrap() >= 2 {
            assert!(
                !r.cycles.is_empty(),
                "{}: repetition not found",
                v["source"]
            );
        }
    }
}

#[test]
fn an_exhausted_budget_is_reported_as_undetermined_never_guessed() {
    let mut tiny = Profile::cxa();
    tiny.node_budget = 1;
    let n = last_nature("4k4/R8/9/9/9/9/9/9/R8/3K5 w", "a1b1", &tiny);
    assert_eq!(n.kind, NatureKind::Undetermined);
    // A check needs no search and is still a check.
    let n = last_nature("4k4/R8/9/9/9/9/9/9/R8/3K5 w", "a8a9", &tiny);
    assert_eq!(n.kind, NatureKind::Check);
}

#[test]
fn settings_file_round_trip_keeps_every_option() {
    let p = Profile::axf();
    let text = serde_json::to_string_pretty(&p).unwrap();
    for key in [
        "mate_ply_cap",
        "node_budget",
        "chase_check_cap",
        "tournament_overlay",
        "overlay_moves",
        "ruling_occurrence",
        "values",
    ] {
        assert!(text.contains(key), "{key} missing from the settings file");
    }
    let back: Profile = serde_json::from_str(&text).unwrap();
    assert_eq!(back, p);
}

#[test]
fn a_capture_that_gives_up_the_defence_against_a_quiet_mate_threat_is_no_threat() {
    // RULES.md §2.1 and §2.5 (`Profile::counter_threat_mate_cap`, the book's "return to a key
    // defensive point"): the red horse g4 steps to e5 and attacks the advisor d7, which the
    // black general cannot take back (it would face the red general on the d-file). But the
    // cannon's quiet step a4-d4 threatens Nc1-d3 mate (a cannon check over the horse, which
    // also holds e1 and d2). With the horse on e5 Red parries that at no cost (the horse to c4,
    // c6 or f3, hitting the cannon or holding d2); after Nxd7 the horse cannot, and the parries
    // left (the general's or the advisor's step) lose more than the advisor: the step is idle.
    // (The red elephant c0 is there so that nothing else refutes the capture.)
    let fen = "5a3/9/3ak4/9/9/c5N2/9/4BA3/2nK5/2B6 w";
    let n = cxa(fen, "g4e5");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    // Without the reading the advisor is chased.
    let mut p = Profile::cxa();
    p.counter_threat_mate_cap = 0;
    let n = last_nature(fen, "g4e5", &p);
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target_squares(&n), ["d7"]);
    // Without the cannon there is no mate threat: a chase under the CXA profile too.
    let n = cxa("5a3/9/3ak4/9/9/6N2/9/4BA3/2nK5/2B6 w", "g4e5");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target_squares(&n), ["d7"]);
    // The AXF profile does not read it (no counter-attack refutes a capture there).
    let n = last_nature(fen, "g4e5", &Profile::axf());
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
}

/// The nature of the last move of the line on the board as given, mirrored, and turned round
/// with the colours swapped: asserts the three agree (kind, idle kind, number of targets and
/// how each is won) and returns the first.
fn cxa_in_every_orientation(fen: &str, moves: &str) -> MoveNature {
    in_every_orientation(fen, moves, &Profile::cxa())
}

/// [`cxa_in_every_orientation`] under any profile.
fn in_every_orientation(fen: &str, moves: &str, profile: &Profile) -> MoveNature {
    let n = last_nature(fen, moves, profile);
    for swap in [false, true] {
        // Mirrored (swap false), or turned round with the colours swapped (swap true).
        let (f, m) = common::oriented(fen, moves, !swap, swap);
        let t = last_nature(&f, &m, profile);
        let hows = |n: &MoveNature| {
            let mut h: Vec<_> = n.targets.iter().map(|t| (t.how.name(), t.joint)).collect();
            h.sort();
            h
        };
        assert_eq!(
            (t.kind, t.idle_kind, hows(&t)),
            (n.kind, n.idle_kind, hows(&n)),
            "swap={swap}: {f} {m}"
        );
    }
    n
}

/// A rook steps next to the enemy rook to offer the exchange (protected by its elephant) while a
/// cannon check up the side would win that rook: after Ci9+ the general's step lets only the
/// rook itself take its exchange partner (the exchange carried out), while the rook interposing
/// on e9 can be taken by the rook or the cannon alike. The opponent picks the defence whose
/// capture is weakest and the chaser the capture that is not the exchange partner, so the tie
/// on e9 is no matter: the win rests on the exchange, and the move is an exchange offer on
/// every orientation of the board (it used to depend on which capturer was generated first).
#[test]
fn a_check_win_that_rests_on_the_exchange_partner_is_an_exchange_offer() {
    let n = cxa_in_every_orientation("3k2b2/9/9/9/9/4r4/9/7R1/9/2B2K2C w", "h2e2");
    assert_eq!(n.kind, NatureKind::Idle);
    assert_eq!(n.idle_kind, Some(IdleKind::Exchange));
}

/// A cannon comes to h1 facing the enemy cannon on d1 over the red general (the two could take
/// each other), threatening Rf1+: after the general's step the rook and the cannon can equally
/// take d1. The chaser picks the rook, which is no exchange partner of d1, so the cannon is
/// won by checks: a chase, on every orientation of the board (it used to depend on which of
/// the two captures was generated first).
#[test]
fn among_equal_captures_after_a_check_the_one_not_by_the_exchange_partner_counts() {
    let n = cxa_in_every_orientation("3a1k3/4a4/9/9/9/2R4c1/5r3/2C5B/2nCK4/6B2 b", "h4h1");
    assert_eq!(n.kind, NatureKind::Chase);
    assert_eq!(target_squares(&n), ["d1"]);
    assert_eq!(n.targets[0].how, xiangqi_arbiter::rules::WinHow::Checks);
}

/// The red elephant takes the checking cannon on c0 and opens the e-file: the elephant on e7,
/// protected by the horse on g6, is attacked by the horse on f5 and by the cannon on e1 over
/// the cannon on e4, and either may take first for the same gain. Cannon first, the horse's
/// recapture is real and the second attacker wins the exchange (two pieces); horse first, the
/// recapture is met by a mate (a false root) and the horse wins it alone. The chaser picks
/// its line, so the chase of e7 is not joint, on every orientation of the board (it used to
/// depend on which capture was generated first).
#[test]
fn a_target_one_line_wins_alone_is_not_chased_jointly() {
    let n = cxa_in_every_orientation("3akc1R1/4a4/4b4/6n2/5N3/3rC4/5p3/4B4/4C4/2cAKA3 w", "e2c0");
    assert_eq!(n.kind, NatureKind::Chase);
    let e7 = n.targets.iter().find(|t| t.square.to_string() == "e7");
    assert!(e7.is_some_and(|t| !t.joint), "{:?}", n.targets);
}

/// AXF counts what a check chases when the move makes it. The black horse checks from c1 and
/// attacks the unprotected elephant on e2, which the horse on f4 attacks too: either horse
/// wins it alone, and the chase is charged to the moved one, so the check chases e2 on every
/// orientation of the board (it used to depend on which horse was found first).
#[test]
fn a_check_chases_a_piece_the_moved_piece_could_win_alone() {
    let n = in_every_orientation(
        "3k5/9/9/9/9/5n3/1n7/3AB4/4A4/4K4 b",
        "b3c1",
        &Profile::axf(),
    );
    assert_eq!(n.kind, NatureKind::Check);
    assert_eq!(target_squares(&n), ["e2"]);
}

/// AXF: the red horse takes the cannon on d7 with check and so becomes the screen of the cannon
/// on b7 against the elephant on e7, which the horse on d5 also attacks (the position of game
/// 8 of the speed corpus, ply 89). Either wins it alone; the chase is charged to the cannon
/// whose attack the move made, so the check chases e7 on every orientation of the board (it
/// used to depend on which was found first).
#[test]
fn a_check_chases_a_piece_it_gives_a_screen_against() {
    let n = in_every_orientation(
        "2bak4/4a3c/1C1cb4/p8/3NN3P/P2p3n1/9/4BA3/9/2BA1K3 w",
        "e5d7",
        &Profile::axf(),
    );
    assert_eq!(n.kind, NatureKind::Check);
    assert_eq!(target_squares(&n), ["e7"]);
}

/// The real games of tests/data/rules/games.jsonl: (source, start, moves).
fn real_games() -> Vec<(String, Position, Vec<Move>)> {
    let mut games: Vec<(String, Position, Vec<Move>)> = include_str!("data/rules/games.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let start = Position::from_fen(v["fen"].as_str().unwrap()).unwrap();
            let moves = v["moves"]
                .as_str()
                .unwrap()
                .split_whitespace()
                .map(|m| Move::parse_iccs(m).unwrap())
                .collect();
            (v["source"].to_string(), start, moves)
        })
        .collect();
    // The rulebook diagrams too: short, but dense with threats.
    for text in [
        include_str!("data/rules/cxa.jsonl"),
        include_str!("data/rules/axf.jsonl"),
    ] {
        for c in load(text) {
            games.push((c.id, Position::from_fen(&c.fen).unwrap(), c.moves));
        }
    }
    games
}

/// What of a nature a budget must never change: kind, idle kind and targets (not the nodes).
fn nature_key(n: &MoveNature) -> String {
    let mut s = format!("{} {:?}", n.kind.name(), n.idle_kind);
    for t in &n.targets {
        s += &format!(" [{} {} {} {:?}]", t.square, t.joint, t.how.name(), t.by);
    }
    s
}

/// Issue 16, item 10 (honest budget): at node budgets of 300, 3,000 and 30,000, every nature
/// that is not `undetermined` equals the nature at the default budget, on every move of the
/// real games (12,095 moves, both profiles). An exhausted budget is reported, never guessed,
/// and what the next move knows of the opponent's standing mate threat never comes from a move
/// whose nature is unknown.
#[test]
fn a_smaller_budget_gives_undetermined_or_the_same_nature() {
    for base in [Profile::cxa(), Profile::axf()] {
        let games = real_games();
        let full: Vec<Vec<MoveNature>> = games
            .iter()
            .map(|(_, s, m)| xiangqi_arbiter::rules::classify_line(s, m, &base))
            .collect();
        for budget in [20u64, 60, 150, 300, 1_000, 3_000, 30_000] {
            let mut p = base.clone();
            p.node_budget = budget;
            let (mut wrong, mut undetermined, mut total) = (Vec::new(), 0, 0);
            for ((src, s, m), want) in games.iter().zip(&full) {
                let got = xiangqi_arbiter::rules::classify_line(s, m, &p);
                assert_eq!(got.len(), want.len());
                for (i, (g, w)) in got.iter().zip(want).enumerate() {
                    total += 1;
                    if g.kind == NatureKind::Undetermined {
                        undetermined += 1;
                    } else if nature_key(g) != nature_key(w) {
                        wrong.push(format!(
                            "{src} ply {}: {} got {} want {}",
                            i + 1,
                            g.mv,
                            nature_key(g),
                            nature_key(w)
                        ));
                    }
                }
            }
            eprintln!(
                "{} budget {budget}: {total} moves, {undetermined} undetermined, {} wrong",
                base.name,
                wrong.len()
            );
            assert!(
                wrong.is_empty(),
                "{} budget {budget}: {wrong:#?}",
                base.name
            );
        }
    }
}

/// Issue 16, item 10: the same move in the same position gets the same nature whatever was
/// classified before it: one analyser classifying every real game in turn (its tables and
/// caches full of the other games), and each game's second half classified on its own
/// (from the middle position, the opponent's last move given), agree with each game
/// classified alone. (The first move of the second half is not compared: the position before
/// the opponent's last move, which the protector's duty reads, is not known there.)
#[test]
fn a_nature_does_not_depend_on_what_was_classified_before() {
    use xiangqi_arbiter::rules::Analyzer;
    for p in [Profile::cxa(), Profile::axf()] {
        let games = real_games();
        let mut shared = Analyzer::new(&p);
        for (src, s, m) in games.iter().rev() {
            let alone = xiangqi_arbiter::rules::classify_line(s, m, &p);
            let mut pos = *s;
            let mut prev = None;
            for (i, &mv) in m.iter().enumerate() {
                let n = shared.classify(&pos, mv, prev);
                assert_eq!(
                    nature_key(&n),
                    nature_key(&alone[i]),
                    "{} {src} ply {}: {mv} after other games",
                    p.name,
                    i + 1
                );
                pos.play_unchecked(mv);
                prev = Some(mv);
            }
            let half = m.len() / 2;
            let mut mid = *s;
            for &mv in &m[..half] {
                mid.play_unchecked(mv);
            }
            let mut a = Analyzer::new(&p);
            let mut pos = mid;
            let mut prev = half.checked_sub(1).map(|i| m[i]);
            for (i, &mv) in m.iter().enumerate().skip(half) {
                let n = a.classify(&pos, mv, prev);
                if i > half {
                    assert_eq!(
                        nature_key(&n),
                        nature_key(&alone[i]),
                        "{} {src} ply {}: {mv} classified from the middle",
                        p.name,
                        i + 1
                    );
                }
                pos.play_unchecked(mv);
                prev = Some(mv);
            }
        }
    }
}

#[test]
fn a_joint_chase_by_a_discovered_check_outranks_single_chases() {
    // RULES.md §3, CXA table: both sides play forbidden moves; Red's chases include a joint one
    // (Nxg7 uncovers the rook e3's check, so the rook g8 cannot take back: horse and rook win
    // the cannon together), Black's rook chases c2 and c1 alone: Black must vary.
    let start = Position::from_fen("2bakab2/6r2/3n2c2/4N4/9/9/3R5/2C6/2N5r/3K5 w").unwrap();
    let moves: Vec<Move> = ["d3e3", "i1i2", "e3d3", "i2i1"]
        .iter()
        .cycle()
        .take(8)
        .map(|m| Move::parse_iccs(m).unwrap())
        .collect();
    let r = adjudicate::adjudicate(&start, &moves, &Profile::cxa()).unwrap();
    assert!(r.natures[0].has_joint_chase(), "{:?}", r.natures[0]);
    assert_eq!(r.verdict.name(), "black_must_vary");
}
