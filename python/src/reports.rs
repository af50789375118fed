//! `validate` and `convert`: the batch reports of the service layer (the functions the CLI's
//! commands call), handed to Python as the JSON text of their serde reports (the Python wrapper
//! turns it into dicts with `json.loads`), so that every dict equals the CLI's `--json`.

use crate::error::{guarded, record_err, service_err};
use crate::pool::Pool;
use crate::source::{Source, extract_many};
use pyo3::prelude::*;
use xiangqi_arbiter::record::{GameEntry, walk};
use xiangqi_arbiter::report::{self, ConvertFormat};
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
        .map_err(|e| crate::error::value_err(e.message.replacen("--", "", 1)))
}

/// `validate`: the per-game objects of `xqa validate --json`, as one JSON array.
#[pyfunction]
#[pyo3(signature = (sources, threads = 0))]
pub fn validate_json(
    py: Python<'_>,
    sources: &Bound<'_, PyAny>,
    threads: usize,
) -> PyResult<String> {
    let sources = extract_many(sources)?;
    let pool = Pool::new(threads)?;
    let lines = py
        .detach(|| {
            guarded(|| {
                pool.install(|| -> std::io::Result<String> {
                    let mut lines = String::new();
                    for source in &sources {
                        match source {
                            Source::Path(p) => {
                                let mut out = Vec::new();
                                service::validate_paths(std::slice::from_ref(p), true, &mut out)?;
                                lines.push_str(&String::from_utf8_lossy(&out));
                            }
                            Source::Bytes { name, bytes } => {
                                let reports = service::validate(bytes, name);
                                lines.push_str(&service::validate_json_lines(&reports));
                            }
                        }
                    }
                    Ok(lines)
                })
            })
        })?
        .map_err(|e| pyo3::exceptions::PyOSError::new_err(e.to_string()))?;
    let mut array = String::with_capacity(lines.len() + 2);
    array.push('[');
    for (i, line) in lines.lines().enumerate() {
        if i > 0 {
            array.push(',');
        }
        array.push_str(line);
    }
    array.push(']');
    Ok(array)
}

/// `convert`: every game of the sources rewritten, as `xqa convert` writes them. The first game
/// that cannot be converted raises its `RecordError`.
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
    py.detach(|| {
        guarded(|| {
            let mut text = String::new();
            for source in &sources {
                match source {
                    Source::Bytes { name, bytes } => {
                        text.push_str(&service::convert(bytes, name, notation, format)?);
                    }
                    Source::Path(p) => {
                        let (inputs, missing) = walk::expand(std::slice::from_ref(p));
                        if let Some(e) = missing.into_iter().next() {
                            return Err(service::ServiceError::record(e));
                        }
                        for input in inputs {
                            let name = input.name();
                            let walk::Input::File(file) = input else {
                                continue;
                            };
                            let bytes =
                                std::fs::read(&file).map_err(|e| service::unreadable(&name, &e))?;
                            text.push_str(&service::convert(&bytes, &name, notation, format)?);
                        }
                    }
                }
            }
            Ok(text)
        })
    })?
    .map_err(|e| service_err(py, &e))
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
