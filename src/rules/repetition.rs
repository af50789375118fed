//! Repetition cycles (循环, RULES.md §3): positions compared by placement and side to move (the
//! Zobrist key), the shortest cycle ending at each repeated position, both sides' patterns with
//! their Chinese names, the occurrence count and the ruling under the CXA table or the AXF
//! severity order, with the tournament overlay.
//!
//! Consecutive repeated positions with the same cycle length form one *episode* (the same loop
//! played again and again); the report gives one [`Cycle`] per episode, judged on its last loop.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use serde::Serialize;

use crate::position::Position;
use crate::rules::nature::{ChaseTarget, MoveNature, NatureKind, WinHow};
use crate::rules::profile::{OccurrenceCounting, Profile, VerdictTable};
use crate::rules::search::ZobristHasher;
use crate::types::{Color, Move, Role, Square};

/// The ruling on a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    RedMustVary,
    BlackMustVary,
    Draw,
    /// A nature the ruling depends on could not be determined within the search budget.
    Undetermined,
    /// No position has repeated.
    None,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::RedMustVary => "red_must_vary",
            Verdict::BlackMustVary => "black_must_vary",
            Verdict::Draw => "draw",
            Verdict::Undetermined => "undetermined",
            Verdict::None => "none",
        }
    }

    fn must_vary(c: Color) -> Verdict {
        match c {
            Color::Red => Verdict::RedMustVary,
            Color::Black => Verdict::BlackMustVary,
        }
    }
}

/// One side's moves in a cycle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SidePattern {
    /// The natures of the side's moves in the cycle, in order ("check", "chase", "exchange", ...:
    /// an idle move with an idle kind is named by the kind).
    pub natures: Vec<String>,
    /// "forbidden" (禁止着法) or "allowed" (允许着法), or "undetermined".
    pub pattern: String,
    /// The Chinese name: 长将, 长捉, 一将一捉, 两闲 ...
    pub name: String,
    /// When every move attacks (check, mate threat or chase) and the pattern is still allowed,
    /// the profile's allowances that make it so (AXF, RULES.md §3): `mate_threat` (perpetual
    /// mate threat), `check_and_chase` (check alternating with chase), `different_targets` (one
    /// piece chasing different pieces in turn), `king_pawn_chase` (chases by the general or a
    /// pawn), `protected_target` (chasing a protected piece). Empty otherwise.
    pub allowances: Vec<String>,
}

/// A repetition cycle (an episode of one loop played again).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cycle {
    /// Ply (moves played) at which the repeated position first stood in this episode.
    pub start_ply: usize,
    /// Ply at which the episode's last repetition stands.
    pub end_ply: usize,
    /// The occurrence count the ruling goes by (2 = first repetition): `loop_occurrences` or
    /// `visits`, as the profile's `occurrence_counting` says.
    pub occurrences: u32,
    /// How many times the position at `end_ply` has stood there along the loop: the end of the
    /// cycle and its stands one, two ... loop lengths back within this episode (consecutive
    /// repetitions of the cycle).
    pub loop_occurrences: u32,
    /// How many times the position at `end_ply` has stood on the board, by any route.
    pub visits: u32,
    /// Which count `occurrences` is: `along_loop` or `every_visit`.
    pub counting: OccurrenceCounting,
    /// The ply at which the ruling became due: the ply whose move made the repeated position
    /// stand for the profile's `ruling_occurrence`-th time (3rd) in this episode, counted as
    /// `counting` says. `None` while the episode has not reached it.
    pub due_ply: Option<usize>,
    pub red: SidePattern,
    pub black: SidePattern,
    pub verdict: Verdict,
    pub reason_zh: String,
    pub reason_en: String,
}

/// Facts about one side's moves in a cycle that the verdict tables need.
#[derive(Clone, Debug)]
struct SideFacts {
    color: Color,
    all_check: bool,
    /// The pattern is forbidden under the profile's verdict table (CXA: 长打; AXF: perpetual
    /// check or perpetual chase). The side's label follows it.
    forbidden: bool,
    undetermined: bool,
    all_single_chases: bool,
    has_joint: bool,
    /// AXF severity: 2 perpetual check, 1 perpetual chase, 0 allowed.
    severity: u8,
    /// Why a pattern of attacking moves only (check, mate threat, chase) is nevertheless allowed
    /// under the profile: the allowances applied (see [`SidePattern::allowances`]).
    allowances: Vec<&'static str>,
}

/// The profile's allowances (RULES.md §3, AXF differences), each with its name in reports.
const MATE_THREAT: &str = "mate_threat";
const CHECK_AND_CHASE: &str = "check_and_chase";
const DIFFERENT_TARGETS: &str = "different_targets";
const KING_PAWN_CHASE: &str = "king_pawn_chase";
const PROTECTED_TARGET: &str = "protected_target";
const CHECK_AND_CAPTURE: &str = "check_and_capture";

/// The (zh, en) wording of an allowance.
fn allowance_text(a: &str) -> (&'static str, &'static str) {
    match a {
        MATE_THREAT => ("长杀允许", "a perpetual mate threat is allowed"),
        CHECK_AND_CHASE => ("将与捉交替允许", "check alternating with chase is allowed"),
        DIFFERENT_TARGETS => (
            "一子轮流捉不同的子允许",
            "one piece chasing different pieces in turn is allowed",
        ),
        KING_PAWN_CHASE => (
            "将（帅）、兵（卒）捉子允许",
            "chases by the general or a pawn are allowed",
        ),
        PROTECTED_TARGET => ("捉有根子允许", "chasing a protected piece is allowed"),
        CHECK_AND_CAPTURE => (
            "长抽将得子允许",
            "threatening to check and capture is allowed",
        ),
        _ => ("", ""),
    }
}

fn role_value(role: Role, v: &crate::rules::profile::PieceValues) -> i32 {
    match role {
        Role::Rook => v.rook,
        Role::Horse => v.horse,
        Role::Cannon => v.cannon,
        Role::Advisor => v.advisor,
        Role::Elephant => v.elephant,
        Role::Pawn => v.pawn,
        Role::King => i32::MAX,
    }
}

/// What one move contributes to a perpetual chase: its chase targets that count under the
/// profile's allowances, and the allowances that removed the others.
struct ChaseCount<'a> {
    /// The move chases (its nature is a chase, or a check or mate threat the profile lets chase
    /// too) with at least one counted target, or is a chase whose targets were not recorded.
    chasing: bool,
    targets: Vec<&'a ChaseTarget>,
    dropped: Vec<&'static str>,
}

/// The chase targets of `n` that count toward a perpetual chase. `after` is the position after
/// the move (where the chasers stand).
fn chase_count<'a>(n: &'a MoveNature, after: &Position, profile: &Profile) -> ChaseCount<'a> {
    let may_chase = match n.kind {
        NatureKind::Chase => true,
        NatureKind::Check => profile.check_may_chase,
        NatureKind::MateThreat => profile.mate_threat_may_chase,
        _ => false,
    };
    let mut out = ChaseCount {
        chasing: false,
        targets: Vec::new(),
        dropped: Vec::new(),
    };
    if !may_chase {
        return out;
    }
    for t in &n.targets {
        let role_at = |sq: Square| after.piece_at(sq).map(|p| p.role);
        // A general or pawn chasing by itself: the chase is not joint, it is won by a capture
        // or an exchange (not by checks), and every piece of the chaser's that bears on the
        // target is a general or a pawn (a piece whose attack the move uncovered is a chaser
        // too, even when the chase is charged to the general or pawn that moved).
        let king_pawn_alone = || {
            let mut bearing = after.attackers(t.square, n.side);
            !t.joint
                && t.how != WinHow::Checks
                && bearing.any()
                && bearing.all(|sq| matches!(role_at(sq), Some(Role::King | Role::Pawn)))
        };
        if profile.check_and_capture_allowed && t.how == WinHow::Checks {
            push_once(&mut out.dropped, CHECK_AND_CAPTURE);
            continue;
        }
        if profile.king_pawn_chase_allowed && king_pawn_alone() {
            push_once(&mut out.dropped, KING_PAWN_CHASE);
            continue;
        }
        if profile.protected_chase_allowed
            && t.how == WinHow::Exchange
            && t.by
                .first()
                .and_then(|&sq| role_at(sq))
                .is_none_or(|capturer| {
                    role_value(capturer, &profile.values)
                        >= role_value(t.piece.role, &profile.values)
                })
        {
            push_once(&mut out.dropped, PROTECTED_TARGET);
            continue;
        }
        out.targets.push(t);
    }
    out.chasing = !out.targets.is_empty() || (n.kind == NatureKind::Chase && n.targets.is_empty());
    out
}

fn push_once(v: &mut Vec<&'static str>, a: &'static str) {
    if !v.contains(&a) {
        v.push(a);
    }
}

/// Whether one enemy piece is chased on every chasing move of the side, following the chased
/// pieces through the opponent's moves in between. `moves` are the side's moves as (index in
/// the window, count); `window` all moves of the window.
fn same_target(window: &[MoveNature], moves: &[(usize, &ChaseCount)]) -> bool {
    let mut chasing = moves.iter().filter(|(_, c)| c.chasing);
    let Some((first_index, first)) = chasing.next() else {
        return false;
    };
    let mut tracked: Vec<Square> = first.targets.iter().map(|t| t.square).collect();
    let mut last_index = *first_index;
    for (idx, c) in chasing {
        for om in &window[last_index + 1..*idx] {
            for sq in tracked.iter_mut() {
                if *sq == om.mv.from {
                    *sq = om.mv.to;
                }
            }
        }
        tracked.retain(|sq| c.targets.iter().any(|t| t.square == *sq));
        last_index = *idx;
    }
    !tracked.is_empty()
}

/// Whether the side's chases hold one target over `natures` (`after[i]` the position after
/// `natures[i]`).
fn same_target_over(
    color: Color,
    natures: &[MoveNature],
    after: &[Position],
    profile: &Profile,
) -> bool {
    let counts: Vec<(usize, ChaseCount)> = natures
        .iter()
        .enumerate()
        .filter(|(_, n)| n.side == color)
        .map(|(i, n)| (i, chase_count(n, &after[i], profile)))
        .collect();
    let refs: Vec<(usize, &ChaseCount)> = counts.iter().map(|(i, c)| (*i, c)).collect();
    same_target(natures, &refs)
}

/// `after[i]` is the position after `window[i]`. `repeated`: the whole repeated play ending
/// with the window, with the positions after its moves, when it is longer than the window
/// ([`Profile::chase_in_turn_over_repetition`]).
fn facts(
    color: Color,
    window: &[MoveNature],
    after: &[Position],
    profile: &Profile,
    repeated: Option<(&[MoveNature], &[Position])>,
) -> SideFacts {
    let mine: Vec<(usize, &MoveNature)> = window
        .iter()
        .enumerate()
        .filter(|(_, n)| n.side == color)
        .collect();
    let counts: Vec<ChaseCount> = mine
        .iter()
        .map(|&(i, n)| chase_count(n, &after[i], profile))
        .collect();
    let with_counts: Vec<(usize, &ChaseCount)> =
        mine.iter().map(|&(i, _)| i).zip(counts.iter()).collect();
    let kinds: Vec<NatureKind> = mine.iter().map(|(_, n)| n.kind).collect();
    let nonempty = !mine.is_empty();
    let undetermined = kinds.contains(&NatureKind::Undetermined);
    let all_check = nonempty && kinds.iter().all(|&k| k == NatureKind::Check);
    let all_plain_attacking = nonempty && mine.iter().all(|(_, n)| n.is_attacking());
    let any_chasing = counts.iter().any(|c| c.chasing);
    // A check that chases nothing (one that also chases counts as a chase, `check_may_chase`).
    let any_plain_check = mine
        .iter()
        .zip(&counts)
        .any(|((_, n), c)| n.kind == NatureKind::Check && !c.chasing);
    let all_single_chases = nonempty
        && mine
            .iter()
            .all(|(_, n)| n.kind == NatureKind::Chase && !n.has_joint_chase());
    let has_joint = mine
        .iter()
        .any(|(_, n)| n.kind == NatureKind::Chase && n.has_joint_chase());

    // Each move's part in the pattern: a check, a mate threat, a counted chase, or idle-class.
    let mut allowances: Vec<&'static str> = Vec::new();
    let mut every_move_attacks = nonempty;
    for ((_, n), c) in mine.iter().zip(&counts) {
        let attacks = match n.kind {
            NatureKind::Check => true,
            NatureKind::MateThreat => {
                if !profile.mate_threat_forbidden && !c.chasing {
                    push_once(&mut allowances, MATE_THREAT);
                }
                profile.mate_threat_forbidden || c.chasing
            }
            NatureKind::Chase => c.chasing,
            _ => false,
        };
        if !attacks && n.kind == NatureKind::Chase {
            for &a in &c.dropped {
                push_once(&mut allowances, a);
            }
        }
        every_move_attacks &= attacks;
    }
    let mix_allowed = profile.check_chase_mix_allowed && any_plain_check && any_chasing;
    if every_move_attacks && mix_allowed {
        // With the mix allowed, the checks that chase nothing break the chase.
        push_once(&mut allowances, CHECK_AND_CHASE);
    }
    // AXF rule 32: two pieces chasing two in turn over the repeated play is no perpetual chase,
    // even when each shortest loop shows one piece chasing one.
    let targets_hold = !profile.chase_needs_same_target
        || !any_chasing
        || (same_target(window, &with_counts)
            && repeated.is_none_or(|(natures, after)| {
                !profile.chase_in_turn_over_repetition
                    || same_target_over(color, natures, after, profile)
            }));
    if every_move_attacks && !targets_hold {
        push_once(&mut allowances, DIFFERENT_TARGETS);
    }
    // AXF severity order: perpetual check > perpetual chase > everything else. A perpetual
    // chase: every move chases (checks and mate threats count when they chase, or when the
    // profile forbids them in the mix), one target held through when the profile needs it.
    let chase_moves_ok = nonempty
        && mine.iter().zip(&counts).all(|((_, n), c)| {
            c.chasing
                || (n.kind == NatureKind::Check && !profile.check_chase_mix_allowed)
                || (n.kind == NatureKind::MateThreat && profile.mate_threat_forbidden)
        });
    let severity = if all_check {
        2
    } else if chase_moves_ok && any_chasing && targets_hold {
        1
    } else {
        0
    };
    let forbidden = match profile.table {
        VerdictTable::Cxa => all_check || (every_move_attacks && !mix_allowed && targets_hold),
        VerdictTable::Axf => severity > 0,
    };
    if forbidden || !all_plain_attacking {
        allowances.clear();
    }
    SideFacts {
        color,
        all_check,
        forbidden,
        undetermined,
        all_single_chases,
        has_joint,
        severity,
        allowances,
    }
}

fn numeral(n: usize, idle: bool) -> String {
    const DIGITS: [&str; 10] = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match n {
        2 if idle => "两".to_string(),
        0..=9 => DIGITS[n].to_string(),
        10 => "十".to_string(),
        11..=19 => format!("十{}", DIGITS[n - 10]),
        _ => n.to_string(),
    }
}

fn token(n: &MoveNature) -> (&'static str, &'static str) {
    match (n.kind, n.idle_kind) {
        (NatureKind::Idle, Some(k)) => (k.name(), k.name_zh()),
        (k, _) => (k.name(), k.name_zh()),
    }
}

/// The Chinese name of a side's pattern: 长X when every move has the same name, otherwise the
/// counts in order of first appearance (一将一捉, 二将一捉, 一将两闲 ...).
pub fn pattern_name(natures: &[&MoveNature]) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for n in natures {
        let zh = token(n).1;
        match counts.iter_mut().find(|(k, _)| *k == zh) {
            Some((_, c)) => *c += 1,
            None => counts.push((zh, 1)),
        }
    }
    if counts.len() == 1 {
        let (zh, c) = counts[0];
        if zh == "闲" {
            return format!("{}闲", numeral(c, true));
        }
        return format!("长{zh}");
    }
    counts
        .iter()
        .map(|(zh, c)| format!("{}{}", numeral(*c, *zh == "闲"), zh))
        .collect()
}

fn side_pattern(color: Color, window: &[MoveNature], f: &SideFacts) -> SidePattern {
    let mine: Vec<&MoveNature> = window.iter().filter(|n| n.side == color).collect();
    SidePattern {
        natures: mine.iter().map(|n| token(n).0.to_string()).collect(),
        pattern: if f.undetermined {
            "undetermined"
        } else if f.forbidden {
            "forbidden"
        } else {
            "allowed"
        }
        .to_string(),
        name: pattern_name(&mine),
        allowances: if f.undetermined {
            Vec::new()
        } else {
            f.allowances.iter().map(|a| a.to_string()).collect()
        },
    }
}

/// " (allowed: ...)" for the reasons, when a side's attacking pattern is allowed.
fn allowance_note(f: &SideFacts) -> (String, String) {
    if f.allowances.is_empty() {
        return (String::new(), String::new());
    }
    let zh: Vec<&str> = f.allowances.iter().map(|a| allowance_text(a).0).collect();
    let en: Vec<&str> = f.allowances.iter().map(|a| allowance_text(a).1).collect();
    (
        format!("；{}：{}", side_zh(f.color), zh.join("，")),
        format!("; {}: {}", side_en(f.color), en.join(", ")),
    )
}

fn side_zh(c: Color) -> &'static str {
    match c {
        Color::Red => "红方",
        Color::Black => "黑方",
    }
}

fn side_en(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// The verdict and its reason (zh, en) for two sides' facts.
fn rule(red: &SideFacts, black: &SideFacts, profile: &Profile) -> (Verdict, String, String) {
    match profile.table {
        VerdictTable::Cxa => rule_cxa(red, black, profile),
        VerdictTable::Axf => rule_axf(red, black),
    }
}

/// The verdict and reason with the sides' allowances noted.
fn rule_noted(red: &SideFacts, black: &SideFacts, profile: &Profile) -> (Verdict, String, String) {
    let (v, mut zh, mut en) = rule(red, black, profile);
    for f in [red, black] {
        let (z, e) = allowance_note(f);
        zh.push_str(&z);
        en.push_str(&e);
    }
    (v, zh, en)
}

fn rule_cxa(red: &SideFacts, black: &SideFacts, profile: &Profile) -> (Verdict, String, String) {
    if red.all_check && black.all_check {
        return (
            Verdict::Draw,
            "双方长将，不变作和".into(),
            "both sides check perpetually: draw if neither varies".into(),
        );
    }
    for (a, b) in [(red, black), (black, red)] {
        if a.all_check && !b.all_check && !b.undetermined {
            return (
                Verdict::must_vary(a.color),
                format!(
                    "{}单方长将，必须变着，否则判负（即使无其他着法）",
                    side_zh(a.color)
                ),
                format!(
                    "{} checks perpetually and {} does not: {} must vary, else loses (even with no other move)",
                    side_en(a.color),
                    side_en(b.color),
                    side_en(a.color)
                ),
            );
        }
    }
    if red.undetermined || black.undetermined {
        return (
            Verdict::Undetermined,
            "有着法性质未能在搜索限度内判定，不作裁决".into(),
            "a move's nature could not be decided within the search budget: no ruling".into(),
        );
    }
    match (red.forbidden, black.forbidden) {
        (false, false) => (
            Verdict::Draw,
            "双方均为允许着法，不变作和".into(),
            "both sides play allowed moves: draw if neither varies".into(),
        ),
        (true, false) | (false, true) => {
            let a = if red.forbidden { red } else { black };
            (
                Verdict::must_vary(a.color),
                format!(
                    "{}禁止着法（长打），对方允许着法：{}必须变着，否则判负",
                    side_zh(a.color),
                    side_zh(a.color)
                ),
                format!(
                    "{} plays forbidden moves (every move checks, threatens mate or chases) against allowed moves: {} must vary, else loses",
                    side_en(a.color),
                    side_en(a.color)
                ),
            )
        }
        (true, true) => {
            if profile.single_vs_joint {
                for (a, b) in [(red, black), (black, red)] {
                    if a.all_single_chases && b.has_joint {
                        return (
                            Verdict::must_vary(a.color),
                            format!(
                                "双方均为禁止着法；{}每着均为单子捉，{}有联合捉：单子捉的一方必须变着",
                                side_zh(a.color),
                                side_zh(b.color)
                            ),
                            format!(
                                "both sides play forbidden moves; {} chases with one piece at a time, {} chases jointly: the single-piece chaser ({}) must vary",
                                side_en(a.color),
                                side_en(b.color),
                                side_en(a.color)
                            ),
                        );
                    }
                }
            }
            (
                Verdict::Draw,
                "双方均为禁止着法，不变作和".into(),
                "both sides play forbidden moves: draw if neither varies".into(),
            )
        }
    }
}

fn rule_axf(red: &SideFacts, black: &SideFacts) -> (Verdict, String, String) {
    let (r, b) = (red.severity, black.severity);
    let name_zh = |s: u8| ["允许着法", "长捉", "长将"][s as usize];
    let name_en = |s: u8| ["allowed moves", "perpetual chase", "perpetual check"][s as usize];
    if (red.undetermined && r < 2) || (black.undetermined && b < 2) {
        return (
            Verdict::Undetermined,
            "有着法性质未能在搜索限度内判定，不作裁决".into(),
            "a move's nature could not be decided within the search budget: no ruling".into(),
        );
    }
    if r == b {
        return (
            Verdict::Draw,
            format!("双方同等（{}），和棋", name_zh(r)),
            format!("both sides equally severe ({}): draw", name_en(r)),
        );
    }
    let a = if r > b { red } else { black };
    let (sa, sb) = if r > b { (r, b) } else { (b, r) };
    (
        Verdict::must_vary(a.color),
        format!(
            "亚洲规则：{}{}重于对方{}，必须变着",
            side_zh(a.color),
            name_zh(sa),
            name_zh(sb)
        ),
        format!(
            "AXF: {}'s {} is more severe than the opponent's {}: {} must vary",
            side_en(a.color),
            name_en(sa),
            name_en(sb),
            side_en(a.color)
        ),
    )
}

/// Mutual forbidden play (互打, [`Profile::pawn_chases_in_mutual_play`]): when, under the CXA
/// table, one side's pattern is forbidden and the other's is not, but would be if its pawns'
/// threats by themselves ([`MoveNature::pawn_targets`]) counted as chases, the window with those
/// moves turned into chases; `None` otherwise.
fn mutual_play_window(
    window: &[MoveNature],
    after: &[Position],
    red: &SideFacts,
    black: &SideFacts,
    profile: &Profile,
) -> Option<Vec<MoveNature>> {
    if !profile.pawn_chases_in_mutual_play
        || profile.table != VerdictTable::Cxa
        || red.forbidden == black.forbidden
        || red.undetermined
        || black.undetermined
    {
        return None;
    }
    let other = if red.forbidden { black } else { red };
    let mut turned = false;
    let w: Vec<MoveNature> = window
        .iter()
        .map(|n| {
            let mut n = n.clone();
            if n.side == other.color && n.kind == NatureKind::Idle && !n.pawn_targets.is_empty() {
                n.kind = NatureKind::Chase;
                n.idle_kind = None;
                n.targets = std::mem::take(&mut n.pawn_targets);
                turned = true;
            }
            n
        })
        .collect();
    (turned && facts(other.color, &w, after, profile, None).forbidden).then_some(w)
}

/// The repetition episodes of a line, from the keys of its positions (`keys[ply]` the key after
/// `ply` moves): (start_ply, end_ply, length) of each.
fn episodes(keys: &[u64]) -> Vec<(usize, usize, usize)> {
    let mut episodes: Vec<(usize, usize, usize)> = Vec::new();
    // (Zobrist keys need no SipHash.)
    let mut last_seen: HashMap<u64, usize, BuildHasherDefault<ZobristHasher>> =
        HashMap::with_capacity_and_hasher(keys.len(), Default::default());
    let mut prev_len: Option<usize> = None;
    for (ply, &k) in keys.iter().enumerate() {
        let len = last_seen.get(&k).map(|&j| ply - j);
        match (len, prev_len) {
            (Some(l), Some(pl)) if l == pl && episodes.last().is_some_and(|e| e.1 + 1 == ply) => {
                episodes.last_mut().expect("episode").1 = ply;
            }
            (Some(l), _) => episodes.push((ply - l, ply, l)),
            _ => {}
        }
        prev_len = len;
        last_seen.insert(k, ply);
    }
    episodes
}

/// The ply from which the position of `end_ply` has been repeated, a loop of `len` plies ending
/// there: back from the end over the earlier stands of the position, each at most two loop
/// lengths before the next (the whole repeated play).
fn repeated_from(keys: &[u64], end_ply: usize, len: usize) -> usize {
    let mut first = end_ply;
    while let Some(j) = (first.saturating_sub(2 * len)..first).find(|&j| keys[j] == keys[end_ply]) {
        first = j;
    }
    first
}

/// The moves of the line whose natures [`find_cycles`] reads (`true` at their index): those of
/// the last loop of each repetition episode and of the whole repeated play before it. The
/// cycles, their patterns and rulings are the same when only these moves are judged (a nature
/// is judged on the position before the move and the one before the opponent's last move,
/// never on the natures of other moves: see `try_classify_line`). The line is read up to its
/// first illegal move (the answer is that long), as the classifier reads it.
pub fn plies_ruled_on(start: &Position, moves: &[Move]) -> Vec<bool> {
    let mut keys = Vec::with_capacity(moves.len() + 1);
    let mut pos = *start;
    keys.push(pos.key());
    for &m in moves {
        if !pos.is_legal(m) {
            break;
        }
        pos.play_unchecked(m);
        keys.push(pos.key());
    }
    let mut out = vec![false; keys.len() - 1];
    for (_, end_ply, len) in episodes(&keys) {
        let first = repeated_from(&keys, end_ply, len).min(end_ply - len);
        out[first..end_ply].fill(true);
    }
    out
}

/// Every repetition episode of the line. `natures` has one entry per move of `moves`.
pub fn find_cycles(
    start: &Position,
    moves: &[Move],
    natures: &[MoveNature],
    profile: &Profile,
) -> Vec<Cycle> {
    let n = moves.len().min(natures.len());
    let mut keys = Vec::with_capacity(n + 1);
    let mut positions = Vec::with_capacity(n + 1);
    let mut pos = *start;
    keys.push(pos.key());
    positions.push(pos);
    for &m in &moves[..n] {
        pos.play_unchecked(m);
        keys.push(pos.key());
        positions.push(pos);
    }
    // visits[ply]: how many times the position after `ply` plies has stood, up to that ply.
    let mut seen: HashMap<u64, u32, BuildHasherDefault<ZobristHasher>> =
        HashMap::with_capacity_and_hasher(keys.len(), Default::default());
    let visits_at: Vec<u32> = keys
        .iter()
        .map(|&k| {
            let v = seen.entry(k).or_insert(0);
            *v += 1;
            *v
        })
        .collect();
    let numbering = crate::rules::limit::MoveNumbering::of(start);
    let from_initial_array =
        start.to_setup().board == Position::start().to_setup().board && start.turn() == Color::Red;

    episodes(&keys)
        .into_iter()
        .map(|(start_ply, end_ply, len)| {
            let visits = visits_at[end_ply];
            let loop_occurrences = ((end_ply - start_ply) / len) as u32 + 1;
            let occurrence_at = |ply: usize| match profile.occurrence_counting {
                OccurrenceCounting::AlongLoop => ((ply - start_ply) / len) as u32 + 1,
                OccurrenceCounting::EveryVisit => visits_at[ply],
            };
            let occurrences = occurrence_at(end_ply);
            let due_ply = (start_ply + len..=end_ply)
                .find(|&p| occurrence_at(p) >= profile.ruling_occurrence);
            let window = &natures[end_ply - len..end_ply];
            let after = &positions[end_ply - len + 1..=end_ply];
            let first = repeated_from(&keys, end_ply, len);
            let repeated = (first < end_ply - len)
                .then(|| (&natures[first..end_ply], &positions[first + 1..=end_ply]));
            let mut red = facts(Color::Red, window, after, profile, repeated);
            let mut black = facts(Color::Black, window, after, profile, repeated);
            // Mutual forbidden play (互打): the pawn's threats count as chases.
            let mutual = mutual_play_window(window, after, &red, &black, profile);
            let window: &[MoveNature] = match &mutual {
                Some(w) => {
                    red = facts(Color::Red, w, after, profile, repeated);
                    black = facts(Color::Black, w, after, profile, repeated);
                    w
                }
                None => window,
            };
            let (mut verdict, mut zh, mut en) = rule_noted(&red, &black, profile);
            if mutual.is_some() {
                zh = format!("互打，兵（卒）本身的捉子按捉计；{zh}");
                en = format!(
                    "mutual forbidden play (互打): a pawn's threats by itself count as chases; {en}"
                );
            }
            // The overlay reads the move (回合) whose play made the ruling due (or, before it is
            // due, the cycle's last move): "within N moves" is moves 1 to N, both sides' Nth
            // moves included (see `within_moves`).
            let ruled_ply = due_ply.unwrap_or(end_ply);
            // (From the initial array, Red first: ply p is move (p + 1) / 2.)
            let number = ruled_ply.div_ceil(2) as u32;
            if verdict == Verdict::Draw
                && profile.tournament_overlay
                && from_initial_array
                && within_moves(number, profile.overlay_moves)
            {
                verdict = Verdict::RedMustVary;
                zh = format!(
                    "{zh}；但循环在第{number}回合，在开局{}回合内，红方必须变着（比赛规定）",
                    profile.overlay_moves
                );
                en = format!(
                    "{en}; but the cycle falls on move {number}, within the first {} moves, so Red must vary (tournament overlay)",
                    profile.overlay_moves
                );
            }
            let due_at = due_ply.map(|p| (p, numbering.of_ply(p as u32)));
            zh = match due_at {
                Some((p, m)) => format!(
                    "{zh}（第{occurrences}次出现，裁决生效：第{}次出现在第{m}回合（第{p}步））",
                    profile.ruling_occurrence
                ),
                None => format!("{zh}（第{occurrences}次出现，尚未到裁决次数）"),
            };
            en = match due_at {
                Some((p, m)) => format!(
                    "{en} (occurrence {occurrences}; the rulebook rules on occurrence {}: ruling applies, due from move {m} (ply {p}))",
                    profile.ruling_occurrence
                ),
                None => format!(
                    "{en} (occurrence {occurrences}; the rulebook rules on occurrence {})",
                    profile.ruling_occurrence
                ),
            };
            if loop_occurrences != visits {
                zh = format!(
                    "{zh}（沿循环第{loop_occurrences}次，局面共出现{visits}次；按{}计）",
                    match profile.occurrence_counting {
                        OccurrenceCounting::AlongLoop => "循环",
                        OccurrenceCounting::EveryVisit => "局面出现",
                    }
                );
                en = format!(
                    "{en} ({loop_occurrences} along the loop, {visits} visits of the position; counted {})",
                    match profile.occurrence_counting {
                        OccurrenceCounting::AlongLoop => "along the loop",
                        OccurrenceCounting::EveryVisit => "by every visit",
                    }
                );
            }
            Cycle {
                start_ply,
                end_ply,
                occurrences,
                loop_occurrences,
                visits,
                counting: profile.occurrence_counting,
                due_ply,
                red: side_pattern(Color::Red, window, &red),
                black: side_pattern(Color::Black, window, &black),
                verdict,
                reason_zh: zh,
                reason_en: en,
            }
        })
        .collect()
}

/// "Within N moves" (N回合内), as the regulations use it (the tournament overlay, the ban on
/// early draw offers): moves numbered 1 to N, both sides' Nth moves included. `move_number` is
/// the number (回合) of the move in question.
pub fn within_moves(move_number: u32, n: u32) -> bool {
    move_number <= n
}

/// The ruling on the most recent cycle, or [`Verdict::None`].
pub fn final_verdict(cycles: &[Cycle]) -> Verdict {
    cycles.last().map_or(Verdict::None, |c| c.verdict)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::nature::try_classify_line;

    /// `find_cycles` reads the natures of the moves [`plies_ruled_on`] marks and no other: with
    /// every other move's nature made a check, the cycles of the real games of the rules tests
    /// (each with a repetition) are the same, under both rulebooks.
    #[test]
    fn cycles_read_only_the_plies_ruled_on() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/rules/games.jsonl");
        let text = std::fs::read_to_string(path).expect("games.jsonl");
        let (mut marked, mut total, mut with_cycles) = (0, 0, 0);
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).expect("json");
            let start = Position::from_fen(v["fen"].as_str().expect("fen")).expect("fen");
            let moves: Vec<Move> = v["moves"]
                .as_str()
                .expect("moves")
                .split_whitespace()
                .map(|m| Move::parse_iccs(m).expect("iccs"))
                .collect();
            let ruled = plies_ruled_on(&start, &moves);
            marked += ruled.iter().filter(|&&r| r).count();
            total += moves.len();
            for profile in [Profile::cxa(), Profile::axf()] {
                let natures = try_classify_line(&start, &moves, &profile).expect("legal");
                let mut blurred = natures.clone();
                for (n, &r) in blurred.iter_mut().zip(&ruled) {
                    if !r {
                        n.kind = NatureKind::Check;
                        n.targets.clear();
                        n.pawn_targets.clear();
                    }
                }
                let json = |c: Vec<Cycle>| serde_json::to_string(&c).expect("cycles");
                let cycles = find_cycles(&start, &moves, &natures, &profile);
                with_cycles += usize::from(!cycles.is_empty());
                assert_eq!(
                    json(cycles),
                    json(find_cycles(&start, &moves, &blurred, &profile))
                );
            }
        }
        // (The games repeat, but most of their moves do not.)
        assert!(with_cycles > 80, "{with_cycles}");
        assert!(marked > 0 && marked < total / 2, "{marked} of {total}");
    }
}
