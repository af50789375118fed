//! The engine's worker threads for the long calls (`validate`, `screen`, `perft`).

use crate::error::value_err;
use pyo3::PyResult;

/// The most worker threads a call accepts (as the CLI's `--threads`).
pub const MAX_THREADS: usize = 1024;

/// Rayon's global pool (all cores) for `threads=0`, or a pool of its own.
pub enum Pool {
    Global,
    Own(rayon::ThreadPool),
}

impl Pool {
    pub fn new(threads: usize) -> PyResult<Pool> {
        if threads == 0 {
            return Ok(Pool::Global);
        }
        if threads > MAX_THREADS {
            return Err(value_err(format!(
                "threads={threads}: at most {MAX_THREADS} (0 = all cores)"
            )));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map(Pool::Own)
            .map_err(|e| value_err(format!("cannot start {threads} threads: {e}")))
    }

    /// Runs `f` on the pool.
    pub fn install<T: Send>(&self, f: impl FnOnce() -> T + Send) -> T {
        match self {
            Pool::Global => f(),
            Pool::Own(p) => p.install(f),
        }
    }
}
