use xiangqi_arbiter::Position;
use xiangqi_arbiter::rules::{Analyzer, Profile};
fn main() {
    let fen = std::env::args().nth(1).unwrap();
    let pos = Position::from_fen(&fen).unwrap();
    let p = Profile::cxa();
    let mut a = Analyzer::new(&p);
    println!("{:?}", a.threats_of(&pos));
}
