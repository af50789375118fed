//! `Position`: a board position with its legal moves, in any notation.

use crate::error::{ErrorClass, Fields, count, guarded, value_err};
use pyo3::prelude::*;
use rayon::prelude::*;
use xiangqi_arbiter::notation::{self, Notation};
use xiangqi_arbiter::{Move, START_FEN};

/// A notation argument (`"iccs"`, `"wxf"`, `"chinese"`).
pub fn parse_notation(name: &str) -> PyResult<Notation> {
    name.parse().map_err(value_err)
}

/// A FEN read into a position, or `PositionError` (kind and message of the FEN or setup problem).
pub fn parse_fen(py: Python<'_>, fen: &str) -> PyResult<xiangqi_arbiter::Position> {
    guarded(|| xiangqi_arbiter::Position::from_fen(fen))?.map_err(|e| {
        let message = format!(
            "invalid FEN '{}': {e}",
            xiangqi_arbiter::service::shorten(fen)
        );
        Fields::new(e.kind(), message).err(py, ErrorClass::Position)
    })
}

/// Reads a move given as text (ICCS, WXF or Chinese, guessed when `notation` is None) and checks
/// it is legal; `MoveError` otherwise.
pub fn parse_move(
    py: Python<'_>,
    pos: &xiangqi_arbiter::Position,
    text: &str,
    notation: Option<Notation>,
    ply: Option<usize>,
) -> PyResult<Move> {
    let text = text.trim();
    let guessed = notation.or_else(|| notation::sniff(text));
    let Some(n) = guessed else {
        let mut f = Fields::new(
            "syntax",
            format!("'{text}' is not a move in ICCS, WXF or Chinese notation"),
        );
        f.move_text = Some(text.to_owned());
        f.ply = ply;
        return Err(f.err(py, ErrorClass::Move));
    };
    guarded(|| notation::parse_move(pos, text, n))?
        .map(|p| p.mv)
        .map_err(|e| {
            let mut f = Fields::new(e.kind(), format!("'{text}': {e}"));
            f.move_text = Some(text.to_owned());
            f.suggestions = e.suggestions();
            f.ply = ply;
            f.err(py, ErrorClass::Move)
        })
}

/// The depth counted in one go between two looks at the stop flag (about 3 million nodes from
/// the start position, a tenth of a second).
const STEP_DEPTH: u32 = 4;

/// Perft of `pos`, looking at `stop` before each subtree of [`STEP_DEPTH`]: `None` once asked to
/// stop.
fn interruptible_perft(
    pos: &xiangqi_arbiter::Position,
    depth: u32,
    stop: &crate::interrupt::Stop,
) -> Option<u64> {
    if stop.requested() {
        return None;
    }
    if depth <= STEP_DEPTH {
        return Some(xiangqi_arbiter::perft(pos, depth));
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| interruptible_perft(&pos.after(m), depth - 1, stop))
        .sum()
}

/// A Xiangqi position: pieces, side to move and move counters.
///
/// `Position()` is the standard start; `Position(fen)` reads a FEN and raises `PositionError`
/// when it is malformed or the placement is impossible.
#[pyclass(module = "xiangqi_arbiter", eq, from_py_object)]
#[derive(Clone, PartialEq)]
pub struct Position {
    pub pos: xiangqi_arbiter::Position,
}

#[pymethods]
impl Position {
    #[new]
    #[pyo3(signature = (fen = None))]
    fn new(py: Python<'_>, fen: Option<&str>) -> PyResult<Position> {
        Ok(Position {
            pos: parse_fen(py, fen.unwrap_or(START_FEN))?,
        })
    }

    /// The position in FEN.
    fn fen(&self) -> String {
        self.pos.fen()
    }

    /// The side to move: `"red"` or `"black"`.
    #[getter]
    fn turn(&self) -> &'static str {
        self.pos.turn().name()
    }

    /// Every legal move, sorted by ICCS, written in `notation` (`"iccs"`, `"wxf"` or `"chinese"`).
    #[pyo3(signature = (notation = "iccs"))]
    fn legal_moves(&self, notation: &str) -> PyResult<Vec<String>> {
        let n = parse_notation(notation)?;
        Ok(notation::list_moves(&self.pos, n)
            .into_iter()
            .map(|(_, t)| t)
            .collect())
    }

    /// Plays a legal move given in ICCS (`h2e2`, `H2-E2`), WXF (`C2.5`) or Chinese (`炮二平五`),
    /// guessed from the text unless `notation` is given. Returns the move in ICCS. Raises
    /// `MoveError` (with `kind`, `move_text`, `suggestions`) when the move cannot be read or is
    /// not legal; the position is then unchanged.
    #[pyo3(signature = (r#move, notation = None))]
    fn play(&mut self, py: Python<'_>, r#move: &str, notation: Option<&str>) -> PyResult<String> {
        let n = notation.map(parse_notation).transpose()?;
        let m = parse_move(py, &self.pos, r#move, n, None)?;
        self.pos.play_unchecked(m);
        Ok(m.to_string())
    }

    /// A legal move written in another notation (the move is read like `play` reads it).
    #[pyo3(signature = (r#move, notation = "chinese"))]
    fn move_text(&self, py: Python<'_>, r#move: &str, notation: &str) -> PyResult<String> {
        let n = parse_notation(notation)?;
        let m = parse_move(py, &self.pos, r#move, None, None)?;
        Ok(notation::print_move(&self.pos, m, n))
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.pos.is_check()
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        self.pos.is_checkmate()
    }

    /// Whether the side to move has no legal move and is not in check (in Xiangqi it loses).
    fn is_stalemate(&self) -> bool {
        self.pos.is_stalemate()
    }

    /// Whether the side to move has no legal move (checkmate or stalemate: it has lost).
    fn is_game_over(&self) -> bool {
        self.pos.is_game_over()
    }

    /// Leaves of the legal move tree `depth` plies deep. Runs without the GIL, on the engine's
    /// threads (`threads=0`: all cores, `1`: one thread); Ctrl-C stops it between subtrees.
    #[pyo3(signature = (depth, threads = None))]
    fn perft(
        &self,
        py: Python<'_>,
        depth: &Bound<'_, PyAny>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let max = xiangqi_arbiter::perft::MAX_DEPTH;
        let depth = count("depth", depth, 0, max.into())? as u32;
        let threads = match threads {
            Some(t) => count("threads", t, 0, crate::pool::MAX_THREADS as u64)? as usize,
            None => 0,
        };
        let pool = crate::pool::Pool::new(threads)?;
        let pos = self.pos;
        crate::interrupt::run(py, |stop| {
            // The subtrees two plies down (about 2,000 from the start), in parallel unless one
            // thread is asked for, each counted by `interruptible_perft`.
            if depth <= STEP_DEPTH {
                return Some(xiangqi_arbiter::perft(&pos, depth));
            }
            let mut roots = Vec::new();
            for m in pos.legal_moves() {
                let child = pos.after(m);
                roots.extend(child.legal_moves().into_iter().map(|r| child.after(r)));
            }
            let subtree = |p: &xiangqi_arbiter::Position| interruptible_perft(p, depth - 2, stop);
            if threads == 1 {
                roots.iter().map(subtree).sum()
            } else {
                pool.install(|| roots.par_iter().map(subtree).sum())
            }
        })?
        .ok_or_else(|| pyo3::exceptions::PyKeyboardInterrupt::new_err(()))
    }

    /// Pickles as the FEN.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((py.get_type::<Position>().into_any(), (self.pos.fen(),)))
    }

    /// The hash of the position (equal positions hash equal). A position is mutable
    /// (`play`): do not play on one that is a dict key or in a set.
    fn __hash__(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        std::hash::Hash::hash(&self.pos.fen(), &mut h);
        std::hash::Hasher::finish(&h)
    }

    /// An independent copy.
    fn copy(&self) -> Position {
        self.clone()
    }

    fn __copy__(&self) -> Position {
        self.clone()
    }

    fn __deepcopy__(&self, memo: &Bound<'_, PyAny>) -> Position {
        let _ = memo;
        self.clone()
    }

    /// The board as a text diagram.
    fn __str__(&self) -> String {
        xiangqi_arbiter::diagram::text(&self.pos.to_setup(), None)
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.pos.fen())
    }
}
