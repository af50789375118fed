//! `validate` and `convert`: the batch reports of the service layer (the functions the CLI's
//! commands call), handed to Python as the JSON text of their serde reports (the Python wrapper
//! turns it into dicts with `json.loads`), so that every dict equals the CLI's `--json`.

use crate::error::{guarded, record_err};
use crate::game::{for_each_entry, not_a_game};
use crate::pool::Pool;
use crate::source::{Source, extract_many};
use pyo3::prelude::*;
use xiangqi_arbiter::record::GameEntry;
use xiangqi_arbiter::report::{self, ConvertFormat, GameReport};
use xiangqi_arbiter::service;

/// A serde report handed to Python: `json.loads` of its JSON text, so that the objects are the
/// CLI's `--json` exactly.
pub fn loads<'py>(py: Python<'py>, json: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (json,))
}

/// The `to=`, `format=` and `rank_base=` arguments of `convert` (`ValueError` for an unknown
/// one).
pub fn convert_options(
    to: &str,
    format: &str,
    rank_base: Option<&str>,
) -> PyResult<(xiangqi_arbiter::record::Notation, ConvertFormat)> {
    service::convert_options(to, format, rank_base)
        .map_err(|e| crate::error::value_err(crate::error::keywords(&e.message)))
}

/// `validate`: the per-game objects of `xqa validate --json` (and its lines for the files that
/// hold no game record), as one JSON array. Ctrl-C stops it between games.
#[pyfunction]
#[pyo3(signature = (sources, threads = 0))]
pub fn validate_json(
    py: Python<'_>,
    sources: &Bound<'_, PyAny>,
    threads: usize,
) -> PyResult<String> {
    let sources = extract_many(sources)?;
    let pool = Pool::new(threads)?;
    crate::interrupt::run(py, |stop| {
        pool.install(|| {
            let mut array = String::from("[");
            for_each_entry(&sources, |entry| {
                if array.len() > 1 {
                    array.push(',');
                }
                match not_a_game(&entry) {
                    Some(json) => array.push_str(&json),
                    None => array.push_str(
                        &serde_json::to_string(&GameReport::of(&entry))
                            .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}")),
                    ),
                }
                !stop.requested()
            });
            array.push(']');
            array
        })
    })
}

/// `convert`: every game of the sources rewritten, as `xqa convert` writes them. The files of a
/// directory that hold no game record are skipped, as the CLI does; the first game that cannot be
/// converted (or a source given directly that is no record) raises its `RecordError`. Ctrl-C
/// stops it between games.
#[pyfunction]
#[pyo3(signature = (sources, to = "chinese", format = "pgn", rank_base = None))]
pub fn convert(
    py: Python<'_>,
    sources: &Bound<'_, PyAny>,
    to: &str,
    format: &str,
    rank_base: Option<&str>,
) -> PyResult<String> {
    let (notation, format) = convert_options(to, format, rank_base)?;
    let sources = extract_many(sources)?;
    let done = crate::interrupt::run(py, |stop| {
        let mut text = String::new();
        let mut failed = None;
        for source in &sources {
            let walked = matches!(source, Source::Path(p) if p.is_dir());
            for_each_entry(std::slice::from_ref(source), |entry| {
                if walked && not_a_game(&entry).is_some() {
                    return !stop.requested();
                }
                match &entry.error {
                    Some(e) => {
                        failed = Some(e.clone());
                        false
                    }
                    None => {
                        report::write_converted(&entry.game, notation, format, &mut text);
                        !stop.requested()
                    }
                }
            });
            if failed.is_some() {
                break;
            }
        }
        match failed {
            Some(e) => Err(Box::new(e)),
            None => Ok(text),
        }
    })?;
    done.map_err(|e| record_err(py, &e))
}

/// Game `entry` written as `xqa convert` writes each game (the record writers of the library).
pub fn write_game(
    py: Python<'_>,
    entry: &GameEntry,
    to: &str,
    format: &str,
    rank_base: Option<&str>,
) -> PyResult<String> {
    let (notation, format) = convert_options(to, format, rank_base)?;
    if let Some(e) = &entry.error {
        return Err(record_err(py, e));
    }
    guarded(|| {
        let mut text = String::new();
        report::write_converted(&entry.game, notation, format, &mut text);
        text
    })
}
