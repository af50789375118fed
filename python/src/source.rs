//! What a `source` argument can be: a path (a `str` without a line break, or any `os.PathLike`;
//! a file or a directory), or the record itself (`bytes`, `bytearray`, or a `str` holding a line
//! break).

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString, PyTuple};
use std::path::PathBuf;

/// The name reported for a record given as `bytes`.
pub const BYTES_NAME: &str = "<bytes>";
/// The name reported for a record given as text.
pub const TEXT_NAME: &str = "<string>";

/// One source of games.
#[derive(Clone, Debug)]
pub enum Source {
    /// A file or directory (walked recursively like the CLI's arguments).
    Path(PathBuf),
    /// A record in memory, with the name its reports give.
    Bytes { name: String, bytes: Vec<u8> },
}

/// Whether a `str` argument names a path rather than holding a record: it does unless it holds
/// a line break (a mistyped path is then "no such file or directory", kind `io`, as in the CLI,
/// and never read as record text).
fn str_is_path(s: &str) -> bool {
    !(s.contains('\n') || s.contains('\r'))
}

/// Reads one source argument. `name` overrides the reported name of an in-memory record.
pub fn extract(obj: &Bound<'_, PyAny>, name: Option<&str>) -> PyResult<Source> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Source::Bytes {
            name: name.unwrap_or(BYTES_NAME).to_owned(),
            bytes: b.as_bytes().to_vec(),
        });
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Source::Bytes {
            name: name.unwrap_or(BYTES_NAME).to_owned(),
            bytes: b.to_vec(),
        });
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let s = s.to_cow()?;
        if str_is_path(&s) {
            return Ok(Source::Path(PathBuf::from(s.as_ref())));
        }
        return Ok(Source::Bytes {
            name: name.unwrap_or(TEXT_NAME).to_owned(),
            bytes: s.as_bytes().to_vec(),
        });
    }
    if obj.hasattr("__fspath__")? {
        let p: PathBuf = obj.extract()?;
        return Ok(Source::Path(p));
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "a source is a path (str or os.PathLike), bytes or record text, not {}",
        obj.get_type().name()?
    )))
}

/// Reads a `sources` argument: one source, or a list or tuple of them (any other iterable of
/// sources too, except `str` and `bytes`, which are one source each).
pub fn extract_many(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Source>> {
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        return obj.try_iter()?.map(|o| extract(&o?, None)).collect();
    }
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
        || obj.hasattr("__fspath__")?
    {
        return Ok(vec![extract(obj, None)?]);
    }
    match obj.try_iter() {
        Ok(it) => it.map(|o| extract(&o?, None)).collect(),
        Err(_) => Ok(vec![extract(obj, None)?]),
    }
}
