//! Reports of `xqa validate` and `xqa convert`: one JSON object per game, a summary, and the
//! drivers that produce them (the CLI only parses arguments and calls these).
//!
//! JSON per game (one line each), in the one report schema (`docs/schema.json`, [`schema`]):
//! `{"schema":1,"header","format","notation","ok","plies","error","warnings"}`: `header` names the
//! source file and the 1-based game number with the tags and the result the record states; `plies`
//! counts the main-line moves that replayed legally; `error` is the error object of an invalid
//! game (null otherwise); `warnings` lists moves accepted with a remark (such as a plain-file
//! Chinese move resolved by legality) as error objects. `format` is null for a file that could
//! not be read at all.
//!
//! Besides games: `{"schema":1,"source","skipped"}` for a directory entry that is not a regular
//! file (a FIFO, a device, a socket: never opened) and `{"schema":1,"source","not_a_record"}` for
//! a file that holds no game record in any known format. Neither counts as a game; a run that
//! reads no game exits 1.

use crate::record::walk;
use crate::record::{Format, GameEntry, RecordError, dhtmlxq, error::kind, pgn};
use std::io::{self, Write};
use std::time::Instant;

use crate::record::Notation;

pub mod rulings;
pub mod schema;
pub mod screen;
pub mod text;

/// The verdict on one game: the object `xqa validate --json` prints for it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct GameReport {
    /// The schema version ([`schema::SCHEMA_VERSION`]).
    pub schema: u32,
    /// The game header ([`schema::header`]): tags, result, and the source file and game number.
    pub header: serde_json::Value,
    /// The record's format; null when the file could not be read at all.
    pub format: Option<Format>,
    pub notation: Option<Notation>,
    pub ok: bool,
    pub plies: usize,
    /// The error object ([`schema::error_object`]), null for a valid game.
    pub error: Option<serde_json::Value>,
    /// Moves accepted with a remark, as error objects.
    pub warnings: Vec<serde_json::Value>,
}

/// The validation policy on top of reading: a record must replay legally and hold at least one
/// move. Returns the problem, if any.
pub fn problem(entry: &GameEntry) -> Option<RecordError> {
    if let Some(e) = &entry.error {
        return Some(e.clone());
    }
    if entry.game.main.nodes.is_empty() {
        return Some(
            RecordError::new(kind::NO_MOVES, "the record holds no moves")
                .in_source(&entry.source)
                .in_game(entry.index),
        );
    }
    None
}

impl GameReport {
    pub fn of(entry: &GameEntry) -> GameReport {
        let problem = problem(entry);
        let unreadable = problem.as_ref().is_some_and(|e| e.kind == kind::IO);
        GameReport {
            schema: schema::SCHEMA_VERSION,
            header: schema::header(entry),
            format: (!unreadable).then_some(entry.format),
            notation: entry.notation,
            ok: problem.is_none(),
            plies: entry.plies(),
            error: problem.as_ref().map(schema::error_object),
            warnings: entry.warnings.iter().map(schema::error_object).collect(),
        }
    }
}

/// Totals of a validation run.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Summary {
    pub games: usize,
    pub valid: usize,
    pub invalid: usize,
    pub plies: usize,
    /// Sources that could not be read at all (I/O).
    pub io_errors: usize,
    /// Files that hold no game record in any known format (reported with their path, not counted
    /// among the games).
    pub not_records: usize,
    /// Directory entries skipped as not regular files (FIFOs, devices, sockets).
    pub skipped: usize,
    pub seconds: f64,
    pub games_per_second: f64,
}

impl Summary {
    /// The exit code: 0 all valid, 1 any invalid game or no game at all, 2 any I/O error.
    pub fn exit_code(&self) -> u8 {
        if self.io_errors > 0 {
            2
        } else if self.invalid > 0 || self.games == 0 {
            1
        } else {
            0
        }
    }

    /// Why the run failed, for the exit message (when [`Summary::exit_code`] is not 0).
    pub fn failure(&self) -> String {
        if self.games == 0 && self.io_errors == 0 {
            return format!(
                "no game read ({} file(s) without a game record, {} skipped)",
                self.not_records, self.skipped
            );
        }
        format!("{} invalid, {} unreadable", self.invalid, self.io_errors)
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} games: {} valid, {} invalid; {} plies; {:.3} s ({:.0} games/s, {:.0} plies/s)",
            self.games,
            self.valid,
            self.invalid,
            self.plies,
            self.seconds,
            self.games_per_second,
            if self.seconds > 0.0 {
                self.plies as f64 / self.seconds
            } else {
                0.0
            }
        )?;
        if self.io_errors > 0 {
            write!(f, "; {} unreadable", self.io_errors)?;
        }
        if self.not_records > 0 {
            write!(f, "; {} not game records", self.not_records)?;
        }
        if self.skipped > 0 {
            write!(f, "; {} skipped (not regular files)", self.skipped)?;
        }
        if self.games == 0 {
            write!(f, "; no game read")?;
        }
        Ok(())
    }
}

/// Says a directory entry skipped as not a regular file (`{"schema","source","skipped"}` in
/// JSON), for validate and screen alike.
pub fn write_skipped(out: &mut dyn Write, json: bool, skipped: &RecordError) -> io::Result<()> {
    if json {
        let doc = schema::versioned(
            serde_json::json!({"source": skipped.source, "skipped": skipped.message}),
        );
        writeln!(out, "{doc}")
    } else {
        writeln!(out, "{}: {}", skipped.source, skipped.message)
    }
}

/// Whether `entry` stands for a file that holds no game record (said, not counted as a game).
pub fn is_not_a_record(entry: &GameEntry) -> bool {
    entry
        .error
        .as_ref()
        .is_some_and(|e| e.kind == kind::UNKNOWN_FORMAT)
}

/// Says a file that holds no game record (`{"schema","source","not_a_record"}` in JSON).
pub fn write_not_a_record(out: &mut dyn Write, json: bool, source: &str) -> io::Result<()> {
    const WHAT: &str = "not a game record in any known format";
    if json {
        let doc = schema::versioned(serde_json::json!({"source": source, "not_a_record": WHAT}));
        writeln!(out, "{doc}")
    } else {
        writeln!(out, "{source}: {WHAT}")
    }
}

/// Validates every game of the paths (`-` = standard input), writing one line per game in JSON
/// mode, or one line per invalid game otherwise, to `out`. Runs on the current rayon pool.
pub fn validate(
    paths: &[std::path::PathBuf],
    json: bool,
    out: &mut dyn Write,
) -> io::Result<Summary> {
    let start = Instant::now();
    let walk::Expanded {
        inputs,
        errors: missing,
        skipped,
    } = walk::expand_all(paths);
    let mut s = Summary::default();
    let mut io_err = None;
    for w in &skipped {
        s.skipped += 1;
        write_skipped(out, json, w)?;
    }
    let mut emit = |entry: &GameEntry, s: &mut Summary| -> io::Result<()> {
        if is_not_a_record(entry) {
            // A file that is no game record: said, with its path, but not a game.
            s.not_records += 1;
            write_not_a_record(out, json, &entry.source)?;
            return Ok(());
        }
        let report = GameReport::of(entry);
        s.games += 1;
        s.plies += report.plies;
        if report.ok {
            s.valid += 1;
        } else if report.error.as_ref().is_some_and(|e| e["kind"] == kind::IO) {
            s.io_errors += 1;
        } else {
            s.invalid += 1;
        }
        if json {
            serde_json::to_writer(&mut *out, &report)?;
            out.write_all(b"\n")?;
        } else {
            if let Some(p) = problem(entry) {
                writeln!(out, "{p}")?;
                // The score-sheet repairs, indented below the error.
                let lines = text::repair_lines(&p, &entry.game.start, text::TextLang::Both);
                for l in lines.lines() {
                    writeln!(out, "    {l}")?;
                }
            }
            for w in &entry.warnings {
                writeln!(out, "warning: {w}")?;
            }
        }
        Ok(())
    };
    for e in missing {
        let entry = GameEntry::failed(&e.source.clone(), 0, Format::Pgn, e);
        emit(&entry, &mut s)?;
    }
    walk::for_each_game(&inputs, |entry| {
        if io_err.is_none()
            && let Err(e) = emit(&entry, &mut s)
        {
            io_err = Some(e);
        }
    });
    if let Some(e) = io_err {
        return Err(e);
    }
    s.seconds = start.elapsed().as_secs_f64();
    s.games_per_second = if s.seconds > 0.0 {
        s.games as f64 / s.seconds
    } else {
        0.0
    };
    Ok(s)
}

/// The output format of `xqa convert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvertFormat {
    Pgn,
    Dhtmlxq,
    /// The WXF file format (always WXF moves).
    Wxf,
}

/// Appends `game` written in `format` (PGN in `notation`; DhtmlXQ and WXF files in their own),
/// as `xqa convert` writes it.
pub fn write_converted(
    game: &crate::record::Game,
    notation: Notation,
    format: ConvertFormat,
    text: &mut String,
) {
    match format {
        ConvertFormat::Pgn => pgn::write_game(game, notation, text),
        ConvertFormat::Wxf => {
            crate::record::wxf_file::write_game(game, text);
            text.push('\n');
        }
        ConvertFormat::Dhtmlxq => {
            dhtmlxq::write_game(game, text);
            text.push('\n');
        }
    }
}

/// Converts every valid game of the paths to `format` (PGN in `notation`, or DhtmlXQ), writing
/// to `out`; invalid games are reported on `err` and skipped. Returns (converted, failed,
/// unreadable): `failed` counts every game not converted, `unreadable` those of them that were
/// missing or could not be read (I/O), so that callers can tell usage/I-O errors from bad games.
pub fn convert(
    paths: &[std::path::PathBuf],
    notation: Notation,
    format: ConvertFormat,
    json: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<(usize, usize, usize)> {
    let report = |err: &mut dyn Write, e: &RecordError| -> io::Result<()> {
        if json {
            let code = if e.kind == kind::IO { 2 } else { 1 };
            let doc = schema::versioned(
                serde_json::json!({"code": code, "error": schema::error_object(e)}),
            );
            writeln!(err, "{doc}")
        } else {
            writeln!(err, "{e} (game not converted)")
        }
    };
    let walk::Expanded {
        inputs,
        errors: missing,
        skipped,
    } = walk::expand_all(paths);
    let mut failed = 0;
    let mut unreadable = 0;
    let mut done = 0;
    for w in &skipped {
        writeln!(err, "{}: {}", w.source, w.message)?;
    }
    for e in missing {
        report(err, &e)?;
        failed += 1;
        unreadable += 1;
    }
    let mut io_err = None;
    walk::for_each_game(&inputs, |entry| {
        if io_err.is_some() {
            return;
        }
        let r = (|| -> io::Result<()> {
            if is_not_a_record(&entry) {
                return writeln!(err, "{}: not a game record, skipped", entry.source);
            }
            if let Some(e) = &entry.error {
                failed += 1;
                if e.kind == super::record::error::kind::IO {
                    unreadable += 1;
                }
                return report(err, e);
            }
            let mut text = String::new();
            write_converted(&entry.game, notation, format, &mut text);
            done += 1;
            out.write_all(text.as_bytes())
        })();
        if let Err(e) = r {
            io_err = Some(e);
        }
    });
    match io_err {
        Some(e) => Err(e),
        None => Ok((done, failed, unreadable)),
    }
}
