//! The ruling sheet: one self-contained HTML page, printable on A4, that an arbiter hands to the
//! players or to the appeals committee. It holds the event, the players and the date; an inline
//! SVG board at the start of the cycle (or at the claim ply); the moves of the cycle (or the
//! counting window) with their natures; and the verdict and the rule applied, in Chinese and
//! English.

use super::adjudicate::{AdjudicateOptions, adjudicate_line};
use super::claim::{ClaimRequest, claim};
use super::{GameInput, Line, ServiceError};
use crate::rules::limit::Lang;
use crate::rules::repetition::Verdict;
use crate::svg::escape;
use std::fmt::Write;

const STYLE: &str = r#"
@page { size: A4; margin: 14mm; }
body { font-family: 'Noto Serif CJK SC','Source Han Serif SC','SimSun',serif; color:#222; margin:0 auto; max-width:182mm; font-size:10pt; }
h1 { font-size:17pt; margin:0 0 2mm; border-bottom:2px solid #5a3a1a; padding-bottom:2mm; }
h2 { font-size:13pt; margin:5mm 0 2mm; color:#5a3a1a; }
table { border-collapse:collapse; width:100%; }
td, th { border:1px solid #bbb; padding:1mm 2mm; text-align:left; vertical-align:top; }
th { background:#f4ead8; }
.meta td { border:none; padding:0.2mm 2mm 0.2mm 0; }
.layout { display:flex; gap:6mm; align-items:flex-start; }
.board svg { width:78mm; height:auto; }
.verdict { font-size:14pt; font-weight:bold; margin:2mm 0; padding:2mm 3mm; border:2px solid #c8102e; }
.rule { margin:1mm 0; }
.sign { margin-top:6mm; display:flex; justify-content:space-between; }
.sign div { border-top:1px solid #444; width:55mm; padding-top:1mm; font-size:9pt; }
.bad { color:#c8102e; font-weight:bold; }
.window { columns: 3; column-gap: 4mm; font-size: 8.5pt; }
.window span { display:block; break-inside: avoid; white-space: nowrap; }
.outcome { font-size:12pt; font-weight:bold; margin:2mm 0; padding:1.5mm 3mm; border:1px solid #5a3a1a; }
"#;

/// The outcome of the ruling under the regulations, in both languages.
fn outcome_block(out: &mut String, o: &crate::rules::outcome::Outcome) {
    let _ = writeln!(
        out,
        "<h2>结果 Outcome</h2><div class=\"outcome\">{}</div><p class=\"rule\">{}</p><p class=\"rule\">{}</p>",
        escape(o.result.as_deref().unwrap_or("未定 none yet")),
        escape(&o.reason_zh),
        escape(&o.reason_en)
    );
}

fn tag<'a>(line: &'a Line, name: &str) -> &'a str {
    line.entry
        .as_ref()
        .and_then(|e| e.game.tag(name))
        .unwrap_or("")
}

fn head(out: &mut String, title: &str, line: &Line, regulations: Option<(String, String)>) {
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"zh\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head><body>\n",
        escape(title)
    );
    let _ = writeln!(out, "<h1>{}</h1>", escape(title));
    let event = tag(line, "Event");
    let site = tag(line, "Site");
    let round = tag(line, "Round");
    let _ = writeln!(out, "<table class=\"meta\">");
    let row = |out: &mut String, k: &str, v: &str| {
        let _ = writeln!(
            out,
            "<tr><td><b>{k}</b></td><td>{}</td></tr>",
            if v.is_empty() {
                "—".to_string()
            } else {
                escape(v)
            }
        );
    };
    row(out, "赛事 Event", event);
    if let Some((zh, en)) = regulations {
        row(
            out,
            "比赛规程 Regulations",
            &format!("{} / {}", zh.trim(), en.trim()),
        );
    }
    if !site.is_empty() || !round.is_empty() {
        row(out, "地点·轮次 Site, round", &format!("{site} {round}"));
    }
    row(out, "红方 Red", tag(line, "Red"));
    row(out, "黑方 Black", tag(line, "Black"));
    row(out, "日期 Date", tag(line, "Date"));
    let result = line
        .entry
        .as_ref()
        .and_then(|e| e.game.result)
        .map(|r| r.token())
        .unwrap_or("");
    row(out, "记录结果 Recorded result", result);
    let _ = writeln!(out, "</table>");
}

fn tail(out: &mut String) {
    out.push_str(
        "<div class=\"sign\"><div>裁判长 Chief arbiter</div><div>裁判员 Arbiter</div><div>日期 Date</div></div>\n</body></html>\n",
    );
}

/// The board after `ply` plies of the line, with a caption, as inline SVG (no XML prologue).
fn board_at(line: &Line, ply: usize, caption: &str) -> String {
    let pos = super::position_after(&line.start, &line.moves, ply);
    let last = ply.checked_sub(1).and_then(|i| line.moves.get(i)).copied();
    let svg = crate::svg::position(&pos, last, Some(caption));
    match svg.find("<svg") {
        Some(i) => svg[i..].to_string(),
        None => svg,
    }
}

fn verdict_names(v: Verdict) -> (&'static str, &'static str) {
    match v {
        Verdict::RedMustVary => ("红方必须变着", "Red must vary"),
        Verdict::BlackMustVary => ("黑方必须变着", "Black must vary"),
        Verdict::Draw => ("不变作和", "Draw (neither side must vary)"),
        Verdict::Undetermined => ("无法判定（搜索超出预算）", "Undetermined (search budget)"),
        Verdict::None => ("无循环", "No repetition"),
    }
}

/// The ruling sheet of `adjudicate`: the most recent repetition cycle (the one the ruling is
/// on), its start position, its moves with their natures, and the verdict with its reason.
pub fn adjudicate_sheet(
    input: &GameInput,
    options: &AdjudicateOptions,
) -> Result<String, ServiceError> {
    let (report, line) = adjudicate_line(input, options)?;
    let mut out = String::new();
    let regulations = report.event.as_ref().map(|e| {
        let tc = report.time_control.as_deref().unwrap_or("");
        let mut zh = format!("{e}，赛制 {tc}");
        let mut en = format!("{e}, time control {tc}");
        for o in &report.overrides {
            zh.push_str(&format!("；{}", o.text(Lang::Zh)));
            en.push_str(&format!("; {}", o.text(Lang::En)));
        }
        (zh, en)
    });
    head(
        &mut out,
        "重复局面裁决书 Repetition ruling",
        &line,
        regulations,
    );
    let _ = writeln!(
        out,
        "<p>规则 Rules: <b>{}</b> · 共 {} 步 plies</p>",
        escape(&report.rules.to_uppercase()),
        report.moves.len()
    );
    let (zh, en) = verdict_names(report.verdict);
    match report.cycles.last() {
        None => {
            let _ = writeln!(
                out,
                "<div class=\"verdict\">{zh} · {en}</div><p>本局没有重复局面。No position of the game repeats.</p>"
            );
        }
        Some(c) => {
            let _ = writeln!(out, "<div class=\"layout\"><div class=\"board\">");
            out.push_str(&board_at(
                &line,
                c.start_ply,
                &format!("循环起点 cycle start: ply {}", c.start_ply),
            ));
            let _ = writeln!(out, "</div><div>");
            let _ = writeln!(
                out,
                "<h2>循环 Cycle: ply {}–{} ({}次 occurrences){}</h2>",
                c.start_ply + 1,
                c.end_ply,
                c.occurrences,
                c.due_ply.map_or(String::new(), |p| format!(
                    " · 第{p}步裁决生效 ruling due at ply {p}"
                ))
            );
            let _ = writeln!(
                out,
                "<table><tr><th>步 Ply</th><th>方 Side</th><th>着法 Move</th><th>性质 Nature</th><th>目标 Targets</th></tr>"
            );
            for m in &report.moves[c.start_ply..c.end_ply.min(report.moves.len())] {
                let nature = report
                    .natures
                    .get(m.ply - 1)
                    .map(|n| match n.idle_kind {
                        Some(k) => format!("{}({}) {}", n.kind.name_zh(), k.name_zh(), k.name()),
                        None => format!("{} {}", n.kind.name_zh(), n.kind.name()),
                    })
                    .unwrap_or_default();
                let targets: Vec<String> = m
                    .targets
                    .iter()
                    .map(|t| {
                        format!(
                            "{}{}{}",
                            t.piece,
                            t.square,
                            if t.joint { " (joint)" } else { "" }
                        )
                    })
                    .collect();
                let _ = writeln!(
                    out,
                    "<tr><td>{}</td><td>{}</td><td>{} <small>{}</small></td><td>{}</td><td>{}</td></tr>",
                    m.ply,
                    if m.side == crate::Color::Red {
                        "红 Red"
                    } else {
                        "黑 Black"
                    },
                    escape(m.chinese.as_deref().unwrap_or("")),
                    m.iccs,
                    escape(&nature),
                    escape(&targets.join(", "))
                );
            }
            let _ = writeln!(out, "</table>");
            let _ = writeln!(
                out,
                "<p>红方 Red: {} ({}) · 黑方 Black: {} ({})</p>",
                escape(&c.red.name),
                escape(&c.red.pattern),
                escape(&c.black.name),
                escape(&c.black.pattern)
            );
            let _ = writeln!(out, "</div></div>");
            let (zh, en) = verdict_names(c.verdict);
            let _ = writeln!(
                out,
                "<h2>裁决 Ruling</h2><div class=\"verdict\">{zh} · {en}</div>"
            );
            let _ = writeln!(
                out,
                "<p class=\"rule\">{}</p><p class=\"rule\">{}</p>",
                escape(&c.reason_zh),
                escape(&c.reason_en)
            );
            if let Some(d) = &report.early_draw {
                let _ = writeln!(
                    out,
                    "<p class=\"bad\">{} · {}</p>",
                    escape(&d.reason_zh),
                    escape(&d.reason_en)
                );
            }
            if report.cycles.len() > 1 {
                let _ = writeln!(
                    out,
                    "<p><small>本局共 {} 个循环，此为最后一个。The game has {} cycles; this is the last.</small></p>",
                    report.cycles.len(),
                    report.cycles.len()
                );
            }
        }
    }
    if let Some(o) = &report.outcome {
        outcome_block(&mut out, o);
    }
    tail(&mut out);
    Ok(out)
}

/// The ruling sheet of a natural move limit claim: the position at the claim ply, the
/// claimant's moves of the counting window with their natures and whether they count, and the
/// verdict with the rule applied.
pub fn claim_sheet(input: &GameInput, request: &ClaimRequest) -> Result<String, ServiceError> {
    let outcome = claim(input, request)?;
    let r = &outcome.report;
    let mut out = String::new();
    let regulations = outcome
        .regulations
        .as_ref()
        .map(|g| (g.line(Lang::Zh), g.line(Lang::En)));
    head(
        &mut out,
        "自然限着裁决书 Natural move limit ruling",
        &outcome.line,
        regulations,
    );
    let side = |c: crate::Color| {
        if c == crate::Color::Red {
            "红方 Red"
        } else {
            "黑方 Black"
        }
    };
    let _ = writeln!(
        out,
        "<p>提和方 Claimant: <b>{}</b> · 限着 Profile: <b>{}</b> · 提和于第 {} 步 claim at ply {}{}</p>",
        side(r.claimant),
        escape(&r.profile),
        outcome.at,
        outcome.at,
        match r.valid_from_ply {
            Some(p) => format!(" · 自第 {p} 步起成立 valid from ply {p}"),
            None => " · 从未成立 valid at no ply".into(),
        }
    );
    if let Some(made) = r.claimed_at_ply {
        let _ = writeln!(
            out,
            "<p>对局终了后（签字前，第 {made} 步）提出，按限着成立时（第 {at} 步）裁决。Claimed after the game (ply {made}), before signing: ruled as at ply {at}, when it became valid.</p>",
            at = r.at_ply
        );
    }
    let _ = writeln!(out, "<div class=\"layout\"><div class=\"board\">");
    out.push_str(&board_at(
        &outcome.line,
        r.at_ply as usize,
        &format!("提和局面 claim position: ply {}", r.at_ply),
    ));
    let _ = writeln!(out, "</div><div>");
    let _ = writeln!(
        out,
        "<h2>计数窗口 Window: ply {}–{}</h2><p>计入 counted {} · 不计 void {} · 需要 required {} · 对方 opponent {}/{}</p>",
        r.window_start_ply + 1,
        r.window_end_ply,
        r.counted,
        r.void,
        r.required,
        r.opponent_moves,
        r.opponent_needed
    );
    // The claimant's moves flow in columns, so that a full window fits on the page.
    let _ = writeln!(out, "<div class=\"window\">");
    for m in &r.moves {
        let _ = writeln!(
            out,
            "<span>{} {} <small>{}</small> {}{}</span>",
            m.ply,
            escape(m.chinese.as_deref().unwrap_or("")),
            m.mv.map(|m| m.to_string()).unwrap_or_default(),
            m.nature.name_zh(),
            if m.counted {
                " ✓".to_string()
            } else {
                match m.void {
                    Some(v) => format!(" <b class=\"bad\">不计 void ({v:?})</b>"),
                    None => String::new(),
                }
            }
        );
    }
    let _ = writeln!(
        out,
        "</div><p><small>✓ 计入 counted · 将 check 杀 mate threat 捉 chase 闲 idle</small></p>"
    );
    let _ = writeln!(out, "</div></div>");
    let _ = writeln!(
        out,
        "<h2>裁决 Ruling</h2><div class=\"verdict\">{} · {}</div>",
        escape(&r.verdict_text(Lang::Zh)),
        escape(&r.verdict_text(Lang::En))
    );
    let _ = writeln!(
        out,
        "<p class=\"rule\">{}</p><p class=\"rule\">{}</p>",
        escape(&r.rule_text(Lang::Zh)),
        escape(&r.rule_text(Lang::En))
    );
    outcome_block(&mut out, &outcome.outcome);
    tail(&mut out);
    Ok(out)
}
