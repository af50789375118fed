//! Reading the games the rules examples run over (`dump_natures`, `orientation`).

use std::path::PathBuf;

use xiangqi_arbiter::record::walk;
use xiangqi_arbiter::{Move, Position};

/// One game: a name (`source#index`), its start and the moves of its main line.
pub type NamedGame = (String, Position, Vec<Move>);

/// Every game of the records under `paths` (files or directories, read as `xqa screen` reads
/// them; a `.jsonl` file of `fen` + `moves` lines is read as such).
pub fn read_games(paths: &[String]) -> Vec<NamedGame> {
    let mut games = Vec::new();
    for p in paths {
        if p.ends_with(".jsonl") {
            let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{p}: {e}"));
            for (i, l) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
                let v: serde_json::Value =
                    serde_json::from_str(l).unwrap_or_else(|e| panic!("{p}:{}: {e}", i + 1));
                let pos = Position::from_fen(v["fen"].as_str().expect("fen")).expect("fen");
                let moves = match &v["moves"] {
                    serde_json::Value::Array(a) => a
                        .iter()
                        .map(|m| Move::parse_iccs(m.as_str().expect("move")).expect("iccs"))
                        .collect(),
                    m => m
                        .as_str()
                        .expect("moves")
                        .split_whitespace()
                        .map(|m| Move::parse_iccs(m).expect("iccs"))
                        .collect(),
                };
                games.push((format!("{p}#{}", i + 1), pos, moves));
            }
        } else {
            let walk::Expanded { inputs, .. } = walk::expand_all(&[PathBuf::from(p)]);
            walk::for_each_game(&inputs, |e| {
                games.push((
                    format!("{}#{}", e.source, e.index + 1),
                    e.game.start,
                    e.game.main_moves(),
                ));
            });
        }
    }
    games
}
