//! The text reports of `xqa adjudicate` and `xqa screen` in Chinese, English or both
//! (`--lang zh|en|both`). Plies are numbered as in the JSON (a cycle's `first_ply`-`last_ply`),
//! with the move numbers (回合) beside them: "moves 9-13, plies 16-25", "第9-13回合（第16-25步）".

use super::schema::move_number;
use crate::Position;
use crate::record::RecordError;
use crate::rules::adjudicate::Report;
use crate::rules::limit::Lang;
use crate::rules::repetition::{Cycle, Verdict};
use crate::rules::screen::{GameScreen, ScreenSummary};
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
    pub fn langs(self) -> &'static [Lang] {
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

/// A rules profile's name in Chinese (a custom profile keeps its own name).
pub fn rules_zh(name: &str) -> &str {
    match name {
        "cxa" => "中国象棋协会规则",
        "axf" => "亚洲象棋联合会规则",
        other => other,
    }
}

/// What an error kind means, in Chinese.
fn error_kind_zh(kind: &str) -> &'static str {
    match kind {
        "io" => "无法读取",
        "encoding" => "文字编码有误",
        "unknown_format" => "不是可识别格式的棋谱",
        "record_syntax" => "棋谱格式有误",
        "truncated" => "文件不完整",
        "bad_header" => "文件头有误",
        "bad_position" => "起始局面有误",
        "illegal_move" => "着法违规",
        "no_moves" => "棋谱中没有着法",
        "unknown_notation" => "无法识别的记谱法",
        "too_large" => "棋局超出上限，已跳到下一局",
        "no_such_game" => "文件中没有这一局",
        "syntax" => "着法写法有误",
        "no_piece" => "没有这个棋子",
        "wrong_side" => "走的是对方的棋子",
        "ambiguous" => "着法有歧义，可指不同棋子",
        "illegal_movement" => "棋子不能这样走",
        "leaves_king_in_check" => "走后己方将帅被将",
        "kings_facing" => "走后将帅照面",
        "skipped" => "已跳过：不是普通文件",
        _ => "棋谱有误",
    }
}

/// A record's error in Chinese, located as [`RecordError`]'s `Display` locates it (file,
/// line and column or byte offset, game, ply, and the move number when `start` is known), the
/// move text in 「」, what is wrong, and the moves the writer probably meant.
pub fn error_zh(e: &RecordError, start: Option<&Position>) -> String {
    let mut s = String::new();
    if !e.source.is_empty() {
        s.push_str(&e.source);
        if e.line > 0 {
            let _ = write!(s, ":{}:{}", e.line, e.column);
        } else if let Some(o) = e.offset {
            let _ = write!(s, " @{o:#x}");
        }
        s.push('：');
    } else if e.line > 0 {
        let _ = write!(s, "第{}行第{}列：", e.line, e.column);
    }
    let _ = write!(s, "第{}局", e.game + 1);
    if let Some(ply) = e.ply {
        let _ = write!(s, "，第{ply}步");
        if let Some(p) = start.filter(|_| ply > 0) {
            let _ = write!(s, "（第{}回合）", move_number(p, ply));
        }
    }
    if let Some(t) = &e.move_text {
        let _ = write!(s, "「{t}」");
    }
    let _ = write!(s, "：{}", error_kind_zh(&e.kind));
    // (What the system said of a file it could not read is its own words.)
    if e.kind == "io" && !e.message.is_empty() {
        let _ = write!(s, "（{}）", e.message);
    }
    if e.message.contains("seems to be missing") {
        let side = if e.message.contains("a move of black") {
            "黑方"
        } else {
            "红方"
        };
        let _ = write!(s, "；似乎此前漏记了{side}的一着");
        if !e.suggestions.is_empty() {
            let _ = write!(s, "，可能是：{}", e.suggestions.join("、"));
        }
    } else if !e.suggestions.is_empty() {
        let _ = write!(s, "；是否应为{}？", e.suggestions.join("或"));
    }
    s
}

/// The score-sheet repairs of a record error, one line per language (Chinese first), as
/// `xqa validate` and `xqa repair` print them below the error: "ply 37 (move 19, Red) 马二进三
/// cannot be played. Likely: Black's move 18 was left out; with 车９平８ there the rest replays
/// to the end." Alternatives follow, and a note when the search's budget cut it short. Empty
/// when the error has no repair.
pub fn repair_lines(e: &RecordError, start: &Position, lang: TextLang) -> String {
    let mut s = String::new();
    let (Some(first), Some(ply)) = (e.repairs.first(), e.ply) else {
        return s;
    };
    let (side, number) = crate::record::repair::side_number(start, ply);
    let text = e.move_text.as_deref().unwrap_or("?");
    let others = &e.repairs[1..];
    for &lg in lang.langs() {
        let _ = match lg {
            Lang::Zh => {
                let side = if side == crate::Color::Red {
                    "红方"
                } else {
                    "黑方"
                };
                let _ = write!(
                    s,
                    "第{ply}步（第{number}回合，{side}）「{text}」无法走。可能：{}",
                    first.explanation_zh
                );
                for r in others {
                    let _ = write!(s, "或者：{}", r.explanation_zh);
                }
                if e.repairs_cut_short {
                    s.push_str("（搜索达到预算上限，未尝试全部修正）");
                }
                writeln!(s)
            }
            Lang::En => {
                let side = if side == crate::Color::Red {
                    "Red"
                } else {
                    "Black"
                };
                let _ = write!(
                    s,
                    "ply {ply} (move {number}, {side}) {text} cannot be played. Likely: {}",
                    first.explanation_en
                );
                for r in others {
                    let _ = write!(s, " Or: {}", r.explanation_en);
                }
                if e.repairs_cut_short {
                    s.push_str(" (The search reached its budget before trying every repair.)");
                }
                writeln!(s)
            }
        };
    }
    s
}

/// The line of `xqa screen` for a file that holds no game record.
pub fn not_a_record_line(source: &str, lang: TextLang) -> String {
    let mut s = String::new();
    if lang.zh() {
        let _ = writeln!(s, "{source}：不是可识别格式的棋谱");
    }
    if lang.en() {
        let _ = writeln!(s, "{source}: not a game record in any known format");
    }
    s
}

/// The line of `xqa screen` for a directory entry skipped as not a regular file.
pub fn skipped_line(skipped: &RecordError, lang: TextLang) -> String {
    let mut s = String::new();
    if lang.zh() {
        let _ = writeln!(s, "{}：{}", skipped.source, error_kind_zh(&skipped.kind));
    }
    if lang.en() {
        let _ = writeln!(s, "{}: {}", skipped.source, skipped.message);
    }
    s
}

/// The summary line of `xqa screen` (the English one is [`ScreenSummary`]'s `Display`).
pub fn screen_summary(s: &ScreenSummary, lang: TextLang) -> String {
    let mut out = String::new();
    if lang.zh() {
        let rate = if s.seconds > 0.0 {
            s.plies as f64 / s.seconds
        } else {
            0.0
        };
        let _ = write!(
            out,
            "共{}局，检查{}步，用时{:.2}秒（每秒{:.0}步）：{}局中报告循环{}次（其中{}次应裁决），\
             性质未定{}着，无效棋局{}局，无法读取{}个",
            s.games,
            s.plies,
            s.seconds,
            rate,
            s.games_with_incidents,
            s.incidents,
            s.rulings_due,
            s.undetermined_moves,
            s.invalid,
            s.unreadable
        );
        if s.early_draws > 0 {
            let _ = write!(out, "，{}局在允许提和之前记为和棋", s.early_draws);
        }
        if s.not_records > 0 {
            let _ = write!(out, "，{}个文件不是棋谱", s.not_records);
        }
        if s.skipped > 0 {
            let _ = write!(out, "，跳过{}个非普通文件", s.skipped);
        }
    }
    if lang.en() {
        if !out.is_empty() {
            out.push('\n');
        }
        let _ = write!(out, "{s}");
    }
    out
}

/// A limit profile's Chinese name (a custom profile keeps its own name).
fn profile_zh(name: &str) -> &str {
    match name {
        "slow" => "慢棋",
        "rapid" => "快棋",
        "armageddon" => "超快棋附加赛",
        "super_rapid" => "超快棋",
        "group" => "小组赛",
        "knockout" => "淘汰赛首局",
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
        let _ = writeln!(out, "规则：{}", rules_zh(&report.rules));
    }
    if lang.en() {
        let _ = writeln!(out, "rules: {}", report.rules);
    }
    if let Some(e) = &report.event {
        let tc = report.time_control.as_deref().unwrap_or("");
        if lang.zh() {
            let _ = writeln!(out, "赛事：{e}，赛制：{}", profile_zh(tc));
        }
        if lang.en() {
            let _ = writeln!(out, "event: {e}, time control {tc}");
        }
        for o in &report.overrides {
            for &l in lang.langs() {
                let _ = writeln!(out, "  {}", o.text(l));
            }
        }
    }
    if let Some(d) = &report.early_draw {
        if lang.zh() {
            let _ = writeln!(out, "提前和棋：{}", d.reason_zh);
        }
        if lang.en() {
            let _ = writeln!(
                out,
                "early draw: recorded {} after {} moves, but the event allows no draw offers within {} moves\n  {}",
                d.result, d.moves, d.within, d.reason_en
            );
        }
    }
    // (Under both languages the side column holds "红 red" and the header has a line in each.)
    let side_width = if lang == TextLang::Both { 8 } else { 5 };
    let zh_head = format!(
        "{}  {}  {}  {:<5} {} {} 目标",
        pad("步", 4),
        pad("回合", 4),
        pad("方", side_width),
        "ICCS",
        pad("着法", 8),
        pad("性质", 16)
    );
    let en_head = format!(
        "{:>4}  {:>4}  {}  {:<5} {:<8} {:<16} targets",
        "ply",
        "move",
        pad("side", side_width),
        "iccs",
        "move",
        "nature"
    );
    let head = match lang {
        TextLang::Zh => zh_head,
        TextLang::En => en_head,
        TextLang::Both => format!("{zh_head}\n{en_head}"),
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
                let joint = if t.joint { "（联捉）" } else { "" };
                let zh = format!("{}{}{joint}←{}", t.piece.glyph(), t.square, by.join("+"));
                match lang {
                    TextLang::Zh => return zh,
                    TextLang::Both => {
                        let joint = if t.joint { "joint " } else { "" };
                        return format!("{zh} ({joint}by {})", t.how.name());
                    }
                    TextLang::En => {}
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
            TextLang::En => m.side.name().to_owned(),
            TextLang::Both => format!("{} {}", m.side.name_zh(), m.side.name()),
        };
        let _ = writeln!(
            out,
            "{:>4}  {:>4}  {}  {:<5} {} {} {}",
            m.ply,
            move_number(start, m.ply),
            pad(&side, side_width),
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
                    "自然限着（{}）：第{}回合（第{}步）后：",
                    profile_zh(&nl.profile),
                    move_number(start, (nl.at_ply as usize).max(1)),
                    nl.at_ply
                ),
                Lang::En => writeln!(
                    out,
                    "natural move limit ({}) at ply {} (move {}):",
                    nl.profile,
                    nl.at_ply,
                    move_number(start, (nl.at_ply as usize).max(1))
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
    if let Some(o) = &report.outcome {
        if lang.zh() {
            let _ = writeln!(
                out,
                "裁决结果：{}（{}）",
                o.result.as_deref().unwrap_or("未定"),
                o.reason_zh
            );
        }
        if lang.en() {
            let _ = writeln!(
                out,
                "outcome: {} ({})",
                o.result.as_deref().unwrap_or("none yet"),
                o.reason_en
            );
        }
    }
    out
}

/// The text lines of `xqa screen` for one game (none for a game without incident or error).
/// `record_error`: the record's own error (for the Chinese text, which words it from its kind).
pub fn screen_text(
    g: &GameScreen,
    start: &Position,
    record_error: Option<&RecordError>,
    lang: TextLang,
) -> String {
    // The error in Chinese: the record's own, or an illegal move the rules engine met.
    let error_zh_text = || match record_error {
        Some(e) if e.kind != crate::record::error::kind::NO_MOVES => {
            error_zh(e, (!g.unreadable).then_some(start))
        }
        _ => format!("第{}步着法违规", g.plies + 1),
    };
    let mut out = String::new();
    let who = match (&g.red, &g.black) {
        (Some(r), Some(b)) => format!(" ({r} - {b})"),
        _ => String::new(),
    };
    // (The players' names, as written, stand outside brackets: no English inside Chinese ones.)
    let who_zh = match (&g.red, &g.black) {
        (Some(r), Some(b)) => format!("，红方{r}，黑方{b}"),
        _ => String::new(),
    };
    let head_of = |l: Lang| match l {
        Lang::En => format!("{} game {}{who}", g.source, g.game),
        Lang::Zh => format!("{} 第{}局{who_zh}", g.source, g.game),
    };
    // The line naming the game above a cycle, in each language of the report.
    let head = match lang {
        TextLang::Zh => head_of(Lang::Zh),
        TextLang::En => head_of(Lang::En),
        TextLang::Both => format!("{} 第{}局 / game {}{who}", g.source, g.game, g.game),
    };
    for i in &g.incidents {
        let due = match (i.ruling_due, lang) {
            (false, _) => "",
            (true, TextLang::Zh) => "（应裁决）",
            (true, TextLang::En) => " (ruling due)",
            (true, TextLang::Both) => "（应裁决） (ruling due)",
        };
        let colon = if lang == TextLang::Zh { "：" } else { ":" };
        let _ = writeln!(out, "{head}{due}{colon}");
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
            let head = head_of(lg);
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
                    "{head}：自然限着：{}方自第{}回合（第{}步）起可要求判和（第{}步后计{}着，须{}着{}）",
                    l.claimant.name_zh(),
                    move_number(start, l.ply.max(1) as usize),
                    l.ply,
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
    if let Some(d) = &g.early_draw {
        for &lg in lang.langs() {
            let head = head_of(lg);
            let _ = match lg {
                Lang::En => writeln!(
                    out,
                    "{head}: recorded {} after {} moves, but the event allows no draw offers within {} moves\n    {}",
                    d.result, d.moves, d.within, d.reason_en
                ),
                Lang::Zh => writeln!(out, "{head}：{}", d.reason_zh),
            };
        }
    }
    if !g.undetermined.is_empty() {
        let plies: Vec<String> = g.undetermined.iter().map(|p| p.to_string()).collect();
        for &lg in lang.langs() {
            let head = head_of(lg);
            let _ = match lg {
                Lang::En => writeln!(
                    out,
                    "{head}: nature undetermined (search budget) at plies {}",
                    plies.join(", ")
                ),
                Lang::Zh => writeln!(
                    out,
                    "{head}：第{}步的性质未定（超出搜索预算）",
                    plies.join("、")
                ),
            };
        }
    }
    for &lg in lang.langs() {
        let _ = match (lg, g.unreadable, &g.error) {
            (Lang::En, true, Some(e)) => writeln!(out, "{}: cannot be read: {e}", g.source),
            (Lang::Zh, true, Some(_)) => {
                writeln!(out, "{}：无法读取：{}", g.source, error_zh_text())
            }
            (Lang::En, false, Some(e)) => {
                writeln!(out, "{}: screened {} plies only: {e}", head_of(lg), g.plies)
            }
            (Lang::Zh, false, Some(_)) => writeln!(
                out,
                "{}：只检查了前{}步：{}",
                head_of(lg),
                g.plies,
                error_zh_text()
            ),
            (_, _, None) => Ok(()),
        };
    }
    out
}
