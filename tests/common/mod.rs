//! What the integration tests share: running the `xqa` binary and reading what it printed, and
//! a line (FEN and ICCS moves) in another orientation of the board.
//! (Each test crate uses part of it.)
#![allow(dead_code)]

use std::process::{Child, ChildStdin, Command, Output, Stdio};

/// The `xqa` binary of this build, to be given arguments (run from the crate's root).
pub fn xqa_cmd(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_xqa"));
    c.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// Starts `xqa` with its standard input fed by `feed` on a thread of its own (so that a reader
/// that stops early, or reads slowly, never blocks the test), standard output piped and standard
/// error as given: the child and the feeding thread.
pub fn xqa_fed(
    args: &[&str],
    stderr: Stdio,
    feed: impl FnOnce(ChildStdin) + Send + 'static,
) -> (Child, std::thread::JoinHandle<()>) {
    let mut child = xqa_cmd(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("xqa runs");
    let stdin = child.stdin.take().expect("piped stdin");
    (child, std::thread::spawn(move || feed(stdin)))
}

/// Runs `xqa` to the end: its output.
pub fn xqa_output(args: &[&str]) -> Output {
    xqa_cmd(args).output().expect("xqa runs")
}

/// Runs `xqa` to the end: exit code (-1 when killed by a signal), standard output, standard
/// error.
pub fn xqa(args: &[&str]) -> (i32, String, String) {
    let o = xqa_output(args);
    (o.status.code().unwrap_or(-1), stdout(&o), stderr(&o))
}

/// Standard output, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// One JSON value per non-empty line.
pub fn json_lines(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// `fen` and the ICCS `moves` mirrored a<->i (`mirror`) and/or with the colours swapped and the
/// board turned round (`swap`).
pub fn oriented(fen: &str, moves: &str, mirror: bool, swap: bool) -> (String, String) {
    let flip_files = mirror ^ swap;
    let mut fields = fen.split_whitespace();
    let mut ranks: Vec<String> = fields
        .next()
        .unwrap()
        .split('/')
        .map(|r| {
            let r: String = if flip_files {
                r.chars().rev().collect()
            } else {
                r.to_string()
            };
            if swap {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            } else {
                r
            }
        })
        .collect();
    let mut turn = fields.next().unwrap_or("w").to_string();
    if swap {
        ranks.reverse();
        turn = if turn == "b" { "w".into() } else { "b".into() };
    }
    let sq = |s: &str| {
        let (f, r) = (s.as_bytes()[0] - b'a', s.as_bytes()[1] - b'0');
        let f = if flip_files { 8 - f } else { f };
        let r = if swap { 9 - r } else { r };
        format!("{}{}", (b'a' + f) as char, r)
    };
    let moves = moves
        .split_whitespace()
        .map(|m| format!("{}{}", sq(&m[..2]), sq(&m[2..])))
        .collect::<Vec<_>>()
        .join(" ");
    (format!("{} {turn}", ranks.join("/")), moves)
}

/// Starts `xqa serve --port 0` with `extra` arguments; returns the child and the address it
/// announced on its first line of standard error (the first word starting with `prefix`, without
/// the trailing slash). The rest of its standard error is read away in a thread.
pub fn serve(extra: &[&str], prefix: &str) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = xqa_cmd(&["serve", "--port", "0"])
        .args(extra)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("xqa serve starts");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines.next().expect("a line").expect("utf-8");
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix} address in {first:?}"))
        .trim_end_matches('/')
        .to_string();
    std::thread::spawn(move || for _ in lines {});
    (child, url)
}

/// A scratch directory of one test (`xqa-TAG-PID` under the system's temporary directory),
/// created empty and removed with everything in it when the guard is dropped, whether the test
/// passed or panicked (a failing test's unwinding drops it too), so that runs leave nothing
/// behind.
pub struct Scratch(std::path::PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("xqa-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
        Scratch(dir)
    }

    pub fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // A process the test started may still be writing there for a moment after it was
        // killed (Chromium's helper processes outlive the browser they served, and a removal
        // racing with them fails with the directory not empty): try again for up to 5 s.
        for _ in 0..50 {
            let _ = std::fs::remove_dir_all(&self.0);
            if !self.0.exists() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}

/// A game from the initial array (ICCS moves) whose first `padding` plies repeat no position
/// and make no capture (Red's rook a0 steps to a1 and back while Black's rooks a9, i9 and cannon
/// h7 walk a ternary Gray code over a9-a8-a7, i9-i8-i7 and h7-h8-g8, so that Black never stands
/// the same way twice), followed by `loops` plays of an idle horse shuffle (b0c2 / b9c7 and
/// back, Black's or Red's first as the padding leaves the turn). The shuffle's position stands
/// for the 3rd time after `padding + 8` plies.
pub fn padded_shuffle(padding: usize, loops: usize) -> String {
    const WALKS: [[&str; 3]; 3] = [["a9", "a8", "a7"], ["i9", "i8", "i7"], ["h7", "h8", "g8"]];
    let mut state = [0usize; 3];
    let mut black = Vec::new();
    // The reflected ternary Gray code: 26 steps, each one piece one square.
    for n in 1..27usize {
        let mut digits = [0usize; 3];
        let mut m = n;
        for d in digits.iter_mut() {
            *d = m % 3;
            m /= 3;
        }
        // Reflect: a digit runs backwards when the sum of the higher digits is odd.
        let mut g = [0usize; 3];
        let mut higher = 0;
        for i in (0..3).rev() {
            g[i] = if higher % 2 == 1 {
                2 - digits[i]
            } else {
                digits[i]
            };
            higher += digits[i];
        }
        let i = (0..3)
            .find(|&i| g[i] != state[i])
            .expect("one digit changes");
        black.push(format!("{}{}", WALKS[i][state[i]], WALKS[i][g[i]]));
        state = g;
    }
    let mut moves = Vec::new();
    let (mut red_at_home, mut b) = (true, 0);
    for ply in 0..padding {
        if ply.is_multiple_of(2) {
            moves.push(if red_at_home { "a0a1" } else { "a1a0" }.to_owned());
            red_at_home = !red_at_home;
        } else {
            moves.push(black[b].clone());
            b += 1;
        }
    }
    let red_loop = ["b0c2", "c2b0"];
    let black_loop = ["b9c7", "c7b9"];
    for i in 0..loops * 4 {
        let red_turn = (padding + i).is_multiple_of(2);
        let step = (i / 2) % 2;
        moves.push(
            if red_turn {
                red_loop[step]
            } else {
                black_loop[step]
            }
            .to_owned(),
        );
    }
    moves.join(" ")
}
