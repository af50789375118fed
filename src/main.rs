//! `xqa`: the command-line front end of xiangqi-arbiter.
//!
//! Exit codes: 0 success, 1 the input was invalid, 2 usage or I/O error.

use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Instant;
use xiangqi_arbiter::{Position, START_FEN, diagram};

#[derive(Parser)]
#[command(
    name = "xqa",
    version,
    about = "Xiangqi arbiter: validate game records, count perft, rule on repetitions and move limits"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (move generator test and benchmark).
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Start position (default: the standard start).
        #[arg(long, default_value = START_FEN)]
        fen: String,
        /// Print the count under each first move.
        #[arg(long)]
        divide: bool,
        /// Worker threads (1 = single-threaded; 0 = all cores).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// One JSON object {"depth","nodes","seconds","nps"}.
        #[arg(long)]
        json: bool,
    },
    /// Check every game of the records: files, directories (recursive) or `-` for stdin.
    /// Exit 0 when all are valid, 1 when any is invalid, 2 on usage or I/O error.
    Validate {
        /// One JSON object per game per line (the summary goes to stderr).
        #[arg(long)]
        json: bool,
        /// Worker threads (0 = all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Record files or directories; `-` reads standard input.
        #[arg(required = true)]
        paths: Vec<std::path::PathBuf>,
    },
    /// Rewrite records in another notation or format, keeping tags, comments, variations, result.
    Convert {
        /// Move notation of the PGN written: iccs, wxf or chinese.
        #[arg(long, default_value = "chinese")]
        to: String,
        /// Output format: pgn or dhtmlxq.
        #[arg(long, default_value = "pgn")]
        format: String,
        /// Write here instead of standard output.
        #[arg(long, short)]
        output: Option<std::path::PathBuf>,
        /// Record files or directories; `-` reads standard input.
        #[arg(required = true)]
        paths: Vec<std::path::PathBuf>,
    },
    /// Rule on a game: the nature of every move, repetition cycles and their verdicts.
    Adjudicate {
        /// A game record (PGN, DhtmlXQ, XQF, ...).
        #[arg(conflicts_with_all = ["fen", "moves"])]
        path: Option<std::path::PathBuf>,
        /// Which game of the file (1-based).
        #[arg(long, default_value_t = 1, requires = "path")]
        game: usize,
        /// Rule profile: cxa (Chinese Xiangqi Association, default) or axf (Asian rules).
        #[arg(long, default_value = "cxa")]
        rules: String,
        /// A JSON settings file (every field of the profile; missing fields take the defaults of
        /// the CXA profile). Overrides --rules.
        #[arg(long)]
        settings: Option<std::path::PathBuf>,
        /// One JSON object instead of the text table.
        #[arg(long)]
        json: bool,
        /// Start position (with --moves).
        #[arg(long)]
        fen: Option<String>,
        /// The moves in ICCS, separated by spaces or commas (with --fen, or from the initial array).
        #[arg(long)]
        moves: Option<String>,
    },
    /// List the legal moves of a position in a notation.
    Moves {
        /// The position (default: the standard start).
        #[arg(long, default_value = START_FEN)]
        fen: String,
        /// Notation of the listed moves: iccs, wxf or chinese.
        #[arg(long, default_value = "iccs")]
        notation: xiangqi_arbiter::Notation,
        /// One JSON object {"fen","turn","notation","count","moves":[{"iccs","text"}]}.
        #[arg(long)]
        json: bool,
    },
    /// Draw a position as a text diagram.
    Show {
        /// The position.
        #[arg(long, default_value = START_FEN)]
        fen: String,
    },
}

/// A failure with its exit code.
struct Failure {
    code: u8,
    message: String,
}

fn invalid(message: impl Into<String>) -> Failure {
    Failure {
        code: 1,
        message: message.into(),
    }
}

fn io_failure(e: std::io::Error) -> Failure {
    Failure {
        code: 2,
        message: format!("I/O error: {e}"),
    }
}

fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, Failure> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure {
            code: 2,
            message: format!("cannot start threads: {e}"),
        })
}

fn parse_fen(fen: &str) -> Result<Position, Failure> {
    Position::from_fen(fen).map_err(|e| invalid(format!("invalid FEN '{fen}': {e}")))
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Perft {
            depth,
            fen,
            divide,
            threads,
            json,
        } => {
            let pos = parse_fen(&fen)?;
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| Failure {
                    code: 2,
                    message: format!("cannot start threads: {e}"),
                })?;
            let parallel = threads != 1;
            let start = Instant::now();
            let (nodes, split) = pool.install(|| {
                if divide {
                    let split = if parallel {
                        xiangqi_arbiter::perft::divide_parallel(&pos, depth)
                    } else {
                        xiangqi_arbiter::divide(&pos, depth)
                    };
                    (split.iter().map(|(_, n)| n).sum(), split)
                } else if parallel {
                    (xiangqi_arbiter::perft_parallel(&pos, depth), Vec::new())
                } else {
                    (xiangqi_arbiter::perft(&pos, depth), Vec::new())
                }
            });
            let seconds = start.elapsed().as_secs_f64();
            let nps = if seconds > 0.0 {
                nodes as f64 / seconds
            } else {
                0.0
            };
            if json {
                let mut obj = serde_json::json!({
                    "depth": depth, "nodes": nodes, "seconds": seconds, "nps": nps.round() as u64,
                });
                if divide {
                    obj["divide"] = split
                        .iter()
                        .map(|(m, n)| (m.to_string(), serde_json::json!(n)))
                        .collect();
                }
                println!("{obj}");
            } else {
                for (m, n) in &split {
                    println!("{m}: {n}");
                }
                println!(
                    "depth {depth}: {nodes} nodes in {seconds:.3} s ({:.1} M nodes/s)",
                    nps / 1e6
                );
            }
            Ok(())
        }
        Command::Validate {
            json,
            threads,
            paths,
        } => {
            let pool = thread_pool(threads)?;
            let mut out = std::io::BufWriter::new(std::io::stdout());
            let summary = pool
                .install(|| xiangqi_arbiter::report::validate(&paths, json, &mut out))
                .map_err(io_failure)?;
            use std::io::Write;
            if json {
                out.flush().map_err(io_failure)?;
                eprintln!("{summary}");
            } else {
                writeln!(out, "{summary}").map_err(io_failure)?;
                out.flush().map_err(io_failure)?;
            }
            match summary.exit_code() {
                0 => Ok(()),
                code => Err(Failure {
                    code,
                    message: format!(
                        "{} invalid, {} unreadable",
                        summary.invalid, summary.io_errors
                    ),
                }),
            }
        }
        Command::Convert {
            to,
            format,
            output,
            paths,
        } => {
            let notation: xiangqi_arbiter::record::Notation = to.parse().map_err(|e| Failure {
                code: 2,
                message: format!("--to: {e} (iccs, wxf or chinese)"),
            })?;
            let format = match format.to_ascii_lowercase().as_str() {
                "pgn" => xiangqi_arbiter::report::ConvertFormat::Pgn,
                "dhtmlxq" | "ubb" => xiangqi_arbiter::report::ConvertFormat::Dhtmlxq,
                other => {
                    return Err(Failure {
                        code: 2,
                        message: format!("--format: unknown format '{other}' (pgn or dhtmlxq)"),
                    });
                }
            };
            let mut out: Box<dyn std::io::Write> = match &output {
                Some(p) => Box::new(std::io::BufWriter::new(
                    std::fs::File::create(p).map_err(io_failure)?,
                )),
                None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
            };
            let (_, failed) = xiangqi_arbiter::report::convert(
                &paths,
                notation,
                format,
                &mut out,
                &mut std::io::stderr(),
            )
            .map_err(io_failure)?;
            out.flush().map_err(io_failure)?;
            if failed > 0 {
                return Err(invalid(format!("{failed} game(s) could not be converted")));
            }
            Ok(())
        }
        Command::Adjudicate {
            path,
            game,
            rules,
            settings,
            json,
            fen,
            moves,
        } => {
            use xiangqi_arbiter::rules::{Profile, adjudicate};
            let profile = match settings {
                Some(file) => {
                    let text = std::fs::read_to_string(&file).map_err(|e| Failure {
                        code: 2,
                        message: format!("cannot read {}: {e}", file.display()),
                    })?;
                    serde_json::from_str::<Profile>(&text).map_err(|e| {
                        invalid(format!("{}: invalid settings: {e}", file.display()))
                    })?
                }
                None => Profile::by_name(&rules).ok_or_else(|| Failure {
                    code: 2,
                    message: format!("unknown rules '{rules}' (expected cxa or axf)"),
                })?,
            };
            let (start, line) = if let Some(path) = path {
                let _ = game;
                return Err(Failure {
                    code: 2,
                    message: format!(
                        "{}: reading game records is not available in this build yet; use --fen FEN --moves \"...\"",
                        path.display()
                    ),
                });
            } else {
                let start = parse_fen(fen.as_deref().unwrap_or(START_FEN))?;
                let line = adjudicate::parse_iccs_line(&start, moves.as_deref().unwrap_or(""))
                    .map_err(invalid)?;
                (start, line)
            };
            let report = adjudicate::adjudicate(&start, &line, &profile)
                .map_err(|e| invalid(e.to_string()))?;
            if json {
                println!("{}", report.to_json());
            } else {
                print!("{}", report.to_text());
            }
            Ok(())
        }
        Command::Moves {
            fen,
            notation,
            json,
        } => {
            let pos = parse_fen(&fen)?;
            print!(
                "{}",
                xiangqi_arbiter::notation::moves_report(&pos, notation, json)
            );
            Ok(())
        }
        Command::Show { fen } => {
            let pos = parse_fen(&fen)?;
            println!("{}", diagram::text(&pos.to_setup(), None));
            println!("FEN: {}", pos.fen());
            if pos.is_checkmate() {
                println!("{} is checkmated", pos.turn());
            } else if pos.is_stalemate() {
                println!("{} has no legal move (stalemate: loses)", pos.turn());
            } else if pos.is_check() {
                println!("{} is in check", pos.turn());
            }
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("xqa: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}
