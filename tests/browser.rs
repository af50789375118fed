//! The web app in a real browser: headless Chromium driven over the DevTools protocol (a
//! WebSocket carrying JSON commands, spoken with `tungstenite`). The test loads a sample record
//! through the page's file input, steps to a repetition cycle with the buttons and the arrow
//! keys and checks the verdict text and the pieces on the board, switches the language, enters
//! moves by clicking in live mode and checks the natural-limit count, saves a screenshot
//! (docs/screenshot.png), and prints the ruling sheet to PDF and checks it holds the verdict
//! and a board.
//!
//! Chromium is Debian's `chromium` (`.ci/run` installs it, with `poppler-utils` for
//! `pdftotext`). When it is missing the test fails under CI (`CI` set) and is skipped with a
//! message elsewhere.

use base64::Engine as _;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use xiangqi_arbiter::Color;
use xiangqi_arbiter::service::{self, ClaimRequest, GameInput};

mod common;

struct Killed(Child);
impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn chromium() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    [
        "/usr/lib/chromium/chromium",
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
    ]
    .iter()
    .map(PathBuf::from)
    .find(|p| p.exists())
}

/// Starts `xqa serve --port 0 --db DB --event EVENT` and returns it with its address.
fn venue_server(db: &Path, event: &Path) -> (Killed, String) {
    let (child, url) = common::serve(
        &[
            "--db",
            db.to_str().unwrap(),
            "--event",
            event.to_str().unwrap(),
        ],
        "http://",
    );
    (Killed(child), url)
}

/// Chromium, or (when it is missing) a failure under CI (`CI` set) and elsewhere a message
/// that the test is skipped.
fn chromium_or_skip() -> Option<PathBuf> {
    let chrome = chromium();
    if chrome.is_none() {
        if std::env::var_os("CI").is_some() {
            panic!("chromium is missing: .ci/run installs it (apt-get install -y chromium)");
        }
        eprintln!("SKIPPED: no chromium (apt-get install -y chromium); CI fails here instead");
    }
    chrome
}

/// Chromium started on the profile `profile`, as a Chinese browser (its language zh-CN), and a
/// DevTools session on a new page.
fn chinese_browser(chrome: &Path, profile: &Path) -> (Killed, Cdp) {
    let (browser, ws) = launch(chrome, profile);
    let mut cdp = connect(&ws);
    let agent = cdp.call_in(None, "Browser.getVersion", json!({}))["userAgent"].clone();
    cdp.call(
        "Emulation.setUserAgentOverride",
        json!({"userAgent": agent, "acceptLanguage": "zh-CN,zh"}),
    );
    (browser, cdp)
}

/// Starts `xqa serve --port 0` and returns it with its address.
fn start_server() -> (Killed, String) {
    let (child, url) = common::serve(&[], "http://");
    (Killed(child), url)
}

/// A DevTools session on one page.
struct Cdp {
    ws: tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>,
    next: u64,
    session: String,
}

impl Cdp {
    fn call_in(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = s.into();
        }
        self.ws
            .send(tungstenite::Message::text(msg.to_string()))
            .expect("send");
        loop {
            let m = self.ws.read().expect("DevTools answers");
            let Ok(text) = m.to_text() else { continue };
            let v: Value = serde_json::from_str(text).expect("JSON");
            if v["id"] == id {
                if let Some(e) = v.get("error") {
                    panic!("{method}: {e}");
                }
                return v["result"].clone();
            }
        }
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        let s = self.session.clone();
        self.call_in(Some(&s), method, params)
    }

    /// Evaluates a JavaScript expression (awaiting a promise) and returns its value.
    fn eval(&mut self, expr: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "awaitPromise": true, "returnByValue": true}),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("{expr}: {e}");
        }
        r["result"]["value"].clone()
    }

    /// Waits until `expr` is true.
    fn wait_for(&mut self, expr: &str) {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(30) {
            if self.eval(expr) == json!(true) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("timed out waiting for {expr}");
    }

    /// Waits for the page to settle after a click: no request in flight for a while.
    fn settle(&mut self) {
        self.wait_for("window.__idle === true");
    }

    fn click(&mut self, selector: &str) {
        self.eval(&format!(
            "(() => {{ window.__idle = false; document.querySelector({selector:?}).click(); return true; }})()"
        ));
        self.settle();
    }

    fn key(&mut self, key: &str) {
        self.eval("window.__idle = false");
        for kind in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode":
                    if key == "ArrowLeft" { 37 } else { 39 }}),
            );
        }
        self.settle();
    }

    /// Clicks the board's point `sq` (ICCS, like "h2") with the mouse.
    fn click_square(&mut self, sq: &str) {
        let b = sq.as_bytes();
        let (file, rank) = ((b[0] - b'a') as f64, (b[1] - b'0') as f64);
        let at = self.eval(&format!(
            "(() => {{ const s = document.querySelector('#board svg'); const r = s.getBoundingClientRect();
               const k = r.width / s.viewBox.baseVal.width;
               return [r.left + (66 + {file} * 56) * k, r.top + (66 + (9 - {rank}) * 56) * k]; }})()"
        ));
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        self.eval("window.__idle = false");
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
        self.settle();
    }
}

/// Counts requests in flight so that the test can wait for the page to settle.
const IDLE_HOOK: &str = r#"
(() => {
  let busy = 0, timer = null;
  const orig = window.fetch;
  window.__idle = true;
  window.fetch = (...a) => {
    busy++; window.__idle = false; clearTimeout(timer);
    return orig(...a).finally(() => { busy--; if (!busy) timer = setTimeout(() => { if (!busy) window.__idle = true; }, 150); });
  };
  return true;
})()
"#;

fn launch(chrome: &Path, profile: &Path) -> (Killed, String) {
    let mut child = Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--window-size=1360,1000",
            "--remote-debugging-port=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("about:blank")
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let start = Instant::now();
    let ws = loop {
        line.clear();
        if err.read_line(&mut line).unwrap_or(0) == 0 || start.elapsed() > Duration::from_secs(60) {
            panic!("chromium gave no DevTools address");
        }
        if let Some(i) = line.find("ws://") {
            break line[i..].trim().to_string();
        }
    };
    std::thread::spawn(move || {
        let mut sink = Vec::new();
        let _ = err.read_to_end(&mut sink);
    });
    (Killed(child), ws)
}

fn connect(ws_url: &str) -> Cdp {
    let (ws, _) = tungstenite::connect(ws_url).expect("DevTools connects");
    let mut cdp = Cdp {
        ws,
        next: 0,
        session: String::new(),
    };
    let target = cdp.call_in(None, "Target.createTarget", json!({"url": "about:blank"}));
    let attached = cdp.call_in(
        None,
        "Target.attachToTarget",
        json!({"targetId": target["targetId"], "flatten": true}),
    );
    cdp.session = attached["sessionId"].as_str().unwrap().to_string();
    cdp.call("Page.enable", json!({}));
    cdp.call("Runtime.enable", json!({}));
    cdp.call(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 1360, "height": 1000, "deviceScaleFactor": 1, "mobile": false}),
    );
    cdp
}

fn open(cdp: &mut Cdp, url: &str) {
    cdp.call(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({"source": IDLE_HOOK}),
    );
    cdp.call("Page.navigate", json!({"url": url}));
    cdp.wait_for("document.readyState === 'complete' && !!document.querySelector('#board svg')");
    cdp.settle();
}

/// The squares and glyphs of the pieces drawn on the page's board.
fn board_pieces(cdp: &mut Cdp) -> Vec<(String, String)> {
    let v = cdp.eval(
        "[...document.querySelectorAll('#board g.piece')].map(g => [g.dataset.square, g.textContent])",
    );
    let mut out: Vec<(String, String)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap().into(), p[1].as_str().unwrap().into()))
        .collect();
    out.sort();
    out
}

/// The same, from the service's own drawing of `fen`.
fn expected_pieces(fen: &str) -> Vec<(String, String)> {
    let svg = service::board(fen, None, &[], None, &[], None).unwrap();
    let mut out = Vec::new();
    for part in svg.split("<g class=\"piece ").skip(1) {
        let sq = part.split("data-square=\"").nth(1).unwrap();
        let sq = &sq[..sq.find('"').unwrap()];
        let glyph = part.split("\">").last().unwrap();
        let glyph = &glyph[..glyph.find('<').unwrap()];
        out.push((sq.to_string(), glyph.to_string()));
    }
    out.sort();
    out
}

#[test]
fn the_workbench_in_a_real_browser() {
    let Some(chrome) = chromium_or_skip() else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sample = root.join("pgn-samples/iccs-no-format-tag.pgn");
    let (_server, url) = start_server();
    // Chromium's profile and the printed sheet, removed when the test ends, passing or not
    // (the guard is dropped after Chromium's, which is declared after it).
    let scratch = common::Scratch::new("browser");
    let profile = scratch.join("profile");
    let (_chrome, ws) = launch(&chrome, &profile);
    let mut cdp = connect(&ws);
    open(&mut cdp, &format!("{url}/"));

    // Load the sample through the page's file input.
    let doc = cdp.call("DOM.getDocument", json!({}));
    let input = cdp.call(
        "DOM.querySelector",
        json!({"nodeId": doc["root"]["nodeId"], "selector": "#file"}),
    );
    cdp.eval("window.__idle = false");
    cdp.call(
        "DOM.setFileInputFiles",
        json!({"nodeId": input["nodeId"], "files": [sample.to_str().unwrap()]}),
    );
    cdp.settle();
    let bytes = std::fs::read(&sample).unwrap();
    let name = "iccs-no-format-tag.pgn";
    let review = service::review(&GameInput::record(bytes.clone(), name, 1)).unwrap();
    let rows = cdp.eval("document.querySelectorAll('#moves tr[data-ply]').length");
    assert_eq!(rows, json!(review.plies.len()), "every ply is listed");

    // Step to the last cycle: first to its start with the buttons, then onto it by the keys.
    let report = service::adjudicate(
        &GameInput::record(bytes.clone(), name, 1),
        &Default::default(),
    )
    .unwrap();
    let cycle = report
        .cycles
        .last()
        .expect("the sample has a cycle")
        .clone();
    cdp.click("#first");
    assert_eq!(
        cdp.eval("document.querySelector('#ply-label').textContent"),
        json!(format!("ply 0 / {}", review.plies.len()))
    );
    for _ in 0..cycle.start_ply {
        cdp.click("#next");
    }
    cdp.key("ArrowRight");
    cdp.key("ArrowRight");
    cdp.key("ArrowLeft");
    let ply = cycle.start_ply + 1;
    assert_eq!(
        cdp.eval("document.querySelector('#ply-label').textContent"),
        json!(format!("ply {ply} / {}", review.plies.len()))
    );
    let verdict = cdp.eval("document.querySelector('#cycles .cycle.current .verdict').textContent");
    let verdict_want = match cycle.verdict.name() {
        "red_must_vary" => ("Red must vary", "红方必须变着"),
        "black_must_vary" => ("Black must vary", "黑方必须变着"),
        _ => ("Draw", "不变作和"),
    };
    assert_eq!(verdict, json!(verdict_want.0));
    let reason = cdp.eval("document.querySelector('#cycles .cycle.current .reason').textContent");
    assert_eq!(reason, json!(cycle.reason_en));
    assert_eq!(
        board_pieces(&mut cdp),
        expected_pieces(&review.plies[ply - 1].fen),
        "the board shows the position after ply {ply}"
    );
    // The move's targets are ringed.
    let targets = cdp.eval("document.querySelectorAll('#board .target').length");
    assert_eq!(targets, json!(report.moves[ply - 1].targets.len()));
    cdp.click("#lang");
    let verdict = cdp.eval("document.querySelector('#cycles .cycle.current .verdict').textContent");
    assert_eq!(verdict, json!(verdict_want.1));
    let reason = cdp.eval("document.querySelector('#cycles .cycle.current .reason').textContent");
    assert_eq!(reason, json!(cycle.reason_zh));
    cdp.click("#lang");
    // Near the cycle's end (a chase, its target ringed) for the screenshot.
    cdp.click(".cycle.current");
    cdp.key("ArrowLeft");
    let shot = cdp.call("Page.captureScreenshot", json!({"format": "png"}));
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot["data"].as_str().unwrap())
        .unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000);
    std::fs::write(root.join("docs/screenshot.png"), &png).unwrap();

    // A multi-game file: the picker lists every game by its number, and picking game 2 reviews
    // game 2 (its plies, and the verdict of its first cycle once stepped onto it).
    let options = cdp.eval("[...document.querySelectorAll('#game option')].map(o => o.value)");
    let games = service::validate(&bytes, name);
    let numbers: Vec<String> = (1..=games.len()).map(|n| n.to_string()).collect();
    assert!(numbers.len() >= 2, "the sample holds two games");
    assert_eq!(
        options,
        json!(numbers),
        "the picker's values are the game numbers"
    );
    cdp.eval(
        "(() => { window.__idle = false; const s = document.querySelector('#game'); s.value = '2';
           s.dispatchEvent(new Event('change')); return true; })()",
    );
    cdp.settle();
    let review2 = service::review(&GameInput::record(bytes.clone(), name, 2)).unwrap();
    let report2 = service::adjudicate(
        &GameInput::record(bytes.clone(), name, 2),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(
        cdp.eval("document.querySelector('#game').value"),
        json!("2")
    );
    assert_eq!(
        cdp.eval("document.querySelectorAll('#moves tr[data-ply]').length"),
        json!(review2.plies.len()),
        "game 2 is reviewed"
    );
    assert_eq!(
        cdp.eval("document.querySelector('#error').hidden"),
        json!(true),
        "no error"
    );
    // Game 2's cycles (if any) as the CLI's, its board at a ply as the service draws it.
    assert_eq!(
        cdp.eval("document.querySelectorAll('#cycles .cycle').length"),
        json!(report2.cycles.len())
    );
    let at2 = match report2.cycles.first() {
        Some(c) => {
            cdp.click(".cycle[data-cycle='0']");
            assert_eq!(
                cdp.eval("document.querySelector('#cycles .cycle.current .reason').textContent"),
                json!(c.reason_en)
            );
            c.end_ply
        }
        None => {
            assert_eq!(
                cdp.eval("document.querySelector('#cycles h3 .verdict').textContent"),
                json!("No repetition")
            );
            cdp.click("#first");
            for _ in 0..30 {
                cdp.click("#next");
            }
            30
        }
    };
    assert_eq!(
        cdp.eval("document.querySelector('#ply-label').textContent"),
        json!(format!("ply {at2} / {}", review2.plies.len()))
    );
    assert_eq!(
        board_pieces(&mut cdp),
        expected_pieces(&review2.plies[at2 - 1].fen),
        "game 2's board after ply {at2}"
    );
    // The limit panel at this ply: each side's opponent row as the CLI's claim report words it
    // ("black: 16 moves of 60 required").
    for (side, color) in [("red", Color::Red), ("black", Color::Black)] {
        let mut request = ClaimRequest::new(color);
        request.at = Some(at2 as u32);
        let text = service::claim(&GameInput::record(bytes.clone(), name, 2), &request)
            .unwrap()
            .to_text(xiangqi_arbiter::rules::limit::Lang::En);
        let other = format!("{}: ", color.other());
        let want = text
            .lines()
            .find_map(|l| l.strip_prefix(other.as_str()))
            .unwrap_or_else(|| panic!("an opponent line in {text}"));
        let got = cdp.eval(&format!(
            "document.querySelector('#limit [data-side={side}] .opponent').textContent"
        ));
        assert_eq!(got, json!(want), "{side}'s opponent row");
    }

    // Live count: enter moves by clicking, only legal ones are taken.
    cdp.click("#tab-live");
    cdp.click("#live-start");
    let moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"];
    for m in moves {
        cdp.click_square(&m[..2]);
        cdp.click_square(&m[2..]);
    }
    // An illegal try (a rook through its own cannon) is refused.
    cdp.click_square("a0");
    cdp.click_square("a5");
    let live = cdp.eval("document.querySelector('#ply-label').textContent");
    assert_eq!(live, json!(format!("ply {0} / {0}", moves.len())));
    let line = moves.join(" ");
    for (side, color) in [("red", Color::Red), ("black", Color::Black)] {
        let want = service::claim(
            &GameInput::fen(None, Some(&line)),
            &ClaimRequest::new(color),
        )
        .unwrap()
        .report;
        let got = cdp.eval(&format!(
            "document.querySelector('#limit [data-side={side}] .counted').textContent"
        ));
        assert_eq!(
            got,
            json!(format!("{} / {}", want.counted, want.required)),
            "{side}"
        );
    }
    // Undo takes the last move back; counting from a claim starts the count there.
    cdp.click("#live-undo");
    assert_eq!(
        cdp.eval("document.querySelector('#ply-label').textContent"),
        json!(format!("ply {0} / {0}", moves.len() - 1))
    );
    cdp.click("#live-claim");
    cdp.click_square("b9");
    cdp.click_square("c7");
    let mut request = ClaimRequest::new(Color::Red);
    request.from_claim = Some(moves.len() as u32 - 1);
    let want = service::claim(&GameInput::fen(None, Some(&line)), &request)
        .unwrap()
        .report;
    let got = cdp.eval("document.querySelector('#limit [data-side=red] .counted').textContent");
    assert_eq!(got, json!(format!("{} / {}", want.counted, want.required)));

    // The ruling sheet from the live count: the button is there, and its sheet is the claim's
    // (counted from the claim).
    assert_eq!(
        cdp.eval("document.querySelector('#print').getClientRects().length > 0"),
        json!(true),
        "the ruling sheet button is shown in the live count"
    );
    cdp.eval("window.open = (u) => { window.__opened = u; return null; }; true");
    cdp.click("#print");
    let live_sheet = cdp.eval("fetch(window.__opened).then(r => r.text())");
    // (The claimant is the side whose turn it is, red after six plies.)
    request.at = Some(moves.len() as u32);
    let start_fen = xiangqi_arbiter::Position::start().fen();
    let want_sheet =
        service::claim_sheet(&GameInput::fen(Some(&start_fen), Some(&line)), &request).unwrap();
    assert_eq!(
        live_sheet,
        json!(want_sheet),
        "the live count's ruling sheet"
    );

    // A reload keeps the live count (moves, the claim point, the counting), restored from the
    // browser's storage; "new count" starts again.
    let before = cdp.eval("document.querySelector('#limit').textContent");
    cdp.call("Page.reload", json!({}));
    cdp.wait_for(
        "document.readyState === 'complete' && !!document.querySelector('#board svg') \
         && document.querySelector('#tab-live').classList.contains('active')",
    );
    cdp.settle();
    assert_eq!(
        cdp.eval("document.querySelector('#ply-label').textContent"),
        json!(format!("ply {0} / {0}", moves.len())),
        "the count survives a reload"
    );
    assert_eq!(
        cdp.eval("document.querySelector('#live-counting').value"),
        json!("claim")
    );
    assert_eq!(
        cdp.eval("document.querySelector('#limit').textContent"),
        before,
        "the same count from the same claim"
    );
    cdp.click("#live-start");
    assert_eq!(
        cdp.eval("document.querySelector('#ply-label').textContent"),
        json!("ply 0 / 0")
    );

    // The ruling sheet, printed to PDF.
    let sheet =
        service::adjudicate_sheet(&GameInput::record(bytes, name, 1), &Default::default()).unwrap();
    cdp.eval(&format!(
        "(async () => {{ const r = await fetch('/api/sheet?kind=adjudicate&name={name}', {{method: 'POST', body: {body:?}}});
           const h = await r.text(); document.open(); document.write(h); document.close(); return h.length; }})()",
        body = String::from_utf8(std::fs::read(&sample).unwrap()).unwrap()
    ));
    cdp.wait_for("!!document.querySelector('.verdict') && !!document.querySelector('svg')");
    let html = cdp.eval("document.documentElement.outerHTML");
    assert!(html.as_str().unwrap().contains(want_sheet_verdict(&sheet)));
    let pdf = cdp.call(
        "Page.printToPDF",
        json!({"paperWidth": 8.27, "paperHeight": 11.69, "printBackground": true}),
    );
    let pdf = base64::engine::general_purpose::STANDARD
        .decode(pdf["data"].as_str().unwrap())
        .unwrap();
    assert!(pdf.starts_with(b"%PDF"));
    let pdf_path = scratch.join("sheet.pdf");
    std::fs::write(&pdf_path, &pdf).unwrap();
    let text = Command::new("pdftotext")
        .arg(&pdf_path)
        .arg("-")
        .output()
        .expect("pdftotext runs (apt-get install -y poppler-utils)");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains(verdict_want.0) || text.contains(want_sheet_verdict(&sheet)),
        "verdict in the PDF: {text}"
    );
    assert!(
        text.contains(&cycle.reason_en[..cycle.reason_en.len().min(30)]),
        "rule in the PDF"
    );
    // A board: the river and the generals' glyphs are drawn in it.
    assert!(
        text.contains('帥') && text.contains('將'),
        "board in the PDF: {text}"
    );
    let pages = String::from_utf8_lossy(&pdf)
        .matches("/Type /Page\n")
        .count()
        + String::from_utf8_lossy(&pdf)
            .matches("/Type /Page/")
            .count()
        + String::from_utf8_lossy(&pdf)
            .matches("/Type /Page ")
            .count();
    assert!(pages <= 2, "the sheet fits on A4 ({pages} pages)");
}

/// The English verdict the sheet states.
fn want_sheet_verdict(sheet: &str) -> &str {
    let v = sheet.split("<div class=\"verdict\">").last().unwrap();
    let v = &v[..v.find("</div>").unwrap()];
    v.split(" · ").nth(1).unwrap()
}

/// Picks `value` in the select `#id` as a user would (its change event).
fn pick(cdp: &mut Cdp, id: &str, value: &str) {
    cdp.eval(&format!(
        "(() => {{ window.__idle = false; const s = document.querySelector('#{id}'); s.value = {value:?};
           s.dispatchEvent(new Event('change')); return true; }})()"
    ));
    cdp.settle();
}

/// The page with an event, in a Chinese browser: it opens in Chinese (every static text, the
/// move list by 回合 and side, one word for a ply); an event and a time control picked in the
/// page rule the claims, the review and the sheet: a play-off claim after the game (Red mates
/// at ply 120, Black's count under 50 moves was complete at ply 100) is 0-1, 和棋黑胜.
#[test]
fn the_workbench_with_an_event_in_chinese() {
    let Some(chrome) = chromium_or_skip() else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sample = root.join("pgn-samples/claim_mate_on_limit.pgn");
    let (_server, url) = start_server();
    let scratch = common::Scratch::new("browser-event");
    // A Chinese browser: navigator.language is zh-CN.
    let (_chrome, mut cdp) = chinese_browser(&chrome, &scratch.join("profile"));
    open(&mut cdp, &format!("{url}/"));
    assert_eq!(cdp.eval("navigator.language"), json!("zh-CN"));
    assert_eq!(cdp.eval("document.documentElement.lang"), json!("zh"));
    assert_eq!(
        cdp.eval("document.querySelector('#tab-review').textContent"),
        json!("复盘")
    );
    assert_eq!(
        cdp.eval("document.querySelector('#ply-label').textContent"),
        json!("第0步 / 共0步")
    );
    // No static text is left in English: every labelled element has its Chinese text.
    let english = cdp.eval(
        "[...document.querySelectorAll('[data-t]')].filter(e => e.textContent !== e.dataset.t.split('|')[0]).length",
    );
    assert_eq!(english, json!(0));

    // Pick the 2020 championship's play-off.
    let options = cdp.eval("[...document.querySelectorAll('#event option')].map(o => o.value)");
    assert_eq!(
        options,
        json!(["none", "2020-national-individual", "2024-tianshui-amateur"])
    );
    pick(&mut cdp, "event", "2020-national-individual");
    let tcs = cdp.eval("[...document.querySelectorAll('#time-control option')].map(o => o.value)");
    assert_eq!(tcs, json!(["slow", "rapid", "super_rapid", "armageddon"]));
    assert_eq!(
        cdp.eval("document.querySelector('#time-control').value"),
        json!("slow"),
        "the event's default time control"
    );
    pick(&mut cdp, "time-control", "armageddon");
    let header = cdp.eval("document.querySelector('#regulations').textContent");
    let header = header.as_str().unwrap();
    assert!(
        header.contains("2020年全国象棋个人锦标赛")
            && header.contains("附加赛")
            && header.contains("和棋黑胜"),
        "{header}"
    );
    assert_eq!(
        cdp.eval("document.querySelector('#rules').disabled"),
        json!(true)
    );

    // Load the game; the review ends on Red's mate.
    let doc = cdp.call("DOM.getDocument", json!({}));
    let input = cdp.call(
        "DOM.querySelector",
        json!({"nodeId": doc["root"]["nodeId"], "selector": "#file"}),
    );
    cdp.eval("window.__idle = false");
    cdp.call(
        "DOM.setFileInputFiles",
        json!({"nodeId": input["nodeId"], "files": [sample.to_str().unwrap()]}),
    );
    cdp.settle();
    assert_eq!(
        cdp.eval("document.querySelector('#ply-label').textContent"),
        json!("第120步 / 共120步")
    );
    // The moves by 回合 and side (the record opens with Black's move: 1… 黑).
    let first = cdp.eval("document.querySelector('#moves tr[data-ply] td').textContent");
    assert_eq!(first, json!("1… 黑"));
    let last = cdp.eval("document.querySelector('#moves tr[data-ply=\"120\"] td').textContent");
    assert_eq!(last, json!("61. 红"));
    // Black's claim after the game: ruled as at ply 100, a draw that is a Black win.
    let bytes = std::fs::read(&sample).unwrap();
    let mut request = ClaimRequest::new(Color::Black);
    request.event = Some(service::SettingsText {
        name: "events/2020-national-individual.json".into(),
        text: std::fs::read_to_string(root.join("events/2020-national-individual.json")).unwrap(),
    });
    request.time_control = Some("armageddon".into());
    request.at = Some(120);
    let want = service::claim(
        &GameInput::record(bytes.clone(), "claim_mate_on_limit.pgn", 1),
        &request,
    )
    .unwrap();
    let got = cdp.eval("document.querySelector('#limit [data-side=black] .outcome').textContent");
    assert_eq!(
        got,
        json!(format!(
            "{} · {}",
            want.outcome.result.as_deref().unwrap_or("未定"),
            want.outcome.reason_zh
        ))
    );
    assert_eq!(
        cdp.eval("document.querySelector('#limit [data-side=black] .valid-from').textContent"),
        json!("第100步")
    );
    // The review's outcome: Red's mate on the board.
    let outcome = cdp.eval("document.querySelector('#outcome .result').textContent");
    assert_eq!(outcome, json!("1-0"));
    // The sheet follows the choice.
    cdp.eval("window.open = (u) => { window.__opened = u; return null; }; true");
    cdp.click("#print");
    let sheet = cdp.eval("fetch(window.__opened).then(r => r.text())");
    let sheet = sheet.as_str().unwrap();
    assert!(
        sheet.contains("附加赛") && sheet.contains("和棋黑胜"),
        "{sheet}"
    );
    // English on request; the choice stays.
    cdp.click("#lang");
    assert_eq!(
        cdp.eval("document.querySelector('#tab-review').textContent"),
        json!("Review")
    );
    let header = cdp.eval("document.querySelector('#regulations').textContent");
    assert!(
        header
            .as_str()
            .unwrap()
            .contains("a draw counts as a Black win"),
        "{header}"
    );
}

/// The venue page (`xqa serve --db`) in Chromium, as an arbiter's phone uses it: Chinese first,
/// a name given once, a count started for a table, moves entered, a move refused because another
/// device moved the count on (409, then the stored count shown), the claim ruled and recorded in
/// the case book with its sheet.
#[test]
fn the_venue_page_in_a_real_browser() {
    let Some(chrome) = chromium_or_skip() else {
        return;
    };
    let scratch = common::Scratch::new("browser-venue");
    let db = scratch.join("event.sqlite");
    let (child, url) = common::serve(&["--db", db.to_str().unwrap()], "http://");
    let _server = Killed(child);
    let (_chrome, mut cdp) = chinese_browser(&chrome, &scratch.join("profile"));
    cdp.call(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({"source": IDLE_HOOK}),
    );
    cdp.call("Page.navigate", json!({"url": format!("{url}/venue")}));
    // On loopback no code is asked: only the arbiter's name, once.
    cdp.wait_for("document.readyState === 'complete' && !document.querySelector('#login').hidden");
    assert_eq!(cdp.eval("document.documentElement.lang"), json!("zh-CN"));
    assert_eq!(
        cdp.eval("document.querySelector('#login-code-label').hidden"),
        json!(true)
    );
    assert_eq!(
        cdp.eval("document.querySelector('[data-t=arbiter]').textContent"),
        json!("裁判姓名")
    );
    let submit = |cdp: &mut Cdp, form: &str| {
        cdp.eval(&format!(
            "(() => {{ window.__idle = false; document.querySelector({form:?}).requestSubmit(); return true; }})()"
        ));
        cdp.settle();
    };
    cdp.eval("document.querySelector('#login-name').value = '李裁判'; true");
    submit(&mut cdp, "#login-form");
    cdp.wait_for("!document.querySelector('#venue-main').hidden");
    // A count for round 3, table 12, Black claiming.
    cdp.eval(
        "(() => { const v = (id, x) => document.querySelector(id).value = x; v('#nc-round', '3'); \
         v('#nc-table', '12'); v('#nc-red', '王天一'); v('#nc-black', '郑惟桐'); \
         v('#nc-claimant', 'black'); return true; })()",
    );
    submit(&mut cdp, "#new-count");
    cdp.wait_for("!document.querySelector('#count-panel').hidden");
    for mv in ["h2e2", "h9g7"] {
        cdp.eval(&format!(
            "document.querySelector('#move').value = {mv:?}; true"
        ));
        submit(&mut cdp, "#add-move");
        cdp.wait_for(&format!(
            "document.querySelector('#count-moves').textContent.includes({mv:?})"
        ));
    }
    assert_eq!(
        cdp.eval("document.querySelector('#next-ply').textContent"),
        json!("第 3 步")
    );
    // Another device enters ply 3 first: this page's ply 3 is refused, and it shows the count
    // as stored.
    let id = 1;
    let other = ureq::post(&format!("{url}/api/venue/counts/{id}/moves")).send_string(
        &json!({"ply": 3, "revision": 2, "move": "h0g2", "arbiter": "张裁判"}).to_string(),
    );
    assert_eq!(other.map(|r| r.status()).unwrap_or(0), 200);
    cdp.eval("document.querySelector('#move').value = 'b0c2'; true");
    submit(&mut cdp, "#add-move");
    cdp.wait_for("document.querySelector('#error').textContent.includes('moved on')");
    cdp.wait_for("document.querySelector('#count-moves').textContent.includes('h0g2')");
    assert_eq!(
        cdp.eval("document.querySelector('#count-moves').textContent.includes('b0c2')"),
        json!(false)
    );
    // The chief arbiter's list: the table, its players, 3 plies, the claim state.
    cdp.eval("refresh().then(() => true)");
    let row = cdp.eval("document.querySelector('.count-row').textContent");
    let row = row.as_str().unwrap();
    assert!(
        row.contains("12") && row.contains("王天一") && row.contains("/ 60"),
        "{row}"
    );
    // The claim ruled on the stored count and recorded, with its sheet.
    cdp.eval(
        "(() => { window.__idle = false; document.querySelector('#rule-claim').click(); return true; })()",
    );
    cdp.settle();
    cdp.wait_for("!!document.querySelector('#count-state a')");
    cdp.wait_for("document.querySelector('#casebook').textContent.includes('限着裁决')");
    let sheet = cdp.eval("document.querySelector('#count-state a').getAttribute('href')");
    assert_eq!(sheet, json!("/api/venue/casebook/1/sheet"));
    let html = ureq::get(&format!("{url}/api/venue/casebook/1/sheet"))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(html.contains("郑惟桐") || html.contains("<html"), "{html}");
}

/// The venue page with the server's event (issue 31): the new-count form offers the event's
/// time controls (the default picked), the header names the event and the open count's time
/// control; a case book entry opens whole (its fields, the record exactly as stored, the
/// ruling's reasons in Chinese then English, its sheet and raw JSON); a correction re-rules the
/// stored record under another time control and points back; "换人" closes the session and the
/// next arbiter's name signs what follows.
#[test]
fn the_venue_page_opens_corrects_and_switches_arbiter() {
    let Some(chrome) = chromium_or_skip() else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let event = root.join("events/2020-national-individual.json");
    let scratch = common::Scratch::new("browser-venue-entry");
    let db = scratch.join("event.sqlite");
    let (_server, url) = venue_server(&db, &event);
    let (_chrome, mut cdp) = chinese_browser(&chrome, &scratch.join("profile"));
    cdp.call(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({"source": IDLE_HOOK}),
    );
    let submit = |cdp: &mut Cdp, form: &str| {
        cdp.eval(&format!(
            "(() => {{ window.__idle = false; document.querySelector({form:?}).requestSubmit(); return true; }})()"
        ));
        cdp.settle();
    };
    let text = |cdp: &mut Cdp, sel: &str| -> String {
        cdp.eval(&format!("document.querySelector({sel:?}).textContent"))
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    let api = |path: &str| -> Value {
        serde_json::from_str(
            &ureq::get(&format!("{url}{path}"))
                .call()
                .unwrap()
                .into_string()
                .unwrap(),
        )
        .unwrap()
    };
    cdp.call("Page.navigate", json!({"url": format!("{url}/venue")}));
    cdp.wait_for("document.readyState === 'complete' && !document.querySelector('#login').hidden");
    cdp.eval("document.querySelector('#login-name').value = '李裁判'; true");
    submit(&mut cdp, "#login-form");
    cdp.wait_for("!document.querySelector('#venue-main').hidden");

    // The event's name, Chinese first, and its time controls in the form, the default picked.
    assert!(
        text(&mut cdp, "#event-name").starts_with("2020年全国象棋个人锦标赛 · 2020 National"),
        "{}",
        text(&mut cdp, "#event-name")
    );
    assert_eq!(
        cdp.eval("[...document.querySelectorAll('#nc-tc option')].map(o => o.value)"),
        json!(["slow", "rapid", "super_rapid", "armageddon"])
    );
    assert_eq!(
        cdp.eval("document.querySelector('#nc-tc').value"),
        json!("slow")
    );
    assert!(text(&mut cdp, "#nc-tc option[value=rapid]").starts_with("快棋 rapid"));
    // A count started under rapid: its time control in the header and the count's title.
    cdp.eval(
        "(() => { const v = (id, x) => document.querySelector(id).value = x; v('#nc-round', '1'); \
         v('#nc-table', '5'); v('#nc-tc', 'rapid'); v('#nc-claimant', 'red'); return true; })()",
    );
    submit(&mut cdp, "#new-count");
    cdp.wait_for("!document.querySelector('#count-panel').hidden");
    assert!(text(&mut cdp, "#open-tc").contains("快棋 rapid"));
    assert!(text(&mut cdp, "#count-title").contains("快棋 rapid"));
    assert_eq!(api("/api/venue/counts/1")["count"]["time_control"], "rapid");

    // A claim ruled and recorded (from another device) on the second game of a file, then
    // opened from the case book.
    let read = |name: &str| std::fs::read_to_string(root.join("pgn-samples").join(name)).unwrap();
    let sample = format!(
        "{}\n{}",
        read("claim_slow_valid.pgn"),
        read("claim_slow_checks_void.pgn")
    );
    let r = ureq::post(&format!(
        "{url}/api/venue/rule?kind=claim&claimant=red&game=2&name=round2.pgn&round=2&table=7&red=%E7%94%B2&black=%E4%B9%99&arbiter=%E8%B5%B5%E8%A3%81%E5%88%A4"
    ))
    .send_string(&sample)
    .unwrap();
    assert_eq!(r.status(), 200);
    let first = api("/api/venue/casebook/1")["entry"].clone();
    cdp.eval("(lastBook = 0, refresh()).then(() => true)");
    cdp.wait_for("!!document.querySelector('.entry-row[data-id=\"1\"]')");
    cdp.click(".entry-row[data-id=\"1\"]");
    cdp.wait_for("!document.querySelector('#entry-panel').hidden");
    assert_eq!(
        cdp.eval("document.querySelector('#entry-record').textContent"),
        json!(sample),
        "the record exactly as stored"
    );
    assert_eq!(
        cdp.eval(
            "getComputedStyle(document.querySelector('#entry-record')).fontFamily.includes('mono')"
        ),
        json!(true)
    );
    let fields = text(&mut cdp, ".entry-fields");
    for want in [
        "限着裁决",
        "2020年全国象棋个人锦标赛",
        "慢棋 slow",
        "赵裁判",
        "甲 – 乙",
    ] {
        assert!(fields.contains(want), "{want}: {fields}");
    }
    let ruling = text(&mut cdp, "#entry-ruling");
    let zh = first["ruling"]["outcome"]["reason_zh"].as_str().unwrap();
    let en = first["ruling"]["outcome"]["reason_en"].as_str().unwrap();
    assert!(
        ruling.contains(first["ruling"]["verdict"].as_str().unwrap()),
        "{ruling}"
    );
    let (at_zh, at_en) = (ruling.find(zh), ruling.find(en));
    assert!(
        at_zh.is_some() && at_en.is_some() && at_zh < at_en,
        "Chinese then English: {ruling}"
    );
    assert_eq!(
        cdp.eval("document.querySelector('#entry-sheet').getAttribute('href')"),
        json!("/api/venue/casebook/1/sheet")
    );
    assert_eq!(
        cdp.eval("document.querySelector('#entry-json').getAttribute('href')"),
        json!("/api/venue/casebook/1")
    );

    // The correction: the same record re-ruled under rapid, recorded as correcting #1.
    cdp.click("#correct");
    cdp.wait_for("!document.querySelector('#correct-form').hidden");
    assert_eq!(
        cdp.eval("document.querySelector('#cf-tc').value"),
        json!("slow")
    );
    assert_eq!(
        cdp.eval("document.querySelector('#cf-claimant').value"),
        json!("red")
    );
    cdp.eval("document.querySelector('#cf-tc').value = 'rapid'; true");
    submit(&mut cdp, "#correct-form");
    cdp.wait_for("document.querySelector('#entry-title').textContent.includes('第 2 号')");
    let second = api("/api/venue/casebook/2")["entry"].clone();
    assert_eq!(second["corrects"], 1);
    assert_eq!(second["time_control"], "rapid");
    assert_eq!(second["record"], first["record"]);
    assert_eq!(second["arbiter"], "李裁判");
    assert_eq!(second["ruling"]["profile"], "rapid");
    // (The same game of the record, claimed at the same ply.)
    assert_eq!(second["ruling"]["header"], first["ruling"]["header"]);
    assert_eq!(first["ruling"]["header"]["source"]["game"], 2);
    assert_eq!(second["ruling"]["at_ply"], first["ruling"]["at_ply"]);
    assert!(text(&mut cdp, ".entry-fields").contains("#1"));
    cdp.wait_for(
        "document.querySelector('.entry-row[data-id=\"1\"]').textContent.includes('已被更正 #2')",
    );
    // The old entry, opened from the link, names its correction.
    cdp.click("#entry-body .entry-link");
    cdp.wait_for("document.querySelector('#entry-title').textContent.includes('第 1 号')");
    assert!(text(&mut cdp, ".entry-fields").contains("#2"));

    // A claim ruled on the live count (recorded as its position and moves), corrected too: the
    // same position and moves, re-ruled under slow.
    cdp.eval("document.querySelector('#move').value = 'h2e2'; true");
    submit(&mut cdp, "#add-move");
    cdp.wait_for("document.querySelector('#count-moves').textContent.includes('h2e2')");
    cdp.click("#rule-claim");
    cdp.wait_for("!!document.querySelector('.entry-row[data-id=\"3\"]')");
    let third = api("/api/venue/casebook/3")["entry"].clone();
    assert!(
        third["record"]
            .as_str()
            .unwrap()
            .ends_with("Moves: h2e2\nLive count 1, revision 1"),
        "{third}"
    );
    cdp.click(".entry-row[data-id=\"3\"]");
    cdp.wait_for("document.querySelector('#entry-title').textContent.includes('第 3 号')");
    cdp.click("#correct");
    assert_eq!(
        cdp.eval("document.querySelector('#cf-tc').value"),
        json!("rapid")
    );
    cdp.eval("document.querySelector('#cf-tc').value = 'slow'; true");
    submit(&mut cdp, "#correct-form");
    cdp.wait_for("document.querySelector('#entry-title').textContent.includes('第 4 号')");
    let fourth = api("/api/venue/casebook/4")["entry"].clone();
    assert_eq!(fourth["corrects"], 3);
    assert_eq!(fourth["time_control"], "slow");
    assert_eq!(fourth["ruling"]["profile"], "slow");
    assert_eq!(fourth["ruling"]["claimant"], "red");
    let stored = third["record"].as_str().unwrap();
    assert_eq!(
        fourth["record"].as_str().unwrap(),
        &stored[..stored.find("\nLive count").unwrap()]
    );

    // Another arbiter takes the phone: a new name is asked, and signs what follows.
    cdp.click("#switch");
    cdp.wait_for("!document.querySelector('#login').hidden");
    assert_eq!(
        cdp.eval("document.querySelector('#login-name').value"),
        json!("")
    );
    cdp.eval("document.querySelector('#login-name').value = '张裁判'; true");
    submit(&mut cdp, "#login-form");
    cdp.wait_for("!document.querySelector('#venue-main').hidden");
    assert!(text(&mut cdp, "#who").contains("张裁判"));
    cdp.eval(
        "(() => { const v = (id, x) => document.querySelector(id).value = x; v('#nc-round', '1'); \
         v('#nc-table', '6'); return true; })()",
    );
    submit(&mut cdp, "#new-count");
    cdp.wait_for("document.querySelector('#count-title').textContent.startsWith('#2')");
    let count = api("/api/venue/counts/2");
    assert_eq!(count["count"]["started_by"], "张裁判");
    assert_eq!(count["count"]["time_control"], "slow");

    // Where an access code is asked, 换人 closes the session: the page asks for the code again
    // and the old session opens nothing.
    let code_file = scratch.join("code.txt");
    std::fs::write(&code_file, "final-2020-table\n").unwrap();
    let (child, url) = common::serve(
        &[
            "--db",
            scratch.join("coded.sqlite").to_str().unwrap(),
            "--access-code-file",
            code_file.to_str().unwrap(),
        ],
        "http://",
    );
    let _coded = Killed(child);
    cdp.call("Page.navigate", json!({"url": format!("{url}/venue")}));
    cdp.wait_for("document.readyState === 'complete' && !document.querySelector('#login').hidden");
    let log_in = |cdp: &mut Cdp, name: &str| {
        cdp.wait_for("!document.querySelector('#login-code-label').hidden");
        cdp.eval(&format!(
            "document.querySelector('#login-name').value = {name:?}; \
             document.querySelector('#login-code').value = 'FINAL 2020 TABLE'; true"
        ));
        submit(cdp, "#login-form");
        cdp.wait_for("!document.querySelector('#venue-main').hidden");
    };
    log_in(&mut cdp, "李裁判");
    let status = "fetch('/api/venue/counts').then(r => r.status)";
    assert_eq!(cdp.eval(status), json!(200));
    cdp.click("#switch");
    cdp.wait_for("!document.querySelector('#login').hidden");
    assert_eq!(
        cdp.eval("document.querySelector('#login-code').value"),
        json!("")
    );
    assert_eq!(cdp.eval(status), json!(401));
    log_in(&mut cdp, "张裁判");
    assert!(text(&mut cdp, "#who").contains("张裁判"));
    assert_eq!(cdp.eval(status), json!(200));
}

/// The workbench on a venue server (`xqa serve --db`): its live count is the server's. Moves
/// clicked on the board are stored with the arbiter's name and the count's time control, a move
/// for a count another device moved on is refused (409) and the page shows the count as stored,
/// a take-back is kept as withdrawn, the count survives a reload of the page, another device's
/// move appears on the next poll, and the claim ruled and the sheet printed are case book
/// entries.
#[test]
fn the_workbench_keeps_its_live_count_on_the_venue_server() {
    let Some(chrome) = chromium_or_skip() else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let event = root.join("events/2020-national-individual.json");
    let scratch = common::Scratch::new("browser-venue-workbench");
    let db = scratch.join("event.sqlite");
    let (_server, url) = venue_server(&db, &event);
    let (_chrome, mut cdp) = chinese_browser(&chrome, &scratch.join("profile"));
    open(&mut cdp, &format!("{url}/"));
    // The venue bar is shown, and the event is the server's, for every count and entry.
    assert_eq!(
        cdp.eval("document.querySelector('#venue-bar').hidden"),
        json!(false)
    );
    assert_eq!(
        cdp.eval(
            "[document.querySelector('#event').value, document.querySelector('#event').disabled]"
        ),
        json!(["", true])
    );
    let count_of = |id: u32| -> Value {
        let text = ureq::get(&format!("{url}/api/venue/counts/{id}"))
            .call()
            .unwrap()
            .into_string()
            .unwrap();
        serde_json::from_str::<Value>(&text).unwrap()["count"].clone()
    };
    let iccs = |count: &Value| -> Vec<String> {
        count["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["iccs"].as_str().unwrap().to_owned())
            .collect()
    };
    // Without a name or a table, no count is started.
    cdp.click("#tab-live");
    cdp.click("#live-start");
    assert!(
        cdp.eval("document.querySelector('#error').textContent")
            .as_str()
            .unwrap()
            .contains("裁判姓名")
    );
    cdp.eval(
        "(() => { const v = (id, x) => { const e = document.querySelector(id); e.value = x; \
         e.dispatchEvent(new Event('change')); }; v('#v-arbiter', '李裁判'); v('#v-round', '5'); \
         v('#v-table', '9'); v('#v-red', '王天一'); v('#v-black', '郑惟桐'); v('#v-claimant', 'red'); \
         return true; })()",
    );
    pick(&mut cdp, "v-tc", "rapid");
    cdp.click("#live-start");
    cdp.wait_for("document.querySelector('#v-count').textContent.includes('#1')");
    // The poll is stopped so that this test says when the page hears of other devices.
    cdp.eval("clearInterval(S.venue.poll); true");
    let moves = ["h2e2", "h9g7", "h0g2", "i9h9"];
    for m in moves {
        cdp.click_square(&m[..2]);
        cdp.click_square(&m[2..]);
    }
    let stored = count_of(1);
    assert_eq!(iccs(&stored), moves);
    assert_eq!(stored["time_control"], json!("rapid"));
    assert_eq!(stored["claimant"], json!("red"));
    assert_eq!(stored["moves"][3]["entered_by"], json!("李裁判"));
    assert_eq!(
        cdp.eval("document.querySelector('#time-control').disabled"),
        json!(true),
        "a venue count keeps its time control"
    );
    // Another device enters ply 5 first: this page's ply 5 is refused, and the page shows the
    // count as stored.
    let other = ureq::post(&format!("{url}/api/venue/counts/1/moves")).send_string(
        &json!({"ply": 5, "revision": stored["revision"], "move": "i0h0", "arbiter": "张裁判"})
            .to_string(),
    );
    assert_eq!(other.map(|r| r.status()).unwrap_or(0), 200);
    cdp.click_square("b0");
    cdp.click_square("c2");
    cdp.wait_for("document.querySelector('#error').textContent.includes('另一台设备')");
    assert_eq!(iccs(&count_of(1)), ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]);
    assert_eq!(
        cdp.eval("document.querySelector('#ply-label').textContent"),
        json!("第5步 / 共5步")
    );
    // An answer older than the count shown (a slow poll) does not take a move back off the page.
    assert_eq!(
        cdp.eval(
            "(async () => { const old = JSON.parse(JSON.stringify(S.venue.count)); old.revision -= 1; \
             old.moves.pop(); await venueShow(old); return S.live.moves.length; })()"
        ),
        json!(5)
    );
    // Another device's move appears on the next poll.
    let rev = count_of(1)["revision"].clone();
    let other = ureq::post(&format!("{url}/api/venue/counts/1/moves")).send_string(
        &json!({"ply": 6, "revision": rev, "move": "b9c7", "arbiter": "张裁判"}).to_string(),
    );
    assert_eq!(other.map(|r| r.status()).unwrap_or(0), 200);
    cdp.eval("venuePoll().then(() => true)");
    cdp.settle();
    assert_eq!(
        cdp.eval("document.querySelector('#ply-label').textContent"),
        json!("第6步 / 共6步")
    );
    // A take-back is stored, and kept on record as withdrawn.
    cdp.click("#live-undo");
    let stored = count_of(1);
    assert_eq!(iccs(&stored).len(), 5);
    assert_eq!(stored["withdrawn"][0]["iccs"], json!("b9c7"));
    assert_eq!(stored["withdrawn"][0]["withdrawn_by"], json!("李裁判"));
    // A reload (a phone switched off and on) finds the count again.
    open(&mut cdp, &format!("{url}/"));
    cdp.wait_for("document.querySelector('#live-note').textContent.includes('已恢复计数')");
    assert_eq!(
        cdp.eval("document.querySelector('#ply-label').textContent"),
        json!("第5步 / 共5步")
    );
    assert_eq!(
        cdp.eval("document.querySelector('#time-control').value"),
        json!("rapid")
    );
    // The claim ruled on the stored count, and the sheet printed (the count's claim again, on
    // the count as stored): two case book entries, each linked from the note.
    cdp.eval("window.open = (u) => { window.__opened = u; return null; }; true");
    cdp.click("#live-rule");
    cdp.wait_for("document.querySelector('#live-note').textContent.includes('第 1 条')");
    assert_eq!(
        cdp.eval("document.querySelector('#live-note a').getAttribute('href')"),
        json!("/api/venue/casebook/1/sheet")
    );
    cdp.click("#print");
    cdp.wait_for("document.querySelector('#live-note').textContent.includes('第 2 条')");
    let book: Value = serde_json::from_str(
        &ureq::get(&format!("{url}/api/venue/casebook"))
            .call()
            .unwrap()
            .into_string()
            .unwrap(),
    )
    .unwrap();
    let entries = book["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2, "{book}");
    for e in entries {
        assert_eq!(e["kind"], json!("claim"), "{e}");
        assert_eq!(e["arbiter"], json!("李裁判"), "{e}");
        assert_eq!(
            [&e["round"], &e["table"], &e["time_control"]],
            [&json!("5"), &json!("9"), &json!("rapid")],
            "{e}"
        );
        assert_eq!(e["has_sheet"], json!(true), "{e}");
    }
    // The entry holds the ruling of the five plies stored, at the count's revision.
    let entry: Value = serde_json::from_str(
        &ureq::get(&format!("{url}/api/venue/casebook/2"))
            .call()
            .unwrap()
            .into_string()
            .unwrap(),
    )
    .unwrap();
    let record = entry["entry"]["record"].as_str().unwrap();
    assert!(record.contains("h2e2 h9g7 h0g2 i9h9 i0h0"), "{record}");
    // Closing the count takes it off the running list.
    cdp.eval("window.confirm = () => true; true");
    cdp.click("#live-close");
    assert!(count_of(1)["closed_at"].is_string());
    assert_eq!(
        cdp.eval("document.querySelector('#live-close').hidden"),
        json!(true)
    );
    // A count closed by another device: this page's move is not stored, and the page says who
    // closed it and leaves it.
    cdp.click("#live-start");
    cdp.wait_for("document.querySelector('#v-count').textContent.includes('#2')");
    cdp.eval("clearInterval(S.venue.poll); true");
    let closed = ureq::post(&format!("{url}/api/venue/counts/2/close"))
        .send_string(&json!({"arbiter": "张裁判"}).to_string());
    assert_eq!(closed.map(|r| r.status()).unwrap_or(0), 200);
    cdp.click_square("h2");
    cdp.click_square("e2");
    cdp.wait_for("document.querySelector('#error').textContent.includes('张裁判')");
    assert_eq!(iccs(&count_of(2)).len(), 0);
    assert_eq!(
        cdp.eval("document.querySelector('#v-count').textContent"),
        json!("")
    );
    // A reviewed record's sheet is recorded under the bar's round and table, with the claimant
    // the side to move at the ply shown.
    let sample = std::fs::read_to_string(root.join("pgn-samples/claim_mate_on_limit.pgn")).unwrap();
    cdp.eval(&format!(
        "document.querySelector('#paste').value = {sample:?}; true"
    ));
    cdp.click("#tab-review");
    cdp.click("#load-paste");
    cdp.click("#first");
    cdp.click("#next");
    cdp.eval("document.querySelector('#v-claimant').value = ''; true");
    cdp.click("#print");
    cdp.wait_for("document.querySelector('#status').textContent.includes('第 3 条')");
    let entry: Value = serde_json::from_str(
        &ureq::get(&format!("{url}/api/venue/casebook/3"))
            .call()
            .unwrap()
            .into_string()
            .unwrap(),
    )
    .unwrap();
    let e = &entry["entry"];
    assert_eq!(e["kind"], json!("sheet"), "{e}");
    assert_eq!(
        [&e["round"], &e["table"]],
        [&json!("5"), &json!("9")],
        "{e}"
    );
    assert_eq!(e["record"], json!(sample));
    // (The sample's first move is Black's: at ply 1 Red is to move.)
    assert!(
        sample.contains("[FEN ") && sample.contains(" b - - "),
        "{sample}"
    );
    assert_eq!(e["ruling"]["claimant"], json!("red"), "{}", e["ruling"]);
    assert_eq!(e["ruling"]["at_ply"], json!(1), "{}", e["ruling"]);
}
