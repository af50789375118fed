//! Random walks through legal games: the incremental Zobrist key, make/undo and the fast legality
//! test are checked against slow recomputation at every step.

use xiangqi_arbiter::{Bitboard, Move, Position, Role, Setup, Square, attacks};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Legal moves the slow way: pseudo-legal moves after which the own king is not attacked, judged
/// by rebuilding the position from scratch.
fn slow_legal(pos: &Position) -> Vec<Move> {
    let us = pos.turn();
    let mut out: Vec<Move> = pos
        .pseudo_legal_moves()
        .into_iter()
        .filter(|&m| {
            let mut setup: Setup = pos.to_setup();
            setup.board[m.to as usize] = setup.board[m.from as usize].take();
            let after = Position::from_setup_unchecked(&setup);
            let king = after.pieces(us, Role::King).first().unwrap();
            !after.is_attacked(king, !us)
        })
        .collect();
    out.sort_by_key(|m| (m.from, m.to));
    out
}

/// Pseudo-legal moves the slow way, square by square with coordinates, to check the tables in play.
fn walk(seed: u64, games: usize, max_plies: usize, mut each: impl FnMut(&Position, &[Move])) {
    let mut rng = Rng(seed);
    for _ in 0..games {
        let mut pos = Position::start();
        for _ in 0..max_plies {
            let mut legal: Vec<Move> = pos.legal_moves().into_iter().collect();
            legal.sort_by_key(|m| (m.from, m.to));
            each(&pos, &legal);
            if legal.is_empty() {
                break;
            }
            // Prefer captures now and then so that positions thin out and endgames appear.
            let caps: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to).is_some())
                .collect();
            let m = if !caps.is_empty() && rng.below(3) == 0 {
                caps[rng.below(caps.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            let before = pos;
            let undo = pos.play_unchecked(m);
            assert_eq!(pos.key(), pos.recomputed_key(), "incremental key after {m}");
            assert_eq!(pos.occupied_rotated(), attacks::rotate(pos.occupied()));
            let mut back = pos;
            back.undo(m, undo);
            assert_eq!(back, before);
            assert_eq!(back.key(), before.key());
            assert_eq!(back.halfmoves(), before.halfmoves());
        }
    }
}

#[test]
fn zobrist_and_undo_on_long_random_walks() {
    let mut plies = 0;
    walk(0x1234_5678, 60, 300, |pos, _| {
        let _ = pos;
        plies += 1;
    });
    assert!(plies > 5_000, "{plies}");
}

#[test]
fn legal_moves_equal_filtered_pseudo_legal() {
    let mut positions = 0;
    let mut checks = 0;
    walk(0xDEAD_BEEF, 40, 250, |pos, legal| {
        assert_eq!(legal, slow_legal(pos).as_slice(), "{}", pos.fen());
        assert_eq!(pos.count_legal(), legal.len());
        assert_eq!(pos.has_legal_move(), !legal.is_empty());
        // is_legal agrees with the list on every pseudo-legal move and on arbitrary pairs.
        for m in pos.pseudo_legal_moves() {
            assert_eq!(pos.is_legal(m), legal.contains(&m), "{m} in {}", pos.fen());
        }
        for (i, from) in Square::ALL.iter().enumerate().step_by(7) {
            let to = Square::ALL[(i * 31 + positions) % 90];
            let m = Move::new(*from, to);
            assert_eq!(pos.is_legal(m), legal.contains(&m), "{m} in {}", pos.fen());
        }
        if pos.is_check() {
            checks += 1;
        }
        positions += 1;
    });
    assert!(positions > 3_000, "{positions}");
    assert!(checks > 50, "walks should meet checks: {checks}");
}

#[test]
fn keys_depend_on_side_to_move() {
    let pos = Position::start();
    assert_ne!(pos.key(), pos.null_move().key());
    assert_eq!(Bitboard::FULL.count(), 90);
}
