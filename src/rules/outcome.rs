//! The outcome a ruling gives under the event's regulations: the result it decides (with the
//! time control's draw odds, 和棋黑胜), or none yet, and whether it differs from the result the
//! record gives.
//!
//! ```
//! use xiangqi_arbiter::rules::outcome::{DrawOdds, Outcome};
//! use xiangqi_arbiter::record::game::GameResult;
//!
//! let o = Outcome::draw(DrawOdds::BlackWins, "the claim is valid", "自然限着提和成立")
//!     .against_record(Some(GameResult::Draw));
//! assert_eq!(o.result.as_deref(), Some("0-1"));
//! assert!(o.differs_from_record);
//! assert!(o.reason_en.contains("a draw counts as a Black win (和棋黑胜)"));
//! ```

use serde::{Deserialize, Serialize};

use crate::record::game::GameResult;
use crate::types::Color;

/// What a drawn game scores as under a time control (`draw` in an event file's time control).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawOdds {
    /// A draw is a draw.
    #[default]
    Draw,
    /// A draw counts as a Black win (和棋黑胜: the play-off's draw odds).
    BlackWins,
    /// A draw counts as a Red win (和棋红胜).
    RedWins,
    /// A draw decides nothing: the game is played again until someone wins (a final's
    /// tie-break).
    Replay,
}

impl DrawOdds {
    /// The result a drawn game scores as (`None`: replayed).
    pub fn result(self) -> Option<GameResult> {
        match self {
            DrawOdds::Draw => Some(GameResult::Draw),
            DrawOdds::BlackWins => Some(GameResult::BlackWins),
            DrawOdds::RedWins => Some(GameResult::RedWins),
            DrawOdds::Replay => None,
        }
    }

    /// How the text names the rule: ("和棋黑胜", "a draw counts as a Black win"); `None` for
    /// plain draws.
    pub fn text(self) -> Option<(&'static str, &'static str)> {
        match self {
            DrawOdds::Draw => None,
            DrawOdds::BlackWins => Some(("和棋黑胜", "a draw counts as a Black win")),
            DrawOdds::RedWins => Some(("和棋红胜", "a draw counts as a Red win")),
            DrawOdds::Replay => Some((
                "和棋重赛，直至分出胜负",
                "the game is played again until someone wins",
            )),
        }
    }
}

/// The outcome of a ruling: `result` is `None` when the ruling decides no result yet (a claim
/// refused, a side that must vary, no ruling due).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// "1-0", "0-1", "1/2-1/2" or null.
    pub result: Option<String>,
    pub reason_en: String,
    pub reason_zh: String,
    /// The result the record gives, if any ("*" counts as none).
    pub recorded: Option<String>,
    /// The outcome decides a result and the record gives a different one.
    pub differs_from_record: bool,
}

impl Outcome {
    fn new(result: Option<GameResult>, en: String, zh: String) -> Outcome {
        Outcome {
            result: result.map(|r| r.token().to_owned()),
            reason_en: en,
            reason_zh: zh,
            recorded: None,
            differs_from_record: false,
        }
    }

    /// The game is drawn, because `why`: scored as `odds` say.
    pub fn draw(odds: DrawOdds, why_en: &str, why_zh: &str) -> Outcome {
        match odds.text() {
            None => Outcome::new(
                Some(GameResult::Draw),
                format!("{why_en}: the game is drawn"),
                format!("{why_zh}：判和"),
            ),
            Some((zh, en)) => Outcome::new(
                odds.result(),
                format!("{why_en}: the game is drawn, and {en} ({zh})"),
                format!("{why_zh}：和棋，按本赛制{zh}"),
            ),
        }
    }

    /// `winner` wins, because `why`.
    pub fn win(winner: Color, why_en: &str, why_zh: &str) -> Outcome {
        let (result, en, zh) = match winner {
            Color::Red => (GameResult::RedWins, "Red wins", "红胜"),
            Color::Black => (GameResult::BlackWins, "Black wins", "黑胜"),
        };
        Outcome::new(
            Some(result),
            format!("{why_en}: {en}"),
            format!("{why_zh}：{zh}"),
        )
    }

    /// The ruling decides no result yet, because `why`.
    pub fn open(why_en: &str, why_zh: &str) -> Outcome {
        Outcome::new(
            None,
            format!("{why_en}: the ruling decides no result yet"),
            format!("{why_zh}：尚不决定胜负"),
        )
    }

    /// With the record's result compared: `recorded` set, `differs_from_record` when both give
    /// a result and they differ (the reasons then say so).
    pub fn against_record(mut self, recorded: Option<GameResult>) -> Outcome {
        let recorded = recorded.filter(|r| *r != GameResult::Unknown);
        self.recorded = recorded.map(|r| r.token().to_owned());
        if let (Some(r), Some(mine)) = (recorded, &self.result)
            && r.token() != mine
        {
            self.differs_from_record = true;
            self.reason_en = format!(
                "{}; this differs from the recorded result {}, which it overrides",
                self.reason_en,
                r.token()
            );
            self.reason_zh = format!(
                "{}；与棋谱记录的结果{}不同，以本裁决为准",
                self.reason_zh,
                r.token()
            );
        }
        self
    }
}

/// The outcome of a natural move limit claim: a valid claim draws (scored as `odds` say), a
/// mate or stalemate on the board wins, anything else decides nothing yet.
pub fn of_claim(report: &crate::rules::limit::LimitReport, odds: DrawOdds) -> Outcome {
    use crate::rules::limit::{Ending, Verdict};
    let ply = report.at_ply;
    match report.verdict {
        Verdict::Valid => Outcome::draw(
            odds,
            &format!("the natural move limit claim is valid (ply {ply})"),
            &format!("自然限着提和成立（第{ply}步）"),
        ),
        Verdict::GameOver => {
            let loser = report.loser.unwrap_or(report.claimant);
            let (en, zh) = match report.ending {
                Some(Ending::Stalemate) => ("stalemated", "困毙"),
                _ => ("checkmated", "将死"),
            };
            Outcome::win(
                loser.other(),
                &format!(
                    "{} is {en} on the board at ply {ply}, which takes precedence over the draw",
                    side_en(loser)
                ),
                &format!("第{ply}步{}方被{zh}，胜负优先于限着和棋", loser.name_zh()),
            )
        }
        Verdict::Inadmissible => Outcome::open(
            &format!(
                "the count is reached, but with {} attacking pieces on the board the claim is in principle refused, at the arbiter's discretion (裁判酌情)",
                report.attacking_pieces
            ),
            &format!(
                "回合数已够，但场上有{}个进攻子力，原则上不予判和（裁判酌情）",
                report.attacking_pieces
            ),
        ),
        Verdict::ClaimantShort | Verdict::OpponentShort => Outcome::open(
            "the claim is not valid and the game goes on",
            "提和不成立，对局继续",
        ),
    }
}

/// The outcome of an adjudication: the ruling on a cycle that is due and ends the record (a
/// draw scored as `odds` say; a side that must vary decides nothing yet), else a mate or
/// stalemate on the board at the end of the record, else nothing yet. `plies` is the length of
/// the line ruled on, `end` the position after it.
pub fn of_cycles(
    cycles: &[crate::rules::repetition::Cycle],
    plies: usize,
    end: &crate::Position,
    odds: DrawOdds,
) -> Outcome {
    use crate::rules::repetition::Verdict;
    if let Some(c) = cycles
        .last()
        .filter(|c| c.end_ply == plies && c.due_ply.is_some())
    {
        let due = c.due_ply.unwrap_or(c.end_ply);
        return match c.verdict {
            Verdict::Draw => Outcome::draw(
                odds,
                &format!(
                    "the repetition is a draw, neither side varying (ruling due at ply {due})"
                ),
                &format!("循环不变作和（第{due}步裁决生效）"),
            ),
            Verdict::RedMustVary | Verdict::BlackMustVary => {
                let side = if c.verdict == Verdict::RedMustVary {
                    Color::Red
                } else {
                    Color::Black
                };
                Outcome::open(
                    &format!(
                        "{} must vary (ruling due at ply {due}); if {} does not, {} loses",
                        side_en(side),
                        side_en(side),
                        side_en(side)
                    ),
                    &format!(
                        "{}方必须变着（第{due}步裁决生效），不变判负",
                        side.name_zh()
                    ),
                )
            }
            Verdict::Undetermined | Verdict::None => Outcome::open(
                "a move's nature in the repetition is undetermined: no ruling",
                "循环中有着法性质未定，不作裁决",
            ),
        };
    }
    if end.is_checkmate() || end.is_stalemate() {
        let loser = end.turn();
        let (en, zh) = if end.is_checkmate() {
            ("checkmated", "将死")
        } else {
            ("stalemated", "困毙")
        };
        return Outcome::win(
            loser.other(),
            &format!("{} is {en} at the end of the record", side_en(loser)),
            &format!("棋谱终局{}方被{zh}", loser.name_zh()),
        );
    }
    Outcome::open(
        "no repetition ruling is due at the end of the record and the game is not over on the board",
        "棋谱终局没有到期的循环裁决，棋局亦未分胜负",
    )
}

fn side_en(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}
