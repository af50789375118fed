//! Exports a sample of a game collection as JSON lines (`source`, `fen`, `moves` in ICCS), for
//! benchmark data: `export_sample EVERY PATH... > out.jsonl` keeps every EVERY-th game (in the
//! order `xqa screen` reads them) that has moves and was read without error.
use std::path::PathBuf;

use xiangqi_arbiter::record::walk;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(every) = args.first().and_then(|a| a.parse::<usize>().ok()) else {
        eprintln!("usage: export_sample EVERY PATH...");
        std::process::exit(2);
    };
    let paths: Vec<PathBuf> = args[1..].iter().map(PathBuf::from).collect();
    let walk::Expanded { inputs, .. } = walk::expand_all(&paths);
    let mut n = 0usize;
    walk::for_each_game(&inputs, |e| {
        let moves = e.game.main_moves();
        if e.error.is_some() || moves.is_empty() {
            return;
        }
        n += 1;
        if !(n - 1).is_multiple_of(every) {
            return;
        }
        let line = serde_json::json!({
            "source": format!("{}#{}", e.source, e.index + 1),
            "fen": e.game.start.fen(),
            "moves": moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" "),
        });
        println!("{line}");
    });
}
