//! `read_games`: the games of any record, as `Game` objects, streamed from the library's record
//! reader (parsed and replayed on the engine's threads, packed small, handed over in input
//! order).

use crate::compact::Packed;
use crate::error::{ErrorClass, Fields, record_err};
use crate::position::Position;
use crate::source::Source;
use pyo3::exceptions::PyStopIteration;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::cell::Cell;
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, Mutex};
use xiangqi_arbiter::notation::{Notation, print_move};
use xiangqi_arbiter::record::error::kind;
use xiangqi_arbiter::record::{Format, GameEntry, walk};
use xiangqi_arbiter::report::{self, GameReport, problem};

/// Games read ahead of the consumer (the memory bound of a stream).
const READ_AHEAD: usize = 512;

/// Calls `f` with every game of the sources, in order, until it returns false. A path that does
/// not exist gives one failed entry (kind `io`), and a directory entry that is not a regular file
/// one of kind `skipped`, as in `xqa validate` (and in its order). Paths are read by the
/// library's streaming driver (parsed and replayed in parallel on the current rayon pool).
pub fn for_each_entry(sources: &[Source], mut f: impl FnMut(GameEntry) -> bool) {
    let open = Cell::new(true);
    let mut give = |e: GameEntry| {
        if open.get() {
            open.set(f(e));
        }
        open.get()
    };
    for source in sources {
        match source {
            Source::Bytes { name, bytes } => {
                for e in xiangqi_arbiter::service::read_games(bytes, name) {
                    give(e);
                }
            }
            Source::Path(path) => {
                let walk::Expanded {
                    inputs,
                    errors,
                    skipped,
                } = walk::expand_all(std::slice::from_ref(path));
                for e in skipped.into_iter().chain(errors) {
                    let source = e.source.clone();
                    give(GameEntry::failed(&source, 0, Format::Pgn, e));
                }
                walk::for_each_game_while(&inputs, &mut give);
            }
        }
        if !open.get() {
            return;
        }
    }
}

/// What an entry is when it is no game: a file that holds no game record, or a directory entry
/// skipped as not a regular file. Its object as `xqa validate --json` and `xqa screen --json`
/// print it (`{"schema":1,"source","not_a_record"}` or `{"schema":1,"source","skipped"}`).
pub fn not_a_game(entry: &GameEntry) -> Option<String> {
    let mut out = Vec::new();
    if report::is_not_a_record(entry) {
        report::write_not_a_record(&mut out, true, &entry.source).ok()?;
    } else if let Some(e) = entry.error.as_ref().filter(|e| e.kind == walk::SKIPPED) {
        report::write_skipped(&mut out, true, e).ok()?;
    } else {
        return None;
    }
    Some(String::from_utf8_lossy(&out).trim_end().to_owned())
}

/// A game, packed, or what is no game (its JSON object, see [`not_a_game`]), or the reader's
/// internal failure.
pub enum Item {
    Game(Box<Packed>),
    NotAGame(String),
    Failed(String),
}

/// Starts reading the sources on a thread of their own; the games come out of the receiver,
/// packed (on that thread, one source name shared by the games of a file).
pub fn spawn(sources: Vec<Source>) -> PyResult<Receiver<Item>> {
    let (tx, rx) = sync_channel::<Item>(READ_AHEAD);
    std::thread::Builder::new()
        .name("xiangqi-arbiter-reader".into())
        .spawn(move || {
            let mut name: Arc<str> = Arc::from("");
            // A panic ends the stream with an error the consumer raises.
            let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                for_each_entry(&sources, |e| {
                    if let Some(json) = not_a_game(&e) {
                        return tx.send(Item::NotAGame(json)).is_ok();
                    }
                    if *name != *e.source {
                        name = Arc::from(e.source.as_str());
                    }
                    let packed = Packed::new(e, name.clone());
                    tx.send(Item::Game(Box::new(packed))).is_ok()
                })
            }));
            if done.is_err() {
                let _ = tx.send(Item::Failed(
                    "internal error while reading the records".into(),
                ));
            }
        })
        .map_err(|e| {
            pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start a thread: {e}"))
        })?;
    Ok(rx)
}

/// The iterator returned by `read_games`. One iterator can be shared by threads: each game goes
/// to one of them.
#[pyclass(module = "xiangqi_arbiter", frozen)]
pub struct GameIter {
    rx: Mutex<Option<Receiver<Item>>>,
    /// Where the files that hold no game record are told (`read_games(..., skipped=[])`).
    skipped: Option<Py<PyList>>,
}

impl GameIter {
    pub fn new(rx: Receiver<Item>, skipped: Option<Py<PyList>>) -> GameIter {
        GameIter {
            rx: Mutex::new(Some(rx)),
            skipped,
        }
    }
}

#[pymethods]
impl GameIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Game> {
        // (`list(it)` calls this from C, where no pending signal is handled: Ctrl-C is looked
        // at here, at every item.)
        py.check_signals()?;
        loop {
            match crate::interrupt::recv(py, &self.rx)? {
                None => return Err(PyStopIteration::new_err(())),
                Some(Item::Failed(e)) => {
                    crate::interrupt::close(&self.rx);
                    return Err(pyo3::exceptions::PyRuntimeError::new_err(e));
                }
                Some(Item::NotAGame(json)) => {
                    if let Some(list) = &self.skipped {
                        list.bind(py).append(crate::reports::loads(py, &json)?)?;
                    }
                }
                Some(Item::Game(packed)) => {
                    if let Some(e) = &packed.error
                        && e.kind == kind::IO
                    {
                        return Err(record_err(py, e));
                    }
                    return Ok(Game { packed: *packed });
                }
            }
        }
    }

    /// Stops reading (the reader thread ends at its next game).
    fn close(&self) {
        crate::interrupt::close(&self.rx);
    }
}

/// One game of a record: its tags, start position, main line, result, and what went wrong.
///
/// A game whose record is broken holds the moves read before the error, and `error` says where
/// and why. Games pickle (for multiprocessing, Dask, Spark) and are small: the main line as two
/// bytes a move, the rest of the record packed (see `compact`).
#[pyclass(module = "xiangqi_arbiter", frozen)]
pub struct Game {
    pub packed: Packed,
}

impl Game {
    fn moves_in(&self, notation: Notation) -> Vec<String> {
        let mut pos = self.packed.start();
        self.packed
            .moves
            .iter()
            .map(|&m| {
                let t = print_move(&pos, m, notation);
                pos.play_unchecked(m);
                t
            })
            .collect()
    }

    /// The whole entry, unpacked.
    pub fn entry(&self) -> PyResult<GameEntry> {
        self.packed
            .entry()
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("a damaged Game: {e}")))
    }

    /// The validation problem (the error, or no moves), as `validate` reports it.
    fn problem(&self) -> Option<xiangqi_arbiter::record::RecordError> {
        match &self.packed.error {
            Some(e) => Some(e.as_ref().clone()),
            None if self.packed.moves.is_empty() => problem(&GameEntry::ok(
                &self.packed.source,
                self.packed.index,
                self.packed.format,
                xiangqi_arbiter::record::Game::new(self.packed.start()),
            )),
            None => None,
        }
    }
}

/// A game from its pickled state (`Game.__reduce__`).
#[pyfunction]
pub fn _game_from_state(state: &[u8]) -> PyResult<Game> {
    Packed::from_state(state)
        .map(|packed| Game { packed })
        .map_err(|e| crate::error::value_err(format!("not a pickled Game: {e}")))
}

#[pymethods]
impl Game {
    /// The file the game was read from (`<bytes>` or `<string>` for a record given in memory).
    #[getter]
    fn source(&self) -> &str {
        &self.packed.source
    }

    /// The 1-based number of the game in its source.
    #[getter]
    fn number(&self) -> usize {
        self.packed.index + 1
    }

    /// The record format: `pgn`, `dhtmlxq`, `xqf`, `cbr`, `cbl`, `cbf` or `wxf`.
    #[getter]
    fn format(&self) -> &'static str {
        self.packed.format.name()
    }

    /// The move notation of a text record (`iccs`, `wxf`, `chinese`), or None.
    #[getter]
    fn notation(&self) -> Option<&'static str> {
        self.packed.notation.map(Notation::name)
    }

    /// The tags in their record order (PGN tag pairs, or the header fields of binary formats).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.entry()?.game.tags {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The result the record states (`"1-0"`, `"0-1"`, `"1/2-1/2"`, `"*"`), or None.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.packed.result.map(|r| r.token())
    }

    /// The start position in FEN.
    #[getter]
    fn start_fen(&self) -> String {
        self.packed.start().fen()
    }

    /// The moves of the main line as the record wrote them (for square-based formats, ICCS).
    #[getter]
    fn moves(&self) -> PyResult<Vec<String>> {
        Ok(self
            .entry()?
            .game
            .main
            .nodes
            .into_iter()
            .map(|n| n.text)
            .collect())
    }

    /// Plies of the main line read (and replayed legally).
    #[getter]
    fn plies(&self) -> usize {
        self.packed.moves.len()
    }

    /// The main line in ICCS (`h2e2`).
    fn iccs(&self) -> Vec<String> {
        self.packed.moves.iter().map(|m| m.to_string()).collect()
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
        self.packed.error.is_none() && !self.packed.moves.is_empty()
    }

    /// Why the game is invalid, as a `RecordError` (not raised), or None. The same error as the
    /// `error` object of `validate`: a record that holds no move has kind `no_moves`.
    #[getter]
    fn error<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.problem()
            .map(|e| Fields::from(&e).instance(py, ErrorClass::Record))
            .transpose()
    }

    /// Moves accepted with a remark (such as `resolved_by_legality`), as `RecordError` objects.
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        self.packed
            .warnings
            .iter()
            .map(|w| Fields::from(w).instance(py, ErrorClass::Record))
            .collect()
    }

    /// The position after `ply` moves of the main line (default: the end).
    #[pyo3(signature = (ply = None))]
    fn position(&self, py: Python<'_>, ply: Option<&Bound<'_, PyAny>>) -> PyResult<Position> {
        let n = self.packed.moves.len();
        let ply = match ply.filter(|p| !p.is_none()) {
            Some(p) => {
                let ply = crate::error::count("ply", p, 0, u64::MAX)?;
                if ply > n as u64 {
                    // (The package's rule: a ply the game does not have is about the input.)
                    let message = format!(
                        "ply={ply} is past the end of the game: it takes 0 to {n} (the line has {n} plies)"
                    );
                    return Err(
                        Fields::new(crate::error::NO_SUCH_PLY, message).err(py, ErrorClass::Record)
                    );
                }
                ply as usize
            }
            None => n,
        };
        let mut pos = self.packed.start();
        for &m in &self.packed.moves[..ply] {
            pos.play_unchecked(m);
        }
        Ok(Position { pos })
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
        crate::reports::write_game(py, &self.entry()?, to, format, rank_base)
    }

    /// The game's dict of `validate` (the object `xqa validate --json` prints for it).
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let report = serde_json::to_string(&GameReport::of(&self.entry()?))
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
        crate::reports::loads(py, &report)
    }

    /// Pickles as the packed game (the whole record of the game: tags, moves, comments,
    /// variations, errors).
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let rebuild = py
            .import("xiangqi_arbiter._native")?
            .getattr("_game_from_state")?;
        Ok((rebuild, (PyBytes::new(py, &self.packed.state()),)))
    }

    fn __repr__(&self) -> PyResult<String> {
        let entry = self.entry()?;
        let g = &entry.game;
        let who = match (g.tag("Red"), g.tag("Black")) {
            (Some(r), Some(b)) => format!(" {r} - {b}"),
            _ => String::new(),
        };
        Ok(format!(
            "<Game {} #{}{who}: {} plies{}>",
            self.packed.source,
            self.packed.index + 1,
            self.packed.moves.len(),
            if self.ok() { "" } else { ", invalid" }
        ))
    }
}
