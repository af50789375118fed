//! `xqa`: the command-line front end of xiangqi-arbiter.
//!
//! Exit codes: 0 success, 1 the input was invalid, 2 usage or I/O error.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use xiangqi_arbiter::rules::limit::{self, ClaimOptions, CountingMode, Lang, LimitProfile};
use xiangqi_arbiter::{Color, Move, Position, START_FEN, diagram, svg};

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
        /// Move notation of the PGN written: iccs, wxf, chinese, san (pychess, ranks 1-10) or
        /// san_winboard (ranks 0-9).
        #[arg(long, default_value = "chinese")]
        to: String,
        /// Rank numbering of SAN: 1 (pychess, Fairy-Stockfish: 1-10) or 0 (WinBoard: 0-9).
        #[arg(long, value_parser = ["0", "1"])]
        rank_base: Option<String>,
        /// Output format: pgn, dhtmlxq or wxf (the WXF file format, always in WXF moves).
        #[arg(long, default_value = "pgn")]
        format: String,
        /// Write here instead of standard output.
        #[arg(long, short)]
        output: Option<std::path::PathBuf>,
        /// Record files or directories; `-` reads standard input.
        #[arg(required = true)]
        paths: Vec<std::path::PathBuf>,
    },
    /// Screen whole databases for rule incidents: every game of the records (files, directories,
    /// `-` for stdin) is ruled on like `adjudicate`, in parallel, and each repetition cycle in which
    /// a side must vary is reported (with the moves of its loop and the reason), in input order.
    /// Exit 0 when the run completes (incidents or not), 2 on usage or I/O error.
    Screen {
        /// Rule profile: cxa or axf.
        #[arg(long, default_value = "cxa")]
        rules: String,
        /// A JSON settings file (every field of the profile). Overrides --rules.
        #[arg(long)]
        settings: Option<PathBuf>,
        /// One JSON object per reported game per line (the summary goes to stderr).
        #[arg(long)]
        json: bool,
        /// Also report drawn cycles.
        #[arg(long)]
        draws: bool,
        /// With --json, one object for every game, incidents or not.
        #[arg(long)]
        all: bool,
        /// Also report where a natural move limit (自然限着) claim would first be valid, under
        /// this limit profile: slow (60/30/10), rapid (50/25/8) or amateur40.
        #[arg(long)]
        limit_profile: Option<String>,
        /// Worker threads (0 = all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Record files or directories; `-` reads standard input.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
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
        /// Plies played when the natural move limit status is taken (default: the whole game).
        #[arg(long)]
        at: Option<u32>,
        /// The natural move limit profile of the event: slow (60/30/10), rapid (50/25/8), amateur40.
        #[arg(long, default_value = "slow")]
        limit_profile: String,
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
    /// Draw a position as a text diagram, and as an SVG picture with --svg.
    Show {
        /// A game record; the position is taken after --at plies of its main line.
        #[arg(conflicts_with = "fen")]
        path: Option<PathBuf>,
        /// Game number in the file (from 1).
        #[arg(long, default_value_t = 1, requires = "path")]
        game: usize,
        /// The position (default: the standard start).
        #[arg(long)]
        fen: Option<String>,
        /// Moves (ICCS) played from --fen before drawing.
        #[arg(long, conflicts_with = "path")]
        moves: Option<String>,
        /// Plies of the game to play before drawing (default: all).
        #[arg(long)]
        at: Option<u32>,
        /// Also write the board as an SVG picture to this file.
        #[arg(long)]
        svg: Option<PathBuf>,
    },
    /// Judge a natural move limit (自然限着) draw claim.
    Claim {
        /// A game record (the main line is judged).
        #[arg(conflicts_with = "fen")]
        path: Option<PathBuf>,
        /// Game number in the file (from 1).
        #[arg(long, default_value_t = 1, requires = "path")]
        game: usize,
        /// Start position, with --moves (default: the standard start).
        #[arg(long)]
        fen: Option<String>,
        /// The moves played from --fen, in ICCS ("h2e2 h9g7 ..." or "H2-E2 H9-G7 ..."; move
        /// numbers and a result token are ignored).
        #[arg(long, conflicts_with = "path")]
        moves: Option<String>,
        /// The side that claims the draw.
        #[arg(long, value_parser = parse_color)]
        claimant: Color,
        /// The event's rule: slow (60/30/10), rapid (50/25/8), armageddon (= rapid), amateur40.
        #[arg(long, default_value = "slow")]
        profile: String,
        /// An event settings file (JSON: base, name, moves, attack_cap, check_cap, refuse_attackers,
        /// counting), applied over --profile.
        #[arg(long)]
        settings: Option<PathBuf>,
        /// Custom N (moves without capture).
        #[arg(long)]
        limit: Option<u32>,
        /// Custom cap on the claimant's checks + mate threats + chases ("none": no cap).
        #[arg(long, value_parser = parse_cap)]
        attack_cap: Option<Cap>,
        /// Custom cap on the claimant's checks ("none": no cap; 0: checks never count).
        #[arg(long, value_parser = parse_cap)]
        check_cap: Option<Cap>,
        /// Plies played when the claim is made (default: the whole game).
        #[arg(long)]
        at: Option<u32>,
        /// Count from the claim (from_claim mode) announced after this many plies, instead of
        /// from the last capture.
        #[arg(long)]
        from_claim: Option<u32>,
        /// One JSON object instead of the text report.
        #[arg(long)]
        json: bool,
        /// Language of the text report.
        #[arg(long, default_value = "en", value_parser = parse_lang)]
        lang: Lang,
        /// Also write the board at the claim ply as an SVG picture to this file.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// The rules the move natures are judged by: cxa (default) or axf.
        #[arg(long, default_value = "cxa")]
        rules: String,
    },
}

/// A cap given on the command line: a number, or none.
#[derive(Clone, Copy, Debug)]
struct Cap(Option<u32>);

fn parse_cap(s: &str) -> Result<Cap, String> {
    if s.eq_ignore_ascii_case("none") {
        return Ok(Cap(None));
    }
    s.parse::<u32>()
        .map(|n| Cap(Some(n)))
        .map_err(|_| format!("'{s}' is not a number or 'none'"))
}

fn parse_color(s: &str) -> Result<Color, String> {
    match s.to_ascii_lowercase().as_str() {
        "red" | "r" | "w" | "white" => Ok(Color::Red),
        "black" | "b" => Ok(Color::Black),
        _ => Err(format!("'{s}' is not a side (expected red or black)")),
    }
}

fn parse_lang(s: &str) -> Result<Lang, String> {
    s.parse()
}

/// `println!` to standard output, turning a write error into a [`Failure`] (a closed pipe ends
/// the program quietly instead of panicking).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*).map_err(io_failure)?
    }};
}

/// `print!` to standard output, like [`outln!`].
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout(), $($arg)*).map_err(io_failure)?
    }};
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
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        // The reader went away (`xqa ... | head`): nothing left to say, and no one to say it to.
        return Failure {
            code: 0,
            message: String::new(),
        };
    }
    Failure {
        code: 2,
        message: format!("I/O error: {e}"),
    }
}

/// The most worker threads `--threads` accepts (more only costs memory and start-up time).
const MAX_THREADS: usize = 1024;

fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, Failure> {
    if threads > MAX_THREADS {
        return Err(Failure {
            code: 2,
            message: format!("--threads {threads}: at most {MAX_THREADS} (0 = all cores)"),
        });
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure {
            code: 2,
            message: format!("cannot start threads: {e}"),
        })
}

/// Ends a batch report: the summary line after the text lines, or on stderr after JSON lines
/// (so that standard output stays one JSON object per line).
fn write_summary(
    out: &mut impl std::io::Write,
    json: bool,
    summary: &impl std::fmt::Display,
) -> Result<(), Failure> {
    if json {
        out.flush().map_err(io_failure)?;
        eprintln!("{summary}");
    } else {
        writeln!(out, "{summary}").map_err(io_failure)?;
        out.flush().map_err(io_failure)?;
    }
    Ok(())
}

/// The rule profile named by `--rules`, or read from a `--settings` JSON file.
fn load_profile(
    rules: &str,
    settings: Option<&std::path::Path>,
) -> Result<xiangqi_arbiter::rules::Profile, Failure> {
    use xiangqi_arbiter::rules::Profile;
    match settings {
        Some(file) => {
            let text = std::fs::read_to_string(file).map_err(|e| Failure {
                code: 2,
                message: format!("cannot read {}: {e}", file.display()),
            })?;
            serde_json::from_str::<Profile>(&text)
                .map_err(|e| invalid(format!("{}: invalid settings: {e}", file.display())))
        }
        None => Profile::by_name(rules).ok_or_else(|| Failure {
            code: 2,
            message: format!("unknown rules '{rules}' (expected cxa or axf)"),
        }),
    }
}

fn parse_fen(fen: &str) -> Result<Position, Failure> {
    Position::from_fen(fen).map_err(|e| invalid(format!("invalid FEN '{}': {e}", shorten(fen))))
}

/// `text` cut to at most 120 characters (with an ellipsis), for echoing user input in a message.
fn shorten(text: &str) -> String {
    const MAX: usize = 120;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
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
            if depth > xiangqi_arbiter::perft::MAX_DEPTH {
                return Err(Failure {
                    code: 2,
                    message: format!(
                        "perft depth {depth} is too deep (at most {}; depth 8 already takes minutes)",
                        xiangqi_arbiter::perft::MAX_DEPTH
                    ),
                });
            }
            let pos = parse_fen(&fen)?;
            let pool = thread_pool(threads)?;
            let parallel = threads != 1;
            let start = Instant::now();
            let (nodes, split) = pool.install(|| {
                if depth == 0 {
                    // The empty line is the one leaf; there is no first move to split by.
                    (1, Vec::new())
                } else if divide {
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
                outln!("{obj}");
            } else {
                for (m, n) in &split {
                    outln!("{m}: {n}");
                }
                outln!(
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
            write_summary(&mut out, json, &summary)?;
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
            rank_base,
            format,
            output,
            paths,
        } => {
            let notation: xiangqi_arbiter::record::Notation = to.parse().map_err(|e| Failure {
                code: 2,
                message: format!("--to: {e}"),
            })?;
            let notation = match (notation.is_san(), rank_base.as_deref()) {
                (true, Some("0")) => xiangqi_arbiter::Notation::SanWinboard,
                (true, Some(_)) => xiangqi_arbiter::Notation::San,
                (false, Some(_)) => {
                    return Err(Failure {
                        code: 2,
                        message: "--rank-base: only for --to san".to_owned(),
                    });
                }
                (_, None) => notation,
            };
            let format = match format.to_ascii_lowercase().as_str() {
                "pgn" => xiangqi_arbiter::report::ConvertFormat::Pgn,
                "dhtmlxq" | "ubb" => xiangqi_arbiter::report::ConvertFormat::Dhtmlxq,
                "wxf" => xiangqi_arbiter::report::ConvertFormat::Wxf,
                other => {
                    return Err(Failure {
                        code: 2,
                        message: format!(
                            "--format: unknown format '{other}' (pgn, dhtmlxq or wxf)"
                        ),
                    });
                }
            };
            let mut out: Box<dyn std::io::Write> = match &output {
                Some(p) => Box::new(std::io::BufWriter::new(
                    std::fs::File::create(p).map_err(io_failure)?,
                )),
                None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
            };
            let (_, failed, unreadable) = xiangqi_arbiter::report::convert(
                &paths,
                notation,
                format,
                &mut out,
                &mut std::io::stderr(),
            )
            .map_err(io_failure)?;
            out.flush().map_err(io_failure)?;
            if unreadable > 0 {
                return Err(Failure {
                    code: 2,
                    message: format!("{unreadable} input(s) could not be read"),
                });
            }
            if failed > 0 {
                return Err(invalid(format!("{failed} game(s) could not be converted")));
            }
            Ok(())
        }
        Command::Screen {
            rules,
            settings,
            json,
            draws,
            all,
            limit_profile,
            threads,
            paths,
        } => {
            use xiangqi_arbiter::rules::screen::{ScreenOptions, screen};
            let profile = load_profile(&rules, settings.as_deref())?;
            let limit = match limit_profile {
                None => None,
                Some(name) => Some(ClaimOptions {
                    profile: LimitProfile::by_name(&name).ok_or_else(|| Failure {
                        code: 2,
                        message: format!(
                            "unknown limit profile '{name}' (expected slow, rapid or amateur40)"
                        ),
                    })?,
                    rules: profile.clone(),
                    ..ClaimOptions::default()
                }),
            };
            let options = ScreenOptions {
                profile,
                draws,
                all,
                json,
                limit,
            };
            let pool = thread_pool(threads)?;
            let mut out = std::io::BufWriter::new(std::io::stdout());
            let summary = pool
                .install(|| screen(&paths, &options, &mut out))
                .map_err(io_failure)?;
            write_summary(&mut out, json, &summary)?;
            if summary.unreadable > 0 {
                return Err(Failure {
                    code: 2,
                    message: format!("{} input(s) could not be read", summary.unreadable),
                });
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
            at,
            limit_profile,
        } => {
            use xiangqi_arbiter::rules::adjudicate;
            let profile = load_profile(&rules, settings.as_deref())?;
            let (start, line) = match path {
                Some(path) => {
                    let loaded = load_record(&path, game)?;
                    (loaded.start, loaded.moves)
                }
                None => {
                    let start = parse_fen(fen.as_deref().unwrap_or(START_FEN))?;
                    let line = adjudicate::parse_iccs_line(&start, moves.as_deref().unwrap_or(""))
                        .map_err(invalid)?;
                    (start, line)
                }
            };
            let limit_options = ClaimOptions {
                profile: LimitProfile::by_name(&limit_profile).ok_or_else(|| Failure {
                    code: 2,
                    message: format!(
                        "unknown limit profile '{limit_profile}' (expected slow, rapid or amateur40)"
                    ),
                })?,
                rules: profile.clone(),
                ..ClaimOptions::default()
            };
            let report = adjudicate::adjudicate(&start, &line, &profile)
                .map_err(|e| invalid(e.to_string()))?
                .with_natural_limit(&start, &line, at, &limit_options)
                .map_err(|e| invalid(e.to_string()))?;
            if json {
                outln!("{}", report.to_json());
            } else {
                out!("{}", report.to_text());
            }
            Ok(())
        }
        Command::Moves {
            fen,
            notation,
            json,
        } => {
            let pos = parse_fen(&fen)?;
            out!(
                "{}",
                xiangqi_arbiter::notation::moves_report(&pos, notation, json)
            );
            Ok(())
        }
        Command::Show {
            path,
            game,
            fen,
            moves,
            at,
            svg: svg_file,
        } => {
            let line = load_line(path.as_deref(), game, fen.as_deref(), moves.as_deref())?;
            let at = at.unwrap_or(line.moves.len() as u32);
            if at as usize > line.moves.len() {
                return Err(invalid(format!(
                    "--at {at} is past the end of the game ({} plies)",
                    line.moves.len()
                )));
            }
            let mut pos = line.start;
            let mut last_text = None;
            for &m in &line.moves[..at as usize] {
                last_text = Some(xiangqi_arbiter::print_move(
                    &pos,
                    m,
                    xiangqi_arbiter::Notation::Chinese,
                ));
                pos.play_unchecked(m);
            }
            let last = at.checked_sub(1).map(|i| line.moves[i as usize]);
            outln!("{}", diagram::text(&pos.to_setup(), last));
            if let (Some(m), Some(t)) = (last, &last_text) {
                outln!("Last move: ply {at}, {m} {t}");
            }
            if let Some(file) = svg_file {
                let caption = caption_for(at, last, last_text.as_deref());
                write_file(&file, &svg::position(&pos, last, caption.as_deref()))?;
            }
            outln!("FEN: {}", pos.fen());
            if pos.is_checkmate() {
                outln!("{} is checkmated", pos.turn());
            } else if pos.is_stalemate() {
                outln!("{} has no legal move (stalemate: loses)", pos.turn());
            } else if pos.is_check() {
                outln!("{} is in check", pos.turn());
            }
            Ok(())
        }
        Command::Claim {
            path,
            game,
            fen,
            moves,
            claimant,
            profile,
            settings,
            limit: limit_n,
            attack_cap,
            check_cap,
            at,
            from_claim,
            json,
            lang,
            svg: svg_file,
            rules,
        } => {
            let rules =
                xiangqi_arbiter::rules::Profile::by_name(&rules).ok_or_else(|| Failure {
                    code: 2,
                    message: format!("unknown rules '{rules}' (expected cxa or axf)"),
                })?;
            let line = load_line(path.as_deref(), game, fen.as_deref(), moves.as_deref())?;
            let (profile, counting) = limit_profile(
                &profile,
                settings.as_deref(),
                limit_n,
                attack_cap,
                check_cap,
            )?;
            let at = at.unwrap_or(line.moves.len() as u32);
            let options = ClaimOptions {
                profile,
                counting: match (from_claim, counting) {
                    (Some(_), _) => CountingMode::FromClaim,
                    (None, Some(CountingMode::FromClaim)) => {
                        return Err(invalid(
                            "the settings count from the claim (from_claim): give the ply of the claim with --from-claim PLY",
                        ));
                    }
                    _ => CountingMode::FromCapture,
                },
                from_ply: from_claim.unwrap_or(0),
                rules,
            };
            let report = limit::claim(&line.start, &line.moves, claimant, at, &options)
                .map_err(|e| invalid(e.to_string()))?;
            if json {
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&report).expect("report serialises")
                );
            } else {
                out!("{}", report.render(lang));
            }
            if let Some(file) = svg_file {
                let mut pos = line.start;
                for &m in &line.moves[..at as usize] {
                    pos.play_unchecked(m);
                }
                let last = at.checked_sub(1).map(|i| line.moves[i as usize]);
                let caption = report.caption(lang);
                write_file(&file, &svg::position(&pos, last, Some(&caption)))?;
            }
            Ok(())
        }
    }
}

/// A start position and the moves of a main line.
struct LoadedLine {
    start: Position,
    moves: Vec<Move>,
}

fn load_line(
    path: Option<&std::path::Path>,
    game: usize,
    fen: Option<&str>,
    moves: Option<&str>,
) -> Result<LoadedLine, Failure> {
    if let Some(path) = path {
        return load_record(path, game);
    }
    let start = match fen {
        Some(f) => parse_fen(f)?,
        None => Position::start(),
    };
    let moves = match moves {
        Some(text) => parse_iccs_line(&start, text)?,
        None => Vec::new(),
    };
    Ok(LoadedLine { start, moves })
}

fn load_record(path: &std::path::Path, game: usize) -> Result<LoadedLine, Failure> {
    let entry = xiangqi_arbiter::record::load_game(path, game).map_err(|e| Failure {
        code: if e.kind == xiangqi_arbiter::record::error::kind::IO {
            2
        } else {
            1
        },
        message: e.to_string(),
    })?;
    Ok(LoadedLine {
        start: entry.game.start,
        moves: entry.game.main_moves(),
    })
}

/// Reads a list of ICCS moves ("h2e2" or "H2-E2"), skipping move numbers and a result token.
fn parse_iccs_line(start: &Position, text: &str) -> Result<Vec<Move>, Failure> {
    let mut pos = *start;
    let mut moves = Vec::new();
    for token in text.split_whitespace() {
        let t = token.trim_end_matches(['.', ',']);
        if t.is_empty()
            || t.chars().all(|c| c.is_ascii_digit())
            || matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*")
        {
            continue;
        }
        let ply = moves.len() + 1;
        let squares: String = t.chars().filter(|&c| c != '-').collect();
        let m = Move::parse_iccs(&squares.to_ascii_lowercase()).ok_or_else(|| {
            invalid(format!(
                "ply {ply}: '{token}' is not an ICCS move (expected e.g. h2e2 or H2-E2)"
            ))
        })?;
        if !pos.is_legal(m) {
            let why = match pos.piece_at(m.from) {
                None => format!("no piece on {}", m.from),
                Some(p) if p.color != pos.turn() => {
                    format!(
                        "the piece on {} is {}'s, but {} is to move",
                        m.from,
                        p.color,
                        pos.turn()
                    )
                }
                Some(_) => "the move is illegal in this position".into(),
            };
            return Err(invalid(format!(
                "ply {ply}: '{token}': {why} (position {})",
                pos.fen()
            )));
        }
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok(moves)
}

fn caption_for(at: u32, last: Option<Move>, text: Option<&str>) -> Option<String> {
    Some(match (last, text) {
        (Some(m), Some(t)) => format!("ply {at}: {m} {t}"),
        (Some(m), None) => format!("ply {at}: {m}"),
        _ => "start position".into(),
    })
}

fn write_file(path: &std::path::Path, text: &str) -> Result<(), Failure> {
    std::fs::write(path, text).map_err(|e| Failure {
        code: 2,
        message: format!("cannot write {}: {e}", path.display()),
    })
}

fn limit_profile(
    profile: &str,
    settings: Option<&std::path::Path>,
    limit_n: Option<u32>,
    attack_cap: Option<Cap>,
    check_cap: Option<Cap>,
) -> Result<(LimitProfile, Option<CountingMode>), Failure> {
    let mut settings_obj = match settings {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| Failure {
                code: 2,
                message: format!("cannot read {}: {e}", path.display()),
            })?;
            limit::LimitSettings::from_json(&text)
                .map_err(|e| invalid(format!("{}: {e}", path.display())))?
        }
        None => limit::LimitSettings::default(),
    };
    if settings_obj.base.is_none() {
        settings_obj.base = Some(profile.to_owned());
    }
    if limit_n.is_some() {
        settings_obj.moves = limit_n;
    }
    if let Some(Cap(c)) = attack_cap {
        settings_obj.attack_cap = Some(c);
    }
    if let Some(Cap(c)) = check_cap {
        settings_obj.check_cap = Some(c);
    }
    let profile = settings_obj.profile().map_err(|e| invalid(e.to_string()))?;
    Ok((profile, settings_obj.counting))
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
            if !f.message.is_empty() {
                eprintln!("xqa: {}", f.message);
            }
            ExitCode::from(f.code)
        }
    }
}
