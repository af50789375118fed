//! Long calls that Ctrl-C (Jupyter's interrupt) can stop.
//!
//! The work runs without the GIL on a thread of its own while the calling thread waits for it,
//! running Python's signal handlers every [`POLL`]. When a handler raises (`KeyboardInterrupt`),
//! the work is asked to stop ([`Stop::requested`], looked at between games or perft subtrees),
//! the calling thread waits for it to end, and the exception is raised. The iterators wait for
//! their next item the same way ([`recv`]).

use crate::error::guarded;
use pyo3::prelude::*;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// How often a waiting call runs the signal handlers.
pub const POLL: Duration = Duration::from_millis(50);

/// The flag a long computation looks at between its steps.
#[derive(Default)]
pub struct Stop(AtomicBool);

impl Stop {
    /// Whether the caller was interrupted: stop at the next step.
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    fn request(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs `work` on a thread of its own, without the GIL, and returns its result; a signal handler
/// that raises meanwhile stops it (see the module). A panic in `work` is a `RuntimeError`.
pub fn run<T: Send>(py: Python<'_>, work: impl FnOnce(&Stop) -> T + Send) -> PyResult<T> {
    let stop = Stop::default();
    let (tx, rx) = channel::<()>();
    let rx = Mutex::new(Some(rx));
    std::thread::scope(|scope| {
        let stop = &stop;
        let worker = std::thread::Builder::new()
            .name("xiangqi-arbiter-call".into())
            .spawn_scoped(scope, move || {
                let result = guarded(|| work(stop));
                drop(tx);
                result
            })
            .map_err(|e| {
                pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start a thread: {e}"))
            })?;
        // (The worker sends nothing: its end closes the channel.)
        let interrupted = recv(py, &rx).err();
        if interrupted.is_some() {
            stop.request();
        }
        let result = py.detach(|| worker.join());
        if let Some(e) = interrupted {
            return Err(e);
        }
        result.unwrap_or_else(|_| {
            Err(pyo3::exceptions::PyRuntimeError::new_err(
                "internal error in xiangqi_arbiter (please report it)",
            ))
        })
    })
}

/// The next item of a channel, waiting without the GIL and running the signal handlers every
/// [`POLL`]: `None` once the channel is closed (the receiver is then dropped) or was dropped.
/// (In a mutex, so that threads can share it: one of them waits at a time.)
pub fn recv<T: Send>(py: Python<'_>, rx: &Mutex<Option<Receiver<T>>>) -> PyResult<Option<T>> {
    loop {
        let next = py.detach(|| {
            let mut rx = rx.lock().unwrap_or_else(|e| e.into_inner());
            let next = match rx.as_ref() {
                Some(r) => r.recv_timeout(POLL),
                None => Err(RecvTimeoutError::Disconnected),
            };
            if matches!(next, Err(RecvTimeoutError::Disconnected)) {
                *rx = None;
            }
            next
        });
        match next {
            Ok(item) => return Ok(Some(item)),
            Err(RecvTimeoutError::Disconnected) => return Ok(None),
            Err(RecvTimeoutError::Timeout) => py.check_signals()?,
        }
    }
}

/// Drops the receiver (its producer stops at its next send).
pub fn close<T>(rx: &Mutex<Option<Receiver<T>>>) {
    *rx.lock().unwrap_or_else(|e| e.into_inner()) = None;
}
