//! `read_games`: the games of any record, as `Game` objects, streamed from the library's record
//! reader (parsed and replayed on the engine's threads, handed over in input order).

use crate::error::{ErrorClass, Fields, record_err};
use crate::position::Position;
use crate::source::Source;
use pyo3::exceptions::PyStopIteration;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::cell::Cell;
use std::sync::mpsc::{Receiver, sync_channel};
use xiangqi_arbiter::notation::{Notation, print_move};
use xiangqi_arbiter::record::error::kind;
use xiangqi_arbiter::record::{Format, GameEntry, walk};
use xiangqi_arbiter::report::{GameReport, problem};

/// Games read ahead of the consumer (the memory bound of a stream).
const READ_AHEAD: usize = 512;

/// Files handed to the library's parallel reader at a time.
const FILES_PER_CHUNK: usize = 64;

/// Calls `f` with every game of the sources, in order, until it returns false. A path that does
/// not exist gives one failed entry (kind `io`), as in `xqa validate`. Paths are read by the
/// library's streaming driver (parsed and replayed in parallel on the current rayon pool).
pub fn for_each_entry(sources: &[Source], mut f: impl FnMut(GameEntry) -> bool) {
    let open = Cell::new(true);
    let mut give = |e: GameEntry| {
        if open.get() {
            open.set(f(e));
        }
    };
    for source in sources {
        match source {
            Source::Bytes { name, bytes } => {
                for e in xiangqi_arbiter::service::read_games(bytes, name) {
                    give(e);
                }
            }
            Source::Path(path) => {
                let (inputs, missing) = walk::expand(std::slice::from_ref(path));
                for e in missing {
                    let source = e.source.clone();
                    give(GameEntry::failed(&source, 0, Format::Pgn, e));
                }
                // In chunks of files, so that the files of a directory are read in parallel and a
                // consumer that stops early stops the reading soon after.
                for chunk in inputs.chunks(FILES_PER_CHUNK) {
                    walk::for_each_game(chunk, &mut give);
                    if !open.get() {
                        return;
                    }
                }
            }
        }
        if !open.get() {
            return;
        }
    }
}

/// A game, or the reader's internal failure.
pub type Item = Result<GameEntry, String>;

/// Starts reading the sources on a thread of their own; the games come out of the receiver.
pub fn spawn(sources: Vec<Source>) -> PyResult<Receiver<Item>> {
    let (tx, rx) = sync_channel::<Item>(READ_AHEAD);
    std::thread::Builder::new()
        .name("xiangqi-arbiter-reader".into())
        .spawn(move || {
            // A panic ends the stream with an error the consumer raises.
            let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                for_each_entry(&sources, |e| tx.send(Ok(e)).is_ok())
            }));
            if done.is_err() {
                let _ = tx.send(Err("internal error while reading the records".into()));
            }
        })
        .map_err(|e| {
            pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start a thread: {e}"))
        })?;
    Ok(rx)
}

/// The iterator returned by `read_games`.
#[pyclass(module = "xiangqi_arbiter")]
pub struct GameIter {
    rx: Option<std::sync::Mutex<Receiver<Item>>>,
}

impl GameIter {
    pub fn new(rx: Receiver<Item>) -> GameIter {
        GameIter {
            rx: Some(std::sync::Mutex::new(rx)),
        }
    }
}

#[pymethods]
impl GameIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Game> {
        let Some(rx) = &self.rx else {
            return Err(PyStopIteration::new_err(()));
        };
        let next = py.detach(|| rx.lock().ok().and_then(|r| r.recv().ok()));
        match next {
            None => {
                self.rx = None;
                Err(PyStopIteration::new_err(()))
            }
            Some(Err(e)) => {
                self.rx = None;
                Err(pyo3::exceptions::PyRuntimeError::new_err(e))
            }
            Some(Ok(entry)) => {
                if let Some(e) = &entry.error
                    && e.kind == kind::IO
                {
                    return Err(record_err(py, e));
                }
                Ok(Game { entry })
            }
        }
    }

    /// Stops reading (the reader thread ends at its next game).
    fn close(&mut self) {
        self.rx = None;
    }
}

/// One game of a record: its tags, start position, main line, result, and what went wrong.
///
/// A game whose record is broken holds the moves read before the error, and `error` says where
/// and why.
#[pyclass(module = "xiangqi_arbiter", frozen)]
pub struct Game {
    pub entry: GameEntry,
}

impl Game {
    fn moves_in(&self, notation: Notation) -> Vec<String> {
        let mut pos = self.entry.game.start;
        self.entry
            .game
            .main
            .nodes
            .iter()
            .map(|n| {
                let t = print_move(&pos, n.mv, notation);
                pos.play_unchecked(n.mv);
                t
            })
            .collect()
    }
}

#[pymethods]
impl Game {
    /// The file the game was read from (`<bytes>` or `<string>` for a record given in memory).
    #[getter]
    fn source(&self) -> &str {
        &self.entry.source
    }

    /// The 1-based number of the game in its source.
    #[getter]
    fn number(&self) -> usize {
        self.entry.index + 1
    }

    /// The record format: `pgn`, `dhtmlxq`, `xqf`, `cbr`, `cbl` or `cbf`.
    #[getter]
    fn format(&self) -> &'static str {
        self.entry.format.name()
    }

    /// The move notation of a text record (`iccs`, `wxf`, `chinese`), or None.
    #[getter]
    fn notation(&self) -> Option<&'static str> {
        self.entry.notation.map(Notation::name)
    }

    /// The tags in their record order (PGN tag pairs, or the header fields of binary formats).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.entry.game.tags {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The result the record states (`"1-0"`, `"0-1"`, `"1/2-1/2"`, `"*"`), or None.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.entry.game.result.map(|r| r.token())
    }

    /// The start position in FEN.
    #[getter]
    fn start_fen(&self) -> String {
        self.entry.game.start.fen()
    }

    /// The moves of the main line as the record wrote them (for square-based formats, ICCS).
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.entry
            .game
            .main
            .nodes
            .iter()
            .map(|n| n.text.clone())
            .collect()
    }

    /// Plies of the main line read (and replayed legally).
    #[getter]
    fn plies(&self) -> usize {
        self.entry.plies()
    }

    /// The main line in ICCS (`h2e2`).
    fn iccs(&self) -> Vec<String> {
        self.entry
            .game
            .main
            .nodes
            .iter()
            .map(|n| n.mv.to_string())
            .collect()
    }

    /// The main line in Chinese notation (炮二平五).
    fn chinese(&self) -> Vec<String> {
        self.moves_in(Notation::Chinese)
    }

    /// The main line in WXF notation (C2.5).
    fn wxf(&self) -> Vec<String> {
        self.moves_in(Notation::Wxf)
    }

    /// Whether the game is valid: it replays legally to its end and holds at least one move
    /// (`error is None`).
    #[getter]
    fn ok(&self) -> bool {
        problem(&self.entry).is_none()
    }

    /// Why the game is invalid, as a `RecordError` (not raised), or None. The same error as the
    /// `error` object of `validate`: a record that holds no move has kind `no_moves`.
    #[getter]
    fn error<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        problem(&self.entry)
            .map(|e| Fields::from(&e).instance(py, ErrorClass::Record))
            .transpose()
    }

    /// Moves accepted with a remark (such as `resolved_by_legality`), as `RecordError` objects.
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        self.entry
            .warnings
            .iter()
            .map(|w| Fields::from(w).instance(py, ErrorClass::Record))
            .collect()
    }

    /// The position after `ply` moves of the main line (default: the end).
    #[pyo3(signature = (ply = None))]
    fn position(&self, ply: Option<usize>) -> PyResult<Position> {
        let n = self.entry.plies();
        let ply = ply.unwrap_or(n);
        if ply > n {
            return Err(crate::error::value_err(format!(
                "ply {ply} is past the end of the game ({n} plies)"
            )));
        }
        Ok(Position {
            pos: self.entry.game.position_at(ply),
        })
    }

    /// The game as PGN in `notation` (`"chinese"`, `"wxf"`, `"iccs"` or `"san"`, with
    /// `rank_base` `"0"` for WinBoard's SAN), or as DhtmlXQ or a WXF file with
    /// `format="dhtmlxq"` or `"wxf"`: exactly what `xqa convert` writes for it.
    #[pyo3(signature = (to = "chinese", format = "pgn", rank_base = None))]
    fn write(
        &self,
        py: Python<'_>,
        to: &str,
        format: &str,
        rank_base: Option<&str>,
    ) -> PyResult<String> {
        crate::reports::write_game(py, &self.entry, to, format, rank_base)
    }

    /// The game's dict of `validate` (the object `xqa validate --json` prints for it).
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::reports::loads(
            py,
            &serde_json::to_string(&GameReport::of(&self.entry)).expect("a report serialises"),
        )
    }

    fn __repr__(&self) -> String {
        let g = &self.entry.game;
        let who = match (g.tag("Red"), g.tag("Black")) {
            (Some(r), Some(b)) => format!(" {r} - {b}"),
            _ => String::new(),
        };
        format!(
            "<Game {} #{}{who}: {} plies{}>",
            self.entry.source,
            self.entry.index + 1,
            self.entry.plies(),
            if problem(&self.entry).is_some() {
                ", invalid"
            } else {
                ""
            }
        )
    }
}
