//! The service layer: everything the front ends (the `xqa` CLI, the web server, the Python
//! package) compute, as plain functions from a record's bytes or a FEN and moves, plus options,
//! to the serde reports that `--json` prints and their text renderings. The front ends only
//! parse their arguments, read files, call these and print; none builds a report itself.
//!
//! ```
//! use xiangqi_arbiter::service::{self, AdjudicateOptions, GameInput};
//!
//! let input = GameInput::fen(None, Some("h2e2 h9g7 h0g2 i9h9"));
//! let report = service::adjudicate(&input, &AdjudicateOptions::default()).unwrap();
//! assert_eq!(report.moves.len(), 4);
//! assert_eq!(report.moves[0].chinese.as_deref(), Some("炮二平五"));
//!
//! let err = service::adjudicate(&GameInput::fen(None, Some("h2h9 h9g7")), &Default::default())
//!     .unwrap_err();
//! assert_eq!(err.code, 1);
//! ```
//!
//! Every function returns a [`ServiceError`] on bad input: its `code` is the CLI's exit code (1
//! invalid input, 2 usage), its `message` the CLI's message, and `to_json()` the error as one
//! JSON object. Option structs implement `Default` (or a `new`), so that options added later
//! (such as an event file) leave callers' code unchanged.

mod adjudicate;
mod batch;
mod claim;
mod error;
mod input;
mod moves;
mod options;
mod perft;
mod repair;
mod replay;
mod review;
mod sheet;
mod show;

pub use adjudicate::{AdjudicateOptions, AdjudicateReport, adjudicate, adjudicate_line};
pub use batch::{
    ScreenRequest, convert, convert_game, convert_options, convert_paths, screen,
    screen_json_lines, screen_options, screen_paths, validate, validate_games, validate_json_lines,
    validate_paths,
};
pub use claim::{ClaimOutcome, ClaimRequest, claim};
pub use error::ServiceError;
pub use input::{
    GameInput, Line, load_game, load_game_partial, load_line, parse_fen, parse_iccs_line,
    read_games, shorten, unreadable,
};
pub use moves::{MovesReport, moves, moves_at};
pub use options::{
    SettingsText, claim_limit_profile, event_of, named_limit_profile, named_rules, rules_profile,
};
pub use perft::{MAX_THREADS, PerftReport, perft, thread_pool};
pub use repair::{MARK as REPAIR_MARK, Repaired, list_repairs, may_overwrite, repair_game};
pub use replay::{Step, position_after, replay, status_text};
pub use review::{Review, ReviewPly, board, review, review_json};
pub use sheet::{adjudicate_sheet, claim_sheet};
pub use show::{ShowReport, show};
