//! `xiangqi_arbiter._native`: the compiled part of the Python package `xiangqi_arbiter`, a thin
//! front end over the xiangqi-arbiter library (the same layer as the `xqa` CLI). The pure-Python
//! package around it (`xiangqi_arbiter/__init__.py`) adds the docstrings' signatures, the
//! exception classes and the `json.loads` of the reports.

#![forbid(unsafe_code)]

mod compact;
mod error;
mod game;
mod interrupt;
mod pool;
mod position;
mod reports;
mod rulings;
mod source;
mod venue;

use pyo3::prelude::*;

/// `read_games`: an iterator over the games of the sources, read on the engine's threads; the
/// files that hold no game record are appended to `skipped` (a list) when it is given.
#[pyfunction]
#[pyo3(signature = (sources, skipped = None))]
fn read_games(
    sources: &Bound<'_, PyAny>,
    skipped: Option<Bound<'_, pyo3::types::PyList>>,
) -> PyResult<game::GameIter> {
    let sources = source::extract_many(sources)?;
    Ok(game::GameIter::new(
        game::spawn(sources)?,
        skipped.map(Bound::unbind),
    ))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(error::_register_errors, m)?)?;
    m.add_function(wrap_pyfunction!(error::count, m)?)?;
    m.add_function(wrap_pyfunction!(game::_game_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(read_games, m)?)?;
    m.add_function(wrap_pyfunction!(reports::validate_json, m)?)?;
    m.add_function(wrap_pyfunction!(reports::convert, m)?)?;
    m.add_function(wrap_pyfunction!(rulings::adjudicate_json, m)?)?;
    m.add_function(wrap_pyfunction!(rulings::claim_json, m)?)?;
    m.add_function(wrap_pyfunction!(rulings::screen, m)?)?;
    m.add_function(wrap_pyfunction!(venue::casebook_json, m)?)?;
    m.add_class::<rulings::ScreenIter>()?;
    m.add_class::<position::Position>()?;
    m.add_class::<game::Game>()?;
    m.add_class::<game::GameIter>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
