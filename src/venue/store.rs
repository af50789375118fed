//! The venue's database file: recognising it as ours before anything touches it, creating it,
//! its schema version, and the one-server-per-file lock.
//!
//! What this file promises:
//! - a file that is not ours (not SQLite, or SQLite with another application id), is corrupt, or
//!   has a newer schema is refused with an error naming it, and is left byte for byte untouched:
//!   it is sniffed with plain reads, and SQLite opens it read-only until it is known to be ours;
//! - an empty or missing file becomes a new venue database (schema version [`SCHEMA_VERSION`]);
//! - one server at a time: a writer holds an exclusive lock on the file (released by the
//!   operating system when the process dies, SIGKILL included), and a second writer is refused;
//! - every write is committed (WAL, `synchronous=FULL`) before the call returns, so what a caller
//!   acknowledged after a call survives a crash of the process or of the machine.

use super::VenueError;
use rusqlite::{Connection, OpenFlags, OptionalExtension};
use std::fs::File;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `PRAGMA application_id` of a venue database: "XQAV".
pub const APPLICATION_ID: i32 = 0x5851_4156;
/// The schema version this build writes and reads (`PRAGMA user_version`). Version 1 files
/// (without the event they were started for) are brought to version 2 by a writer.
pub const SCHEMA_VERSION: i32 = 2;

/// Version 2 adds the event the database keeps the state of (its name; NULL: no event), set by
/// the first server of version 2 to open it: the counts' time controls and the entries are that
/// event's, so a server started with another event is refused.
const SCHEMA_V2: &str = "
CREATE TABLE venue_event (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    event TEXT
);
";

/// The schema, version 1. Case book entries are never changed: triggers refuse an update or a
/// delete, so a correction can only be a new entry that points to the one it corrects.
const SCHEMA_V1: &str = "
CREATE TABLE venue (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    uid TEXT NOT NULL
);
CREATE TABLE counts (
    id INTEGER PRIMARY KEY,
    revision INTEGER NOT NULL DEFAULT 0,
    round TEXT NOT NULL,
    board TEXT NOT NULL,
    red TEXT NOT NULL,
    black TEXT NOT NULL,
    time_control TEXT,
    claimant TEXT CHECK (claimant IN ('red', 'black')),
    fen TEXT NOT NULL,
    started_by TEXT NOT NULL,
    started_at TEXT NOT NULL,
    closed_by TEXT,
    closed_at TEXT
);
CREATE INDEX counts_by_table ON counts (round, board);
CREATE TABLE count_moves (
    id INTEGER PRIMARY KEY,
    count_id INTEGER NOT NULL REFERENCES counts (id),
    ply INTEGER NOT NULL CHECK (ply >= 1),
    iccs TEXT NOT NULL,
    entered_by TEXT NOT NULL,
    entered_at TEXT NOT NULL,
    withdrawn_by TEXT,
    withdrawn_at TEXT
);
CREATE UNIQUE INDEX count_moves_live ON count_moves (count_id, ply) WHERE withdrawn_at IS NULL;
CREATE TABLE casebook (
    id INTEGER PRIMARY KEY,
    corrects INTEGER REFERENCES casebook (id),
    kind TEXT NOT NULL CHECK (kind IN ('claim', 'cycle', 'sheet')),
    event TEXT,
    time_control TEXT,
    round TEXT NOT NULL,
    board TEXT NOT NULL,
    red TEXT NOT NULL,
    black TEXT NOT NULL,
    arbiter TEXT NOT NULL,
    at TEXT NOT NULL,
    record TEXT NOT NULL,
    record_bytes BLOB,
    ruling TEXT NOT NULL CHECK (json_valid(ruling)),
    sheet TEXT
);
CREATE INDEX casebook_by_table ON casebook (round, board);
CREATE TRIGGER casebook_never_updated BEFORE UPDATE ON casebook
BEGIN SELECT RAISE(ABORT, 'case book entries are never changed: record a correction'); END;
CREATE TRIGGER casebook_never_deleted BEFORE DELETE ON casebook
BEGIN SELECT RAISE(ABORT, 'case book entries are never deleted: record a correction'); END;
CREATE TABLE sessions (
    token TEXT PRIMARY KEY,
    arbiter TEXT NOT NULL,
    code_tag TEXT NOT NULL,
    created_at TEXT NOT NULL
) WITHOUT ROWID;
";

/// How a venue database is opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// The server: created when missing or empty, locked against a second writer.
    Write,
    /// An export or a reader beside a running server: never created, never written, no lock.
    Read,
}

/// What the first bytes of the file say.
enum Sniff {
    /// No file, or an empty one: a new database.
    New,
    /// An SQLite database with our application id.
    Ours,
}

/// Reads the file's header and decides whether it may be opened, without SQLite.
fn sniff(path: &Path) -> Result<Sniff, VenueError> {
    let err = |kind| VenueError::new(path, kind);
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Sniff::New),
        Err(e) => return Err(err(super::ErrorKind::Io(e.to_string()))),
    };
    if !meta.is_file() {
        return Err(err(super::ErrorKind::NotOurs(
            "not a regular file".to_string(),
        )));
    }
    if meta.len() == 0 {
        return Ok(Sniff::New);
    }
    let mut header = [0u8; 100];
    let mut file = File::open(path).map_err(|e| err(super::ErrorKind::Io(e.to_string())))?;
    let mut got = 0;
    while got < header.len() {
        match file.read(&mut header[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) => return Err(err(super::ErrorKind::Io(e.to_string()))),
        }
    }
    if got < 16 || &header[..16] != b"SQLite format 3\0" {
        return Err(err(super::ErrorKind::NotOurs(
            "not an SQLite database".to_string(),
        )));
    }
    if got < header.len() {
        return Err(err(super::ErrorKind::Corrupt(format!(
            "the database header is cut short ({got} of 100 bytes)"
        ))));
    }
    let app = i32::from_be_bytes([header[68], header[69], header[70], header[71]]);
    if app != APPLICATION_ID {
        return Err(err(super::ErrorKind::NotOurs(format!(
            "an SQLite database of another application (application_id {app:#x}, a venue \
             database has {APPLICATION_ID:#x})"
        ))));
    }
    Ok(Sniff::Ours)
}

/// An open venue database.
pub struct Store {
    pub(super) conn: Connection,
    path: PathBuf,
    /// The exclusive lock of a writer, held as long as the store is open.
    _lock: Option<File>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
    }
}

impl Store {
    /// Opens (and with [`Access::Write`] creates) the venue database at `path`.
    pub fn open(path: &Path, access: Access) -> Result<Store, VenueError> {
        let sniffed = sniff(path)?;
        let sql = |e: rusqlite::Error| VenueError::sqlite(path, e);
        if access == Access::Read {
            if matches!(sniffed, Sniff::New) {
                return Err(VenueError::new(
                    path,
                    super::ErrorKind::Io(
                        "no venue database here (the file is missing or empty)".into(),
                    ),
                ));
            }
            let conn = Connection::open_with_flags(
                path,
                OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
            .map_err(sql)?;
            conn.busy_timeout(Duration::from_secs(5)).map_err(sql)?;
            let store = Store {
                conn,
                path: path.to_path_buf(),
                _lock: None,
            };
            store.check_version()?;
            store.check_integrity()?;
            return Ok(store);
        }
        // A writer: take the lock first (creating an empty file when there is none), so that a
        // second server never reaches SQLite.
        // (A new file is the arbiters' business only: it will hold their sessions.)
        let lock = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(path)
            .map_err(|e| VenueError::new(path, super::ErrorKind::Io(e.to_string())))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(VenueError::new(path, super::ErrorKind::Locked));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(VenueError::new(path, super::ErrorKind::Io(e.to_string())));
            }
        }
        // Sniffed again under the lock: another process may have created it meanwhile.
        let sniffed = sniff(path)?;
        if matches!(sniffed, Sniff::Ours) {
            // Checked on a read-only connection first: a read-write one would fold a leftover
            // write-ahead log (or roll back a hot journal) into a file it then refuses.
            drop(Store::open(path, Access::Read)?);
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(sql)?;
        conn.busy_timeout(Duration::from_secs(5)).map_err(sql)?;
        let store = Store {
            conn,
            path: path.to_path_buf(),
            _lock: Some(lock),
        };
        if matches!(sniffed, Sniff::New) {
            store.create()?;
        } else {
            store.upgrade()?;
        }
        store
            .conn
            .execute_batch(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;",
            )
            .map_err(sql)?;
        Ok(store)
    }

    /// The database's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The venue's own random id (8 hex digits), set when the database was created: it names
    /// the session cookie, so that two venues served from one machine keep apart.
    pub fn uid(&self) -> Result<String, VenueError> {
        self.conn
            .query_row("SELECT uid FROM venue WHERE id = 1", [], |r| r.get(0))
            .map_err(|e| VenueError::sqlite(&self.path, e))
    }

    /// Writes the schema into a new (empty) file. The application id and version are written in
    /// rollback-journal mode, so that they are in the file's header before the switch to WAL.
    fn create(&self) -> Result<(), VenueError> {
        let sql = |e: rusqlite::Error| VenueError::sqlite(&self.path, e);
        self.conn
            .execute_batch(&format!(
                "BEGIN EXCLUSIVE;
                 PRAGMA application_id = {APPLICATION_ID};
                 PRAGMA user_version = {SCHEMA_VERSION};
                 {SCHEMA_V1}
                 {SCHEMA_V2}
                 INSERT INTO venue (id, uid) VALUES (1, lower(hex(randomblob(4))));
                 COMMIT;"
            ))
            .map_err(sql)
    }

    /// Brings a version 1 file to this version (in one transaction).
    fn upgrade(&self) -> Result<(), VenueError> {
        let sql = |e: rusqlite::Error| VenueError::sqlite(&self.path, e);
        let version: i32 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(sql)?;
        if version == 1 {
            self.conn
                .execute_batch(&format!(
                    "BEGIN IMMEDIATE; {SCHEMA_V2} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
                ))
                .map_err(sql)?;
        }
        Ok(())
    }

    /// Binds the database to the event the server runs (its name; `None`: no event): the first
    /// server records it, and a later one started with another event (or with one where there
    /// was none, or none where there was one) is refused, the file unchanged.
    pub fn bind_event(&mut self, event: Option<&str>) -> Result<(), VenueError> {
        let sql = |e: rusqlite::Error| VenueError::sqlite(&self.path, e);
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(sql)?;
        let stored: Option<Option<String>> = tx
            .query_row("SELECT event FROM venue_event WHERE id = 1", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(sql)?;
        match stored {
            None => {
                tx.execute(
                    "INSERT INTO venue_event (id, event) VALUES (1, ?1)",
                    [event],
                )
                .map_err(sql)?;
                tx.commit().map_err(sql)
            }
            Some(stored) if stored.as_deref() == event => Ok(()),
            Some(stored) => Err(VenueError::new(
                &self.path,
                super::ErrorKind::OtherEvent {
                    stored,
                    given: event.map(str::to_owned),
                },
            )),
        }
    }

    /// The event the database was bound to (`None` inside: no event; outside: not yet bound,
    /// or a version 1 file).
    pub fn bound_event(&self) -> Result<Option<Option<String>>, VenueError> {
        let sql = |e: rusqlite::Error| VenueError::sqlite(&self.path, e);
        let has: bool = self
            .conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'venue_event'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map_err(sql)?
            > 0;
        if !has {
            return Ok(None);
        }
        self.conn
            .query_row("SELECT event FROM venue_event WHERE id = 1", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(sql)
    }

    fn check_version(&self) -> Result<(), VenueError> {
        let version: i32 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| VenueError::sqlite(&self.path, e))?;
        if version > SCHEMA_VERSION {
            return Err(VenueError::new(
                &self.path,
                super::ErrorKind::NewerSchema {
                    found: version,
                    supported: SCHEMA_VERSION,
                },
            ));
        }
        if version < 1 {
            return Err(VenueError::new(
                &self.path,
                super::ErrorKind::Corrupt(format!(
                    "schema version {version}: never written by xqa"
                )),
            ));
        }
        Ok(())
    }

    fn check_integrity(&self) -> Result<(), VenueError> {
        let verdict: String = self
            .conn
            .query_row("PRAGMA quick_check(1)", [], |r| r.get(0))
            .map_err(|e| VenueError::sqlite(&self.path, e))?;
        if verdict != "ok" {
            return Err(VenueError::new(
                &self.path,
                super::ErrorKind::Corrupt(verdict),
            ));
        }
        Ok(())
    }
}
