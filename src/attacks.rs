//! Attack tables for every role, built by `const fn` at compile time.
//!
//! Rooks and cannons slide along a rank (9 bits of occupancy) or a file (10 bits). Their attacks are
//! looked up per line: `RANK_*[file][rank occupancy]` gives the attacked points of the rank as 9
//! bits, `FILE_*[rank][file occupancy]` those of the file as 10 bits, and `FILE_SPREAD` turns 10
//! file bits back into a [`Bitboard`]. File occupancy comes from a file-major copy of the occupied
//! set (see [`rotate`]), which the position keeps up to date. In all about 90 KiB.
//!
//! Horses and elephants are small blocker lists: each of the four directions has its leg (蹩马腿)
//! or eye (塞象眼) and the squares it reaches. Everything is checked against a slow, obviously
//! correct reference in the tests below.

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

/// Index of a square in the file-major layout: `file * 10 + rank`.
#[inline]
pub const fn rot_index(sq: Square) -> u32 {
    let i = sq as u32;
    (i % 9) * 10 + i / 9
}

/// The file-major copy of a set of squares.
pub const fn rotate(b: Bitboard) -> u128 {
    let mut out = 0u128;
    let mut i = 0;
    while i < 90 {
        if b.0 >> i & 1 != 0 {
            out |= 1u128 << rot_index(Square::from_index(i));
        }
        i += 1;
    }
    out
}

/// Occupancy of a rank as 9 bits.
#[inline]
pub const fn rank_bits(occ: Bitboard, rank: u32) -> usize {
    ((occ.0 >> (rank * 9)) & 0x1ff) as usize
}

/// Occupancy of a file as 10 bits, from the file-major copy.
#[inline]
pub const fn file_bits(rot: u128, file: u32) -> usize {
    ((rot >> (file * 10)) & 0x3ff) as usize
}

/// Slider attacks along one line of `len` points from `pos` with occupancy `occ`: the rook's
/// (`cannon == false`: every point up to and including the first piece) or the cannon's capture
/// points (`cannon == true`: the first piece beyond exactly one screen).
const fn line_attacks(pos: u32, occ: u32, len: u32, cannon: bool) -> u16 {
    let mut out = 0u16;
    let mut dir = 0;
    while dir < 2 {
        let mut screens = 0;
        let mut p = pos as i32;
        loop {
            p += if dir == 0 { 1 } else { -1 };
            if p < 0 || p >= len as i32 {
                break;
            }
            let occupied = occ >> p & 1 != 0;
            if !cannon {
                out |= 1 << p;
                if occupied {
                    break;
                }
            } else if occupied {
                screens += 1;
                if screens == 2 {
                    out |= 1 << p;
                    break;
                }
            }
        }
        dir += 1;
    }
    out
}

const fn rank_table(cannon: bool) -> [[u16; 512]; 9] {
    let mut t = [[0u16; 512]; 9];
    let mut f = 0;
    while f < 9 {
        let mut o = 0;
        while o < 512 {
            t[f][o] = line_attacks(f as u32, o as u32, 9, cannon);
            o += 1;
        }
        f += 1;
    }
    t
}

const fn file_table(cannon: bool) -> [[u16; 1024]; 10] {
    let mut t = [[0u16; 1024]; 10];
    let mut r = 0;
    while r < 10 {
        let mut o = 0;
        while o < 1024 {
            t[r][o] = line_attacks(r as u32, o as u32, 10, cannon);
            o += 1;
        }
        r += 1;
    }
    t
}

static RANK_ROOK: [[u16; 512]; 9] = rank_table(false);
static RANK_CANNON: [[u16; 512]; 9] = rank_table(true);
static FILE_ROOK: [[u16; 1024]; 10] = file_table(false);
static FILE_CANNON: [[u16; 1024]; 10] = file_table(true);

/// `FILE_SPREAD[bits]`: the ten file bits as squares of file `a`.
static FILE_SPREAD: [u128; 1024] = {
    let mut t = [0u128; 1024];
    let mut o = 0;
    while o < 1024 {
        let mut r = 0;
        while r < 10 {
            if o >> r & 1 != 0 {
                t[o] |= 1u128 << (r * 9);
            }
            r += 1;
        }
        o += 1;
    }
    t
};

#[inline]
fn line_lookup(
    sq: Square,
    occ: Bitboard,
    rot: u128,
    rank_t: &[[u16; 512]; 9],
    file_t: &[[u16; 1024]; 10],
) -> Bitboard {
    let i = sq as u32;
    let (f, r) = (i % 9, i / 9);
    let along_rank = (rank_t[f as usize][rank_bits(occ, r)] as u128) << (r * 9);
    let along_file = FILE_SPREAD[file_t[r as usize][file_bits(rot, f)] as usize] << f;
    Bitboard(along_rank | along_file)
}

/// Points a rook on `sq` attacks (every point up to and including the first piece each way).
/// `rot` is [`rotate`]`(occ)`.
#[inline]
pub fn rook_attacks(sq: Square, occ: Bitboard, rot: u128) -> Bitboard {
    line_lookup(sq, occ, rot, &RANK_ROOK, &FILE_ROOK)
}

/// Points a cannon on `sq` can capture on: the first piece beyond exactly one screen, each way.
/// Its quiet moves are the rook's attacks minus the occupied points.
#[inline]
pub fn cannon_attacks(sq: Square, occ: Bitboard, rot: u128) -> Bitboard {
    line_lookup(sq, occ, rot, &RANK_CANNON, &FILE_CANNON)
}

/// The points from which a cannon attacks `sq` over exactly one screen, with the occupancy
/// `occ` (`rot` its file-major copy): on each line, beyond the first piece up to and including
/// the second (to the edge when there is none). That is [`rook_attacks`] from `sq` with the
/// first pieces taken away, less [`rook_attacks`] with them, computed on the rank's and file's
/// occupancy bits (the first pieces are the occupied points of the first lookup).
#[inline]
pub fn cannon_attacker_squares(sq: Square, occ: Bitboard, rot: u128) -> Bitboard {
    let i = sq as u32;
    let (f, r) = ((i % 9) as usize, (i / 9) as usize);
    let (rank, file) = (rank_bits(occ, r as u32), file_bits(rot, f as u32));
    let rank1 = RANK_ROOK[f][rank] as usize;
    let file1 = FILE_ROOK[r][file] as usize;
    let rank2 = RANK_ROOK[f][rank & !rank1] as usize & !rank1;
    let file2 = FILE_ROOK[r][file & !file1] as usize & !file1;
    Bitboard((rank2 as u128) << (r * 9) | FILE_SPREAD[file2] << f)
}

/// Rook attacks along a rank as 9 bits: `file` of the rook, `occ` the rank's occupancy bits.
#[inline]
pub fn rook_rank_bits(file: usize, occ: usize) -> u32 {
    RANK_ROOK[file][occ] as u32
}

/// Rook attacks along a file as 10 bits: `rank` of the rook, `occ` the file's occupancy bits.
#[inline]
pub fn rook_file_bits(rank: usize, occ: usize) -> u32 {
    FILE_ROOK[rank][occ] as u32
}

/// Cannon captures along a rank as 9 bits.
#[inline]
pub fn cannon_rank_bits(file: usize, occ: usize) -> u32 {
    RANK_CANNON[file][occ] as u32
}

/// Cannon captures along a file as 10 bits.
#[inline]
pub fn cannon_file_bits(rank: usize, occ: usize) -> u32 {
    FILE_CANNON[rank][occ] as u32
}

/// The four rook directions: up (towards Black), down, right, left.
pub const RAY_DIRECTIONS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// `RAYS[d][sq]`: the points from `sq` (exclusive) to the edge in direction `d` of
/// [`RAY_DIRECTIONS`]. Up and right rays grow towards higher indices, down and left towards lower.
static RAYS: [[Bitboard; 90]; 4] = {
    let mut t = [[Bitboard::EMPTY; 90]; 4];
    let mut d = 0;
    while d < 4 {
        let mut i = 0;
        while i < 90 {
            let mut cur = Square::from_index(i).offset(RAY_DIRECTIONS[d].0, RAY_DIRECTIONS[d].1);
            while let Some(s) = cur {
                t[d][i].0 |= 1u128 << s as u32;
                cur = s.offset(RAY_DIRECTIONS[d].0, RAY_DIRECTIONS[d].1);
            }
            i += 1;
        }
        d += 1;
    }
    t
};

/// The ray from `sq` in direction `d` (0 up, 1 down, 2 right, 3 left), `sq` excluded.
#[inline]
pub fn ray(d: usize, sq: Square) -> Bitboard {
    RAYS[d][sq as usize]
}

/// `BETWEEN[a][b]`: the points strictly between two points on one rank or file (empty
/// otherwise).
static BETWEEN: [[Bitboard; 90]; 90] = {
    let mut t = [[Bitboard::EMPTY; 90]; 90];
    let mut a = 0;
    while a < 90 {
        let mut d = 0;
        while d < 4 {
            // Walk the ray from `a`; every point reached collects the points passed so far.
            let mut passed = 0u128;
            let mut cur = Square::from_index(a).offset(RAY_DIRECTIONS[d].0, RAY_DIRECTIONS[d].1);
            while let Some(s) = cur {
                t[a][s as usize] = Bitboard(passed);
                passed |= 1u128 << s as u32;
                cur = s.offset(RAY_DIRECTIONS[d].0, RAY_DIRECTIONS[d].1);
            }
            d += 1;
        }
        a += 1;
    }
    t
};

/// `LINES[sq]`: the other points of the rank and the file of `sq`; `FILE_LINES[sq]`: those of
/// its file alone.
static LINES: [[Bitboard; 90]; 2] = {
    let mut t = [[Bitboard::EMPTY; 90]; 2];
    let mut i = 0;
    while i < 90 {
        let mut d = 0;
        while d < 4 {
            t[0][i].0 |= RAYS[d][i].0;
            if d < 2 {
                t[1][i].0 |= RAYS[d][i].0;
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// Pieces among `clear` that attack `sq` along a clear line, and among `screened` those that
/// attack it over exactly one screen (cannons), with the occupancy `occ`. Only the pieces on
/// the lines of `sq` are looked at, each by counting the pieces between: there are few.
#[inline]
pub fn slider_attackers(
    sq: Square,
    occ: Bitboard,
    clear: Bitboard,
    screened: Bitboard,
) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for x in (clear | screened) & lines(sq) {
        let screens = (between(sq, x) & occ).count();
        if screens == u32::from(screened.contains(x)) {
            out.set(x);
        }
    }
    out
}

/// `ROT_BITS[sq]`: the bit of `sq` in the file-major layout (`1 << rot_index(sq)`).
static ROT_BITS: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = 1u128 << rot_index(Square::from_index(i));
        i += 1;
    }
    t
};

/// The bit of `sq` in the file-major layout.
#[inline]
pub fn rot_bit(sq: Square) -> u128 {
    ROT_BITS[sq as usize]
}

/// The other points of the rank and the file of `sq` (where a rook or cannon attacking it
/// stands).
#[inline]
pub fn lines(sq: Square) -> Bitboard {
    LINES[0][sq as usize]
}

/// The other points of the file of `sq` (where a facing general stands).
#[inline]
pub fn file_line(sq: Square) -> Bitboard {
    LINES[1][sq as usize]
}

/// The points strictly between `a` and `b` when they share a rank or file (empty otherwise).
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a as usize][b as usize]
}

/// The point of `b` nearest to the ray's origin, for a subset `b` of a ray in direction `d`.
#[inline]
pub fn nearest_on_ray(d: usize, b: Bitboard) -> Option<Square> {
    if b.is_empty() {
        None
    } else if d == 0 || d == 2 {
        Some(Square::from_index(b.0.trailing_zeros() as usize))
    } else {
        Some(Square::from_index(127 - b.0.leading_zeros() as usize))
    }
}

/// One direction of a horse or elephant: the blocking point and what lies beyond it.
#[derive(Copy, Clone, Debug)]
pub struct Blockable {
    /// The leg (horse) or eye (elephant); the move is blocked when it is occupied.
    pub block: Square,
    /// The points reached through it.
    pub targets: Bitboard,
}

const NO_BLOCK: Blockable = Blockable {
    block: Square::A0,
    targets: Bitboard::EMPTY,
};

/// Up to four directions; unused entries have empty targets.
pub type Blockables = [Blockable; 4];

const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn bit(sq: Option<Square>) -> u128 {
    match sq {
        Some(s) => 1u128 << s as u32,
        None => 0,
    }
}

/// Horse moves from each square: for each orthogonal leg, the two points diagonally beyond it.
static HORSE_MOVES: [Blockables; 90] = {
    let mut t = [[NO_BLOCK; 4]; 90];
    let mut i = 0;
    while i < 90 {
        let sq = Square::from_index(i);
        let mut d = 0;
        while d < 4 {
            let (dx, dy) = ORTHO[d];
            if let Some(leg) = sq.offset(dx, dy) {
                // Beyond the leg, one more step forward and one to either side.
                let (a, b) = if dx != 0 {
                    (sq.offset(2 * dx, 1), sq.offset(2 * dx, -1))
                } else {
                    (sq.offset(1, 2 * dy), sq.offset(-1, 2 * dy))
                };
                t[i][d] = Blockable {
                    block: leg,
                    targets: Bitboard(bit(a) | bit(b)),
                };
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// Horses that attack each square: for each diagonal neighbour (the attacking horse's leg), the
/// two points a horse must stand on to strike through it.
static HORSE_ATTACKERS: [Blockables; 90] = {
    let mut t = [[NO_BLOCK; 4]; 90];
    let mut i = 0;
    while i < 90 {
        let sq = Square::from_index(i);
        let mut d = 0;
        while d < 4 {
            let (dx, dy) = DIAG[d];
            if let Some(leg) = sq.offset(dx, dy) {
                let a = sq.offset(2 * dx, dy);
                let b = sq.offset(dx, 2 * dy);
                t[i][d] = Blockable {
                    block: leg,
                    targets: Bitboard(bit(a) | bit(b)),
                };
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// Elephant moves: two points diagonally over the eye, never across the river.
static ELEPHANT_MOVES: [Blockables; 90] = {
    let mut t = [[NO_BLOCK; 4]; 90];
    let mut i = 0;
    while i < 90 {
        let sq = Square::from_index(i);
        let red_half = sq.rank().index() <= 4;
        let mut d = 0;
        while d < 4 {
            let (dx, dy) = DIAG[d];
            if let (Some(eye), Some(to)) = (sq.offset(dx, dy), sq.offset(2 * dx, 2 * dy))
                && (to.rank().index() <= 4) == red_half
            {
                t[i][d] = Blockable {
                    block: eye,
                    targets: Bitboard::from_square(to),
                };
            }
            d += 1;
        }
        i += 1;
    }
    t
};

const fn palace_of(sq: Square) -> Bitboard {
    if sq.in_palace(Color::Red) {
        Bitboard::RED_PALACE
    } else if sq.in_palace(Color::Black) {
        Bitboard::BLACK_PALACE
    } else {
        Bitboard::EMPTY
    }
}

const fn step_table(dirs: &[(i32, i32); 4]) -> [Bitboard; 90] {
    let mut t = [Bitboard::EMPTY; 90];
    let mut i = 0;
    while i < 90 {
        let sq = Square::from_index(i);
        let palace = palace_of(sq);
        let mut b = 0u128;
        let mut d = 0;
        while d < 4 {
            b |= bit(sq.offset(dirs[d].0, dirs[d].1));
            d += 1;
        }
        t[i] = Bitboard(b & palace.0);
        i += 1;
    }
    t
}

/// King steps inside the palace (empty outside a palace).
static KING_MOVES: [Bitboard; 90] = step_table(&ORTHO);
/// Advisor steps inside the palace (empty outside a palace).
static ADVISOR_MOVES: [Bitboard; 90] = step_table(&DIAG);

/// Pawn steps for each side: forward, and sideways once across the river.
static PAWN_MOVES: [[Bitboard; 90]; 2] = {
    let mut t = [[Bitboard::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let color = if c == 0 { Color::Red } else { Color::Black };
        let fwd = if c == 0 { 1 } else { -1 };
        let mut i = 0;
        while i < 90 {
            let sq = Square::from_index(i);
            let mut b = bit(sq.offset(0, fwd));
            if !sq.on_own_side(color) {
                b |= bit(sq.offset(1, 0)) | bit(sq.offset(-1, 0));
            }
            t[c][i] = Bitboard(b);
            i += 1;
        }
        c += 1;
    }
    t
};

/// Points from which a pawn of each side attacks each square.
static PAWN_ATTACKERS: [[Bitboard; 90]; 2] = {
    let mut t = [[Bitboard::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < 90 {
            let mut targets = PAWN_MOVES[c][from].0;
            while targets != 0 {
                let to = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                t[c][to].0 |= 1u128 << from;
            }
            from += 1;
        }
        c += 1;
    }
    t
};

/// The four diagonal neighbours of each square: the legs of horses attacking it.
static DIAGONAL_NEIGHBOURS: [Bitboard; 90] = {
    let mut t = [Bitboard::EMPTY; 90];
    let mut i = 0;
    while i < 90 {
        let sq = Square::from_index(i);
        let mut d = 0;
        while d < 4 {
            t[i].0 |= bit(sq.offset(DIAG[d].0, DIAG[d].1));
            d += 1;
        }
        i += 1;
    }
    t
};

/// Expands a [`Blockables`] table into one indexed by the occupancy of its four blockers, in the
/// bit order [`orthogonal_index`] or [`diagonal_index`] produces. `ortho` selects which.
const fn by_blockers(dirs: &[Blockables; 90], ortho: bool) -> [[Bitboard; 16]; 90] {
    let mut t = [[Bitboard::EMPTY; 16]; 90];
    let mut i = 0;
    while i < 90 {
        let sq = Square::from_index(i);
        // The blocker of each index bit, in the order of the index.
        let deltas: [(i32, i32); 4] = if ortho {
            [(0, -1), (-1, 0), (0, 1), (1, 0)]
        } else {
            [(-1, -1), (-1, 1), (1, -1), (1, 1)]
        };
        let mut idx = 0;
        while idx < 16 {
            let mut b = 0u128;
            let mut d = 0;
            while d < 4 {
                let dir = dirs[i][d];
                if dir.targets.0 != 0 {
                    // Which index bit covers this direction's blocker?
                    let mut k = 0;
                    while k < 4 {
                        if let Some(s) = sq.offset(deltas[k].0, deltas[k].1)
                            && s as u8 == dir.block as u8
                            && idx >> k & 1 == 0
                        {
                            b |= dir.targets.0;
                        }
                        k += 1;
                    }
                }
                d += 1;
            }
            t[i][idx] = Bitboard(b);
            idx += 1;
        }
        i += 1;
    }
    t
}

/// The occupancy of the four orthogonal neighbours of `sq` as a 4-bit index (below, left,
/// above, right). Off-board neighbours give arbitrary bits, which the tables ignore. The four
/// bits (0, 8, 10 and 18 once the board is shifted so that `sq` sits at bit 9) are gathered by
/// one multiplication: each lands on its own bit of the index, with no carries.
#[inline]
pub fn orthogonal_index(sq: Square, occ: Bitboard) -> usize {
    let x = ((occ.0 << 9) >> sq as u32) as u64 & 0x4_0501;
    ((x * 0x1_0205) >> 16 & 15) as usize
}

/// The occupancy of the four diagonal neighbours of `sq` as a 4-bit index (below left, above
/// left, below right, above right), gathered like [`orthogonal_index`] (bits 0, 2, 18, 20).
#[inline]
pub fn diagonal_index(sq: Square, occ: Bitboard) -> usize {
    let x = ((occ.0 << 10) >> sq as u32) as u64 & 0x14_0005;
    ((x * 0x2_0019) >> 17 & 15) as usize
}

static HORSE_BY_LEGS: [[Bitboard; 16]; 90] = by_blockers(&HORSE_MOVES, true);
static HORSE_ATTACKERS_BY_LEGS: [[Bitboard; 16]; 90] = by_blockers(&HORSE_ATTACKERS, false);
static ELEPHANT_BY_EYES: [[Bitboard; 16]; 90] = by_blockers(&ELEPHANT_MOVES, false);

/// Horse move directions from `sq` (leg and targets).
#[inline]
pub fn horse_moves(sq: Square) -> &'static Blockables {
    &HORSE_MOVES[sq as usize]
}

/// Points a horse on `sq` attacks given the occupancy.
#[inline]
pub fn horse_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    HORSE_BY_LEGS[sq as usize][orthogonal_index(sq, occ)]
}

/// Where horses must stand to attack `sq` (leg and origins), for the reverse lookup.
#[inline]
pub fn horse_attackers(sq: Square) -> &'static Blockables {
    &HORSE_ATTACKERS[sq as usize]
}

/// Points from which a horse attacks `sq` through an empty leg.
#[inline]
pub fn horse_attacker_squares(sq: Square, occ: Bitboard) -> Bitboard {
    HORSE_ATTACKERS_BY_LEGS[sq as usize][diagonal_index(sq, occ)]
}

/// Elephant move directions from `sq` (eye and target).
#[inline]
pub fn elephant_moves(sq: Square) -> &'static Blockables {
    &ELEPHANT_MOVES[sq as usize]
}

/// Points an elephant on `sq` reaches given the occupancy.
#[inline]
pub fn elephant_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    ELEPHANT_BY_EYES[sq as usize][diagonal_index(sq, occ)]
}

/// The targets of the unblocked directions (the slow form of the indexed tables).
#[inline]
pub fn blockable_attacks(dirs: &Blockables, occ: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for d in dirs {
        if !occ.contains(d.block) {
            out |= d.targets;
        }
    }
    out
}

/// King steps from `sq` inside its palace.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING_MOVES[sq as usize]
}

/// Advisor steps from `sq` inside its palace.
#[inline]
pub fn advisor_attacks(sq: Square) -> Bitboard {
    ADVISOR_MOVES[sq as usize]
}

/// Pawn steps of `color` from `sq`.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN_MOVES[color as usize][sq as usize]
}

/// Points from which a pawn of `color` attacks `sq`.
#[inline]
pub fn pawn_attackers(color: Color, sq: Square) -> Bitboard {
    PAWN_ATTACKERS[color as usize][sq as usize]
}

/// The diagonal neighbours of `sq`.
#[inline]
pub fn diagonal_neighbours(sq: Square) -> Bitboard {
    DIAGONAL_NEIGHBOURS[sq as usize]
}

/// Total size of the attack tables in bytes (the target is well under 4 MiB).
pub const TABLE_BYTES: usize = std::mem::size_of::<[[u16; 512]; 9]>() * 2
    + std::mem::size_of::<[[u16; 1024]; 10]>() * 2
    + std::mem::size_of::<[u128; 1024]>()
    + std::mem::size_of::<[Blockables; 90]>() * 3
    + std::mem::size_of::<[[Bitboard; 16]; 90]>() * 3
    + std::mem::size_of::<[Bitboard; 90]>() * 3
    + std::mem::size_of::<[[Bitboard; 90]; 2]>() * 2
    + std::mem::size_of::<[[Bitboard; 90]; 90]>()
    + std::mem::size_of::<[[Bitboard; 90]; 4]>()
    + std::mem::size_of::<[[Bitboard; 90]; 2]>()
    + std::mem::size_of::<[u128; 90]>();

#[cfg(test)]
mod tests {
    use super::*;

    // The slow reference: walk the board square by square with coordinates.
    fn on(occ: Bitboard, f: i32, r: i32) -> bool {
        occ.contains(Square::from_xy(f, r).unwrap())
    }

    fn slow_slider(sq: Square, occ: Bitboard, cannon: bool) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (mut f, mut r) = (sq.file().index() as i32, sq.rank().index() as i32);
            let mut screens = 0;
            loop {
                f += dx;
                r += dy;
                let Some(t) = Square::from_xy(f, r) else {
                    break;
                };
                if !cannon {
                    out.set(t);
                    if on(occ, f, r) {
                        break;
                    }
                } else if on(occ, f, r) {
                    screens += 1;
                    if screens == 2 {
                        out.set(t);
                        break;
                    }
                }
            }
        }
        out
    }

    fn slow_horse(sq: Square, occ: Bitboard) -> Bitboard {
        let (f, r) = (sq.file().index() as i32, sq.rank().index() as i32);
        let mut out = Bitboard::EMPTY;
        for (dx, dy) in [
            (1, 2),
            (2, 1),
            (-1, 2),
            (-2, 1),
            (1, -2),
            (2, -1),
            (-1, -2),
            (-2, -1),
        ] {
            let Some(t) = Square::from_xy(f + dx, r + dy) else {
                continue;
            };
            // The leg is the orthogonal neighbour in the direction of the long step.
            let (lx, ly) = if dx.abs() == 2 {
                (dx / 2, 0)
            } else {
                (0, dy / 2)
            };
            if !on(occ, f + lx, r + ly) {
                out.set(t);
            }
        }
        out
    }

    fn slow_elephant(sq: Square, occ: Bitboard) -> Bitboard {
        let (f, r) = (sq.file().index() as i32, sq.rank().index() as i32);
        let mut out = Bitboard::EMPTY;
        for (dx, dy) in [(2, 2), (2, -2), (-2, 2), (-2, -2)] {
            let Some(t) = Square::from_xy(f + dx, r + dy) else {
                continue;
            };
            let same_half = (r <= 4) == (r + dy <= 4);
            if same_half && !on(occ, f + dx / 2, r + dy / 2) {
                out.set(t);
            }
        }
        out
    }

    /// A deterministic stream of occupancies: sparse, dense, and everything in between.
    fn occupancies() -> Vec<Bitboard> {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut v = vec![Bitboard::EMPTY, Bitboard::FULL];
        for i in 0..400 {
            let a = (next() as u128) << 64 | next() as u128;
            let b = (next() as u128) << 64 | next() as u128;
            let c = (next() as u128) << 64 | next() as u128;
            let bits = match i % 4 {
                0 => a & b & c,
                1 => a & b,
                2 => a,
                _ => a | b,
            };
            v.push(Bitboard(bits) & Bitboard::FULL);
        }
        v
    }

    #[test]
    fn between_matches_coordinates() {
        for a in Square::ALL {
            for b in Square::ALL {
                let (af, ar) = (a.file().index() as i32, a.rank().index() as i32);
                let (bf, br) = (b.file().index() as i32, b.rank().index() as i32);
                let mut want = Bitboard::EMPTY;
                if af == bf {
                    for r in ar.min(br) + 1..ar.max(br) {
                        want.set(Square::from_xy(af, r).unwrap());
                    }
                } else if ar == br {
                    for f in af.min(bf) + 1..af.max(bf) {
                        want.set(Square::from_xy(f, ar).unwrap());
                    }
                }
                assert_eq!(between(a, b), want, "{a} {b}");
            }
        }
    }

    #[test]
    fn sliders_match_reference() {
        for occ in occupancies() {
            let rot = rotate(occ);
            for sq in Square::ALL {
                assert_eq!(
                    rook_attacks(sq, occ, rot),
                    slow_slider(sq, occ, false),
                    "rook {sq}"
                );
                assert_eq!(
                    cannon_attacks(sq, occ, rot),
                    slow_slider(sq, occ, true),
                    "cannon {sq}"
                );
            }
        }
    }

    /// The reverse cannon lookup: every point on a line of `sq` with exactly one piece
    /// between it and `sq` (whether or not a piece stands on the point itself).
    #[test]
    fn cannon_attacker_squares_match_reference() {
        for occ in occupancies() {
            let rot = rotate(occ);
            for sq in Square::ALL {
                let mut want = Bitboard::EMPTY;
                for p in lines(sq) {
                    if (between(p, sq) & occ).count() == 1 {
                        want.set(p);
                    }
                }
                assert_eq!(cannon_attacker_squares(sq, occ, rot), want, "{sq}");
            }
        }
    }

    #[test]
    fn every_line_pattern_matches_reference() {
        // Every occupancy of every rank and file, exhaustively.
        for sq in Square::ALL {
            let (f, r) = (sq.file().index() as u32, sq.rank().index() as u32);
            for o in 0..512u128 {
                let occ = Bitboard(o << (r * 9));
                let rot = rotate(occ);
                assert_eq!(rook_attacks(sq, occ, rot), slow_slider(sq, occ, false));
                assert_eq!(cannon_attacks(sq, occ, rot), slow_slider(sq, occ, true));
            }
            for o in 0..1024u128 {
                let mut occ = Bitboard::EMPTY;
                for rr in 0..10 {
                    if o >> rr & 1 != 0 {
                        occ.set(Square::from_index((rr * 9 + f) as usize));
                    }
                }
                let rot = rotate(occ);
                assert_eq!(rook_attacks(sq, occ, rot), slow_slider(sq, occ, false));
                assert_eq!(cannon_attacks(sq, occ, rot), slow_slider(sq, occ, true));
            }
        }
    }

    #[test]
    fn steppers_match_reference() {
        for occ in occupancies() {
            for sq in Square::ALL {
                assert_eq!(horse_attacks(sq, occ), slow_horse(sq, occ), "horse {sq}");
                assert_eq!(
                    horse_attacks(sq, occ),
                    blockable_attacks(horse_moves(sq), occ)
                );
                assert_eq!(
                    elephant_attacks(sq, occ),
                    blockable_attacks(elephant_moves(sq), occ)
                );
                assert_eq!(
                    elephant_attacks(sq, occ),
                    slow_elephant(sq, occ),
                    "elephant {sq}"
                );
                // Reverse horse lookup agrees with the forward one.
                let rev: Bitboard = Square::ALL
                    .into_iter()
                    .filter(|&h| slow_horse(h, occ).contains(sq))
                    .collect();
                assert_eq!(horse_attacker_squares(sq, occ), rev, "horse attackers {sq}");
            }
        }
        // Every leg pattern around every square, exhaustively.
        for sq in Square::ALL {
            let ring: Vec<Square> = (-1..=1)
                .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
                .filter_map(|(dx, dy)| sq.offset(dx, dy))
                .filter(|&s| s != sq)
                .collect();
            for mask in 0..(1u32 << ring.len()) {
                let occ: Bitboard = ring
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask >> i & 1 != 0)
                    .map(|(_, s)| *s)
                    .collect();
                assert_eq!(horse_attacks(sq, occ), slow_horse(sq, occ));
                assert_eq!(elephant_attacks(sq, occ), slow_elephant(sq, occ));
            }
        }
    }

    #[test]
    fn palace_and_pawn_steps() {
        for sq in Square::ALL {
            let (f, r) = (sq.file().index() as i32, sq.rank().index() as i32);
            for color in Color::ALL {
                let mut king = Bitboard::EMPTY;
                let mut advisor = Bitboard::EMPTY;
                if sq.in_palace(color) {
                    for t in Square::ALL {
                        let (tf, tr) = (t.file().index() as i32, t.rank().index() as i32);
                        if !t.in_palace(color) {
                            continue;
                        }
                        if (tf - f).abs() + (tr - r).abs() == 1 {
                            king.set(t);
                        }
                        if (tf - f).abs() == 1 && (tr - r).abs() == 1 {
                            advisor.set(t);
                        }
                    }
                    assert_eq!(king_attacks(sq), king);
                    assert_eq!(advisor_attacks(sq), advisor);
                }
                let fwd = if color == Color::Red { 1 } else { -1 };
                let mut pawn = Bitboard::EMPTY;
                if let Some(t) = Square::from_xy(f, r + fwd) {
                    pawn.set(t);
                }
                let crossed = if color == Color::Red { r >= 5 } else { r <= 4 };
                if crossed {
                    for dx in [-1, 1] {
                        if let Some(t) = Square::from_xy(f + dx, r) {
                            pawn.set(t);
                        }
                    }
                }
                assert_eq!(pawn_attacks(color, sq), pawn);
                for t in Square::ALL {
                    assert_eq!(
                        pawn_attackers(color, sq).contains(t),
                        pawn_attacks(color, t).contains(sq)
                    );
                }
            }
        }
    }

    // The attack tables stay well under 4 MiB (checked at compile time).
    const _: () = assert!(TABLE_BYTES < 4 << 20);
}
