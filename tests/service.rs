//! The service layer gives exactly what the CLI prints: for every record of `pgn-samples/`, the
//! reports of `service::{validate, adjudicate, claim, show}` equal `xqa ... --json` (or the text
//! output), and its errors carry the CLI's message and exit code.

use std::path::{Path, PathBuf};
use xiangqi_arbiter::Color;
use xiangqi_arbiter::service::{self, AdjudicateOptions, ClaimRequest, GameInput};

mod common;
use common::xqa;

fn samples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("pgn-samples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap() != "README.md")
        .collect();
    files.sort();
    assert!(files.len() >= 15, "the samples are there");
    files
}

fn input(path: &Path, game: usize) -> GameInput {
    GameInput::record(
        std::fs::read(path).unwrap(),
        path.display().to_string(),
        game,
    )
}

/// The service's answer in the CLI's shape: stdout on success (exit code 1 after the report of
/// a broken record, whose line is given), `xqa: message` and the code on failure (with the error
/// document on stdout too under `--json`).
fn as_cli(
    result: Result<(String, &service::Line), service::ServiceError>,
    json: bool,
) -> (i32, String, String) {
    match result {
        Ok((out, line)) => match &line.error {
            None => (0, out, String::new()),
            Some(e) => (1, out, format!("xqa: the record is invalid: {e}\n")),
        },
        Err(e) => (
            e.code as i32,
            if json {
                format!("{}\n", e.to_json())
            } else {
                String::new()
            },
            format!("xqa: {}\n", e.message),
        ),
    }
}

#[test]
fn validate_equals_the_cli_on_every_sample() {
    for path in samples() {
        let p = path.to_str().unwrap();
        let (_, cli, _) = xqa(&["validate", "--json", p]);
        let bytes = std::fs::read(&path).unwrap();
        let reports = service::validate(&bytes, p);
        assert_eq!(service::validate_json_lines(&reports), cli, "{p}");
    }
}

#[test]
fn adjudicate_equals_the_cli_on_every_sample() {
    let mut ok = 0;
    for path in samples() {
        let p = path.to_str().unwrap();
        for game in [1, 2] {
            for rules in ["cxa", "axf"] {
                let g = game.to_string();
                let cli = xqa(&["adjudicate", p, "--game", &g, "--rules", rules, "--json"]);
                let options = AdjudicateOptions {
                    rules: rules.into(),
                    ..AdjudicateOptions::default()
                };
                let report = service::adjudicate(&input(&path, game), &options);
                let got = as_cli(
                    report
                        .as_ref()
                        .map(|r| (format!("{}\n", r.to_json()), &r.line))
                        .map_err(Clone::clone),
                    true,
                );
                assert_eq!(got, cli, "{p} game {game} {rules}");
                ok += (cli.0 == 0) as usize;
            }
        }
    }
    assert!(ok >= 20, "most samples are ruled on ({ok})");
}

#[test]
fn claim_and_show_equal_the_cli_on_every_sample() {
    for path in samples() {
        let p = path.to_str().unwrap();
        for (side, color) in [("red", Color::Red), ("black", Color::Black)] {
            let cli = xqa(&["claim", p, "--claimant", side, "--json"]);
            let outcome = service::claim(&input(&path, 1), &ClaimRequest::new(color));
            let got = as_cli(
                outcome
                    .as_ref()
                    .map(|o| (format!("{}\n", o.to_json()), &o.line))
                    .map_err(Clone::clone),
                true,
            );
            assert_eq!(got, cli, "{p} claim {side}");
        }
        let cli = xqa(&["show", p, "--at", "2"]);
        let shown = service::show(&input(&path, 1), Some(2));
        let got = as_cli(
            shown
                .as_ref()
                .map(|r| (r.to_text(), &r.line))
                .map_err(Clone::clone),
            false,
        );
        assert_eq!(got, cli, "{p} show");
    }
}

#[test]
fn errors_carry_the_cli_message_code_and_json() {
    let e = service::adjudicate(
        &GameInput::fen(None, Some("h2e2 h9g7 a0a5")),
        &AdjudicateOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.code, 1);
    let cli = xqa(&["adjudicate", "--moves", "h2e2 h9g7 a0a5"]);
    assert_eq!(cli.0, 1);
    assert_eq!(cli.2, format!("xqa: {}\n", e.message));
    assert_eq!(e.to_json()["error"]["kind"], "invalid");

    let e = service::adjudicate(
        &GameInput::fen(None, None),
        &AdjudicateOptions {
            rules: "zz".into(),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(e.code, 2);
    assert!(e.message.contains("unknown rules 'zz'"), "{}", e.message);

    let text = "[Format \"ICCS\"]\n\n1. h2e2 h9g7 2. h0g2 a0a5 *\n";
    let e = service::adjudicate(
        &GameInput::record(text.as_bytes(), "broken.pgn", 1),
        &AdjudicateOptions::default(),
    )
    .unwrap();
    // A broken record is ruled on up to its bad move; the error names the game, ply and move.
    assert_eq!(e.moves.len(), 3);
    let j: serde_json::Value = serde_json::from_str(&e.to_json()).unwrap();
    assert_eq!(j["error"]["file"], "broken.pgn");
    assert_eq!(j["error"]["game"], 1);
    assert_eq!(j["error"]["ply"], 4, "{j}");
    assert_eq!(j["error"]["move_text"], "a0a5", "{j}");
    assert_eq!(j["error"]["line"], 3, "{j}");

    let e = service::claim(
        &GameInput::record(text.as_bytes(), "broken.pgn", 3),
        &ClaimRequest::new(Color::Red),
    )
    .unwrap_err();
    assert_eq!(e.kind, "no_such_game");
    assert_eq!(e.code, 2, "an out-of-range --game is a usage error");
    assert!(e.message.contains("holds 1 game"), "{}", e.message);
}

/// The review the server streams (`review_json`) is byte for byte the JSON of `review`, on every
/// sample record and on a FEN with moves.
#[test]
fn the_streamed_review_is_the_review_s_json() {
    let mut inputs = vec![GameInput::fen(None, Some("h2e2 h9g7 h0g2 i9h9"))];
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/pgn-samples")).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        inputs.push(GameInput::record(bytes, path.display().to_string(), 1));
    }
    let mut compared = 0;
    for input in &inputs {
        let Ok(review) = service::review(input) else {
            continue;
        };
        let mut streamed = Vec::new();
        service::review_json(input, &mut streamed).unwrap();
        assert_eq!(
            String::from_utf8(streamed).unwrap(),
            serde_json::to_string(&review).unwrap()
        );
        compared += 1;
    }
    assert!(compared > 10, "{compared} reviews compared");
}
