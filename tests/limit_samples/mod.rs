//! The constructed claim games of `pgn-samples/claim_*.pgn`: their scripts (the nature of every
//! move, by construction), the generator that wrote them, and a small reader for them.
//!
//! Regenerate with `cargo test --test limit -- --ignored write_claim_samples`.
//!
//! Construction (RULES.md §2 natures are clear by design):
//! * rook-and-king games: Black has only its king (and, in one game, an unprotected horse). The
//!   Red king stays on one side file (d or f), so that with one rook Red can never mate: every
//!   rook check leaves the Black king an escape square, hence no quiet move is a mate threat. The
//!   rook never stands next to the Black king nor where the horse attacks it; the horse never
//!   stands next to its king (so it is unprotected) and always flees at once when attacked. A
//!   rook move is a check when it gives check, a chase when it newly attacks the horse, else idle.
//!   King moves and the horse's flights are idle.
//! * the amateur game: only kings, advisors and elephants move; the rooks and horses stand in
//!   their corners behind their own pawns, so no line ever opens on an enemy piece.
//! * the mate game: at the end the Red king steps onto the e-file while the Black king is on the
//!   d-file (a mate threat: a rook check on the d-file would mate), and the rook then mates.

#![allow(dead_code)]

use std::collections::HashSet;
use xiangqi_arbiter::attacks::{horse_attacks, king_attacks};
use xiangqi_arbiter::{Color, Move, Position, Role, Square};

/// What a ply must be (and therefore its nature).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    Idle,
    Check,
    Chase,
    Capture,
    /// The Red king steps onto the e-file: a mate threat.
    KingToE,
    /// Checkmate.
    Mate,
}

impl Want {
    /// The nature name the rules engine must give (RULES.md §2).
    pub fn nature(self) -> &'static str {
        match self {
            Want::Idle => "idle",
            Want::Check | Want::Mate => "check",
            Want::Chase => "chase",
            Want::Capture => "idle",
            Want::KingToE => "mate_threat",
        }
    }
}

pub struct Sample {
    pub file: &'static str,
    pub title: &'static str,
    pub fen: &'static str,
    pub red_king_file: u8,
    pub amateur: bool,
    pub script: Vec<Want>,
    pub seed: u64,
}

/// Red's k-th move (1-based) is at ply `first_red + 2 (k - 1)`; `marks` lists (k, want).
fn script(plies: usize, first_red: usize, marks: &[(usize, Want)]) -> Vec<Want> {
    let mut s = vec![Want::Idle; plies];
    for &(k, w) in marks {
        s[first_red + 2 * (k - 1) - 1] = w;
    }
    s
}

fn run(k: std::ops::RangeInclusive<usize>, w: Want) -> Vec<(usize, Want)> {
    k.map(|k| (k, w)).collect()
}

pub fn samples() -> Vec<Sample> {
    let mut marks = Vec::new();
    marks.extend(run(5..=7, Want::Check));
    marks.extend(run(20..=22, Want::Check));
    marks.extend([
        (40, Want::Check),
        (41, Want::Check),
        (50, Want::Check),
        (51, Want::Check),
    ]);
    marks.extend([10, 15, 30, 35, 45].map(|k| (k, Want::Chase)));
    // Ply 1: the rook takes a pawn; Red's k-th counted move is then at ply 1 + 2k.
    let mut s1 = script(121, 3, &marks);
    s1[0] = Want::Capture;

    let mut marks = run(3..=5, Want::Check);
    marks.extend(run(10..=12, Want::Check));
    marks.extend(run(20..=21, Want::Check));
    marks.extend(run(30..=32, Want::Check));
    marks.extend(run(40..=42, Want::Check));
    let s2 = script(120, 1, &marks);

    let mut marks = run(2..=4, Want::Check);
    marks.extend(run(30..=32, Want::Check));
    marks.extend(run(40..=42, Want::Check));
    let s3 = script(102, 1, &marks);

    let s4 = vec![Want::Idle; 80];

    let mut marks = run(10..=12, Want::Check);
    marks.extend([(30, Want::Check), (31, Want::Check)]);
    marks.extend([(59, Want::KingToE), (60, Want::Mate)]);
    let s5 = script(120, 2, &marks);

    vec![
        Sample {
            file: "claim_slow_valid.pgn",
            title: "Slow game: a valid claim after a capture (10 checks, 5 chases, all counted)",
            fen: "4k4/9/1n7/8p/9/9/9/9/9/3K4R w - - 0 1",
            red_king_file: 3,
            amateur: false,
            script: s1,
            seed: 11,
        },
        Sample {
            file: "claim_slow_checks_void.pgn",
            title: "Slow game: 14 checks in runs of 2 or 3; the 4 beyond the cap of 10 are void",
            fen: "4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1",
            red_king_file: 3,
            amateur: false,
            script: s2,
            seed: 22,
        },
        Sample {
            file: "claim_rapid.pgn",
            title: "Rapid game: 51 moves with 9 checks, one void, 50 counted",
            fen: "4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1",
            red_king_file: 3,
            amateur: false,
            script: s3,
            seed: 33,
        },
        Sample {
            file: "claim_amateur40_refused.pgn",
            title: "Amateur 40-move rule: the count is reached but 4 attacking pieces are on the board",
            fen: "rheakae2/9/9/p1p1p4/9/9/P1P1P4/9/9/RHEAKAE2 w - - 0 1",
            red_king_file: 4,
            amateur: true,
            script: s4,
            seed: 44,
        },
        Sample {
            file: "claim_mate_on_limit.pgn",
            title: "Slow game: Red mates on the very ply that completes the 60 moves",
            fen: "3k5/9/9/9/9/9/9/9/9/R4K3 b - - 0 1",
            red_king_file: 5,
            amateur: false,
            script: s5,
            seed: 55,
        },
    ]
}

fn horse(pos: &Position) -> Option<Square> {
    pos.pieces(Color::Black, Role::Horse).into_iter().next()
}

fn rook(pos: &Position) -> Option<Square> {
    pos.pieces(Color::Red, Role::Rook).into_iter().next()
}

/// The nature of a move of these games, by construction.
pub fn constructed_nature(before: &Position, m: Move, after: &Position) -> &'static str {
    if after.is_check() {
        return "check";
    }
    let mover = before.piece_at(m.from).expect("a piece moves");
    if mover.color == Color::Red && mover.role == Role::King {
        let passed = after.null_move();
        if passed
            .legal_moves()
            .iter()
            .any(|&r| passed.after(r).is_checkmate())
        {
            return "mate_threat";
        }
    }
    if mover.color == Color::Red && mover.role == Role::Rook && threatens_horse(&after.null_move())
    {
        return "chase";
    }
    "idle"
}

/// With Red to move: can Red win the horse at once, or by a series of checks that ends in
/// taking it (抽将)?
pub fn threatens_horse(pos: &Position) -> bool {
    win_horse(pos, 3)
}

fn win_horse(pos: &Position, checks: u32) -> bool {
    let Some(h) = horse(pos) else {
        return false;
    };
    if pos.is_attacked(h, Color::Red) {
        return true;
    }
    checks > 0
        && pos.legal_moves().iter().any(|&m| {
            let after = pos.after(m);
            after.is_check()
                && after
                    .legal_moves()
                    .iter()
                    .all(|&r| win_horse(&after.after(r), checks - 1))
        })
}

fn constraints_hold(s: &Sample, i: usize, after: &Position) -> bool {
    if s.amateur {
        return !after.is_check();
    }
    let rk = after.king(Color::Red);
    let bk = after.king(Color::Black);
    let late = s.script[..=i].contains(&Want::KingToE);
    let rk_file = rk.file().index();
    if rk_file != s.red_king_file && !(late && rk_file == 4) {
        return false;
    }
    if bk.file().index() == s.red_king_file {
        return false;
    }
    if let Some(r) = rook(after) {
        // Never beside the Black king, never on the Red king's file (where it could hem its
        // own king in).
        if king_attacks(bk).contains(r) || r.file().index() == s.red_king_file {
            return false;
        }
    }
    if let Some(h) = horse(after) {
        // Unprotected (not beside its king) and on its own half (no threat to the Red king).
        if king_attacks(bk).contains(h) || !h.on_own_side(Color::Black) {
            return false;
        }
        let ha = horse_attacks(h, after.occupied());
        if ha.contains(rk) || rook(after).is_some_and(|r| ha.contains(r)) {
            return false;
        }
        if after.turn() == Color::Red && threatens_horse(after) {
            return false;
        }
    }
    true
}

fn matches(s: &Sample, want: Want, before: &Position, m: Move, after: &Position) -> bool {
    let captured = before.piece_at(m.to).is_some();
    if want == Want::Capture {
        return captured;
    }
    if captured {
        return false;
    }
    if s.amateur {
        let role = before.piece_at(m.from).unwrap().role;
        return matches!(role, Role::King | Role::Advisor | Role::Elephant) && !after.is_check();
    }
    let nature = constructed_nature(before, m, after);
    match want {
        Want::Idle => nature == "idle",
        Want::Check => nature == "check" && !after.is_checkmate(),
        Want::Chase => {
            nature == "chase" && horse(after).is_some_and(|h| after.is_attacked(h, Color::Red))
        }
        Want::Capture => unreachable!(),
        Want::KingToE => {
            nature == "mate_threat"
                && after.king(Color::Black).file().index() == 3
                && after
                    .null_move()
                    .legal_moves()
                    .iter()
                    .any(|&r| after.null_move().after(r).is_checkmate())
        }
        Want::Mate => after.is_checkmate(),
    }
}

fn mix(seed: u64, i: usize, m: Move) -> u64 {
    let mut x = seed ^ ((i as u64) << 32) ^ ((m.from as u64) << 8) ^ (m.to as u64);
    x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 29;
    x.wrapping_mul(0xBF58_476D_1CE4_E5B9) >> 7
}

fn dfs(
    s: &Sample,
    pos: &Position,
    i: usize,
    seen: &mut HashSet<u64>,
    line: &mut Vec<Move>,
    budget: &mut u64,
) -> bool {
    if i == s.script.len() {
        return true;
    }
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let mut cands: Vec<Move> = pos.legal_moves().iter().copied().collect();
    cands.sort_by_key(|&m| mix(s.seed, i, m));
    for m in cands {
        let after = pos.after(m);
        if seen.contains(&after.key())
            || !matches(s, s.script[i], pos, m, &after)
            || !constraints_hold(s, i, &after)
        {
            continue;
        }
        seen.insert(after.key());
        line.push(m);
        if dfs(s, &after, i + 1, seen, line, budget) {
            return true;
        }
        line.pop();
        seen.remove(&after.key());
    }
    false
}

/// Finds the moves of a sample game.
pub fn generate(s: &Sample) -> Vec<Move> {
    let start = Position::from_fen(s.fen).unwrap();
    let mut seen = HashSet::from([start.key()]);
    let mut line = Vec::new();
    let mut budget = 2_000_000;
    assert!(
        dfs(s, &start, 0, &mut seen, &mut line, &mut budget),
        "no game found for {}",
        s.file
    );
    line
}

/// Writes a sample as an ICCS PGN record.
pub fn pgn(s: &Sample, moves: &[Move]) -> String {
    let start = Position::from_fen(s.fen).unwrap();
    let mut end = start;
    for &m in moves {
        end.play_unchecked(m);
    }
    let result = if end.is_checkmate() {
        match end.turn() {
            Color::Red => "0-1",
            Color::Black => "1-0",
        }
    } else {
        "*"
    };
    let mut out = String::new();
    out += "[Game \"Chinese Chess\"]\n";
    out += &format!("[Event \"xiangqi-arbiter claim sample: {}\"]\n", s.title);
    out += "[Site \"constructed\"]\n[Date \"2026.11.29\"]\n[Red \"Red\"]\n[Black \"Black\"]\n";
    out += &format!(
        "[Result \"{result}\"]\n[FEN \"{}\"]\n[Format \"ICCS\"]\n",
        s.fen
    );
    out += &format!(
        "{{Constructed for the natural move limit tests: every move's nature is clear by design. {}}}\n",
        s.title
    );
    let mut pos = start;
    let mut tokens: Vec<String> = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        let n = pos.fullmoves();
        let iccs = format!(
            "{}-{}",
            m.from.to_string().to_uppercase(),
            m.to.to_string().to_uppercase()
        );
        if pos.turn() == Color::Red {
            tokens.push(format!("{n}. {iccs}"));
        } else if i == 0 {
            tokens.push(format!("{n}. ... {iccs}"));
        } else {
            tokens.push(iccs);
        }
        pos.play_unchecked(m);
    }
    tokens.push(result.to_string());
    // Pair the tokens into lines of a few moves.
    let mut line = String::new();
    for t in tokens {
        if line.len() + t.len() > 76 {
            out += line.trim_end();
            out += "\n";
            line.clear();
        }
        line += &t;
        line += " ";
    }
    out += line.trim_end();
    out += "\n";
    out
}

/// Reads the FEN tag and the ICCS moves of a sample record (these records only; the real
/// reader is `record`).
pub fn read_sample(text: &str) -> (Position, Vec<Move>) {
    let mut fen = None;
    let mut movetext = String::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("[FEN \"") {
            fen = Some(rest.trim_end_matches("\"]").to_string());
        } else if !line.starts_with('[') {
            movetext += line;
            movetext += "\n";
        }
    }
    let mut cleaned = String::new();
    let mut depth = 0;
    for c in movetext.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => cleaned.push(c),
            _ => {}
        }
    }
    let start = Position::from_fen(fen.as_deref().unwrap_or(xiangqi_arbiter::START_FEN)).unwrap();
    let mut pos = start;
    let mut moves = Vec::new();
    for tok in cleaned.split_whitespace() {
        if tok.ends_with('.') || tok == "..." || matches!(tok, "*" | "1-0" | "0-1" | "1/2-1/2") {
            continue;
        }
        let m = Move::parse_iccs(&tok.replace('-', "").to_lowercase()).expect(tok);
        assert!(pos.is_legal(m), "illegal {tok}");
        pos.play_unchecked(m);
        moves.push(m);
    }
    (start, moves)
}
