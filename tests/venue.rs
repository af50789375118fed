//! The venue's database (`src/venue/`): files that are not ours are refused and left untouched,
//! one server per file, live counts that refuse a move for a ply they have passed, a case book
//! whose entries are never changed, sessions, and the `xqa casebook` export.

mod common;

use common::{Scratch, xqa};
use rusqlite::Connection;
use std::path::Path;
use xiangqi_arbiter::venue::{
    Access, AccessCode, CaseKind, ErrorKind, NO_CODE_TAG, NewCase, NewCount, SCHEMA_VERSION, Store,
    casebook,
};
use xiangqi_arbiter::{Color, START_FEN};

fn snapshot(path: &Path) -> (Vec<u8>, std::time::SystemTime) {
    (
        std::fs::read(path).unwrap(),
        std::fs::metadata(path).unwrap().modified().unwrap(),
    )
}

/// Opening `path` for writing and for reading both fail with `want`, and leave the file (and
/// its directory) as it was.
fn refused(path: &Path, want: fn(&ErrorKind) -> bool) {
    let before = snapshot(path);
    let dir_before: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    for access in [Access::Write, Access::Read] {
        let e = Store::open(path, access).expect_err("refused");
        assert!(want(&e.kind), "{access:?}: {e:?}");
        let text = e.to_string();
        assert!(text.contains(&path.display().to_string()), "{text}");
        assert!(text.contains("left untouched"), "{text}");
    }
    assert_eq!(snapshot(path), before, "the file was changed");
    let dir_after: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(dir_after, dir_before, "files were added beside it");
    // And the CLI says the same, with exit 2.
    let (code, _, err) = xqa(&["casebook", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("left untouched"), "{err}");
    assert_eq!(snapshot(path), before);
}

fn new_count(round: &str, table: &str) -> NewCount {
    NewCount {
        round: round.into(),
        table: table.into(),
        red: "王天一".into(),
        black: "郑惟桐".into(),
        time_control: Some("slow".into()),
        claimant: Some(Color::Black),
        fen: START_FEN.into(),
    }
}

fn new_case(kind: CaseKind, corrects: Option<i64>) -> NewCase {
    NewCase {
        kind,
        corrects,
        event: Some("2020年全国象棋个人锦标赛".into()),
        time_control: Some("rapid".into()),
        round: "3".into(),
        table: "12".into(),
        red: "王天一".into(),
        black: "郑惟桐".into(),
        record: "1. 炮二平五 马８进７ 2. 马二进三 车９平８".into(),
        record_bytes: None,
        ruling: serde_json::json!({"schema": 1, "valid": true}),
        sheet: Some("<!doctype html><title>裁决书</title>".into()),
    }
}

#[test]
fn a_new_database_is_created_with_its_version_and_reopened() {
    let dir = Scratch::new("venue-new");
    let db = dir.join("event.sqlite");
    {
        let mut store = Store::open(&db, Access::Write).unwrap();
        store.start_count(&new_count("1", "1"), "李裁判").unwrap();
    }
    let conn = Connection::open(&db).unwrap();
    let version: i32 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    drop(conn);
    let store = Store::open(&db, Access::Write).unwrap();
    assert_eq!(store.counts(true).unwrap().len(), 1);
    // An empty file (touched by hand) is a new database too.
    let empty = dir.join("empty.sqlite");
    std::fs::write(&empty, b"").unwrap();
    Store::open(&empty, Access::Write).unwrap();
    // Reading a missing database is an error, and creates nothing.
    let missing = dir.join("missing.sqlite");
    let e = Store::open(&missing, Access::Read).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Io(_)), "{e:?}");
    assert!(!missing.exists());
}

#[test]
fn files_that_are_not_ours_are_refused_and_left_untouched() {
    let dir = Scratch::new("venue-foreign");
    // A text file.
    let text = dir.join("notes.sqlite");
    std::fs::write(&text, "round 3: table 12 claimed a draw\n").unwrap();
    refused(&text, |k| matches!(k, ErrorKind::NotOurs(_)));
    // Another program's SQLite database.
    let other = dir.join("other.sqlite");
    {
        let c = Connection::open(&other).unwrap();
        c.execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
            .unwrap();
    }
    refused(&other, |k| matches!(k, ErrorKind::NotOurs(_)));
    // A directory.
    let sub = dir.join("dir.sqlite");
    std::fs::create_dir(&sub).unwrap();
    let e = Store::open(&sub, Access::Write).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::NotOurs(_)), "{e:?}");
}

#[test]
fn a_newer_schema_is_refused_and_left_untouched() {
    let dir = Scratch::new("venue-newer");
    let db = dir.join("event.sqlite");
    drop(Store::open(&db, Access::Write).unwrap());
    {
        let c = Connection::open(&db).unwrap();
        c.execute_batch("PRAGMA user_version = 7").unwrap();
        c.execute_batch("PRAGMA journal_mode = DELETE").unwrap();
    }
    refused(&db, |k| {
        matches!(
            k,
            ErrorKind::NewerSchema {
                found: 7,
                supported: SCHEMA_VERSION
            }
        )
    });
    // The same with the newer version still in a leftover write-ahead log (the newer xqa was
    // killed): refused, and neither the file nor its log is folded or removed.
    let wal_db = dir.join("wal.sqlite");
    drop(Store::open(&wal_db, Access::Write).unwrap());
    let keep = dir.join("keep");
    std::fs::create_dir(&keep).unwrap();
    {
        let c = Connection::open(&wal_db).unwrap();
        c.execute_batch(
            "PRAGMA wal_autocheckpoint = 0; PRAGMA user_version = 8; CREATE TABLE later (x);",
        )
        .unwrap();
        // Copy the file and its log as they are while the writer still has them open.
        for ext in ["", "-wal"] {
            let from = format!("{}{ext}", wal_db.display());
            std::fs::copy(&from, keep.join(format!("wal.sqlite{ext}"))).unwrap();
        }
    }
    let kept = keep.join("wal.sqlite");
    let log = keep.join("wal.sqlite-wal");
    let before = (std::fs::read(&kept).unwrap(), std::fs::read(&log).unwrap());
    for access in [Access::Write, Access::Read] {
        let e = Store::open(&kept, access).unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::NewerSchema { found: 8, .. }),
            "{e:?}"
        );
    }
    assert_eq!(
        std::fs::read(&kept).unwrap(),
        before.0,
        "the file was changed"
    );
    assert_eq!(
        std::fs::read(&log).unwrap(),
        before.1,
        "the log was changed or folded"
    );
}

#[test]
fn a_corrupt_database_is_refused_and_left_untouched() {
    let dir = Scratch::new("venue-corrupt");
    let db = dir.join("event.sqlite");
    {
        let mut store = Store::open(&db, Access::Write).unwrap();
        for t in 1..=40 {
            store
                .start_count(&new_count("1", &t.to_string()), "李裁判")
                .unwrap();
            store
                .record_case(&new_case(CaseKind::Claim, None), "李裁判")
                .unwrap();
        }
    }
    {
        // Fold the WAL back into the file, then leave rollback mode so that the file is whole.
        let c = Connection::open(&db).unwrap();
        c.execute_batch("PRAGMA journal_mode = DELETE").unwrap();
    }
    let mut bytes = std::fs::read(&db).unwrap();
    assert!(bytes.len() > 4096 * 3, "{}", bytes.len());
    // Every page after the first (the header, which still says "ours") overwritten.
    let page = u16::from_be_bytes([bytes[16], bytes[17]]) as usize;
    for b in bytes[page..].iter_mut() {
        *b = 0xA5;
    }
    std::fs::write(&db, &bytes).unwrap();
    refused(&db, |k| matches!(k, ErrorKind::Corrupt(_)));
    // Cut short inside the header.
    let short = dir.join("short.sqlite");
    std::fs::write(&short, &bytes[..40]).unwrap();
    refused(&short, |k| matches!(k, ErrorKind::Corrupt(_)));
}

#[test]
fn a_second_server_on_the_same_file_is_refused() {
    let dir = Scratch::new("venue-lock");
    let db = dir.join("event.sqlite");
    let first = Store::open(&db, Access::Write).unwrap();
    let e = Store::open(&db, Access::Write).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Locked);
    assert!(e.to_string().contains("another xqa server"), "{e}");
    // Reading beside the server is allowed.
    Store::open(&db, Access::Read).unwrap();
    drop(first);
    Store::open(&db, Access::Write).unwrap();
}

#[test]
fn live_counts_refuse_a_move_for_a_ply_they_have_passed() {
    let dir = Scratch::new("venue-counts");
    let db = dir.join("event.sqlite");
    let mut store = Store::open(&db, Access::Write).unwrap();
    let count = store.start_count(&new_count("3", "12"), "李裁判").unwrap();
    assert_eq!(count.plies(), 0);
    assert_eq!(count.claimant.as_deref(), Some("black"));
    // One running count per table.
    let e = store
        .start_count(&new_count("3", "12"), "张裁判")
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Running { id: count.id });
    // Another table is another count.
    let other = store.start_count(&new_count("3", "13"), "张裁判").unwrap();
    assert_ne!(other.id, count.id);

    assert_eq!(count.revision, 0);
    let c = store.append_move(count.id, 1, 0, "h2e2", "李裁判").unwrap();
    assert_eq!(c.moves_text(), "h2e2");
    assert_eq!(c.revision, 1);
    // A second device that had not seen ply 1 sends its own ply 1: refused, naming the ply.
    let e = store
        .append_move(count.id, 1, 0, "b2e2", "张裁判")
        .unwrap_err();
    assert_eq!(
        e.kind,
        ErrorKind::Conflict {
            plies: 1,
            revision: 1,
            ply: 1,
            seen: 0
        }
    );
    assert!(e.to_string().contains("holds 1 plies"), "{e}");
    // A gap is refused the same way.
    let e = store
        .append_move(count.id, 3, 1, "h9g7", "李裁判")
        .unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Conflict { plies: 1, .. }));
    // An illegal move names the ply and the position.
    let e = store
        .append_move(count.id, 2, 1, "h2e2", "李裁判")
        .unwrap_err();
    assert!(
        matches!(&e.kind, ErrorKind::Invalid(m) if m.contains("ply 2") && m.contains("cannot be played")),
        "{e:?}"
    );
    let e = store
        .append_move(count.id, 2, 1, "炮二平五", "李裁判")
        .unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Invalid(_)), "{e:?}");
    let c = store
        .append_move(count.id, 2, 1, "H9-G7", "张裁判")
        .unwrap();
    assert_eq!(c.moves_text(), "h2e2 h9g7");
    assert_eq!(c.moves[1].entered_by, "张裁判");
    // Taking back must name the last ply, and the revision.
    let e = store.take_back(count.id, 1, 2, "李裁判").unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Conflict { plies: 2, .. }));
    let e = store.take_back(count.id, 2, 1, "李裁判").unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Conflict { revision: 2, .. }));
    let c = store.take_back(count.id, 2, 2, "李裁判").unwrap();
    assert_eq!(c.moves_text(), "h2e2");
    assert_eq!(c.revision, 3);
    // The move taken back stays on record, with who took it back.
    assert_eq!(c.withdrawn.len(), 1);
    assert_eq!(c.withdrawn[0].iccs, "h9g7");
    assert_eq!(c.withdrawn[0].withdrawn_by.as_deref(), Some("李裁判"));
    // A device that saw ply 1 = h2e2 before another took it back and entered b2e2 cannot extend
    // the new line as if it were the old one (no merge across a take-back).
    let other_view = c.revision;
    let c = store.take_back(count.id, 1, 3, "张裁判").unwrap();
    let c = store
        .append_move(count.id, 1, c.revision, "b2e2", "张裁判")
        .unwrap();
    assert_eq!(c.moves_text(), "b2e2");
    let e = store
        .append_move(count.id, 2, other_view, "h9g7", "李裁判")
        .unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Conflict { .. }), "{e:?}");
    let c = store.take_back(count.id, 1, c.revision, "张裁判").unwrap();
    let c = store
        .append_move(count.id, 1, c.revision, "h2e2", "李裁判")
        .unwrap();
    assert_eq!(c.withdrawn.len(), 3);

    // Every device (another connection: a restarted server) sees the same count.
    drop(store);
    let mut store = Store::open(&db, Access::Write).unwrap();
    assert_eq!(store.count(count.id).unwrap().moves_text(), "h2e2");
    let running = store.counts(true).unwrap();
    assert_eq!(running.len(), 2);
    // Closing takes it off the running list; it can no longer be extended.
    store.close_count(count.id, "李裁判").unwrap();
    assert_eq!(store.counts(true).unwrap().len(), 1);
    assert_eq!(store.counts(false).unwrap().len(), 2);
    let e = store
        .append_move(count.id, 2, 99, "h9g7", "李裁判")
        .unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Invalid(_)));
    // The table is free for a new count.
    store.start_count(&new_count("3", "12"), "李裁判").unwrap();
    // Bad input: a bad FEN, an empty arbiter, an unknown count.
    let mut bad = new_count("3", "20");
    bad.fen = "rnbakabnr/9 w".into();
    assert!(matches!(
        store.start_count(&bad, "李裁判").unwrap_err().kind,
        ErrorKind::Invalid(_)
    ));
    assert!(matches!(
        store
            .start_count(&new_count("3", "21"), "  ")
            .unwrap_err()
            .kind,
        ErrorKind::Invalid(_)
    ));
    assert!(matches!(
        store
            .append_move(999, 1, 0, "h2e2", "李裁判")
            .unwrap_err()
            .kind,
        ErrorKind::NotFound(_)
    ));
}

#[test]
fn case_book_entries_are_never_changed_and_corrections_point_back() {
    let dir = Scratch::new("venue-casebook");
    let db = dir.join("event.sqlite");
    let mut store = Store::open(&db, Access::Write).unwrap();
    let first = store
        .record_case(&new_case(CaseKind::Claim, None), "李裁判")
        .unwrap();
    assert_eq!(first.kind, CaseKind::Claim);
    assert_eq!(first.arbiter, "李裁判");
    assert!(
        first.at.ends_with('Z') && first.at.contains('T'),
        "{}",
        first.at
    );
    let mut fix = new_case(CaseKind::Claim, Some(first.id));
    fix.ruling = serde_json::json!({"schema": 1, "valid": false});
    let second = store.record_case(&fix, "王裁判长").unwrap();
    assert_eq!(second.corrects, Some(first.id));
    assert_eq!(store.case(first.id).unwrap().corrected_by, vec![second.id]);
    // A correction of an entry that does not exist is refused.
    assert!(matches!(
        store
            .record_case(&new_case(CaseKind::Cycle, Some(999)), "李裁判")
            .unwrap_err()
            .kind,
        ErrorKind::NotFound(_)
    ));
    drop(store);
    // Not even SQL can change or delete an entry.
    let c = Connection::open(&db).unwrap();
    let e = c
        .execute("UPDATE casebook SET arbiter = 'x' WHERE id = 1", [])
        .unwrap_err();
    assert!(e.to_string().contains("never changed"), "{e}");
    let e = c.execute("DELETE FROM casebook", []).unwrap_err();
    assert!(e.to_string().contains("never deleted"), "{e}");
    drop(c);

    // Round 10 sorts after round 3; the export lists by round and table.
    let mut store = Store::open(&db, Access::Write).unwrap();
    let mut later = new_case(CaseKind::Cycle, None);
    later.round = "10".into();
    later.table = "2".into();
    store.record_case(&later, "李裁判").unwrap();
    let mut earlier_table = new_case(CaseKind::Sheet, None);
    earlier_table.table = "9".into();
    earlier_table.sheet = None;
    store.record_case(&earlier_table, "李裁判").unwrap();
    let book = store.casebook().unwrap();
    let order: Vec<(String, String, i64)> = book
        .iter()
        .map(|e| (e.round.clone(), e.table.clone(), e.id))
        .collect();
    assert_eq!(
        order,
        vec![
            ("3".into(), "9".into(), 4),
            ("3".into(), "12".into(), 1),
            ("3".into(), "12".into(), 2),
            ("10".into(), "2".into(), 3)
        ]
    );

    // The JSON export is the same as the library's, read without the server's lock.
    let (code, out, err) = xqa(&["casebook", db.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json, casebook::to_json(&db, &book));
    assert_eq!(json["entries"][1]["ruling"]["valid"], true);
    assert_eq!(json["entries"][1]["corrected_by"][0], 2);
    assert_eq!(json["entries"][2]["corrects"], 1);
    // CSV: a header and one row per entry, the Chinese names intact.
    let (code, out, err) = xqa(&["casebook", db.to_str().unwrap(), "--csv"]);
    assert_eq!(code, 0, "{err}");
    let out = out.strip_prefix('\u{feff}').expect("byte order mark");
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(&rows[1][0], "1");
    assert_eq!(&rows[1][2], "2");
    assert_eq!(&rows[1][8], "王天一");
    assert_eq!(&rows[1][12], "1. 炮二平五 马８进７ 2. 马二进三 车９平８");
    assert_eq!(&rows[0][15], "no");
    // Text.
    let (code, out, _) = xqa(&["casebook", db.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("(corrected by #2)"), "{out}");
    assert!(out.contains("(corrects #1)"), "{out}");
}

#[test]
fn sessions_and_access_codes() {
    let dir = Scratch::new("venue-access");
    let db = dir.join("event.sqlite");
    let mut store = Store::open(&db, Access::Write).unwrap();
    let code = AccessCode::generate().unwrap();
    let tag = code.tag();
    let s = store.open_session("李裁判", &tag).unwrap();
    assert_eq!(s.token.len(), 32);
    assert_eq!(
        store.session(&s.token, &tag).unwrap().unwrap().arbiter,
        "李裁判"
    );
    // Under another code (a restart with a new one, or none), the session is not honoured.
    let other_code = AccessCode::generate().unwrap();
    assert!(
        store
            .session(&s.token, &other_code.tag())
            .unwrap()
            .is_none()
    );
    assert!(store.session(&s.token, NO_CODE_TAG).unwrap().is_none());
    assert!(store.session("00", &tag).unwrap().is_none());
    assert!(store.session(&"0".repeat(32), &tag).unwrap().is_none());
    assert!(
        store
            .session("'; DROP TABLE sessions; --", &tag)
            .unwrap()
            .is_none()
    );
    let other = store.open_session("张裁判", &tag).unwrap();
    assert_ne!(other.token, s.token);
    // Sessions survive a restart.
    drop(store);
    let store = Store::open(&db, Access::Write).unwrap();
    assert!(store.session(&s.token, &tag).unwrap().is_some());

    assert_eq!(code.as_str().len(), 14, "{}", code.as_str());
    assert!(code.matches(code.as_str()));
    assert!(code.matches(&code.as_str().to_lowercase().replace('-', " ")));
    assert!(!code.matches(&code.as_str()[..9]));
    assert!(!code.matches(""));
    assert_ne!(AccessCode::generate().unwrap(), code);
    let file = dir.join("code.txt");
    std::fs::write(&file, "  xiangqi-2020-final \nsecond line").unwrap();
    let given = AccessCode::from_file(&file).unwrap();
    assert!(given.matches("XIANGQI2020FINAL"));
    std::fs::write(&file, "short").unwrap();
    assert!(
        AccessCode::from_file(&file)
            .unwrap_err()
            .contains("at least 8")
    );
}

/// The time controls a count may be started under, for the kinds of event there are: one
/// natural move limit for all games (no name to give), several time controls without a default
/// (one must be chosen), and the event-wide limit beside named ones that have a default.
#[test]
fn time_control_choices_follow_the_event() {
    use xiangqi_arbiter::rules::event::Event;
    use xiangqi_arbiter::venue::TimeControls;
    let event = |json: &str| Event::from_json(json, "test.json").unwrap();
    // One limit for all games: the only choice has no name, and a name given is refused.
    let one = TimeControls::of(Some(&event(
        r#"{"name": "甲级联赛", "limit": {"base": "rapid"}}"#,
    )));
    assert_eq!(one.choices.len(), 1);
    assert_eq!(one.choices[0].name, None);
    assert!(one.choices[0].default);
    assert_eq!(one.choices[0].limit.moves, 50);
    assert_eq!(one.resolve(None), Ok(None));
    assert_eq!(one.resolve(Some("  ")), Ok(None));
    let refused = one.resolve(Some("slow")).unwrap_err().message;
    assert!(
        refused.contains("\"slow\"") && refused.contains("the event's limit"),
        "{refused}"
    );
    // Several and no default: none given is refused, naming them.
    let several = TimeControls::of(Some(&event(
        r#"{"name": "E", "time_controls": [
            {"name": "slow", "name_zh": "慢棋", "limit": {"base": "slow"}},
            {"name": "rapid", "limit": {"base": "rapid"}}]}"#,
    )));
    assert!(several.choices.iter().all(|c| !c.default));
    let refused = several.resolve(None).unwrap_err().message;
    assert!(
        refused.contains("slow 慢棋, rapid") && refused.contains("请选择赛制"),
        "{refused}"
    );
    assert_eq!(several.resolve(Some("rapid")), Ok(Some("rapid".into())));
    // Named ones with a default, beside an event-wide limit that no ruling would take: the
    // named ones only.
    let named = TimeControls::of(Some(&event(
        r#"{"name": "E", "limit": {"base": "amateur40"}, "default_time_control": "rapid",
            "time_controls": [{"name": "rapid", "limit": {"base": "rapid"}}]}"#,
    )));
    assert_eq!(named.choices.len(), 1);
    assert_eq!(named.resolve(None), Ok(Some("rapid".into())));
    // No event: the limit profiles a claim accepts, each one known to the rules.
    let plain = TimeControls::of(None);
    for c in &plain.choices {
        let name = c.name.as_deref().unwrap();
        assert_eq!(
            xiangqi_arbiter::rules::limit::LimitProfile::by_name(name).as_ref(),
            Some(&c.limit)
        );
    }
    assert_eq!(plain.resolve(None), Ok(Some("slow".into())));
    assert!(plain.resolve(Some("blitz")).is_err());
}

/// A database keeps one event's state: the first server records its event (or none), and a
/// server started with another is refused with both names, the file left as it was; a version
/// 1 file (no event recorded) is brought to version 2 and bound by the next server.
#[test]
fn a_database_keeps_one_events_state() {
    let dir = Scratch::new("venue-event-bound");
    let db = dir.join("event.sqlite");
    {
        let mut store = Store::open(&db, Access::Write).unwrap();
        assert_eq!(store.bound_event().unwrap(), None);
        store.bind_event(Some("2020年全国象棋个人锦标赛")).unwrap();
        store.bind_event(Some("2020年全国象棋个人锦标赛")).unwrap();
        for other in [Some("2024年天水象棋业余赛"), None] {
            let e = store.bind_event(other).unwrap_err();
            assert!(
                matches!(&e.kind, ErrorKind::OtherEvent { stored: Some(s), given } if s == "2020年全国象棋个人锦标赛" && given.as_deref() == other),
                "{e:?}"
            );
            let text = e.to_string();
            assert!(
                text.contains("2020年全国象棋个人锦标赛") && text.contains("left untouched"),
                "{text}"
            );
            assert!(
                e.message_zh().contains("未作任何改动"),
                "{}",
                e.message_zh()
            );
        }
        assert_eq!(
            store.bound_event().unwrap(),
            Some(Some("2020年全国象棋个人锦标赛".to_owned()))
        );
    }
    // Through the server: another event is refused at start-up, exit 2, the file unchanged.
    let before = std::fs::read(&db).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tianshui = root.join("events/2024-tianshui-amateur.json");
    let (code, _, err) = xqa(&[
        "serve",
        "--port",
        "0",
        "--db",
        db.to_str().unwrap(),
        "--event",
        tianshui.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("2024年天水象棋业余赛") && err.contains("2020年全国象棋个人锦标赛"),
        "{err}"
    );
    assert_eq!(std::fs::read(&db).unwrap(), before);
    // A version 1 file: upgraded by a writer, and bound to the event of its next server.
    let old = dir.join("v1.sqlite");
    drop(Store::open(&old, Access::Write).unwrap());
    {
        let c = Connection::open(&old).unwrap();
        c.execute_batch("DROP TABLE venue_event; PRAGMA user_version = 1;")
            .unwrap();
    }
    assert_eq!(
        Store::open(&old, Access::Read)
            .unwrap()
            .bound_event()
            .unwrap(),
        None
    );
    let mut store = Store::open(&old, Access::Write).unwrap();
    let version: i32 = Connection::open(&old)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    store.bind_event(None).unwrap();
    assert_eq!(store.bound_event().unwrap(), Some(None));
    assert!(store.bind_event(Some("x")).is_err());
}

/// A session lasts `SESSION_DAYS` days from the code's entry: an older one lets nothing in.
#[test]
fn a_session_ends_after_its_days() {
    let dir = Scratch::new("venue-session-days");
    let db = dir.join("event.sqlite");
    let mut store = Store::open(&db, Access::Write).unwrap();
    let s = store.open_session("李裁判", NO_CODE_TAG).unwrap();
    assert!(store.session(&s.token, NO_CODE_TAG).unwrap().is_some());
    let c = Connection::open(&db).unwrap();
    let days = xiangqi_arbiter::venue::SESSION_DAYS;
    for (age, kept) in [(days - 1, true), (days + 1, false)] {
        c.execute(
            &format!(
                "UPDATE sessions SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-{age} days')"
            ),
            [],
        )
        .unwrap();
        assert_eq!(
            store.session(&s.token, NO_CODE_TAG).unwrap().is_some(),
            kept,
            "{age} days"
        );
    }
}
