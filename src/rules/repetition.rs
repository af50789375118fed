//! Repetition cycles (循环, RULES.md §3): positions compared by placement and side to move (the
//! Zobrist key), the shortest cycle ending at each repeated position, both sides' patterns with
//! their Chinese names, the occurrence count and the ruling under the CXA table or the AXF
//! severity order, with the tournament overlay.
//!
//! Consecutive repeated positions with the same cycle length form one *episode* (the same loop
//! played again and again); the report gives one [`Cycle`] per episode, judged on its last loop.

use std::collections::HashMap;

use serde::Serialize;

use crate::position::Position;
use crate::rules::nature::{MoveNature, NatureKind};
use crate::rules::profile::{OccurrenceCounting, Profile, VerdictTable};
use crate::types::{Color, Move, Square};

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
    forbidden: bool,
    undetermined: bool,
    all_single_chases: bool,
    has_joint: bool,
    /// AXF: one enemy piece chased on every move.
    same_target_chase: bool,
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

fn facts(
    color: Color,
    window: &[MoveNature],
    opp_moves: &[(usize, Move)],
    profile: &Profile,
) -> SideFacts {
    let mine: Vec<&MoveNature> = window.iter().filter(|n| n.side == color).collect();
    let natures: Vec<NatureKind> = mine.iter().map(|n| n.kind).collect();
    let attacking = |k: NatureKind| match k {
        NatureKind::Check | NatureKind::Chase => true,
        NatureKind::MateThreat => profile.mate_threat_forbidden,
        _ => false,
    };
    let undetermined = natures.contains(&NatureKind::Undetermined);
    let all_check = !natures.is_empty() && natures.iter().all(|&k| k == NatureKind::Check);
    let mixes_check_and_chase =
        natures.contains(&NatureKind::Check) && natures.contains(&NatureKind::Chase);
    let forbidden = !natures.is_empty()
        && natures.iter().all(|&k| attacking(k))
        && !(profile.check_chase_mix_allowed && mixes_check_and_chase);
    let all_single_chases = !natures.is_empty()
        && mine
            .iter()
            .all(|n| n.kind == NatureKind::Chase && !n.has_joint_chase());
    let has_joint = mine
        .iter()
        .any(|n| n.kind == NatureKind::Chase && n.has_joint_chase());
    // Follow the chased pieces through the opponent's moves in between.
    let chasing = |n: &MoveNature| {
        n.kind == NatureKind::Chase
            || (profile.check_may_chase && n.kind == NatureKind::Check && !n.targets.is_empty())
            || (profile.mate_threat_may_chase
                && n.kind == NatureKind::MateThreat
                && !n.targets.is_empty())
    };
    let mut same_target_chase = !mine.is_empty() && mine.iter().all(|n| chasing(n));
    if same_target_chase {
        let mut tracked: Vec<Square> = mine[0].targets.iter().map(|t| t.square).collect();
        let mut last_index = window
            .iter()
            .position(|n| std::ptr::eq(n, mine[0]))
            .unwrap_or(0);
        for n in mine.iter().skip(1) {
            let idx = window.iter().position(|w| std::ptr::eq(w, *n)).unwrap_or(0);
            for &(i, om) in opp_moves {
                if i > last_index && i < idx {
                    for sq in tracked.iter_mut() {
                        if *sq == om.from {
                            *sq = om.to;
                        }
                    }
                }
            }
            tracked.retain(|sq| n.targets.iter().any(|t| t.square == *sq));
            last_index = idx;
        }
        // Without the same-target requirement any unbroken series of chases is perpetual.
        same_target_chase = !tracked.is_empty() || !profile.chase_needs_same_target;
    }
    SideFacts {
        color,
        all_check,
        forbidden,
        undetermined,
        all_single_chases,
        has_joint,
        same_target_chase,
    }
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
    }
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

fn severity(f: &SideFacts) -> u8 {
    if f.all_check {
        2
    } else if f.same_target_chase {
        1
    } else {
        0
    }
}

fn rule_axf(red: &SideFacts, black: &SideFacts) -> (Verdict, String, String) {
    let (r, b) = (severity(red), severity(black));
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

/// Every repetition episode of the line. `natures` has one entry per move of `moves`.
pub fn find_cycles(
    start: &Position,
    moves: &[Move],
    natures: &[MoveNature],
    profile: &Profile,
) -> Vec<Cycle> {
    let n = moves.len().min(natures.len());
    let mut keys = Vec::with_capacity(n + 1);
    let mut fullmoves = Vec::with_capacity(n + 1);
    let mut pos = *start;
    keys.push(pos.key());
    fullmoves.push(pos.fullmoves());
    for &m in &moves[..n] {
        pos.play_unchecked(m);
        keys.push(pos.key());
        fullmoves.push(pos.fullmoves());
    }
    let from_initial_array =
        start.to_setup().board == Position::start().to_setup().board && start.turn() == Color::Red;

    // (start_ply, end_ply, length) of each episode.
    let mut episodes: Vec<(usize, usize, usize)> = Vec::new();
    let mut last_seen: HashMap<u64, usize> = HashMap::new();
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
        .into_iter()
        .map(|(start_ply, end_ply, len)| {
            let visits = keys[..=end_ply].iter().filter(|&&k| k == keys[end_ply]).count() as u32;
            let loop_occurrences = ((end_ply - start_ply) / len) as u32 + 1;
            let occurrences = match profile.occurrence_counting {
                OccurrenceCounting::AlongLoop => loop_occurrences,
                OccurrenceCounting::EveryVisit => visits,
            };
            let window = &natures[end_ply - len..end_ply];
            let opp: Vec<(usize, Move)> = window.iter().enumerate().map(|(i, n)| (i, n.mv)).collect();
            let red = facts(Color::Red, window, &opp, profile);
            let black = facts(Color::Black, window, &opp, profile);
            let (mut verdict, mut zh, mut en) = rule(&red, &black, profile);
            if verdict == Verdict::Draw
                && profile.tournament_overlay
                && from_initial_array
                && fullmoves[end_ply] <= profile.overlay_moves
            {
                verdict = Verdict::RedMustVary;
                zh = format!("{zh}；但在开局{}回合内循环，红方必须变着（比赛规定）", profile.overlay_moves);
                en = format!(
                    "{en}; but the cycle falls within the first {} moves, so Red must vary (tournament overlay)",
                    profile.overlay_moves
                );
            }
            let due = occurrences >= profile.ruling_occurrence;
            zh = format!(
                "{}（第{}次出现{}）",
                zh,
                occurrences,
                if due { "，裁决生效" } else { "，尚未到裁决次数" }
            );
            en = format!(
                "{} (occurrence {}; the rulebook rules on occurrence {}{})",
                en,
                occurrences,
                profile.ruling_occurrence,
                if due { ": ruling applies" } else { "" }
            );
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
                red: side_pattern(Color::Red, window, &red),
                black: side_pattern(Color::Black, window, &black),
                verdict,
                reason_zh: zh,
                reason_en: en,
            }
        })
        .collect()
}

/// The ruling on the most recent cycle, or [`Verdict::None`].
pub fn final_verdict(cycles: &[Cycle]) -> Verdict {
    cycles.last().map_or(Verdict::None, |c| c.verdict)
}
