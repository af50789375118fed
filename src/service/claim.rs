//! `claim`: judging a natural move limit (自然限着) draw claim.

use super::input::load_line;
use super::options::{SettingsText, claim_limit_profile, event_choice, event_of, rules_profile};
use super::{GameInput, Line, ServiceError};
use crate::rules::event::{Override, Regulations};
use crate::rules::limit::{self, ClaimOptions, CountingMode, Lang, LimitReport};
use crate::rules::outcome::{self, Outcome};
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
    /// An event file's text (events/*.json): its rules profile and the natural move limit of
    /// its time control (win over `rules`, `profile` and `settings`).
    pub event: Option<SettingsText>,
    /// The event's time control (`None`: the event's default).
    pub time_control: Option<String>,
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
    /// A rule settings file (every field of the rule profile, such as the node budget; wins
    /// over `rules`).
    pub rule_settings: Option<SettingsText>,
}

impl ClaimRequest {
    /// A claim by `claimant` with every other option at its default.
    pub fn new(claimant: Color) -> ClaimRequest {
        ClaimRequest {
            claimant,
            profile: "slow".into(),
            settings: None,
            event: None,
            time_control: None,
            limit: None,
            attack_cap: None,
            check_cap: None,
            at: None,
            from_claim: None,
            rules: "cxa".into(),
            rule_settings: None,
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
    /// The position the claim is ruled on (at the claim ply, or where a claim made after the
    /// game became valid).
    pub position: Position,
    /// The last move before the claim.
    pub last: Option<Move>,
    /// The line the claim was judged on.
    pub line: Line,
    /// The result the ruling gives under the event's regulations.
    pub outcome: Outcome,
    /// The event and time control whose regulations applied (their names), if any.
    pub regulations: Option<Regulations>,
}

impl ClaimOutcome {
    /// The report as `xqa claim --json` prints it (without the final newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.to_json_value()).expect("report serialises")
    }

    /// The JSON object of [`Self::to_json`], as a value (the server writes it out as it goes,
    /// without holding its text).
    pub fn to_json_value(&self) -> serde_json::Value {
        let mut v = crate::report::rulings::claim_json(
            &self.report,
            &self.line.start,
            self.line.header(),
            self.line.error_json(),
        );
        let r = self.regulations.as_ref();
        v["event"] = r.map(|r| r.event.clone()).into();
        v["time_control"] = r.map(|r| r.time_control.clone()).into();
        if let Some(r) = r.filter(|r| !r.overrides.is_empty()) {
            v["overrides"] = serde_json::to_value(&r.overrides).expect("overrides serialise");
        }
        v["outcome"] = serde_json::to_value(&self.outcome).expect("outcome serialises");
        v["attackers"] = limit::attackers(&self.position).into();
        v
    }

    /// The text report in each language of `lang` (Chinese, then English, for both).
    pub fn to_text_in(&self, lang: crate::report::text::TextLang) -> String {
        lang.langs()
            .iter()
            .map(|&l| self.to_text(l))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The text report in `lang`.
    pub fn to_text(&self, lang: Lang) -> String {
        let mut out = self
            .regulations
            .as_ref()
            .map_or(String::new(), |r| r.line(lang));
        out.push_str(&self.report.render(lang));
        if self.report.verdict == limit::Verdict::Inadmissible {
            let names = limit::attackers(&self.position);
            out.push_str(&match lang {
                Lang::Zh => format!(
                    "进攻子力：{}；原则上不予判和，由裁判酌情决定。\n",
                    names.join("、")
                ),
                Lang::En => format!(
                    "Attacking pieces: {}; the claim is in principle refused, at the arbiter's discretion (裁判酌情).\n",
                    names.join(", ")
                ),
            });
        }
        out.push_str(&match lang {
            Lang::Zh => format!(
                "裁决结果：{}（{}）\n",
                self.outcome.result.as_deref().unwrap_or("未定"),
                self.outcome.reason_zh
            ),
            Lang::En => format!(
                "Outcome: {} ({})\n",
                self.outcome.result.as_deref().unwrap_or("none yet"),
                self.outcome.reason_en
            ),
        });
        if let Some(e) = &self.line.error {
            let n = self.line.moves.len();
            out.push_str(&match lang {
                Lang::Zh => format!(
                    "\n棋谱有误：只判断了前{n}步：{}\n",
                    crate::report::text::error_zh(e, Some(&self.line.start))
                ),
                Lang::En => {
                    format!("\nThe record is broken: judged on its first {n} plies only: {e}\n")
                }
            });
        }
        out
    }

    /// The board at the claim ply as an SVG picture, captioned with the verdict.
    pub fn svg(&self, lang: Lang) -> String {
        let caption = self.report.caption(lang);
        crate::svg::position(&self.position, self.last, Some(&caption))
    }
}

/// Judges the claim of `request.claimant` on the game of `input`.
pub fn claim(input: &GameInput, request: &ClaimRequest) -> Result<ClaimOutcome, ServiceError> {
    let event = event_of(request.event.as_ref())?;
    let rules = match &event {
        Some(e) => e.rules().clone(),
        None => rules_profile(&request.rules, request.rule_settings.as_ref())?,
    };
    let line = load_line(input)?;
    let time_control = event_choice(event.as_ref(), request.time_control.as_deref())?;
    let mut overrides = Vec::new();
    let (profile, counting) = match time_control {
        Some(tc) => {
            let mut p = tc.limit.clone();
            let cap = |c: Option<u32>| c.map_or("none".to_owned(), |n| n.to_string());
            // An explicit option wins over the event, and the report says so.
            if let Some(n) = request.limit {
                overrides.extend(Override::of("limit", p.moves.to_string(), n.to_string()));
                p.moves = n;
            }
            if let Some(c) = request.attack_cap {
                overrides.extend(Override::of("attack_cap", cap(p.attack_cap), cap(c)));
                p.attack_cap = c;
            }
            if let Some(c) = request.check_cap {
                overrides.extend(Override::of("check_cap", cap(p.check_cap), cap(c)));
                p.check_cap = c;
            }
            p.validate()
                .map_err(|e| ServiceError::invalid(e.to_string()))?;
            (p, Some(tc.counting))
        }
        None => claim_limit_profile(
            &request.profile,
            request.settings.as_ref(),
            request.limit,
            request.attack_cap,
            request.check_cap,
        )?,
    };
    if let Some(at) = request.at {
        line.check_ply("--at", at)?;
    }
    if let Some(from) = request.from_claim {
        line.check_ply("--from-claim", from)?;
    }
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
        // (A claim made after the game: at the end of the record.)
        after_game: at as usize == line.moves.len()
            && time_control.is_some_and(|tc| tc.claims_after_game),
    };
    let report = limit::claim(&line.start, &line.moves, request.claimant, at, &options)
        .map_err(|e| ServiceError::invalid(e.to_string()))?;
    // (The board the claim is ruled on: where it became valid, for a claim after the game.)
    let ruled = report.at_ply;
    let position = super::position_after(&line.start, &line.moves, ruled as usize);
    let last = ruled.checked_sub(1).map(|i| line.moves[i as usize]);
    let recorded = line.entry.as_ref().and_then(|g| g.game.result);
    let odds = time_control.map(|tc| tc.draw).unwrap_or_default();
    let outcome = outcome::of_claim(&report, odds).against_record(recorded);
    let regulations = event.as_ref().zip(time_control).map(|(e, tc)| Regulations {
        overrides,
        ..Regulations::of(e, tc)
    });
    Ok(ClaimOutcome {
        report,
        at,
        position,
        last,
        line,
        outcome,
        regulations,
    })
}
