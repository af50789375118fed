//! `xqa`: the command-line front end of xiangqi-arbiter.
//!
//! Exit codes: 0 success, 1 the input was invalid, 2 usage or I/O error.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use xiangqi_arbiter::report::text::TextLang;
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
    /// Cap on one game's size in bytes (its text, or one binary record); a larger game is an
    /// error for that game and reading goes on with the next. 0 = no cap.
    #[arg(long, global = true, default_value_t = xiangqi_arbiter::record::limits::DEFAULT_MAX_GAME_BYTES)]
    max_game_bytes: usize,
    /// Cap on one game's moves (main line and variations together). 0 = no cap.
    #[arg(long, global = true, default_value_t = xiangqi_arbiter::record::limits::DEFAULT_MAX_PLIES)]
    max_plies: usize,
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
    /// Repair a game whose score sheet has a slip (a move left out or written twice, two moves of
    /// one side swapped, a numeral, direction or piece miswritten): writes the game with the
    /// chosen repair made, as PGN in the record's notation, keeping its tags, comments and
    /// variations and marking each edit with a comment. Exit 1 when the game is valid or has no
    /// repair that replays to the end.
    Repair {
        /// The game (from 1) of the record.
        #[arg(long, default_value_t = 1)]
        game: usize,
        /// Which repair (from 1, best first, as `--list` and `xqa validate` show them).
        #[arg(long, default_value_t = 1)]
        pick: usize,
        /// Write here instead of standard output. An existing file is overwritten only when
        /// `xqa repair` wrote it, or with --force.
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// Overwrite the output file whatever it holds.
        #[arg(long)]
        force: bool,
        /// Only list the repairs (Chinese, then English); write nothing.
        #[arg(long)]
        list: bool,
        /// A PGN record (moves in Chinese, WXF or ICCS notation); `-` reads standard input.
        path: PathBuf,
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
        /// Convert only this game (from 1) of the one record file given.
        #[arg(long)]
        game: Option<usize>,
        /// Report the games not converted as JSON error objects on standard error.
        #[arg(long)]
        json: bool,
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
        /// An event file (events/*.json): the event's rules profile, tournament overlay,
        /// occurrence counting and natural move limit (not with --rules or --settings: the
        /// event names its rules).
        #[arg(long, conflicts_with_all = ["settings", "rules"])]
        event: Option<PathBuf>,
        /// The event's time control whose natural move limit applies (slow, rapid, armageddon
        /// ...; default: the event's default).
        #[arg(long, requires = "event")]
        time_control: Option<String>,
        /// Tournament overlay (an event's regulation, off by default): a drawn cycle within the
        /// first 25 moves (the profile's overlay_moves) of a game from the initial array means
        /// Red must vary.
        #[arg(long)]
        overlay: bool,
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
        /// Language of the text report: zh, en or both.
        #[arg(long, default_value = "both")]
        lang: TextLang,
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
        /// An event file (events/*.json): the event's rules profile, tournament overlay,
        /// occurrence counting and natural move limit (not with --rules or --settings: the
        /// event names its rules).
        #[arg(long, conflicts_with_all = ["settings", "rules"])]
        event: Option<PathBuf>,
        /// The event's time control whose natural move limit applies (slow, rapid, armageddon
        /// ...; default: the event's default).
        #[arg(long, requires = "event")]
        time_control: Option<String>,
        /// Tournament overlay (an event's regulation, off by default): a drawn cycle within the
        /// first 25 moves (the profile's overlay_moves) of a game from the initial array means
        /// Red must vary.
        #[arg(long)]
        overlay: bool,
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
        /// The natural move limit profile: slow (60/30/10, the default, or the event's time
        /// control with --event), rapid (50/25/8), amateur40.
        #[arg(long)]
        limit_profile: Option<String>,
        /// Also write the ruling sheet (one printable HTML page) to this file.
        #[arg(long)]
        html: Option<PathBuf>,
        /// Language of the text report: zh, en or both.
        #[arg(long, default_value = "both")]
        lang: TextLang,
    },
    /// List the legal moves of a position in a notation.
    Moves {
        /// A game record; the position is taken after --at plies of its main line.
        #[arg(conflicts_with = "fen")]
        path: Option<PathBuf>,
        /// Game number in the file (from 1).
        #[arg(long, default_value_t = 1, requires = "path")]
        game: usize,
        /// Plies of the game to play first (default: all).
        #[arg(long, requires = "path")]
        at: Option<u32>,
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
        /// One JSON object instead of the diagram.
        #[arg(long)]
        json: bool,
    },
    /// Start the arbiter's workbench: a local web app and its JSON API (see the README).
    Serve {
        /// Address to listen on. Anything but loopback must be asked for explicitly.
        #[arg(long, default_value = "127.0.0.1")]
        bind: std::net::IpAddr,
        /// Port to listen on (0: any free port; the address is printed).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Largest request body accepted, in MB.
        #[arg(long, default_value_t = 16)]
        max_body_mb: usize,
        /// The budget of one request's analysis, in seconds (an error naming it when spent).
        #[arg(long, default_value_t = 10.0)]
        max_request_seconds: f64,
        /// The time a client has to send a request's body, in seconds (beyond it: 408, logged);
        /// a connection whose client takes nothing of its answers for as long is closed.
        #[arg(long, default_value_t = 60.0)]
        body_timeout_seconds: f64,
        /// Analyses that may wait for their turn (beyond them: 503 with Retry-After).
        #[arg(long, default_value_t = 32)]
        max_queue: usize,
        /// Connections served at once (more are closed at once, and logged).
        #[arg(long, default_value_t = 256)]
        max_connections: usize,
        /// An origin (http://NAME:PORT) whose pages may use the server, and whose name may be
        /// its Host, besides its own address (for a venue's name for it); repeatable.
        #[arg(long)]
        allow_origin: Vec<String>,
        /// An event file (events/*.json) whose rules the analyses follow by default (a request
        /// may name a shipped event with event=NAME, or event=none).
        #[arg(long)]
        event: Option<PathBuf>,
        /// The venue's database (SQLite; created on first use): live counts every device shares,
        /// the case book of every ruling issued, the arbiters' sessions. Off loopback, the
        /// arbiters need the access code (printed at start-up, or --access-code-file).
        #[arg(long)]
        db: Option<PathBuf>,
        /// The access code in a file (its first line; at least 8 letters or digits) instead of
        /// a new one at every start; asked for on loopback too when given.
        #[arg(long, requires = "db")]
        access_code_file: Option<PathBuf>,
    },
    /// Export a venue's case book (裁决记录簿): every ruling issued on `xqa serve --db`, with its
    /// event, round, table, players, arbiter, time, record and ruling. Reads the database without
    /// changing it, also while the server runs.
    Casebook {
        /// The venue database (`xqa serve --db FILE`).
        db: PathBuf,
        /// One JSON object: {"schema":1,"database","entries":[...]} (the sheets included).
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// CSV, one row per entry (UTF-8 with a byte order mark; the sheets are in --json).
        #[arg(long)]
        csv: bool,
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
        /// The event's rule: slow (60/30/10, the default), rapid (50/25/8), armageddon (= rapid),
        /// amateur40.
        #[arg(long, conflicts_with = "event")]
        profile: Option<String>,
        /// An event file (events/*.json): the rules profile and the natural move limit of its
        /// time control (not with --rules, --rule-settings, --settings or --profile: the event
        /// names them; --limit, --attack-cap and --check-cap override it, as the report says).
        #[arg(long, conflicts_with_all = ["settings", "rules", "rule_settings"])]
        event: Option<PathBuf>,
        /// The event's time control (slow, rapid, armageddon ...; default: the event's default).
        #[arg(long, requires = "event")]
        time_control: Option<String>,
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
        /// Language of the text report: en (default), zh or both.
        #[arg(long, default_value = "en")]
        lang: TextLang,
        /// Also write the board at the claim ply as an SVG picture to this file.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Also write the ruling sheet (one printable HTML page) to this file.
        #[arg(long)]
        html: Option<PathBuf>,
        /// The rules the move natures are judged by: cxa (default) or axf.
        #[arg(long, default_value = "cxa")]
        rules: String,
        /// A JSON rule settings file, as `adjudicate --settings` takes (every field of the rule
        /// profile, such as the node budget); overrides --rules.
        #[arg(long)]
        rule_settings: Option<PathBuf>,
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
    /// The message in Chinese, where there is one (a broken record's, a venue database's).
    zh: Option<String>,
}

fn invalid(message: impl Into<String>) -> Failure {
    Failure {
        zh: None,
        code: 1,
        message: message.into(),
    }
}

fn io_failure(e: std::io::Error) -> Failure {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        // The reader went away (`xqa ... | head`): nothing left to say, and no one to say it to.
        return Failure {
            zh: None,
            code: 0,
            message: String::new(),
        };
    }
    Failure {
        zh: None,
        code: 2,
        message: format!("I/O error: {e}"),
    }
}

impl From<ServiceError> for Failure {
    fn from(e: ServiceError) -> Failure {
        Failure {
            zh: e
                .record
                .as_deref()
                .map(|r| xiangqi_arbiter::report::text::error_zh(r, None)),
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
        zh: None,
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
        // Streamed up to the game asked for: memory stays bounded by one game.
        Some(path) => Ok(GameInput::File {
            path: path.to_owned(),
            game,
        }),
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
                    zh: None,
                    code,
                    message: summary.failure(),
                }),
            }
        }
        Command::Repair {
            game,
            pick,
            output,
            force,
            list,
            path,
        } => run_repair(&path, game, pick, output.as_deref(), force, list),
        Command::Convert {
            to,
            rank_base,
            format,
            output,
            game,
            json,
            paths,
        } => {
            let (notation, format) = service::convert_options(&to, &format, rank_base.as_deref())?;
            if let Some(game) = game {
                let [path] = paths.as_slice() else {
                    return Err(Failure {
                        zh: None,
                        code: 2,
                        message: "--game takes one record file".into(),
                    });
                };
                let name = path.display().to_string();
                let bytes = if name == "-" {
                    let mut b = Vec::new();
                    std::io::Read::read_to_end(&mut std::io::stdin(), &mut b)
                        .map_err(io_failure)?;
                    b
                } else {
                    std::fs::read(path).map_err(|e| service::unreadable(&name, &e))?
                };
                let text = service::convert_game(&bytes, &name, game, notation, format)
                    .map_err(|e| json_failure(e, json))?;
                match &output {
                    Some(p) => write_file(p, &text)?,
                    None => out!("{text}"),
                }
                return Ok(());
            }
            let mut out: Box<dyn std::io::Write> = match &output {
                Some(p) => Box::new(std::io::BufWriter::new(
                    std::fs::File::create(p).map_err(io_failure)?,
                )),
                None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
            };
            let (converted, failed, unreadable) = service::convert_paths(
                &paths,
                notation,
                format,
                json,
                &mut out,
                &mut std::io::stderr(),
            )
            .map_err(io_failure)?;
            out.flush().map_err(io_failure)?;
            if unreadable > 0 {
                return Err(Failure {
                    zh: None,
                    code: 2,
                    message: format!("{unreadable} input(s) could not be read"),
                });
            }
            if failed > 0 {
                return Err(invalid(format!("{failed} game(s) could not be converted")));
            }
            if converted == 0 {
                return Err(invalid("no game read"));
            }
            Ok(())
        }
        Command::Screen {
            rules,
            settings,
            event,
            time_control,
            overlay,
            json,
            draws,
            all,
            limit_profile,
            threads,
            lang,
            paths,
        } => {
            let options = service::screen_options(&ScreenRequest {
                rules,
                settings: read_settings(settings.as_deref())?,
                draws,
                all,
                json,
                limit_profile,
                event: read_settings(event.as_deref())?,
                time_control,
                overlay,
            })?;
            let pool = service::thread_pool(threads)?;
            let mut out = std::io::BufWriter::new(std::io::stdout());
            let summary = pool
                .install(|| service::screen_paths(&paths, &options, lang, &mut out))
                .map_err(io_failure)?;
            // (In the language of the text report; after JSON lines, on stderr, as written.)
            let line = if json {
                summary.to_string()
            } else {
                xiangqi_arbiter::report::text::screen_summary(&summary, lang)
            };
            write_summary(&mut out, json, &line)?;
            if summary.unreadable > 0 {
                return Err(Failure {
                    zh: None,
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
            event,
            time_control,
            overlay,
            json,
            fen,
            moves,
            at,
            limit_profile,
            html,
            lang,
        } => {
            let options = AdjudicateOptions {
                rules,
                settings: read_settings(settings.as_deref())?,
                event: read_settings(event.as_deref())?,
                time_control,
                overlay,
                at,
                limit_profile,
            };
            let input = game_input(path.as_deref(), game, fen.as_deref(), moves.as_deref())?;
            let report =
                service::adjudicate(&input, &options).map_err(|e| json_failure(e, json))?;
            if json {
                outln!("{}", report.to_json());
            } else {
                out!("{}", report.to_text_in(lang));
            }
            if let Some(file) = html {
                write_file(&file, &service::adjudicate_sheet(&input, &options)?)?;
            }
            broken(&report.line, lang == TextLang::Zh)
        }
        Command::Moves {
            path,
            game,
            at,
            fen,
            notation,
            json,
        } => {
            let report = match path {
                Some(path) => {
                    let input = game_input(Some(path.as_path()), game, None, None)?;
                    service::moves_at(&input, at, notation).map_err(|e| json_failure(e, json))?
                }
                None => service::moves(&fen, notation).map_err(|e| json_failure(e, json))?,
            };
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
            json,
        } => {
            let input = game_input(path.as_deref(), game, fen.as_deref(), moves.as_deref())?;
            let report = service::show(&input, at).map_err(|e| json_failure(e, json))?;
            if let Some(file) = &svg_file {
                write_file(file, &report.svg)?;
            }
            if json {
                outln!("{}", report.to_json());
                return broken(&report.line, false);
            }
            outln!("{}", report.diagram);
            if let Some(line) = report.last_move_line() {
                outln!("{line}");
            }
            outln!("FEN: {}", report.position.fen());
            if let Some(line) = report.status_line() {
                outln!("{line}");
            }
            if let Some(line) = report.error_line() {
                outln!("{line}");
            }
            broken(&report.line, false)
        }
        Command::Claim {
            path,
            game,
            fen,
            moves,
            claimant,
            profile,
            event,
            time_control,
            settings,
            limit: limit_n,
            attack_cap,
            check_cap,
            at,
            from_claim,
            json,
            lang,
            svg: svg_file,
            html,
            rules,
            rule_settings,
        } => {
            let rule_settings = read_settings(rule_settings.as_deref())?;
            // (The rules are checked before the record is read, as they always were.)
            service::rules_profile(&rules, rule_settings.as_ref())?;
            let input = game_input(path.as_deref(), game, fen.as_deref(), moves.as_deref())?;
            let request = ClaimRequest {
                claimant,
                profile: profile.unwrap_or_else(|| "slow".into()),
                settings: read_settings(settings.as_deref())?,
                event: read_settings(event.as_deref())?,
                time_control,
                limit: limit_n,
                attack_cap: attack_cap.map(|Cap(c)| c),
                check_cap: check_cap.map(|Cap(c)| c),
                at,
                from_claim,
                rules,
                rule_settings,
            };
            let outcome = service::claim(&input, &request).map_err(|e| json_failure(e, json))?;
            if json {
                outln!("{}", outcome.to_json());
            } else {
                out!("{}", outcome.to_text_in(lang));
            }
            if let Some(file) = svg_file {
                write_file(&file, &outcome.svg(lang.langs()[0]))?;
            }
            if let Some(file) = html {
                write_file(&file, &service::claim_sheet(&input, &request)?)?;
            }
            broken(&outcome.line, lang == TextLang::Zh && !json)
        }
        Command::Casebook { db, json, csv } => casebook(&db, json, csv),
        Command::Serve {
            bind,
            port,
            max_body_mb,
            max_request_seconds,
            body_timeout_seconds,
            max_connections,
            max_queue,
            allow_origin,
            event,
            db,
            access_code_file,
        } => {
            let event = read_settings(event.as_deref())?;
            let access_asked = db.is_some();
            let (venue, venue_notes) = match db {
                Some(db) => {
                    // (The database keeps one event's state: the name binds it.)
                    let event_name = service::event_of(event.as_ref())?.map(|e| e.name);
                    let (venue, notes) = open_venue(
                        &db,
                        event_name.as_deref(),
                        access_code_file.as_deref(),
                        bind.is_loopback(),
                    )?;
                    (Some(std::sync::Arc::new(venue)), notes)
                }
                None => (None, Vec::new()),
            };
            // A bad event file is refused at start-up, not on every request.
            service::event_of(event.as_ref())?;
            for (flag, seconds) in [
                ("--max-request-seconds", max_request_seconds),
                ("--body-timeout-seconds", body_timeout_seconds),
            ] {
                if !(seconds > 0.0 && seconds <= 86_400.0) {
                    return Err(Failure {
                        zh: None,
                        code: 2,
                        message: format!(
                            "{flag} {seconds}: expected more than 0 and at most 86400"
                        ),
                    });
                }
            }
            for o in &allow_origin {
                let ok = o.split_once("://").is_some_and(|(s, h)| {
                    matches!(s, "http" | "https") && !h.is_empty() && !h.contains('/')
                });
                if !ok {
                    return Err(Failure {
                        zh: None,
                        code: 2,
                        message: format!("--allow-origin {o}: expected http://NAME:PORT (no path)"),
                    });
                }
            }
            let options = xiangqi_arbiter::server::ServerOptions {
                body_limit: max_body_mb.saturating_mul(1024 * 1024),
                max_request: std::time::Duration::from_secs_f64(max_request_seconds),
                body_timeout: std::time::Duration::from_secs_f64(body_timeout_seconds),
                max_connections: max_connections.max(1),
                queue: max_queue,
                allow_origins: allow_origin,
                event,
                venue,
                ..Default::default()
            };
            let runtime = tokio::runtime::Runtime::new().map_err(io_failure)?;
            runtime
                .block_on(xiangqi_arbiter::server::serve(
                    std::net::SocketAddr::new(bind, port),
                    &options,
                    |addr| {
                        eprintln!("xqa: serving the arbiter's workbench on http://{addr}/");
                        for note in &venue_notes {
                            eprintln!("xqa: {note}");
                        }
                        if !addr.ip().is_loopback() && !access_asked {
                            eprintln!(
                                "xqa: warning: listening beyond this machine ({addr}); anyone who can reach it can use it"
                            );
                        }
                    },
                    async {
                        // SIGTERM (a service manager) or Ctrl-C: finish the requests in flight.
                        let mut term = tokio::signal::unix::signal(
                            tokio::signal::unix::SignalKind::terminate(),
                        )
                        .ok();
                        tokio::select! {
                            _ = tokio::signal::ctrl_c() => {}
                            Some(_) = async { match term.as_mut() { Some(t) => t.recv().await, None => std::future::pending().await } } => {}
                        }
                    },
                ))
                .map_err(|e| Failure { zh: None,
                    code: 2,
                    message: format!("cannot serve on {bind}:{port}: {e}"),
                })
        }
    }
}

/// The venue of `xqa serve --db`: the database opened (and locked) at start-up, so that a file
/// that is not ours, or a second server, is refused before anything is served; the access code
/// printed when one is needed.
fn open_venue(
    db: &std::path::Path,
    event: Option<&str>,
    code_file: Option<&std::path::Path>,
    loopback: bool,
) -> Result<(xiangqi_arbiter::server::venue::Venue, Vec<String>), Failure> {
    use xiangqi_arbiter::venue::{Access, AccessCode, Store};
    let mut store = Store::open(db, Access::Write).map_err(venue_failure)?;
    store.bind_event(event).map_err(venue_failure)?;
    let code = match code_file {
        Some(file) => Some(AccessCode::from_file(file).map_err(|message| Failure {
            zh: None,
            code: 2,
            message,
        })?),
        None if loopback => None,
        None => Some(AccessCode::generate().map_err(io_failure)?),
    };
    let mut notes = vec![format!(
        "venue database {}{}; the venue page is /venue",
        db.display(),
        if code.is_some() {
            " (arbiters enter the access code once per device)"
        } else {
            " (loopback: no access code asked)"
        }
    )];
    if let (Some(code), None) = (&code, code_file) {
        notes.push(format!(
            "赛场口令 venue access code: {} (give it to the event's arbiters)",
            code.as_str()
        ));
    }
    let venue = xiangqi_arbiter::server::venue::Venue::new(store, code).map_err(venue_failure)?;
    Ok((venue, notes))
}

/// A venue database's error (a usage error: the file named, what is wrong with it), in both
/// languages.
fn venue_failure(e: xiangqi_arbiter::venue::VenueError) -> Failure {
    Failure {
        zh: Some(e.message_zh()),
        code: 2,
        message: e.to_string(),
    }
}

/// `xqa casebook`: the case book read-only, as text, JSON or CSV.
fn casebook(db: &std::path::Path, json: bool, csv: bool) -> Result<(), Failure> {
    use xiangqi_arbiter::venue::{self, Access, Store};
    let store = Store::open(db, Access::Read).map_err(venue_failure)?;
    let entries = store.casebook().map_err(venue_failure)?;
    if json {
        outln!("{}", venue::casebook::to_json(db, &entries));
    } else if csv {
        venue::casebook::write_csv(std::io::stdout().lock(), &entries).map_err(io_failure)?;
    } else {
        outln!(
            "裁决记录簿 Case book: {} ({} entries)",
            db.display(),
            entries.len()
        );
        for e in &entries {
            let verdict = e.ruling.get("verdict").or_else(|| e.ruling.get("valid"));
            outln!(
                "#{} {} round {} table {} {} vs {} | {} {} | {}{}{}",
                e.id,
                e.kind.as_str(),
                e.round,
                e.table,
                if e.red.is_empty() { "?" } else { &e.red },
                if e.black.is_empty() { "?" } else { &e.black },
                e.arbiter,
                e.at,
                verdict.map(|v| v.to_string()).unwrap_or_default(),
                e.corrects
                    .map(|c| format!(" (corrects #{c})"))
                    .unwrap_or_default(),
                if e.corrected_by.is_empty() {
                    String::new()
                } else {
                    format!(" (corrected by #{})", e.corrected_by[0])
                }
            );
        }
    }
    Ok(())
}

/// Exit code 1 after the report of a broken record (the report covers its legal part); worded in
/// Chinese when the report is Chinese only (`zh`).
fn broken(line: &service::Line, zh: bool) -> Result<(), Failure> {
    match &line.error {
        Some(e) if zh => Err(invalid(format!(
            "棋谱有误：{}",
            xiangqi_arbiter::report::text::error_zh(e, Some(&line.start))
        ))),
        Some(e) => Err(invalid(format!("the record is invalid: {e}"))),
        None => Ok(()),
    }
}

/// A service error, printed as its JSON object on standard output too with `--json` (so that a
/// program reading the output sees the error in the schema).
/// `xqa repair`: the repairs listed, or the game written with one of them made.
fn run_repair(
    path: &std::path::Path,
    game: usize,
    pick: usize,
    output: Option<&std::path::Path>,
    force: bool,
    list: bool,
) -> Result<(), Failure> {
    let name = path.display().to_string();
    let bytes = if name == "-" {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut b).map_err(io_failure)?;
        b
    } else {
        std::fs::read(path).map_err(|e| service::unreadable(&name, &e))?
    };
    if let Some(p) = output
        && !force
        && !service::may_overwrite(p)
    {
        return Err(Failure {
            zh: None,
            code: 2,
            message: format!(
                "{}: the file exists and was not written by xqa repair; use --force to overwrite it",
                p.display()
            ),
        });
    }
    if list {
        let (error, start) = service::list_repairs(&bytes, &name, game)?;
        outln!("{error}");
        out!(
            "{}",
            xiangqi_arbiter::report::text::repair_lines(&error, &start, TextLang::Both)
        );
        for (k, rep) in error.repairs.iter().enumerate() {
            outln!(
                "{}. {}\n   {}",
                k + 1,
                rep.explanation_zh,
                rep.explanation_en
            );
        }
        return Ok(());
    }
    let r = service::repair_game(&bytes, &name, game, pick)?;
    eprintln!(
        "xqa: repair {pick}: {}\nxqa: repair {pick}: {}",
        r.repair.explanation_zh, r.repair.explanation_en
    );
    match output {
        Some(p) => write_file(p, &r.text),
        None => {
            out!("{}", r.text);
            Ok(())
        }
    }
}

fn json_failure(e: ServiceError, json: bool) -> Failure {
    if json {
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), "{}", e.to_json());
    }
    Failure::from(e)
}

fn write_file(path: &std::path::Path, text: &str) -> Result<(), Failure> {
    std::fs::write(path, text).map_err(|e| Failure {
        zh: None,
        code: 2,
        message: format!("cannot write {}: {e}", path.display()),
    })
}

/// The language `--lang` asks for on the command line (read before the arguments are parsed, so
/// that a usage error can follow it too), if any.
fn asked_lang() -> Option<TextLang> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().enumerate().find_map(|(i, a)| {
        let v = match a.strip_prefix("--lang=") {
            Some(v) => Some(v),
            None if a == "--lang" => args.get(i + 1).map(String::as_str),
            None => None,
        };
        v.and_then(|v| v.parse().ok())
    })
}

/// A usage error of the command line, in Chinese: what clap found, naming the options.
fn usage_zh(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let ctx = |k: ContextKind| match e.get(k) {
        Some(ContextValue::String(s)) => s.clone(),
        Some(ContextValue::Strings(v)) => v.join("、"),
        _ => String::new(),
    };
    let arg = ctx(ContextKind::InvalidArg);
    match e.kind() {
        ErrorKind::ArgumentConflict => format!(
            "用法错误：选项 {arg} 不能与 {} 同时使用",
            ctx(ContextKind::PriorArg)
        ),
        ErrorKind::MissingRequiredArgument => format!("用法错误：缺少必需的选项 {arg}"),
        ErrorKind::UnknownArgument => format!("用法错误：未知选项 {arg}"),
        ErrorKind::InvalidValue | ErrorKind::ValueValidation => format!(
            "用法错误：选项 {arg} 的值 {} 无效",
            ctx(ContextKind::InvalidValue)
        ),
        ErrorKind::InvalidSubcommand => format!("用法错误：未知命令 {arg}"),
        _ => "用法错误：命令行有误".to_owned(),
    }
}

fn main() -> ExitCode {
    let lang = asked_lang();
    let zh = matches!(lang, Some(TextLang::Zh | TextLang::Both));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            if zh && e.use_stderr() {
                // (Chinese first; clap's own English text follows with the usage line.)
                eprintln!("xqa：{}", usage_zh(&e));
            }
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    xiangqi_arbiter::record::set_limits(xiangqi_arbiter::record::Limits {
        max_game_bytes: cli.max_game_bytes,
        max_plies: cli.max_plies,
    });
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if !f.message.is_empty() {
                match (lang, f.code) {
                    // (A message already in Chinese, such as a broken record's, is printed as is.)
                    (Some(l @ (TextLang::Zh | TextLang::Both)), 1 | 2) if f.message.is_ascii() => {
                        let what = if f.code == 2 {
                            "用法错误"
                        } else {
                            "输入有误"
                        };
                        // Chinese first; the English follows where the Chinese is a translation
                        // (under --lang both), or stands in where there is none.
                        match &f.zh {
                            Some(zh) => {
                                eprintln!("xqa：{what}：{zh}");
                                if l == TextLang::Both {
                                    eprintln!("xqa: {}", f.message);
                                }
                            }
                            None => eprintln!("xqa：{what}：{}", f.message),
                        }
                    }
                    _ => eprintln!("xqa: {}", f.message),
                }
            }
            ExitCode::from(f.code)
        }
    }
}
