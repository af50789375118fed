//! The AXF readings of the rule engine (profile options that differ between CXA and AXF), each on
//! a small constructed position, judged under both profiles.

use xiangqi_arbiter::rules::{MoveNature, NatureKind, Profile, WinHow, try_classify_line};
use xiangqi_arbiter::{Move, Position};

/// The nature of the last move of `moves` played from `fen`, under `profile`.
fn last(fen: &str, moves: &str, profile: &Profile) -> MoveNature {
    let start = Position::from_fen(fen).unwrap();
    let line: Vec<Move> = moves
        .split_whitespace()
        .map(|m| Move::parse_iccs(m).unwrap())
        .collect();
    let natures = try_classify_line(&start, &line, profile).unwrap_or_else(|(_, e)| panic!("{e}"));
    natures.last().unwrap().clone()
}

fn squares(n: &MoveNature) -> Vec<String> {
    n.targets.iter().map(|t| t.square.to_string()).collect()
}

#[test]
fn a_mate_threat_that_also_attacks_a_loose_piece_records_the_chase_under_axf() {
    // The rook steps up to threaten Ri9 mate (the other rook holds rank 8) and, on rank 1,
    // attacks the loose horse c1.
    let fen = "4k4/R8/9/9/9/9/9/9/2n6/3K4R w";
    let axf = last(fen, "i0i1", &Profile::axf());
    assert_eq!(axf.kind, NatureKind::MateThreat);
    assert_eq!(squares(&axf), ["c1"]);
    let cxa = last(fen, "i0i1", &Profile::cxa());
    assert_eq!(cxa.kind, NatureKind::MateThreat);
    assert!(cxa.targets.is_empty());
}

#[test]
fn blocking_an_attack_that_also_protected_through_the_attacked_piece_is_no_chase_under_axf() {
    // The red rook b8 attacks the black rook f8 and, through it, protects the horse g8. The
    // advisor blocks the rank: the horse loses its protection, but only as part of the block.
    let fen = "4ka3/1R3rN2/9/9/9/9/9/9/9/3K5 b";
    let axf = last(fen, "f9e8", &Profile::axf());
    assert_eq!(axf.kind, NatureKind::Idle, "{axf:?}");
    let cxa = last(fen, "f9e8", &Profile::cxa());
    assert_eq!(cxa.kind, NatureKind::Chase);
    assert_eq!(squares(&cxa), ["g8"]);
}

#[test]
fn a_protected_piece_attacked_twice_is_chased_only_under_cxa() {
    // Horse e5 protected once (pawn e6), attacked by the rook and, after the move, the cannon:
    // CXA counts the under-protection (少根); AXF needs the first capture to win.
    let fen = "4k4/9/9/4p4/R3n4/9/4P4/9/8C/3K5 w";
    assert_eq!(last(fen, "i1e1", &Profile::cxa()).kind, NatureKind::Chase);
    assert_eq!(last(fen, "i1e1", &Profile::axf()).kind, NatureKind::Idle);
    // A horse on a protected rook still chases under AXF: the first capture wins.
    let n = last("4k4/9/4r4/9/4r4/9/9/1N7/9/3K5 w", "b2c4", &Profile::axf());
    assert_eq!(n.kind, NatureKind::Chase);
    assert_eq!(n.targets[0].how, WinHow::Exchange);
}

#[test]
fn a_direct_attack_renews_a_threat_that_needed_checks_under_axf() {
    // Before c4a4 Black could win the cannon a1 only by two rook checks (c0+, c1+); the rook on
    // a4 attacks it directly. (The second black cannon stands on b6, off the a-file: on a6 it
    // would join the attack on a1 over the rook, a new attacker that Red could not exchange
    // off, since taking it is mated, and CXA would rule the move a chase for that reason.)
    let fen = "4k4/9/9/1cc6/9/r8/9/9/C8/3K5 w";
    let moves = "a1c1 a4c4 c1a1 c4a4";
    let axf = last(fen, moves, &Profile::axf());
    assert_eq!(axf.kind, NatureKind::Chase);
    assert_eq!(squares(&axf), ["a1"]);
    assert_eq!(last(fen, moves, &Profile::cxa()).kind, NatureKind::Idle);
}

#[test]
fn winning_the_capturer_back_by_checks_is_not_counted_twice() {
    // The horse becomes the screen of the cannon g8 on the red rook g6. The rook is protected
    // by the cannon c6 (screen e6): cannon for rook still wins. Red could also win the capturing
    // cannon back after Ce2xe6+, but that is the same recapture, not a further loss.
    let fen = "4k4/4a1c2/9/2C1p1R2/7n1/9/4P4/4C4/9/4K4 b";
    for p in [Profile::cxa(), Profile::axf()] {
        let n = last(fen, "h5g7", &p);
        assert_eq!(n.kind, NatureKind::Chase, "{}: {n:?}", p.name);
        assert_eq!(squares(&n), ["g6"]);
    }
}

#[test]
fn a_check_by_a_piece_that_also_attacks_a_loose_rook_chases_it_under_axf() {
    let fen = "4k4/9/8r/5N3/9/9/9/9/9/3K5 w";
    let axf = last(fen, "f6g8", &Profile::axf());
    assert_eq!(axf.kind, NatureKind::Check);
    assert_eq!(squares(&axf), ["i7"]);
    let cxa = last(fen, "f6g8", &Profile::cxa());
    assert_eq!(cxa.kind, NatureKind::Check);
    assert!(cxa.targets.is_empty());
}

#[test]
fn a_capture_with_discovered_check_wins_the_piece_under_axf() {
    // The black rook returns to b0 and attacks the horse b4 (protected by the cannon g4 through
    // the pawn e4); taking it uncovers the cannon a0's check through d0. AXF: a capture that
    // cannot be recaptured wins the piece. CXA also weighs Red's counter-attack by checks
    // (Rd9+ and Cxb4), which wins the rook back.
    let fen = "5k3/9/9/9/9/1N2P1C2/9/9/9/cr1RK4 w";
    let moves = "b4c2 b0c0 c2b4 c0b0";
    let axf = last(fen, moves, &Profile::axf());
    assert_eq!(axf.kind, NatureKind::Chase, "{axf:?}");
    assert_eq!(squares(&axf), ["b4"]);
    assert_eq!(last(fen, moves, &Profile::cxa()).kind, NatureKind::Idle);
}

#[test]
fn making_an_old_attack_safe_is_no_new_chase_under_axf() {
    // The cannon d8 (screen: the black rook) attacks the pinned red rook d2 all along; with the
    // rook on d3, Cxd2 would be met by Rxd3 mate. The rook steps away from the offered red rook:
    // under AXF the attack is old (newness judged on the attack); CXA calls the now-safe
    // capture a new chase.
    let fen = "2bk5/3c5/5N3/1R7/9/9/3r5/3R5/3K5/9 w";
    let axf = last(fen, "b6b3 d3d4", &Profile::axf());
    assert_eq!(axf.kind, NatureKind::Idle, "{axf:?}");
    let cxa = last(fen, "b6b3 d3d4", &Profile::cxa());
    assert_eq!(cxa.kind, NatureKind::Chase);
    assert_eq!(squares(&cxa), ["d2"]);
}
