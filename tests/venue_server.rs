//! `xqa serve --db`: live counts shared by every device and kept across a SIGKILL, 409 for a
//! move sent for a ply the count has passed, rulings recorded in the case book with their sheet,
//! the access code off loopback, and the files and second servers refused at start-up.

mod common;

use common::{Scratch, xqa, xqa_cmd};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

struct Server {
    child: Child,
    url: String,
    /// The access code printed, when one was.
    code: Option<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `xqa serve --port 0 --db DB` with `extra`; reads its start-up lines (the address,
/// the venue's lines, the access code) and drains the rest.
fn start(db: &Path, extra: &[&str]) -> Server {
    let mut child = xqa_cmd(&["serve", "--port", "0", "--db", db.to_str().unwrap()])
        .args(extra)
        .stderr(Stdio::piped())
        .spawn()
        .expect("xqa serve starts");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines.next().expect("a line").expect("utf-8");
    let port = first
        .rsplit(':')
        .next()
        .unwrap()
        .trim_end_matches('/')
        .to_string();
    let url = format!("http://127.0.0.1:{port}");
    let venue_line = lines.next().expect("the venue's line").unwrap();
    assert!(venue_line.contains("venue database"), "{venue_line}");
    let mut code = None;
    if venue_line.contains("access code once") && !extra.contains(&"--access-code-file") {
        let line = lines.next().expect("the code's line").unwrap();
        code = line
            .split("venue access code: ")
            .nth(1)
            .map(|s| s.split_whitespace().next().unwrap().to_string());
        assert!(code.is_some(), "{line}");
    }
    std::thread::spawn(move || for _ in lines {});
    Server { child, url, code }
}

fn agent() -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(60))
        .build()
}

/// (status, body as JSON or a string, set-cookie) of a request with an optional cookie.
fn call(
    method: &str,
    url: &str,
    body: Option<&str>,
    cookie: Option<&str>,
) -> (u16, Value, Option<String>) {
    let mut r = agent().request(method, url);
    if let Some(c) = cookie {
        r = r.set("Cookie", c);
    }
    let answer = match body {
        Some(b) => r.send_string(b),
        None => r.call(),
    };
    let r = match answer {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{url}: {e}"),
    };
    let status = r.status();
    let cookie = r.header("set-cookie").map(str::to_owned);
    let text = r.into_string().unwrap();
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, value, cookie)
}

fn post(url: &str, body: Value) -> (u16, Value) {
    let (s, v, _) = call("POST", url, Some(&body.to_string()), None);
    (s, v)
}

fn get(url: &str) -> (u16, Value) {
    let (s, v, _) = call("GET", url, None, None);
    (s, v)
}

fn start_count(url: &str, table: &str) -> i64 {
    let (s, v) = post(
        &format!("{url}/api/venue/counts"),
        json!({"round": "1", "table": table, "red": "红", "black": "黑", "claimant": "black", "arbiter": "李裁判"}),
    );
    assert_eq!(s, 201, "{v}");
    v["count"]["id"].as_i64().unwrap()
}

/// A claim sample (slow: 14 checks, 4 of them void): a record every ruling test can use.
fn claim_sample() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("pgn-samples/claim_slow_checks_void.pgn"),
    )
    .unwrap()
}

/// Knights out and back: legal for ever, no capture.
const SHUFFLE: [&str; 4] = ["h0g2", "h9g7", "g2h0", "g7h9"];

#[test]
fn counts_are_shared_and_a_stale_ply_gets_409() {
    let dir = Scratch::new("venue-srv-counts");
    let db = dir.join("event.sqlite");
    let server = start(&db, &[]);
    let url = &server.url;
    let id = start_count(url, "7");
    let moves = format!("{url}/api/venue/counts/{id}/moves");
    let (s, v) = post(
        &moves,
        json!({"ply": 1, "revision": 0, "move": "h2e2", "arbiter": "李裁判"}),
    );
    assert_eq!(s, 200, "{v}");
    // A second device that had not seen ply 1.
    let (s, v) = post(
        &moves,
        json!({"ply": 1, "revision": 0, "move": "b2e2", "arbiter": "张裁判"}),
    );
    assert_eq!(s, 409, "{v}");
    assert_eq!(v["schema"], 1);
    assert_eq!(v["error"]["kind"], "conflict");
    let msg = v["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("holds 1 plies") && msg.contains("ply 1"),
        "{msg}"
    );
    // An illegal move: 400 naming the ply; an unknown count: 404; a bad body: 400.
    let (s, v) = post(
        &moves,
        json!({"ply": 2, "revision": 1, "move": "h2e2", "arbiter": "李裁判"}),
    );
    assert_eq!(s, 400, "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("ply 2"));
    let (s, _) = post(
        &format!("{url}/api/venue/counts/999/moves"),
        json!({"ply": 1, "revision": 0, "move": "h2e2", "arbiter": "x"}),
    );
    assert_eq!(s, 404);
    let (s, v) = post(
        &moves,
        json!({"ply": 2, "revision": 1, "mvoe": "h9g7", "arbiter": "x"}),
    );
    assert_eq!(s, 400);
    assert!(
        v["error"]["message"].as_str().unwrap().contains("mvoe"),
        "{v}"
    );
    // Without a name on loopback: 400 saying the name is needed.
    let (s, v) = post(&moves, json!({"ply": 2, "revision": 1, "move": "h9g7"}));
    assert_eq!(s, 400);
    assert!(v["error"]["message"].as_str().unwrap().contains("arbiter"));
    // Another device sees the same count, with its claim state.
    let (s, v) = get(&format!("{url}/api/venue/counts"));
    assert_eq!(s, 200);
    let counts = v["counts"].as_array().unwrap();
    assert_eq!(counts.len(), 1);
    assert_eq!(counts[0]["moves"][0]["iccs"], "h2e2");
    assert_eq!(counts[0]["claim"]["required"], 60, "{}", counts[0]["claim"]);
    assert_eq!(counts[0]["claim"]["valid"], false);
    // A second count on the same table: 409 naming the running one.
    let (s, v) = post(
        &format!("{url}/api/venue/counts"),
        json!({"round": "1", "table": "7", "arbiter": "x"}),
    );
    assert_eq!(s, 409);
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains(&format!("id {id}"))
    );
    // The count's claim ruled as stored: refused for a stale revision, recorded for the current.
    let rule = format!("{url}/api/venue/counts/{id}/rule");
    let (s, v) = post(&rule, json!({"revision": 0, "arbiter": "李裁判"}));
    assert_eq!(s, 409, "{v}");
    let (s, v) = post(&rule, json!({"revision": 1, "arbiter": "李裁判"}));
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["entry"]["kind"], "claim");
    assert_eq!(v["entry"]["table"], "7");
    assert_eq!(v["entry"]["ruling"]["valid"], false);
    assert!(
        v["entry"]["record"]
            .as_str()
            .unwrap()
            .contains("Moves: h2e2")
    );
    // The venue page is served.
    let (s, v, _) = call("GET", &format!("{url}/venue"), None, None);
    assert_eq!(s, 200);
    assert!(v.as_str().unwrap().contains("裁决记录簿"));
}

#[test]
fn a_ruling_is_recorded_with_its_sheet_and_exported() {
    let dir = Scratch::new("venue-srv-rule");
    let db = dir.join("event.sqlite");
    let server = start(&db, &[]);
    let url = &server.url;
    let sample = claim_sample();
    let (s, v, _) = call(
        "POST",
        &format!(
            "{url}/api/venue/rule?kind=claim&claimant=red&round=2&table=5&red=A&black=B&arbiter=%E6%9D%8E"
        ),
        Some(&sample),
        None,
    );
    assert_eq!(s, 200, "{v}");
    let entry = &v["entry"];
    assert_eq!(entry["kind"], "claim");
    assert_eq!(entry["arbiter"], "李");
    assert_eq!(entry["record"], sample.as_str());
    // The ruling is what /api/claim answers for the same input.
    let (_, direct, _) = call(
        "POST",
        &format!("{url}/api/claim?claimant=red"),
        Some(&sample),
        None,
    );
    assert_eq!(entry["ruling"], direct);
    let id = entry["id"].as_i64().unwrap();
    let (s, sheet, _) = call(
        "GET",
        &format!("{url}/api/venue/casebook/{id}/sheet"),
        None,
        None,
    );
    assert_eq!(s, 200);
    assert!(sheet.as_str().unwrap().contains("<html"), "{sheet}");
    // A correction points back; the list shows both, without sheets.
    let (s, v, _) = call(
        "POST",
        &format!("{url}/api/venue/rule?kind=cycle&round=2&table=5&corrects={id}&arbiter=%E7%8E%8B"),
        Some(&sample),
        None,
    );
    assert_eq!(s, 200, "{v}");
    let (_, book) = get(&format!("{url}/api/venue/casebook"));
    let entries = book["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0]["corrected_by"], json!([id + 1]));
    assert_eq!(entries[1]["corrects"], id);
    assert!(entries[0].get("sheet").is_none());
    assert!(entries[0].get("record").is_none());
    assert_eq!(entries[0]["has_sheet"], true);
    assert_eq!(entries[0]["valid"], direct["valid"]);
    // kind is checked.
    let (s, _, _) = call(
        "POST",
        &format!("{url}/api/venue/rule?kind=verdict&round=2&table=5&arbiter=x"),
        Some(&sample),
        None,
    );
    assert_eq!(s, 400);
    // The export, beside the running server, has the same entries, sheets included.
    let (code, out, err) = xqa(&["casebook", db.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let export: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(export["entries"].as_array().unwrap().len(), 2);
    assert_eq!(export["entries"][0]["ruling"], direct);
    assert_eq!(export["entries"][0]["sheet"], sheet);
    // The export follows the published schema (docs/schema.json, $defs/casebook).
    let mut schema: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/schema.json"))
            .unwrap(),
    )
    .unwrap();
    let obj = schema.as_object_mut().unwrap();
    obj.remove("anyOf");
    obj.insert("$ref".into(), "#/$defs/casebook".into());
    let validator = jsonschema::draft202012::new(&schema).expect("the schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&export)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn off_loopback_only_the_events_arbiters_get_in() {
    let dir = Scratch::new("venue-srv-access");
    let db = dir.join("event.sqlite");
    let server = start(&db, &["--bind", "0.0.0.0"]);
    let url = &server.url;
    let code = server.code.clone().expect("a code printed");
    // The description and the page are open; everything else needs the session.
    let (s, v) = get(&format!("{url}/api/venue"));
    assert_eq!(s, 200);
    assert_eq!(v["venue"]["access_required"], true);
    for (method, path) in [
        ("GET", "/api/venue/counts"),
        ("GET", "/api/venue/casebook"),
        ("GET", "/api/venue/casebook/1/sheet"),
        ("POST", "/api/claim?claimant=red&moves=h2e2"),
        ("GET", "/api/moves"),
    ] {
        let (s, v, _) = call(method, &format!("{url}{path}"), Some(""), None);
        assert_eq!(s, 401, "{path}: {v}");
        assert_eq!(v["error"]["kind"], "unauthorized", "{path}");
    }
    let (s, _, _) = call(
        "GET",
        &format!("{url}/api/venue/counts"),
        None,
        Some("xqa_session=0123456789abcdef0123456789abcdef"),
    );
    assert_eq!(s, 401);
    // A wrong code.
    let (s, v) = post(
        &format!("{url}/api/venue/login"),
        json!({"code": "WRONG-CODE-0000", "arbiter": "李裁判"}),
    );
    assert_eq!(s, 401, "{v}");
    // The right one, typed in lower case with spaces.
    let typed = code.to_lowercase().replace('-', " ");
    let (s, v, cookie) = call(
        "POST",
        &format!("{url}/api/venue/login"),
        Some(&json!({"code": typed, "arbiter": "李裁判"}).to_string()),
        None,
    );
    assert_eq!(s, 200, "{v}");
    let cookie = cookie.expect("a session cookie");
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"));
    // (Entered once per device: the cookie outlives a browser restart.)
    assert!(cookie.contains("Max-Age=2592000"), "{cookie}");
    let cookie = cookie.split(';').next().unwrap().to_string();
    let (s, v, _) = call("GET", &format!("{url}/api/venue"), None, Some(&cookie));
    assert_eq!(s, 200);
    assert_eq!(v["venue"]["arbiter"], "李裁判");
    // With the session, the device works, and its entries carry the session's name (a name in
    // the request does not change it).
    let (s, v, _) = call(
        "POST",
        &format!("{url}/api/venue/counts"),
        Some(&json!({"round": "1", "table": "1", "arbiter": "冒名"}).to_string()),
        Some(&cookie),
    );
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["count"]["started_by"], "李裁判");
    let (s, _, _) = call(
        "POST",
        &format!("{url}/api/claim?claimant=red&moves=h2e2"),
        Some(""),
        Some(&cookie),
    );
    assert_eq!(s, 200);
    // A restart under another code revokes every session opened under the old one.
    drop(server);
    let file = dir.join("code.txt");
    std::fs::write(&file, "event-2020-final\n").unwrap();
    let server = start(&db, &["--access-code-file", file.to_str().unwrap()]);
    let counts = |url: &str, cookie: &str| {
        call(
            "GET",
            &format!("{url}/api/venue/counts"),
            None,
            Some(cookie),
        )
        .0
    };
    assert_eq!(counts(&server.url, &cookie), 401);
    let (s, _, new_cookie) = call(
        "POST",
        &format!("{}/api/venue/login", server.url),
        Some(&json!({"code": "EVENT2020FINAL", "arbiter": "张裁判"}).to_string()),
        None,
    );
    assert_eq!(s, 200);
    let new_cookie = new_cookie.unwrap().split(';').next().unwrap().to_string();
    // A stray cookie of the same name before the right one does not lock the device out.
    let both = format!(
        "{}=00000000000000000000000000000000; {new_cookie}",
        new_cookie.split('=').next().unwrap()
    );
    assert_eq!(counts(&server.url, &both), 200);
    // Under the same code, a session outlives a restart (a dead laptop, a restarted server).
    drop(server);
    let server = start(&db, &["--access-code-file", file.to_str().unwrap()]);
    assert_eq!(counts(&server.url, &new_cookie), 200);
}

#[test]
fn bad_files_and_a_second_server_are_refused_at_start_up() {
    let dir = Scratch::new("venue-srv-refuse");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "not a database").unwrap();
    let o = xqa_cmd(&["serve", "--port", "0", "--db", notes.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("notes.txt") && err.contains("left untouched"),
        "{err}"
    );
    assert_eq!(std::fs::read(&notes).unwrap(), b"not a database");

    let db = dir.join("event.sqlite");
    let _first = start(&db, &[]);
    let o = xqa_cmd(&["serve", "--port", "0", "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("another xqa server"), "{err}");
}

#[test]
fn fifty_devices_on_fifty_counts() {
    let dir = Scratch::new("venue-srv-fifty");
    let db = dir.join("event.sqlite");
    let server = start(&db, &[]);
    let url = Arc::new(server.url.clone());
    let threads: Vec<_> = (0..50)
        .map(|i| {
            let url = url.clone();
            std::thread::spawn(move || {
                let id = start_count(&url, &format!("{}", i + 1));
                for ply in 1..=8u32 {
                    let mv = SHUFFLE[(ply as usize - 1) % 4];
                    let (s, v) = post(
                        &format!("{url}/api/venue/counts/{id}/moves"),
                        json!({"ply": ply, "revision": ply - 1, "move": mv, "arbiter": format!("裁判{i}")}),
                    );
                    assert_eq!(s, 200, "{v}");
                }
                id
            })
        })
        .collect();
    let ids: Vec<i64> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let (_, v) = get(&format!("{url}/api/venue/counts"));
    let counts = v["counts"].as_array().unwrap();
    assert_eq!(counts.len(), 50);
    for c in counts {
        assert!(ids.contains(&c["id"].as_i64().unwrap()));
        assert_eq!(c["moves"].as_array().unwrap().len(), 8);
    }
}

#[test]
fn what_was_acknowledged_survives_sigkill() {
    let dir = Scratch::new("venue-srv-kill");
    let db = dir.join("event.sqlite");
    let server = start(&db, &[]);
    let url = Arc::new(server.url.clone());
    let ids: Vec<i64> = (0..8).map(|i| start_count(&url, &format!("{i}"))).collect();
    // Acknowledged plies per count, and acknowledged case book entries.
    let acked = Arc::new(Mutex::new(vec![0u32; ids.len()]));
    let entries = Arc::new(Mutex::new(Vec::<i64>::new()));
    let mut flood = Vec::new();
    for (k, &id) in ids.iter().enumerate() {
        let (url, acked) = (url.clone(), acked.clone());
        flood.push(std::thread::spawn(move || {
            for ply in 1..=10_000u32 {
                let mv = SHUFFLE[(ply as usize - 1) % 4];
                let r = agent()
                    .post(&format!("{url}/api/venue/counts/{id}/moves"))
                    .send_string(
                        &json!({"ply": ply, "revision": ply - 1, "move": mv, "arbiter": "x"})
                            .to_string(),
                    );
                match r {
                    Ok(r) if r.status() == 200 => acked.lock().unwrap()[k] = ply,
                    _ => return,
                }
            }
        }));
    }
    {
        let (url, entries) = (url.clone(), entries.clone());
        flood.push(std::thread::spawn(move || {
            for _ in 0..10_000 {
                let r = agent()
                    .post(&format!(
                        "{url}/api/venue/rule?kind=cycle&round=1&table=1&arbiter=x&moves=h0g2%20h9g7"
                    ))
                    .send_string("");
                match r {
                    Ok(r) if r.status() == 200 => {
                        let v: Value = serde_json::from_str(&r.into_string().unwrap()).unwrap();
                        entries
                            .lock()
                            .unwrap()
                            .push(v["entry"]["id"].as_i64().unwrap());
                    }
                    _ => return,
                }
            }
        }));
    }
    // Let the flood run, then kill the server without warning.
    std::thread::sleep(Duration::from_millis(1500));
    let mut server = server;
    server.child.kill().unwrap(); // SIGKILL
    server.child.wait().unwrap();
    for t in flood {
        t.join().unwrap();
    }
    let acked = acked.lock().unwrap().clone();
    let entries = entries.lock().unwrap().clone();
    assert!(acked.iter().sum::<u32>() > 0, "the flood never got going");
    assert!(!entries.is_empty(), "no ruling was acknowledged");
    // A new server on the same file (the dead one's lock is gone with it) has every
    // acknowledged move and ruling.
    let server = start(&db, &[]);
    for (k, id) in ids.iter().enumerate() {
        let (s, v) = get(&format!("{}/api/venue/counts/{id}", server.url));
        assert_eq!(s, 200);
        let held = v["count"]["moves"].as_array().unwrap().len() as u32;
        // (A move stored whose answer the kill cut off may be there too.)
        assert!(
            held == acked[k] || held == acked[k] + 1,
            "count {id}: {held} stored, {} acknowledged",
            acked[k]
        );
    }
    let (_, book) = get(&format!("{}/api/venue/casebook", server.url));
    let stored: Vec<i64> = book["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_i64().unwrap())
        .collect();
    for id in &entries {
        assert!(
            stored.contains(id),
            "entry {id} was acknowledged and is lost"
        );
    }
}

fn shipped_event() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("events/2020-national-individual.json")
        .to_str()
        .unwrap()
        .to_owned()
}

fn choice_names(info: &Value) -> Vec<String> {
    info["venue"]["time_controls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_count_takes_only_the_events_time_controls() {
    let dir = Scratch::new("venue-srv-tc");
    let db = dir.join("event.sqlite");
    let server = start(&db, &["--event", &shipped_event()]);
    let url = &server.url;
    // The venue names the event's time controls, with the default.
    let (s, info) = get(&format!("{url}/api/venue"));
    assert_eq!(s, 200);
    assert_eq!(info["venue"]["event"]["name"], "2020年全国象棋个人锦标赛");
    assert_eq!(info["venue"]["time_control_source"], "event");
    assert_eq!(
        choice_names(&info),
        ["slow", "rapid", "super_rapid", "armageddon"]
    );
    let slow = &info["venue"]["time_controls"][0];
    assert_eq!(slow["name_zh"], "慢棋");
    assert_eq!(slow["default"], true);
    assert!(slow["clock"].as_str().unwrap().contains("40 min"));
    assert_eq!(slow["limit"]["moves"], 60);
    assert_eq!(info["venue"]["time_controls"][1]["default"], false);
    // A time control the event does not have is refused, naming the choices in both languages,
    // and nothing is stored.
    let counts = format!("{url}/api/venue/counts");
    let (s, v) = post(
        &counts,
        json!({"round": "1", "table": "1", "time_control": "blitz", "claimant": "red", "arbiter": "李"}),
    );
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["error"]["kind"], "usage");
    let msg = v["error"]["message"].as_str().unwrap();
    for want in [
        "blitz",
        "slow 慢棋",
        "rapid 快棋",
        "armageddon 附加赛",
        "赛制",
        "time control",
    ] {
        assert!(msg.contains(want), "{want}: {msg}");
    }
    let (_, all) = get(&format!("{counts}?all=1"));
    assert_eq!(all["counts"], json!([]));
    // None given: the event's default, recorded; one given: that one, and its limit rules the
    // claim state.
    let (s, v) = post(
        &counts,
        json!({"round": "1", "table": "1", "claimant": "red", "arbiter": "李"}),
    );
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["count"]["time_control"], "slow");
    let (s, v) = post(
        &counts,
        json!({"round": "1", "table": "2", "time_control": "rapid", "claimant": "red", "arbiter": "李"}),
    );
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["count"]["time_control"], "rapid");
    let (_, v) = get(&format!("{url}/api/venue/counts/{}", v["count"]["id"]));
    assert_eq!(v["count"]["claim"]["profile"], "rapid", "{v}");
    assert_eq!(v["count"]["claim"]["required"], 50, "{v}");
    drop(server);

    // Without an event: the limit profiles a claim may name.
    let db = dir.join("plain.sqlite");
    let server = start(&db, &[]);
    let url = &server.url;
    let (_, info) = get(&format!("{url}/api/venue"));
    assert_eq!(info["venue"]["time_control_source"], "profiles");
    assert_eq!(
        choice_names(&info),
        ["slow", "rapid", "armageddon", "amateur40"]
    );
    assert_eq!(info["venue"]["time_controls"][0]["default"], true);
    let counts = format!("{url}/api/venue/counts");
    let (s, v) = post(
        &counts,
        json!({"round": "1", "table": "1", "time_control": "blitz", "arbiter": "李"}),
    );
    assert_eq!(s, 400, "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("amateur40"),
        "{v}"
    );
    let (s, v) = post(
        &counts,
        json!({"round": "1", "table": "1", "time_control": "amateur40", "claimant": "black", "arbiter": "李"}),
    );
    assert_eq!(s, 201, "{v}");
    let (_, v) = get(&format!("{url}/api/venue/counts/{}", v["count"]["id"]));
    assert_eq!(v["count"]["claim"]["profile"], "amateur40", "{v}");
    assert_eq!(v["count"]["claim"]["required"], 40, "{v}");
}

#[test]
fn a_correction_re_rules_the_stored_record_and_points_back() {
    let dir = Scratch::new("venue-srv-correct");
    let db = dir.join("event.sqlite");
    let server = start(&db, &["--event", &shipped_event()]);
    let url = &server.url;
    let sample = claim_sample();
    // Ruled under the default time control (slow): recorded as such.
    let (s, v, _) = call(
        "POST",
        &format!(
            "{url}/api/venue/rule?kind=claim&claimant=red&round=3&table=8&red=A&black=B&arbiter=%E6%9D%8E"
        ),
        Some(&sample),
        None,
    );
    assert_eq!(s, 200, "{v}");
    let first = v["entry"]["id"].as_i64().unwrap();
    assert_eq!(v["entry"]["time_control"], "slow");
    assert_eq!(v["entry"]["event"], "2020年全国象棋个人锦标赛");
    // The committee reads the entry whole, and re-rules its record as stored, under rapid.
    let (s, stored) = get(&format!("{url}/api/venue/casebook/{first}"));
    assert_eq!(s, 200);
    let record = stored["entry"]["record"].as_str().unwrap().to_owned();
    assert_eq!(record, sample);
    let (s, v, _) = call(
        "POST",
        &format!(
            "{url}/api/venue/rule?kind=claim&claimant=red&time_control=rapid&round=3&table=8&red=A&black=B&corrects={first}&arbiter=%E7%8E%8B"
        ),
        Some(&record),
        None,
    );
    assert_eq!(s, 200, "{v}");
    let second = &v["entry"];
    let id = second["id"].as_i64().unwrap();
    assert_eq!(second["corrects"], first);
    assert_eq!(second["record"], record.as_str());
    assert_eq!(second["time_control"], "rapid");
    assert_eq!(second["arbiter"], "王");
    assert_eq!(second["ruling"]["profile"], "rapid");
    assert_ne!(
        second["ruling"]["required"],
        stored["entry"]["ruling"]["required"]
    );
    // The old entry, never changed, now names the entry that corrects it.
    let (_, old) = get(&format!("{url}/api/venue/casebook/{first}"));
    assert_eq!(old["entry"]["corrected_by"], json!([id]));
    assert_eq!(old["entry"]["ruling"], stored["entry"]["ruling"]);
    // A correction of an entry that does not exist is refused before anything is ruled.
    let (s, v, _) = call(
        "POST",
        &format!(
            "{url}/api/venue/rule?kind=claim&claimant=red&round=3&table=8&corrects=999&arbiter=x"
        ),
        Some(&record),
        None,
    );
    assert_eq!(s, 404, "{v}");
    let (_, book) = get(&format!("{url}/api/venue/casebook"));
    assert_eq!(book["entries"].as_array().unwrap().len(), 2);
}

#[test]
fn logging_out_closes_the_session_and_the_next_arbiter_signs_the_entries() {
    let dir = Scratch::new("venue-srv-logout");
    let db = dir.join("event.sqlite");
    let server = start(&db, &["--bind", "0.0.0.0"]);
    let url = &server.url;
    let code = server.code.clone().expect("a code printed");
    let login = |name: &str| {
        let (s, v, cookie) = call(
            "POST",
            &format!("{url}/api/venue/login"),
            Some(&json!({"code": code, "arbiter": name}).to_string()),
            None,
        );
        assert_eq!(s, 200, "{v}");
        cookie.unwrap().split(';').next().unwrap().to_string()
    };
    let cookie = login("李裁判");
    let token = cookie.split('=').nth(1).unwrap().to_owned();
    let (s, _, _) = call(
        "GET",
        &format!("{url}/api/venue/counts"),
        None,
        Some(&cookie),
    );
    assert_eq!(s, 200);
    // Logging out: the cookie is cleared, and the session is gone from the database when the
    // answer comes.
    let (s, v, set) = call(
        "POST",
        &format!("{url}/api/venue/logout"),
        Some(""),
        Some(&cookie),
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["logged_out"], true);
    let set = set.expect("the cookie cleared");
    assert!(
        set.starts_with(&format!("{}=;", cookie.split('=').next().unwrap()))
            && set.contains("Max-Age=0"),
        "{set}"
    );
    let conn =
        rusqlite::Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    let left: i64 = conn
        .query_row(
            "SELECT count(*) FROM sessions WHERE token = ?1",
            [&token],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(left, 0);
    drop(conn);
    // The old cookie no longer opens anything.
    let (s, v, _) = call(
        "GET",
        &format!("{url}/api/venue/counts"),
        None,
        Some(&cookie),
    );
    assert_eq!(s, 401, "{v}");
    assert_eq!(v["error"]["kind"], "unauthorized");
    let (_, v, _) = call("GET", &format!("{url}/api/venue"), None, Some(&cookie));
    assert_eq!(v["venue"]["arbiter"], Value::Null);
    // Logging out again (or without a session) is harmless.
    let (s, v, _) = call(
        "POST",
        &format!("{url}/api/venue/logout"),
        Some(""),
        Some(&cookie),
    );
    assert_eq!(s, 200);
    assert_eq!(v["logged_out"], false);
    // The next arbiter on the same phone: entries carry the new name.
    let cookie = login("张裁判");
    let (s, v, _) = call(
        "POST",
        &format!("{url}/api/venue/counts"),
        Some(&json!({"round": "1", "table": "4"}).to_string()),
        Some(&cookie),
    );
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["count"]["started_by"], "张裁判");
}

/// A count's ruling: its repetition cycles (a cycle entry whose ruling is the adjudication of
/// the stored moves), a claim for a count started without a claimant (the claimant given, and
/// refused when it contradicts the stored one), and no ruling of a closed count.
#[test]
fn a_counts_cycles_and_claims_are_ruled_as_stored() {
    let dir = Scratch::new("venue-srv-rule-of");
    let db = dir.join("event.sqlite");
    let server = start(&db, &[]);
    let url = &server.url;
    let (s, v) = post(
        &format!("{url}/api/venue/counts"),
        json!({"round": "2", "table": "4", "arbiter": "李裁判"}),
    );
    assert_eq!(s, 201, "{v}");
    let id = v["count"]["id"].as_i64().unwrap();
    let mut revision = v["count"]["revision"].clone();
    // Knights out and back twice: the start position comes a third time.
    for (k, mv) in SHUFFLE.iter().chain(SHUFFLE.iter()).enumerate() {
        let (s, v) = post(
            &format!("{url}/api/venue/counts/{id}/moves"),
            json!({"ply": k + 1, "revision": revision, "move": mv, "arbiter": "李裁判"}),
        );
        assert_eq!(s, 200, "{v}");
        revision = v["count"]["revision"].clone();
    }
    let rule = |body: Value| post(&format!("{url}/api/venue/counts/{id}/rule"), body);
    // No claimant stored and none given: a usage error, nothing recorded.
    let (s, v) = rule(json!({"revision": revision, "arbiter": "李裁判"}));
    assert_eq!(s, 400, "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("claimant"),
        "{v}"
    );
    // The cycles.
    let (s, v) = rule(json!({"revision": revision, "of": "cycles", "arbiter": "李裁判"}));
    assert_eq!(s, 200, "{v}");
    let entry = &v["entry"];
    assert_eq!(entry["kind"], json!("cycle"), "{v}");
    assert!(
        !entry["ruling"]["cycles"].as_array().unwrap().is_empty(),
        "{v}"
    );
    assert_eq!(
        entry["ruling"]["cycles"][0]["verdict"],
        json!("draw"),
        "{}",
        entry["ruling"]
    );
    // The claim, with the claimant given.
    let (s, v) = rule(json!({"revision": revision, "claimant": "red", "arbiter": "李裁判"}));
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["entry"]["kind"], json!("claim"), "{v}");
    assert_eq!(v["entry"]["ruling"]["claimant"], json!("red"), "{v}");
    assert_eq!(v["entry"]["ruling"]["counted"], json!(4), "{v}");
    // A stale revision is refused before anything is ruled.
    let (s, v) = rule(json!({"revision": 1, "of": "cycles", "arbiter": "李裁判"}));
    assert_eq!(s, 409, "{v}");
    // A count with a claimant: another claimant is refused.
    let other = start_count(url, "5");
    let (_, c) = get(&format!("{url}/api/venue/counts/{other}"));
    let (s, v) = post(
        &format!("{url}/api/venue/counts/{other}/rule"),
        json!({"revision": c["count"]["revision"], "claimant": "red", "arbiter": "李裁判"}),
    );
    assert_eq!(s, 400, "{v}");
    // A closed count is not ruled.
    let (s, v) = post(
        &format!("{url}/api/venue/counts/{id}/close"),
        json!({"arbiter": "李裁判"}),
    );
    assert_eq!(s, 200, "{v}");
    let (_, c) = get(&format!("{url}/api/venue/counts/{id}"));
    let (s, v) =
        rule(json!({"revision": c["count"]["revision"], "claimant": "red", "arbiter": "李裁判"}));
    assert_eq!(s, 409, "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("closed"),
        "{v}"
    );
    let (_, book) = get(&format!("{url}/api/venue/casebook"));
    assert_eq!(book["entries"].as_array().unwrap().len(), 2, "{book}");
}

/// An entry records the time control its ruling was made under, as the ruling states it: the
/// time control of the event the request named (not the server's default), or without an event
/// the limit profile the claim counted to.
#[test]
fn an_entry_records_the_time_control_of_its_ruling() {
    let dir = Scratch::new("venue-srv-ruled-tc");
    let db = dir.join("event.sqlite");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let national = root.join("events/2020-national-individual.json");
    let server = start(&db, &["--event", national.to_str().unwrap()]);
    let url = &server.url;
    let rule = |query: &str| -> Value {
        let (s, v, _) = call(
            "POST",
            &format!("{url}/api/venue/rule?round=1&table=1&arbiter=A&moves=h2e2%20h9g7&{query}"),
            Some(""),
            None,
        );
        assert_eq!(s, 200, "{query}: {v}");
        v["entry"].clone()
    };
    let e = rule("kind=claim&claimant=red&event=2024-tianshui-amateur");
    assert_eq!(e["event"], json!("2024年天水象棋业余赛"), "{e}");
    assert_eq!(e["time_control"], e["ruling"]["time_control"], "{e}");
    assert_eq!(e["time_control"], json!("group"), "{e}");
    let e = rule("kind=claim&claimant=red&event=none&limit=40");
    assert_eq!(e["event"], Value::Null, "{e}");
    assert_eq!(e["time_control"], e["ruling"]["profile"], "{e}");
    let e = rule("kind=cycle&time_control=rapid");
    assert_eq!(e["time_control"], json!("rapid"), "{e}");
}
