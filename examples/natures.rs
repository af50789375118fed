//! Prints the nature of every move of a line: `natures [--axf] FEN MOVE...` (ICCS moves),
//! for building constructed test positions.
use xiangqi_arbiter::rules::{Profile, try_classify_line};
use xiangqi_arbiter::{Move, Position};
fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let profile = if args.first().is_some_and(|a| a == "--axf") {
        args.remove(0);
        Profile::axf()
    } else {
        Profile::cxa()
    };
    let Some(fen) = args.first() else {
        eprintln!("usage: natures [--axf] FEN MOVE...");
        std::process::exit(2);
    };
    let start = match Position::from_fen(fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{fen}: {e}");
            std::process::exit(2);
        }
    };
    let mut moves = Vec::new();
    for a in &args[1..] {
        match Move::parse_iccs(a) {
            Some(m) => moves.push(m),
            None => {
                eprintln!("{a}: not an ICCS move");
                std::process::exit(2);
            }
        }
    }
    let natures = match try_classify_line(&start, &moves, &profile) {
        Ok(n) => n,
        Err((n, e)) => {
            eprintln!("{e}");
            n
        }
    };
    for n in natures {
        println!(
            "{} {} {} idle={} targets={:?}",
            n.mv,
            n.side.name(),
            n.kind.name(),
            n.idle_kind.map_or("-", |k| k.name()),
            n.targets
                .iter()
                .map(|t| format!(
                    "{}{}:{}:{}:{:?} ({})",
                    t.piece.char(),
                    t.square,
                    t.how.name(),
                    t.joint,
                    t.by.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                    t.reason
                ))
                .collect::<Vec<_>>()
        );
    }
}
