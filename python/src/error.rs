//! The Python exceptions: `RecordError` and its subclasses are defined in Python
//! (`xiangqi_arbiter/__init__.py`, so that they have docstrings, `to_dict()` and a readable
//! `repr`) and registered here when the package is imported. Every error raised across the
//! boundary carries the fields of the library's error object as attributes.
//!
//! One rule tells the two apart: an argument that is wrong whatever the input holds (an unknown
//! name, a negative or too large number, keywords that conflict) raises `ValueError` naming the
//! keyword; anything about the input (a record, move, FEN, settings or event file that cannot be
//! read, kind `io`, or parsed or played, or that has no such game or ply) raises `RecordError`
//! with its kind and fields.

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
    /// The score-sheet repairs of a main-line move that cannot be played, best first.
    pub repairs: Vec<xiangqi_arbiter::record::repair::Repair>,
    /// The repair search's budget cut it short.
    pub repairs_cut_short: bool,
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
            repairs: e.repairs.clone(),
            repairs_cut_short: e.repairs_cut_short,
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
        if !self.repairs.is_empty() {
            // (As the JSON reports give them: a list of dicts.)
            let json = serde_json::to_string(&self.repairs).unwrap_or_else(|_| "[]".into());
            let repairs = py.import("json")?.call_method1("loads", (json,))?;
            kw.set_item("repairs", repairs)?;
            kw.set_item("repairs_cut_short", self.repairs_cut_short)?;
        }
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

/// Kind of the error for a ply past the end of the game (`at=`, `from_claim=`).
pub const NO_SUCH_PLY: &str = "no_such_ply";

/// A service layer error, by the module's rule: a record's error raises `RecordError` with its
/// fields (its message naming keywords, not the CLI's flags); a ply past the end of the game
/// `RecordError` with kind `no_such_ply`; any other usage error of the CLI (an unknown name)
/// `ValueError`; any other invalid input (settings that do not parse ...) `RecordError` with kind
/// `invalid`.
pub fn service_err(py: Python<'_>, e: &xiangqi_arbiter::service::ServiceError) -> PyErr {
    let message = keywords(&e.message);
    match &e.record {
        Some(r) => {
            let mut f = Fields::from(r.as_ref());
            f.message = keywords(&f.message);
            f.text = keywords(&f.text);
            f.err(py, ErrorClass::Record)
        }
        None if e.code == 2 && message.contains("is past the end of the game") => {
            Fields::new(NO_SUCH_PLY, message).err(py, ErrorClass::Record)
        }
        None if e.code == 2 => value_err(message),
        None => Fields::new(e.kind.clone(), message).err(py, ErrorClass::Record),
    }
}

/// A message of the library with the CLI's flags named as the package's keywords: `--at 999` is
/// `at=999`, `--from-claim PLY` `from_claim=PLY`, `--game takes 1` `game takes 1`, `--rank-base:`
/// `rank_base:`.
pub fn keywords(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("--") {
        let (before, flag) = rest.split_at(at);
        out.push_str(before);
        let name_len = flag[2..]
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .unwrap_or(flag.len() - 2);
        if name_len == 0 {
            out.push_str("--");
            rest = &flag[2..];
            continue;
        }
        out.push_str(&flag[2..2 + name_len].replace('-', "_"));
        rest = &flag[2 + name_len..];
        // A value after the flag (a number, a word such as `san` or `PLY`) is `keyword=value`.
        if let Some(value) = rest.strip_prefix(' ') {
            let len = value
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(value.len());
            let word = &value[..len];
            if len > 0 && !matches!(word, "takes" | "is" | "and" | "or" | "with") {
                out.push('=');
                out.push_str(word);
                rest = &value[len..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A count argument named `name` (`game=`, `at=`, `threads=` ...) as a `u64` from `min` to
/// `max`: `ValueError` naming the keyword otherwise (never `OverflowError`); `TypeError` for
/// what is not an integer. (Also `xiangqi_arbiter._native._count`, for the Python wrappers.)
#[pyfunction]
#[pyo3(name = "_count")]
pub fn count(name: &str, value: &Bound<'_, PyAny>, min: u64, max: u64) -> PyResult<u64> {
    let too_small = || value_err(format!("{name}={value}: must be {min} or more"));
    let too_large = || value_err(format!("{name}={value}: must be at most {max}"));
    match value.extract::<i64>() {
        Ok(n) if n < 0 || (n as u64) < min => Err(too_small()),
        Ok(n) if n as u64 > max => Err(too_large()),
        Ok(n) => Ok(n as u64),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(value.py()) => {
            if value.lt(0)? {
                Err(too_small())
            } else {
                Err(too_large())
            }
        }
        Err(e) => Err(e),
    }
}
