//! `xqa serve --db EVENT.sqlite`: the venue's API and pages over [`crate::venue`].
//!
//! - `GET /api/venue`: the venue (event, the time controls a count may use, whether an access
//!   code is needed, who this device is);
//! - `POST /api/venue/login` `{"code","arbiter"}`: lets a device in (a session cookie);
//!   `POST /api/venue/logout`: closes this device's session (another arbiter takes the phone);
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
use crate::venue::{
    AccessCode, CaseKind, ErrorKind, NO_CODE_TAG, NewCase, NewCount, Store, TimeControls,
    VenueError,
};
use crate::{Color, START_FEN};
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Version, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::sync::{Arc, Mutex};

/// The venue a server runs: its database, and the access code when one is needed.
pub struct Venue {
    store: Mutex<Store>,
    code: Option<AccessCode>,
    /// The session cookie's name: `xqa_session_` and the venue's id, so that two venues served
    /// from one machine (cookies do not tell ports apart) keep their sessions apart.
    cookie: String,
    /// The tag of the sessions this server honours: its code's ([`AccessCode::tag`]).
    code_tag: String,
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
    pub fn new(store: Store, code: Option<AccessCode>) -> Result<Venue, VenueError> {
        let cookie = format!("xqa_session_{}", store.uid()?);
        let code_tag = code
            .as_ref()
            .map_or_else(|| NO_CODE_TAG.to_owned(), AccessCode::tag);
        Ok(Venue {
            store: Mutex::new(store),
            code,
            cookie,
            code_tag,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Store> {
        // (A panic while the store was held leaves it as SQLite left it: every write is a
        // transaction, so the store itself is whole.)
        self.store.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The HTTP status of a venue error.
fn status_of(e: &VenueError) -> StatusCode {
    match e.kind {
        ErrorKind::NotFound(_) => StatusCode::NOT_FOUND,
        ErrorKind::Conflict { .. } | ErrorKind::Running { .. } => StatusCode::CONFLICT,
        ErrorKind::Invalid(_) => StatusCode::BAD_REQUEST,
        ErrorKind::Locked => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// A venue error as a device is told it: without the database's file name (the operator's
/// business: the server's log has the whole error).
fn device_message(e: &VenueError) -> String {
    let text = e.to_string();
    let file = format!("{}: ", e.path.display());
    text.strip_prefix(&file).unwrap_or(&text).to_owned()
}

fn venue_error(e: VenueError) -> ApiError {
    let status = status_of(&e);
    if status == StatusCode::INTERNAL_SERVER_ERROR {
        super::log::refused(&format!("venue database: {e}"));
    }
    ApiError::new(status, e.code(), device_message(&e))
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

/// Every value of the venue's session cookie the request carries (another service on the same
/// host may have set one of the same name for another path).
fn session_tokens(venue: &Venue, headers: &HeaderMap) -> Vec<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(|(name, _)| *name == venue.cookie)
        .map(|(_, value)| value.trim().to_owned())
        .take(8)
        .collect()
}

/// The session of a request, if one of its cookies opens one under this server's code.
async fn session_of(
    venue: &Arc<Venue>,
    headers: &HeaderMap,
) -> Result<Option<crate::venue::Session>, ApiError> {
    let tokens = session_tokens(venue, headers);
    if tokens.is_empty() {
        return Ok(None);
    }
    let tag = venue.code_tag.clone();
    with_store(venue, move |s| {
        for token in &tokens {
            if let Some(found) = s.session(token, &tag)? {
                return Ok(Some(found));
            }
        }
        Ok(None)
    })
    .await
}

/// Whether a request may go on: where a code is asked, only with a session (but for the page's
/// assets, the venue's description and the login).
pub(crate) async fn gate(
    venue: &Arc<Venue>,
    path: &str,
    headers: &HeaderMap,
) -> Result<(), ApiError> {
    if venue.code.is_none() {
        return Ok(());
    }
    let open = !path.starts_with("/api/")
        || matches!(
            path,
            "/api/venue" | "/api/venue/login" | "/api/venue/logout"
        );
    if open {
        return Ok(());
    }
    if session_tokens(venue, headers).is_empty() {
        return Err(unauthorized(
            "this venue's server needs its access code: enter it on the venue page (/venue)",
        ));
    }
    match session_of(venue, headers).await? {
        Some(_) => Ok(()),
        None => Err(unauthorized(
            "this device's session is not known (or the access code changed): enter the access code again on the venue page (/venue)",
        )),
    }
}

/// The arbiter a request acts for: the session's name, else (on loopback, no code asked) the
/// name the request gives.
async fn arbiter(
    venue: &Arc<Venue>,
    headers: &HeaderMap,
    given: Option<&str>,
) -> Result<String, ApiError> {
    if let Some(session) = session_of(venue, headers).await? {
        return Ok(session.arbiter);
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

/// The time controls a count may be started under: the server's event's, or without one the
/// limit profiles.
fn time_controls(state: &AppState) -> Result<TimeControls, ApiError> {
    Ok(TimeControls::of(
        service::event_of(state.event.as_ref())?.as_ref(),
    ))
}

/// GET /api/venue: the event (its names), the time controls a count may use
/// (`time_controls`: name, name_zh, clock, limit, default; `time_control_source`: event or
/// profiles), whether an access code is asked, and who this device is.
pub(crate) async fn info(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let venue = venue_of(&state)?;
    let who = session_of(venue, &headers).await?.map(|s| s.arbiter);
    let event = service::event_of(state.event.as_ref())
        .ok()
        .flatten()
        .map(|e| serde_json::json!({"name": e.name, "name_en": e.name_en}));
    let tcs = time_controls(&state)?;
    Ok(json_answer(
        StatusCode::OK,
        &serde_json::json!({
            "schema": 1,
            "venue": {
                "access_required": venue.code.is_some(),
                "arbiter": who,
                "event": event,
                "time_controls": tcs.choices,
                "time_control_source": tcs.source,
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

/// How long a device keeps its session cookie: as long as the session lasts.
const SESSION_COOKIE_SECONDS: u32 = crate::venue::access::SESSION_DAYS * 24 * 3600;

/// POST /api/venue/login {"code","arbiter"}: a session cookie for this device.
pub(crate) async fn login(State(state): State<AppState>, body: Body) -> Result<Response, ApiError> {
    let venue = venue_of(&state)?.clone();
    let login: Login = body_json(&api::read_body(&state, body).await?)?;
    let right = venue.code.as_ref().is_none_or(|c| c.matches(&login.code));
    if !right {
        // A wrong code costs a second, and wrong codes are answered one at a time: at most one
        // guess a second, however many connections guess at once.
        static WRONG: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
        let _turn = WRONG.lock().await;
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        super::log::refused("a wrong access code was given");
        return Err(unauthorized("wrong access code"));
    }
    let name = login.arbiter;
    let tag = venue.code_tag.clone();
    let session = with_store(&venue, move |s| s.open_session(&name, &tag)).await?;
    let mut r = json_answer(
        StatusCode::OK,
        &serde_json::json!({"schema": 1, "arbiter": session.arbiter}),
    );
    // Entered once per device: the cookie outlives a browser restart (a phone switched off and
    // on keeps its session) for as long as an event lasts. The session itself ends when the
    // device logs out or the server is started with another code.
    let cookie = format!(
        "{}={}; Path=/; Max-Age={SESSION_COOKIE_SECONDS}; HttpOnly; SameSite=Strict",
        venue.cookie, session.token
    );
    r.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_str(&cookie).expect("hex token"),
    );
    Ok(r)
}

/// POST /api/venue/logout: this device's session closed (deleted from the database, committed
/// before the answer) and its cookie cleared. A device without a session is answered the same.
pub(crate) async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let venue = venue_of(&state)?.clone();
    let tokens = session_tokens(&venue, &headers);
    let closed = with_store(&venue, move |s| {
        let mut closed = false;
        for token in &tokens {
            closed |= s.close_session(token)?;
        }
        Ok(closed)
    })
    .await?;
    let mut r = json_answer(
        StatusCode::OK,
        &serde_json::json!({"schema": 1, "logged_out": closed}),
    );
    let cookie = format!(
        "{}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict",
        venue.cookie
    );
    r.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_str(&cookie).expect("a cookie name"),
    );
    Ok(r)
}

/// The claim of a count: its claimant's, under the server's event and the count's time control
/// (without an event, the time control names the limit profile).
fn count_claim(state: &AppState, count: &crate::venue::Count, claimant: Color) -> ClaimRequest {
    let mut request = ClaimRequest::new(claimant);
    request.event = state.event.clone();
    match (&state.event, &count.time_control) {
        (Some(_), tc) => request.time_control = tc.clone(),
        (None, Some(tc)) => request.profile = tc.clone(),
        (None, None) => {}
    }
    request
}

/// The adjudication of a count: under the server's event and the count's time control (without
/// an event, the time control names the limit profile).
fn count_adjudication(state: &AppState, count: &crate::venue::Count) -> service::AdjudicateOptions {
    let mut options = service::AdjudicateOptions {
        event: state.event.clone(),
        ..service::AdjudicateOptions::default()
    };
    match &state.event {
        Some(_) => options.time_control = count.time_control.clone(),
        None => options.limit_profile = count.time_control.clone(),
    }
    options
}

/// A count's claim state at a glance: the claim report's counts, or why there is none.
fn claim_state(state: &AppState, count: &crate::venue::Count) -> serde_json::Value {
    let claimant = match count.claimant.as_deref() {
        Some("red") => Color::Red,
        Some("black") => Color::Black,
        _ => return serde_json::Value::Null,
    };
    let request = count_claim(state, count, claimant);
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
    // (A time control the event does not have is refused now, not in every claim state later;
    // none given is the default, recorded.)
    let time_control = time_controls(&state)?
        .resolve(start.time_control.as_deref())
        .map_err(|r| api::usage(r.message))?;
    let new = NewCount {
        round: start.round,
        table: start.table,
        red: start.red,
        black: start.black,
        time_control,
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
    /// The count's revision the device saw.
    revision: u32,
    #[serde(rename = "move")]
    mv: String,
    arbiter: Option<String>,
}

/// POST /api/venue/counts/{id}/moves {"ply","revision","move"}: stored, then acknowledged with
/// the count.
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
    let count = with_store(&venue, move |s| {
        s.append_move(id, add.ply, add.revision, &add.mv, &who)
    })
    .await?;
    Ok(json_answer(StatusCode::OK, &count_json(&count)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TakeBack {
    ply: u32,
    revision: u32,
    arbiter: Option<String>,
}

/// POST /api/venue/counts/{id}/takeback {"ply","revision"}: the last move (which must be that
/// ply, of that revision) taken back; it stays on record as withdrawn.
pub(crate) async fn take_back(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let id = id_of(&id)?;
    let venue = venue_of(&state)?.clone();
    let back: TakeBack = body_json(&api::read_body(&state, body).await?)?;
    let who = arbiter(&venue, &headers, back.arbiter.as_deref()).await?;
    let count = with_store(&venue, move |s| {
        s.take_back(id, back.ply, back.revision, &who)
    })
    .await?;
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

/// The largest record a case book entry keeps (real games take a few kilobytes).
const MAX_CASE_RECORD: usize = 1024 * 1024;

/// Checks an entry's names and the entry it corrects before anything is ruled (a ruling that
/// could not be recorded is not computed).
async fn check_entry(venue: &Arc<Venue>, new: &NewCase) -> Result<(), ApiError> {
    if new.record.len() > MAX_CASE_RECORD {
        return Err(api::usage(format!(
            "the record is {} bytes: a case book entry keeps records of at most {MAX_CASE_RECORD} bytes",
            new.record.len()
        )));
    }
    let probe = new.clone();
    with_store(venue, move |s| s.check_case(&probe)).await
}

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
    // (None named: the entry records the one the ruling takes, the default.)
    let default_time_control = time_controls(&state)?.resolve(None).ok().flatten();
    let mut new = NewCase {
        kind,
        corrects,
        event: None,
        // (Without an event, the limit profile named is the ruling's time control.)
        time_control: ["time_control", "profile", "limit_profile"]
            .iter()
            .find_map(|p| api::param(&q, p))
            .map(str::to_owned)
            .or(default_time_control),
        round: text("round"),
        table: text("table"),
        red: text("red"),
        black: text("black"),
        record,
        record_bytes,
        ruling: serde_json::json!({}),
        sheet: None,
    };
    let ruling = if claim {
        Ruling::Claim(api::claim_request(&state, &q)?)
    } else {
        Ruling::Cycles(api::adjudicate_options(&state, &q)?)
    };
    new.event = event_name(ruling.event())?;
    check_entry(&venue, &new).await?;
    let lane = api::lane(&state, &input);
    api::analyse(&state, version, lane, move |sink| {
        rule_and_record(&input, &ruling, &mut new, &venue, &who, sink)
    })
    .await
}

/// What an entry rules: a claim, or the repetition cycles (an adjudication).
enum Ruling {
    Claim(ClaimRequest),
    Cycles(service::AdjudicateOptions),
}

impl Ruling {
    fn event(&self) -> Option<&service::SettingsText> {
        match self {
            Ruling::Claim(request) => request.event.as_ref(),
            Ruling::Cycles(options) => options.event.as_ref(),
        }
    }
}

/// Rules on the game, then records the entry with the ruling's JSON, the time control it was
/// made under and its sheet (committed), and writes the entry as the answer.
fn rule_and_record(
    input: &GameInput,
    ruling: &Ruling,
    new: &mut NewCase,
    venue: &Venue,
    who: &str,
    sink: &mut super::stream::Sink,
) -> Result<(), ServiceError> {
    let (json, sheet) = match ruling {
        Ruling::Claim(request) => {
            let outcome = service::claim(input, request)?;
            api::still_wanted()?;
            api::answer_cap(outcome.line.moves.len())?;
            (
                outcome.to_json_value(),
                service::claim_sheet(input, request)?,
            )
        }
        Ruling::Cycles(options) => {
            let report = service::adjudicate(input, options)?;
            api::still_wanted()?;
            api::answer_cap(report.line.moves.len())?;
            (
                report.to_json_value(),
                service::adjudicate_sheet(input, options)?,
            )
        }
    };
    new.time_control = ruled_time_control(&json).or(new.time_control.take());
    new.ruling = json;
    new.sheet = Some(sheet);
    record_entry(venue, new, who, sink)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleCount {
    /// The count's revision the device saw: the count is ruled as it was then, or refused (409).
    revision: u32,
    /// What is ruled: the claim (the default) or the repetition cycles.
    #[serde(default)]
    of: RuleOf,
    /// The side that claims, for a count started without one.
    claimant: Option<String>,
    corrects: Option<i64>,
    arbiter: Option<String>,
}

#[derive(Deserialize, Default, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
enum RuleOf {
    #[default]
    Claim,
    Cycles,
}

/// POST /api/venue/counts/{id}/rule {"revision", "of": "claim"|"cycles", "claimant"}: the
/// count's claim (its claimant's, or the one given for a count started without one) or its
/// repetition cycles, under the server's event and the count's time control, ruled on the count
/// as stored at the revision the device saw (409 when it has changed since), and recorded with
/// its sheet. A closed count is not ruled.
pub(crate) async fn rule_count(
    State(state): State<AppState>,
    version: Version,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let id = id_of(&id)?;
    let venue = venue_of(&state)?.clone();
    let asked: RuleCount = body_json(&api::read_body(&state, body).await?)?;
    let who = arbiter(&venue, &headers, asked.arbiter.as_deref()).await?;
    let count = with_store(&venue, move |s| s.count(id)).await?;
    if let Some(by) = &count.closed_by {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "conflict",
            format!("live count {id} was closed by {by}: a closed count is not ruled"),
        ));
    }
    if count.revision != asked.revision {
        return Err(venue_error(VenueError {
            path: std::path::PathBuf::new(),
            kind: ErrorKind::Conflict {
                plies: count.plies(),
                revision: count.revision,
                ply: count.plies(),
                seen: asked.revision,
            },
        }));
    }
    let claimant = match (count.claimant.as_deref(), asked.claimant.as_deref()) {
        (Some(stored), Some(given)) if stored != given => {
            return Err(api::usage(format!(
                "live count {id} was started with {stored} claiming, not {}",
                service::shorten(given)
            )));
        }
        (Some("red"), _) | (None, Some("red")) => Color::Red,
        (Some("black"), _) | (None, Some("black")) => Color::Black,
        (None, Some(other)) => {
            return Err(api::usage(format!(
                "claimant {}: expected red or black",
                service::shorten(other)
            )));
        }
        _ if asked.of == RuleOf::Cycles => Color::Red,
        _ => {
            return Err(api::usage(format!(
                "live count {id} has no claimant: give the side that claims (\"claimant\")"
            )));
        }
    };
    let ruling = match asked.of {
        RuleOf::Claim => Ruling::Claim(count_claim(&state, &count, claimant)),
        RuleOf::Cycles => Ruling::Cycles(count_adjudication(&state, &count)),
    };
    let moves = count.moves_text();
    let input = GameInput::fen(Some(&count.fen), Some(&moves));
    let mut new = NewCase {
        kind: match asked.of {
            RuleOf::Claim => CaseKind::Claim,
            RuleOf::Cycles => CaseKind::Cycle,
        },
        corrects: asked.corrects,
        event: event_name(ruling.event())?,
        time_control: count.time_control.clone(),
        round: count.round.clone(),
        table: count.table.clone(),
        red: count.red.clone(),
        black: count.black.clone(),
        record: format!(
            "FEN: {}\nMoves: {moves}\nLive count {id}, revision {}",
            count.fen, count.revision
        ),
        record_bytes: None,
        ruling: serde_json::json!({}),
        sheet: None,
    };
    check_entry(&venue, &new).await?;
    let lane = api::lane(&state, &input);
    api::analyse(&state, version, lane, move |sink| {
        rule_and_record(&input, &ruling, &mut new, &venue, &who, sink)
    })
    .await
}

fn event_name(event: Option<&service::SettingsText>) -> Result<Option<String>, ApiError> {
    Ok(service::event_of(event)?.map(|e| e.name))
}

/// The time control a ruling was made under, as the ruling states it: the event's time control,
/// or without an event the natural move limit profile (a claim's `profile`, an adjudication's
/// `natural_limit.profile`). The entry records this, not what the request asked for.
fn ruled_time_control(ruling: &serde_json::Value) -> Option<String> {
    [
        &ruling["time_control"],
        &ruling["profile"],
        &ruling["natural_limit"]["profile"],
    ]
    .into_iter()
    .find_map(|v| v.as_str())
    .map(str::to_owned)
}

/// Records the entry (committed) and writes it as the answer.
fn record_entry(
    venue: &Venue,
    new: &NewCase,
    arbiter: &str,
    sink: &mut super::stream::Sink,
) -> Result<(), ServiceError> {
    let entry = venue.lock().record_case(new, arbiter).map_err(|e| {
        super::log::refused(&format!("venue database: {e}"));
        let mut error = ServiceError::usage(device_message(&e));
        error.kind = e.code().to_owned();
        error
    })?;
    sink.json(&serde_json::json!({"schema": 1, "entry": entry}))?;
    sink.put(b"\n")
}

/// GET /api/venue/casebook: every entry at a glance (without its record, ruling and sheet: the
/// verdicts, and `has_sheet`), by round and table.
pub(crate) async fn casebook_list(State(state): State<AppState>) -> Result<Response, ApiError> {
    let venue = venue_of(&state)?;
    let entries = with_store(venue, |s| s.casebook_glance()).await?;
    Ok(json_answer(
        StatusCode::OK,
        &serde_json::json!({"schema": 1, "entries": entries}),
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
