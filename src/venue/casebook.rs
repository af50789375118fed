//! The case book: one entry for every ruling issued at the venue (a claim ruled, a cycle ruled,
//! a sheet printed), with the event and time control, round, table, players, the arbiter's name,
//! the time, the exact record or moves, the ruling's JSON and the sheet. Entries are never
//! changed (the database refuses it); a correction is a new entry that points to the one it
//! corrects.

use super::{ErrorKind, NOW, Store, VenueError, clean_name, optional_name};
use rusqlite::{OptionalExtension, params};
use serde::Serialize;
use std::io::Write;

/// What a case book entry records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CaseKind {
    /// A natural move limit claim ruled.
    Claim,
    /// A repetition cycle ruled.
    Cycle,
    /// A ruling sheet printed.
    Sheet,
}

impl CaseKind {
    pub fn as_str(self) -> &'static str {
        match self {
            CaseKind::Claim => "claim",
            CaseKind::Cycle => "cycle",
            CaseKind::Sheet => "sheet",
        }
    }

    pub fn parse(s: &str) -> Option<CaseKind> {
        match s {
            "claim" => Some(CaseKind::Claim),
            "cycle" => Some(CaseKind::Cycle),
            "sheet" => Some(CaseKind::Sheet),
            _ => None,
        }
    }

    /// The kind's name in Chinese.
    pub fn zh(self) -> &'static str {
        match self {
            CaseKind::Claim => "限着裁决",
            CaseKind::Cycle => "循环裁决",
            CaseKind::Sheet => "裁决书",
        }
    }
}

/// An entry to record.
#[derive(Clone, Debug)]
pub struct NewCase {
    pub kind: CaseKind,
    /// The entry this one corrects.
    pub corrects: Option<i64>,
    pub event: Option<String>,
    pub time_control: Option<String>,
    pub round: String,
    pub table: String,
    pub red: String,
    pub black: String,
    /// The exact record ruled on (its text), or the FEN and moves.
    pub record: String,
    /// The record's bytes, when they are not UTF-8 text (a binary or GBK record: `record` is
    /// then their lossy reading).
    pub record_bytes: Option<Vec<u8>>,
    /// The ruling's JSON, as the API answered it.
    pub ruling: serde_json::Value,
    /// The ruling sheet (HTML), when one was issued.
    pub sheet: Option<String>,
}

/// An entry as recorded.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CaseEntry {
    pub id: i64,
    /// The entry this one corrects.
    pub corrects: Option<i64>,
    /// The later entries that correct this one.
    pub corrected_by: Vec<i64>,
    pub kind: CaseKind,
    pub event: Option<String>,
    pub time_control: Option<String>,
    pub round: String,
    pub table: String,
    pub red: String,
    pub black: String,
    pub arbiter: String,
    /// When it was recorded (UTC).
    pub at: String,
    pub record: String,
    /// The record's exact bytes in hex, when they are not UTF-8 text.
    pub record_hex: Option<String>,
    pub ruling: serde_json::Value,
    pub sheet: Option<String>,
}

const COLUMNS: &str = "id, corrects, kind, event, time_control, round, board, red, black, arbiter, \
                       at, record, ruling, sheet, (SELECT group_concat(c.id) FROM casebook c \
                       WHERE c.corrects = casebook.id), record_bytes";

fn entry(r: &rusqlite::Row<'_>) -> rusqlite::Result<CaseEntry> {
    let kind: String = r.get(2)?;
    let ruling: String = r.get(12)?;
    let corrected: Option<String> = r.get(14)?;
    let conversion = |i, e: Box<dyn std::error::Error + Send + Sync>| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, e)
    };
    let mut corrected_by = corrected
        .as_deref()
        .unwrap_or("")
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<i64>().map_err(|e| conversion(14, e.into())))
        .collect::<Result<Vec<_>, _>>()?;
    corrected_by.sort_unstable();
    Ok(CaseEntry {
        id: r.get(0)?,
        corrects: r.get(1)?,
        corrected_by,
        kind: CaseKind::parse(&kind)
            .ok_or_else(|| conversion(2, format!("unknown kind {kind:?}").into()))?,
        event: r.get(3)?,
        time_control: r.get(4)?,
        round: r.get(5)?,
        table: r.get(6)?,
        red: r.get(7)?,
        black: r.get(8)?,
        arbiter: r.get(9)?,
        at: r.get(10)?,
        record: r.get(11)?,
        record_hex: r
            .get::<_, Option<Vec<u8>>>(15)?
            .map(|b| b.iter().map(|x| format!("{x:02x}")).collect()),
        ruling: serde_json::from_str(&ruling).map_err(|e| conversion(12, e.into()))?,
        sheet: r.get(13)?,
    })
}

impl Store {
    /// Checks an entry before its ruling is computed: its names, and the entry it corrects.
    pub fn check_case(&self, new: &NewCase) -> Result<(), VenueError> {
        let path = self.path();
        clean_name(path, "round", &new.round)?;
        clean_name(path, "table", &new.table)?;
        optional_name(path, "red player's name", &new.red)?;
        optional_name(path, "black player's name", &new.black)?;
        for (what, v) in [("event", &new.event), ("time control", &new.time_control)] {
            if let Some(v) = v {
                clean_name(path, what, v)?;
            }
        }
        if let Some(c) = new.corrects {
            self.case(c)?;
        }
        Ok(())
    }

    /// Records an entry and returns it as stored.
    pub fn record_case(&mut self, new: &NewCase, arbiter: &str) -> Result<CaseEntry, VenueError> {
        self.check_case(new)?;
        let path = self.path().to_path_buf();
        let arbiter = clean_name(&path, "arbiter's name", arbiter)?;
        let round = clean_name(&path, "round", &new.round)?;
        let table = clean_name(&path, "table", &new.table)?;
        let red = optional_name(&path, "red player's name", &new.red)?;
        let black = optional_name(&path, "black player's name", &new.black)?;
        if new.record.trim().is_empty() {
            return Err(VenueError::new(
                &path,
                ErrorKind::Invalid("the entry's record is empty".into()),
            ));
        }
        if !new.ruling.is_object() {
            return Err(VenueError::new(
                &path,
                ErrorKind::Invalid("the entry's ruling must be a JSON object".into()),
            ));
        }
        let sql = |e| VenueError::sqlite(&path, e);
        self.conn
            .execute(
                &format!(
                    "INSERT INTO casebook (corrects, kind, event, time_control, round, board, \
                     red, black, arbiter, at, record, record_bytes, ruling, sheet) VALUES (?1, \
                     ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, {NOW}, ?10, ?11, ?12, ?13)"
                ),
                params![
                    new.corrects,
                    new.kind.as_str(),
                    new.event,
                    new.time_control,
                    round,
                    table,
                    red,
                    black,
                    arbiter,
                    new.record,
                    new.record_bytes,
                    new.ruling.to_string(),
                    new.sheet
                ],
            )
            .map_err(sql)?;
        let id = self.conn.last_insert_rowid();
        self.case(id)
    }

    /// The entry with this id.
    pub fn case(&self, id: i64) -> Result<CaseEntry, VenueError> {
        let path = self.path();
        self.conn
            .query_row(
                &format!("SELECT {COLUMNS} FROM casebook WHERE id = ?1"),
                [id],
                entry,
            )
            .optional()
            .map_err(|e| VenueError::sqlite(path, e))?
            .ok_or_else(|| {
                VenueError::new(path, ErrorKind::NotFound(format!("case book entry {id}")))
            })
    }

    /// Every entry, by round and table (numerically where they are numbers), then in the order
    /// they were recorded.
    pub fn casebook(&self) -> Result<Vec<CaseEntry>, VenueError> {
        let path = self.path();
        let sql = |e| VenueError::sqlite(path, e);
        let mut stmt = self
            .conn
            .prepare(&format!(
                "SELECT {COLUMNS} FROM casebook ORDER BY {}, id",
                super::TABLE_ORDER
            ))
            .map_err(sql)?;
        stmt.query_map([], entry)
            .map_err(sql)?
            .collect::<Result<_, _>>()
            .map_err(sql)
    }
}

impl Store {
    /// Every entry at a glance, by round and table, for a page that polls it: without its record,
    /// ruling and sheet, with the ruling's verdicts (`verdict`, `valid`, the cycles' verdicts,
    /// the outcome's result) and whether it has a sheet.
    pub fn casebook_glance(&self) -> Result<Vec<serde_json::Value>, VenueError> {
        let path = self.path();
        let sql = |e| VenueError::sqlite(path, e);
        let mut stmt = self
            .conn
            .prepare(&format!(
                "SELECT id, corrects, kind, event, time_control, round, board, red, black, \
                 arbiter, at, json_extract(ruling, '$.verdict'), json_extract(ruling, '$.valid'), \
                 (SELECT group_concat(json_extract(value, '$.verdict'), ' ') FROM \
                 json_each(ruling, '$.cycles')), json_extract(ruling, '$.outcome.result'), \
                 sheet IS NOT NULL, (SELECT group_concat(c.id) FROM casebook c WHERE c.corrects = \
                 casebook.id) FROM casebook ORDER BY {}, id",
                super::TABLE_ORDER
            ))
            .map_err(sql)?;
        stmt.query_map([], |r| {
            let corrected: Option<String> = r.get(16)?;
            let corrected_by: Vec<i64> = corrected
                .as_deref()
                .unwrap_or("")
                .split(',')
                .filter_map(|s| s.parse().ok())
                .collect();
            let cycles: Option<String> = r.get(13)?;
            Ok(serde_json::json!({
                "id": r.get::<_, i64>(0)?,
                "corrects": r.get::<_, Option<i64>>(1)?,
                "corrected_by": corrected_by,
                "kind": r.get::<_, String>(2)?,
                "event": r.get::<_, Option<String>>(3)?,
                "time_control": r.get::<_, Option<String>>(4)?,
                "round": r.get::<_, String>(5)?,
                "table": r.get::<_, String>(6)?,
                "red": r.get::<_, String>(7)?,
                "black": r.get::<_, String>(8)?,
                "arbiter": r.get::<_, String>(9)?,
                "at": r.get::<_, String>(10)?,
                "verdict": r.get::<_, Option<String>>(11)?,
                "valid": r.get::<_, Option<bool>>(12)?,
                "cycle_verdicts": cycles.map(|c| c.split(' ').map(str::to_owned).collect::<Vec<_>>()).unwrap_or_default(),
                "result": r.get::<_, Option<String>>(14)?,
                "has_sheet": r.get::<_, bool>(15)?,
            }))
        })
        .map_err(sql)?
        .collect::<Result<_, _>>()
        .map_err(sql)
    }
}

/// A cell as a spreadsheet reads it: text that would start a formula (`=`, `+`, `-`, `@`, a tab
/// or a carriage return first) is marked as text with a leading apostrophe.
fn cell(s: &str) -> std::borrow::Cow<'_, str> {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}").into()
    } else {
        s.into()
    }
}

/// The case book as one JSON object: `{"schema":1,"database","entries":[...]}`.
pub fn to_json(database: &std::path::Path, entries: &[CaseEntry]) -> serde_json::Value {
    serde_json::json!({
        "schema": 1,
        "database": database.display().to_string(),
        "entries": entries,
    })
}

/// The case book as CSV (UTF-8 with a byte order mark, so that spreadsheet programs read the
/// Chinese names right), one row per entry: the ruling as its JSON text; the sheets are left to
/// the JSON export (`has_sheet` says which entries have one).
pub fn write_csv<W: Write>(out: W, entries: &[CaseEntry]) -> std::io::Result<()> {
    let mut out = out;
    out.write_all("\u{feff}".as_bytes())?;
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "id",
        "corrects",
        "corrected_by",
        "kind",
        "event",
        "time_control",
        "round",
        "table",
        "red",
        "black",
        "arbiter",
        "at",
        "record",
        "ruling",
        "record_hex",
        "has_sheet",
    ])?;
    for e in entries {
        let corrected_by: Vec<String> = e.corrected_by.iter().map(|i| i.to_string()).collect();
        let corrects = e.corrects.map(|c| c.to_string()).unwrap_or_default();
        let ruling = e.ruling.to_string();
        let row: [std::borrow::Cow<'_, str>; 16] = [
            e.id.to_string().into(),
            corrects.as_str().into(),
            corrected_by.join(" ").into(),
            e.kind.as_str().into(),
            cell(e.event.as_deref().unwrap_or("")),
            cell(e.time_control.as_deref().unwrap_or("")),
            cell(&e.round),
            cell(&e.table),
            cell(&e.red),
            cell(&e.black),
            cell(&e.arbiter),
            e.at.as_str().into(),
            cell(&e.record),
            ruling.as_str().into(),
            e.record_hex.as_deref().unwrap_or("").into(),
            if e.sheet.is_some() { "yes" } else { "no" }.into(),
        ];
        w.write_record(row.iter().map(|c| c.as_bytes()))?;
    }
    w.flush()
}
