//! The building blocks of the one report schema every `--json` output follows (published as
//! `docs/schema.json`): the move object, the game header, the error object, and the `"schema"`
//! version every top-level object carries.
//!
//! - move: `{"ply","move_number","side","iccs","chinese","wxf"}`: `ply` is the number of plies
//!   played once the move is made (1 for the first move of the line), `move_number` the 回合 it
//!   belongs to (counted on from the start position's FEN move number);
//! - header: `{"event","date","red","black","result","source":{"file","game"}}` (`game` 1-based);
//! - error: `{"kind","message","file","game","line","column","offset","ply","move_text",
//!   "suggestions","repairs","repairs_cut_short"}`, every field present, null when unknown
//!   (`offset` is for binary formats, `line` and `column` for text formats). `repairs`: the
//!   score-sheet repairs of a main-line move that cannot be played, best first, each
//!   `{"edits":[{"op","ply","iccs","text","ply2"}],"replays_to_end","plies_replayed",
//!   "explanation_en","explanation_zh"}` (see [`crate::record::repair`]).

use crate::record::{GameEntry, RecordError};
use crate::{Move, Notation, Position, print_move};
use serde_json::{Value, json};

/// The version of the report schema, carried as `"schema"` by every top-level JSON object.
pub const SCHEMA_VERSION: u32 = 1;

/// The 回合 (move number) of ply `ply` (1-based) of a line starting at `start`.
pub fn move_number(start: &Position, ply: usize) -> u32 {
    let black_first = u32::from(start.turn() == crate::Color::Black);
    start.fullmoves().max(1) + (ply as u32 - 1 + black_first) / 2
}

/// The move object of `m`, played in `pos` as ply `ply` of a line starting at `start`.
pub fn move_object(start: &Position, pos: &Position, m: Move, ply: usize) -> Value {
    json!({
        "ply": ply,
        "move_number": move_number(start, ply),
        "side": pos.turn(),
        "iccs": m.to_string(),
        "chinese": print_move(pos, m, Notation::Chinese),
        "wxf": print_move(pos, m, Notation::Wxf),
    })
}

/// The move objects of every move of a line (all legal).
pub fn move_objects(start: &Position, moves: &[Move]) -> Vec<Value> {
    let mut pos = *start;
    let mut out = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        out.push(move_object(start, &pos, m, i + 1));
        pos.play_unchecked(m);
    }
    out
}

/// The game header of a game read from a record.
pub fn header(entry: &GameEntry) -> Value {
    let game = &entry.game;
    let tag = |name: &str| {
        game.tag(name)
            .filter(|v| !v.trim().is_empty())
            .map(str::to_owned)
    };
    json!({
        "event": tag("Event"),
        "date": tag("Date"),
        "red": tag("Red"),
        "black": tag("Black"),
        "result": game.result.map(|r| r.token()),
        "source": {"file": entry.source, "game": entry.index + 1},
    })
}

/// The error object of a record error (`game` 1-based; unknown positions null).
pub fn error_object(e: &RecordError) -> Value {
    let known = |n: u64| (n > 0).then_some(n);
    let file = (!e.source.is_empty()).then_some(e.source.as_str());
    json!({
        "kind": e.kind,
        "message": e.message,
        "file": file,
        "game": file.map(|_| e.game + 1),
        "line": known(e.line),
        "column": known(e.column.into()),
        "offset": e.offset,
        "ply": e.ply,
        "move_text": e.move_text,
        "suggestions": e.suggestions,
        "repairs": e.repairs,
        "repairs_cut_short": e.repairs_cut_short,
    })
}

/// An error object that does not come from a record (a bad FEN, a bad option value, ...).
pub fn plain_error(kind: &str, message: &str) -> Value {
    json!({
        "kind": kind,
        "message": message,
        "file": null,
        "game": null,
        "line": null,
        "column": null,
        "offset": null,
        "ply": null,
        "move_text": null,
        "suggestions": [],
        "repairs": [],
        "repairs_cut_short": false,
    })
}

/// `obj` (a JSON object) with `"schema": 1` as its first field.
pub fn versioned(obj: Value) -> Value {
    let mut out = serde_json::Map::new();
    out.insert("schema".into(), SCHEMA_VERSION.into());
    if let Value::Object(map) = obj {
        for (k, v) in map {
            if k != "schema" {
                out.insert(k, v);
            }
        }
    }
    Value::Object(out)
}

/// A limit report (`claim`, and the natural limit section of `adjudicate`) in the schema: each
/// counted move carries the move object's fields (`iccs`, not `mv`; `move_number`, `side`).
pub fn limit_report(report: &crate::rules::limit::LimitReport, start: &Position) -> Value {
    let mut v = serde_json::to_value(report).expect("report serialises");
    if let Some(moves) = v["moves"].as_array_mut() {
        for (m, counted) in moves.iter_mut().zip(&report.moves) {
            if let Value::Object(obj) = m {
                let iccs = obj.remove("mv").unwrap_or(Value::Null);
                obj.insert("iccs".into(), iccs);
                obj.insert(
                    "move_number".into(),
                    move_number(start, counted.ply.max(1) as usize).into(),
                );
                obj.insert("side".into(), json!(report.claimant));
            }
        }
    }
    v
}

/// Adds to a cycle's object the plies of its moves as the text reports number them (`first_ply`
/// to `last_ply`: the moves after the repeated position first stood, up to its last repetition)
/// and their move numbers.
pub fn add_cycle_span(obj: &mut Value, cycle: &crate::rules::repetition::Cycle, start: &Position) {
    let first = cycle.start_ply + 1;
    let last = cycle.end_ply.max(first);
    obj["first_ply"] = first.into();
    obj["last_ply"] = last.into();
    obj["first_move_number"] = move_number(start, first).into();
    obj["last_move_number"] = move_number(start, last).into();
    obj["due_move_number"] = cycle.due_ply.map(|p| move_number(start, p)).into();
}

/// "moves 9-13, plies 16-25": the span of a cycle in the text reports, with the same plies as
/// the JSON's `first_ply` and `last_ply`.
pub fn cycle_span_text(cycle: &crate::rules::repetition::Cycle, start: &Position) -> String {
    let first = cycle.start_ply + 1;
    let last = cycle.end_ply.max(first);
    format!(
        "moves {}-{}, plies {first}-{last}",
        move_number(start, first),
        move_number(start, last)
    )
}
