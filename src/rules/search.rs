//! Bounded forcing searches over checks and their replies: "can the side to move mate by one
//! check or an unbroken series of checks?" (the mate-threat nature, RULES.md §2) and the building
//! blocks of the "win by checks" (抽将) form of a chase.
//!
//! Every search is bounded by an attacker-move cap and a node budget shared by one move's
//! analysis. When the budget runs out the search answers [`Exhausted`] and the caller reports the
//! nature as undetermined: it never guesses.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Move, MoveList, Role, Square};

/// The node budget ran out before the search could decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exhausted;

/// Node counter shared by the searches of one analysis.
#[derive(Clone, Debug)]
pub struct Budget {
    pub nodes: u64,
    pub limit: u64,
}

impl Budget {
    pub fn new(limit: u64) -> Budget {
        Budget { nodes: 0, limit }
    }

    #[inline]
    pub fn tick(&mut self) -> Result<(), Exhausted> {
        self.nodes += 1;
        if self.nodes > self.limit {
            Err(Exhausted)
        } else {
            Ok(())
        }
    }
}

/// Squares from which a move might give check to the king on `ksq` (a cheap superset test used
/// before playing the move): pieces on the king's file or rank, or next to it diagonally (horse
/// legs), or arriving on those lines or on a horse or pawn checking square.
#[inline]
fn may_give_check(pos: &Position, m: Move, ksq: Square) -> bool {
    let lines = Bitboard::file(ksq.file()) | Bitboard::rank(ksq.rank());
    if lines.contains(m.from) || lines.contains(m.to) {
        return true;
    }
    if attacks::diagonal_neighbours(ksq).contains(m.from) {
        return true;
    }
    match pos.piece_at(m.from).map(|p| p.role) {
        Some(Role::Horse) => attacks::horse_attacker_squares(ksq, Bitboard::EMPTY).contains(m.to),
        Some(Role::Pawn) => attacks::pawn_attackers(pos.turn(), ksq).contains(m.to),
        // Elephants and advisors only uncover checks (from-square tests above); horse legs too.
        _ => false,
    }
}

/// Squares strictly between two squares on one file or rank (empty otherwise).
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    let (af, ar, bf, br) = (
        a.file().index() as i32,
        a.rank().index() as i32,
        b.file().index() as i32,
        b.rank().index() as i32,
    );
    let mut out = Bitboard::EMPTY;
    if af == bf {
        for r in ar.min(br) + 1..ar.max(br) {
            out |= Bitboard::from_square(Square::from_index((r * 9 + af) as usize));
        }
    } else if ar == br {
        for f in af.min(bf) + 1..af.max(bf) {
            out |= Bitboard::from_square(Square::from_index((ar * 9 + f) as usize));
        }
    }
    out
}

/// For each checker of the side to move: the squares a move by another piece than the general
/// must reach (the checker, the line between, a horse's leg), and a cannon's screen (which may
/// leave instead). `None` when there are too many checkers to list.
type Conds = arrayvec::ArrayVec<(Bitboard, Bitboard), 8>;

fn evasion_conds(q: &Position, checkers: Bitboard, k: Square) -> Option<Conds> {
    let mut conds: arrayvec::ArrayVec<(Bitboard, Bitboard), 8> = arrayvec::ArrayVec::new();
    for c in checkers {
        let role = q.piece_at(c).map(|p| p.role);
        let (mask, screen) = match role {
            Some(Role::Horse) => {
                let (hf, hr) = (c.file().index() as i32, c.rank().index() as i32);
                let (df, dr) = (k.file().index() as i32 - hf, k.rank().index() as i32 - hr);
                let leg = if df.abs() == 2 {
                    (hf + df / 2, hr)
                } else {
                    (hf, hr + dr / 2)
                };
                let leg = Square::from_index((leg.1 * 9 + leg.0) as usize);
                (Bitboard::from_square(c).with(leg), Bitboard::EMPTY)
            }
            Some(Role::Cannon) => {
                let b = between(c, k);
                (Bitboard::from_square(c) | b, b & q.occupied())
            }
            Some(Role::Pawn) => (Bitboard::from_square(c), Bitboard::EMPTY),
            // Rook or the facing general: capture or block the line.
            _ => (Bitboard::from_square(c) | between(c, k), Bitboard::EMPTY),
        };
        if conds.try_push((mask, screen)).is_err() {
            return None;
        }
    }
    Some(conds)
}

/// Exactly [`Position::legal_moves`] (same moves, same order), faster in check: moves by
/// pieces other than the general are tested for legality only when they can answer every check.
pub fn legal_replies(q: &Position) -> MoveList {
    let checkers = q.checkers();
    if checkers.is_empty() {
        return q.legal_moves();
    }
    let k = q.king(q.turn());
    let Some(conds) = evasion_conds(q, checkers, k) else {
        return q.legal_moves();
    };
    let mut out = MoveList::new();
    q.for_each_pseudo_legal(|from, targets| {
        for to in targets {
            let m = Move::new(from, to);
            if (from == k
                || conds
                    .iter()
                    .all(|&(mask, screen)| mask.contains(to) || screen.contains(from)))
                && !q.leaves_king_attacked(m, k)
            {
                out.push(m);
            }
        }
    });
    out
}

/// Whether the side to move has a legal move: exactly [`Position::has_legal_move`], faster in
/// check. General moves are tried first; another piece's move can only answer a check by
/// landing on the checker or between it and the general (on a horse's leg), or by moving a
/// cannon's screen away, so only such moves are tested for legality.
pub fn has_legal_reply(q: &Position) -> bool {
    let checkers = q.checkers();
    if checkers.is_empty() {
        return q.has_legal_move();
    }
    let us = q.turn();
    let k = q.king(us);
    let own = q.by_color(us);
    for to in attacks::king_attacks(k) - own {
        if !q.leaves_king_attacked(Move::new(k, to), k) {
            return true;
        }
    }
    let Some(conds) = evasion_conds(q, checkers, k) else {
        return q.has_legal_move();
    };
    let mut found = false;
    q.for_each_pseudo_legal(|from, targets| {
        if found || from == k {
            return;
        }
        for to in targets {
            if conds
                .iter()
                .all(|&(mask, screen)| mask.contains(to) || screen.contains(from))
                && !q.leaves_king_attacked(Move::new(from, to), k)
            {
                found = true;
                return;
            }
        }
    });
    found
}

/// The legal moves of the side to move that give check.
pub fn checking_moves(pos: &Position) -> MoveList {
    let us = pos.turn();
    let ksq = pos.king(!us);
    let own_king = pos.king(us);
    let mut out = MoveList::new();
    // One scratch copy, played and taken back; the check test (which rejects most candidates)
    // before the legality test.
    let mut q = *pos;
    pos.for_each_pseudo_legal(|from, targets| {
        for to in targets {
            let m = Move::new(from, to);
            // (In a hypothetical position where the enemy general stands attacked, taking it is
            // not a move.)
            if to == ksq || !may_give_check(pos, m, ksq) {
                continue;
            }
            let undo = q.play_unchecked(m);
            let check = q.is_check();
            q.undo(m, undo);
            if check && !pos.leaves_king_attacked(m, own_king) {
                out.push(m);
            }
        }
    });
    out
}

/// Hasher for Zobrist keys, which are already uniformly random: the key is its own hash.
#[derive(Default)]
struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Results of mate searches by position (key includes the side to move): the shortest mate
/// found and the deepest search that found none. Facts about a position alone, so the table can
/// be kept across the moves of a line.
#[derive(Default, Debug)]
pub struct MateTable {
    map: HashMap<u64, (u8, u8), BuildHasherDefault<ZobristHasher>>,
}

impl MateTable {
    /// Entries are dropped when the table grows past this size.
    const MAX: usize = 1 << 20;

    fn get(&self, key: u64) -> (u8, u8) {
        self.map.get(&key).copied().unwrap_or((u8::MAX, 0))
    }

    fn put(&mut self, key: u64, mate: Option<u8>, none_within: Option<u8>) {
        if self.map.len() >= Self::MAX {
            self.map.clear();
        }
        let e = self.map.entry(key).or_insert((u8::MAX, 0));
        if let Some(d) = mate {
            e.0 = e.0.min(d);
        }
        if let Some(d) = none_within {
            e.1 = e.1.max(d);
        }
    }
}

/// Whether the side to move can force mate within `cap` of its own moves, every one a check.
/// Iterative deepening, so short mates are found cheaply.
pub fn mate_by_checks(pos: &Position, cap: u32, budget: &mut Budget) -> Result<bool, Exhausted> {
    let mut table = MateTable::default();
    mate_by_checks_with(pos, cap, budget, &mut table)
}

/// [`mate_by_checks`] with a table kept by the caller.
pub fn mate_by_checks_with(
    pos: &Position,
    cap: u32,
    budget: &mut Budget,
    table: &mut MateTable,
) -> Result<bool, Exhausted> {
    let cap = cap.min(60) as u8;
    let (mate, none) = table.get(pos.key());
    if mate <= cap {
        return Ok(true);
    }
    if none >= cap {
        return Ok(false);
    }
    let checks = checking_moves(pos);
    if checks.is_empty() {
        table.put(pos.key(), None, Some(u8::MAX));
        return Ok(false);
    }
    for depth in (none + 1)..=cap {
        if mate_in(pos, &checks, depth, budget, table)? {
            return Ok(true);
        }
    }
    Ok(false)
}

fn mate_in(
    pos: &Position,
    checks: &MoveList,
    depth: u8,
    budget: &mut Budget,
    table: &mut MateTable,
) -> Result<bool, Exhausted> {
    let key = pos.key();
    let (mate, none) = table.get(key);
    if mate <= depth {
        return Ok(true);
    }
    if none >= depth {
        return Ok(false);
    }
    // Mate in one first: it needs no replies searched. (The positions are kept for the deeper
    // search below.)
    let mut afters: arrayvec::ArrayVec<Position, 128> = arrayvec::ArrayVec::new();
    for &m in checks {
        budget.tick()?;
        let after = pos.after(m);
        afters.push(after);
        let reply = has_legal_reply(&after);
        debug_assert_eq!(reply, after.has_legal_move());
        if !reply {
            table.put(key, Some(1), None);
            return Ok(true);
        }
    }
    if depth > 1 {
        for q in &afters {
            let mut replies = legal_replies(q);
            debug_assert_eq!(replies, q.legal_moves());
            // Likely escapes first: captures (of the checker), then general moves.
            let ksq = q.king(q.turn());
            replies.sort_by_key(|r| (q.piece_at(r.to).is_none(), r.from != ksq));
            let mut all = true;
            for r in replies {
                budget.tick()?;
                let s = q.after(r);
                let (smate, snone) = table.get(s.key());
                if smate < depth {
                    continue;
                }
                if snone >= depth - 1 {
                    all = false;
                    break;
                }
                let next = checking_moves(&s);
                if next.is_empty() {
                    table.put(s.key(), None, Some(u8::MAX));
                    all = false;
                    break;
                }
                if !mate_in(&s, &next, depth - 1, budget, table)? {
                    all = false;
                    break;
                }
            }
            if all {
                table.put(key, Some(depth), None);
                return Ok(true);
            }
        }
    }
    table.put(key, None, Some(depth));
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn checking_moves_match_brute_force() {
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "2bak1c2/4aRN1r/4b4/9/9/9/3pp4/2n1B4/9/2B1K3C w",
            "3k1ab2/4a4/4c4/4R3p/3PC4/4r4/8P/9/9/5K3 w",
            "3k5/9/9/9/9/2r1R1N2/6N2/9/4A4/3AK4 w",
        ] {
            let p = pos(fen);
            let brute: Vec<Move> = p
                .legal_moves()
                .into_iter()
                .filter(|&m| p.after(m).is_check())
                .collect();
            let mut fast = checking_moves(&p).to_vec();
            fast.sort_by_key(|m| (m.from as u8, m.to as u8));
            let mut brute = brute;
            brute.sort_by_key(|m| (m.from as u8, m.to as u8));
            assert_eq!(fast, brute, "{fen}");
        }
    }

    #[test]
    fn finds_mate_by_checks_and_respects_the_cap() {
        // Mate in one, then a two-rook ladder needing three checks.
        let mut b = Budget::new(1_000_000);
        assert!(mate_by_checks(&pos("4k4/R8/9/9/9/9/9/9/9/1R1K5 w"), 1, &mut b).unwrap());
        let ladder = pos("4k4/9/9/9/9/9/9/9/R8/1R1K5 w");
        assert!(!mate_by_checks(&ladder, 2, &mut b).unwrap());
        assert!(mate_by_checks(&ladder, 3, &mut b).unwrap());
        let p = pos("4k4/9/9/9/9/9/9/9/9/3K5 w");
        assert!(!mate_by_checks(&p, 9, &mut b).unwrap());
        let mut tiny = Budget::new(1);
        assert_eq!(mate_by_checks(&ladder, 9, &mut tiny), Err(Exhausted));
    }
}
