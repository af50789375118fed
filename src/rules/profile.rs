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

/// How the occurrences of a repeated position are counted toward the ruling (RULES.md §3, "when
/// to rule").
///
/// The rulebook rules when "双方走棋出现循环反复三次" (the moves of both sides go round the
/// cycle again and again, three times: 《象棋竞赛规则》, chapter on 和棋, "符合棋例中不变作和的
/// 有关规定"; and in the arbiter's part on 待判局面: "在对局中出现双方着法循环反复三次，一方棋手
/// 要求裁决，称为待判局面"). What repeats is the loop of moves, not the position alone: a position
/// that stood on the board earlier, reached by another route, is no turn of the loop. Hence the
/// default [`OccurrenceCounting::AlongLoop`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OccurrenceCounting {
    /// Only the consecutive turns of the loop count: the position at the end of the cycle and
    /// its earlier stands one, two ... loop lengths back, as long as every position in between
    /// repeated the loop (the default, following the rulebook's 着法循环反复).
    #[default]
    AlongLoop,
    /// Every time the position stood on the board counts, by whatever route it was reached.
    EveryVisit,
}

impl OccurrenceCounting {
    pub fn name(self) -> &'static str {
        match self {
            OccurrenceCounting::AlongLoop => "along_loop",
            OccurrenceCounting::EveryVisit => "every_visit",
        }
    }
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
    ///
    /// Rulebook clause: RULES.md §2, 杀 and "mate threat depth"; CXA 2020 第24条 24.2.
    pub mate_ply_cap: u32,
    /// "Win by a series of checks" (抽将) form of a chase: the checks searched at most before the
    /// capture (default 2).
    ///
    /// Rulebook clause: RULES.md §2 chase 1 (form: 抽将); CXA 2020 第24条 24.3 (从下一着开始运用将军或连续将军得子).
    pub chase_check_cap: u32,
    /// The "win by a series of checks" form of a chase read per defence (RULES.md §2.1, 抽将): a
    /// check after which every reply loses a piece or is mated threatens the pieces lost, even
    /// when no one piece is lost on every defence (a joint chase of checking piece and capturer;
    /// CXA 参考图41). `false` (AXF, as `two_step_wins`): a win by checks needs one piece won
    /// against every defence (AXF diagram 87: a cannon whose rook in front could give a
    /// discovered check is not chasing what each defence would lose).
    ///
    /// Rulebook clause: RULES.md §2 chase 1 (form: 抽将); CXA 2020 第24条 24.3.
    pub checks_win_per_defence: bool,
    /// For `checks_win_per_defence`: a defence that loses no material counts as lost when the
    /// checking side then mates by checks within this many moves (default 1: the defence is
    /// mated at once, as the general stepping up into Rg8 mate in CXA 参考图41; deeper values
    /// cost a mate search after every defence of every check).
    ///
    /// Rulebook clause: RULES.md §2 chase 1 (form: 抽将) and 5 (safety).
    pub per_defence_mate_cap: u32,
    /// Node budget of one forcing search; when it runs out the nature is `undetermined`
    /// (default 200,000).
    ///
    /// Rulebook clause: RULES.md §2, "mate threat depth": undetermined rather than guessed.
    pub node_budget: u64,
    /// A recapture, or a capture by the chaser, after which the other side mates by checks within
    /// this many moves, does not count (假根 "loses at once to mate"; 5. safety). Default 3.
    ///
    /// Rulebook clause: RULES.md §2 chase 3 (假根: the recapture loses at once to mate) and 5 (safety); CXA 2020 第24条 24.3 (不致立即被对方将死).
    pub refutation_mate_cap: u32,
    /// Which answers to a check are idle whatever they threaten (unless they check). `false`
    /// (the default, CXA): only the general's own moves. The CXA rulebook (《象棋竞赛规则》
    /// 2020, 第六章 棋例, 第24条 24.3) defines 捉 by what the move makes possible after it, with
    /// no exemption for a move that answers a check; the one answer it rules idle is the
    /// general's (图13: 车五平六 checks, the general's step 将4平5 is 闲 although Black's rook
    /// then threatens mate: a state Red brought on himself, 红方自毙), in line with 第27条
    /// (棋例通则: the general's own threats are idle, 帅(将)本身步步叫吃…按闲着处理). So an
    /// advisor or any other piece that blocks a check, and so makes a new threat, chases (a real
    /// national-championship cycle charges a chase to an advisor that blocked a check); a threat
    /// that stood before the check and was only held back by it is not new (参考图19). Source:
    /// the CXA 2020 rules as published with the rulebook diagrams
    /// (github.com/ianfab/Fairy-Stockfish/files/8418924/2020.pdf and
    /// .../8418928/default.pdf, 图13); RULES.md §2 exempts only the general. `true`: every answer
    /// to a check is idle unless it checks (a looser reading some events use).
    pub answer_to_check_any_piece: bool,
    /// CXA special case: a chasing piece whose capture costs more elsewhere than it wins (it was
    /// the only protector of something, or shielded it on its line) does not chase. The cost is
    /// what the opponent can newly win by one capture after the chaser's capture.
    ///
    /// Rulebook clause: RULES.md §2, special cases (a chasing piece that is the only protector of something).
    pub capturer_duties: bool,
    /// With `capturer_duties`: the duty of a capturer that is the only protector of a piece
    /// (the ward) holds back its threat only while the opponent's last move made the attack on
    /// the ward; a ward that stood attacked before leaves the threat as such (a chase when new),
    /// though the capture cannot really be made at once. CXA 图22: the rook sliding along its
    /// rank, still the only protector of its horse that the enemy rook attacks, chases the
    /// crossed pawn; 图12: the cannon the red rook has just attacked steps away and so frees
    /// its rook's threat on the pawn, a chase. A piece shielded on a line (a pin, 图23) always
    /// counts. `false`: every duty holds back the threat.
    ///
    /// Rulebook clause: RULES.md §2, special cases (the only protector); CXA 图12, 图22, 图23.
    pub duty_needs_fresh_attack: bool,
    /// With `capturer_duties`: a ward (a piece the capturer protected or shielded, which stood
    /// safe) whose loss held back the capturer's capture (the capture cost the ward, at least
    /// as much as it wins) and that steps out of reach makes the capture real: a chase by the
    /// move, charged to the capturer (相关子造成捉). CXA 参考图16: the pawn attacked on e6 steps
    /// to d6 and frees the rook that protected it to take the crossed pawn f3 (长捉). A piece
    /// that hung whatever the capture (under-protected, or not kept by the capturer) is no
    /// ward: its escape is an evasion (参考图21, 参考图37: idle). `false`: such an escape is
    /// idle.
    ///
    /// Rulebook clause: RULES.md §2, special cases (the only protector), §2.2; CXA 参考图16.
    pub ward_escape_frees_protector: bool,
    /// An enemy piece that stands in an exchange (兑) with one of the mover's pieces of the same
    /// value (each can take the other, and the opponent, taking first, loses nothing) is not
    /// chased by the other pieces that attack it: the opponent can always trade it, so adding
    /// an attacker presses the exchange offer (RULES.md §2: 兑 is idle-class). CXA 图21: the red
    /// rook joining the horse on f5 against the horse on h6 is 兑, not 捉. `false`: such a piece
    /// is chased like any other.
    ///
    /// Rulebook clause: RULES.md §2 (兑 is idle-class); CXA 2020 第24条 24.4.
    pub exchange_pair_is_no_chase: bool,
    /// A mate threat that the mover already had before the move (it could have mated by checks
    /// instead) is not a new mate threat; the move is then judged as chase or idle.
    ///
    /// Rulebook clause: RULES.md §2 chase 2 (newness), applied to 杀.
    pub mate_threat_needs_newness: bool,
    /// Newness (RULES.md §2.2): a threat on a piece that another piece already had is still new
    /// when a further piece joins the attack (a new attacker); the same piece moving on while
    /// keeping its attack is idle (从捉到捉).
    ///
    /// Rulebook clause: RULES.md §2 chase 2 (newness).
    pub new_attacker_is_new: bool,
    /// A check that at the same time makes a new chase also counts as a chase of that piece when
    /// judging a perpetual chase (AXF); its nature stays `check`. Only threats to win the piece
    /// by a capture or an exchange count: after a check, a threat to win by a further series of
    /// checks is the checking attack itself (alternating check and chase is allowed in AXF).
    ///
    /// Rulebook clause: RULES.md §3, AXF profile differences (alternating check and chase).
    pub check_may_chase: bool,
    /// A mate threat that at the same time makes a new chase also counts as a chase of that piece
    /// when judging a perpetual chase; its nature stays `mate_threat` (AXF: perpetual mate threat
    /// is allowed, but a cannon that threatens mate while chasing a piece that cannot escape is a
    /// perpetual chase, AXF diagrams 53 and 56).
    ///
    /// Rulebook clause: RULES.md §3, AXF profile differences (perpetual mate threat allowed).
    pub mate_threat_may_chase: bool,
    /// A move that ends an enemy rook's or cannon's attack along a line on one of the mover's
    /// pieces (by interposing, or by taking a cannon's screen away) is a block (拦) even when the
    /// same line also carried that enemy piece's protection of a piece behind (an x-ray through
    /// the attacked piece): the piece that loses that protection is not chased, because the
    /// attack cannot be blocked without also blocking the protection. `true` (AXF rule 19,
    /// diagrams 39-41: the black rook held by the red horse is attacked along the rank; the
    /// advisor that blocks the attack also blocks the rank's protection of the horse, and Black
    /// is not chasing the horse; diagram 61 likewise). `false`: such a cut root is a chase.
    ///
    /// Rulebook clause: AXF rules, rule 19 (block); RULES.md §2 special cases (断根).
    pub line_defence_is_block: bool,
    /// A counter-attack by checks that, after the capture, wins back at least what the capture
    /// won makes the capture unsound (a root by checks). `false` (AXF): protection is a direct
    /// recapture; a capture that gives a discovered check cannot be recaptured and wins the piece
    /// (AXF engine tests: discovered-check capture threats).
    ///
    /// Rulebook clause: RULES.md §2 chase 3 (protection judged after the capture).
    pub counter_checks_refute: bool,
    /// Safety of a capture against a counter mate threat (RULES.md §2.1, a win must net
    /// material, and §2.5, safety; the book's "return to a key defensive point"): after the
    /// capture, a quiet move of the opponent (no capture, no check) that threatens mate by checks
    /// within this many moves, and that the capturer can parry only by giving back at least what
    /// it won, or not at all, makes the capture no win, so the threat to make it is no chase
    /// (CXA 图18: the rook returning to e4 also attacks the unprotected elephant on e7, but after
    /// Rxe7 the general's step to d9 threatens Rxd2 mate, which only the rook on e4 could parry
    /// at no cost, by Rd4+; the book calls the return idle). Looked for only on the targets a
    /// move would otherwise chase. 0: off (AXF, which counts no counter-attack by checks either,
    /// `counter_checks_refute`). Default 1: a quiet move threatening mate in one, the commonest
    /// 杀; each quiet move of the opponent is tried, so deeper values cost a mate search per move
    /// (on the speed corpus 3 costs about twice the time of the whole analysis, 1 about a fifth).
    ///
    /// Rulebook clause: RULES.md §2 chase 1 (a win nets material) and 5 (safety).
    pub counter_threat_mate_cap: u32,
    /// What newness (RULES.md §2.2) compares: the attack (AXF) or the win (CXA). `true` (AXF):
    /// a threat is new only when the attack is new: a capture of the piece that was legal before
    /// the move and won material by the exchange on its square is an old attack even when it
    /// could not safely be made then (a mate by checks followed it, §2.5), so a move that only
    /// makes such a capture safe (a screen or capturer stepping out of an attack, a piece
    /// covering the mating line) continues the attack: no new chase. AXF diagrams 100-103: the
    /// black rook escaping a perpetual offer along its cannon's file, which so makes the
    /// capture of the red rook safe, is not chasing. `false` (CXA): newness is judged on the
    /// win: a capture that could not be made safely is no threat (§2.1 "could win", §2.5), so
    /// the move that makes it safe, when the moved piece takes part, makes a new threat, a chase
    /// (CXA 参考图35: the rook that parries the mate and keeps the capture chases; 图10). This
    /// is the only difference between the two readings: the safety of the threat after the move
    /// is tested in both. Constructed positions: `nature::newness` tests
    /// (`an_escape_that_makes_a_standing_attack_safe_is_new_only_on_the_win` and the next three).
    ///
    /// Rulebook clause: RULES.md §2 chase 2 (newness) and 5 (safety); AXF rules (a chase is a
    /// new attack; diagrams 100-103); CXA 2020 第24条 24.3 (捉: the move makes it possible to win
    /// the piece next move) with 参考图35.
    pub newness_ignores_safety: bool,
    /// A mutual attack of two equal pieces is an exchange offer (兑, idle-class, RULES.md §2)
    /// only when the opponent can really accept it: taking first does not lose to mate by checks
    /// (the false-root test of §2.3 applied to the exchange). An offer that cannot be accepted
    /// leaves a plain threat to win the piece (CXA 参考图49: the black cannon cannot take the red
    /// cannon that attacks it, since a horse check would then mate). `false` (AXF): a mutual
    /// attack of equals is an exchange offer whatever follows (AXF orange 75 and 151).
    ///
    /// Rulebook clause: RULES.md §2 chase 3 (false root) applied to 兑; CXA 2020 第24条 24.4 (不致立即被将死).
    pub exchange_needs_acceptance: bool,
    /// A piece with a real protector is chased when winning it takes a longer exchange (more
    /// attackers than protectors: 少根, under-protection). `false` (AXF): a protected piece is
    /// chased only when the first capture already wins material (the capturer is worth less than
    /// the target, as a horse or cannon on a rook); AXF diagrams 87 and 89: two attackers on a
    /// piece protected once is no chase.
    ///
    /// Rulebook clause: RULES.md §2 chase 3 (少根) and 4 (net gain beats protection).
    pub under_protection_chases: bool,
    /// A piece is won, and so chased, when capturing it wins material against every reply
    /// counting one more capture by the chaser (RULES.md §2.1 "a complete exchange that nets
    /// material", §2.3 "protection is judged after the capture"): a recapture that removes the
    /// protector of another piece (an overloaded protector, trading off a root, 兑掉根子) or
    /// that the chaser's capture answers by winning a piece it attacked with gain of tempo is no
    /// real protection. `false` (AXF, as `under_protection_chases`): a protected piece is won
    /// only by the exchange on its own square.
    ///
    /// Rulebook clause: RULES.md §2 chase 1 (a complete exchange that nets material) and 3 (protection judged after the capture).
    pub two_step_wins: bool,
    /// Safety of a capture (RULES.md §2.5) when the opponent stands threatening mate: the mate
    /// after the capture is looked for to `mate_ply_cap` (the depth of the mate threat), not
    /// only to `refutation_mate_cap`. A piece that can be taken only by letting the opponent
    /// carry out his mate threat is not under threat; parrying the mate while keeping the
    /// capture is then a chase (CXA 参考图35). `false`: always `refutation_mate_cap`.
    ///
    /// Rulebook clause: RULES.md §2 chase 5 (safety).
    pub safety_sees_standing_mate: bool,
    /// Newness (RULES.md §2.2): a direct threat (capture or exchange) on a piece that before the
    /// move could only be won by a series of checks (抽将) is a new threat. `false`: any earlier
    /// threat on the piece, whatever its form, makes the direct threat a continuing one.
    ///
    /// Rulebook clause: RULES.md §2 chase 2 (newness).
    pub direct_threat_renews_check_threat: bool,
    /// Newness (RULES.md §2.2) and cutting a root (断根, §2 special cases): a capture that the
    /// opponent can answer by winning back material by a series of checks (less than the
    /// capture wins, or it would be no threat; whether or not he could make those checks before
    /// the capture, but not the win of a piece he could take anyway by a direct capture) has
    /// a root by checks, and a move that stops those checks (the piece moved
    /// is needed: taken off the board, the checks come back) makes the threat on the piece a
    /// new one, a chase of the capturer alone (an unrooted piece). CXA 图3: the red elephant
    /// going to g0 blocks the rook's Rh0+, with which Black answers Rxc1; the book calls the
    /// elephant moves 长捉无根子. Needs `counter_checks_refute` (the win-back by checks is read
    /// only then). `false`: a threat that could be carried out before the move continues
    /// whatever root by checks the move cuts (从捉到捉).
    ///
    /// Rulebook clause: RULES.md §2 chase 2 (newness) and special cases (断根).
    pub cut_check_root_is_new: bool,
    /// The general or a pawn attacking by itself is idle (CXA); joint threats remain chases.
    ///
    /// Rulebook clause: RULES.md §2, special cases (the general or a pawn attacking by itself); CXA 2020 第27条.
    pub king_pawn_alone_idle: bool,
    /// Mutual forbidden play (互打): when one side's pattern is forbidden and the other side's
    /// would be too if a pawn's threats by itself (made by the pawn's own move: 兵本身步步叫吃;
    /// CXA 图29, where the rook's moves leave a pawn's attack that the book does not count, stays
    /// 长兑 against 长杀) counted as chases, they count, and the cycle
    /// is judged as both sides playing forbidden moves (a draw, or the single-piece chaser
    /// varies against a joint chase). A pawn attacking by itself is otherwise idle
    /// (`king_pawn_alone_idle`); the general's own threats stay idle in every case. `true`
    /// (CXA), `false` (AXF, where pawn chases are allowed anyway: `king_pawn_chase_allowed`).
    ///
    /// Rulebook clause: CXA 2020 第27条 棋例通则: "兵（卒）本身捉吃对方的棋子（不含将杀），按闲
    /// 处理；如形成相互长打局面，则应按捉处理" (a pawn's own attack is idle; where it makes a
    /// mutual perpetual attack, it counts as a chase); RULES.md §2 special cases and §3 (both
    /// sides forbidden).
    pub pawn_chases_in_mutual_play: bool,
    /// Winning a pawn that has just crossed the river (the opponent's last move took it across)
    /// is not a gain, so threatening it is no chase (RULES.md §1). `false` makes it count like any
    /// crossed pawn.
    ///
    /// Rulebook clause: RULES.md §1 (a crossed pawn floats).
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
    /// AXF: chases by the general or a pawn are allowed: a chase target whose every chasing
    /// piece (the capturer and the pieces taking part) is a general or a pawn does not count
    /// toward a perpetual chase (RULES.md §3, AXF differences; AXF diagrams 67-70, and 71-75 for
    /// the joint chases that still count). CXA: `false` (there the general or a pawn attacking
    /// by itself is idle already, `king_pawn_alone_idle`).
    pub king_pawn_chase_allowed: bool,
    /// AXF: chasing a protected piece is allowed: a target won only by an exchange on its
    /// square (`WinHow::Exchange`) counts toward a perpetual chase only when the capturer is
    /// worth less than the target, as a horse or cannon on a rook, which is forbidden whether
    /// or not the rook is protected (RULES.md §3, AXF differences; AXF diagrams 29, 31, 87 and
    /// 89). CXA: `false` (a chase of an under-protected piece counts, RULES.md §2.3).
    pub protected_chase_allowed: bool,
    /// AXF: threatening to "check and capture" (抽将: to win a piece by a series of checks ending
    /// in its capture) is allowed: a chase target won only by checks ([`WinHow::Checks`]) does not
    /// count toward a perpetual chase. AXF rule 38: "Perpetually threatening to 'check and
    /// capture' is a draw" (diagrams 97 and 98: the cannon stepping back and forth on a9/a8,
    /// each time threatening a discovered check that wins a piece, is no perpetual chase); the
    /// same holds when such threats alternate with direct ones (orange 24) or stand beside a
    /// perpetual mate threat, itself allowed (orange 14). CXA: `false` (捉 includes the win by
    /// checks, 第24条 24.3 "运用将军或连续将军得子", and 长捉 of that kind is forbidden).
    ///
    /// [`WinHow::Checks`]: crate::rules::WinHow::Checks
    pub check_and_capture_allowed: bool,
    /// AXF: whether one piece is chased throughout (`chase_needs_same_target`) is judged over the
    /// whole repeated play, not only the shortest loop: from the earliest stand of the repeated
    /// position that is joined to the current one by stands of it at most two loop lengths
    /// apart. AXF rule 32: "One piece perpetually chases two pieces or more should be ruled as a
    /// draw. Two pieces take turns to perpetually chase two or more pieces also should be ruled a
    /// draw" (diagram 80: two rooks chasing two cannons in turn; where one rook chases its
    /// cannon for a whole loop and then the other rook its own, each shortest loop alone shows
    /// one rook chasing one cannon, but the repetition as a whole is two pieces chasing two in
    /// turn). `false`: the shortest loop alone.
    pub chase_in_turn_over_repetition: bool,
    /// CXA: when both sides' patterns are forbidden, a side whose every move is a chase by a single
    /// piece must vary against a side with at least one joint chase.
    pub single_vs_joint: bool,
    /// The occurrence at which the rulebook rules (default 3: three cycles). The verdict is shown
    /// from the first repetition, with the occurrence count.
    pub ruling_occurrence: u32,
    /// How occurrences are counted toward `ruling_occurrence` (default: along the loop only; see
    /// [`OccurrenceCounting`] for the rulebook's words). Cycles report both counts.
    pub occurrence_counting: OccurrenceCounting,
    /// Tournament overlay: within the first `overlay_moves` moves (回合) of a game played from the
    /// initial array, a cycle whose verdict would be a draw is instead "Red must vary". Rulebook
    /// diagrams (games set up from another position) are never affected. This is an event's
    /// regulation (for example the 2020 national individual championship: no draw offers within
    /// 25 moves, and a drawn cycle there means Red must vary), not a rule of the CXA rulebook:
    /// off in both built-in profiles, on through an event file (`events/`, [`crate::rules::event`])
    /// or `--overlay`.
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
            checks_win_per_defence: true,
            per_defence_mate_cap: 1,
            node_budget: 200_000,
            refutation_mate_cap: 3,
            answer_to_check_any_piece: false,
            capturer_duties: true,
            duty_needs_fresh_attack: true,
            ward_escape_frees_protector: true,
            exchange_pair_is_no_chase: true,
            mate_threat_needs_newness: false,
            new_attacker_is_new: true,
            check_may_chase: false,
            mate_threat_may_chase: false,
            line_defence_is_block: false,
            counter_checks_refute: true,
            counter_threat_mate_cap: 1,
            newness_ignores_safety: false,
            exchange_needs_acceptance: true,
            under_protection_chases: true,
            two_step_wins: true,
            safety_sees_standing_mate: true,
            direct_threat_renews_check_threat: false,
            cut_check_root_is_new: true,
            king_pawn_alone_idle: true,
            pawn_chases_in_mutual_play: true,
            just_crossed_pawn_is_no_gain: true,
            mate_threat_forbidden: true,
            chase_needs_same_target: false,
            check_chase_mix_allowed: false,
            single_vs_joint: true,
            king_pawn_chase_allowed: false,
            protected_chase_allowed: false,
            check_and_capture_allowed: false,
            chase_in_turn_over_repetition: false,
            ruling_occurrence: 3,
            occurrence_counting: OccurrenceCounting::AlongLoop,
            tournament_overlay: false,
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
            king_pawn_chase_allowed: true,
            protected_chase_allowed: true,
            check_and_capture_allowed: true,
            chase_in_turn_over_repetition: true,
            capturer_duties: false,
            check_may_chase: true,
            mate_threat_may_chase: true,
            line_defence_is_block: true,
            counter_checks_refute: false,
            counter_threat_mate_cap: 0,
            newness_ignores_safety: true,
            exchange_needs_acceptance: false,
            under_protection_chases: false,
            two_step_wins: false,
            checks_win_per_defence: false,
            direct_threat_renews_check_threat: true,
            cut_check_root_is_new: false,
            just_crossed_pawn_is_no_gain: false,
            pawn_chases_in_mutual_play: false,
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
