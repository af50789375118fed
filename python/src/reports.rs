//! The report functions: `validate`, `convert`, `adjudicate`, `claim`, `screen`. Each calls the
//! library layer the CLI calls and hands its serde report over as JSON text (the Python wrapper
//! turns it into dicts with `json.loads`), so that every dict equals the CLI's `--json`.

use crate::error::{guarded, record_err, value_err};
use crate::game::{for_each_entry, write_game};
use crate::pool::Pool;
use crate::source::{Source, extract_many};
use pyo3::prelude::*;
use xiangqi_arbiter::record::Notation;
use xiangqi_arbiter::report::{ConvertFormat, GameReport};

/// A serde report handed to Python: `json.loads` of its JSON text, so that the objects are the
/// CLI's `--json` exactly.
pub fn loads<'py>(py: Python<'py>, json: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (json,))
}

/// A `format=` argument of `convert`.
pub fn convert_format(name: &str) -> PyResult<ConvertFormat> {
    match name.to_ascii_lowercase().as_str() {
        "pgn" => Ok(ConvertFormat::Pgn),
        "dhtmlxq" | "ubb" => Ok(ConvertFormat::Dhtmlxq),
        other => Err(value_err(format!(
            "unknown format '{other}' (expected pgn or dhtmlxq)"
        ))),
    }
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
    py.detach(|| {
        guarded(|| {
            pool.install(|| {
                let mut out = String::from("[");
                for_each_entry(&sources, |entry| {
                    if out.len() > 1 {
                        out.push(',');
                    }
                    out.push_str(
                        &serde_json::to_string(&GameReport::of(&entry))
                            .expect("a report serialises"),
                    );
                    true
                });
                out.push(']');
                out
            })
        })
    })
}

/// `convert`: every game of the sources rewritten, as `xqa convert` writes them. An invalid game
/// raises its `RecordError`.
#[pyfunction]
#[pyo3(signature = (sources, to = "chinese", format = "pgn"))]
pub fn convert(
    py: Python<'_>,
    sources: &Bound<'_, PyAny>,
    to: &str,
    format: &str,
) -> PyResult<String> {
    let notation: Notation = to.parse().map_err(value_err)?;
    let format = convert_format(format)?;
    let sources: Vec<Source> = extract_many(sources)?;
    let (text, failed) = py.detach(|| {
        guarded(|| {
            let mut text = String::new();
            let mut failed = None;
            for_each_entry(&sources, |entry| match &entry.error {
                Some(e) => {
                    failed = Some(e.clone());
                    false
                }
                None => {
                    text.push_str(&write_game(&entry, notation, format));
                    true
                }
            });
            (text, failed)
        })
    })?;
    match failed {
        Some(e) => Err(record_err(py, &e)),
        None => Ok(text),
    }
}
