//! The JSON of the single-game rulings, `xqa adjudicate` and `xqa claim`, in the report schema:
//! the rules' reports with the schema's move objects, the game header and the record's error.

use super::schema::{self, move_objects, versioned};
use crate::Position;
use crate::rules::adjudicate::Report;
use crate::rules::limit::LimitReport;
use serde_json::{Value, json};

/// The object `xqa adjudicate --json` prints: `{"schema":1,"header","error","rules","moves",
/// "cycles","verdict","natural_limit"}`; each move is a move object with its `nature`,
/// `idle_kind`, `targets` and `capture`.
pub fn adjudicate_json(report: &Report, start: &Position, header: Value, error: Value) -> Value {
    let moves: Vec<crate::Move> = report.natures.iter().map(|n| n.mv).collect();
    let mut v = serde_json::to_value(report).expect("report serialises");
    if let Some(list) = v["moves"].as_array_mut() {
        for (m, canon) in list.iter_mut().zip(move_objects(start, &moves)) {
            if let (Value::Object(obj), Value::Object(c)) = (m, canon) {
                obj.extend(c);
            }
        }
    }
    if let Some(list) = v["cycles"].as_array_mut() {
        for (c, cycle) in list.iter_mut().zip(&report.cycles) {
            schema::add_cycle_span(c, cycle, start);
        }
    }
    if let Some(nl) = &report.natural_limit {
        v["natural_limit"]["red"] = schema::limit_report(&nl.red, start);
        v["natural_limit"]["black"] = schema::limit_report(&nl.black, start);
    }
    v["header"] = header;
    v["error"] = error;
    versioned(v)
}

/// The object `xqa claim --json` prints: the limit report with `"schema":1`, `header` and
/// `error`.
pub fn claim_json(report: &LimitReport, start: &Position, header: Value, error: Value) -> Value {
    let mut v = schema::limit_report(report, start);
    v["header"] = header;
    v["error"] = error;
    versioned(v)
}

/// The object `xqa show --json` prints: `{"schema":1,"header","error","at","move_number",
/// "fen","turn","last_move","status","moves"}`: the position after `at` plies, the last move
/// played (a move object) and the line's moves.
pub fn show_json(
    start: &Position,
    moves: &[crate::Move],
    at: u32,
    position: &Position,
    header: Value,
    error: Value,
) -> Value {
    let all = move_objects(start, moves);
    let status = if position.is_checkmate() {
        "checkmate"
    } else if position.is_stalemate() {
        "stalemate"
    } else if position.is_check() {
        "check"
    } else {
        "none"
    };
    versioned(json!({
        "header": header,
        "error": error,
        "at": at,
        "fen": position.fen(),
        "turn": position.turn(),
        "status": status,
        "last_move": at.checked_sub(1).map(|i| all[i as usize].clone()),
        "moves": all,
    }))
}
