//! The API of `xqa serve` against the CLI: for every record of `pgn-samples/`, each endpoint
//! answers exactly what `xqa ... --json` prints for the same input; oversized bodies get 413
//! naming the limit; and a bounded load test runs 200 concurrent analyses of real records,
//! every answer equal to the CLI's, with the server's memory staying flat.

use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::{Duration, Instant};

mod common;

struct Server {
    child: Child,
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(extra: &[&str]) -> Server {
    let (child, url) = common::serve(extra, "http://127.0.0.1:");
    Server { child, url }
}

fn cli(args: &[&str]) -> (i32, String) {
    let (code, out, _) = common::xqa(args);
    (code, out)
}

fn samples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("pgn-samples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap() != "README.md")
        .collect();
    files.sort();
    files
}

/// (status, body) of a request.
fn post(url: &str, body: &[u8]) -> (u16, String) {
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(120))
        .build();
    match agent.post(url).send_bytes(body) {
        Ok(r) => (r.status(), r.into_string().unwrap()),
        Err(ureq::Error::Status(code, r)) => (code, r.into_string().unwrap()),
        Err(e) => panic!("{url}: {e}"),
    }
}

fn get(url: &str) -> (u16, String) {
    match ureq::get(url).call() {
        Ok(r) => (r.status(), r.into_string().unwrap()),
        Err(ureq::Error::Status(code, r)) => (code, r.into_string().unwrap()),
        Err(e) => panic!("{url}: {e}"),
    }
}

/// Whether the CLI printed a report (with a game header), not an error document.
fn is_report(out: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(out).is_ok_and(|v| v.get("header").is_some())
}

fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn every_endpoint_answers_the_cli_json_on_every_sample() {
    let server = start(&[]);
    let mut compared = 0;
    for path in samples() {
        let p = path.to_str().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let name = enc(p);

        let (_, want) = cli(&["validate", "--json", p]);
        let (status, got) = post(&format!("{}/api/validate?name={name}", server.url), &bytes);
        assert_eq!((status, &got), (200, &want), "validate {p}");

        for rules in ["cxa", "axf"] {
            let (code, want) = cli(&["adjudicate", p, "--json", "--rules", rules]);
            let (status, got) = post(
                &format!(
                    "{}/api/adjudicate?name={name}&game=1&rules={rules}",
                    server.url
                ),
                &bytes,
            );
            // A report (of a good record, or of the legal part of a broken one, exit 1 on the
            // CLI) is answered in full; an error document (no report) is refused.
            if code == 0 || is_report(&want) {
                assert_eq!((status, &got), (200, &want), "adjudicate {p} {rules}");
                compared += 1;
            } else {
                assert_eq!(status, 422, "adjudicate {p}: an invalid record is refused");
                let e: serde_json::Value = serde_json::from_str(&got).unwrap();
                assert_eq!(e["code"], code, "{got}");
                assert_eq!(e["schema"], 1, "{got}");
            }
        }
        for claimant in ["red", "black"] {
            let (code, want) = cli(&["claim", p, "--json", "--claimant", claimant, "--at", "20"]);
            let (status, got) = post(
                &format!(
                    "{}/api/claim?name={name}&claimant={claimant}&at=20&profile=slow",
                    server.url
                ),
                &bytes,
            );
            if code == 0 || is_report(&want) {
                assert_eq!((status, &got), (200, &want), "claim {p} {claimant}");
                compared += 1;
            } else {
                assert_ne!(status, 200, "claim {p} {claimant}");
            }
        }
    }
    assert!(compared >= 60, "most answers compared ({compared})");

    // FEN and moves instead of a record, and the moves endpoint.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let (_, want) = cli(&["adjudicate", "--fen", fen, "--moves", "h2e2 h9g7", "--json"]);
    let (_, got) = post(
        &format!(
            "{}/api/adjudicate?fen={}&moves={}",
            server.url,
            enc(fen),
            enc("h2e2 h9g7")
        ),
        b"",
    );
    assert_eq!(got, want);
    for notation in ["iccs", "chinese", "wxf"] {
        let (_, want) = cli(&["moves", "--fen", fen, "--notation", notation, "--json"]);
        let (status, got) = get(&format!(
            "{}/api/moves?fen={}&notation={notation}",
            server.url,
            enc(fen)
        ));
        assert_eq!((status, got), (200, want), "moves {notation}");
    }

    // Errors: the CLI's message, as JSON, with a 4xx status.
    let (status, got) = get(&format!("{}/api/moves?fen=zz", server.url));
    assert_eq!(status, 422);
    assert!(got.contains("invalid FEN 'zz'"), "{got}");
    let (status, got) = post(&format!("{}/api/adjudicate?rules=zz", server.url), b"");
    assert_eq!(status, 400);
    assert!(got.contains("unknown rules 'zz'"), "{got}");
    let (status, got) = post(&format!("{}/api/claim", server.url), b"");
    assert_eq!(status, 400);
    assert!(got.contains("claimant"), "{got}");
    // The ruling sheet: one HTML page with an inline board and the verdict.
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("pgn-samples/iccs-no-format-tag.pgn");
    let (status, html) = post(
        &format!("{}/api/sheet?kind=adjudicate&overlay=1", server.url),
        &std::fs::read(&sample).unwrap(),
    );
    assert_eq!(status, 200);
    assert!(
        html.contains("<svg") && html.contains("Red must vary"),
        "{html}"
    );
    // The page and its assets are served from the binary.
    let (status, page) = get(&format!("{}/", server.url));
    assert_eq!(status, 200);
    assert!(page.contains("/app.js") && !page.contains("http://") && !page.contains("https://"));
    assert_eq!(get(&format!("{}/app.js", server.url)).0, 200);
    assert_eq!(get(&format!("{}/nowhere", server.url)).0, 404);
}

#[test]
fn oversized_bodies_get_413_naming_the_limit() {
    let server = start(&["--max-body-mb", "1"]);
    let big = vec![b' '; 1024 * 1024 + 10];
    let (status, got) = post(&format!("{}/api/validate", server.url), &big);
    assert_eq!(status, 413);
    assert!(got.contains("1 MB (1048576 bytes)"), "{got}");
    // Just under the limit is read (and found to be no record).
    let (status, _) = post(&format!("{}/api/validate", server.url), &big[..1000]);
    assert_eq!(status, 200);
}

fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

#[test]
fn two_hundred_concurrent_analyses_equal_the_cli_and_memory_stays_flat() {
    // (A queue for all of them: beyond it, a request would get 503, tests/hostile_clients.rs.)
    let server = start(&["--max-queue", "400"]);
    // The real records that rule without error, with the CLI's answers.
    let mut cases = Vec::new();
    for path in samples() {
        let p = path.to_str().unwrap().to_string();
        let (code, want) = cli(&["adjudicate", &p, "--json"]);
        if code == 0 {
            cases.push((p, std::fs::read(&path).unwrap(), want));
        }
    }
    assert!(cases.len() >= 10);
    let cases = std::sync::Arc::new(cases);
    let round = |n: usize| {
        let threads: Vec<_> = (0..n)
            .map(|i| {
                let cases = cases.clone();
                let url = server.url.clone();
                std::thread::spawn(move || {
                    let (p, bytes, want) = &cases[i % cases.len()];
                    let (status, got) =
                        post(&format!("{url}/api/adjudicate?name={}", enc(p)), bytes);
                    assert_eq!(status, 200, "{p}");
                    assert!(got == *want, "{p}: the answer differs from the CLI's");
                })
            })
            .collect();
        for t in threads {
            t.join().expect("request thread");
        }
    };
    let start = Instant::now();
    round(200);
    let after_first = rss_kb(server.child.id());
    round(200);
    let after_second = rss_kb(server.child.id());
    assert!(
        start.elapsed() < Duration::from_secs(300),
        "bounded in time: {:?}",
        start.elapsed()
    );
    eprintln!(
        "400 analyses in {:?}; server RSS {after_first} kB after 200, {after_second} kB after 400",
        start.elapsed()
    );
    if after_first > 0 {
        assert!(
            after_second < after_first * 3 / 2 + 64 * 1024,
            "memory flat: {after_first} kB, then {after_second} kB"
        );
        assert!(after_second < 1024 * 1024, "under 1 GB: {after_second} kB");
    }
}

/// The events: `xqa serve --event FILE` makes an event the default, `event=NAME` picks a shipped
/// one, `event=none` turns it off; each answer equals the CLI's with the same `--event`.
#[test]
fn events_apply_as_on_the_cli() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let national = root.join("events/2020-national-individual.json");
    let amateur = root.join("events/2024-tianshui-amateur.json");
    let record = root.join("pgn-samples/claim_amateur40_refused.pgn");
    let (p, n, a) = (
        record.to_str().unwrap(),
        national.to_str().unwrap(),
        amateur.to_str().unwrap(),
    );
    let bytes = std::fs::read(&record).unwrap();
    let name = enc(p);
    let server = start(&["--event", n]);
    let with = |event: &str| {
        let (code, want) = cli(&["claim", p, "--json", "--claimant", "red", "--event", event]);
        assert_eq!(code, 0, "{want}");
        want
    };
    // The server's default event.
    let (status, got) = post(
        &format!("{}/api/claim?name={name}&claimant=red", server.url),
        &bytes,
    );
    assert_eq!((status, got), (200, with(n)));
    // A shipped event by name.
    let (status, got) = post(
        &format!(
            "{}/api/claim?name={name}&claimant=red&event=2024-tianshui-amateur",
            server.url
        ),
        &bytes,
    );
    assert_eq!((status, got), (200, with(a)));
    // No event.
    let (code, want) = cli(&["claim", p, "--json", "--claimant", "red"]);
    assert_eq!(code, 0);
    let (status, got) = post(
        &format!(
            "{}/api/claim?name={name}&claimant=red&event=none",
            server.url
        ),
        &bytes,
    );
    assert_eq!((status, got), (200, want));
    // Adjudicate under the server's event, with a time control.
    let (code, want) = cli(&[
        "adjudicate",
        p,
        "--json",
        "--event",
        n,
        "--time-control",
        "rapid",
    ]);
    assert_eq!(code, 0);
    let (status, got) = post(
        &format!(
            "{}/api/adjudicate?name={name}&time_control=rapid",
            server.url
        ),
        &bytes,
    );
    assert_eq!((status, got), (200, want));
    // An unknown event is a usage error naming the shipped ones.
    let (status, got) = post(
        &format!(
            "{}/api/claim?name={name}&claimant=red&event=nope",
            server.url
        ),
        &bytes,
    );
    assert_eq!(status, 400);
    assert!(got.contains("2020-national-individual"), "{got}");
}

/// The event and its time control through the API, as on the CLI: a play-off claim (和棋黑胜),
/// the page's limit menu under the server's event (refused by name, never dropped), a limit
/// profile that overrides the event (and says so), a time control without an event, an event
/// file sent by the page, and the events listed for the pickers.
#[test]
fn the_event_and_its_time_control_rule_every_request() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let national = root.join("events/2020-national-individual.json");
    let n = national.to_str().unwrap();
    let record = root.join("pgn-samples/claim_mate_on_limit.pgn");
    let p = record.to_str().unwrap();
    let bytes = std::fs::read(&record).unwrap();
    let name = enc(p);
    let server = start(&["--event", n]);
    // A play-off claim after the game: 0-1 as on the CLI.
    let (code, want) = cli(&[
        "claim",
        p,
        "--json",
        "--claimant",
        "black",
        "--event",
        n,
        "--time-control",
        "armageddon",
    ]);
    assert_eq!(code, 0, "{want}");
    let (status, got) = post(
        &format!(
            "{}/api/claim?name={name}&claimant=black&time_control=armageddon",
            server.url
        ),
        &bytes,
    );
    assert_eq!((status, &got), (200, &want));
    let v: serde_json::Value = serde_json::from_str(&got).unwrap();
    assert_eq!(v["outcome"]["result"], "0-1");
    assert_eq!(v["valid_from_ply"], 100);
    // The same by the shipped event's name, from a server without one.
    let plain = start(&[]);
    let (status, got) = post(
        &format!(
            "{}/api/claim?name={name}&claimant=black&event=2020-national-individual&time_control=armageddon",
            plain.url
        ),
        &bytes,
    );
    assert_eq!((status, &got), (200, &want));
    // The text report in both languages.
    let (status, text) = post(
        &format!(
            "{}/api/claim?name={name}&claimant=black&time_control=armageddon&format=text&lang=both",
            server.url
        ),
        &bytes,
    );
    assert_eq!(status, 200, "{text}");
    assert!(
        text.contains("和棋黑胜") && text.contains("a draw counts as a Black win"),
        "{text}"
    );
    // profile= and rules= under the server's event: a usage error naming both.
    for q in ["profile=rapid", "rules=axf"] {
        let (status, got) = post(
            &format!("{}/api/claim?name={name}&claimant=red&{q}", server.url),
            &bytes,
        );
        assert_eq!(status, 400, "{q}: {got}");
        let what = q.split('=').next().unwrap();
        assert!(
            got.contains(&format!("{what}=")) && got.contains("--event"),
            "{got}"
        );
    }
    let (status, got) = post(
        &format!("{}/api/adjudicate?name={name}&rules=axf", server.url),
        &bytes,
    );
    assert_eq!(status, 400, "{got}");
    // With event=none the page's own menus apply.
    let (code, want) = cli(&[
        "claim",
        p,
        "--json",
        "--claimant",
        "red",
        "--profile",
        "rapid",
    ]);
    assert_eq!(code, 0);
    let (status, got) = post(
        &format!(
            "{}/api/claim?name={name}&claimant=red&event=none&profile=rapid",
            server.url
        ),
        &bytes,
    );
    assert_eq!((status, got), (200, want));
    // limit_profile= overrides the event's time control, as --limit-profile does.
    let (code, want) = cli(&[
        "adjudicate",
        p,
        "--json",
        "--event",
        n,
        "--time-control",
        "slow",
        "--limit-profile",
        "rapid",
    ]);
    assert_eq!(code, 0);
    let (status, got) = post(
        &format!(
            "{}/api/adjudicate?name={name}&time_control=slow&limit_profile=rapid",
            server.url
        ),
        &bytes,
    );
    assert_eq!((status, &got), (200, &want));
    assert!(got.contains("\"overrides\""), "{got}");
    // A time control without an event is refused, not dropped.
    let (status, got) = post(
        &format!(
            "{}/api/claim?name={name}&claimant=red&event=none&time_control=rapid",
            server.url
        ),
        &bytes,
    );
    assert_eq!(status, 400, "{got}");
    assert!(
        got.contains("time control 'rapid' given without an event"),
        "{got}"
    );
    // An event file the page loaded, sent as event_json=.
    let text = std::fs::read_to_string(&national).unwrap();
    let (status, got) = post(
        &format!(
            "{}/api/claim?name={name}&claimant=black&event_json={}&time_control=armageddon",
            plain.url,
            enc(&text)
        ),
        &bytes,
    );
    assert_eq!(status, 200, "{got}");
    let v: serde_json::Value = serde_json::from_str(&got).unwrap();
    assert_eq!(v["outcome"]["result"], "0-1");
    let (status, got) = get(&format!(
        "{}/api/events?event_json={}",
        plain.url,
        enc("{\"name\": 1}")
    ));
    assert_eq!(status, 422, "{got}");
    // The pickers' list: the server's own event first, then the shipped ones.
    let (status, got) = get(&format!("{}/api/events", server.url));
    assert_eq!(status, 200);
    let v: serde_json::Value = serde_json::from_str(&got).unwrap();
    assert_eq!(v["default"], "");
    let ids: Vec<&str> = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["", "2020-national-individual", "2024-tianshui-amateur"]
    );
    let tcs: Vec<&str> = v["events"][2]["time_controls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tcs, ["group", "knockout", "rapid", "armageddon"]);
    assert_eq!(v["events"][1]["time_controls"][3]["draw"], "black_wins");
    let (_, got) = get(&format!("{}/api/events", plain.url));
    assert!(got.contains("\"default\": \"none\""), "{got}");
}
