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
use xiangqi_arbiter::record::GameEntry;
use xiangqi_arbiter::report::text::TextLang;
use xiangqi_arbiter::report::{self, screen::game_json};
use xiangqi_arbiter::rules::screen::{GameScreen, ScreenSummary};
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
        if let Ok(game) = source.cast::<crate::game::Game>() {
            return game_of(game.get());
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

/// The input of a ruling on a `Game`: game `number` of its file when the file is there (read
/// again, so that the report is the CLI's for it), else the game written as PGN (in ICCS, with
/// its tags, comments and variations; an invalid game's legal part), as game 1 of a record named
/// as its source.
fn game_of(game: &crate::game::Game) -> PyResult<GameInput> {
    let p = &game.packed;
    let path = std::path::Path::new(&*p.source);
    if path.is_file() {
        return Ok(GameInput::File {
            path: path.to_owned(),
            game: p.index + 1,
        });
    }
    let entry = game.entry()?;
    let mut text = String::new();
    guarded(|| {
        report::write_converted(
            &entry.game,
            xiangqi_arbiter::Notation::Iccs,
            report::ConvertFormat::Pgn,
            &mut text,
        )
    })?;
    Ok(GameInput::record(text, p.source.to_string(), 1))
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
    if event.is_none() {
        // An unknown profile name is a wrong argument (ValueError), as an unknown limit_profile=.
        service::claim_limit_profile(&profile, None, None, None, None)
            .map_err(|e| value_err(format!("profile='{profile}': {e}")))?;
    }
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

/// A line of the screen, the run's summary (JSON) at its end, or the reader's failure.
enum Line {
    Report(String),
    Summary(String),
    Failed(String),
}

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
            if self.tx.send(Line::Report(text)).is_err() {
                return Err(io::Error::new(io::ErrorKind::BrokenPipe, "iterator closed"));
            }
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The iterator returned by `screen`: the objects of `xqa screen --json`, in input order. One
/// iterator can be shared by threads: each report goes to one of them.
#[pyclass(module = "xiangqi_arbiter", frozen)]
pub struct ScreenIter {
    rx: Mutex<Option<Receiver<Line>>>,
    summary: Mutex<Option<Py<PyAny>>>,
}

#[pymethods]
impl ScreenIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        // (`list(it)` calls this from C, where no pending signal is handled: Ctrl-C is looked
        // at here, at every item.)
        py.check_signals()?;
        loop {
            match crate::interrupt::recv(py, &self.rx)? {
                None => return Err(PyStopIteration::new_err(())),
                Some(Line::Failed(e)) => {
                    crate::interrupt::close(&self.rx);
                    return Err(PyRuntimeError::new_err(e));
                }
                Some(Line::Summary(json)) => {
                    let summary = crate::reports::loads(py, &json)?.unbind();
                    *self.summary.lock().unwrap_or_else(|e| e.into_inner()) = Some(summary);
                }
                Some(Line::Report(line)) => return crate::reports::loads(py, &line),
            }
        }
    }

    /// The run's totals once the iterator is exhausted (None before): the counts `xqa screen`
    /// prints at its end (`games`, `plies`, `games_with_incidents`, `incidents`, `rulings_due`,
    /// `undetermined_moves`, `early_draws`, `invalid`, `unreadable`, `not_records`, `skipped`,
    /// `seconds`).
    #[getter]
    fn summary(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.summary
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .map(|s| s.clone_ref(py))
    }

    /// Stops the screening (its thread ends at its next report).
    fn close(&self) {
        crate::interrupt::close(&self.rx);
    }
}

/// Adds one game screened from a record given in memory to the totals, as `xqa screen` counts
/// the games of standard input.
fn count_game(s: &mut ScreenSummary, g: &GameScreen, entry: &GameEntry) {
    if report::is_not_a_record(entry) {
        s.not_records += 1;
        return;
    }
    s.games += 1;
    s.plies += g.plies;
    s.incidents += g.incidents.len();
    s.rulings_due += g.incidents.iter().filter(|i| i.ruling_due).count();
    s.undetermined_moves += g.undetermined.len();
    s.invalid += usize::from(g.error.is_some());
    s.unreadable += usize::from(g.unreadable);
    s.games_with_incidents += usize::from(g.has_incident());
    s.early_draws += usize::from(g.early_draw.is_some());
}

/// The totals of several runs.
fn add(total: &mut ScreenSummary, s: &ScreenSummary) {
    total.games += s.games;
    total.plies += s.plies;
    total.games_with_incidents += s.games_with_incidents;
    total.incidents += s.incidents;
    total.rulings_due += s.rulings_due;
    total.undetermined_moves += s.undetermined_moves;
    total.early_draws += s.early_draws;
    total.invalid += s.invalid;
    total.unreadable += s.unreadable;
    total.not_records += s.not_records;
    total.skipped += s.skipped;
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
            let started = std::time::Instant::now();
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                pool.install(|| -> io::Result<ScreenSummary> {
                    let mut total = ScreenSummary::default();
                    for source in &sources {
                        match source {
                            Source::Path(p) => {
                                let s = service::screen_paths(
                                    std::slice::from_ref(p),
                                    &options,
                                    TextLang::Both,
                                    &mut out,
                                )?;
                                add(&mut total, &s);
                            }
                            Source::Bytes { name, bytes } => {
                                let entries = service::read_games(bytes, name);
                                let screens: Vec<GameScreen> = entries
                                    .par_iter()
                                    .map(|e| GameScreen::of(e, &options))
                                    .collect();
                                for (g, e) in screens.iter().zip(&entries) {
                                    count_game(&mut total, g, e);
                                    if report::is_not_a_record(e) {
                                        let mut line = Vec::new();
                                        report::write_not_a_record(&mut line, true, &e.source)?;
                                        out.write_all(&line)?;
                                    } else if options.all || g.has_incident() || g.error.is_some() {
                                        // The games `xqa screen --json` prints (see report::screen).
                                        writeln!(out, "{}", game_json(g, e, &options))?;
                                    }
                                }
                            }
                        }
                    }
                    total.seconds = started.elapsed().as_secs_f64();
                    Ok(total)
                })
            }));
            match run {
                Ok(Ok(total)) => {
                    let json = serde_json::to_string(&total).unwrap_or_else(|_| "null".into());
                    let _ = tx.send(Line::Summary(json));
                }
                Ok(Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => {}
                Ok(Err(e)) => {
                    let _ = tx.send(Line::Failed(format!("screen: {e}")));
                }
                Err(_) => {
                    let _ = tx.send(Line::Failed("internal error while screening".into()));
                }
            }
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
    Ok(ScreenIter {
        rx: Mutex::new(Some(rx)),
        summary: Mutex::new(None),
    })
}
