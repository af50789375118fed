//! The text reports of `xqa adjudicate` and `xqa screen` in Chinese, English or both
//! (`--lang zh|en|both`). Plies are numbered as in the JSON (a cycle's `first_ply`-`last_ply`),
//! with the move numbers (回合) beside them: "moves 9-13, plies 16-25", "第9-13回合（第16-25步）".

use super::schema::move_number;
use crate::Position;
use crate::rules::adjudicate::Report;
use crate::rules::limit::Lang;
use crate::rules::repetition::{Cycle, Verdict};
use crate::rules::screen::GameScreen;
use std::fmt::Write;

/// The language of a text report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TextLang {
    Zh,
    En,
    /// Chinese, then English.
    #[default]
    Both,
}

impl std::str::FromStr for TextLang {
    type Err = String;
    fn from_str(s: &str) -> Result<TextLang, String> {
        match s {
            "zh" => Ok(TextLang::Zh),
            "en" => Ok(TextLang::En),
            "both" => Ok(TextLang::Both),
            _ => Err(format!("unknown language '{s}' (expected zh, en or both)")),
        }
    }
}

impl TextLang {
    fn zh(self) -> bool {
        self != TextLang::En
    }
    fn en(self) -> bool {
        self != TextLang::Zh
    }
    /// The languages to write, in order.
    fn langs(self) -> &'static [Lang] {
        match self {
            TextLang::Zh => &[Lang::Zh],
            TextLang::En => &[Lang::En],
            TextLang::Both => &[Lang::Zh, Lang::En],
        }
    }
}

/// A cycle's verdict in words.
fn verdict_text(v: Verdict, lang: Lang) -> &'static str {
    match (v, lang) {
        (Verdict::RedMustVary, Lang::En) => "Red must vary",
        (Verdict::BlackMustVary, Lang::En) => "Black must vary",
        (Verdict::Draw, Lang::En) => "draw",
        (Verdict::Undetermined, Lang::En) => "undetermined",
        (Verdict::None, Lang::En) => "none",
        (Verdict::RedMustVary, Lang::Zh) => "红方变着",
        (Verdict::BlackMustVary, Lang::Zh) => "黑方变着",
        (Verdict::Draw, Lang::Zh) => "不变作和",
        (Verdict::Undetermined, Lang::Zh) => "未定",
        (Verdict::None, Lang::Zh) => "无",
    }
}

/// The span of a cycle: "moves 9-13, plies 16-25" / "第9-13回合（第16-25步）".
pub fn cycle_span(cycle: &Cycle, start: &Position, lang: Lang) -> String {
    let first = cycle.start_ply + 1;
    let last = cycle.end_ply.max(first);
    let (a, b) = (move_number(start, first), move_number(start, last));
    match lang {
        Lang::En => format!("moves {a}-{b}, plies {first}-{last}"),
        Lang::Zh => format!("第{a}-{b}回合（第{first}-{last}步）"),
    }
}

/// A limit profile's Chinese name (a custom profile keeps its own name).
fn profile_zh(name: &str) -> &str {
    match name {
        "slow" => "慢棋",
        "rapid" => "快棋",
        "armageddon" => "超快棋附加赛",
        "amateur40" => "业余40回合",
        other => other,
    }
}

/// A side's pattern in Chinese: 禁止着法, 允许着法 or 未定.
fn pattern_zh(pattern: &str) -> &str {
    match pattern {
        "forbidden" => "禁止着法",
        "allowed" => "允许着法",
        "undetermined" => "未定",
        other => other,
    }
}

/// One cycle, in the lines of `lang` (each indented by `indent`).
fn cycle_lines(out: &mut String, c: &Cycle, start: &Position, lang: TextLang, indent: &str) {
    for &l in lang.langs() {
        let _ = match l {
            Lang::Zh => writeln!(
                out,
                "{indent}循环：{}，第{}次出现：红方{}（{}），黑方{}（{}）：{}\n{indent}  {}",
                cycle_span(c, start, l),
                c.occurrences,
                c.red.name,
                pattern_zh(&c.red.pattern),
                c.black.name,
                pattern_zh(&c.black.pattern),
                verdict_text(c.verdict, l),
                c.reason_zh
            ),
            Lang::En => writeln!(
                out,
                "{indent}cycle: {}, occurrence {}: Red {} ({}), Black {} ({}): {}\n{indent}  red: {}; black: {}\n{indent}  {}",
                cycle_span(c, start, l),
                c.occurrences,
                c.red.name,
                c.red.pattern,
                c.black.name,
                c.black.pattern,
                verdict_text(c.verdict, l),
                c.red.natures.join(" "),
                c.black.natures.join(" "),
                c.reason_en
            ),
        };
    }
}

/// Pads to a display width, counting CJK characters as two columns.
fn pad(s: &str, width: usize) -> String {
    let w: usize = s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
    format!("{s}{}", " ".repeat(width.saturating_sub(w)))
}

/// The text of `xqa adjudicate`: the moves with their natures (move number beside the ply), the
/// cycles, the natural move limit status and the verdict.
pub fn adjudicate_text(report: &Report, start: &Position, lang: TextLang) -> String {
    let mut out = String::new();
    if lang.zh() {
        let _ = writeln!(out, "规则：{}", report.rules);
    }
    if lang.en() {
        let _ = writeln!(out, "rules: {}", report.rules);
    }
    let head = match lang {
        TextLang::Zh => format!(
            "{}  {}  {}  {:<5} {} {} 目标",
            pad("步", 4),
            pad("回合", 4),
            pad("方", 5),
            "ICCS",
            pad("着法", 8),
            pad("性质", 16)
        ),
        _ => format!(
            "{:>4}  {:>4}  {:<5}  {:<5} {:<8} {:<16} targets",
            "ply", "move", "side", "iccs", "move", "nature"
        ),
    };
    let _ = writeln!(out, "{head}");
    for (m, n) in report.moves.iter().zip(&report.natures) {
        let mv = m.chinese.clone().unwrap_or_else(|| m.iccs.clone());
        let nature = match (n.idle_kind, lang) {
            (Some(k), TextLang::Zh) => format!("{}（{}）", n.kind.name_zh(), k.name_zh()),
            (Some(k), TextLang::En) => format!("{} ({})", n.kind.name(), k.name()),
            (Some(k), TextLang::Both) => {
                format!("{}（{}） {}", n.kind.name_zh(), k.name_zh(), k.name())
            }
            (None, TextLang::Zh) => n.kind.name_zh().to_owned(),
            (None, TextLang::En) => n.kind.name().to_owned(),
            (None, TextLang::Both) => format!("{} {}", n.kind.name_zh(), n.kind.name()),
        };
        let targets: Vec<String> = n
            .targets
            .iter()
            .map(|t| {
                let by: Vec<String> = t.by.iter().map(|s| s.to_string()).collect();
                if lang == TextLang::Zh {
                    let joint = if t.joint { "（联捉）" } else { "" };
                    return format!("{}{}{joint}←{}", t.piece.glyph(), t.square, by.join("+"));
                }
                format!(
                    "{}{}{} by {} ({})",
                    t.piece.glyph(),
                    t.square,
                    if t.joint { " joint" } else { "" },
                    t.how.name(),
                    by.join("+")
                )
            })
            .collect();
        let side = match lang {
            TextLang::Zh => m.side.name_zh().to_owned(),
            _ => m.side.name().to_owned(),
        };
        let _ = writeln!(
            out,
            "{:>4}  {:>4}  {}  {:<5} {} {} {}",
            m.ply,
            move_number(start, m.ply),
            pad(&side, 5),
            m.iccs,
            pad(&mv, 8),
            pad(&nature, 16),
            targets.join(", ")
        );
    }
    if report.cycles.is_empty() {
        out.push('\n');
        if lang.zh() {
            out.push_str("无重复局面\n");
        }
        if lang.en() {
            out.push_str("no position repeated\n");
        }
    }
    for c in &report.cycles {
        out.push('\n');
        cycle_lines(&mut out, c, start, lang, "");
    }
    if let Some(nl) = &report.natural_limit {
        out.push('\n');
        for &l in lang.langs() {
            let _ = match l {
                Lang::Zh => writeln!(
                    out,
                    "自然限着（{}）：第{}步后：",
                    profile_zh(&nl.profile),
                    nl.at_ply
                ),
                Lang::En => writeln!(
                    out,
                    "natural move limit ({}) at ply {}:",
                    nl.profile, nl.at_ply
                ),
            };
            for r in [&nl.red, &nl.black] {
                let _ = writeln!(out, "  {}", r.verdict_text(l));
            }
        }
    }
    out.push('\n');
    if lang.zh() {
        let _ = writeln!(out, "裁决：{}", verdict_text(report.verdict, Lang::Zh));
    }
    if lang.en() {
        let _ = writeln!(out, "verdict: {}", report.verdict.name());
    }
    out
}

/// The text lines of `xqa screen` for one game (none for a game without incident or error).
pub fn screen_text(g: &GameScreen, start: &Position, lang: TextLang) -> String {
    let mut out = String::new();
    let who = match (&g.red, &g.black) {
        (Some(r), Some(b)) => format!(" ({r} - {b})"),
        _ => String::new(),
    };
    let head = format!("{} game {}{who}", g.source, g.game);
    for i in &g.incidents {
        let due = match (i.ruling_due, lang) {
            (false, _) => "",
            (true, TextLang::Zh) => "（应裁决）",
            (true, _) => " (ruling due)",
        };
        let _ = writeln!(out, "{head}{due}:");
        cycle_lines(&mut out, &i.cycle, start, lang, "    ");
        let label = if lang == TextLang::Zh {
            "循环着法："
        } else {
            "loop: "
        };
        let _ = writeln!(out, "    {label}{}", i.moves_chinese.join(" "));
    }
    for l in &g.limit {
        for &lg in lang.langs() {
            let _ = match lg {
                Lang::En => writeln!(
                    out,
                    "{head}: natural move limit: a claim by {} would be valid from ply {} (move {}; {} moves \
                     counted of {} since ply {}{})",
                    l.claimant.name(),
                    l.ply,
                    move_number(start, l.ply.max(1) as usize),
                    l.counted,
                    l.required,
                    l.window_start_ply,
                    if !l.admissible {
                        "; refusable: too many attacking pieces"
                    } else if !l.valid {
                        "; but the game ends on the board there"
                    } else {
                        ""
                    },
                ),
                Lang::Zh => writeln!(
                    out,
                    "{head}：自然限着：{}方自第{}步（第{}回合）起可要求判和（第{}步后计{}着，须{}着{}）",
                    l.claimant.name_zh(),
                    l.ply,
                    move_number(start, l.ply.max(1) as usize),
                    l.window_start_ply,
                    l.counted,
                    l.required,
                    if !l.admissible {
                        "；进攻子力过多，可不予判和"
                    } else if !l.valid {
                        "；但该着时棋局已分胜负"
                    } else {
                        ""
                    },
                ),
            };
        }
    }
    if !g.undetermined.is_empty() {
        let plies: Vec<String> = g.undetermined.iter().map(|p| p.to_string()).collect();
        let _ = writeln!(
            out,
            "{head}: nature undetermined (search budget) at plies {}",
            plies.join(", ")
        );
    }
    if let (true, Some(e)) = (g.unreadable, &g.error) {
        let _ = writeln!(out, "{}: cannot be read: {e}", g.source);
    } else if let Some(e) = &g.error {
        let _ = writeln!(out, "{head}: screened {} plies only: {e}", g.plies);
    }
    out
}
