//! Natural move limit (RULES.md §4): the counting core on hand-made facts, profiles and
//! settings, the constructed sample games of `pgn-samples/claim_*.pgn`, and real records.

mod limit_samples;

use limit_samples::{Want, generate, pgn, read_sample, samples};

#[test]
#[ignore = "writes pgn-samples/claim_*.pgn; run by hand to regenerate"]
fn write_claim_samples() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("pgn-samples");
    std::fs::create_dir_all(&dir).unwrap();
    for s in samples() {
        let moves = generate(&s);
        let text = pgn(&s, &moves);
        std::fs::write(dir.join(s.file), &text).unwrap();
        let (_, back) = read_sample(&text);
        assert_eq!(back, moves);
        let plies = |w: Want| -> Vec<usize> {
            s.script
                .iter()
                .enumerate()
                .filter(|(_, x)| **x == w)
                .map(|(i, _)| i + 1)
                .collect()
        };
        println!(
            "{}: {} plies, checks {:?}, chases {:?}",
            s.file,
            moves.len(),
            plies(Want::Check),
            plies(Want::Chase)
        );
    }
}

use xiangqi_arbiter::rules::limit::{
    self, ClaimOptions, ClaimPosition, CountingMode, Ending, LimitError, LimitProfile,
    LimitSettings, NatureKind, PlyFact, Verdict, VoidReason,
};
use xiangqi_arbiter::rules::{Profile, classify_line};
use xiangqi_arbiter::{Color, Position};

fn sample_text(file: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("pgn-samples")
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn sample_natures_are_what_the_construction_says() {
    for s in samples() {
        let (start, moves) = read_sample(&sample_text(s.file));
        assert_eq!(moves.len(), s.script.len(), "{}", s.file);
        let natures = classify_line(&start, &moves, &Profile::cxa());
        let mut pos = start;
        for (i, (&m, n)) in moves.iter().zip(&natures).enumerate() {
            let after = pos.after(m);
            let expected = s.script[i].nature();
            let got = serde_json::to_value(n.kind).unwrap();
            assert_eq!(
                got.as_str().unwrap(),
                expected,
                "{} ply {} {m}: engine {:?}, construction {expected} (position {})",
                s.file,
                i + 1,
                n,
                pos.fen()
            );
            assert_eq!(limit_samples::constructed_nature(&pos, m, &after), expected);
            pos = after;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The counting core on hand-made facts

/// Facts from a compact spec, one char a ply, sides alternating from `first`:
/// `i` idle, `c` check, `m` mate threat, `h` chase, `u` undetermined, `x` an idle capture.
fn facts(first: Color, spec: &str) -> Vec<PlyFact> {
    let mut side = first;
    spec.chars()
        .filter(|c| !c.is_whitespace())
        .enumerate()
        .map(|(i, c)| {
            let kind = match c {
                'i' | 'x' => NatureKind::Idle,
                'c' => NatureKind::Check,
                'm' => NatureKind::MateThreat,
                'h' => NatureKind::Chase,
                'u' => NatureKind::Undetermined,
                _ => panic!("bad spec char {c}"),
            };
            let f = PlyFact {
                ply: i as u32 + 1,
                side,
                kind,
                capture: c == 'x',
                mv: None,
            };
            side = !side;
            f
        })
        .collect()
}

/// Claimant's pattern interleaved with idle opponent moves (claimant moves first).
fn interleave(claimant: &str) -> String {
    claimant.chars().flat_map(|c| [c, 'i']).collect()
}

fn quiet() -> ClaimPosition {
    ClaimPosition::default()
}

fn count(f: &[PlyFact], at: u32, claimant: Color, profile: &LimitProfile) -> limit::LimitReport {
    limit::count(
        f,
        at,
        claimant,
        profile,
        CountingMode::FromCapture,
        0,
        &quiet(),
    )
    .unwrap()
}

/// Asserts the RULES.md fields of a report (and a few more) in one go.
fn assert_fields(r: &limit::LimitReport, expected: serde_json::Value) {
    let got = serde_json::to_value(r).unwrap();
    for (k, v) in expected.as_object().unwrap() {
        assert_eq!(&got[k], v, "field {k} in {got:#}");
    }
}

#[test]
fn slow_caps_checks_at_10_and_attacks_at_30() {
    // Red: 12 checks, 3 mate threats, 25 chases, 30 idle = 70 moves; Black idle.
    let red = format!(
        "{}{}{}{}",
        "c".repeat(12),
        "m".repeat(3),
        "h".repeat(25),
        "i".repeat(30)
    );
    let f = facts(Color::Red, &interleave(&red));
    let r = count(&f, 140, Color::Red, &LimitProfile::slow());
    assert_fields(
        &r,
        serde_json::json!({
            "profile": "slow", "claimant": "red", "at_ply": 140, "window_start_ply": 0,
            "claimant_moves": 70, "checks": 12, "mate_threats": 3, "chases": 25,
            // checks = min(12, 10) = 10; attacks = min(10 + 3 + 25, 30) = 30; void = 40 - 30.
            "void": 10, "counted": 60, "required": 60, "opponent_moves": 70,
            "admissible": true, "valid": true, "needed": 0, "verdict": "valid",
            "opponent_needed": 0, "ending": null, "certain": true, "undetermined": 0,
        }),
    );
    // Voids in the order played: checks 11 and 12 by the check cap, then everything after the
    // 30th counted attack (10 checks + 3 mate threats + 17 chases) by the attack cap.
    let void: Vec<(u32, VoidReason)> = r
        .moves
        .iter()
        .filter_map(|m| m.void.map(|v| (m.ply, v)))
        .collect();
    let mut expected = vec![(21, VoidReason::CheckCap), (23, VoidReason::CheckCap)];
    expected.extend((0..8).map(|k| (2 * (12 + 3 + 17 + k) + 1, VoidReason::AttackCap)));
    assert_eq!(void, expected);
    // Black, the idle side, counts all of its moves.
    let b = count(&f, 140, Color::Black, &LimitProfile::slow());
    assert_fields(
        &b,
        serde_json::json!({"claimant_moves": 70, "void": 0, "counted": 70, "opponent_moves": 70,
            "valid": true, "checks": 0}),
    );
    // One move earlier Red's 70th move is played but not Black's: still valid (70 >= 60).
    let r139 = count(&f, 139, Color::Red, &LimitProfile::slow());
    assert_eq!((r139.claimant_moves, r139.opponent_moves), (70, 69));
    assert!(r139.valid);
}

#[test]
fn checks_beyond_the_cap_leave_the_claimant_short() {
    // Red: 14 checks and 46 idle moves: 4 void, 56 counted, 4 more needed.
    let red = format!("{}{}", "c".repeat(14), "i".repeat(46));
    let f = facts(Color::Red, &interleave(&red));
    let r = count(&f, 120, Color::Red, &LimitProfile::slow());
    assert_fields(
        &r,
        serde_json::json!({"claimant_moves": 60, "checks": 14, "void": 4, "counted": 56,
            "needed": 4, "opponent_moves": 60, "valid": false, "verdict": "claimant_short"}),
    );
    // Rapid: checks capped at 8 -> 6 void, 54 counted >= 50.
    let r = count(&f, 120, Color::Red, &LimitProfile::rapid());
    assert_fields(
        &r,
        serde_json::json!({"profile": "rapid", "required": 50, "void": 6, "counted": 54,
            "needed": 0, "valid": true}),
    );
    // Amateur: checks never count -> 14 void, 46 counted >= 40.
    let r = count(&f, 120, Color::Red, &LimitProfile::amateur40());
    assert_fields(
        &r,
        serde_json::json!({"profile": "amateur40", "required": 40, "void": 14, "counted": 46,
            "valid": true, "admissible": true}),
    );
    assert!(
        r.moves
            .iter()
            .filter(|m| m.void.is_some())
            .all(|m| m.void == Some(VoidReason::CheckCap))
    );
}

#[test]
fn amateur_has_no_cap_on_chases_and_mate_threats() {
    let red = format!("{}{}{}", "h".repeat(30), "m".repeat(10), "c".repeat(5));
    let f = facts(Color::Red, &interleave(&red));
    let r = count(&f, 90, Color::Red, &LimitProfile::amateur40());
    assert_fields(
        &r,
        serde_json::json!({"claimant_moves": 45, "chases": 30, "mate_threats": 10, "checks": 5,
            "void": 5, "counted": 40, "valid": true}),
    );
    // The same under slow rules: attacks capped at 30 -> 15 void.
    let r = count(&f, 90, Color::Red, &LimitProfile::slow());
    assert_fields(
        &r,
        serde_json::json!({"void": 15, "counted": 30, "needed": 30}),
    );
}

#[test]
fn amateur_admissibility_refuses_with_three_attacking_pieces() {
    let f = facts(Color::Red, &"i".repeat(80));
    for (pieces, admissible) in [(0, true), (2, true), (3, false), (7, false)] {
        let pos = ClaimPosition {
            attacking_pieces: pieces,
            ending: None,
        };
        let r = limit::count(
            &f,
            80,
            Color::Black,
            &LimitProfile::amateur40(),
            CountingMode::FromCapture,
            0,
            &pos,
        )
        .unwrap();
        assert_eq!(r.admissible, admissible);
        assert_eq!(r.discretionary, !admissible);
        assert_eq!(r.valid, admissible);
        assert_eq!(r.needed, 0);
        assert_eq!(r.attacking_pieces, pieces);
        if !admissible {
            assert_eq!(r.verdict, Verdict::Inadmissible);
        }
        // Slow rules have no admissibility test.
        let s = limit::count(
            &f,
            80,
            Color::Black,
            &LimitProfile::slow(),
            CountingMode::FromCapture,
            0,
            &pos,
        )
        .unwrap();
        assert!(s.admissible);
    }
}

#[test]
fn only_captures_open_the_window_and_either_side_counts() {
    // Ply 5 (Red) and ply 12 (Black) capture.
    let spec = "iiiixiiiiiixiiiiiiii";
    let f = facts(Color::Red, spec);
    let r = count(&f, 20, Color::Red, &LimitProfile::slow());
    assert_fields(
        &r,
        serde_json::json!({"window_start_ply": 12, "window_end_ply": 20, "last_capture_ply": 12,
            "claimant_moves": 4, "opponent_moves": 4, "counted": 4, "needed": 56}),
    );
    let r = count(&f, 11, Color::Black, &LimitProfile::slow());
    assert_fields(
        &r,
        serde_json::json!({"window_start_ply": 5, "claimant_moves": 3, "opponent_moves": 3}),
    );
    // A capture on the claim ply: empty window.
    let r = count(&f, 12, Color::Red, &LimitProfile::slow());
    assert_fields(
        &r,
        serde_json::json!({"window_start_ply": 12, "claimant_moves": 0, "opponent_moves": 0,
            "counted": 0, "needed": 60}),
    );
    assert!(r.render(limit::Lang::En).contains("Window: empty"));
    // Before any capture the window opens at the start.
    let r = count(&f, 4, Color::Black, &LimitProfile::slow());
    assert_fields(
        &r,
        serde_json::json!({"window_start_ply": 0, "last_capture_ply": null, "claimant_moves": 2}),
    );
}

#[test]
fn from_claim_counts_from_the_claim_unless_a_capture_comes_later() {
    let f = facts(
        Color::Red,
        &format!("{}x{}", "i".repeat(30), "i".repeat(29)),
    );
    let p = LimitProfile::slow();
    let q = quiet();
    let r = limit::count(&f, 60, Color::Red, &p, CountingMode::FromClaim, 20, &q).unwrap();
    assert_fields(
        &r,
        serde_json::json!({"counting": "from_claim", "window_start_ply": 31, "last_capture_ply": 31}),
    );
    let r = limit::count(&f, 60, Color::Red, &p, CountingMode::FromClaim, 40, &q).unwrap();
    assert_fields(
        &r,
        serde_json::json!({"window_start_ply": 40, "claimant_moves": 10, "opponent_moves": 10}),
    );
    let r = limit::count(&f, 60, Color::Red, &p, CountingMode::FromCapture, 40, &q).unwrap();
    assert_eq!(r.window_start_ply, 31);
    assert_eq!(
        limit::count(&f, 30, Color::Red, &p, CountingMode::FromClaim, 40, &q),
        Err(LimitError::StartAfterClaim {
            from_ply: 40,
            at_ply: 30
        })
    );
}

#[test]
fn mate_or_stalemate_on_the_limit_ply_wins_over_the_draw() {
    let f = facts(Color::Red, &"i".repeat(120));
    for ending in [Ending::Checkmate, Ending::Stalemate] {
        let pos = ClaimPosition {
            attacking_pieces: 1,
            ending: Some((ending, Color::Black)),
        };
        let r = limit::count(
            &f,
            120,
            Color::Black,
            &LimitProfile::slow(),
            CountingMode::FromCapture,
            0,
            &pos,
        )
        .unwrap();
        assert_eq!(r.counted, 60);
        assert_eq!(r.opponent_moves, 60);
        assert_eq!(r.needed, 0);
        assert!(!r.valid);
        assert_eq!(r.verdict, Verdict::GameOver);
        assert_eq!(r.ending, Some(ending));
        assert_eq!(r.loser, Some(Color::Black));
    }
}

#[test]
fn opponent_must_have_made_n_moves_too() {
    // Black moves first in the window; Red's 60th move has not been answered... the other way:
    // at ply 119 Red has 60 moves and Black 59.
    let f = facts(Color::Red, &"i".repeat(120));
    let r = count(&f, 119, Color::Red, &LimitProfile::slow());
    assert_fields(
        &r,
        serde_json::json!({"claimant_moves": 60, "counted": 60, "needed": 0, "opponent_moves": 59,
            "opponent_needed": 1, "valid": false, "verdict": "opponent_short"}),
    );
    let r = count(&f, 119, Color::Black, &LimitProfile::slow());
    assert_fields(
        &r,
        serde_json::json!({"claimant_moves": 59, "needed": 1, "opponent_moves": 60,
            "valid": false, "verdict": "claimant_short"}),
    );
}

#[test]
fn undetermined_moves_count_as_idle_and_flag_an_uncertain_verdict() {
    let red = format!("{}{}", "h".repeat(30), "u".repeat(30));
    let f = facts(Color::Red, &interleave(&red));
    let r = count(&f, 120, Color::Red, &LimitProfile::slow());
    assert_fields(
        &r,
        serde_json::json!({"undetermined": 30, "chases": 30, "void": 0, "counted": 60,
            "valid": true, "certain": false}),
    );
    // Undetermined moves that cannot change the verdict.
    let red = format!("{}{}", "u".repeat(5), "i".repeat(60));
    let f = facts(Color::Red, &interleave(&red));
    let r = count(&f, 130, Color::Red, &LimitProfile::slow());
    assert!(r.valid && r.certain);
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let f = facts(Color::Red, "iiii");
    let p = LimitProfile::slow();
    assert_eq!(
        limit::count(
            &f,
            5,
            Color::Red,
            &p,
            CountingMode::FromCapture,
            0,
            &quiet()
        ),
        Err(LimitError::PlyOutOfRange {
            at_ply: 5,
            plies: 4
        })
    );
    let mut g = f.clone();
    g[2].ply = 7;
    assert!(matches!(
        limit::count(
            &g,
            4,
            Color::Red,
            &p,
            CountingMode::FromCapture,
            0,
            &quiet()
        ),
        Err(LimitError::BadFacts(_))
    ));
    let r = limit::count(
        &[],
        0,
        Color::Red,
        &p,
        CountingMode::FromCapture,
        0,
        &quiet(),
    )
    .unwrap();
    assert_eq!((r.claimant_moves, r.needed), (0, 60));
}

/// Random games against the RULES.md formula, every ply, both claimants, every profile.
#[test]
fn random_facts_agree_with_the_formula() {
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let profiles = [
        LimitProfile::slow(),
        LimitProfile::rapid(),
        LimitProfile::amateur40(),
        LimitSettings::from_json(r#"{"moves": 20, "attack_cap": null, "check_cap": 3}"#)
            .unwrap()
            .profile()
            .unwrap(),
    ];
    for _ in 0..60 {
        let len = (next() % 300) as usize;
        let spec: String = (0..len)
            .map(|_| match next() % 100 {
                0..=1 => 'x',
                2..=21 => 'c',
                22..=26 => 'm',
                27..=41 => 'h',
                42..=44 => 'u',
                _ => 'i',
            })
            .collect();
        let first = if next() % 2 == 0 {
            Color::Red
        } else {
            Color::Black
        };
        let f = facts(first, &spec);
        for p in &profiles {
            for at in 0..=len as u32 {
                for c in Color::ALL {
                    let r = count(&f, at, c, p);
                    let start = f[..at as usize]
                        .iter()
                        .rev()
                        .find(|x| x.capture)
                        .map_or(0, |x| x.ply);
                    let w = &f[start as usize..at as usize];
                    let mine = |k: NatureKind| {
                        w.iter().filter(|x| x.side == c && x.kind == k).count() as u32
                    };
                    let (chk, mt, ch) = (
                        mine(NatureKind::Check),
                        mine(NatureKind::MateThreat),
                        mine(NatureKind::Chase),
                    );
                    let a = w.iter().filter(|x| x.side == c).count() as u32;
                    let o = w.len() as u32 - a;
                    let checks = chk.min(p.check_cap.unwrap_or(u32::MAX));
                    let attacks = (checks + mt + ch).min(p.attack_cap.unwrap_or(u32::MAX));
                    let void = chk + mt + ch - attacks;
                    assert_eq!(r.window_start_ply, start);
                    assert_eq!((r.claimant_moves, r.opponent_moves), (a, o));
                    assert_eq!((r.checks, r.mate_threats, r.chases), (chk, mt, ch));
                    assert_eq!(r.void, void);
                    assert_eq!(r.counted, a - void);
                    assert_eq!(r.needed, p.moves.saturating_sub(a - void));
                    assert_eq!(r.valid, a - void >= p.moves && o >= p.moves);
                    assert_eq!(r.moves.len() as u32, a);
                    assert_eq!(r.moves.iter().filter(|m| !m.counted).count() as u32, void);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Profiles and settings

#[test]
fn built_in_profiles_follow_rules_md() {
    let cases = [
        ("slow", 60, Some(30), Some(10), None),
        ("rapid", 50, Some(25), Some(8), None),
        ("armageddon", 50, Some(25), Some(8), None),
        ("amateur40", 40, None, Some(0), Some(3)),
    ];
    for (name, n, a, c, adm) in cases {
        let p = LimitProfile::by_name(name).unwrap();
        assert_eq!(
            (
                p.name.as_str(),
                p.moves,
                p.attack_cap,
                p.check_cap,
                p.refuse_attackers
            ),
            (name, n, a, c, adm)
        );
    }
    assert!(LimitProfile::by_name("blitz").is_none());
}

#[test]
fn settings_files_override_a_base_profile() {
    let p = LimitSettings::from_json(r#"{"base": "rapid", "check_cap": 5}"#)
        .unwrap()
        .profile()
        .unwrap();
    assert_eq!(
        (p.name.as_str(), p.moves, p.attack_cap, p.check_cap),
        ("custom", 50, Some(25), Some(5))
    );
    let p = LimitSettings::from_json(
        r#"{"name": "club", "moves": 45, "attack_cap": null, "check_cap": null, "refuse_attackers": 4}"#,
    )
    .unwrap()
    .profile()
    .unwrap();
    assert_eq!(
        p,
        LimitProfile {
            name: "club".into(),
            moves: 45,
            attack_cap: None,
            check_cap: None,
            refuse_attackers: Some(4)
        }
    );
    let p = LimitSettings::from_json("{}").unwrap().profile().unwrap();
    assert_eq!(p, LimitProfile::slow());
    for bad in [
        r#"{"moves": 0}"#,
        r#"{"base": "blitz"}"#,
        r#"{"mvoes": 60}"#,
        r#"{"moves": -1}"#,
        r#"{"refuse_attackers": 0}"#,
        "not json",
    ] {
        let e = LimitSettings::from_json(bad).and_then(|s| s.profile());
        assert!(matches!(e, Err(LimitError::Settings(_))), "{bad}: {e:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// The sample games, through the rules engine

fn claim_sample(file: &str, claimant: Color, at: u32, profile: LimitProfile) -> limit::LimitReport {
    let (start, moves) = read_sample(&sample_text(file));
    let options = ClaimOptions {
        profile,
        ..ClaimOptions::default()
    };
    limit::claim(&start, &moves, claimant, at, &options).unwrap()
}

fn plies_of(r: &limit::LimitReport, k: NatureKind) -> Vec<u32> {
    r.moves
        .iter()
        .filter(|m| m.nature == k)
        .map(|m| m.ply)
        .collect()
}

fn void_plies(r: &limit::LimitReport) -> Vec<u32> {
    r.moves
        .iter()
        .filter(|m| m.void.is_some())
        .map(|m| m.ply)
        .collect()
}

#[test]
fn sample_slow_valid() {
    let f = "claim_slow_valid.pgn";
    let r = claim_sample(f, Color::Red, 121, LimitProfile::slow());
    assert_fields(
        &r,
        serde_json::json!({"profile": "slow", "claimant": "red", "at_ply": 121,
            "window_start_ply": 1, "last_capture_ply": 1, "claimant_moves": 60, "checks": 10,
            "mate_threats": 0, "chases": 5, "void": 0, "counted": 60, "required": 60,
            "opponent_moves": 60, "admissible": true, "valid": true, "needed": 0,
            "attacking_pieces": 2, "ending": null, "verdict": "valid", "certain": true}),
    );
    assert_eq!(
        plies_of(&r, NatureKind::Check),
        [11, 13, 15, 41, 43, 45, 81, 83, 101, 103]
    );
    assert_eq!(plies_of(&r, NatureKind::Chase), [21, 31, 61, 71, 91]);
    let b = claim_sample(f, Color::Black, 121, LimitProfile::slow());
    assert_fields(
        &b,
        serde_json::json!({"claimant": "black", "claimant_moves": 60, "checks": 0, "chases": 0,
            "void": 0, "counted": 60, "opponent_moves": 60, "valid": true}),
    );
    // A ply earlier Red has made only 59 moves in the window.
    let r = claim_sample(f, Color::Red, 120, LimitProfile::slow());
    assert_fields(
        &r,
        serde_json::json!({"claimant_moves": 59, "needed": 1, "valid": false}),
    );
}

#[test]
fn sample_slow_checks_void() {
    let f = "claim_slow_checks_void.pgn";
    let r = claim_sample(f, Color::Red, 120, LimitProfile::slow());
    assert_fields(
        &r,
        serde_json::json!({"profile": "slow", "claimant": "red", "at_ply": 120,
            "window_start_ply": 0, "last_capture_ply": null, "claimant_moves": 60, "checks": 14,
            "mate_threats": 0, "chases": 0, "void": 4, "counted": 56, "required": 60,
            "opponent_moves": 60, "admissible": true, "valid": false, "needed": 4,
            "verdict": "claimant_short"}),
    );
    assert_eq!(void_plies(&r), [63, 79, 81, 83]);
    assert!(
        r.moves
            .iter()
            .filter(|m| m.void.is_some())
            .all(|m| m.void == Some(VoidReason::CheckCap))
    );
    // Black's claim in the same game stands.
    let b = claim_sample(f, Color::Black, 120, LimitProfile::slow());
    assert_fields(
        &b,
        serde_json::json!({"counted": 60, "void": 0, "valid": true}),
    );
    // Under the amateur rule checks never count: 46 of 40, one rook on the board: admissible.
    let a = claim_sample(f, Color::Red, 120, LimitProfile::amateur40());
    assert_fields(
        &a,
        serde_json::json!({"void": 14, "counted": 46, "attacking_pieces": 1, "admissible": true,
            "valid": true}),
    );
}

#[test]
fn sample_rapid() {
    let f = "claim_rapid.pgn";
    let r = claim_sample(f, Color::Red, 102, LimitProfile::rapid());
    assert_fields(
        &r,
        serde_json::json!({"profile": "rapid", "claimant": "red", "at_ply": 102,
            "window_start_ply": 0, "claimant_moves": 51, "checks": 9, "mate_threats": 0,
            "chases": 0, "void": 1, "counted": 50, "required": 50, "opponent_moves": 51,
            "admissible": true, "valid": true, "needed": 0}),
    );
    assert_eq!(void_plies(&r), [83]);
    // The same game under slow rules is 9 moves short.
    let s = claim_sample(f, Color::Red, 102, LimitProfile::slow());
    assert_fields(
        &s,
        serde_json::json!({"void": 0, "counted": 51, "needed": 9, "opponent_needed": 9, "valid": false}),
    );
}

#[test]
fn sample_amateur40_refused() {
    let f = "claim_amateur40_refused.pgn";
    for c in Color::ALL {
        let r = claim_sample(f, c, 80, LimitProfile::amateur40());
        assert_fields(
            &r,
            serde_json::json!({"profile": "amateur40", "at_ply": 80, "window_start_ply": 0,
                "claimant_moves": 40, "checks": 0, "mate_threats": 0, "chases": 0, "void": 0,
                "counted": 40, "required": 40, "opponent_moves": 40, "attacking_pieces": 4,
                "admissible": false, "discretionary": true, "valid": false, "needed": 0,
                "verdict": "inadmissible"}),
        );
    }
    let s = claim_sample(f, Color::Red, 80, LimitProfile::slow());
    assert_fields(
        &s,
        serde_json::json!({"admissible": true, "needed": 20, "valid": false}),
    );
}

#[test]
fn sample_mate_on_the_limit_ply() {
    let f = "claim_mate_on_limit.pgn";
    let b = claim_sample(f, Color::Black, 120, LimitProfile::slow());
    assert_fields(
        &b,
        serde_json::json!({"profile": "slow", "claimant": "black", "at_ply": 120,
            "window_start_ply": 0, "claimant_moves": 60, "checks": 0, "mate_threats": 0,
            "chases": 0, "void": 0, "counted": 60, "required": 60, "opponent_moves": 60,
            "admissible": true, "valid": false, "needed": 0, "ending": "checkmate",
            "loser": "black", "verdict": "game_over"}),
    );
    let r = claim_sample(f, Color::Red, 120, LimitProfile::slow());
    assert_fields(
        &r,
        serde_json::json!({"claimant_moves": 60, "checks": 6, "mate_threats": 1, "void": 0,
            "counted": 60, "valid": false, "verdict": "game_over"}),
    );
    assert_eq!(plies_of(&r, NatureKind::MateThreat), [118]);
    assert_eq!(plies_of(&r, NatureKind::Check), [20, 22, 24, 60, 62, 120]);
    // Before the limit ply the count is one short on one side or the other.
    let b = claim_sample(f, Color::Black, 119, LimitProfile::slow());
    assert_fields(
        &b,
        serde_json::json!({"claimant_moves": 60, "opponent_moves": 59, "needed": 0,
            "opponent_needed": 1, "verdict": "opponent_short", "ending": null}),
    );
    let b = claim_sample(f, Color::Black, 118, LimitProfile::slow());
    assert_fields(
        &b,
        serde_json::json!({"claimant_moves": 59, "needed": 1, "valid": false}),
    );
}

#[test]
fn natural_limit_status_gives_both_claimants() {
    let (start, moves) = read_sample(&sample_text("claim_slow_checks_void.pgn"));
    let natures = classify_line(&start, &moves, &Profile::cxa());
    let st = limit::natural_limit_status(&start, &moves, &natures, 120, &ClaimOptions::default())
        .unwrap();
    assert!(!st.red.valid && st.red.needed == 4);
    assert!(st.black.valid);
    let v = serde_json::to_value(&st).unwrap();
    assert_eq!(v["red"]["void"], 4);
    assert_eq!(v["black"]["claimant"], "black");
    assert!(matches!(
        limit::natural_limit_status(&start, &moves, &natures, 121, &ClaimOptions::default()),
        Err(LimitError::PlyOutOfRange { .. })
    ));
}

#[test]
fn text_reports_in_both_languages() {
    let r = claim_sample(
        "claim_slow_checks_void.pgn",
        Color::Red,
        120,
        LimitProfile::slow(),
    );
    let en = r.render(limit::Lang::En);
    assert!(
        en.contains("NOT VALID: red has 56 counted moves of 60; 4 more needed."),
        "{en}"
    );
    assert!(
        en.contains("Window: moves 1-60, plies 1-120 (no capture since the start)"),
        "{en}"
    );
    assert!(
        en.contains("move  32, ply  63: g8g7 R3-1 check (void: beyond the check cap)"),
        "{en}"
    );
    assert!(
        en.contains("Idle moves (counted): moves 1-2 (plies 1-3), moves 6-9 (plies 11-17),"),
        "{en}"
    );
    let zh = r.render(limit::Lang::Zh);
    assert!(
        zh.contains("提和不成立：红方计入56着，须60着，尚差4着。"),
        "{zh}"
    );
    assert!(zh.contains("不计的着法"), "{zh}");
    assert!(
        zh.contains("第 32回合 第 63步 车三退一 将（不计：超出将军限额）"),
        "{zh}"
    );
}

// ---------------------------------------------------------------------------------------------
// Real records with long capture-free stretches

#[derive(serde::Deserialize)]
struct RealGame {
    file: String,
    fen: String,
    captures: u32,
    checks: u32,
    mate: bool,
    stalemate: bool,
    max_no_capture_plies: u32,
    ref_iccs: String,
}

#[test]
fn real_records_count_consistently_with_the_natures() {
    let text = include_str!("data/limit/long_no_capture.jsonl");
    let mut n = 0;
    for line in text.lines() {
        let g: RealGame = serde_json::from_str(line).unwrap();
        let start = Position::from_fen(&g.fen).unwrap();
        let moves: Vec<_> = g
            .ref_iccs
            .split_whitespace()
            .map(|m| xiangqi_arbiter::Move::parse_iccs(m).unwrap())
            .collect();
        let natures = classify_line(&start, &moves, &Profile::cxa());
        assert_eq!(natures.len(), moves.len(), "{}", g.file);
        let facts = limit::facts_for_line(&start, &moves, &natures).unwrap();
        assert_eq!(
            facts.iter().filter(|f| f.capture).count() as u32,
            g.captures,
            "{}",
            g.file
        );
        assert_eq!(
            natures
                .iter()
                .filter(|n| n.kind == NatureKind::Check)
                .count() as u32,
            g.checks,
            "{}: checks",
            g.file
        );
        let mut longest = 0;
        let mut pos = start;
        for at in 0..=moves.len() as u32 {
            if at > 0 {
                pos.play_unchecked(moves[at as usize - 1]);
            }
            let cp = ClaimPosition::of(&pos);
            for p in [
                LimitProfile::slow(),
                LimitProfile::rapid(),
                LimitProfile::amateur40(),
            ] {
                for c in Color::ALL {
                    let r =
                        limit::count(&facts, at, c, &p, CountingMode::FromCapture, 0, &cp).unwrap();
                    longest = longest.max(at - r.window_start_ply);
                    assert_eq!(r.claimant_moves + r.opponent_moves, at - r.window_start_ply);
                    let w = &natures[r.window_start_ply as usize..at as usize];
                    let side = |k: NatureKind| {
                        w.iter().filter(|n| n.side == c && n.kind == k).count() as u32
                    };
                    assert_eq!(r.checks, side(NatureKind::Check), "{} ply {at}", g.file);
                    assert_eq!(r.mate_threats, side(NatureKind::MateThreat));
                    assert_eq!(r.chases, side(NatureKind::Chase));
                    assert_eq!(r.undetermined, side(NatureKind::Undetermined));
                    assert!(r.void <= r.checks + r.mate_threats + r.chases);
                    assert_eq!(r.counted + r.void, r.claimant_moves);
                    assert_eq!(
                        r.valid,
                        r.counted >= p.moves
                            && r.opponent_moves >= p.moves
                            && r.admissible
                            && r.ending.is_none()
                    );
                    assert!(!r.render(limit::Lang::Zh).is_empty());
                }
            }
            n += 1;
        }
        assert_eq!(longest, g.max_no_capture_plies, "{}", g.file);
        let end = ClaimPosition::of(&pos);
        assert_eq!(
            end.ending.map(|e| e.0) == Some(Ending::Checkmate),
            g.mate,
            "{}",
            g.file
        );
        assert_eq!(
            end.ending.map(|e| e.0) == Some(Ending::Stalemate),
            g.stalemate,
            "{}",
            g.file
        );
    }
    assert!(n > 6000);
}

#[test]
fn illegal_moves_are_reported_with_their_ply() {
    let start = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K3R1 w").unwrap();
    let moves: Vec<_> = ["h0h9", "e9e8", "d0d1", "e8e9"]
        .iter()
        .map(|m| xiangqi_arbiter::Move::parse_iccs(m).unwrap())
        .collect();
    let e = limit::claim(&start, &moves, Color::Red, 4, &ClaimOptions::default()).unwrap_err();
    let mut before = start;
    for m in &moves[..3] {
        before.play_unchecked(*m);
    }
    assert_eq!(
        e.to_string(),
        format!("ply 4: e8e9 is not a legal move in {}", before.fen())
    );
    // Up to the illegal move the claim can be judged.
    assert!(limit::claim(&start, &moves, Color::Red, 3, &ClaimOptions::default()).is_ok());
}

#[test]
fn plies_before_a_set_up_position_are_reported_not_counted() {
    let start = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K3R1 w - - 30 20").unwrap();
    let moves: Vec<_> = ["h0h1", "e9e8"]
        .iter()
        .map(|m| xiangqi_arbiter::Move::parse_iccs(m).unwrap())
        .collect();
    let r = limit::claim(&start, &moves, Color::Red, 2, &ClaimOptions::default()).unwrap();
    assert_fields(
        &r,
        serde_json::json!({"window_start_ply": 0, "unrecorded_plies": 30, "claimant_moves": 1}),
    );
    assert!(r.render(limit::Lang::Zh).contains("此前已有30步未吃子"));
    // After a capture in the record the FEN's count no longer matters.
    let r = claim_sample(
        "claim_slow_valid.pgn",
        Color::Red,
        121,
        LimitProfile::slow(),
    );
    assert_eq!(r.unrecorded_plies, 0);
}
