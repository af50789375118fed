//! Score-sheet repair: when the main line of a record fails, which slip of the scorekeeper most
//! likely explains it, and the game that was played.
//!
//! A slip often surfaces moves after it was made: a rook written one step short still parses,
//! and only a later move of that rook cannot be played. [`search`] looks for small sets of edits
//! of the main line *as written* after which the rest of the record replays:
//!
//! * **replace** one move: the failing one (by any legal move), or an earlier one by a *near
//!   miss* of its text ([`slip_cost`]: one numeral off, 进/退/平, another piece, 前/后, the other
//!   side's file numbering);
//! * **insert** a move that was left out;
//! * **delete** a move written twice;
//! * **swap** two moves of one side;
//! * and **pairs** of such edits when one is not enough (the second searched from where the first
//!   leaves the record failing).
//!
//! Candidates are ranked by: whether the rest then replays to its end, how far it gets, the
//! fewest edits, the likelihood of the slip ([`slip_cost`] and a prior per kind of edit), and the
//! nearness to the failing ply. Edits that give the same game are one repair. The search is
//! bounded by a node budget ([`Budget`]: one node is one move read or played), deterministic
//! whatever the machine; [`Repairs::cut_short`] says when the budget ended it.
//!
//! The search only runs on a record that fails: valid games never pay for it.

use super::game::GameEntry;
use crate::notation::{self, Notation, chinese};
use crate::position::Position;
use crate::types::{Color, Move, Role};
use std::collections::HashSet;

/// What an edit does to the main line as written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EditOp {
    /// The written move `ply` becomes `iccs`.
    Replace,
    /// `iccs` was left out: it goes before the written move `ply` (and becomes ply `ply`).
    Insert,
    /// The written move `ply` goes (written twice).
    Delete,
    /// The written moves `ply` and `ply2` (one side's) trade places.
    Swap,
}

/// One edit of the main line. Plies are 1-based plies of the main line as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Edit {
    pub op: EditOp,
    pub ply: usize,
    /// The move of a replace or insert, in ICCS.
    pub iccs: Option<String>,
    /// The same move in the record's notation (for delete and swap: the text of the written
    /// move `ply`).
    pub text: Option<String>,
    /// The other ply of a swap.
    pub ply2: Option<usize>,
}

/// One way to repair the record.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Repair {
    pub edits: Vec<Edit>,
    /// Whether the whole main line replays once the edits are made.
    pub replays_to_end: bool,
    /// Plies of the repaired main line that replay.
    pub plies_replayed: usize,
    pub explanation_en: String,
    pub explanation_zh: String,
    /// The moves of the repaired main line that replay (not serialized: a repair read back from
    /// JSON has none).
    #[serde(skip)]
    pub moves: Vec<Move>,
}

/// The repairs of one failing record, best first.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Repairs {
    pub repairs: Vec<Repair>,
    /// The node budget ended the search before every candidate was tried.
    pub cut_short: bool,
    /// Nodes spent (moves read or played).
    pub nodes: u64,
}

/// The bound of one search: moves read or played.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    pub nodes: u64,
}

impl Default for Budget {
    /// About a second on a slow machine for the worst record; tens of milliseconds typically.
    fn default() -> Budget {
        Budget { nodes: 600_000 }
    }
}

/// Most repairs listed.
pub const MAX_REPAIRS: usize = 5;

/// How far back from the failing ply each kind of edit is tried (plies).
const BACK_REPLACE: usize = 60;
const BACK_SWAP: usize = 40;
const BACK_DELETE: usize = 40;
const BACK_INSERT: usize = 16;
/// The costliest near miss of a move text tried before the failing ply.
const NEAR: f32 = 2.3;
/// Priors of the kinds of edit (a replacement costs its [`slip_cost`]).
const COST_INSERT: f32 = 1.5;
const COST_DELETE: f32 = 1.5;
const COST_DELETE_REPEAT: f32 = 0.8;
const COST_SWAP: f32 = 1.2;
const COST_SWAP_FAR: f32 = 1.9;
/// A swap of one side's consecutive moves that holds the failing ply (its first move, the other
/// side's move between, or its second move): the order of two moves written wrong shows itself
/// right there, so such a swap is likelier than any one near miss of a single text (cost 1.0 and
/// up), of which each text has many.
const COST_SWAP_AT_FAIL: f32 = 0.9;
/// Each ply an inserted move stands before the failing one: a move left out makes the sheet fail
/// at once in most cases (the side to move changes), so the nearer place is the likelier one.
const COST_INSERT_BACK: f32 = 0.1;
/// Each written text the repaired line reads only loosely (see [`Cand::score`]).
const COST_LOOSE: f32 = 0.5;
/// Each move around the edits that passes over a free capture (see [`Cand::score`]).
const COST_MISSED: f32 = 0.5;
/// Most candidates of the best rank whose play is looked at (see [`weigh_play`]).
const PLAY_WEIGHED: usize = 48;
/// Single-edit candidates a pair is searched from.
const BEAM: usize = 6;

/// One move of a sheet being edited: a written one (by its 0-based index), or one a repair
/// brought in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Item {
    Written(usize),
    New(Move),
}

/// An edit on a sequence of items (indices into that sequence).
#[derive(Copy, Clone, Debug, PartialEq)]
enum ItemEdit {
    Replace(usize, Move),
    Insert(usize, Move),
    Delete(usize),
    Swap(usize, usize),
}

/// A tried candidate.
#[derive(Clone, Debug)]
struct Cand {
    /// The edited sequence.
    items: Vec<Item>,
    /// The edits, on the written sheet (0-based written indices; insert: before that index).
    edits: Vec<(EditOp, usize, Option<Move>, Option<usize>)>,
    /// Moves of the prefix that replays, and whether that is all of it.
    moves: Vec<Move>,
    end: bool,
    /// Written moves replayed.
    written: usize,
    cost: f32,
    /// Written moves of the replayed prefix whose text reads only loosely there (see
    /// [`Search::play`]).
    loose: usize,
    /// Moves of the repaired line, around the edits, that pass over a free capture (see
    /// [`super::repair_fit`]; counted only when ranking the best ones).
    missed: usize,
    /// Distance of the nearest edit to the failing ply.
    dist: usize,
}

impl Cand {
    fn key(&self) -> (bool, usize, usize) {
        (self.end, self.written, self.edits.len())
    }

    /// How unlikely the slips are: the edits' costs, and the written texts the repaired line
    /// reads only loosely (a scorekeeper writes the qualifier the position needs, so a line in
    /// which a written 车七平六 needs to have been 前车平六 asks for one more slip).
    fn score(&self) -> f32 {
        self.cost + COST_LOOSE * self.loose as f32 + COST_MISSED * self.missed as f32
    }
}

/// A line replayed from the start (see [`Search::replay_all`]).
struct Replayed {
    positions: Vec<Position>,
    moves: Vec<Move>,
    loose: Vec<usize>,
}

/// Ranking: replays to the end, then farthest (written moves replayed: a repair that replays
/// to the end has replayed them all, whether it deleted one or not), then fewest edits, then
/// likeliest, then nearest.
fn better(a: &Cand, b: &Cand) -> std::cmp::Ordering {
    let reach = |c: &Cand| if c.end { usize::MAX } else { c.written };
    b.end
        .cmp(&a.end)
        .then(reach(b).cmp(&reach(a)))
        .then(a.edits.len().cmp(&b.edits.len()))
        .then(a.score().total_cmp(&b.score()))
        .then(a.dist.cmp(&b.dist))
}

struct Search<'a> {
    start: Position,
    texts: &'a [&'a str],
    notation: Notation,
    nodes: u64,
    budget: u64,
    cut: bool,
}

impl Search<'_> {
    fn spend(&mut self) -> bool {
        if self.nodes >= self.budget {
            self.cut = true;
            return false;
        }
        self.nodes += 1;
        true
    }

    /// The move of `it` in `pos`, if it can be played, and whether its written text reads only
    /// loosely there (a qualifier the notation needs is missing: ambiguous on paper, resolved
    /// because only one piece can make the move).
    fn play(&mut self, pos: &Position, it: Item) -> Option<(Move, bool)> {
        match it {
            Item::Written(j) => notation::parse_move(pos, self.texts[j], self.notation)
                .ok()
                .map(|p| (p.mv, p.resolved_by_legality)),
            Item::New(m) => notation::is_legal_move(pos, m).then_some((m, false)),
        }
    }

    /// Replays `items` from the start: the positions before each move that plays (and the one
    /// after the last), the moves, and the loose texts among the first `i` moves (for each `i`).
    /// Stops at the first that fails (or when the budget ends: `None`).
    fn replay_all(&mut self, items: &[Item]) -> Option<Replayed> {
        let mut pos = self.start;
        let mut r = Replayed {
            positions: vec![pos],
            moves: Vec::new(),
            loose: vec![0],
        };
        for &it in items {
            if !self.spend() {
                return None;
            }
            match self.play(&pos, it) {
                Some((m, loose)) => {
                    pos.play_unchecked(m);
                    r.positions.push(pos);
                    r.moves.push(m);
                    r.loose
                        .push(r.loose.last().copied().unwrap_or(0) + usize::from(loose));
                }
                None => break,
            }
        }
        Some(r)
    }

    /// Tries `edit` on `items` (which replay up to `moves`, with `positions`): a candidate, or
    /// `None` when the budget ended.
    #[allow(clippy::too_many_arguments)]
    fn try_edit(
        &mut self,
        items: &[Item],
        r: &Replayed,
        edit: ItemEdit,
        prev: &[(EditOp, usize, Option<Move>, Option<usize>)],
        cost: f32,
        fail: usize,
    ) -> Option<Cand> {
        let (at, new_items, written_edit) = match edit {
            ItemEdit::Replace(k, m) => {
                let Item::Written(j) = items[k] else {
                    return Some(dead());
                };
                let mut v = items.to_vec();
                v[k] = Item::New(m);
                (k, v, (EditOp::Replace, j, Some(m), None))
            }
            ItemEdit::Insert(k, m) => {
                let j = written_at(items, k);
                let mut v = items.to_vec();
                v.insert(k, Item::New(m));
                (k, v, (EditOp::Insert, j, Some(m), None))
            }
            ItemEdit::Delete(k) => {
                let Item::Written(j) = items[k] else {
                    return Some(dead());
                };
                let mut v = items.to_vec();
                v.remove(k);
                (k, v, (EditOp::Delete, j, None, None))
            }
            ItemEdit::Swap(k, k2) => {
                let (Item::Written(j), Item::Written(j2)) = (items[k], items[k2]) else {
                    return Some(dead());
                };
                let mut v = items.to_vec();
                v.swap(k, k2);
                (k, v, (EditOp::Swap, j, None, Some(j2)))
            }
        };
        let mut pos = r.positions[at];
        let mut out: Vec<Move> = r.moves[..at].to_vec();
        let mut loose = r.loose[at];
        let mut end = true;
        for &it in &new_items[at..] {
            if !self.spend() {
                return None;
            }
            match self.play(&pos, it) {
                Some((m, l)) => {
                    pos.play_unchecked(m);
                    out.push(m);
                    loose += usize::from(l);
                }
                None => {
                    end = false;
                    break;
                }
            }
        }
        let written = new_items[..out.len()]
            .iter()
            .filter(|i| matches!(i, Item::Written(_)))
            .count();
        let mut edits = prev.to_vec();
        edits.push(written_edit);
        Some(Cand {
            items: new_items,
            edits,
            moves: out,
            end,
            written,
            cost,
            loose,
            missed: 0,
            dist: fail.abs_diff(at),
        })
    }

    /// The single edits of `items` around its failing move, tried. `lo`: no edit before this
    /// item. Stops early (with what it has) when the budget ends.
    fn singles(
        &mut self,
        items: &[Item],
        prev: &[(EditOp, usize, Option<Move>, Option<usize>)],
        prev_cost: f32,
        lo: usize,
    ) -> Vec<Cand> {
        let mut out = Vec::new();
        let Some(r) = self.replay_all(items) else {
            return out;
        };
        let (positions, moves) = (&r.positions, &r.moves);
        let f = moves.len();
        if f >= items.len() {
            return out;
        }
        let push = |c: Option<Cand>, out: &mut Vec<Cand>| match c {
            Some(c) => {
                if c.written > 0 || c.end {
                    out.push(c);
                }
                true
            }
            None => false,
        };
        let all: &[&str] = self.texts;
        let texts: Vec<Option<&str>> = items
            .iter()
            .map(|&i| match i {
                Item::Written(j) => Some(all[j]),
                Item::New(_) => None,
            })
            .collect();
        let notation = self.notation;
        // Nearest first, so that a budget cut drops the farthest.
        for back in 0..=BACK_REPLACE
            .max(BACK_SWAP)
            .max(BACK_DELETE)
            .max(BACK_INSERT)
        {
            let Some(k) = f.checked_sub(back) else {
                break;
            };
            if k < lo {
                break;
            }
            let pos = positions[k];
            let legal = pos.legal_moves();
            // Replace.
            if back <= BACK_REPLACE
                && let Some(t) = texts[k]
            {
                for &m in legal.iter() {
                    if k < f && m == moves[k] {
                        continue;
                    }
                    let c = slip_cost(t, &pos, m, notation);
                    if k < f && c > NEAR {
                        continue;
                    }
                    let r =
                        self.try_edit(items, &r, ItemEdit::Replace(k, m), prev, prev_cost + c, f);
                    if !push(r, &mut out) {
                        return out;
                    }
                }
            }
            // Delete (a move written twice: likelier when it repeats a neighbour's text).
            if back <= BACK_DELETE && texts[k].is_some() {
                let t = texts[k];
                let repeat = (k > 0 && texts[k - 1] == t)
                    || (k > 1 && texts[k - 2] == t)
                    || texts.get(k + 1).copied().flatten() == t
                    || texts.get(k + 2).copied().flatten() == t;
                let c = if repeat {
                    COST_DELETE_REPEAT
                } else {
                    COST_DELETE
                };
                let r = self.try_edit(items, &r, ItemEdit::Delete(k), prev, prev_cost + c, f);
                if !push(r, &mut out) {
                    return out;
                }
            }
            // Swap with the same side's next move (or the one after), the later one up to two
            // moves past the failing one.
            if back <= BACK_SWAP {
                for (gap, c) in [(2, COST_SWAP), (4, COST_SWAP_FAR)] {
                    let c = if gap == 2 && k <= f && f <= k + 2 {
                        COST_SWAP_AT_FAIL
                    } else {
                        c
                    };
                    let k2 = k + gap;
                    if k2 >= items.len() || k2 > f + 2 || texts[k].is_none() || texts[k2].is_none()
                    {
                        continue;
                    }
                    if texts[k] == texts[k2] {
                        continue;
                    }
                    let r = self.try_edit(items, &r, ItemEdit::Swap(k, k2), prev, prev_cost + c, f);

                    if !push(r, &mut out) {
                        return out;
                    }
                }
            }
            // Insert a left-out move.
            if back <= BACK_INSERT {
                for &m in legal.iter() {
                    let r = self.try_edit(
                        items,
                        &r,
                        ItemEdit::Insert(k, m),
                        prev,
                        prev_cost + COST_INSERT + COST_INSERT_BACK * back as f32,
                        f,
                    );
                    let r = r.map(|mut c| {
                        c.cost -= used_later(&c.moves, k, m)
                            + insert_fit(&pos, m, c.moves.get(k + 1).copied());
                        c
                    });
                    if !push(r, &mut out) {
                        return out;
                    }
                }
            }
        }
        out
    }
}

/// The kinds of error of a move that is read but cannot be played, which a repair may explain.
pub const MOVE_ERROR_KINDS: [&str; 7] = [
    "syntax",
    "no_piece",
    "wrong_side",
    "ambiguous",
    "illegal_movement",
    "leaves_king_in_check",
    "kings_facing",
];

/// The main-line move texts of a game as written, and their byte spans in its text.
pub type WrittenSheet<'t> = (Vec<&'t str>, Vec<(usize, usize)>);

/// The main-line moves of a failing PGN game as written (`text`: the game's text), when the
/// entry's error is a main-line move that the search can work from: the texts, and the byte
/// spans of the moves in `text`.
pub fn failing_sheet<'t>(entry: &GameEntry, text: &'t str) -> Option<WrittenSheet<'t>> {
    let e = entry.error.as_ref()?;
    let notation = entry.notation?;
    let done = entry.game.main.nodes.len();
    if !MOVE_ERROR_KINDS.contains(&e.kind.as_str()) || e.ply != Some(done + 1) {
        return None;
    }
    let spans = super::written::main_line_spans(text, notation);
    let texts: Vec<&str> = spans.iter().map(|&(s, e)| &text[s..e]).collect();
    let agrees = texts.len() > done
        && entry
            .game
            .main
            .nodes
            .iter()
            .zip(&texts)
            .all(|(n, t)| n.text == *t)
        && e.move_text.as_deref() == Some(texts[done]);
    agrees.then_some((texts, spans))
}

/// Adds the repairs of its main line to a PGN game whose error is a move that cannot be played
/// (`text`: the game's text). Nothing for a valid game or another error.
pub fn attach(entry: &mut GameEntry, text: &str, budget: Budget) {
    let Some(notation) = entry.notation else {
        return;
    };
    let Some((texts, _)) = failing_sheet(entry, text) else {
        return;
    };
    let r = search(&entry.game.start, &texts, notation, budget);
    if let Some(e) = entry.error.as_mut() {
        e.repairs = r.repairs;
        e.repairs_cut_short = r.cut_short;
    }
}

/// A candidate that is no repair (an edit of a move a repair brought in).
fn dead() -> Cand {
    Cand {
        items: Vec::new(),
        edits: Vec::new(),
        moves: Vec::new(),
        end: false,
        written: 0,
        cost: f32::INFINITY,
        loose: 0,
        missed: 0,
        dist: usize::MAX,
    }
}

/// The written index an insertion before item `k` goes in front of.
fn written_at(items: &[Item], k: usize) -> usize {
    items[k..]
        .iter()
        .find_map(|i| match i {
            Item::Written(j) => Some(*j),
            Item::New(_) => None,
        })
        .unwrap_or_else(|| {
            items[..k]
                .iter()
                .rev()
                .find_map(|i| match i {
                    Item::Written(j) => Some(j + 1),
                    Item::New(_) => None,
                })
                .unwrap_or(0)
        })
}

/// A small bonus for an inserted move whose piece the record moves again soon after: a move
/// the later ones depend on is likelier to be the one left out than one nothing depends on.
fn used_later(moves: &[Move], k: usize, m: Move) -> f32 {
    for (i, n) in moves.iter().enumerate().skip(k + 1).take(20) {
        if n.from == m.to {
            return 0.15 * (1.0 - i.saturating_sub(k + 1) as f32 / 20.0);
        }
        if n.to == m.to {
            return 0.0;
        }
    }
    0.0
}

/// How well an inserted move `m` (played in `pos`) fits the game around it, as a small bonus
/// (0 to 0.3) between inserted moves that all let the record replay: in a real game the reply
/// (`reply`, the written move after it) often answers it (takes the moved piece, or moves a
/// piece it newly attacks), and a move seldom leaves its piece hanging.
fn insert_fit(pos: &Position, m: Move, reply: Option<Move>) -> f32 {
    let us = pos.turn();
    let after = pos.after(m);
    let mut bonus = 0.0;
    if let Some(r) = reply
        && (r.to == m.to || (after.is_attacked(r.from, us) && !pos.is_attacked(r.from, us)))
    {
        bonus += 0.2;
    }
    let hangs = after.is_attacked(m.to, !us) && !after.is_attacked(m.to, us);
    if !hangs {
        bonus += 0.1;
    }
    bonus
}

/// The repairs of a main line that fails: `texts` are its moves as written (in `notation`),
/// played from `start`.
pub fn search(start: &Position, texts: &[&str], notation: Notation, budget: Budget) -> Repairs {
    let mut s = Search {
        start: *start,
        texts,
        notation,
        nodes: 0,
        budget: budget.nodes,
        cut: false,
    };
    let items: Vec<Item> = (0..texts.len()).map(Item::Written).collect();
    let Some(Replayed { moves, .. }) = s.replay_all(&items) else {
        return Repairs {
            cut_short: true,
            nodes: s.nodes,
            ..Repairs::default()
        };
    };
    let fail = moves.len();
    if fail >= texts.len() {
        return Repairs {
            nodes: s.nodes,
            ..Repairs::default()
        };
    }
    let mut cands = s.singles(&items, &[], 0.0, 0);
    cands.retain(|c| c.written > fail || c.end);
    cands.sort_by(better);
    if !cands.first().is_some_and(|c| c.end) {
        // Pairs: a second edit where the best single ones leave the record failing.
        let mut seen = HashSet::new();
        let firsts: Vec<Cand> = cands
            .iter()
            .filter(|c| seen.insert(c.moves.clone()))
            .take(BEAM)
            .cloned()
            .collect();
        for c in firsts {
            if s.cut {
                break;
            }
            let mut more = s.singles(&c.items, &c.edits, c.cost, 0);
            more.retain(|m| m.written > c.written);
            for m in &mut more {
                m.dist = m.dist.min(c.dist);
            }
            cands.extend(more);
        }
        cands.sort_by(better);
    }
    // One repair per game.
    let mut seen = HashSet::new();
    cands.retain(|c| seen.insert((c.moves.clone(), c.end)));
    weigh_play(&mut s, start, &mut cands);
    let Some(best) = cands.first() else {
        return Repairs {
            cut_short: s.cut,
            nodes: s.nodes,
            ..Repairs::default()
        };
    };
    let (best_key, best_cost) = (best.key(), best.score());
    let shown: Vec<&Cand> = cands
        .iter()
        .filter(|c| c.end == best_key.0 && (c.end || c.written == best_key.1))
        .filter(|c| c.edits.len() == best_key.2 || c.end)
        .filter(|c| c.score() <= best_cost + 1.5)
        .take(MAX_REPAIRS)
        .collect();
    let repairs = shown
        .into_iter()
        .map(|c| describe(start, texts, notation, c))
        .collect();
    Repairs {
        repairs,
        cut_short: s.cut,
        nodes: s.nodes,
    }
}

/// Among the candidates of the best rank (replaying as far, with as few edits), the likelier
/// play wins: each of the first [`PLAY_WEIGHED`] is charged for the moves that pass over a free
/// capture in the stretch of plies where their lines differ from the sheet as written (the same
/// stretch for all, so that they compare), and they are sorted again.
fn weigh_play(s: &mut Search, start: &Position, cands: &mut [Cand]) {
    let Some(best) = cands.first() else {
        return;
    };
    let key = best.key();
    let n = cands
        .iter()
        .take(PLAY_WEIGHED)
        .take_while(|c| c.key() == key)
        .count();
    if n < 2 {
        return;
    }
    // The stretch: from the first item that is not the written move at its place to two plies
    // past the last one (counted from the end, where the written moves line up again).
    let (mut lo, mut hi) = (usize::MAX, 0);
    for c in &cands[..n] {
        let head = c
            .items
            .iter()
            .enumerate()
            .take_while(|&(i, it)| *it == Item::Written(i))
            .count();
        let tail = c
            .items
            .iter()
            .rev()
            .zip((0..s.texts.len()).rev())
            .take_while(|&(it, j)| *it == Item::Written(j))
            .count();
        lo = lo.min(head);
        hi = hi.max(c.items.len().saturating_sub(tail));
    }
    let hi = hi + 2;
    'weigh: for c in &mut cands[..n] {
        let mut positions = Vec::with_capacity(c.moves.len().min(hi));
        let mut pos = *start;
        for &m in c.moves.iter().take(hi) {
            positions.push(pos);
            pos.play_unchecked(m);
        }
        let range = lo..hi.min(positions.len());
        for _ in range.clone() {
            if !s.spend() {
                // The budget ended: those weighed so far keep their charge.
                break 'weigh;
            }
        }
        c.missed = super::repair_fit::missed_captures(&positions, &c.moves, range);
    }
    cands[..n].sort_by(better);
}

/// The edited sheet of a candidate, told on the written plies, with its explanation.
fn describe(start: &Position, texts: &[&str], notation: Notation, c: &Cand) -> Repair {
    // The position before each move of the repaired line, to print the new moves.
    let mut positions = vec![*start];
    for &m in &c.moves {
        let mut p = *positions.last().expect("one");
        p.play_unchecked(m);
        positions.push(p);
    }
    let mut edits: Vec<Edit> = Vec::new();
    let mut en: Vec<String> = Vec::new();
    let mut zh: Vec<String> = Vec::new();
    let mut sorted = c.edits.clone();
    sorted.sort_by_key(|e| e.1);
    for &(op, j, m, j2) in &sorted {
        // Where the edited move stands in the repaired line.
        let at = c
            .items
            .iter()
            .position(|i| match (op, i) {
                (EditOp::Replace | EditOp::Insert, Item::New(n)) => Some(*n) == m,
                (_, Item::Written(w)) => *w == j,
                _ => false,
            })
            .unwrap_or(j);
        let pos_at = positions
            .get(at)
            .copied()
            .unwrap_or_else(|| position_at_written(start, texts, notation, j));
        let printed = m.map(|m| notation::print_move(&pos_at, m, notation));
        let (side, number) = side_number(start, at + 1);
        let written_side = side_number(start, j + 1);
        match op {
            EditOp::Replace => {
                let p = printed.clone().unwrap_or_default();
                en.push(format!(
                    "{}'s move {} was written {} but must be {p}",
                    side_en(side),
                    number,
                    texts[j]
                ));
                zh.push(format!(
                    "{}第{}回合记为「{}」，应为「{p}」",
                    side_zh(side),
                    number,
                    texts[j]
                ));
            }
            EditOp::Insert => {
                let p = printed.clone().unwrap_or_default();
                en.push(format!(
                    "{}'s move {} was left out (with {p} there)",
                    side_en(side),
                    number
                ));
                zh.push(format!(
                    "漏记了{}第{}回合（补上「{p}」）",
                    side_zh(side),
                    number
                ));
            }
            EditOp::Delete => {
                en.push(format!(
                    "{} was written twice (ply {} as written, {}'s move {}): it goes",
                    texts[j],
                    j + 1,
                    side_en(written_side.0),
                    written_side.1
                ));
                zh.push(format!(
                    "「{}」重复记录（所记第{}步），应删去",
                    texts[j],
                    j + 1
                ));
            }
            EditOp::Swap => {
                let k = j2.unwrap_or(j);
                let (s2, n2) = side_number(start, k + 1);
                en.push(format!(
                    "{}'s moves {} and {} ({} and {}) were written in each other's place",
                    side_en(written_side.0),
                    written_side.1,
                    n2,
                    texts[j],
                    texts[k]
                ));
                let _ = s2;
                zh.push(format!(
                    "{}第{}回合「{}」与第{}回合「{}」记反了",
                    side_zh(written_side.0),
                    written_side.1,
                    texts[j],
                    n2,
                    texts[k]
                ));
            }
        }
        edits.push(Edit {
            op,
            ply: j + 1,
            iccs: m.map(|m| m.to_string()),
            text: printed.or_else(|| Some(texts[j].to_owned())),
            ply2: j2.map(|k| k + 1),
        });
    }
    let total = c.items.len();
    // One left-out move reads as the issue's example: "...was left out; with X there the rest
    // replays to the end".
    let lone_insert = edits.len() == 1 && edits[0].op == EditOp::Insert;
    if lone_insert {
        let p = edits[0].text.clone().unwrap_or_default();
        let (side, number) = side_number(start, edits[0].ply);
        en[0] = format!(
            "{}'s move {number} was left out; with {p} there",
            side_en(side)
        );
        zh[0] = format!("漏记了{}第{number}回合；在此补上「{p}」", side_zh(side));
    }
    let with = if lone_insert { "" } else { "; with that" };
    let tail_en = if c.end {
        format!("{with} the rest replays to the end")
    } else {
        format!(
            "{with} the record replays {} of its {} plies",
            c.moves.len(),
            total
        )
    };
    let tail_zh = if c.end {
        if lone_insert {
            "后其余着法均可走完"
        } else {
            "，改正后其余着法均可走完"
        }
        .to_owned()
    } else {
        format!("，改正后可走完{}步中的{}步", total, c.moves.len())
    };
    Repair {
        edits,
        replays_to_end: c.end,
        plies_replayed: c.moves.len(),
        explanation_en: format!("{}{tail_en}.", en.join("; and ")),
        explanation_zh: format!("{}{tail_zh}。", zh.join("；")),
        moves: c.moves.clone(),
    }
}

/// The position before written move `j` when it replays as written (else the start).
fn position_at_written(start: &Position, texts: &[&str], notation: Notation, j: usize) -> Position {
    let mut pos = *start;
    for t in &texts[..j] {
        match notation::parse_move(&pos, t, notation) {
            Ok(p) => {
                pos.play_unchecked(p.mv);
            }
            Err(_) => return *start,
        }
    }
    pos
}

/// The side and the move number (回合) of ply `ply` (1-based) of a line from `start`.
pub fn side_number(start: &Position, ply: usize) -> (Color, u32) {
    let black_first = u32::from(start.turn() == Color::Black);
    let side = if ply % 2 == 1 {
        start.turn()
    } else {
        !start.turn()
    };
    (
        side,
        start.fullmoves().max(1) + (ply.max(1) as u32 - 1 + black_first) / 2,
    )
}

fn side_en(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

fn side_zh(c: Color) -> &'static str {
    match c {
        Color::Red => "红方",
        Color::Black => "黑方",
    }
}

/// One symbol of a move text, whatever its script.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Sym {
    Piece(Role),
    /// A numeral 1-9 (or an ICCS rank 0-9, offset by one); `script`: 0 Chinese, 1 full-width,
    /// 2 ASCII.
    Num(u8, u8),
    /// An ICCS file letter (1-9 for a-i).
    File(u8),
    /// 进/+ 0, 退/- 1, 平/./= 2.
    Dir(u8),
    /// 前 0, 中 1, 后 2.
    Qual(u8),
    Other(char),
}

fn symbols(text: &str, notation: Notation) -> Vec<Sym> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| symbol(c, notation))
        .collect()
}

fn symbol(c: char, notation: Notation) -> Sym {
    let c0 = c;
    // Full-width ASCII to ASCII.
    let c = match c as u32 {
        0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        _ => c,
    };
    let script = if c0 != c { 1 } else { 2 };
    match notation {
        Notation::Iccs => match c.to_ascii_lowercase() {
            f @ 'a'..='i' => Sym::File(f as u8 - b'a' + 1),
            d @ '0'..='9' => Sym::Num(d as u8 - b'0' + 1, script),
            '-' => Sym::Other('-'),
            o => Sym::Other(o),
        },
        Notation::Wxf => match c.to_ascii_uppercase() {
            d @ '1'..='9' => Sym::Num(d as u8 - b'0', script),
            '+' => Sym::Dir(0),
            '-' => Sym::Dir(1),
            '.' | '=' => Sym::Dir(2),
            'K' => Sym::Piece(Role::King),
            'A' | 'G' | 'S' => Sym::Piece(Role::Advisor),
            'E' | 'B' | 'M' => Sym::Piece(Role::Elephant),
            'H' | 'N' => Sym::Piece(Role::Horse),
            'R' => Sym::Piece(Role::Rook),
            'C' => Sym::Piece(Role::Cannon),
            'P' => Sym::Piece(Role::Pawn),
            o => Sym::Other(o),
        },
        _ => {
            if let Some(r) = chinese::role_of(c) {
                return Sym::Piece(r);
            }
            if let Some(d) = c.to_digit(10).filter(|d| *d >= 1) {
                return Sym::Num(d as u8, script);
            }
            match c {
                '进' | '進' => Sym::Dir(0),
                '退' => Sym::Dir(1),
                '平' => Sym::Dir(2),
                '前' => Sym::Qual(0),
                '中' => Sym::Qual(1),
                '后' | '後' => Sym::Qual(2),
                _ => match "一二三四五六七八九".chars().position(|n| n == c) {
                    Some(i) => Sym::Num(i as u8 + 1, 0),
                    None => Sym::Other(c),
                },
            }
        }
    }
}

/// The cost of reading one symbol as another.
fn sub_cost(a: Sym, b: Sym) -> f32 {
    use Sym::*;
    match (a, b) {
        (Num(x, s), Num(y, t)) => {
            let script = if s == t { 0.0 } else { 0.05 };
            script
                + match x.abs_diff(y) {
                    0 => 0.0,
                    1 => 1.0,
                    _ if x + y == 10 => 1.1,
                    2 => 1.5,
                    _ => 1.9,
                }
        }
        (File(x), File(y)) => match x.abs_diff(y) {
            0 => 0.0,
            1 => 1.0,
            2 => 1.5,
            _ => 1.9,
        },
        (Dir(x), Dir(y)) => match (x, y) {
            _ if x == y => 0.0,
            (0, 1) | (1, 0) => 1.0,
            _ => 1.3,
        },
        (Piece(x), Piece(y)) => {
            if x == y {
                0.0
            } else {
                1.0
            }
        }
        (Qual(x), Qual(y)) => match x.abs_diff(y) {
            0 => 0.0,
            2 => 1.0,
            _ => 1.2,
        },
        (Other(x), Other(y)) if x == y => 0.0,
        _ => 2.5,
    }
}

const INDEL: f32 = 2.0;

/// Weighted edit distance of two symbol strings.
fn distance(a: &[Sym], b: &[Sym]) -> f32 {
    let mut prev: Vec<f32> = (0..=b.len()).map(|j| j as f32 * INDEL).collect();
    let mut cur = vec![0.0; b.len() + 1];
    for (i, &x) in a.iter().enumerate() {
        cur[0] = (i + 1) as f32 * INDEL;
        for (j, &y) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + sub_cost(x, y))
                .min(prev[j + 1] + INDEL)
                .min(cur[j] + INDEL);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// How unlikely it is that a scorekeeper wrote `written` for the legal move `m` of `pos`: 0 for
/// the move itself (in any script), about 1 for one slip (a numeral one off, 进 for 退, another
/// piece, 前 for 后, the other side's numbering of the files), more for more.
pub fn slip_cost(written: &str, pos: &Position, m: Move, notation: Notation) -> f32 {
    let printed = notation::print_move(pos, m, notation);
    let a = symbols(written, notation);
    let b = symbols(&printed, notation);
    let plain = distance(&a, &b);
    if plain <= 0.5 {
        return plain;
    }
    if notation == Notation::Iccs {
        // A move along a file written with its destination on the other side of its start
        // (h4h6 for h4h2: 进 for 退 in coordinates): one slip.
        if let [
            Sym::File(f1),
            Sym::Num(r1, _),
            Sym::File(f2),
            Sym::Num(r2, _),
        ] = a[..]
            && let [
                Sym::File(g1),
                Sym::Num(s1, _),
                Sym::File(g2),
                Sym::Num(s2, _),
            ] = b[..]
            && (f1, r1, f2) == (g1, s1, g2)
            && f1 == f2
            && i32::from(r2) - i32::from(r1) == i32::from(r1) - i32::from(s2)
        {
            return plain.min(1.0);
        }
        return plain;
    }
    if !matches!(notation, Notation::Chinese | Notation::Wxf) {
        return plain;
    }
    // The whole move in the other side's numbering (files counted from the other side).
    let mirrored: Vec<Sym> = a
        .iter()
        .map(|s| match *s {
            Sym::Num(n, sc) => Sym::Num(10 - n, sc),
            o => o,
        })
        .collect();
    plain.min(1.1 + distance(&mirrored, &b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(moves: &str) -> Vec<&str> {
        moves.split_whitespace().collect()
    }

    #[test]
    fn costs_of_slips() {
        let pos = Position::start();
        let m = notation::parse_move(&pos, "炮二平五", Notation::Chinese)
            .unwrap()
            .mv;
        assert_eq!(slip_cost("炮二平五", &pos, m, Notation::Chinese), 0.0);
        assert_eq!(slip_cost("炮二平六", &pos, m, Notation::Chinese), 1.0);
        assert_eq!(slip_cost("炮二进五", &pos, m, Notation::Chinese), 1.3);
        assert_eq!(slip_cost("车二平五", &pos, m, Notation::Chinese), 1.0);
        assert!(slip_cost("马八进七", &pos, m, Notation::Chinese) > 3.0);
        assert_eq!(slip_cost("C2.6", &pos, m, Notation::Wxf), 1.0);
        assert_eq!(slip_cost("h2e3", &pos, m, Notation::Iccs), 1.0);
    }

    #[test]
    fn a_left_out_move_is_put_back() {
        // Black's 车９平８ left out: the later 车８进８ pins it down.
        let full = sheet(
            "炮二平五 马８进７ 马二进三 车９平８ 车一平二 马２进３ 车二进六 炮８平９ 车二平三 炮９退１ \
             马八进七 车８进８",
        );
        let mut broken = full.clone();
        broken.remove(3);
        let r = search(
            &Position::start(),
            &broken,
            Notation::Chinese,
            Budget::default(),
        );
        let best = &r.repairs[0];
        assert!(best.replays_to_end, "{r:?}");
        assert_eq!(best.edits[0].op, EditOp::Insert);
        assert_eq!(best.edits[0].ply, 4);
        assert_eq!(best.edits[0].text.as_deref(), Some("车９平８"));
        assert_eq!(
            best.explanation_en,
            "Black's move 2 was left out; with 车９平８ there the rest replays to the end."
        );
    }

    #[test]
    fn a_digit_slip_found_later_is_mended_where_it_was_made() {
        // 车一进二 for 车一进一: the rook on i2 cannot go 平四 past the cannon on h2, two plies
        // later.
        let full = sheet("马二进三 马８进７ 车一进一 车９平８ 车一平四 马２进３ 车四进五 炮８平９");
        let mut broken = full.clone();
        broken[2] = "车一进二";
        let r = search(
            &Position::start(),
            &broken,
            Notation::Chinese,
            Budget::default(),
        );
        let best = &r.repairs[0];
        assert!(best.replays_to_end, "{r:?}");
        assert_eq!(best.edits.len(), 1);
        assert_eq!((best.edits[0].op, best.edits[0].ply), (EditOp::Replace, 3));
        assert_eq!(best.edits[0].text.as_deref(), Some("车一进一"));
        assert_eq!(
            best.explanation_en,
            "Red's move 2 was written 车一进二 but must be 车一进一; with that the rest replays \
             to the end."
        );
    }

    #[test]
    fn a_valid_line_has_no_repair() {
        let full = sheet("炮二平五 马８进７ 马二进三");
        let r = search(
            &Position::start(),
            &full,
            Notation::Chinese,
            Budget::default(),
        );
        assert!(r.repairs.is_empty() && !r.cut_short);
    }

    #[test]
    fn the_budget_bounds_the_search() {
        let broken = sheet(
            "炮二平五 马８进７ 马二进三 车一平二 马２进３ 车二进六 炮８平９ 车二平三 炮９退１",
        );
        let r = search(
            &Position::start(),
            &broken,
            Notation::Chinese,
            Budget { nodes: 50 },
        );
        assert!(r.cut_short);
        assert!(r.nodes <= 50);
    }
}
