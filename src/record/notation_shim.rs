//! TEMPORARY stand-in for `crate::notation` (ICCS only) until the notation module lands on main.
//! Same API as the contract; replaced by `crate::notation` on merge.
#![allow(dead_code)]

use crate::position::Position;
use crate::types::Move;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Notation {
    Iccs,
    Wxf,
    Chinese,
}

impl std::str::FromStr for Notation {
    type Err = String;
    fn from_str(s: &str) -> Result<Notation, String> {
        match s.to_ascii_lowercase().as_str() {
            "iccs" => Ok(Notation::Iccs),
            "wxf" => Ok(Notation::Wxf),
            "chinese" => Ok(Notation::Chinese),
            _ => Err(format!("unknown notation '{s}'")),
        }
    }
}

pub struct ParsedMove {
    pub mv: Move,
    pub resolved_by_legality: bool,
}

#[derive(Debug)]
pub struct MoveError {
    kind: &'static str,
    message: String,
}

impl MoveError {
    pub fn kind(&self) -> &'static str {
        self.kind
    }
    pub fn suggestions(&self) -> Vec<String> {
        Vec::new()
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

pub fn parse_move(pos: &Position, text: &str, notation: Notation) -> Result<ParsedMove, MoveError> {
    if notation != Notation::Iccs {
        return Err(MoveError {
            kind: "syntax",
            message: "notation not available yet".into(),
        });
    }
    let mv = Move::parse_iccs(text).ok_or_else(|| MoveError {
        kind: "syntax",
        message: format!("'{text}' is not an ICCS move"),
    })?;
    if pos.piece_at(mv.from).is_none_or(|p| p.color != pos.turn()) {
        return Err(MoveError {
            kind: "no_piece",
            message: format!("no piece of the side to move on {}", mv.from),
        });
    }
    if !pos.is_legal(mv) {
        return Err(MoveError {
            kind: "illegal_movement",
            message: format!("{mv} is not legal"),
        });
    }
    Ok(ParsedMove {
        mv,
        resolved_by_legality: false,
    })
}

pub fn print_move(_pos: &Position, m: Move, _notation: Notation) -> String {
    m.to_string()
}

pub fn sniff(text: &str) -> Option<Notation> {
    Move::parse_iccs(text).map(|_| Notation::Iccs)
}
