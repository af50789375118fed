//! Diagnostic: the threats (before newness) of the side to move after playing some moves.
//! Usage: cargo run --example threats -- FEN [ICCS ...]
use xiangqi_arbiter::rules::{Analyzer, Profile};
use xiangqi_arbiter::{Move, Position};
fn main() {
    let mut args = std::env::args().skip(1);
    let mut pos = Position::from_fen(&args.next().expect("FEN")).expect("valid FEN");
    for m in args {
        pos = pos.after(Move::parse_iccs(&m).expect("ICCS move"));
    }
    let p = Profile::cxa();
    let mut a = Analyzer::new(&p);
    println!("{}", pos.fen());
    println!("to move: {:?}", a.threats_of(&pos));
    println!("if passing: {:?}", a.threats_of(&pos.null_move()));
}
