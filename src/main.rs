//! `xqa`: the command-line front end of xiangqi-arbiter.
//!
//! Exit codes: 0 success, 1 the input was invalid, 2 usage or I/O error.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use xiangqi_arbiter::rules::limit::Lang;
use xiangqi_arbiter::service::{
    self, AdjudicateOptions, ClaimRequest, GameInput, ScreenRequest, ServiceError, SettingsText,
};
use xiangqi_arbiter::{Color, START_FEN};

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

impl From<ServiceError> for Failure {
    fn from(e: ServiceError) -> Failure {
        Failure {
            code: e.code,
            message: e.message,
        }
    }
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

/// The text of a `--settings` file.
fn read_settings(file: Option<&std::path::Path>) -> Result<Option<SettingsText>, Failure> {
    let Some(file) = file else { return Ok(None) };
    let text = std::fs::read_to_string(file).map_err(|e| Failure {
        code: 2,
        message: format!("cannot read {}: {e}", file.display()),
    })?;
    Ok(Some(SettingsText {
        name: file.display().to_string(),
        text,
    }))
}

/// The game a command reads: game `game` of the record at `path`, or the FEN and moves.
fn game_input(
    path: Option<&std::path::Path>,
    game: usize,
    fen: Option<&str>,
    moves: Option<&str>,
) -> Result<GameInput, Failure> {
    match path {
        Some(path) => {
            let name = path.display().to_string();
            let bytes = std::fs::read(path).map_err(|e| service::unreadable(&name, &e))?;
            Ok(GameInput::record(bytes, name, game))
        }
        None => Ok(GameInput::fen(fen, moves)),
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
            let report = service::perft(&fen, depth, divide, threads)?;
            if json {
                outln!("{}", report.to_json());
            } else {
                out!("{}", report.to_text());
            }
            Ok(())
        }
        Command::Validate {
            json,
            threads,
            paths,
        } => {
            let pool = service::thread_pool(threads)?;
            let mut out = std::io::BufWriter::new(std::io::stdout());
            let summary = pool
                .install(|| service::validate_paths(&paths, json, &mut out))
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
            format,
            output,
            paths,
        } => {
            let (notation, format) = service::convert_options(&to, &format)?;
            let mut out: Box<dyn std::io::Write> = match &output {
                Some(p) => Box::new(std::io::BufWriter::new(
                    std::fs::File::create(p).map_err(io_failure)?,
                )),
                None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
            };
            let (_, failed, unreadable) =
                service::convert_paths(&paths, notation, format, &mut out, &mut std::io::stderr())
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
            let options = service::screen_options(&ScreenRequest {
                rules,
                settings: read_settings(settings.as_deref())?,
                draws,
                all,
                json,
                limit_profile,
            })?;
            let pool = service::thread_pool(threads)?;
            let mut out = std::io::BufWriter::new(std::io::stdout());
            let summary = pool
                .install(|| service::screen_paths(&paths, &options, &mut out))
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
            let options = AdjudicateOptions {
                rules,
                settings: read_settings(settings.as_deref())?,
                at,
                limit_profile,
            };
            let input = game_input(path.as_deref(), game, fen.as_deref(), moves.as_deref())?;
            let report = service::adjudicate(&input, &options)?;
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
            let report = service::moves(&fen, notation)?;
            if json {
                out!("{}", report.to_json());
            } else {
                out!("{}", report.to_text());
            }
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
            let input = game_input(path.as_deref(), game, fen.as_deref(), moves.as_deref())?;
            let report = service::show(&input, at)?;
            outln!("{}", report.diagram);
            if let Some(line) = report.last_move_line() {
                outln!("{line}");
            }
            if let Some(file) = svg_file {
                write_file(&file, &report.svg)?;
            }
            outln!("FEN: {}", report.position.fen());
            if let Some(line) = report.status_line() {
                outln!("{line}");
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
            // (The rules are checked before the record is read, as they always were.)
            service::named_rules(&rules)?;
            let input = game_input(path.as_deref(), game, fen.as_deref(), moves.as_deref())?;
            let request = ClaimRequest {
                claimant,
                profile,
                settings: read_settings(settings.as_deref())?,
                limit: limit_n,
                attack_cap: attack_cap.map(|Cap(c)| c),
                check_cap: check_cap.map(|Cap(c)| c),
                at,
                from_claim,
                rules,
            };
            let outcome = service::claim(&input, &request)?;
            if json {
                outln!("{}", outcome.to_json());
            } else {
                out!("{}", outcome.to_text(lang));
            }
            if let Some(file) = svg_file {
                write_file(&file, &outcome.svg(lang))?;
            }
            Ok(())
        }
    }
}

fn write_file(path: &std::path::Path, text: &str) -> Result<(), Failure> {
    std::fs::write(path, text).map_err(|e| Failure {
        code: 2,
        message: format!("cannot write {}: {e}", path.display()),
    })
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
