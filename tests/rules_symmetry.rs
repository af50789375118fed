//! Metamorphic tests of the rules engine: the rules know no left or right and no colour, so a
//! position mirrored left to right, or turned round with the colours swapped, must get the same
//! nature for every move (targets moved with the board) and the same ruling (Red and Black
//! swapped when the colours are). Run over every CXA and AXF case and stretches of real games;
//! this guards against readings that depend on where a diagram happens to stand.

use serde_json::Value;
use xiangqi_arbiter::rules::{IdleKind, MoveNature, NatureKind, Profile, Verdict, adjudicate};
use xiangqi_arbiter::{Color, Move, Piece, Position, Setup, Square};

#[derive(Clone, Copy, Debug)]
enum Transform {
    /// Files a..i become i..a.
    Mirror,
    /// The board turned by 180 degrees and the colours swapped: Red's game played by Black.
    SwapColours,
}

impl Transform {
    fn square(self, s: Square) -> Square {
        let (f, r) = (s.file().index() as i32, s.rank().index() as i32);
        match self {
            Transform::Mirror => Square::from_xy(8 - f, r),
            Transform::SwapColours => Square::from_xy(8 - f, 9 - r),
        }
        .expect("on the board")
    }

    fn piece(self, p: Piece) -> Piece {
        match self {
            Transform::Mirror => p,
            Transform::SwapColours => Piece {
                color: !p.color,
                role: p.role,
            },
        }
    }

    fn color(self, c: Color) -> Color {
        match self {
            Transform::Mirror => c,
            Transform::SwapColours => !c,
        }
    }

    fn position(self, pos: &Position) -> Position {
        let s = pos.to_setup();
        let mut board = [None; 90];
        for (i, p) in s.board.iter().enumerate() {
            let sq = self.square(Square::from_index(i));
            board[sq.index()] = p.map(|p| self.piece(p));
        }
        let t = Setup {
            board,
            turn: self.color(s.turn),
            ..s
        };
        Position::from_setup(t).expect("a transformed legal position is legal")
    }

    fn mv(self, m: Move) -> Move {
        Move {
            from: self.square(m.from),
            to: self.square(m.to),
        }
    }

    fn verdict(self, v: Verdict) -> Verdict {
        match (self, v) {
            (Transform::SwapColours, Verdict::RedMustVary) => Verdict::BlackMustVary,
            (Transform::SwapColours, Verdict::BlackMustVary) => Verdict::RedMustVary,
            (_, v) => v,
        }
    }
}

/// A nature in a form that does not depend on the order pieces were found in.
fn canonical(n: &MoveNature, t: Option<Transform>) -> String {
    let sq = |s: Square| t.map_or(s, |t| t.square(s));
    let pc = |p: Piece| t.map_or(p, |t| t.piece(p));
    let mut targets: Vec<String> = n
        .targets
        .iter()
        .map(|x| {
            // Which piece is named for a target any of several could take alone is a free
            // choice (two rooks on either side); the pieces of a joint chase are not.
            let mut by: Vec<String> = if x.joint {
                x.by.iter().map(|&b| sq(b).to_string()).collect()
            } else {
                Vec::new()
            };
            by.sort();
            format!(
                "{}{} joint={} how={} by={}",
                pc(x.piece).char(),
                sq(x.square),
                x.joint,
                x.how.name(),
                by.join(",")
            )
        })
        .collect();
    targets.sort();
    format!(
        "{} {:?} capture={:?} [{}]",
        n.kind.name(),
        n.idle_kind,
        n.capture.map(|p| pc(p).char()),
        targets.join("; ")
    )
}

/// Adjudicates the line and its transformed image; returns a description of every difference.
fn differences(
    id: &str,
    start: &Position,
    moves: &[Move],
    profile: &Profile,
    t: Transform,
) -> Vec<String> {
    let a = adjudicate::adjudicate(start, moves, profile).unwrap_or_else(|e| panic!("{id}: {e}"));
    let tstart = t.position(start);
    let tmoves: Vec<Move> = moves.iter().map(|&m| t.mv(m)).collect();
    let b = adjudicate::adjudicate(&tstart, &tmoves, profile)
        .unwrap_or_else(|e| panic!("{id} {t:?}: {e}"));
    let mut out = Vec::new();
    for (i, (x, y)) in a.natures.iter().zip(&b.natures).enumerate() {
        let (x, y) = (canonical(x, Some(t)), canonical(y, None));
        if x != y {
            out.push(format!(
                "{id} {t:?} ply {}: {x}  vs transformed  {y}",
                i + 1
            ));
        }
    }
    if t.verdict(a.verdict) != b.verdict {
        out.push(format!(
            "{id} {t:?}: verdict {} vs transformed {}",
            a.verdict.name(),
            b.verdict.name()
        ));
    }
    out
}

fn cases(text: &str) -> Vec<(String, Position, Vec<Move>)> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let moves = v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| Move::parse_iccs(m.as_str().unwrap()).unwrap())
                .collect();
            (
                v["id"].as_str().unwrap().to_string(),
                Position::from_fen(v["fen"].as_str().unwrap()).unwrap(),
                moves,
            )
        })
        .collect()
}

/// The profile without the tournament overlay, which is not colour-blind by design (an early
/// drawn cycle means Red must vary).
fn colour_blind(mut p: Profile) -> Profile {
    p.tournament_overlay = false;
    p
}

fn check(name: &str, text: &str, profile: &Profile) {
    let profile = &colour_blind(profile.clone());
    let mut all = Vec::new();
    let cases = cases(text);
    for (id, start, moves) in &cases {
        for t in [Transform::Mirror, Transform::SwapColours] {
            all.extend(differences(id, start, moves, profile, t));
        }
    }
    assert!(
        all.is_empty(),
        "{name}: {} differences under symmetry:\n{}",
        all.len(),
        all.join("\n")
    );
    eprintln!("{name}: {} cases symmetric", cases.len());
}

#[test]
fn cxa_cases_are_symmetric() {
    check("CXA", include_str!("data/rules/cxa.jsonl"), &Profile::cxa());
}

#[test]
fn axf_cases_are_symmetric() {
    check("AXF", include_str!("data/rules/axf.jsonl"), &Profile::axf());
}

/// Moves of the real games still judged differently on a transformed board (none since issue
/// 29: ties between equally good lines are read as a set or broken by an order no drawing of
/// the board changes). Listed so that the test runs: it fails on any new asymmetry and when a
/// listed one disappears (then remove it here).
const KNOWN_ASYMMETRIES: &[&str] = &[];

#[test]
fn real_games_are_symmetric() {
    // Every move of the 48 games of the speed corpus, both profiles.
    let mut all = Vec::new();
    let mut plies = 0;
    for (k, l) in include_str!("data/rules/games.jsonl").lines().enumerate() {
        let v: Value = serde_json::from_str(l).unwrap();
        let start = Position::from_fen(v["fen"].as_str().unwrap()).unwrap();
        let moves: Vec<Move> = v["moves"]
            .as_str()
            .unwrap()
            .split_whitespace()
            .map(|m| Move::parse_iccs(m).unwrap())
            .collect();
        plies += moves.len();
        for profile in [Profile::cxa(), Profile::axf()].map(colour_blind) {
            let id = format!("game {k} {}", profile.name);
            for t in [Transform::Mirror, Transform::SwapColours] {
                all.extend(differences(&id, &start, &moves, &profile, t));
            }
        }
    }
    assert!(plies > 12_000, "{plies}");
    let known = |d: &String| {
        KNOWN_ASYMMETRIES
            .iter()
            .any(|k| d.starts_with(&format!("{k}:")))
    };
    let new: Vec<&String> = all.iter().filter(|d| !known(d)).collect();
    assert!(
        new.is_empty(),
        "{} new differences under symmetry:\n{}",
        new.len(),
        new.iter()
            .map(|d| d.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let gone: Vec<&&str> = KNOWN_ASYMMETRIES
        .iter()
        .filter(|k| !all.iter().any(|d| d.starts_with(&format!("{k}:"))))
        .collect();
    assert!(
        gone.is_empty(),
        "now symmetric, remove from the list: {gone:?}"
    );
}

// ---- Constructed positions, concept by concept (issue 16): each judged on the board as given,
// mirrored left to right, and turned round with the colours swapped; the three must agree. ----

/// The nature of the last move of `moves` (ICCS) played from `fen` under `profile`, after
/// checking that the mirrored and the colour-swapped line give the same nature of every move.
fn judged(fen: &str, moves: &str, profile: &Profile) -> MoveNature {
    let profile = &colour_blind(profile.clone());
    let start = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let line: Vec<Move> = moves
        .split_whitespace()
        .map(|m| Move::parse_iccs(m).unwrap())
        .collect();
    for t in [Transform::Mirror, Transform::SwapColours] {
        let d = differences(fen, &start, &line, profile, t);
        assert!(d.is_empty(), "{}", d.join("\n"));
    }
    let natures = xiangqi_arbiter::rules::try_classify_line(&start, &line, profile)
        .unwrap_or_else(|(_, e)| panic!("{fen}: {e}"));
    natures.last().expect("a move").clone()
}

fn cxa_judged(fen: &str, moves: &str) -> MoveNature {
    judged(fen, moves, &Profile::cxa())
}

fn idle_kind(fen: &str, moves: &str) -> Option<IdleKind> {
    let n = cxa_judged(fen, moves);
    assert_eq!(n.kind, NatureKind::Idle, "{fen} {moves}: {n:?}");
    n.idle_kind
}

/// 兑 (RULES.md §2): the moved piece can be taken by an enemy piece of the same value, which is
/// then taken back.
#[test]
fn idle_kind_exchange_offer() {
    // The red rook i3 goes to a3, where the black rook a7 can take it and the horse b1 takes
    // back.
    let fen = "3akab2/9/r8/9/9/4P4/8R/9/1N7/3AKA3 w";
    assert_eq!(idle_kind(fen, "i3a3"), Some(IdleKind::Exchange));
    // The horse f2 to d3, where the black horse c5 can take it and the rook a3 takes back
    // (unprotected there, it would be an offer: below).
    let fen = "3akab2/9/9/9/2n6/4P4/R8/5N3/9/3AKA3 w";
    assert_eq!(idle_kind(fen, "f2d3"), Some(IdleKind::Exchange));
}

/// 献 (RULES.md §2): the moved piece is put where the opponent wins it.
#[test]
fn idle_kind_offer() {
    // The red cannon g3 goes to a3, where the black rook a7 takes it for nothing.
    let fen = "3akab2/9/r8/9/9/4P4/6C2/9/9/3AKA3 w";
    assert_eq!(idle_kind(fen, "g3a3"), Some(IdleKind::Offer));
    // The horse f2 to d3, where the black horse c5 takes it for nothing.
    let fen = "3akab2/9/9/9/2n6/4P4/9/5N3/9/3AKA3 w";
    assert_eq!(idle_kind(fen, "f2d3"), Some(IdleKind::Offer));
}

/// 拦 (RULES.md §2): the moved piece stands in the way of an enemy piece's movement against
/// one of the mover's pieces or its palace: on a rook's line, as a cannon's second screen, on a
/// horse's leg, on an elephant's eye.
#[test]
fn idle_kind_block() {
    // The cannon e3 steps to a3, between the black rook a5 and the horse a1 (the rook i3
    // protects it there).
    let fen = "3akab2/9/9/9/r8/9/4C3R/9/N8/3K5 w";
    assert_eq!(idle_kind(fen, "e3a3"), Some(IdleKind::Block));
    // The elephant c0 to a2 is a second screen between the black cannon a7 (over the pawn a4)
    // and the horse a1; the rook b2 protects it.
    let fen = "3akab2/9/c8/9/9/P3P4/9/1R7/N8/2BAKA3 w";
    assert_eq!(idle_kind(fen, "c0a2"), Some(IdleKind::Block));
    // The cannon c2 to b2 stands on the leg of the black horse b3 towards the rook a1.
    let fen = "3akab2/9/9/9/9/9/1n7/2C6/R8/3K5 w";
    assert_eq!(idle_kind(fen, "c2b2"), Some(IdleKind::Block));
    // The cannon d1 to d6 stands on the eye of the black elephant e7 towards the rook c5.
    let fen = "3akab2/9/4b4/9/2R6/9/4P4/9/3C5/3AKA3 w";
    assert_eq!(idle_kind(fen, "d1d6"), Some(IdleKind::Block));
}

/// Taking away a cannon's screen stops the cannon by leaving, not by standing in its way: no
/// block (issue 16, item 11: the opening 炮二平五 was labelled 拦).
#[test]
fn taking_away_a_cannons_screen_is_not_a_block() {
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    assert_eq!(idle_kind(start, "h2e2"), None);
    assert_eq!(idle_kind(start, "b2e2"), None);
    // The rook a4, screen of the black cannon a7 against the horse a1, steps aside.
    let fen = "3akab2/9/c8/9/9/R3P4/9/9/N8/3AKA3 w";
    assert_eq!(idle_kind(fen, "a4b4"), None);
    // A step that stands on no line, leg or eye of the enemy: no block.
    let fen = "3akab2/9/9/9/9/9/1n7/9/R3C4/3K5 w";
    assert_eq!(idle_kind(fen, "e1b1"), None);
}

/// 跟 (RULES.md §2): the moved piece follows the enemy piece that just moved, keeping the same
/// relation (the same step, the two facing each other or one attacking the other).
#[test]
fn idle_kind_follow() {
    // The red cannon a3 steps to b3 (the rook b0 protects it there); the black rook a7, which
    // attacked it on the a-file, follows to b7 and attacks it on the b-file (a protected
    // cannon: no chase).
    let fen = "3akab2/9/r8/9/9/9/C3P4/9/9/1R1AKA3 w";
    assert_eq!(idle_kind(fen, "a3b3 a7b7"), Some(IdleKind::Follow));
    // The same step without the relation: the two cannons copy each other behind their pawns
    // (炮二平五 炮８平５) and do not face each other.
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    assert_eq!(idle_kind(start, "h2e2 h7e7"), None);
    // A different step is no follow.
    assert_eq!(idle_kind(fen, "a3b3 a7c7"), None);
}

/// Answering a check (issue 16, item 6; `Profile::answer_to_check_any_piece`, CXA 2020 第24条
/// 24.3 and 图13): the general's own answer is idle whatever it threatens; any other piece's
/// answer that makes a new threat chases by default, and is idle when the option is on.
#[test]
fn answers_to_a_check_general_idle_other_pieces_chase() {
    // The black rook f7 checks; the advisor e1 blocks on f2 and so opens the rook a1's rank
    // onto the unprotected horse i1: a chase.
    let fen = "3ak4/9/5r3/9/9/9/9/9/R3A3n/5K3 w";
    let n = cxa_judged(fen, "e1f2");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(n.targets[0].square.to_string(), "i1");
    let mut any = Profile::cxa();
    any.answer_to_check_any_piece = true;
    assert_eq!(judged(fen, "e1f2", &any).kind, NatureKind::Idle);
    // The black horse g2 checks; the general steps down to e0 and so opens the same kind of
    // rank onto the cannon i1: idle (the general answering a check), under both readings.
    let fen = "3k5/9/9/9/9/9/9/6n2/R3K3c/9 w";
    assert_eq!(cxa_judged(fen, "e1e0").kind, NatureKind::Idle);
    assert_eq!(judged(fen, "e1e0", &any).kind, NatureKind::Idle);
    // (A threat that stood before the check and was only held back by it is not made by the
    // block: tests/rules.rs, a_threat_freed_by_blocking_a_check_is_idle, 参考图19.)
}

/// Each chase target says what made it a chase (issue 16): what is won, how, and why it is new.
#[test]
fn a_chase_target_says_why_it_is_a_chase() {
    // The rook a1 to c1 attacks the unprotected horse c4.
    let n = cxa_judged("4k4/9/9/9/9/2n6/9/9/R8/3K5 w", "a1c1");
    assert_eq!(n.kind, NatureKind::Chase);
    let r = &n.targets[0].reason;
    assert!(r.contains("wins the horse"), "{r}");
    assert!(r.contains("by a capture"), "{r}");
    assert!(r.contains("new: the moved piece makes the attack"), "{r}");
    // A discovered attack: the advisor blocking a check opens the rook's rank.
    let n = cxa_judged("3ak4/9/5r3/9/9/9/9/9/R3A3n/5K3 w", "e1f2");
    let r = &n.targets[0].reason;
    assert!(r.contains("new: the move opens the attack"), "{r}");
    // The reason is in the adjudication report's JSON too.
    let start = Position::from_fen("4k4/9/9/9/9/2n6/9/9/R8/3K5 w").unwrap();
    let report = adjudicate::adjudicate(
        &start,
        &[Move::parse_iccs("a1c1").unwrap()],
        &Profile::cxa(),
    )
    .unwrap();
    let json = serde_json::to_value(&report).unwrap();
    assert!(
        json["moves"][0]["targets"][0]["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("wins the horse"))
    );
}

/// The chase of the target on `square` in the last move's nature, or a panic naming the nature.
fn target<'a>(n: &'a MoveNature, square: &str) -> &'a xiangqi_arbiter::rules::ChaseTarget {
    n.targets
        .iter()
        .find(|t| t.square.to_string() == square)
        .unwrap_or_else(|| panic!("{square} not chased: {n:?}"))
}

/// Joint chase (联合捉, issue 16 item 1): joint when taking away any one participant makes the
/// win disappear, on every board orientation.
#[test]
fn joint_chase_needs_every_participant() {
    let joint = |fen: &str, mv: &str, sq: &str| {
        let n = cxa_judged(fen, mv);
        assert_eq!(n.kind, NatureKind::Chase, "{fen} {mv}: {n:?}");
        assert!(target(&n, sq).joint, "{fen} {mv}: {n:?}");
        n
    };
    // Two cannons: the cannon b4 steps in front of the cannon a2 as its screen against the
    // unprotected horse a7; neither cannon wins it alone.
    let n = joint("3akab2/9/n8/9/9/1C2P4/9/C8/9/3AKA3 w", "b4a4", "a7");
    assert_eq!(target(&n, "a7").by.len(), 2);
    // A horse moved in as the cannon's screen.
    joint("4k4/9/9/9/C3n4/9/1N7/9/9/3K5 w", "b3c5", "e5");
    // An under-protected horse: the cannon joins the rook against a horse protected once.
    joint("4k4/9/9/4p4/R3n4/9/4P4/9/8C/3K5 w", "i1e1", "e5");
    // Pinning the only protector: the cannon pins the elephant that protects e7.
    joint("2bak4/4a4/4b4/9/1C2R4/9/9/9/9/4K4 w", "b5b9", "e7");
    // A pawn and a rook against a horse protected by a pawn.
    joint("4k4/9/9/2p6/2n6/2P6/9/9/R8/5K3 w", "a1a5", "c5");
    // Not joint: a rook moved in front of the cannon wins the horse by itself.
    let n = cxa_judged("3akab2/9/n8/9/9/1R2P4/9/C8/9/3AKA3 w", "b4a4");
    assert!(!target(&n, "a7").joint, "{n:?}");
    // Not joint: a cannon over a screen that stood there (its own pawn) chases alone (图26).
    let n = cxa_judged("4k4/9/9/9/2P1n4/9/C8/9/9/3K5 w", "a3a5");
    assert!(!target(&n, "e5").joint, "{n:?}");
}

/// Newness (从捉到捉 versus a new threat, issue 16 item 2): a threat that goes on with the same
/// gain is idle; one the move makes, opens, or turns from unprofitable into profitable is new.
#[test]
fn newness_new_or_continued() {
    let kind = |fen: &str, mv: &str| cxa_judged(fen, mv).kind;
    // The rook moves on along the rank and keeps attacking the same unprotected horse: idle.
    assert_eq!(
        kind("4k4/9/9/9/R3n4/9/9/9/9/3K5 w", "a5b5"),
        NatureKind::Idle
    );
    // The cannon slides behind its screen, keeping the same attack: idle.
    assert_eq!(
        kind("4k4/9/9/9/C1P1n4/9/9/9/9/3K5 w", "a5b5"),
        NatureKind::Idle
    );
    // The horse steps off the rook's rank: a discovered attack on the cannon is new.
    let n = cxa_judged("4k4/9/9/9/RN2c4/9/9/9/9/3K5 w", "b5c3");
    assert_eq!(n.kind, NatureKind::Chase);
    assert!(target(&n, "e5").reason.contains("opens the attack"));
    // The horse goes to c6 and becomes a second screen of the black cannon c8, which so no
    // longer protects the horse c5: the rook's capture, unprofitable before, now wins.
    let n = cxa_judged("4k4/2c6/2n6/9/R1n6/3N5/9/9/9/3K5 w", "d4c6");
    assert_eq!(n.kind, NatureKind::Chase);
    target(&n, "c5");
    // A second piece joins the attack on a horse the rook already attacked: new.
    let n = cxa_judged("3ak4/9/9/9/R3n4/9/4P4/9/8C/3AK4 w", "i1e1");
    assert_eq!(n.kind, NatureKind::Chase);
    assert!(target(&n, "e5").reason.contains("joins"));
}

/// Pawn and general (issue 16 item 3, CXA): a pawn or the general attacking by itself is idle;
/// a pawn's or the general's move that lets another piece win material is that piece's chase.
#[test]
fn pawn_and_general_alone_are_idle_but_their_moves_can_make_chases() {
    // A crossed pawn steps next to an unprotected horse: idle.
    let n = cxa_judged("4k4/9/9/3n5/9/3P5/9/9/9/5K3 w", "d4d5");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    // The general steps next to a horse in its palace: idle.
    let n = cxa_judged("5k3/9/9/9/9/9/9/3n5/4K4/9 w", "e1e2");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    // The crossed pawn b5 steps up and opens the rook a5's rank onto the horse d5: the rook's
    // chase.
    let n = cxa_judged("4k4/9/9/9/RP1n5/9/9/9/9/3K5 w", "b5b6");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    assert_eq!(target(&n, "d5").by.len(), 1);
    assert_eq!(target(&n, "d5").by[0].to_string(), "a5");
    // A pawn together with a rook wins a horse protected by a pawn: a (joint) chase.
    let n = cxa_judged("4k4/9/9/2p6/2n6/2P6/9/9/R8/5K3 w", "a1a5");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    // The general steps off the rank and opens the rook a1 onto the horse i1: the rook's
    // chase (the general is not in check).
    let n = cxa_judged("3k5/9/9/9/9/9/9/9/R3K3n/9 w", "e1e0");
    assert_ne!(n.kind, NatureKind::Idle, "{n:?}");
}

/// Exchange plus chase (issue 16 item 4): an exchange offer alone is idle (兑); the same offer
/// that newly threatens another piece is a chase (the heaviest nature wins).
#[test]
fn an_exchange_offer_that_also_threatens_is_a_chase() {
    // The rook a0 to a3 faces the black rook a7 (each protected by a horse): 兑.
    let n = cxa_judged("1n1ak4/9/r8/9/9/9/9/9/1N7/R2K5 w", "a0a3");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
    assert_eq!(n.idle_kind, Some(IdleKind::Exchange));
    // The same offer also attacks the unprotected horse e3 along the rank: a chase of it.
    let n = cxa_judged("1n1ak4/9/r8/9/9/9/4n4/9/1N7/R2K5 w", "a0a3");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    target(&n, "e3");
    // The rook i3 to a3 offers the rook exchange and threatens nothing else: idle.
    let n = cxa_judged("3akab2/9/r8/9/9/4P4/8R/9/1N7/3AKA3 w", "i3a3");
    assert_eq!(n.idle_kind, Some(IdleKind::Exchange));
}

/// A protector that chases (issue 16 item 5), by net gain: the chase stands unless carrying
/// out the capture costs more than it wins.
#[test]
fn a_protector_chases_unless_the_capture_costs_more_than_it_wins() {
    // The rook h5 to c5 attacks the unprotected horse c7 although taking it would cost the
    // cannon a5 (the black rook a9 then takes it): horse won, cannon lost, an even trade at
    // worst, not a loss: a chase (参考图27's principle).
    let n = cxa_judged("r3k4/9/2n6/9/C6R1/9/3P5/9/9/3K5 w", "h5c5");
    assert_eq!(n.kind, NatureKind::Chase, "{n:?}");
    target(&n, "c7");
    // The cannon d6 to c6 attacks the horse c1, but taking it would uncover the rook a6 to
    // the black rook f6 (rook for horse, a pin: 图23): the capture costs more than it wins,
    // idle.
    let n = cxa_judged("2bakab2/9/9/R2C1r3/2p6/9/9/9/2n6/3K5 w", "d6c6");
    assert_eq!(n.kind, NatureKind::Idle, "{n:?}");
}
