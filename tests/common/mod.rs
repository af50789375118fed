//! What the integration tests share: running the `xqa` binary and reading what it printed.
//! (Each test crate uses part of it.)
#![allow(dead_code)]

use std::process::{Command, Output};

/// The `xqa` binary of this build, to be given arguments (run from the crate's root).
pub fn xqa_cmd(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_xqa"));
    c.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    c
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
