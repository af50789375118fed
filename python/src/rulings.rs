//! `adjudicate`, `claim` and `screen`: the rulings, from the service layer (the functions the
//! CLI's commands call), handed to Python as the JSON text of their serde reports.

use crate::error::{guarded, service_err, value_err};
use crate::pool::Pool;
use crate::position::{parse_fen, parse_move};
use crate::source::{Source, extract, extract_many};
use pyo3::exceptions::{PyRuntimeError, PyStopIteration};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use rayon::prelude::*;
use std::io::{self, Write};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use xiangqi_arbiter::report::screen::game_json;
use xiangqi_arbiter::report::text::TextLang;
use xiangqi_arbiter::rules::screen::GameScreen;
use xiangqi_arbiter::service::{
    self, AdjudicateOptions, ClaimRequest, GameInput, ScreenRequest, SettingsText,
};
use xiangqi_arbiter::{Color, START_FEN};

/// A settings argument as the Python wrapper passes it: (name for messages, JSON text).
type Settings = Option<(String, String)>;

fn settings_text(s: Settings) -> Option<SettingsText> {
    s.map(|(name, text)| SettingsText { name, text })
}

/// The tokens of a `moves=` argument: a list of moves, or text (moves separated by spaces or
/// commas; move numbers like `1.` and a result token are skipped, as the CLI's `--moves`).
fn move_tokens(moves: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(s) = moves.cast::<PyString>() {
        let text = s.to_cow()?;
        return Ok(text
            .split(|c: char| c.is_whitespace() || c == ',')
            .map(str::trim)
            .filter(|t| {
                let bare = t.trim_end_matches('.');
                !bare.is_empty()
                    && !bare.chars().all(|c| c.is_ascii_digit())
                    && !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*")
            })
            .map(str::to_owned)
            .collect());
    }
    if moves.is_instance_of::<PyList>() || moves.is_instance_of::<PyTuple>() {
        return moves.try_iter()?.map(|m| m?.extract::<String>()).collect();
    }
    moves.try_iter()?.map(|m| m?.extract::<String>()).collect()
}

/// The game a ruling is about: game `game` of `source`, or `fen` (default: the start) with
/// `moves`. The FEN and the moves are read here so that a bad one raises `PositionError` or
/// `MoveError` with its kind, ply and move text; the moves go to the service in ICCS.
fn game_input(
    py: Python<'_>,
    source: Option<&Bound<'_, PyAny>>,
    game: usize,
    fen: Option<&str>,
    moves: Option<&Bound<'_, PyAny>>,
) -> PyResult<GameInput> {
    let source = source.filter(|s| !s.is_none());
    if let Some(source) = source {
        if fen.is_some() || moves.is_some_and(|m| !m.is_none()) {
            return Err(value_err("give a source, or fen= and moves=, not both"));
        }
        return match extract(source, None)? {
            Source::Bytes { name, bytes } => Ok(GameInput::record(bytes, name, game)),
            Source::Path(path) => {
                let name = path.display().to_string();
                let bytes = py
                    .detach(|| std::fs::read(&path))
                    .map_err(|e| service_err(py, &service::unreadable(&name, &e)))?;
                Ok(GameInput::record(bytes, name, game))
            }
        };
    }
    let start = parse_fen(py, fen.unwrap_or(START_FEN))?;
    let mut pos = start;
    let mut iccs = Vec::new();
    if let Some(moves) = moves.filter(|m| !m.is_none()) {
        for (i, token) in move_tokens(moves)?.iter().enumerate() {
            let m = parse_move(py, &pos, token, None, Some(i + 1))?;
            pos.play_unchecked(m);
            iccs.push(m.to_string());
        }
    }
    Ok(GameInput::fen(fen, Some(&iccs.join(" "))))
}

/// `adjudicate`: the object of `xqa adjudicate --json`.
#[pyfunction]
#[pyo3(signature = (source, game, fen, moves, rules, settings, event, time_control, overlay, at, limit_profile))]
#[allow(clippy::too_many_arguments)]
pub fn adjudicate_json(
    py: Python<'_>,
    source: Option<&Bound<'_, PyAny>>,
    game: usize,
    fen: Option<&str>,
    moves: Option<&Bound<'_, PyAny>>,
    rules: String,
    settings: Settings,
    event: Settings,
    time_control: Option<String>,
    overlay: bool,
    at: Option<u32>,
    limit_profile: Option<String>,
) -> PyResult<String> {
    let input = game_input(py, source, game, fen, moves)?;
    let options = AdjudicateOptions {
        rules,
        settings: settings_text(settings),
        event: settings_text(event),
        time_control,
        overlay,
        at,
        limit_profile,
    };
    py.detach(|| guarded(|| service::adjudicate(&input, &options).map(|r| r.to_json())))?
        .map_err(|e| service_err(py, &e))
}

/// A side named by `claimant=`.
fn claimant_color(name: &str) -> PyResult<Color> {
    match name.to_ascii_lowercase().as_str() {
        "red" | "r" | "w" | "white" => Ok(Color::Red),
        "black" | "b" => Ok(Color::Black),
        _ => Err(value_err(format!(
            "claimant='{name}' is not a side (expected 'red' or 'black')"
        ))),
    }
}

/// `claim`: the object of `xqa claim --json`. A cap is `None` (the profile's), `(None,)` (no
/// cap) or `(n,)`.
#[pyfunction]
#[pyo3(signature = (source, claimant, game, fen, moves, profile, settings, event, time_control, at, limit, attack_cap, check_cap, from_claim, rules, rule_settings))]
#[allow(clippy::too_many_arguments)]
pub fn claim_json(
    py: Python<'_>,
    source: Option<&Bound<'_, PyAny>>,
    claimant: &str,
    game: usize,
    fen: Option<&str>,
    moves: Option<&Bound<'_, PyAny>>,
    profile: String,
    settings: Settings,
    event: Settings,
    time_control: Option<String>,
    at: Option<u32>,
    limit: Option<u32>,
    attack_cap: Option<(Option<u32>,)>,
    check_cap: Option<(Option<u32>,)>,
    from_claim: Option<u32>,
    rules: String,
    rule_settings: Settings,
) -> PyResult<String> {
    let claimant = claimant_color(claimant)?;
    let rule_settings = settings_text(rule_settings);
    // The rules are checked before the record is read, as the CLI does.
    service::rules_profile(&rules, rule_settings.as_ref()).map_err(|e| service_err(py, &e))?;
    let input = game_input(py, source, game, fen, moves)?;
    let request = ClaimRequest {
        claimant,
        profile,
        settings: settings_text(settings),
        event: settings_text(event),
        time_control,
        limit,
        attack_cap: attack_cap.map(|(c,)| c),
        check_cap: check_cap.map(|(c,)| c),
        at,
        from_claim,
        rules,
        rule_settings,
    };
    py.detach(|| guarded(|| service::claim(&input, &request).map(|o| o.to_json())))?
        .map_err(|e| service_err(py, &e))
}

/// A line of the screen, or the reader's failure.
type Line = Result<String, String>;

/// Writes the JSON lines of `screen` into a channel, one message a line; fails once the
/// iterator is gone (which stops the screening's output).
struct LineSender {
    tx: SyncSender<Line>,
    buf: Vec<u8>,
}

impl Write for LineSender {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(data);
        while let Some(end) = self.buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.buf.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line[..end]).into_owned();
            if self.tx.send(Ok(text)).is_err() {
                return Err(io::Error::new(io::ErrorKind::BrokenPipe, "iterator closed"));
            }
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The iterator returned by `screen`: the objects of `xqa screen --json`, in input order.
#[pyclass(module = "xiangqi_arbiter")]
pub struct ScreenIter {
    rx: Option<Mutex<Receiver<Line>>>,
}

#[pymethods]
impl ScreenIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let Some(rx) = &self.rx else {
            return Err(PyStopIteration::new_err(()));
        };
        match py.detach(|| rx.lock().ok().and_then(|r| r.recv().ok())) {
            None => {
                self.rx = None;
                Err(PyStopIteration::new_err(()))
            }
            Some(Err(e)) => {
                self.rx = None;
                Err(PyRuntimeError::new_err(e))
            }
            Some(Ok(line)) => crate::reports::loads(py, &line),
        }
    }

    /// Stops the screening (its thread ends at its next report).
    fn close(&mut self) {
        self.rx = None;
    }
}

/// `screen`: starts screening the sources on the engine's threads and returns the iterator.
#[pyfunction]
#[pyo3(signature = (sources, rules, threads, settings, event, time_control, overlay, draws, all, limit_profile))]
#[allow(clippy::too_many_arguments)]
pub fn screen(
    py: Python<'_>,
    sources: &Bound<'_, PyAny>,
    rules: String,
    threads: usize,
    settings: Settings,
    event: Settings,
    time_control: Option<String>,
    overlay: bool,
    draws: bool,
    all: bool,
    limit_profile: Option<String>,
) -> PyResult<ScreenIter> {
    let sources = extract_many(sources)?;
    let options = service::screen_options(&ScreenRequest {
        rules,
        settings: settings_text(settings),
        draws,
        all,
        json: true,
        limit_profile,
        event: settings_text(event),
        time_control,
        overlay,
    })
    .map_err(|e| service_err(py, &e))?;
    let pool = Pool::new(threads)?;
    let (tx, rx) = sync_channel::<Line>(256);
    std::thread::Builder::new()
        .name("xiangqi-arbiter-screen".into())
        .spawn(move || {
            let mut out = LineSender {
                tx: tx.clone(),
                buf: Vec::new(),
            };
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                pool.install(|| -> io::Result<()> {
                    for source in &sources {
                        match source {
                            Source::Path(p) => {
                                service::screen_paths(
                                    std::slice::from_ref(p),
                                    &options,
                                    TextLang::Both,
                                    &mut out,
                                )?;
                            }
                            Source::Bytes { name, bytes } => {
                                let entries = service::read_games(bytes, name);
                                let screens: Vec<GameScreen> = entries
                                    .par_iter()
                                    .map(|e| GameScreen::of(e, &options))
                                    .collect();
                                for (g, e) in screens.iter().zip(&entries) {
                                    // The games `xqa screen --json` prints (see report::screen).
                                    if options.all || g.has_incident() || g.error.is_some() {
                                        writeln!(out, "{}", game_json(g, e))?;
                                    }
                                }
                            }
                        }
                    }
                    Ok(())
                })
            }));
            match run {
                Ok(Ok(())) => {}
                Ok(Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => {}
                Ok(Err(e)) => {
                    let _ = tx.send(Err(format!("screen: {e}")));
                }
                Err(_) => {
                    let _ = tx.send(Err("internal error while screening".into()));
                }
            }
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
    Ok(ScreenIter {
        rx: Some(Mutex::new(rx)),
    })
}
