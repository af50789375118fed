//! `claim`: judging a natural move limit (自然限着) draw claim.

use super::input::load_line;
use super::options::{SettingsText, claim_limit_profile, named_rules};
use super::{GameInput, Line, ServiceError};
use crate::rules::limit::{self, ClaimOptions, CountingMode, Lang, LimitReport};
use crate::{Color, Move, Position};

/// The options of `claim`.
#[derive(Clone, Debug)]
pub struct ClaimRequest {
    /// The side that claims the draw.
    pub claimant: Color,
    /// The event's limit profile: slow, rapid, armageddon, amateur40.
    pub profile: String,
    /// An event settings file applied over `profile`.
    pub settings: Option<SettingsText>,
    /// Custom N (moves without capture).
    pub limit: Option<u32>,
    /// Custom cap on the claimant's checks + mate threats + chases (`Some(None)`: no cap).
    pub attack_cap: Option<Option<u32>>,
    /// Custom cap on the claimant's checks (`Some(None)`: no cap).
    pub check_cap: Option<Option<u32>>,
    /// Plies played when the claim is made (`None`: the whole game).
    pub at: Option<u32>,
    /// Count from the claim announced after this many plies (from_claim mode).
    pub from_claim: Option<u32>,
    /// The rules the move natures are judged by: cxa or axf.
    pub rules: String,
}

impl ClaimRequest {
    /// A claim by `claimant` with every other option at its default.
    pub fn new(claimant: Color) -> ClaimRequest {
        ClaimRequest {
            claimant,
            profile: "slow".into(),
            settings: None,
            limit: None,
            attack_cap: None,
            check_cap: None,
            at: None,
            from_claim: None,
            rules: "cxa".into(),
        }
    }
}

/// The judged claim, with the position at the claim ply.
#[derive(Clone, Debug)]
pub struct ClaimOutcome {
    /// The report `xqa claim --json` prints (pretty JSON) or renders as text.
    pub report: LimitReport,
    /// Plies played when the claim was made.
    pub at: u32,
    /// The position at the claim ply.
    pub position: Position,
    /// The last move before the claim.
    pub last: Option<Move>,
    /// The line the claim was judged on.
    pub line: Line,
}

impl ClaimOutcome {
    /// The report as `xqa claim --json` prints it (without the final newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.report).expect("report serialises")
    }

    /// The text report in `lang`.
    pub fn to_text(&self, lang: Lang) -> String {
        self.report.render(lang)
    }

    /// The board at the claim ply as an SVG picture, captioned with the verdict.
    pub fn svg(&self, lang: Lang) -> String {
        let caption = self.report.caption(lang);
        crate::svg::position(&self.position, self.last, Some(&caption))
    }
}

/// Judges the claim of `request.claimant` on the game of `input`.
pub fn claim(input: &GameInput, request: &ClaimRequest) -> Result<ClaimOutcome, ServiceError> {
    let rules = named_rules(&request.rules)?;
    let line = load_line(input)?;
    let (profile, counting) = claim_limit_profile(
        &request.profile,
        request.settings.as_ref(),
        request.limit,
        request.attack_cap,
        request.check_cap,
    )?;
    let at = request.at.unwrap_or(line.moves.len() as u32);
    let options = ClaimOptions {
        profile,
        counting: match (request.from_claim, counting) {
            (Some(_), _) => CountingMode::FromClaim,
            (None, Some(CountingMode::FromClaim)) => {
                return Err(ServiceError::invalid(
                    "the settings count from the claim (from_claim): give the ply of the claim with --from-claim PLY",
                ));
            }
            _ => CountingMode::FromCapture,
        },
        from_ply: request.from_claim.unwrap_or(0),
        rules,
    };
    let report = limit::claim(&line.start, &line.moves, request.claimant, at, &options)
        .map_err(|e| ServiceError::invalid(e.to_string()))?;
    let mut position = line.start;
    for &m in &line.moves[..at as usize] {
        position.play_unchecked(m);
    }
    let last = at.checked_sub(1).map(|i| line.moves[i as usize]);
    Ok(ClaimOutcome {
        report,
        at,
        position,
        last,
        line,
    })
}
