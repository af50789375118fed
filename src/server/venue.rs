//! `xqa serve --db EVENT.sqlite`: the venue's API and pages over [`crate::venue`].
//!
//! - `GET /api/venue`: the venue (database, event, whether an access code is needed, who this
//!   device is);
//! - `POST /api/venue/login` `{"code","arbiter"}`: lets a device in (a session cookie);
//! - live counts: `GET /api/venue/counts[?all=1]` (each running count with its claim state),
//!   `POST /api/venue/counts` `{"round","table","red","black","time_control","claimant","fen"}`,
//!   `GET /api/venue/counts/{id}`, `POST /api/venue/counts/{id}/moves` `{"ply","move"}` (409
//!   when the count moved on), `POST /api/venue/counts/{id}/takeback` `{"ply"}`,
//!   `POST /api/venue/counts/{id}/close`;
//! - the case book: `POST /api/venue/rule?kind=claim|cycle|sheet&round=&table=...` with the
//!   parameters and body of `/api/claim` or `/api/adjudicate` (the server rules, and records the
//!   ruling's JSON and its sheet), `GET /api/venue/casebook`, `GET /api/venue/casebook/{id}`,
//!   `GET /api/venue/casebook/{id}/sheet`;
//! - `GET /venue`: the chief arbiter's page (running counts, the case book).
//!
//! Every write is committed before the answer. Off loopback, every `/api/` request but the
//! venue's description and the login needs the session cookie (401 with the error object).
//! On loopback no code is asked; an entry then carries the `arbiter` name the request gives.

use super::AppState;
use super::api::{self, ApiError, RawQuery};
use crate::service::{self, ClaimRequest, GameInput, ServiceError};
use crate::venue::{AccessCode, CaseKind, ErrorKind, NewCase, NewCount, Store, VenueError};
use crate::{Color, START_FEN};
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Version, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::sync::{Arc, Mutex};

/// The session cookie's name.
pub const COOKIE: &str = "xqa_session";

/// The venue a server runs: its database, and the access code when one is needed.
pub struct Venue {
    store: Mutex<Store>,
    code: Option<AccessCode>,
}

impl std::fmt::Debug for Venue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Venue")
            .field("access_required", &self.code.is_some())
            .finish()
    }
}

impl Venue {
    /// A venue over an open store; `code`: the access code arbiters must give (None: on
    /// loopback, nobody is asked).
    pub fn new(store: Store, code: Option<AccessCode>) -> Venue {
        Venue {
            store: Mutex::new(store),
            code,
        }
    }

    fn database(&self) -> String {
        self.lock().path().display().to_string()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Store> {
        // (A panic while the store was held leaves it as SQLite left it: every write is a
        // transaction, so the store itself is whole.)
        self.store.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn venue_error(e: VenueError) -> ApiError {
    let status = match e.kind {
        ErrorKind::NotFound(_) => StatusCode::NOT_FOUND,
        ErrorKind::Conflict { .. } | ErrorKind::Running { .. } => StatusCode::CONFLICT,
        ErrorKind::Invalid(_) => StatusCode::BAD_REQUEST,
        ErrorKind::Locked => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    let message = match e.kind {
        // (The file's name is the operator's business, not the device's.)
        ErrorKind::NotFound(_)
        | ErrorKind::Conflict { .. }
        | ErrorKind::Running { .. }
        | ErrorKind::Invalid(_) => {
            let text = e.to_string();
            let file = format!("{}: ", e.path.display());
            text.strip_prefix(&file).unwrap_or(&text).to_owned()
        }
        _ => e.to_string(),
    };
    ApiError::new(status, e.code(), message)
}

fn unauthorized(message: &str) -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", message.to_owned())
}

/// Runs `f` on the store, on the blocking pool (SQLite waits for the disk).
async fn with_store<T: Send + 'static>(
    venue: &Arc<Venue>,
    f: impl FnOnce(&mut Store) -> Result<T, VenueError> + Send + 'static,
) -> Result<T, ApiError> {
    let venue = venue.clone();
    tokio::task::spawn_blocking(move || f(&mut venue.lock()))
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                format!("the venue's database call failed: {e}"),
            )
        })?
        .map_err(venue_error)
}

fn venue_of(state: &AppState) -> Result<&Arc<Venue>, ApiError> {
    state.venue.as_ref().ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "this server keeps no venue database (start it with xqa serve --db EVENT.sqlite)"
                .into(),
        )
    })
}

fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim().to_owned())
}

/// Whether a request may go on: off loopback, only with a session (but for the page's assets,
/// the venue's description and the login).
pub(crate) fn gate(venue: &Venue, request: &Request) -> Result<(), ApiError> {
    if venue.code.is_none() {
        return Ok(());
    }
    let path = request.uri().path();
    let open = !path.starts_with("/api/") || matches!(path, "/api/venue" | "/api/venue/login");
    if open {
        return Ok(());
    }
    let Some(token) = session_token(request.headers()) else {
        return Err(unauthorized(
            "this venue's server needs its access code: enter it on the page (POST /api/venue/login)",
        ));
    };
    match venue.lock().session(&token) {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err(unauthorized(
            "this device's session is not known: enter the access code again",
        )),
        Err(e) => Err(venue_error(e)),
    }
}

/// The arbiter a request acts for: the session's name, else (on loopback, no code asked) the
/// name the request gives.
async fn arbiter(
    venue: &Arc<Venue>,
    headers: &HeaderMap,
    given: Option<&str>,
) -> Result<String, ApiError> {
    if let Some(token) = session_token(headers) {
        let found = with_store(venue, move |s| s.session(&token)).await?;
        if let Some(session) = found {
            return Ok(session.arbiter);
        }
    }
    match given.map(str::trim).filter(|s| !s.is_empty()) {
        Some(name) if venue.code.is_none() => Ok(name.to_owned()),
        _ if venue.code.is_some() => Err(unauthorized(
            "this device's session is not known: enter the access code again",
        )),
        _ => Err(api::usage(
            "the arbiter's name is required (arbiter=): every entry carries it".into(),
        )),
    }
}

fn json_answer(status: StatusCode, value: &serde_json::Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        format!("{value}\n"),
    )
        .into_response()
}

fn body_json<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes)
        .map_err(|e| api::usage(format!("the request body is not the JSON expected: {e}")))
}

fn id_of(raw: &str) -> Result<i64, ApiError> {
    raw.parse::<i64>()
        .ok()
        .filter(|&i| i > 0)
        .ok_or_else(|| api::usage(format!("{}: not an id", service::shorten(raw))))
}

/// GET /api/venue
pub(crate) async fn info(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let venue = venue_of(&state)?;
    let who = match session_token(&headers) {
        Some(token) => with_store(venue, move |s| s.session(&token))
            .await?
            .map(|s| s.arbiter),
        None => None,
    };
    let event = service::event_of(state.event.as_ref())
        .ok()
        .flatten()
        .map(|e| serde_json::json!({"name": e.name, "name_en": e.name_en}));
    Ok(json_answer(
        StatusCode::OK,
        &serde_json::json!({
            "schema": 1,
            "venue": {
                "database": venue.database(),
                "access_required": venue.code.is_some(),
                "arbiter": who,
                "event": event,
            }
        }),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Login {
    code: String,
    arbiter: String,
}

/// POST /api/venue/login {"code","arbiter"}: a session cookie for this device.
pub(crate) async fn login(State(state): State<AppState>, body: Body) -> Result<Response, ApiError> {
    let venue = venue_of(&state)?.clone();
    let login: Login = body_json(&api::read_body(&state, body).await?)?;
    let right = venue.code.as_ref().is_none_or(|c| c.matches(&login.code));
    if !right {
        // (A wrong code costs a second: no guessing at speed.)
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        super::log::refused("a wrong access code was given");
        return Err(unauthorized("wrong access code"));
    }
    let name = login.arbiter;
    let session = with_store(&venue, move |s| s.open_session(&name)).await?;
    let mut r = json_answer(
        StatusCode::OK,
        &serde_json::json!({"schema": 1, "arbiter": session.arbiter}),
    );
    let cookie = format!(
        "{COOKIE}={}; Path=/; HttpOnly; SameSite=Strict",
        session.token
    );
    r.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_str(&cookie).expect("hex token"),
    );
    Ok(r)
}

/// A count's claim state at a glance: the claim report's counts, or why there is none.
fn claim_state(state: &AppState, count: &crate::venue::Count) -> serde_json::Value {
    let claimant = match count.claimant.as_deref() {
        Some("red") => Color::Red,
        Some("black") => Color::Black,
        _ => return serde_json::Value::Null,
    };
    let mut request = ClaimRequest::new(claimant);
    request.event = state.event.clone();
    match (&state.event, &count.time_control) {
        (Some(_), tc) => request.time_control = tc.clone(),
        (None, Some(tc)) => request.profile = tc.clone(),
        (None, None) => {}
    }
    let moves = count.moves_text();
    let input = GameInput::fen(Some(&count.fen), Some(&moves));
    match service::claim(&input, &request) {
        Ok(o) => {
            let r = &o.report;
            serde_json::json!({
                "profile": r.profile,
                "valid": r.valid,
                "counted": r.counted,
                "required": r.required,
                "needed": r.needed,
                "opponent_moves": r.opponent_moves,
            })
        }
        Err(e) => serde_json::json!({"error": e.message}),
    }
}

/// GET /api/venue/counts[?all=1]: the running counts (all with all=1), each with its claim
/// state.
pub(crate) async fn counts(
    State(state): State<AppState>,
    query: RawQuery,
) -> Result<Response, ApiError> {
    let q = api::params(query, &["all"])?;
    let all = api::param(&q, "all").is_some_and(|v| v == "1" || v == "true");
    let venue = venue_of(&state)?;
    let list = with_store(venue, move |s| s.counts(!all)).await?;
    let state2 = state.clone();
    let value = tokio::task::spawn_blocking(move || {
        let counts: Vec<serde_json::Value> = list
            .iter()
            .map(|c| {
                let mut v = serde_json::to_value(c).expect("serialises");
                if c.closed_at.is_none() {
                    v["claim"] = claim_state(&state2, c);
                }
                v
            })
            .collect();
        serde_json::json!({"schema": 1, "counts": counts})
    })
    .await
    .map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the counts' claim states failed: {e}"),
        )
    })?;
    Ok(json_answer(StatusCode::OK, &value))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StartCount {
    round: String,
    table: String,
    #[serde(default)]
    red: String,
    #[serde(default)]
    black: String,
    time_control: Option<String>,
    claimant: Option<String>,
    fen: Option<String>,
    arbiter: Option<String>,
}

fn count_json(count: &crate::venue::Count) -> serde_json::Value {
    serde_json::json!({"schema": 1, "count": count})
}

/// POST /api/venue/counts
pub(crate) async fn start_count(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let venue = venue_of(&state)?.clone();
    let start: StartCount = body_json(&api::read_body(&state, body).await?)?;
    let who = arbiter(&venue, &headers, start.arbiter.as_deref()).await?;
    let claimant = match start.claimant.as_deref() {
        None | Some("") => None,
        Some("red") => Some(Color::Red),
        Some("black") => Some(Color::Black),
        Some(other) => {
            return Err(api::usage(format!(
                "claimant {}: expected red or black",
                service::shorten(other)
            )));
        }
    };
    let new = NewCount {
        round: start.round,
        table: start.table,
        red: start.red,
        black: start.black,
        time_control: start.time_control.filter(|t| !t.trim().is_empty()),
        claimant,
        fen: start.fen.unwrap_or_else(|| START_FEN.to_owned()),
    };
    let count = with_store(&venue, move |s| s.start_count(&new, &who)).await?;
    Ok(json_answer(StatusCode::CREATED, &count_json(&count)))
}

/// GET /api/venue/counts/{id}
pub(crate) async fn count(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let id = id_of(&id)?;
    let venue = venue_of(&state)?;
    let count = with_store(venue, move |s| s.count(id)).await?;
    let state2 = state.clone();
    let mut value = count_json(&count);
    if count.closed_at.is_none() {
        value["count"]["claim"] = tokio::task::spawn_blocking(move || claim_state(&state2, &count))
            .await
            .unwrap_or(serde_json::Value::Null);
    }
    Ok(json_answer(StatusCode::OK, &value))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AddMove {
    ply: u32,
    #[serde(rename = "move")]
    mv: String,
    arbiter: Option<String>,
}

/// POST /api/venue/counts/{id}/moves {"ply","move"}: stored, then acknowledged with the count.
pub(crate) async fn add_move(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let id = id_of(&id)?;
    let venue = venue_of(&state)?.clone();
    let add: AddMove = body_json(&api::read_body(&state, body).await?)?;
    let who = arbiter(&venue, &headers, add.arbiter.as_deref()).await?;
    let count = with_store(&venue, move |s| s.append_move(id, add.ply, &add.mv, &who)).await?;
    Ok(json_answer(StatusCode::OK, &count_json(&count)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TakeBack {
    ply: u32,
    arbiter: Option<String>,
}

/// POST /api/venue/counts/{id}/takeback {"ply"}: the last move (which must be that ply) taken
/// back.
pub(crate) async fn take_back(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let id = id_of(&id)?;
    let venue = venue_of(&state)?.clone();
    let back: TakeBack = body_json(&api::read_body(&state, body).await?)?;
    arbiter(&venue, &headers, back.arbiter.as_deref()).await?;
    let count = with_store(&venue, move |s| s.take_back(id, back.ply)).await?;
    Ok(json_answer(StatusCode::OK, &count_json(&count)))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Close {
    arbiter: Option<String>,
}

/// POST /api/venue/counts/{id}/close
pub(crate) async fn close_count(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let id = id_of(&id)?;
    let venue = venue_of(&state)?.clone();
    let bytes = api::read_body(&state, body).await?;
    let close: Close = if bytes.is_empty() {
        Close::default()
    } else {
        body_json(&bytes)?
    };
    let who = arbiter(&venue, &headers, close.arbiter.as_deref()).await?;
    let count = with_store(&venue, move |s| s.close_count(id, &who)).await?;
    Ok(json_answer(StatusCode::OK, &count_json(&count)))
}

/// The parameters of a ruling's entry, besides those of the claim or adjudicate endpoint.
const ENTRY: &[&str] = &[
    "kind", "sheet_of", "round", "table", "red", "black", "corrects", "arbiter",
];

/// POST /api/venue/rule?kind=claim|cycle|sheet&round=&table=&red=&black=&corrects=&arbiter=
/// (kind=sheet: `sheet_of=claim|adjudicate`) with the parameters and body of `/api/claim` or
/// `/api/adjudicate`: the server rules, records the entry (the ruling's JSON as that endpoint
/// answers it, and its sheet) and answers with the entry.
pub(crate) async fn rule(
    State(state): State<AppState>,
    version: Version,
    headers: HeaderMap,
    query: RawQuery,
    body: Body,
) -> Result<Response, ApiError> {
    let mut takes = api::accepted(&[ENTRY, api::ADJUDICATE, api::CLAIM]);
    takes.retain(|p| *p != "format");
    let q = api::params(query, &takes)?;
    let venue = venue_of(&state)?.clone();
    let kind = match api::param(&q, "kind") {
        Some(k) => CaseKind::parse(k).ok_or_else(|| {
            api::usage(format!(
                "kind={}: expected claim, cycle or sheet",
                service::shorten(k)
            ))
        })?,
        None => {
            return Err(api::usage(
                "kind= is required (claim, cycle or sheet)".into(),
            ));
        }
    };
    let claim = match (kind, api::param(&q, "sheet_of")) {
        (CaseKind::Claim, None) => true,
        (CaseKind::Cycle, None) => false,
        (CaseKind::Sheet, Some("claim")) => true,
        (CaseKind::Sheet, Some("adjudicate")) => false,
        (CaseKind::Sheet, _) => {
            return Err(api::usage(
                "kind=sheet needs sheet_of=claim or sheet_of=adjudicate".into(),
            ));
        }
        (_, Some(_)) => return Err(api::usage("sheet_of= goes with kind=sheet".into())),
    };
    let who = arbiter(&venue, &headers, api::param(&q, "arbiter")).await?;
    let text = |name: &str| api::param(&q, name).unwrap_or("").to_owned();
    let corrects: Option<i64> = api::number(&q, "corrects")?;
    let bytes = api::read_body(&state, body).await?;
    let input = api::game_input(&q, bytes.clone())?;
    let record = if bytes.is_empty() {
        format!(
            "FEN: {}\nMoves: {}",
            api::param(&q, "fen").unwrap_or(START_FEN),
            api::param(&q, "moves").unwrap_or("")
        )
    } else {
        String::from_utf8_lossy(&bytes).into_owned()
    };
    let record_bytes =
        (!bytes.is_empty() && std::str::from_utf8(&bytes).is_err()).then(|| bytes.to_vec());
    let mut new = NewCase {
        kind,
        corrects,
        event: None,
        time_control: api::param(&q, "time_control").map(str::to_owned),
        round: text("round"),
        table: text("table"),
        red: text("red"),
        black: text("black"),
        record,
        record_bytes,
        ruling: serde_json::Value::Null,
        sheet: None,
    };
    let lane = api::lane(&state, &input);
    if claim {
        let request = api::claim_request(&state, &q)?;
        new.event = event_name(request.event.as_ref())?;
        api::analyse(&state, version, lane, move |sink| {
            let outcome = service::claim(&input, &request)?;
            api::still_wanted()?;
            api::answer_cap(outcome.line.moves.len())?;
            new.ruling = outcome.to_json_value();
            new.sheet = Some(service::claim_sheet(&input, &request)?);
            record_entry(&venue, &new, &who, sink)
        })
        .await
    } else {
        let options = api::adjudicate_options(&state, &q)?;
        new.event = event_name(options.event.as_ref())?;
        api::analyse(&state, version, lane, move |sink| {
            let report = service::adjudicate(&input, &options)?;
            api::still_wanted()?;
            api::answer_cap(report.line.moves.len())?;
            new.ruling = report.to_json_value();
            new.sheet = Some(service::adjudicate_sheet(&input, &options)?);
            record_entry(&venue, &new, &who, sink)
        })
        .await
    }
}

fn event_name(event: Option<&service::SettingsText>) -> Result<Option<String>, ApiError> {
    Ok(service::event_of(event)?.map(|e| e.name))
}

/// Records the entry (committed) and writes it as the answer.
fn record_entry(
    venue: &Venue,
    new: &NewCase,
    arbiter: &str,
    sink: &mut super::stream::Sink,
) -> Result<(), ServiceError> {
    let entry = venue
        .lock()
        .record_case(new, arbiter)
        .map_err(|e| ServiceError::usage(e.to_string()))?;
    sink.json(&serde_json::json!({"schema": 1, "entry": entry}))?;
    sink.put(b"\n")
}

/// GET /api/venue/casebook: every entry (without its sheet: `has_sheet` says whether it has
/// one), by round and table.
pub(crate) async fn casebook_list(State(state): State<AppState>) -> Result<Response, ApiError> {
    let venue = venue_of(&state)?;
    let entries = with_store(venue, |s| s.casebook()).await?;
    let list: Vec<serde_json::Value> = entries
        .into_iter()
        .map(|mut e| {
            let has_sheet = e.sheet.take().is_some();
            let mut v = serde_json::to_value(&e).expect("serialises");
            v["has_sheet"] = has_sheet.into();
            v.as_object_mut().map(|o| o.remove("sheet"));
            v
        })
        .collect();
    Ok(json_answer(
        StatusCode::OK,
        &serde_json::json!({"schema": 1, "database": venue.database(), "entries": list}),
    ))
}

/// GET /api/venue/casebook/{id}: one entry, whole.
pub(crate) async fn casebook_entry(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let id = id_of(&id)?;
    let venue = venue_of(&state)?;
    let entry = with_store(venue, move |s| s.case(id)).await?;
    Ok(json_answer(
        StatusCode::OK,
        &serde_json::json!({"schema": 1, "entry": entry}),
    ))
}

/// GET /api/venue/casebook/{id}/sheet: the entry's sheet, as it was issued.
pub(crate) async fn casebook_sheet(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let id = id_of(&id)?;
    let venue = venue_of(&state)?;
    let entry = with_store(venue, move |s| s.case(id)).await?;
    match entry.sheet {
        Some(html) => {
            Ok(([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response())
        }
        None => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("case book entry {id} has no sheet"),
        )),
    }
}
