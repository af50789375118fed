//! `perft`: the leaves of the legal move tree, for testing and timing the move generator.

use super::ServiceError;
use super::input::parse_fen;
use crate::Move;
use std::time::Instant;

/// The most worker threads a request may ask for (more only costs memory and start-up time).
pub const MAX_THREADS: usize = 1024;

/// A perft count.
#[derive(Clone, Debug)]
pub struct PerftReport {
    pub depth: u32,
    pub nodes: u64,
    pub seconds: f64,
    pub nps: f64,
    /// The count under each first move (with `divide`).
    pub divide: Option<Vec<(Move, u64)>>,
}

impl PerftReport {
    /// The JSON object `xqa perft --json` prints: `{"depth","nodes","seconds","nps"}` (and
    /// `"divide"` with the split).
    pub fn to_json(&self) -> serde_json::Value {
        let mut obj = serde_json::json!({
            "depth": self.depth, "nodes": self.nodes, "seconds": self.seconds,
            "nps": self.nps.round() as u64,
        });
        if let Some(split) = &self.divide {
            obj["divide"] = split
                .iter()
                .map(|(m, n)| (m.to_string(), serde_json::json!(n)))
                .collect();
        }
        crate::report::schema::versioned(obj)
    }

    /// The text `xqa perft` prints.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (m, n) in self.divide.iter().flatten() {
            out.push_str(&format!("{m}: {n}\n"));
        }
        out.push_str(&format!(
            "depth {}: {} nodes in {:.3} s ({:.1} M nodes/s)\n",
            self.depth,
            self.nodes,
            self.seconds,
            self.nps / 1e6
        ));
        out
    }
}

/// A rayon pool of `threads` workers (0 = all cores).
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, ServiceError> {
    if threads > MAX_THREADS {
        return Err(ServiceError::usage(format!(
            "--threads {threads}: at most {MAX_THREADS} (0 = all cores)"
        )));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| ServiceError::usage(format!("cannot start threads: {e}")))
}

/// Counts the leaves `depth` plies below `fen`, on `threads` workers (1: single-threaded;
/// 0: all cores), split by first move with `divide`.
pub fn perft(
    fen: &str,
    depth: u32,
    divide: bool,
    threads: usize,
) -> Result<PerftReport, ServiceError> {
    if depth > crate::perft::MAX_DEPTH {
        return Err(ServiceError::usage(format!(
            "perft depth {depth} is too deep (at most {}; depth 8 already takes minutes)",
            crate::perft::MAX_DEPTH
        )));
    }
    let pos = parse_fen(fen)?;
    let pool = thread_pool(threads)?;
    let parallel = threads != 1;
    let start = Instant::now();
    let (nodes, split) = pool.install(|| {
        if depth == 0 {
            // The empty line is the one leaf; there is no first move to split by.
            (1, Vec::new())
        } else if divide {
            let split = if parallel {
                crate::perft::divide_parallel(&pos, depth)
            } else {
                crate::divide(&pos, depth)
            };
            (split.iter().map(|(_, n)| n).sum(), split)
        } else if parallel {
            (crate::perft_parallel(&pos, depth), Vec::new())
        } else {
            (crate::perft(&pos, depth), Vec::new())
        }
    });
    let seconds = start.elapsed().as_secs_f64();
    let nps = if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    };
    Ok(PerftReport {
        depth,
        nodes,
        seconds,
        nps,
        divide: divide.then_some(split),
    })
}
