//! Rule profiles: every option of RULES.md as a field, so that an event's settings can be kept in
//! a file (serde). [`Profile::cxa`] (the default) follows the Chinese Xiangqi Association rules,
//! [`Profile::axf`] the Asian/World federation rules.

use serde::{Deserialize, Serialize};

/// Which verdict table rules on repetition cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VerdictTable {
    /// RULES.md §3, the CXA table (perpetual check, forbidden versus allowed, single-piece versus
    /// joint chase).
    Cxa,
    /// RULES.md §3, AXF severity order: perpetual check > perpetual chase > everything else.
    Axf,
}

/// Piece values for deciding whether a line wins material (RULES.md §1). Only the ratios matter:
/// rook = 2 × horse = 2 × cannon, advisor = elephant. A crossed pawn "floats": it is counted
/// apart from the pieces, so that one pawn for a piece, or a piece for several pawns, is never a gain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PieceValues {
    pub rook: i32,
    pub horse: i32,
    pub cannon: i32,
    pub advisor: i32,
    pub elephant: i32,
    /// Used only to choose between recaptures in an exchange; the gain test counts pawns apart.
    pub pawn: i32,
}

impl Default for PieceValues {
    fn default() -> Self {
        PieceValues {
            rook: 10,
            horse: 5,
            cannon: 5,
            advisor: 2,
            elephant: 2,
            pawn: 2,
        }
    }
}

/// All settings of the rule engine. Unknown fields in a settings file are errors; missing ones
/// take the defaults of the CXA profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Profile {
    /// Profile name as printed in reports ("cxa", "axf", or an event's own name).
    pub name: String,
    /// Verdict table for repetition cycles.
    pub table: VerdictTable,
    /// Piece values (RULES.md §1).
    pub values: PieceValues,
    /// Mate-threat search: the attacker's moves (all checks) searched at most (RULES.md §2,
    /// default 9).
    pub mate_ply_cap: u32,
    /// "Win by a series of checks" (抽将) form of a chase: the checks searched at most before the
    /// capture (default 2).
    pub chase_check_cap: u32,
    /// Node budget of one forcing search; when it runs out the nature is `undetermined`
    /// (default 200,000).
    pub node_budget: u64,
    /// A recapture, or a capture by the chaser, after which the other side mates by checks within
    /// this many moves, does not count (假根 "loses at once to mate"; 5. safety). Default 3.
    pub refutation_mate_cap: u32,
    /// A move that answers a check is idle unless it checks (RULES.md §2: a threat that appears
    /// because the general answered a check is idle). `true`: any answer to a check;
    /// `false`: only moves of the general.
    pub answer_to_check_any_piece: bool,
    /// CXA special case: a chasing piece whose capture costs more elsewhere than it wins (it was
    /// the only protector of something, or shielded it on its line) does not chase. The cost is
    /// what the opponent can newly win by one capture after the chaser's capture.
    pub capturer_duties: bool,
    /// The general or a pawn attacking by itself is idle (CXA); joint threats remain chases.
    pub king_pawn_alone_idle: bool,
    /// Winning a pawn that has just crossed the river (the opponent's last move took it across)
    /// is not a gain, so threatening it is no chase (RULES.md §1). `false` makes it count like any
    /// crossed pawn.
    pub just_crossed_pawn_is_no_gain: bool,
    /// A mate threat counts as forbidden (CXA: 长杀 is forbidden; AXF: perpetual mate threat is
    /// allowed).
    pub mate_threat_forbidden: bool,
    /// AXF: a perpetual chase needs one and the same enemy piece chased on every move of the
    /// cycle (one piece chasing different pieces in turn is allowed). CXA: any pieces (长捉 =
    /// chasing one or several pieces).
    pub chase_needs_same_target: bool,
    /// AXF: a pattern mixing checks and chases (一将一捉) is allowed.
    pub check_chase_mix_allowed: bool,
    /// CXA: when both sides' patterns are forbidden, a side whose every move is a chase by a single
    /// piece must vary against a side with at least one joint chase.
    pub single_vs_joint: bool,
    /// The occurrence at which the rulebook rules (default 3: three cycles). The verdict is shown
    /// from the first repetition, with the occurrence count.
    pub ruling_occurrence: u32,
    /// Tournament overlay: within the first `overlay_moves` moves (回合) of a game played from the
    /// initial array, a cycle whose verdict would be a draw is instead "Red must vary". Rulebook
    /// diagrams (games set up from another position) are never affected. On for CXA events.
    pub tournament_overlay: bool,
    /// Moves (回合) covered by the tournament overlay (default 25).
    pub overlay_moves: u32,
}

impl Default for Profile {
    fn default() -> Self {
        Profile::cxa()
    }
}

impl Profile {
    /// Chinese Xiangqi Association rules (2011, restated 2020).
    pub fn cxa() -> Profile {
        Profile {
            name: "cxa".into(),
            table: VerdictTable::Cxa,
            values: PieceValues::default(),
            mate_ply_cap: 9,
            chase_check_cap: 2,
            node_budget: 200_000,
            refutation_mate_cap: 3,
            answer_to_check_any_piece: true,
            capturer_duties: true,
            king_pawn_alone_idle: true,
            just_crossed_pawn_is_no_gain: true,
            mate_threat_forbidden: true,
            chase_needs_same_target: false,
            check_chase_mix_allowed: false,
            single_vs_joint: true,
            ruling_occurrence: 3,
            tournament_overlay: true,
            overlay_moves: 25,
        }
    }

    /// Asian / World Xiangqi federation rules.
    pub fn axf() -> Profile {
        Profile {
            name: "axf".into(),
            table: VerdictTable::Axf,
            mate_threat_forbidden: false,
            chase_needs_same_target: true,
            check_chase_mix_allowed: true,
            single_vs_joint: false,
            tournament_overlay: false,
            capturer_duties: false,
            just_crossed_pawn_is_no_gain: false,
            ..Profile::cxa()
        }
    }

    /// The profile named `name` ("cxa" or "axf").
    pub fn by_name(name: &str) -> Option<Profile> {
        match name.to_ascii_lowercase().as_str() {
            "cxa" => Some(Profile::cxa()),
            "axf" => Some(Profile::axf()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_round_trip_through_json() {
        for p in [Profile::cxa(), Profile::axf()] {
            let text = serde_json::to_string(&p).unwrap();
            let back: Profile = serde_json::from_str(&text).unwrap();
            assert_eq!(p, back);
        }
        let partial: Profile = serde_json::from_str(r#"{"name":"club","mate_ply_cap":5}"#).unwrap();
        assert_eq!(partial.mate_ply_cap, 5);
        assert_eq!(partial.table, VerdictTable::Cxa);
        assert!(serde_json::from_str::<Profile>(r#"{"bogus":1}"#).is_err());
    }
}
