//! The Python exceptions: `RecordError` and its subclasses are defined in Python
//! (`xiangqi_arbiter/_errors.py`, so that they have docstrings, `to_dict()` and a readable
//! `repr`) and registered here when the package is imported. Every error raised across the
//! boundary carries the fields of the library's error object as attributes.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyType};
use xiangqi_arbiter::record::RecordError;

/// The exception classes of the package.
struct Classes {
    record: Py<PyType>,
    moves: Py<PyType>,
    position: Py<PyType>,
}

static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();

/// Called once by `xiangqi_arbiter/__init__.py` with its exception classes.
#[pyfunction]
pub fn _register_errors(
    py: Python<'_>,
    record: Bound<'_, PyType>,
    moves: Bound<'_, PyType>,
    position: Bound<'_, PyType>,
) {
    let _ = CLASSES.set(
        py,
        Classes {
            record: record.unbind(),
            moves: moves.unbind(),
            position: position.unbind(),
        },
    );
}

/// Which exception class an error is raised as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorClass {
    /// `RecordError`: a record that cannot be read or replayed.
    Record,
    /// `MoveError`: a move given as text (moves=, Position.play) that is not legal or not readable.
    Move,
    /// `PositionError`: a FEN that is malformed or describes an illegal position.
    Position,
}

/// The fields of an error object, as the JSON reports name them.
#[derive(Clone, Debug, Default)]
pub struct Fields {
    pub kind: String,
    pub message: String,
    pub source: Option<String>,
    /// 1-based game number in the source.
    pub game: Option<usize>,
    pub line: Option<u64>,
    pub column: Option<u32>,
    pub offset: Option<u64>,
    pub ply: Option<usize>,
    pub move_text: Option<String>,
    pub suggestions: Vec<String>,
    /// The full human-readable text (`str(error)`); the message when empty.
    pub text: String,
}

impl From<&RecordError> for Fields {
    fn from(e: &RecordError) -> Fields {
        Fields {
            kind: e.kind.clone(),
            message: e.message.clone(),
            // As the report schema's error object gives them (report::schema::error_object).
            source: (!e.source.is_empty()).then(|| e.source.clone()),
            game: (!e.source.is_empty()).then_some(e.game + 1),
            line: (e.line > 0).then_some(e.line),
            column: (e.column > 0).then_some(e.column),
            offset: e.offset,
            ply: e.ply,
            move_text: e.move_text.clone(),
            suggestions: e.suggestions.clone(),
            text: e.to_string(),
        }
    }
}

impl Fields {
    /// An error of this kind with this message, nothing else known.
    pub fn new(kind: impl Into<String>, message: impl Into<String>) -> Fields {
        Fields {
            kind: kind.into(),
            message: message.into(),
            ..Fields::default()
        }
    }

    /// The exception instance (not raised) of the given class.
    pub fn instance<'py>(&self, py: Python<'py>, class: ErrorClass) -> PyResult<Bound<'py, PyAny>> {
        let Some(classes) = CLASSES.get(py) else {
            return Err(PyRuntimeError::new_err(
                "xiangqi_arbiter._native used without the xiangqi_arbiter package",
            ));
        };
        let cls = match class {
            ErrorClass::Record => &classes.record,
            ErrorClass::Move => &classes.moves,
            ErrorClass::Position => &classes.position,
        };
        let kw = PyDict::new(py);
        kw.set_item("kind", &self.kind)?;
        kw.set_item("message", &self.message)?;
        kw.set_item("source", &self.source)?;
        kw.set_item("game", self.game)?;
        kw.set_item("line", self.line)?;
        kw.set_item("column", self.column)?;
        kw.set_item("offset", self.offset)?;
        kw.set_item("ply", self.ply)?;
        kw.set_item("move_text", &self.move_text)?;
        kw.set_item("suggestions", &self.suggestions)?;
        let text = if self.text.is_empty() {
            &self.message
        } else {
            &self.text
        };
        cls.bind(py).call((text,), Some(&kw))
    }

    /// The error to raise.
    pub fn err(&self, py: Python<'_>, class: ErrorClass) -> PyErr {
        match self.instance(py, class) {
            Ok(e) => PyErr::from_value(e),
            Err(e) => e,
        }
    }
}

/// A record error, raised as `RecordError`.
pub fn record_err(py: Python<'_>, e: &RecordError) -> PyErr {
    Fields::from(e).err(py, ErrorClass::Record)
}

/// A bad argument value (unknown notation, rules, profile ...): `ValueError`.
pub fn value_err(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// Runs `f`, turning a panic into a Python `RuntimeError` instead of unwinding into Python (the
/// last line of defence: the engine reports bad input as errors, it does not panic on it).
pub fn guarded<T>(f: impl FnOnce() -> T) -> PyResult<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        let what = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        PyRuntimeError::new_err(format!(
            "internal error in xiangqi_arbiter (please report it): {what}"
        ))
    })
}

/// A service layer error: a record's error raises `RecordError` with its fields; a bad option
/// value (a usage error of the CLI) raises `ValueError`; any other invalid input (settings that
/// do not parse, a ply past the end of the game ...) raises `RecordError` with kind `invalid`.
pub fn service_err(py: Python<'_>, e: &xiangqi_arbiter::service::ServiceError) -> PyErr {
    match &e.record {
        Some(r) => record_err(py, r),
        None if e.code == 2 => value_err(e.message.clone()),
        None => Fields::new(e.kind.clone(), e.message.clone()).err(py, ErrorClass::Record),
    }
}
