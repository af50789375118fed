//! The rules engine (RULES.md): the nature of every move, repetition cycles and their rulings
//! under the CXA and AXF profiles, and the adjudication report.
//!
//! ```
//! use xiangqi_arbiter::{Move, Position};
//! use xiangqi_arbiter::rules::{adjudicate, Profile, Verdict};
//!
//! // RULES.md 图6: Red's rook checks back and forth, Black's general steps aside.
//! let start = Position::from_fen("2b6/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w").unwrap();
//! let moves: Vec<Move> = ["f0e0", "e8f8", "e0f0", "f8e8"]
//!     .iter().map(|m| Move::parse_iccs(m).unwrap()).collect();
//! let report = adjudicate::adjudicate(&start, &moves, &Profile::cxa()).unwrap();
//! assert_eq!(report.verdict, Verdict::RedMustVary);
//! assert_eq!(report.cycles[0].red.name, "长将");
//! ```

pub mod adjudicate;
pub mod event;
pub mod limit;
pub mod nature;
pub mod orientation;
pub mod outcome;
pub mod profile;
pub mod repetition;
pub mod screen;
pub mod search;

pub use nature::{
    Analyzer, ChaseTarget, IdleKind, IllegalMove, LineError, MoveNature, NatureKind, WinHow,
    classify_line, try_classify_line,
};
pub use profile::{OccurrenceCounting, PieceValues, Profile, VerdictTable};
pub use repetition::{Cycle, SidePattern, Verdict, final_verdict, find_cycles};
