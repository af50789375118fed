//! The event's state at a venue, kept in one SQLite file (`xqa serve --db EVENT.sqlite`): live
//! counts that every arbiter's device shares, the case book of every ruling issued, and the
//! sessions of the arbiters let in with the event's access code.
//!
//! - [`store`]: recognising, creating and locking the file, its schema version;
//! - [`counts`]: live counts, one per round and table, extended one acknowledged move at a time;
//! - [`casebook`]: entries that are never changed (a correction is a new entry), and their export;
//! - [`access`]: the access code and the arbiters' sessions;
//! - [`time_controls`]: the time controls a live count may be started under.
//!
//! Every call that writes commits before it returns.

pub mod access;
pub mod casebook;
pub mod counts;
pub mod store;
pub mod time_controls;

pub use access::{AccessCode, NO_CODE_TAG, SESSION_DAYS, Session};
pub use casebook::{CaseEntry, CaseKind, NewCase};
pub use counts::{Count, CountMove, NewCount};
pub use store::{Access, SCHEMA_VERSION, Store};
pub use time_controls::{TimeControlChoice, TimeControls};

use std::fmt;
use std::path::{Path, PathBuf};

/// What went wrong with a venue database, and which file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VenueError {
    /// The database file.
    pub path: PathBuf,
    /// What is wrong.
    pub kind: ErrorKind,
}

/// The kinds of [`VenueError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The file is not a venue database (left untouched).
    NotOurs(String),
    /// The file is a venue database but damaged (left untouched).
    Corrupt(String),
    /// The file was written by a newer xqa (left untouched).
    NewerSchema { found: i32, supported: i32 },
    /// Another server has the file open.
    Locked,
    /// The file could not be read or written.
    Io(String),
    /// SQLite refused a statement.
    Sqlite(String),
    /// No live count, case book entry or session with this id.
    NotFound(String),
    /// A live count changed since the device last saw it: it holds `plies` moves at revision
    /// `revision`, and the change sent was for ply `ply` of the count as seen at revision `seen`.
    Conflict {
        plies: u32,
        revision: u32,
        ply: u32,
        seen: u32,
    },
    /// The table already has a running live count, with this id.
    Running { id: i64 },
    /// A value given is not acceptable (an illegal move, an empty name ...).
    Invalid(String),
    /// The database keeps the state of another event (`None`: of no event) than the server was
    /// started with (left untouched).
    OtherEvent {
        stored: Option<String>,
        given: Option<String>,
    },
}

impl VenueError {
    pub(crate) fn new(path: &Path, kind: ErrorKind) -> VenueError {
        VenueError {
            path: path.to_path_buf(),
            kind,
        }
    }

    pub(crate) fn sqlite(path: &Path, e: rusqlite::Error) -> VenueError {
        let kind = match &e {
            rusqlite::Error::SqliteFailure(f, _)
                if matches!(
                    f.code,
                    rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase
                ) =>
            {
                ErrorKind::Corrupt(e.to_string())
            }
            _ => ErrorKind::Sqlite(e.to_string()),
        };
        VenueError::new(path, kind)
    }

    /// A short machine-readable name of the kind, as in the schema's error objects.
    pub fn code(&self) -> &'static str {
        match self.kind {
            ErrorKind::NotOurs(_) => "venue_not_ours",
            ErrorKind::Corrupt(_) => "venue_corrupt",
            ErrorKind::NewerSchema { .. } => "venue_newer_schema",
            ErrorKind::Locked => "venue_locked",
            ErrorKind::Io(_) => "io",
            ErrorKind::Sqlite(_) => "venue_sqlite",
            ErrorKind::NotFound(_) => "not_found",
            ErrorKind::Conflict { .. } | ErrorKind::Running { .. } => "conflict",
            ErrorKind::Invalid(_) => "usage",
            ErrorKind::OtherEvent { .. } => "venue_other_event",
        }
    }

    /// The same error in Chinese.
    pub fn message_zh(&self) -> String {
        let file = self.path.display();
        match &self.kind {
            ErrorKind::NotOurs(why) => {
                format!("{file}：不是本程序的赛事数据库（{why}），文件未作任何改动")
            }
            ErrorKind::Corrupt(why) => {
                format!("{file}：赛事数据库已损坏（{why}），文件未作任何改动")
            }
            ErrorKind::NewerSchema { found, supported } => format!(
                "{file}：数据库由更新版本的 xqa 写成（结构版本 {found}，本版本支持 {supported}），文件未作任何改动"
            ),
            ErrorKind::Locked => format!("{file}：已有另一个服务器在使用此数据库"),
            ErrorKind::Io(why) => format!("{file}：{why}"),
            ErrorKind::Sqlite(why) => format!("{file}：数据库错误：{why}"),
            ErrorKind::NotFound(what) => format!("{file}：找不到 {what}"),
            ErrorKind::Conflict {
                plies,
                revision,
                ply,
                seen,
            } => format!(
                "计数已有变动：现有 {plies} 步（版本 {revision}），本次操作针对第 {ply} 步（所见版本 {seen}）；请刷新后再输入"
            ),
            ErrorKind::Running { id } => {
                format!("此台已有进行中的计数（编号 {id}）：请打开它，或先结束它")
            }
            ErrorKind::Invalid(why) => why.clone(),
            ErrorKind::OtherEvent { stored, given } => {
                let name = |e: &Option<String>| {
                    e.as_ref()
                        .map_or("（未指定赛事）".to_owned(), |n| format!("「{n}」"))
                };
                format!(
                    "{file}：此数据库记录的是赛事{}，而本次启动的赛事是{}；文件未作任何改动。请用原赛事文件启动（--event），或为新赛事另建数据库",
                    name(stored),
                    name(given)
                )
            }
        }
    }
}

impl fmt::Display for VenueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.path.display();
        match &self.kind {
            ErrorKind::NotOurs(why) => write!(
                f,
                "{file}: not a venue database of xqa ({why}); the file was left untouched"
            ),
            ErrorKind::Corrupt(why) => write!(
                f,
                "{file}: the venue database is corrupt ({why}); the file was left untouched"
            ),
            ErrorKind::NewerSchema { found, supported } => write!(
                f,
                "{file}: written by a newer xqa (schema version {found}; this xqa reads up to \
                 {supported}); the file was left untouched"
            ),
            ErrorKind::Locked => write!(
                f,
                "{file}: another xqa server has this venue database open; stop it first (one \
                 server per event file)"
            ),
            ErrorKind::Io(why) => write!(f, "{file}: {why}"),
            ErrorKind::Sqlite(why) => write!(f, "{file}: database error: {why}"),
            ErrorKind::NotFound(what) => write!(f, "{file}: no {what}"),
            ErrorKind::Conflict {
                plies,
                revision,
                ply,
                seen,
            } => write!(
                f,
                "the count moved on: it holds {plies} plies (revision {revision}), and this was \
                 sent for ply {ply} of revision {seen}; reload the count"
            ),
            ErrorKind::Running { id } => write!(
                f,
                "this table already has a running live count (id {id}): open it, or close it first"
            ),
            ErrorKind::Invalid(why) => f.write_str(why),
            ErrorKind::OtherEvent { stored, given } => {
                let name = |e: &Option<String>| {
                    e.as_ref()
                        .map_or("no event".to_owned(), |n| format!("the event {n}"))
                };
                write!(
                    f,
                    "{}: this venue database keeps the state of {}, and the server was started with {}; the file was left untouched (start with that event's file, --event, or use a new database for a new event)",
                    self.path.display(),
                    name(stored),
                    name(given)
                )
            }
        }
    }
}

impl std::error::Error for VenueError {}

/// A name given by a person (arbiter, player, round, table): trimmed, not empty, at most 200
/// characters, no control characters.
pub(crate) fn clean_name(path: &Path, what: &str, s: &str) -> Result<String, VenueError> {
    let t = s.trim();
    if t.is_empty() {
        return Err(VenueError::new(
            path,
            ErrorKind::Invalid(format!("the {what} is empty")),
        ));
    }
    if t.chars().count() > 200 || t.chars().any(char::is_control) {
        return Err(VenueError::new(
            path,
            ErrorKind::Invalid(format!(
                "the {what} must be at most 200 characters, without control characters"
            )),
        ));
    }
    Ok(t.to_string())
}

/// The same, for a name that may be left empty (a player not yet known).
pub(crate) fn optional_name(path: &Path, what: &str, s: &str) -> Result<String, VenueError> {
    if s.trim().is_empty() {
        Ok(String::new())
    } else {
        clean_name(path, what, s)
    }
}

/// The order of rounds and tables: numerically where they are numbers ("9" before "10"), then
/// as text.
pub(crate) const TABLE_ORDER: &str = "CAST(round AS INTEGER), round, CAST(board AS INTEGER), board";

/// SQLite's clock, as the entries record it: UTC, to the millisecond.
pub(crate) const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
