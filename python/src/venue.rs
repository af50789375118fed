//! `casebook`: a venue's case book (`xqa serve --db`), read-only, as the JSON of
//! `xqa casebook --json`.

use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use xiangqi_arbiter::venue::{Access, Store, casebook};

/// The case book of the venue database at `path`, as the JSON text `xqa casebook --json`
/// prints; `OSError` naming the file when it is missing, not a venue database, corrupt or newer.
#[pyfunction]
pub fn casebook_json(py: Python<'_>, path: std::path::PathBuf) -> PyResult<String> {
    py.detach(|| {
        let store = Store::open(&path, Access::Read)?;
        let entries = store.casebook()?;
        Ok(casebook::to_json(&path, &entries).to_string())
    })
    .map_err(|e: xiangqi_arbiter::venue::VenueError| PyOSError::new_err(e.to_string()))
}
