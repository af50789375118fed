//! Live counts kept on the server: each belongs to a round and a table, has an id, and is
//! extended one move at a time by whichever device the arbiter holds. A move is stored (and
//! committed) before it is acknowledged. Every change raises the count's revision, and a change
//! is made only to the revision its device saw: a move or take-back sent from an older view is
//! refused with the ply and revision the count reached ([`ErrorKind::Conflict`]), never merged.
//! A take-back keeps the move it withdraws, with who withdrew it and when.

use super::{ErrorKind, NOW, Store, VenueError, clean_name, optional_name};
use crate::{Color, Move, Position};
use rusqlite::{OptionalExtension, TransactionBehavior, params};
use serde::Serialize;

/// A live count to start.
#[derive(Clone, Debug, Default)]
pub struct NewCount {
    pub round: String,
    pub table: String,
    pub red: String,
    pub black: String,
    /// The event's time control whose natural move limit applies.
    pub time_control: Option<String>,
    /// The side claiming the natural move limit, when known.
    pub claimant: Option<Color>,
    /// The position the count starts from (the last capture's, usually).
    pub fen: String,
}

/// One move of a live count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CountMove {
    pub ply: u32,
    pub iccs: String,
    pub entered_by: String,
    pub entered_at: String,
    /// Who took the move back, and when (a withdrawn move stays on record).
    pub withdrawn_by: Option<String>,
    pub withdrawn_at: Option<String>,
}

/// A live count as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Count {
    pub id: i64,
    /// Raised by every move entered or taken back.
    pub revision: u32,
    pub round: String,
    pub table: String,
    pub red: String,
    pub black: String,
    pub time_control: Option<String>,
    pub claimant: Option<String>,
    pub fen: String,
    pub started_by: String,
    pub started_at: String,
    pub closed_by: Option<String>,
    pub closed_at: Option<String>,
    /// The moves of the count, ply by ply.
    pub moves: Vec<CountMove>,
    /// The moves taken back, in the order they were entered.
    pub withdrawn: Vec<CountMove>,
}

impl Count {
    /// The plies entered so far.
    pub fn plies(&self) -> u32 {
        self.moves.len() as u32
    }

    /// The moves in ICCS, space-separated (as the API's `moves` parameter takes them).
    pub fn moves_text(&self) -> String {
        let v: Vec<&str> = self.moves.iter().map(|m| m.iccs.as_str()).collect();
        v.join(" ")
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// A running count's start position, revision and plies, read inside the transaction that
/// changes it: [`ErrorKind::NotFound`] or, for a closed count, [`ErrorKind::Invalid`].
fn open_count(
    tx: &rusqlite::Transaction<'_>,
    path: &std::path::Path,
    id: i64,
) -> Result<(String, u32, u32), VenueError> {
    let head: Option<(String, Option<String>, u32, u32)> = tx
        .query_row(
            "SELECT fen, closed_at, revision, (SELECT count(*) FROM count_moves WHERE count_id = \
             ?1 AND withdrawn_at IS NULL) FROM counts WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()
        .map_err(|e| VenueError::sqlite(path, e))?;
    let Some((fen, closed, revision, plies)) = head else {
        return Err(VenueError::new(
            path,
            ErrorKind::NotFound(format!("live count {id}")),
        ));
    };
    if closed.is_some() {
        return Err(VenueError::new(
            path,
            ErrorKind::Invalid(format!("live count {id} is closed")),
        ));
    }
    Ok((fen, revision, plies))
}

impl Store {
    /// Starts a live count. A table of a round has at most one running count: starting a second
    /// one is refused with the running count's id.
    pub fn start_count(&mut self, new: &NewCount, arbiter: &str) -> Result<Count, VenueError> {
        let path = self.path().to_path_buf();
        let arbiter = clean_name(&path, "arbiter's name", arbiter)?;
        let round = clean_name(&path, "round", &new.round)?;
        let table = clean_name(&path, "table", &new.table)?;
        let red = optional_name(&path, "red player's name", &new.red)?;
        let black = optional_name(&path, "black player's name", &new.black)?;
        let time_control = match &new.time_control {
            Some(t) => Some(clean_name(&path, "time control", t)?),
            None => None,
        };
        let fen = new.fen.trim();
        Position::from_fen(fen).map_err(|e| {
            VenueError::new(
                &path,
                ErrorKind::Invalid(format!("the count's position {fen:?} is not valid: {e}")),
            )
        })?;
        let sql = |e| VenueError::sqlite(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(sql)?;
        let running: Option<i64> = tx
            .query_row(
                "SELECT id FROM counts WHERE round = ?1 AND board = ?2 AND closed_at IS NULL",
                params![round, table],
                |r| r.get(0),
            )
            .optional()
            .map_err(sql)?;
        if let Some(id) = running {
            return Err(VenueError::new(&path, ErrorKind::Running { id }));
        }
        tx.execute(
            &format!(
                "INSERT INTO counts (round, board, red, black, time_control, claimant, fen, \
                 started_by, started_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, {NOW})"
            ),
            params![
                round,
                table,
                red,
                black,
                time_control,
                new.claimant.map(color_name),
                fen,
                arbiter
            ],
        )
        .map_err(sql)?;
        let id = tx.last_insert_rowid();
        tx.commit().map_err(sql)?;
        self.count(id)
    }

    /// The count with this id.
    pub fn count(&self, id: i64) -> Result<Count, VenueError> {
        let path = self.path();
        let sql = |e| VenueError::sqlite(path, e);
        let mut count = self
            .conn
            .query_row(
                "SELECT id, round, board, red, black, time_control, claimant, fen, started_by, \
                 started_at, closed_by, closed_at, revision FROM counts WHERE id = ?1",
                [id],
                |r| {
                    Ok(Count {
                        id: r.get(0)?,
                        round: r.get(1)?,
                        table: r.get(2)?,
                        red: r.get(3)?,
                        black: r.get(4)?,
                        time_control: r.get(5)?,
                        claimant: r.get(6)?,
                        fen: r.get(7)?,
                        started_by: r.get(8)?,
                        started_at: r.get(9)?,
                        closed_by: r.get(10)?,
                        closed_at: r.get(11)?,
                        revision: r.get(12)?,
                        moves: Vec::new(),
                        withdrawn: Vec::new(),
                    })
                },
            )
            .optional()
            .map_err(sql)?
            .ok_or_else(|| {
                VenueError::new(path, ErrorKind::NotFound(format!("live count {id}")))
            })?;
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT ply, iccs, entered_by, entered_at, withdrawn_by, withdrawn_at FROM \
                 count_moves WHERE count_id = ?1 ORDER BY withdrawn_at IS NOT NULL, \
                 CASE WHEN withdrawn_at IS NULL THEN ply ELSE id END",
            )
            .map_err(sql)?;
        let all: Vec<CountMove> = stmt
            .query_map([id], |r| {
                Ok(CountMove {
                    ply: r.get(0)?,
                    iccs: r.get(1)?,
                    entered_by: r.get(2)?,
                    entered_at: r.get(3)?,
                    withdrawn_by: r.get(4)?,
                    withdrawn_at: r.get(5)?,
                })
            })
            .map_err(sql)?
            .collect::<Result<_, _>>()
            .map_err(sql)?;
        (count.withdrawn, count.moves) = all.into_iter().partition(|m| m.withdrawn_at.is_some());
        Ok(count)
    }

    /// Every count, running ones first, then by round and table (numerically where they are
    /// numbers).
    pub fn counts(&self, running_only: bool) -> Result<Vec<Count>, VenueError> {
        let path = self.path();
        let sql = |e| VenueError::sqlite(path, e);
        let ids: Vec<i64> = {
            let mut stmt = self
                .conn
                .prepare(&format!(
                    "SELECT id FROM counts {} ORDER BY closed_at IS NOT NULL, {}, id",
                    if running_only {
                        "WHERE closed_at IS NULL"
                    } else {
                        ""
                    },
                    super::TABLE_ORDER
                ))
                .map_err(sql)?;
            stmt.query_map([], |r| r.get(0))
                .map_err(sql)?
                .collect::<Result<_, _>>()
                .map_err(sql)?
        };
        ids.into_iter().map(|id| self.count(id)).collect()
    }

    /// Adds the move that becomes ply `ply` of the count (1 for the first move), entered on a
    /// device that saw the count at `revision`. When the count has changed since (another device
    /// moved it on or took a move back), the move is refused with [`ErrorKind::Conflict`] naming
    /// the plies and revision it holds. An illegal move is refused with the position it was
    /// tried in.
    pub fn append_move(
        &mut self,
        id: i64,
        ply: u32,
        revision: u32,
        iccs: &str,
        arbiter: &str,
    ) -> Result<Count, VenueError> {
        let path = self.path().to_path_buf();
        let arbiter = clean_name(&path, "arbiter's name", arbiter)?;
        let sql = |e| VenueError::sqlite(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(sql)?;
        let (fen, current, _) = open_count(&tx, &path, id)?;
        let moves: Vec<String> = {
            let mut stmt = tx
                .prepare_cached(
                    "SELECT iccs FROM count_moves WHERE count_id = ?1 AND withdrawn_at IS NULL \
                     ORDER BY ply",
                )
                .map_err(sql)?;
            stmt.query_map([id], |r| r.get(0))
                .map_err(sql)?
                .collect::<Result<_, _>>()
                .map_err(sql)?
        };
        let plies = moves.len() as u32;
        if ply != plies + 1 || revision != current {
            return Err(VenueError::new(
                &path,
                ErrorKind::Conflict {
                    plies,
                    revision: current,
                    ply,
                    seen: revision,
                },
            ));
        }
        let mut pos = Position::from_fen(&fen).map_err(|e| {
            VenueError::new(&path, ErrorKind::Corrupt(format!("count {id}'s FEN: {e}")))
        })?;
        for m in &moves {
            let stored = Move::parse_iccs(m).filter(|&mv| pos.is_legal(mv));
            let Some(mv) = stored else {
                return Err(VenueError::new(
                    &path,
                    ErrorKind::Corrupt(format!("count {id}'s stored move {m} is not legal")),
                ));
            };
            pos.play_unchecked(mv);
        }
        let text = iccs.trim().to_ascii_lowercase();
        let mv = Move::parse_iccs(&text).ok_or_else(|| {
            VenueError::new(
                &path,
                ErrorKind::Invalid(format!("ply {ply}: {iccs:?} is not a move in ICCS (h2e2)")),
            )
        })?;
        if !pos.is_legal(mv) {
            return Err(VenueError::new(
                &path,
                ErrorKind::Invalid(format!(
                    "ply {ply}: {text} cannot be played in {}",
                    pos.fen()
                )),
            ));
        }
        tx.execute(
            &format!(
                "INSERT INTO count_moves (count_id, ply, iccs, entered_by, entered_at) \
                 VALUES (?1, ?2, ?3, ?4, {NOW})"
            ),
            params![id, ply, mv.iccs(), arbiter],
        )
        .map_err(sql)?;
        tx.execute(
            "UPDATE counts SET revision = revision + 1 WHERE id = ?1",
            [id],
        )
        .map_err(sql)?;
        tx.commit().map_err(sql)?;
        self.count(id)
    }

    /// Takes back the last move, which must be ply `ply`, from a device that saw the count at
    /// `revision` (so that a device that has not seen a later change cannot undo it): otherwise
    /// [`ErrorKind::Conflict`]. The move stays on record as withdrawn, by `arbiter`.
    pub fn take_back(
        &mut self,
        id: i64,
        ply: u32,
        revision: u32,
        arbiter: &str,
    ) -> Result<Count, VenueError> {
        let path = self.path().to_path_buf();
        let arbiter = clean_name(&path, "arbiter's name", arbiter)?;
        let sql = |e| VenueError::sqlite(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(sql)?;
        let (_, current, plies) = open_count(&tx, &path, id)?;
        if ply == 0 {
            return Err(VenueError::new(
                &path,
                ErrorKind::Invalid("ply 0 is no move: the first ply is 1".into()),
            ));
        }
        if ply != plies || revision != current {
            return Err(VenueError::new(
                &path,
                ErrorKind::Conflict {
                    plies,
                    revision: current,
                    ply,
                    seen: revision,
                },
            ));
        }
        tx.execute(
            &format!(
                "UPDATE count_moves SET withdrawn_by = ?3, withdrawn_at = {NOW} WHERE count_id = \
                 ?1 AND ply = ?2 AND withdrawn_at IS NULL"
            ),
            params![id, ply, arbiter],
        )
        .map_err(sql)?;
        tx.execute(
            "UPDATE counts SET revision = revision + 1 WHERE id = ?1",
            [id],
        )
        .map_err(sql)?;
        tx.commit().map_err(sql)?;
        self.count(id)
    }

    /// Closes a count (the claim was ruled, or the game went on to a capture): it stays readable
    /// and leaves the list of running counts.
    pub fn close_count(&mut self, id: i64, arbiter: &str) -> Result<Count, VenueError> {
        let path = self.path().to_path_buf();
        let arbiter = clean_name(&path, "arbiter's name", arbiter)?;
        let changed = self
            .conn
            .execute(
                &format!(
                    "UPDATE counts SET closed_by = ?2, closed_at = {NOW} WHERE id = ?1 AND \
                     closed_at IS NULL"
                ),
                params![id, arbiter],
            )
            .map_err(|e| VenueError::sqlite(&path, e))?;
        let count = self.count(id)?;
        if changed == 0 {
            return Err(VenueError::new(
                &path,
                ErrorKind::Invalid(format!("live count {id} is already closed")),
            ));
        }
        Ok(count)
    }
}
