//! The JSON API: each handler turns the query and body into a service call, runs it on the
//! blocking pool, and answers with the report the CLI prints for the same input.

use super::AppState;
use crate::Color;
use crate::rules::limit::Lang;
use crate::service::{self, AdjudicateOptions, ClaimRequest, GameInput, ServiceError};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;

type Params = Query<HashMap<String, String>>;

/// An answer that is not a report: an error, with its HTTP status.
pub(crate) struct ApiError {
    status: StatusCode,
    body: serde_json::Value,
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> ApiError {
        ApiError {
            status: if e.code == 1 {
                StatusCode::UNPROCESSABLE_ENTITY
            } else {
                StatusCode::BAD_REQUEST
            },
            body: e.to_json(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            [(header::CONTENT_TYPE, "application/json")],
            format!("{}\n", self.body),
        )
            .into_response()
    }
}

fn error(status: StatusCode, kind: &str, message: String) -> ApiError {
    ApiError {
        status,
        body: serde_json::json!({"error": {"kind": kind, "message": message, "code": 2}}),
    }
}

/// The body, or 413 naming the limit.
fn body(state: &AppState, body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            error(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                format!(
                    "the request body is over the limit of {} MB ({} bytes)",
                    state.body_limit / (1024 * 1024),
                    state.body_limit
                ),
            )
        } else {
            error(e.status(), "bad_body", e.body_text())
        }
    })
}

/// Runs an analysis on the blocking pool, at most `workers` at a time.
async fn analyse<T: Send + 'static>(
    state: &AppState,
    job: impl FnOnce() -> Result<T, ServiceError> + Send + 'static,
) -> Result<T, ApiError> {
    let _permit = state.permits.clone().acquire_owned().await.map_err(|_| {
        error(
            StatusCode::SERVICE_UNAVAILABLE,
            "shutdown",
            "server stopping".into(),
        )
    })?;
    match tokio::task::spawn_blocking(job).await {
        Ok(r) => r.map_err(ApiError::from),
        Err(e) => Err(error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the analysis failed: {e}"),
        )),
    }
}

/// The events shipped in `events/`, built into the binary so that a request can name one
/// (`event=2020-national-individual`) without the server reading its file system.
const SHIPPED_EVENTS: &[(&str, &str)] = &[
    (
        "2020-national-individual",
        include_str!("../../events/2020-national-individual.json"),
    ),
    (
        "2024-tianshui-amateur",
        include_str!("../../events/2024-tianshui-amateur.json"),
    ),
];

/// The event of a request: `event=NAME` (a shipped event), `event=none`, or the server's own
/// (`xqa serve --event FILE`).
fn request_event(
    state: &AppState,
    q: &HashMap<String, String>,
) -> Result<Option<service::SettingsText>, ApiError> {
    match param(q, "event") {
        None => Ok(state.event.clone()),
        Some("none") => Ok(None),
        Some(name) => {
            let stem = name.trim_end_matches(".json");
            match SHIPPED_EVENTS.iter().find(|(n, _)| *n == stem) {
                Some((n, text)) => Ok(Some(service::SettingsText {
                    name: format!("events/{n}.json"),
                    text: (*text).to_owned(),
                })),
                None => Err(error(
                    StatusCode::BAD_REQUEST,
                    "usage",
                    format!(
                        "event={}: not a shipped event (expected none or one of {})",
                        service::shorten(name),
                        SHIPPED_EVENTS
                            .iter()
                            .map(|(n, _)| *n)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )),
            }
        }
    }
}

fn param<'a>(q: &'a HashMap<String, String>, name: &str) -> Option<&'a str> {
    q.get(name).map(String::as_str).filter(|s| !s.is_empty())
}

fn number<T: std::str::FromStr>(
    q: &HashMap<String, String>,
    name: &str,
) -> Result<Option<T>, ApiError> {
    match param(q, name) {
        None => Ok(None),
        Some(v) => v.parse().map(Some).map_err(|_| {
            error(
                StatusCode::BAD_REQUEST,
                "usage",
                format!("{name}={}: not a number", service::shorten(v)),
            )
        }),
    }
}

/// The game of a request: the record in the body (game `game`, named `name`), or `fen` and
/// `moves` when the body is empty.
fn game_input(q: &HashMap<String, String>, body: Bytes) -> Result<GameInput, ApiError> {
    if body.is_empty() {
        return Ok(GameInput::fen(param(q, "fen"), param(q, "moves")));
    }
    Ok(GameInput::record(
        body.to_vec(),
        param(q, "name").unwrap_or("upload"),
        number(q, "game")?.unwrap_or(1),
    ))
}

fn json(text: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], text).into_response()
}

fn lang(q: &HashMap<String, String>) -> Result<Lang, ApiError> {
    param(q, "lang")
        .unwrap_or("en")
        .parse()
        .map_err(|e: String| error(StatusCode::BAD_REQUEST, "usage", e))
}

/// POST /api/validate?name=: one JSON line per game, as `xqa validate --json`.
pub(crate) async fn validate(
    State(state): State<AppState>,
    Query(q): Params,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let bytes = body(&state, raw)?;
    let name = param(&q, "name").unwrap_or("upload").to_owned();
    let lines = analyse(&state, move || {
        Ok(service::validate_json_lines(&service::validate(
            &bytes, &name,
        )))
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], lines).into_response())
}

pub(crate) fn adjudicate_options(
    state: &AppState,
    q: &HashMap<String, String>,
) -> Result<AdjudicateOptions, ApiError> {
    let mut o = AdjudicateOptions {
        event: request_event(state, q)?,
        time_control: param(q, "time_control").map(str::to_owned),
        overlay: param(q, "overlay").is_some_and(|v| v == "1" || v == "true"),
        ..AdjudicateOptions::default()
    };
    if let Some(r) = param(q, "rules") {
        o.rules = r.to_owned();
    }
    if let Some(p) = param(q, "limit_profile").or(param(q, "profile")) {
        o.limit_profile = Some(p.to_owned());
    }
    o.at = number(q, "at")?;
    Ok(o)
}

/// POST /api/adjudicate?game=&rules=&at=&limit_profile=: as `xqa adjudicate --json`
/// (`format=text`: the text table).
pub(crate) async fn adjudicate(
    State(state): State<AppState>,
    Query(q): Params,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let input = game_input(&q, body(&state, raw)?)?;
    let options = adjudicate_options(&state, &q)?;
    let text = param(&q, "format") == Some("text");
    let report = analyse(&state, move || service::adjudicate(&input, &options)).await?;
    Ok(if text {
        report.to_text().into_response()
    } else {
        json(format!("{}\n", report.to_json()))
    })
}

fn cap(q: &HashMap<String, String>, name: &str) -> Result<Option<Option<u32>>, ApiError> {
    match param(q, name) {
        None => Ok(None),
        Some(v) if v.eq_ignore_ascii_case("none") => Ok(Some(None)),
        Some(_) => Ok(Some(number(q, name)?)),
    }
}

pub(crate) fn claim_request(
    state: &AppState,
    q: &HashMap<String, String>,
) -> Result<ClaimRequest, ApiError> {
    let claimant = match param(q, "claimant").map(str::to_ascii_lowercase).as_deref() {
        Some("red" | "r" | "w" | "white") => Color::Red,
        Some("black" | "b") => Color::Black,
        Some(other) => {
            return Err(error(
                StatusCode::BAD_REQUEST,
                "usage",
                format!(
                    "claimant={}: not a side (expected red or black)",
                    service::shorten(other)
                ),
            ));
        }
        None => {
            return Err(error(
                StatusCode::BAD_REQUEST,
                "usage",
                "claimant= is required (red or black)".into(),
            ));
        }
    };
    let mut r = ClaimRequest::new(claimant);
    if let Some(p) = param(q, "profile") {
        r.profile = p.to_owned();
    }
    if let Some(p) = param(q, "rules") {
        r.rules = p.to_owned();
    }
    r.limit = number(q, "limit")?;
    r.attack_cap = cap(q, "attack_cap")?;
    r.check_cap = cap(q, "check_cap")?;
    r.at = number(q, "at")?;
    r.from_claim = number(q, "from_claim")?;
    r.event = request_event(state, q)?;
    r.time_control = param(q, "time_control").map(str::to_owned);
    Ok(r)
}

/// POST /api/claim?game=&claimant=&profile=&at=&from_claim=&rules=&limit=&attack_cap=&check_cap=:
/// as `xqa claim --json` (`format=text`: the text report in `lang`).
pub(crate) async fn claim(
    State(state): State<AppState>,
    Query(q): Params,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let input = game_input(&q, body(&state, raw)?)?;
    let request = claim_request(&state, &q)?;
    let lang = lang(&q)?;
    let text = param(&q, "format") == Some("text");
    let outcome = analyse(&state, move || service::claim(&input, &request)).await?;
    Ok(if text {
        outcome.to_text(lang).into_response()
    } else {
        json(format!("{}\n", outcome.to_json()))
    })
}

/// GET /api/moves?fen=&notation=: as `xqa moves --json`.
pub(crate) async fn moves(
    State(state): State<AppState>,
    Query(q): Params,
) -> Result<Response, ApiError> {
    let fen = param(&q, "fen").unwrap_or(crate::START_FEN).to_owned();
    let notation: crate::Notation = match param(&q, "notation") {
        None => crate::Notation::Iccs,
        Some(n) => n
            .parse()
            .map_err(|e: String| error(StatusCode::BAD_REQUEST, "usage", e))?,
    };
    let report = analyse(&state, move || service::moves(&fen, notation)).await?;
    Ok(json(report.to_json()))
}

/// POST /api/review?game=&name= (or fen=&moves= with an empty body): the game laid out for the
/// web app.
pub(crate) async fn review(
    State(state): State<AppState>,
    Query(q): Params,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let input = game_input(&q, body(&state, raw)?)?;
    let review = analyse(&state, move || service::review(&input)).await?;
    Ok(json(
        serde_json::to_string(&review).expect("review serialises"),
    ))
}

/// GET /api/board?fen=&last=&targets=a,b&selected=&dots=a,b&caption=: the SVG picture.
pub(crate) async fn board(Query(q): Params) -> Result<Response, ApiError> {
    let list = |name: &str| -> Vec<String> {
        param(&q, name)
            .map(|s| s.split(',').map(str::to_owned).collect())
            .unwrap_or_default()
    };
    let svg = service::board(
        param(&q, "fen").unwrap_or(crate::START_FEN),
        param(&q, "last"),
        &list("targets"),
        param(&q, "selected"),
        &list("dots"),
        param(&q, "caption"),
    )?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
}

/// POST /api/sheet?kind=adjudicate|claim&...: the ruling sheet (HTML), with the options of the
/// adjudicate or claim endpoint.
pub(crate) async fn sheet(
    State(state): State<AppState>,
    Query(q): Params,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let input = game_input(&q, body(&state, raw)?)?;
    let html = match param(&q, "kind").unwrap_or("adjudicate") {
        "claim" => {
            let request = claim_request(&state, &q)?;
            analyse(&state, move || service::claim_sheet(&input, &request)).await?
        }
        "adjudicate" => {
            let options = adjudicate_options(&state, &q)?;
            analyse(&state, move || service::adjudicate_sheet(&input, &options)).await?
        }
        other => {
            return Err(error(
                StatusCode::BAD_REQUEST,
                "usage",
                format!(
                    "kind={}: expected adjudicate or claim",
                    service::shorten(other)
                ),
            ));
        }
    };
    Ok(([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response())
}

pub(crate) async fn not_found() -> ApiError {
    error(StatusCode::NOT_FOUND, "not_found", "no such page".into())
}
