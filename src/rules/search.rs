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
use crate::movegen::KingSafety;
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
        // Every 1024 nodes: has the analysis been called off (see [`cancellable`])? Then this
        // budget, and every later one of the thread's analysis, is spent at once.
        if self.nodes & 1023 == 0 && cancelled() {
            self.limit = 0;
        }
        if self.nodes > self.limit {
            Err(Exhausted)
        } else {
            Ok(())
        }
    }
}

thread_local! {
    static CANCEL: std::cell::RefCell<Option<std::sync::Arc<std::sync::atomic::AtomicBool>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` on this thread so that its searches stop once `flag` is set (by a deadline, or a
/// server whose client is gone): each budget is then spent within 1024 nodes, so the analysis
/// ends quickly with its undecided natures, and the caller, who set the flag, discards it.
pub fn cancellable<T>(
    flag: std::sync::Arc<std::sync::atomic::AtomicBool>,
    f: impl FnOnce() -> T,
) -> T {
    struct Reset(Option<std::sync::Arc<std::sync::atomic::AtomicBool>>);
    impl Drop for Reset {
        fn drop(&mut self) {
            let previous = self.0.take();
            CANCEL.with(|c| *c.borrow_mut() = previous);
        }
    }
    let _reset = Reset(CANCEL.with(|c| c.borrow_mut().replace(flag)));
    f()
}

/// Whether the analysis running on this thread has been called off (see [`cancellable`]).
pub fn cancelled() -> bool {
    CANCEL.with(|c| {
        c.borrow()
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
    })
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

/// For each checker of the side to move: the squares a move by another piece than the general
/// must reach (the checker, the line between, a horse's leg), and a cannon's screen (which may
/// leave instead). `None` when there are too many checkers to list.
type Conds = arrayvec::ArrayVec<(Bitboard, Bitboard), 4>;

#[inline]
fn evasion_conds(q: &Position, checkers: Bitboard, k: Square) -> Option<Conds> {
    let mut conds = Conds::new();
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
                let b = attacks::between(c, k);
                (Bitboard::from_square(c) | b, b & q.occupied())
            }
            Some(Role::Pawn) => (Bitboard::from_square(c), Bitboard::EMPTY),
            // Rook or the facing general: capture or block the line.
            _ => (
                Bitboard::from_square(c) | attacks::between(c, k),
                Bitboard::EMPTY,
            ),
        };
        if conds.try_push((mask, screen)).is_err() {
            return None;
        }
    }
    Some(conds)
}

/// The points where the moves of the side to move (in check) can answer every check: `need`
/// for a piece that is no cannon screen (the intersection of all checkers' masks); a screen's
/// own set from [`Evasions::allowed`].
struct Evasions {
    need: Bitboard,
    screens: Bitboard,
    conds: Conds,
}

impl Evasions {
    #[inline]
    fn new(q: &Position, checkers: Bitboard, k: Square) -> Option<Evasions> {
        let conds = evasion_conds(q, checkers, k)?;
        let mut need = Bitboard::FULL;
        let mut screens = Bitboard::EMPTY;
        for &(mask, screen) in &conds {
            need &= mask;
            screens |= screen;
        }
        Some(Evasions {
            need,
            screens,
            conds,
        })
    }

    /// The destinations at which a move of the (non-general) piece on `from` answers every
    /// check: it lands on each checker's mask unless it is that checker's screen.
    #[inline]
    fn allowed(&self, from: Square) -> Bitboard {
        if !self.screens.contains(from) {
            return self.need;
        }
        let mut a = Bitboard::FULL;
        for &(mask, screen) in &self.conds {
            if !screen.contains(from) {
                a &= mask;
            }
        }
        a
    }
}

/// Calls `f(from, targets)` like [`Position::for_each_pseudo_legal`] (same pieces, same
/// order), with each non-general piece's targets cut down to where they answer every check,
/// skipping pieces with none.
#[inline]
fn for_each_evasion<F: FnMut(Square, Bitboard)>(q: &Position, ev: &Evasions, mut f: F) {
    let us = q.turn();
    let own = q.by_color(us);
    let them = q.by_color(!us);
    let occ = q.occupied();
    let rot = q.occupied_rotated();
    // (Rooks and cannons stay on their rank and file; their own point is no target.)
    let cross = attacks::lines;
    for sq in q.pieces(us, Role::Rook) {
        let a = ev.allowed(sq) & cross(sq);
        if a.any() {
            f(sq, (attacks::rook_attacks(sq, occ, rot) - own) & a);
        }
    }
    for sq in q.pieces(us, Role::Cannon) {
        let a = ev.allowed(sq) & cross(sq);
        if a.any() {
            let quiet = attacks::rook_attacks(sq, occ, rot) - occ;
            f(
                sq,
                (quiet | (attacks::cannon_attacks(sq, occ, rot) & them)) & a,
            );
        }
    }
    // (Pieces whose steps miss every allowed point even on an empty board are skipped.)
    for sq in q.pieces(us, Role::Horse) {
        let a = ev.allowed(sq) & attacks::horse_attacks(sq, Bitboard::EMPTY);
        if a.any() {
            f(sq, (attacks::horse_attacks(sq, occ) - own) & a);
        }
    }
    for sq in q.pieces(us, Role::Pawn) {
        let a = ev.allowed(sq) & attacks::pawn_attacks(us, sq);
        if a.any() {
            f(sq, a - own);
        }
    }
    for sq in q.pieces(us, Role::Elephant) {
        let a = ev.allowed(sq) & attacks::elephant_attacks(sq, Bitboard::EMPTY);
        if a.any() {
            f(sq, (attacks::elephant_attacks(sq, occ) - own) & a);
        }
    }
    for sq in q.pieces(us, Role::Advisor) {
        let a = ev.allowed(sq) & attacks::advisor_attacks(sq);
        if a.any() {
            f(sq, a - own);
        }
    }
    for sq in q.pieces(us, Role::King) {
        f(sq, attacks::king_attacks(sq) - own);
    }
}

/// Exactly [`Position::legal_moves`] (same moves, same order), faster in check: moves by
/// pieces other than the general are tested for legality only when they can answer every check.
pub fn legal_replies(q: &Position) -> MoveList {
    let mut out = MoveList::new();
    legal_replies_into(q, &mut out);
    out
}

/// [`legal_replies`] into `out` (empty), which the caller owns: no list is copied on return.
fn legal_replies_into(q: &Position, out: &mut MoveList) {
    let ks = q.king_safety();
    if !ks.in_check {
        *out = q.legal_moves_with(&ks);
        return;
    }
    let k = ks.king;
    if let Some(c) = ks.checkers.single() {
        single_check_replies(q, &ks, c, out);
        return;
    }
    let Some(ev) = Evasions::new(q, ks.checkers, k) else {
        *out = q.legal_moves_with(&ks);
        return;
    };
    for_each_evasion(q, &ev, |from, targets| {
        for to in targets {
            let m = Move::new(from, to);
            if q.is_legal_with(&ks, m) {
                out.push(m);
            }
        }
    });
}

/// The pieces of the side to move other than the general that can move onto `t` by their own
/// movement (each move table is its own reverse), leaving out those on `skip`.
#[inline]
fn movers_to(q: &Position, t: Square, skip: Bitboard) -> Bitboard {
    let us = q.turn();
    let occ = q.occupied();
    let (rooks, cannons) = (q.pieces(us, Role::Rook), q.pieces(us, Role::Cannon));
    // A cannon moves like a rook, and captures over one screen.
    let mut from = if q.by_color(!us).contains(t) {
        attacks::slider_attackers(t, occ, rooks, cannons)
    } else {
        attacks::slider_attackers(t, occ, rooks | cannons, Bitboard::EMPTY)
    };
    from |= attacks::horse_attacker_squares(t, occ) & q.by_role(Role::Horse);
    from |= attacks::pawn_attackers(us, t) & q.by_role(Role::Pawn);
    from |= attacks::advisor_attacks(t) & q.by_role(Role::Advisor);
    from |= attacks::elephant_attacks(t, occ) & q.by_role(Role::Elephant);
    (from & q.by_color(us)) - skip
}

/// The rank of each role in the order [`Position::for_each_pseudo_legal`] lists the pieces
/// (rooks, cannons, horses, pawns, elephants, advisors, general), indexed by `Role as usize`.
fn generation_rank(role: Role) -> u32 {
    match role {
        Role::Rook => 0,
        Role::Cannon => 1,
        Role::Horse => 2,
        Role::Pawn => 3,
        Role::Elephant => 4,
        Role::Advisor => 5,
        Role::King => 6,
    }
}

/// [`legal_replies`] when a single piece, on `c`, gives check: the moves are found backwards
/// from the points that answer it (the checker itself; the points between it and the general,
/// or a horse's leg, where a piece blocks), plus every move of an own cannon screen and of the
/// general, and then put in the order of [`Position::legal_moves`].
fn single_check_replies(q: &Position, ks: &KingSafety, c: Square, out: &mut MoveList) {
    let k = ks.king;
    // (Collected in `out`, then tested and sorted there.)
    let cand = out;
    for_each_single_check_answer(q, k, c, |m| {
        cand.push(m);
        false
    });
    for t in attacks::king_attacks(k) - q.by_color(q.turn()) {
        cand.push(Move::new(k, t));
    }
    cand.retain(|m| q.is_legal_with(ks, *m));
    cand.sort_unstable_by_key(|m| {
        let role = q.piece_at(m.from).map_or(Role::King, |p| p.role);
        generation_rank(role) << 16 | (m.from as u32) << 8 | m.to as u32
    });
}

/// Calls `f` on every pseudo-legal move of a piece other than the general (on `k`) that may
/// answer the single check given by the piece on `c`, until `f` returns true (and then returns
/// true): the moves onto the checker and onto the points between it and the general (a horse's
/// leg), found backwards from those points, then every move of an own cannon screen. A move by
/// another piece than the general that lands elsewhere, and is no screen's, leaves the checker
/// attacking ([`single_check_replies`] lists the legal ones among these and the general's).
fn for_each_single_check_answer(
    q: &Position,
    k: Square,
    c: Square,
    mut f: impl FnMut(Move) -> bool,
) -> bool {
    let us = q.turn();
    let own = q.by_color(us);
    let occ = q.occupied();
    let mut screen = Bitboard::EMPTY;
    let block = match q.piece_at(c).map(|p| p.role) {
        Some(Role::Horse) => attacks::horse_attackers(k)
            .iter()
            .find(|leg| leg.targets.contains(c))
            .map_or(Bitboard::EMPTY, |leg| Bitboard::from_square(leg.block)),
        Some(Role::Pawn) => Bitboard::EMPTY,
        Some(Role::Cannon) => {
            let b = attacks::between(c, k);
            // An own screen may step off the line (taking an enemy screen answers too).
            screen = b & own;
            b
        }
        // A rook or the facing general: block the line.
        _ => attacks::between(c, k),
    };
    for t in (block.with(c)) - own {
        for from in movers_to(q, t, screen) {
            if f(Move::new(from, t)) {
                return true;
            }
        }
    }
    if let Some(s) = screen.first() {
        let them = q.by_color(!us);
        let rot = q.occupied_rotated();
        let targets = match q.piece_at(s).map(|p| p.role) {
            Some(Role::Rook) => attacks::rook_attacks(s, occ, rot) - own,
            Some(Role::Cannon) => {
                (attacks::rook_attacks(s, occ, rot) - occ)
                    | (attacks::cannon_attacks(s, occ, rot) & them)
            }
            Some(Role::Horse) => attacks::horse_attacks(s, occ) - own,
            Some(Role::Pawn) => attacks::pawn_attacks(us, s) - own,
            Some(Role::Elephant) => attacks::elephant_attacks(s, occ) - own,
            Some(Role::Advisor) => attacks::advisor_attacks(s) - own,
            // (The general cannot stand between a cannon and itself.)
            Some(Role::King) | None => Bitboard::EMPTY,
        };
        for t in targets {
            if f(Move::new(s, t)) {
                return true;
            }
        }
    }
    false
}

/// Whether the side to move, in check, has a legal move ([`has_legal_reply`]): the general's
/// steps first, which need no look at the other pieces (nor the survey of pins and checkers).
pub(crate) fn has_reply_to_check(q: &Position) -> bool {
    debug_assert!(q.is_check());
    let k = q.king(q.turn());
    if has_king_step(q, k) {
        return true;
    }
    has_other_evasion(q, &q.king_safety())
}

/// Whether the general of the side to move (on `k`) has a legal step.
#[inline]
fn has_king_step(q: &Position, k: Square) -> bool {
    let own = q.by_color(q.turn());
    for to in attacks::king_attacks(k) - own {
        if !q.leaves_king_attacked(Move::new(k, to), k) {
            return true;
        }
    }
    false
}

/// Whether the side to move, in check (`ks`), has a legal move other than a general's step
/// (or any legal move, when the evasions cannot be listed).
fn has_other_evasion(q: &Position, ks: &KingSafety) -> bool {
    let k = ks.king;
    if let Some(c) = ks.checkers.single() {
        // Only the answers listed backwards from the checker can be legal.
        return for_each_single_check_answer(q, k, c, |m| q.is_legal_with(ks, m));
    }
    let Some(ev) = Evasions::new(q, ks.checkers, k) else {
        return q.has_legal_move_with(ks);
    };
    let mut found = false;
    for_each_evasion(q, &ev, |from, targets| {
        if found || from == k {
            return;
        }
        for to in targets {
            if q.is_legal_with(ks, Move::new(from, to)) {
                found = true;
                return;
            }
        }
    });
    found
}

/// Whether the side to move has a legal move: exactly [`Position::has_legal_move`], faster in
/// check. General moves are tried first; another piece's move can only answer a check by
/// landing on the checker or between it and the general (on a horse's leg), or by moving a
/// cannon's screen away, so only such moves are tested for legality.
pub fn has_legal_reply(q: &Position) -> bool {
    let ks = q.king_safety();
    if !ks.in_check {
        return q.has_legal_move_with(&ks);
    }
    has_king_step(q, ks.king) || has_other_evasion(q, &ks)
}

/// The legal moves of the side to move that give check, in the order of
/// [`Position::legal_moves`].
///
/// Moves are not played: with the enemy general on `K` not attacked yet, a move `from -> to`
/// gives check only if
/// - the moved piece attacks `K` from `to` (a rook on a clear line, a cannon with one screen, a
///   horse with a free leg, a pawn next to it): exact per-role point sets, computed once, when
///   `from` lies on no line to `K` as its first or second piece (otherwise the exact test);
/// - or it uncovers a check (it was the first or second piece on a line from `K`, or stood on
///   the leg of an own horse aimed at `K`), or becomes the screen of an own cannon facing `K`
///   with nothing between. For such a piece, leaving its square is tested once; destinations on
///   `K`'s rank, file or horse legs (where it may block again) get the exact test on the
///   occupancy after the move. A landing in front of an own cannon by any other piece is a
///   check without a test (the point is empty, and so is the rest of the line between).
///
/// When the enemy general already stands attacked (a hypothetical position), every move is
/// tested by playing it.
pub fn checking_moves(pos: &Position) -> MoveList {
    let mut out = MoveList::new();
    checking_moves_into(pos, &mut out);
    out
}

/// [`checking_moves`] into `out` (empty), which the caller owns: no list is copied on return.
fn checking_moves_into(pos: &Position, out: &mut MoveList) {
    let us = pos.turn();
    let ksq = pos.king(!us);
    let own = pos.by_color(us);
    let them = pos.by_color(!us);
    let occ = pos.occupied();
    let rot = pos.occupied_rotated();
    let own_rooks = pos.pieces(us, Role::Rook);
    let own_cannons = pos.pieces(us, Role::Cannon);
    let own_horses = pos.pieces(us, Role::Horse);
    let own_kings = pos.pieces(us, Role::King);

    // Lines from the enemy general: the first two pieces on each may uncover a check; empty
    // points in front of an own cannon that faces it make a screen when a piece lands there.
    // (The first pieces are where the rook's lines from the general stop, the second ones
    // where the cannon's do.)
    let r1 = attacks::rook_attacks(ksq, occ, rot);
    let first = r1 & occ;
    let mut discover = first | attacks::cannon_attacks(ksq, occ, rot);
    let mut screen = Bitboard::EMPTY;
    for p1 in first & own_cannons {
        screen |= attacks::between(ksq, p1);
    }
    // Own horses a leg away from checking (the leg is a diagonal neighbour of the general).
    let leg_horses = own_horses & attacks::horse_attacker_squares(ksq, Bitboard::EMPTY);
    if leg_horses.any() {
        for leg in attacks::horse_attackers(ksq) {
            if (leg.targets & own_horses).any() {
                discover |= Bitboard::from_square(leg.block);
            }
        }
    }
    discover &= own;

    // Points from which each role checks directly (for a piece not in `discover`).
    let rook_checks = r1;
    let cannon_checks = attacks::cannon_attacker_squares(ksq, occ, rot);
    debug_assert_eq!(cannon_checks, {
        let (mut occ2, mut rot2) = (occ, rot);
        for b in first {
            occ2.clear(b);
            rot2 &= !attacks::rot_bit(b);
        }
        attacks::rook_attacks(ksq, occ2, rot2) - r1
    });
    let horse_checks = attacks::horse_attacker_squares(ksq, occ);
    let pawn_checks = attacks::pawn_attackers(us, ksq);
    // Already attacked (only in a hypothetical position): [`Position::attackers`] from the
    // sets above.
    let attacked = (rook_checks & (own_rooks | (own_kings & Bitboard::file(ksq.file()))))
        | (cannon_checks & own_cannons)
        | (horse_checks & own_horses)
        | (pawn_checks & pos.pieces(us, Role::Pawn))
        | (attacks::king_attacks(ksq) & own_kings);
    debug_assert_eq!(attacked, pos.attackers(ksq, us));
    if attacked.any() {
        *out = checking_moves_by_play(pos);
        return;
    }

    // Lines and horse legs of the enemy general: a piece landing elsewhere changes nothing
    // about the other pieces' attacks on it.
    let zone =
        Bitboard::file(ksq.file()) | Bitboard::rank(ksq.rank()) | attacks::diagonal_neighbours(ksq);

    // Whether an own piece other than the one on `from` attacks the enemy general with the
    // occupancy `occ2` (exactly [`Position::attacked_with`] for `own.without(from)`): the
    // general is not attacked now, so an own pawn never attacks it (its attack does not depend
    // on the occupancy) and neither does the own general from next to it; only the rooks,
    // cannons and the general on its lines and the horses a leg away can, judged by the pieces
    // between and the leg.
    let line_sliders =
        ((own_rooks | own_cannons) & attacks::lines(ksq)) | (own_kings & attacks::file_line(ksq));
    let others_check = |from: Square, occ2: Bitboard| -> bool {
        for x in line_sliders.without(from) {
            let screens = (attacks::between(ksq, x) & occ2).count();
            if screens == u32::from(own_cannons.contains(x)) {
                return true;
            }
        }
        if leg_horses.without(from).any() {
            for leg in attacks::horse_attackers(ksq) {
                if (leg.targets & leg_horses).without(from).any() && !occ2.contains(leg.block) {
                    return true;
                }
            }
        }
        false
    };
    // Whether the piece of `role` moved to `to` attacks the enemy general itself, with the
    // occupancy `occ2` after the move (the reverse lookups from the general: a rook or cannon
    // on its line with no piece or one piece between, a horse with a free leg, which is the
    // general's diagonal neighbour, a pawn on a pawn's checking point, the own general on its
    // file with nothing between or next to it).
    let moved_checks = |role: Role, to: Square, occ2: Bitboard| -> bool {
        let on_line = attacks::lines(ksq).contains(to);
        let screens = (attacks::between(ksq, to) & occ2).count();
        match role {
            Role::Rook => on_line && screens == 0,
            Role::Cannon => on_line && screens == 1,
            Role::Horse => attacks::horse_attacker_squares(ksq, occ2).contains(to),
            Role::Pawn => pawn_checks.contains(to),
            Role::King => {
                attacks::king_attacks(to).contains(ksq)
                    || (attacks::file_line(ksq).contains(to) && screens == 0)
            }
            Role::Advisor | Role::Elephant => false,
        }
    };

    // Legality of each check found: [`Position::is_legal_with`] on the king safety of the side
    // to move, surveyed once at the first check (most moves then need no test at all; nearly
    // half the positions searched have no check to test). Its fast case is taken here: out of
    // check, a move by no blocker (nor the general) onto no risky point is legal.
    let mut safety: Option<KingSafety> = None;
    let mut push_legal = |from: Square, checks: Bitboard| {
        let ks = safety.get_or_insert_with(|| pos.king_safety());
        let free = !ks.in_check && !ks.blockers.contains(from);
        for to in checks {
            let m = Move::new(from, to);
            if (free && !ks.risky.contains(to)) || pos.is_legal_with(ks, m) {
                out.push(m);
            }
        }
    };
    // The destinations among `targets` (not the general's point) at which the piece of `role`
    // on `from`, which may uncover a check, gives check. Leaving `from` uncovers a check or
    // not, whatever the destination outside the zone; inside it the destination may block
    // again, or the piece check by itself: the exact test on the occupancy after the move (a
    // capture leaves the enemy piece's point occupied, by the mover).
    let discovered = |from: Square, role: Role, targets: Bitboard, direct: Bitboard| {
        let outside = targets - zone;
        let mut checks = if others_check(from, occ.without(from)) {
            outside
        } else {
            outside & direct
        };
        for to in targets & zone {
            let occ2 = occ.without(from).with(to);
            if others_check(from, occ2) || moved_checks(role, to, occ2) {
                checks.set(to);
            }
        }
        checks
    };
    // The checking destinations of the piece of `role` on `from` among its pseudo-legal
    // `targets`. A piece that uncovers nothing checks exactly where it lands on a checking
    // point of its role (`direct`) or on a screen point: one between the enemy general and an
    // own cannon with nothing else between, where a piece arriving from off the line always
    // makes the check.
    let checks_of = |from: Square, role: Role, targets: Bitboard, direct: Bitboard| {
        let targets = targets.without(ksq);
        if discover.contains(from) {
            discovered(from, role, targets, direct)
        } else {
            targets & (direct | screen)
        }
    };
    // The legal checks of the piece of `role` on `from` among its pseudo-legal `targets`.
    let mut emit = |from: Square, role: Role, targets: Bitboard, direct: Bitboard| {
        let c = checks_of(from, role, targets, direct);
        if c.any() {
            push_legal(from, c);
        }
    };
    // Pieces that uncover nothing and reach no checking point of their role nor a screen
    // point even on an empty board are skipped.
    let may = |sq: Square, reach: Bitboard, direct: Bitboard| {
        discover.contains(sq) || (reach & (direct | screen)).any()
    };
    for sq in own_rooks {
        if may(sq, attacks::lines(sq), rook_checks) {
            let targets = attacks::rook_attacks(sq, occ, rot) - own;
            emit(sq, Role::Rook, targets, rook_checks);
        }
    }
    for sq in own_cannons {
        if may(sq, attacks::lines(sq), cannon_checks) {
            let quiet = attacks::rook_attacks(sq, occ, rot) - occ;
            let targets = quiet | (attacks::cannon_attacks(sq, occ, rot) & them);
            emit(sq, Role::Cannon, targets, cannon_checks);
        }
    }
    for sq in own_horses {
        let reach = attacks::horse_attacks(sq, Bitboard::EMPTY);
        if may(sq, reach, horse_checks) {
            let targets = attacks::horse_attacks(sq, occ) - own;
            emit(sq, Role::Horse, targets, horse_checks);
        }
    }
    for sq in pos.pieces(us, Role::Pawn) {
        let reach = attacks::pawn_attacks(us, sq);
        if may(sq, reach, pawn_checks) {
            emit(sq, Role::Pawn, reach - own, pawn_checks);
        }
    }
    // Elephants, advisors and the general never check by themselves (a general on the enemy
    // general's open file would be an illegal move).
    // (Only those that may uncover a check, or may land in front of an own cannon.)
    let quiet_ones = if screen.any() {
        Bitboard::FULL
    } else {
        discover
    };
    for sq in pos.pieces(us, Role::Elephant) & quiet_ones {
        if may(
            sq,
            attacks::elephant_attacks(sq, Bitboard::EMPTY),
            Bitboard::EMPTY,
        ) {
            let targets = attacks::elephant_attacks(sq, occ) - own;
            emit(sq, Role::Elephant, targets, Bitboard::EMPTY);
        }
    }
    for sq in pos.pieces(us, Role::Advisor) & quiet_ones {
        let reach = attacks::advisor_attacks(sq);
        if may(sq, reach, Bitboard::EMPTY) {
            emit(sq, Role::Advisor, reach - own, Bitboard::EMPTY);
        }
    }
    for sq in own_kings & quiet_ones {
        let reach = attacks::king_attacks(sq);
        if may(sq, reach, Bitboard::EMPTY) {
            emit(sq, Role::King, reach - own, Bitboard::EMPTY);
        }
    }
    debug_assert_eq!(*out, checking_moves_by_play(pos), "{}", pos.fen());
}

/// [`checking_moves`] by playing every candidate (for positions where the enemy general
/// already stands attacked).
fn checking_moves_by_play(pos: &Position) -> MoveList {
    let us = pos.turn();
    let ksq = pos.king(!us);
    let own_king = pos.king(us);
    let mut out = MoveList::new();
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

/// Whether the side to move mates in one (a check after which the opponent has no legal move),
/// looked for without a mate table: for positions seen once, where storing them would cost more
/// than it saves. The checks are played on `pos` and taken back.
pub(crate) fn mate_in_one(pos: &mut Position, budget: &mut Budget) -> Result<bool, Exhausted> {
    // (Generated into a list owned here: a list returned by value cost a copy per test.)
    let mut checks = MoveList::new();
    checking_moves_into(pos, &mut checks);
    for &c in &checks {
        budget.tick()?;
        let undo = pos.play_unchecked(c);
        // (`c` gives check.)
        let reply = has_reply_to_check(pos);
        pos.undo(c, undo);
        if !reply {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Hasher for Zobrist keys, which are already uniformly random: the key is its own hash.
#[derive(Default)]
pub(crate) struct ZobristHasher(u64);

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

/// What the mate searches know about a position (key includes the side to move): the shortest
/// mate found, the deepest search that found none, and, once generated, its checking moves and
/// its (ordered) replies to a check, kept in the table's move arena. Facts about a position
/// alone, so the table can be kept across the moves of a line; iterative deepening visits the
/// same positions again and finds their moves here.
#[derive(Clone, Copy, Debug)]
struct Entry {
    checks: Span,
    replies: Span,
    /// [`first_replies`], once generated.
    first: Span,
    mate: u8,
    none: u8,
    /// Whether the side to move has a legal move: 0 unknown, 1 no, 2 yes.
    has_move: u8,
}

/// A list in the move arena: its start (the low 24 bits; the arena never holds more than
/// [`MateTable::MAX`] moves) and length (the high 8 bits), `ABSENT` when not generated yet.
/// (One word, so that an entry with its key takes 24 bytes of the table instead of 40.)
#[derive(Clone, Copy, Debug)]
struct Span(u32);

impl Span {
    #[inline]
    fn new(start: usize, len: usize) -> Span {
        debug_assert!(start < 1 << 24 && len < ABSENT as usize);
        Span(start as u32 | (len as u32) << 24)
    }
    #[inline]
    fn start(self) -> usize {
        (self.0 & 0xff_ffff) as usize
    }
    #[inline]
    fn len(self) -> u8 {
        (self.0 >> 24) as u8
    }
}

const ABSENT: u8 = u8::MAX;
const NO_SPAN: Span = Span((ABSENT as u32) << 24);
const EMPTY_ENTRY: Entry = Entry {
    mate: u8::MAX,
    none: 0,
    checks: NO_SPAN,
    replies: NO_SPAN,
    first: NO_SPAN,
    has_move: 0,
};

#[derive(Default, Debug)]
pub struct MateTable {
    map: HashMap<u64, Entry, BuildHasherDefault<ZobristHasher>>,
    arena: Vec<Move>,
    /// The keys of the positions (attacker to move) on the line [`mate_in`] is searching, from
    /// the root.
    path: Vec<u64>,
}

impl MateTable {
    /// Everything is dropped when the table grows past this many positions or arena moves.
    const MAX: usize = 1 << 20;

    fn get(&self, key: u64) -> (u8, u8) {
        self.map
            .get(&key)
            .map_or((u8::MAX, 0), |e| (e.mate, e.none))
    }

    /// Whether the side to move of `pos` mates by checks within `cap` of its moves, when the
    /// table already knows it (what [`mate_by_checks_with`] would answer without searching).
    pub fn known(&self, pos: &Position, cap: u32) -> Option<bool> {
        let cap = cap.min(60) as u8;
        let (mate, none) = self.get(pos.key());
        if mate <= cap {
            Some(true)
        } else if none >= cap {
            Some(false)
        } else {
            None
        }
    }

    fn make_room(&mut self, moves: usize) {
        if self.map.capacity() == 0 {
            // A line's analysis stores a few thousand positions: no growing one by one.
            self.map.reserve(1 << 12);
            self.arena.reserve(1 << 14);
        }
        if self.map.len() >= Self::MAX || self.arena.len() + moves > Self::MAX {
            self.map.clear();
            self.arena.clear();
        }
    }

    fn put(&mut self, key: u64, mate: Option<u8>, none_within: Option<u8>) {
        self.make_room(0);
        let e = self.map.entry(key).or_insert(EMPTY_ENTRY);
        if let Some(d) = mate {
            e.mate = e.mate.min(d);
        }
        if let Some(d) = none_within {
            e.none = e.none.max(d);
        }
    }

    fn list(&self, span: Span) -> Option<Moves> {
        if span.len() == ABSENT {
            return None;
        }
        let start = span.start();
        Some(Moves::from_slice(
            &self.arena[start..start + span.len() as usize],
        ))
    }

    fn store(&mut self, list: &MoveList) -> Span {
        let start = self.arena.len();
        self.arena.extend_from_slice(list);
        Span::new(start, list.len())
    }

    /// [`checking_moves`] of `pos`, generated once.
    pub fn checking_moves(&mut self, pos: &Position) -> Moves {
        let key = pos.key();
        if let Some(l) = self.map.get(&key).and_then(|e| self.list(e.checks)) {
            debug_assert_eq!(&l[..], &checking_moves(pos)[..]);
            return l;
        }
        let mut l = MoveList::new();
        checking_moves_into(pos, &mut l);
        self.make_room(l.len());
        let span = self.store(&l);
        self.map.entry(key).or_insert(EMPTY_ENTRY).checks = span;
        Moves::from_slice(&l)
    }

    /// Whether the opponent has a legal move after the check `m` ([`has_legal_reply`]), from
    /// the stored replies when they are known.
    ///
    /// Otherwise the [`first_replies`] are listed and kept: a check that does not mate is
    /// nearly always searched further next ([`every_reply_mated`] asks for them first), and
    /// they include every legal move of the general, so when there are none, only the other
    /// evasions remain to be looked for ([`has_other_evasion`]).
    fn has_reply_after(&mut self, pos: &mut Position, m: Move) -> bool {
        let key = pos.key_after(m);
        match self.map.get(&key) {
            Some(e) if e.replies.len() != ABSENT => return e.replies.len() > 0,
            Some(e) if e.has_move != 0 => return e.has_move == 2,
            _ => {}
        }
        let undo = pos.play_unchecked(m);
        // (`m` gives check.)
        let mut first = MoveList::new();
        first_replies_into(pos, &mut first);
        let has = !first.is_empty() || has_other_evasion(pos, &pos.king_safety());
        debug_assert_eq!(has, has_reply_to_check(pos));
        pos.undo(m, undo);
        self.make_room(first.len());
        let span = self.store(&first);
        let e = self.map.entry(key).or_insert(EMPTY_ENTRY);
        e.first = span;
        e.has_move = if has { 2 } else { 1 };
        has
    }

    /// [`first_replies`] of `pos` (in check), generated once.
    pub(crate) fn first_replies(&mut self, pos: &Position) -> Moves {
        let key = pos.key();
        if let Some(l) = self.map.get(&key).and_then(|e| self.list(e.first)) {
            return l;
        }
        let mut l = MoveList::new();
        first_replies_into(pos, &mut l);
        self.make_room(l.len());
        let span = self.store(&l);
        let e = self.map.entry(key).or_insert(EMPTY_ENTRY);
        e.first = span;
        if !l.is_empty() {
            e.has_move = 2;
        }
        Moves::from_slice(&l)
    }

    /// [`legal_replies`] of `pos` (exactly [`Position::legal_moves`]), generated once.
    pub fn legal_replies(&mut self, pos: &Position) -> Moves {
        let key = pos.key();
        if let Some(l) = self.map.get(&key).and_then(|e| self.list(e.replies)) {
            debug_assert_eq!(&l[..], &pos.legal_moves()[..]);
            return l;
        }
        let mut l = MoveList::new();
        legal_replies_into(pos, &mut l);
        debug_assert_eq!(l, pos.legal_moves());
        self.make_room(l.len());
        let span = self.store(&l);
        self.map.entry(key).or_insert(EMPTY_ENTRY).replies = span;
        Moves::from_slice(&l)
    }
}

/// A list of moves handed out by the [`MateTable`]: most lists of checks and replies are short
/// and are kept by value (cheap to move), longer ones on the heap.
#[derive(Clone, Debug)]
pub enum Moves {
    Short(arrayvec::ArrayVec<Move, 24>),
    Long(Vec<Move>),
}

impl Moves {
    fn from_slice(moves: &[Move]) -> Moves {
        let mut short = arrayvec::ArrayVec::new();
        if short.try_extend_from_slice(moves).is_ok() {
            Moves::Short(short)
        } else {
            Moves::Long(moves.to_vec())
        }
    }
}

impl std::ops::Deref for Moves {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        match self {
            Moves::Short(v) => v,
            Moves::Long(v) => v,
        }
    }
}

impl std::ops::DerefMut for Moves {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        match self {
            Moves::Short(v) => v,
            Moves::Long(v) => v,
        }
    }
}

/// The moves of a [`Moves`], in order.
pub struct MovesIter {
    moves: Moves,
    next: usize,
}

impl Iterator for MovesIter {
    type Item = Move;
    #[inline]
    fn next(&mut self) -> Option<Move> {
        let m = self.moves.get(self.next).copied();
        self.next += 1;
        m
    }
}

impl IntoIterator for Moves {
    type Item = Move;
    type IntoIter = MovesIter;
    fn into_iter(self) -> MovesIter {
        MovesIter {
            moves: self,
            next: 0,
        }
    }
}

/// Whether the side to move can force mate within `cap` of its own moves, every one a check.
/// (Every position of the search tries the mates in one first, so short mates are found
/// cheaply without iterative deepening.)
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
    let checks = table.checking_moves(pos);
    if checks.is_empty() {
        table.put(pos.key(), None, Some(u8::MAX));
        return Ok(false);
    }
    // One search at the cap. Iterative deepening (1, 2, then the cap) was tried: the mates in
    // one are tried first at every position anyway, and the shallow iterations mostly searched
    // lines again (196K nodes on the speed corpus against 151K for the direct search).
    // (The search plays its moves on this copy and takes them back; an exhausted search may
    // have left its line behind.)
    let mut scratch = *pos;
    table.path.clear();
    let found = mate_in(&mut scratch, &checks, cap, true, budget, table)?;
    Ok(found.mate)
}

/// What [`mate_in`] found about a position.
#[derive(Clone, Copy, Debug)]
struct Found {
    /// The side to move mates within the depth.
    mate: bool,
    /// No mate, at any depth (see [`mate_in`]).
    complete: bool,
    /// The lowest index in [`MateTable::path`] of a repetition that the answer "no mate"
    /// relies on ([`NO_CUT`] when none).
    cut: usize,
}

/// [`Found::cut`] of an answer that relies on no repetition.
const NO_CUT: usize = usize::MAX;

/// Whether the side to move mates by checks within `depth` of its moves (`checks` are its
/// checking moves), and, when it does not, whether that is *complete*: every check has a reply
/// after which there is no mate at any depth (so deeper searches need not be tried). The table
/// records complete answers as "no mate within `u8::MAX`".
///
/// Repetitions: a reply that brings back a position of the current line (with the attacker to
/// move, [`MateTable::path`]) counts as stopping the mate there. That is exact for the position
/// repeated: a shortest mate never passes through the same position twice (the number of moves
/// it still needs drops at every move), so the attacker loses nothing by not going round the
/// cycle. For the positions in between, it is not (their shortest mate might run through the
/// earlier position): an answer "no mate" that relies on a repetition of an earlier position
/// ([`Found::cut`] below the position's own index in the line) is not stored in the table and
/// is never complete. A mate found is always one, and the search's root answer is always exact.
/// Lines of checks that go round in circles (a rook checking from one side and the other as
/// the general steps to and fro) are so cut short instead of being followed to the cap.
fn mate_in(
    pos: &mut Position,
    checks: &[Move],
    depth: u8,
    look_up: bool,
    budget: &mut Budget,
    table: &mut MateTable,
) -> Result<Found, Exhausted> {
    let key = pos.key();
    // (A caller that has just looked the position up, and found it undecided at this depth,
    // passes `look_up == false`.)
    if look_up {
        let (mate, none) = table.get(key);
        if mate <= depth {
            return Ok(MATE);
        }
        if none >= depth {
            return Ok(Found {
                mate: false,
                complete: none == u8::MAX,
                cut: NO_CUT,
            });
        }
    }
    // Mate in one first: it needs no replies searched (only whether there is one, known from
    // the table when the replies were listed before).
    for &m in checks {
        budget.tick()?;
        let reply = table.has_reply_after(pos, m);
        debug_assert_eq!(reply, pos.after(m).has_legal_move());
        if !reply {
            table.put(key, Some(1), None);
            return Ok(MATE);
        }
    }
    // At depth one every check has a reply, and deeper searches might still mate.
    let mut found = Found {
        mate: false,
        complete: false,
        cut: NO_CUT,
    };
    if depth > 1 {
        found.complete = true;
        let index = table.path.len();
        table.path.push(key);
        for &m in checks {
            // The check and each reply are played on `pos` and taken back; `pos` is restored
            // before the next check (an early error leaves it to be thrown away).
            let check = pos.play_unchecked(m);
            let all = every_reply_mated(pos, depth, budget, table, &mut found)?;
            pos.undo(m, check);
            if all {
                table.path.pop();
                table.put(key, Some(depth), None);
                return Ok(MATE);
            }
        }
        table.path.pop();
        if found.cut < index {
            // "No mate" only as long as the earlier position is not repeated.
            found.complete = false;
            return Ok(found);
        }
    }
    table.put(
        key,
        None,
        Some(if found.complete { u8::MAX } else { depth }),
    );
    Ok(found)
}

const MATE: Found = Found {
    mate: true,
    complete: true,
    cut: NO_CUT,
};

/// After a check in [`mate_in`] (the defender to move in `pos`): whether every reply leaves a
/// mate by checks within `depth - 1` further attacker moves. When one does not, `found.complete`
/// is cleared unless that reply is known to stop every mate at any depth, and `found.cut`
/// lowered to the repetition that reply relies on, if any.
///
/// A mating attack is nearly always refuted by the first reply tried, so the likely refutations
/// ([`first_replies`]: captures of a checker, then general moves) are tried before the full list
/// of replies is generated; the full list (captures first, then general moves) follows only when
/// they all lose, and replies already tried are then answered by the table.
fn every_reply_mated(
    pos: &mut Position,
    depth: u8,
    budget: &mut Budget,
    table: &mut MateTable,
    found: &mut Found,
) -> Result<bool, Exhausted> {
    for r in table.first_replies(pos) {
        if let Some((complete, cut)) = refutes(pos, r, depth, budget, table)? {
            found.complete &= complete;
            found.cut = found.cut.min(cut);
            return Ok(false);
        }
    }
    let mut replies = table.legal_replies(pos);
    // Likely escapes first: captures (of the checker), then general moves.
    let q = &*pos;
    let ksq = q.king(q.turn());
    replies.sort_by_key(|r| (q.piece_at(r.to).is_none(), r.from != ksq));
    for r in replies {
        if let Some((complete, cut)) = refutes(pos, r, depth, budget, table)? {
            found.complete &= complete;
            found.cut = found.cut.min(cut);
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether the reply `r` (of the defender to move in `pos`, after a check) stops every mate by
/// checks within `depth - 1` attacker moves: `Some((complete, cut))` when it does (`complete`:
/// at any depth; `cut`: see [`Found::cut`]), `None` when the attacker still mates.
#[inline]
fn refutes(
    pos: &mut Position,
    r: Move,
    depth: u8,
    budget: &mut Budget,
    table: &mut MateTable,
) -> Result<Option<(bool, usize)>, Exhausted> {
    budget.tick()?;
    let key = pos.key_after(r);
    let (smate, snone) = table.get(key);
    if smate < depth {
        return Ok(None);
    }
    if snone >= depth - 1 {
        return Ok(Some((snone == u8::MAX, NO_CUT)));
    }
    if let Some(i) = table.path.iter().position(|&k| k == key) {
        // Back to a position of the line: see [`mate_in`].
        return Ok(Some((false, i)));
    }
    let reply = pos.play_unchecked(r);
    let next = table.checking_moves(pos);
    if next.is_empty() {
        table.put(pos.key(), None, Some(u8::MAX));
        pos.undo(r, reply);
        return Ok(Some((true, NO_CUT)));
    }
    // Looked up just above (`checking_moves` changes no mate fact; when it makes room, nothing
    // is known at all).
    let found = mate_in(pos, &next, depth - 1, false, budget, table)?;
    pos.undo(r, reply);
    Ok((!found.mate).then_some((found.complete, found.cut)))
}

/// Some legal replies to a check (the side to move of `q` is in check): the captures of a
/// checking piece by pieces other than the general, then the general's moves, captures first.
/// The moves most likely to refute a mating attack, found without generating every reply.
pub fn first_replies(q: &Position) -> MoveList {
    let mut out = MoveList::new();
    first_replies_into(q, &mut out);
    out
}

/// [`first_replies`] into `out` (empty), which the caller owns: no list is copied on return.
fn first_replies_into(q: &Position, out: &mut MoveList) {
    let us = q.turn();
    let k = q.king(us);
    let own = q.by_color(us);
    let them = q.by_color(!us);
    let occ = q.occupied();
    for c in q.attackers(k, !us) {
        // The pieces that reach `c` by their own movement (each table is its own reverse).
        let mut from =
            attacks::slider_attackers(c, occ, q.pieces(us, Role::Rook), q.pieces(us, Role::Cannon));
        from |= attacks::horse_attacker_squares(c, occ) & q.by_role(Role::Horse);
        from |= attacks::pawn_attackers(us, c) & q.by_role(Role::Pawn);
        from |= attacks::advisor_attacks(c) & q.by_role(Role::Advisor);
        from |= attacks::elephant_attacks(c, occ) & q.by_role(Role::Elephant);
        for f in from & own {
            let m = Move::new(f, c);
            if !q.leaves_king_attacked(m, k) {
                out.push(m);
            }
        }
    }
    let steps = attacks::king_attacks(k) - own;
    for to in (steps & them).into_iter().chain(steps - them) {
        let m = Move::new(k, to);
        if !q.leaves_king_attacked(m, k) {
            out.push(m);
        }
    }
    debug_assert!(out.iter().all(|m| q.legal_moves().contains(m)));
}

/// Whether the side to move can force mate within `cap` of its own moves, every one a check,
/// without capturing the enemy piece on `spare` while it stays there (once it moves away, the
/// restriction lapses). Serves the exchange reading of the mate threat: a mate that needs the
/// capture of an exchange partner where it stands is the exchange's consequence. Iterative
/// deepening, with its own table (the answers depend on the spared square).
pub fn mate_by_checks_sparing(
    pos: &Position,
    cap: u32,
    spare: Square,
    budget: &mut Budget,
) -> Result<bool, Exhausted> {
    let mut table = SpareTable::default();
    for depth in 1..=cap.min(60) as u8 {
        if mate_sparing(pos, depth, Some(spare), budget, &mut table)? {
            return Ok(true);
        }
    }
    Ok(false)
}

type SpareTable = HashMap<(u64, u8), (u8, u8), BuildHasherDefault<ZobristHasher>>;

fn mate_sparing(
    pos: &Position,
    depth: u8,
    spare: Option<Square>,
    budget: &mut Budget,
    table: &mut SpareTable,
) -> Result<bool, Exhausted> {
    let key = (pos.key(), spare.map_or(u8::MAX, |s| s as u8));
    let (mate, none) = table.get(&key).copied().unwrap_or((u8::MAX, 0));
    if mate <= depth {
        return Ok(true);
    }
    if none >= depth {
        return Ok(false);
    }
    let mut found = false;
    for c in checking_moves(pos) {
        if Some(c.to) == spare {
            continue;
        }
        budget.tick()?;
        let a = pos.after(c);
        if !has_legal_reply(&a) {
            found = true;
            break;
        }
        if depth == 1 {
            continue;
        }
        let mut all = true;
        for r in legal_replies(&a) {
            budget.tick()?;
            let next = if Some(r.from) == spare { None } else { spare };
            if !mate_sparing(&a.after(r), depth - 1, next, budget, table)? {
                all = false;
                break;
            }
        }
        if all {
            found = true;
            break;
        }
    }
    let e = table.entry(key).or_insert((u8::MAX, 0));
    if found {
        e.0 = e.0.min(depth);
    } else {
        e.1 = e.1.max(depth);
    }
    Ok(found)
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

    /// Calls `f` on every position of the real games, and on the same placement with the other
    /// side to move.
    fn for_each_real_game_position(mut f: impl FnMut(&Position)) {
        for l in include_str!("../../tests/data/rules/games.jsonl").lines() {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let mut p = pos(v["fen"].as_str().unwrap());
            for m in v["moves"].as_str().unwrap().split_whitespace() {
                f(&p);
                f(&p.null_move());
                p.play_unchecked(Move::parse_iccs(m).unwrap());
            }
        }
    }

    /// Every position of the real games (both sides to move): the generated checking moves are
    /// exactly those found by playing every move.
    #[test]
    fn checking_moves_match_playing_on_real_games() {
        let mut n = 0;
        for_each_real_game_position(|q| {
            assert_eq!(checking_moves(q), checking_moves_by_play(q), "{}", q.fen());
            n += 1;
        });
        assert!(n > 20_000);
    }

    /// Every check of every position of the real games (both sides to move): the replies to it
    /// are exactly the legal moves, in the same order.
    #[test]
    fn replies_to_checks_match_legal_moves_on_real_games() {
        let mut n = 0;
        for_each_real_game_position(|q| {
            for c in checking_moves(q) {
                let r = q.after(c);
                assert_eq!(legal_replies(&r), r.legal_moves(), "{}", r.fen());
                assert_eq!(has_legal_reply(&r), r.has_legal_move(), "{}", r.fen());
                // The first replies: exactly the legal captures of a checker and the general's
                // moves.
                let k = r.king(r.turn());
                let checkers = r.checkers();
                let mut expected: Vec<Move> = r
                    .legal_moves()
                    .into_iter()
                    .filter(|m| m.from == k || checkers.contains(m.to))
                    .collect();
                let mut first = first_replies(&r).to_vec();
                expected.sort_by_key(|m| (m.from as u8, m.to as u8));
                first.sort_by_key(|m| (m.from as u8, m.to as u8));
                assert_eq!(first, expected, "{}", r.fen());
                n += 1;
            }
        });
        assert!(n > 10_000, "{n}");
    }

    /// The plain definition of a mate by checks within `depth` moves, memoised on (position,
    /// depth) only: no move ordering, no deepening, no repetition cut.
    fn mate_plain(
        pos: &Position,
        depth: u8,
        memo: &mut HashMap<(u64, u8), bool, BuildHasherDefault<ZobristHasher>>,
    ) -> bool {
        if let Some(&v) = memo.get(&(pos.key(), depth)) {
            return v;
        }
        let mate = checking_moves_by_play(pos).into_iter().any(|c| {
            let a = pos.after(c);
            let replies = a.legal_moves();
            replies.is_empty()
                || (depth > 1
                    && replies
                        .into_iter()
                        .all(|r| mate_plain(&a.after(r), depth - 1, memo)))
        });
        memo.insert((pos.key(), depth), mate);
        mate
    }

    /// Every position of the real games (both sides to move), and every position one check and
    /// reply further: the search (with its table kept across the positions, as when a line is
    /// classified) answers as the plain definition.
    #[test]
    fn mate_search_matches_the_plain_definition_on_real_games() {
        let (mut n, mut mates) = (0, 0);
        let mut table = MateTable::default();
        let mut memo = HashMap::default();
        for_each_real_game_position(|q| {
            if q.is_check() {
                return;
            }
            let mut budget = Budget::new(u64::MAX);
            let fast = mate_by_checks_with(q, 9, &mut budget, &mut table).unwrap();
            assert_eq!(fast, mate_plain(q, 9, &mut memo), "{}", q.fen());
            n += 1;
            mates += usize::from(fast);
            // The positions one check and reply further, whose answers the search above may
            // have stored in the table.
            for c in checking_moves(q) {
                let a = q.after(c);
                for r in a.legal_moves() {
                    let y = a.after(r);
                    let fast = mate_by_checks_with(&y, 8, &mut budget, &mut table).unwrap();
                    assert_eq!(fast, mate_plain(&y, 8, &mut memo), "{}", y.fen());
                }
            }
        });
        assert!(n > 20_000 && mates > 100, "{n} {mates}");
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
