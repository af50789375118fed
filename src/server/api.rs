//! The JSON API: each handler turns the query and body into a service call, runs it on the
//! blocking pool, and answers with the report the CLI prints for the same input.

use super::stream::{self, Sink};
use super::{AppState, Lane, log};
use crate::Color;
use crate::service::{self, AdjudicateOptions, ClaimRequest, GameInput, ServiceError};
use axum::body::{Body, Bytes};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode, Version, header};
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// A request's query, as sent (checked against the endpoint's parameters by [`params`]).
pub(super) type RawQuery = Result<Query<Vec<(String, String)>>, QueryRejection>;
type Params = HashMap<String, String>;

/// An answer that is not a report: the service's error (the schema's error object
/// `{"schema":1,"code","error":{...}}`), with its HTTP status.
pub(crate) struct ApiError {
    status: StatusCode,
    error: ServiceError,
    /// Seconds, for a 503.
    retry_after: Option<u32>,
}

impl ApiError {
    /// An error of the server itself (not of the analysis): `kind` and `message`, code 2 (code
    /// 1 for a 422).
    pub(crate) fn new(status: StatusCode, kind: &str, message: String) -> ApiError {
        let mut error = ServiceError::usage(message);
        error.kind = kind.to_owned();
        if status == StatusCode::UNPROCESSABLE_ENTITY {
            error.code = 1;
        }
        ApiError {
            status,
            error,
            retry_after: None,
        }
    }

    pub(crate) fn status(&self) -> StatusCode {
        self.status
    }

    pub(crate) fn message(&self) -> &str {
        &self.error.message
    }

    /// The answer's body: the error object, a line.
    pub(crate) fn body(&self) -> String {
        format!("{}\n", self.error.to_json())
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> ApiError {
        ApiError {
            status: if e.code == 1 {
                StatusCode::UNPROCESSABLE_ENTITY
            } else {
                StatusCode::BAD_REQUEST
            },
            error: e,
            retry_after: None,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut r = (
            self.status,
            [(header::CONTENT_TYPE, "application/json")],
            self.body(),
        )
            .into_response();
        if let Some(s) = self.retry_after {
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        r
    }
}

pub(super) fn usage(message: String) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "usage", message)
}

/// The query of a request as a map, refusing a parameter the endpoint does not take (a
/// misspelt one would silently change the ruling) or one given twice, with 400 naming it.
pub(super) fn params(raw: RawQuery, accepted: &[&str]) -> Result<Params, ApiError> {
    let Query(pairs) = raw.map_err(|e| usage(format!("bad query: {}", e.body_text())))?;
    let mut unknown = Vec::new();
    let mut map = HashMap::new();
    for (k, v) in pairs {
        if !accepted.contains(&k.as_str()) {
            unknown.push(service::shorten(&k));
        } else if map.insert(k.clone(), v).is_some() {
            return Err(usage(format!("parameter {k} is given twice")));
        }
    }
    if !unknown.is_empty() {
        return Err(usage(format!(
            "unknown parameter{} {} (this endpoint takes {})",
            if unknown.len() == 1 { "" } else { "s" },
            unknown.join(", "),
            accepted.join(", ")
        )));
    }
    Ok(map)
}

/// The body, read within the body timeout and up to the body limit (413 naming it).
pub(super) async fn read_body(state: &AppState, body: Body) -> Result<Bytes, ApiError> {
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!(
                "the request body is over the limit of {} MB ({} bytes)",
                state.body_limit / (1024 * 1024),
                state.body_limit
            ),
        )
    };
    let limited = http_body_util::Limited::new(body, state.body_limit);
    let read = match tokio::time::timeout(
        state.body_timeout,
        http_body_util::BodyExt::collect(limited),
    )
    .await
    {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(too_large()),
        Ok(Err(e)) => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_body",
            format!("the request body could not be read: {e}"),
        )),
        Err(_) => Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "body_timeout",
            format!(
                "the request body was not sent within this server's {} s (--body-timeout-seconds)",
                state.body_timeout.as_secs_f64()
            ),
        )),
    };
    if let Err(e) = &read {
        log::refused(&format!(
            "request body: {} {}",
            e.status().as_u16(),
            e.message()
        ));
    }
    read
}

/// The content type of a text report.
const TEXT: &str = "text/plain; charset=utf-8";

/// Gives a lane's place back when the request leaves it (answered, refused, or its client gone).
struct Admitted(Arc<AtomicUsize>);
impl Drop for Admitted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Calls the analysis off when the request's future is dropped: answered, or its client gone
/// (unless disarmed: a streamed answer's body calls it off when it is dropped).
struct CallOff(Option<Arc<AtomicBool>>);
impl Drop for CallOff {
    fn drop(&mut self) {
        if let Some(flag) = &self.0 {
            flag.store(true, Ordering::Relaxed);
        }
    }
}

/// The longest line whose adjudicate or claim report the server writes out: the JSON takes
/// about 5 KB a ply (a 200,000-ply record would take a gigabyte, and several times that while
/// it is built), and no real game comes near (the CLI has no such limit).
pub(crate) const MAX_ANSWER_PLIES: usize = 20_000;

/// Refuses to write the report of a line of `plies` plies over [`MAX_ANSWER_PLIES`], before
/// its JSON is built.
pub(super) fn answer_cap(plies: usize) -> Result<(), ServiceError> {
    if plies > MAX_ANSWER_PLIES {
        let mut e = ServiceError::usage(format!(
            "the report of this {plies}-ply line is not written: the server writes reports of at most {MAX_ANSWER_PLIES} plies (use the CLI, or --at with a shorter line)"
        ));
        e.kind = "answer_too_large".into();
        return Err(e);
    }
    Ok(())
}

/// The analysis has been called off (deadline or client gone): its answer is not built.
pub(super) fn still_wanted() -> Result<(), ServiceError> {
    if crate::rules::search::cancelled() {
        Err(ServiceError::usage("called off"))
    } else {
        Ok(())
    }
}

/// Runs an analysis on the blocking pool, in `lane`: at most its workers at a time, each
/// holding its permit inside the job (so an analysis whose client went away still counts until
/// it stops, which it does at once), under the request budget; 503 with Retry-After when the
/// lane's queue is full. The job writes its answer into a [`Sink`]: a small answer is sent whole
/// when the job ends, a large one streamed while the job writes it (see [`super::stream`]),
/// except to an HTTP/1.0 request (`version`), which has no chunked encoding to end it.
pub(super) async fn analyse(
    state: &AppState,
    version: Version,
    lane: &Lane,
    job: impl FnOnce(&mut Sink) -> Result<(), ServiceError> + Send + 'static,
) -> Result<Response, ApiError> {
    let before = lane.admitted.fetch_add(1, Ordering::SeqCst);
    let admitted = Admitted(lane.admitted.clone());
    if before >= lane.capacity {
        let mut e = ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            format!(
                "the server is busy: {before} analyses running or waiting (the limit is {}); try again shortly",
                lane.capacity
            ),
        );
        e.retry_after = Some(2);
        log::refused(&e.error.message);
        return Err(e);
    }
    let permit = lane.permits.clone().acquire_owned().await.map_err(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "shutdown",
            "server stopping".into(),
        )
    })?;
    let cancel = Arc::new(AtomicBool::new(false));
    let mut call_off = CallOff(Some(cancel.clone()));
    let flag = cancel.clone();
    let budget = state.max_request;
    let deadline = tokio::time::Instant::now() + budget;
    let (mut sink, source) = stream::sink(
        deadline.into_std(),
        budget,
        tokio::runtime::Handle::current(),
        version >= Version::HTTP_11,
    );
    let mut task = tokio::task::spawn_blocking(move || {
        let _held = (permit, admitted);
        crate::rules::search::cancellable(flag, move || {
            let written = job(&mut sink);
            let streaming = sink.streaming();
            let sent = sink.sent;
            let finished = written.and_then(|()| sink.finish());
            if let (true, Err(e)) = (streaming, &finished) {
                // (The status, 200, is sent: the body ends with an error, and the log says why.)
                log::refused(&format!(
                    "a streamed answer was cut short after {sent} bytes: {}",
                    e.message
                ));
            }
            finished
        })
    });
    let stream::Source { mut start, rx } = source;
    tokio::select! {
        biased;
        Ok(content_type) = &mut start => {
            // The answer is streamed: from now on its body calls the analysis off when it is
            // dropped, and the budget is watched by a timer of its own.
            call_off.0 = None;
            let body_flag = cancel.clone();
            let timer = tokio::spawn(async move {
                tokio::time::sleep_until(deadline).await;
                cancel.store(true, Ordering::Relaxed);
            });
            Ok((
                [(header::CONTENT_TYPE, content_type)],
                Body::new(stream::Streamed::new(rx, body_flag, timer.abort_handle())),
            )
                .into_response())
        }
        joined = &mut task => match joined {
            Ok(Ok(Some((content_type, bytes)))) => {
                Ok(([(header::CONTENT_TYPE, content_type)], bytes).into_response())
            }
            Ok(Ok(None)) => Err(ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                "the answer was streamed but its stream was lost".into(),
            )),
            Ok(Err(e)) => Err(e.into()),
            Err(e) => Err(ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                format!("the analysis failed: {e}"),
            )),
        },
        () = tokio::time::sleep_until(deadline) => {
            cancel.store(true, Ordering::Relaxed);
            let e = ApiError::from(stream::over_budget(budget));
            log::refused(&e.error.message);
            Err(e)
        }
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

/// The event of a request: `event=NAME` (a shipped event), `event=none`, `event_json=` (an
/// event file's text, as the page sends one the user loaded), or the server's own (`xqa serve
/// --event FILE`).
fn request_event(
    state: &AppState,
    q: &HashMap<String, String>,
) -> Result<Option<service::SettingsText>, ApiError> {
    if let Some(text) = param(q, "event_json") {
        if q.contains_key("event") {
            return Err(usage(
                "event= and event_json= both name an event: send one of them".into(),
            ));
        }
        return Ok(Some(service::SettingsText {
            name: "event_json".into(),
            text: text.to_owned(),
        }));
    }
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
                None => Err(usage(format!(
                    "event={}: not a shipped event (expected none or one of {})",
                    service::shorten(name),
                    SHIPPED_EVENTS
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                ))),
            }
        }
    }
}

pub(super) fn param<'a>(q: &'a HashMap<String, String>, name: &str) -> Option<&'a str> {
    q.get(name).map(String::as_str).filter(|s| !s.is_empty())
}

pub(super) fn number<T: std::str::FromStr>(
    q: &HashMap<String, String>,
    name: &str,
) -> Result<Option<T>, ApiError> {
    match param(q, name) {
        None => Ok(None),
        Some(v) => v
            .parse()
            .map(Some)
            .map_err(|_| usage(format!("{name}={}: not a number", service::shorten(v)))),
    }
}

/// The parameters that choose the game: a record in the body (`name`, `game`), or `fen` and
/// `moves` with an empty body.
pub(super) const GAME: &[&str] = &["name", "game", "fen", "moves"];
pub(super) const ADJUDICATE: &[&str] = &[
    "lang",
    "rules",
    "at",
    "limit_profile",
    "profile",
    "format",
    "event",
    "event_json",
    "time_control",
    "overlay",
];
pub(super) const CLAIM: &[&str] = &[
    "claimant",
    "profile",
    "at",
    "from_claim",
    "rules",
    "limit",
    "attack_cap",
    "check_cap",
    "format",
    "lang",
    "event",
    "event_json",
    "time_control",
];

/// `GAME` and the lists given.
pub(super) fn accepted(lists: &[&[&'static str]]) -> Vec<&'static str> {
    let mut all: Vec<&str> = GAME.to_vec();
    for l in lists {
        for p in *l {
            if !all.contains(p) {
                all.push(p);
            }
        }
    }
    all
}

/// The game of a request: the record in the body (game `game`, named `name`), or `fen` and
/// `moves` when the body is empty (a body with `fen` or `moves` is refused: one of them would be
/// ignored).
pub(super) fn game_input(q: &HashMap<String, String>, body: Bytes) -> Result<GameInput, ApiError> {
    if body.is_empty() {
        return Ok(GameInput::fen(param(q, "fen"), param(q, "moves")));
    }
    if let Some(p) = ["fen", "moves"].into_iter().find(|p| q.contains_key(*p)) {
        return Err(usage(format!(
            "{p}= goes with an empty body; this request sends a record in its body"
        )));
    }
    Ok(GameInput::record(
        Vec::from(body),
        param(q, "name").unwrap_or("upload"),
        number(q, "game")?.unwrap_or(1),
    ))
}

/// The lane of a request: a record in the body is heavy work; a FEN and moves (the live count)
/// has a lane of its own, so that it never waits behind uploads.
pub(super) fn lane<'a>(state: &'a AppState, input: &GameInput) -> &'a Lane {
    match input {
        GameInput::Fen { .. } => &state.light,
        _ => &state.heavy,
    }
}

fn lang(q: &HashMap<String, String>) -> Result<crate::report::text::TextLang, ApiError> {
    param(q, "lang").unwrap_or("en").parse().map_err(usage)
}

/// POST /api/validate?name=: one JSON line per game, as `xqa validate --json`.
pub(crate) async fn validate(
    State(state): State<AppState>,
    version: Version,
    query: RawQuery,
    body: Body,
) -> Result<Response, ApiError> {
    let q = params(query, &["name"])?;
    let bytes = read_body(&state, body).await?;
    let name = param(&q, "name").unwrap_or("upload").to_owned();
    analyse(&state, version, &state.heavy, move |sink| {
        // Each game's line is written as soon as the game is read (a database of half a million
        // games is answered with the memory of one).
        sink.content_type("application/x-ndjson");
        for report in service::validate_games(&bytes, &name) {
            sink.check()?;
            sink.json(&report)?;
            sink.put(b"\n")?;
        }
        Ok(())
    })
    .await
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
    refuse_with_event(q, o.event.as_ref(), &["rules"])?;
    Ok(o)
}

/// Options that an event sets itself are refused with one (a usage error naming both), as the
/// CLI refuses them with `--event`: the event (`event=`, or the server's own) names them.
fn refuse_with_event(
    q: &HashMap<String, String>,
    event: Option<&service::SettingsText>,
    names: &[&str],
) -> Result<(), ApiError> {
    let Some(event) = event else {
        return Ok(());
    };
    match names.iter().find_map(|n| param(q, n).map(|v| (n, v))) {
        None => Ok(()),
        Some((n, v)) => Err(usage(format!(
            "{n}={} cannot be used with the event {} ({}): the event names its rules and its time controls' natural move limits; choose time_control=, or send event=none",
            service::shorten(v),
            event.name,
            if q.contains_key("event") {
                "event="
            } else {
                "the server's --event"
            }
        ))),
    }
}

/// `format=`: `text` or (the default) `json`.
fn text_format(q: &HashMap<String, String>) -> Result<bool, ApiError> {
    match param(q, "format") {
        None | Some("json") => Ok(false),
        Some("text") => Ok(true),
        Some(other) => Err(usage(format!(
            "format={}: expected json or text",
            service::shorten(other)
        ))),
    }
}

/// POST /api/adjudicate?game=&rules=&at=&limit_profile=: as `xqa adjudicate --json`
/// (`format=text`: the text table).
pub(crate) async fn adjudicate(
    State(state): State<AppState>,
    version: Version,
    query: RawQuery,
    body: Body,
) -> Result<Response, ApiError> {
    let q = params(query, &accepted(&[ADJUDICATE]))?;
    let options = adjudicate_options(&state, &q)?;
    let text = text_format(&q)?;
    // (As the CLI's: both languages unless lang= says.)
    let lang = match param(&q, "lang") {
        None => crate::report::text::TextLang::Both,
        Some(_) => lang(&q)?,
    };
    let input = game_input(&q, read_body(&state, body).await?)?;
    analyse(&state, version, lane(&state, &input), move |sink| {
        let report = service::adjudicate(&input, &options)?;
        still_wanted()?;
        answer_cap(report.line.moves.len())?;
        if text {
            sink.content_type(TEXT);
            sink.put(report.to_text_in(lang).as_bytes())
        } else {
            sink.json_pretty(&report.to_json_value())?;
            sink.put(b"\n")
        }
    })
    .await
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
            return Err(usage(format!(
                "claimant={}: not a side (expected red or black)",
                service::shorten(other)
            )));
        }
        None => return Err(usage("claimant= is required (red or black)".into())),
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
    refuse_with_event(q, r.event.as_ref(), &["rules", "profile"])?;
    Ok(r)
}

/// POST /api/claim?game=&claimant=&profile=&at=&from_claim=&rules=&limit=&attack_cap=&check_cap=:
/// as `xqa claim --json` (`format=text`: the text report in `lang`).
pub(crate) async fn claim(
    State(state): State<AppState>,
    version: Version,
    query: RawQuery,
    body: Body,
) -> Result<Response, ApiError> {
    let q = params(query, &accepted(&[CLAIM]))?;
    let request = claim_request(&state, &q)?;
    let lang = lang(&q)?;
    let text = text_format(&q)?;
    let input = game_input(&q, read_body(&state, body).await?)?;
    analyse(&state, version, lane(&state, &input), move |sink| {
        let outcome = service::claim(&input, &request)?;
        still_wanted()?;
        answer_cap(outcome.line.moves.len())?;
        if text {
            sink.content_type(TEXT);
            sink.put(outcome.to_text_in(lang).as_bytes())
        } else {
            sink.json_pretty(&outcome.to_json_value())?;
            sink.put(b"\n")
        }
    })
    .await
}

/// GET /api/events: the events a request can name, for the page's event and time-control
/// pickers: `{"default": ID, "events": [EVENT...]}`, each event as its file reads (name,
/// name_en, time_controls with their limit, draw odds and claims after the game,
/// default_time_control, ...) with its `id`: the value of `event=` that picks it (`""` for the
/// server's own, `xqa serve --event FILE`, which a request gets by sending no `event=`).
/// `default` is the event a request without `event=` follows (`none`: no event). With
/// `event_json=` (an event file's text) only that event, checked (`id` `file`), or its error.
pub(crate) async fn events(
    State(state): State<AppState>,
    query: RawQuery,
) -> Result<Response, ApiError> {
    let q = params(query, &["event_json"])?;
    let mut list = Vec::new();
    let mut add = |id: &str, text: &service::SettingsText| -> Result<(), ApiError> {
        if let Some(e) = service::event_of(Some(text))? {
            let mut v = serde_json::to_value(&e).expect("event serialises");
            v["id"] = id.into();
            list.push(v);
        }
        Ok(())
    };
    if let Some(own) = request_event(&state, &q)?.filter(|_| q.contains_key("event_json")) {
        // (An event file the page loaded: checked, and given back as the page will send it.)
        add("file", &own)?;
        return Ok((
            [(header::CONTENT_TYPE, "application/json")],
            serde_json::json!({"default": "file", "events": list}).to_string(),
        )
            .into_response());
    }
    if let Some(own) = &state.event {
        add("", own)?;
    }
    for (id, text) in SHIPPED_EVENTS {
        add(
            id,
            &service::SettingsText {
                name: format!("events/{id}.json"),
                text: (*text).to_owned(),
            },
        )?;
    }
    let body = serde_json::json!({
        "default": if state.event.is_some() { "" } else { "none" },
        "events": list,
    });
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        serde_json::to_string_pretty(&body).expect("events serialise"),
    )
        .into_response())
}

/// GET /api/moves?fen=&notation=: as `xqa moves --json`. One position's legal moves: cheap and
/// bounded (by the URI's size), so answered at once, off the analysis lanes.
pub(crate) async fn moves(query: RawQuery) -> Result<Response, ApiError> {
    let q = params(query, &["fen", "notation"])?;
    let fen = param(&q, "fen").unwrap_or(crate::START_FEN);
    let notation: crate::Notation = match param(&q, "notation") {
        None => crate::Notation::Iccs,
        Some(n) => n.parse().map_err(usage)?,
    };
    let report = service::moves(fen, notation)?;
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        report.to_json(),
    )
        .into_response())
}

/// POST /api/review?game=&name= (or fen=&moves= with an empty body): the game laid out for the
/// web app.
pub(crate) async fn review(
    State(state): State<AppState>,
    version: Version,
    query: RawQuery,
    body: Body,
) -> Result<Response, ApiError> {
    let q = params(query, GAME)?;
    let input = game_input(&q, read_body(&state, body).await?)?;
    analyse(&state, version, lane(&state, &input), move |sink| {
        // (Written ply by ply: a record of one long line is answered in bounded memory.)
        service::review_json(&input, &mut *sink).map_err(|e| sink.reason_or(e))
    })
    .await
}

/// GET /api/board?fen=&last=&targets=a,b&selected=&dots=a,b&caption=: the SVG picture (cheap,
/// answered at once).
pub(crate) async fn board(query: RawQuery) -> Result<Response, ApiError> {
    let q = params(
        query,
        &["fen", "last", "targets", "selected", "dots", "caption"],
    )?;
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
    version: Version,
    query: RawQuery,
    body: Body,
) -> Result<Response, ApiError> {
    let mut takes = accepted(&[&["kind"], ADJUDICATE, CLAIM]);
    takes.retain(|p| *p != "format");
    let q = params(query, &takes)?;
    let html = |sink: &mut Sink, text: String| {
        sink.content_type("text/html; charset=utf-8");
        sink.put(text.as_bytes())
    };
    match param(&q, "kind").unwrap_or("adjudicate") {
        "claim" => {
            let request = claim_request(&state, &q)?;
            let input = game_input(&q, read_body(&state, body).await?)?;
            analyse(&state, version, lane(&state, &input), move |sink| {
                html(sink, service::claim_sheet(&input, &request)?)
            })
            .await
        }
        "adjudicate" => {
            let options = adjudicate_options(&state, &q)?;
            let input = game_input(&q, read_body(&state, body).await?)?;
            analyse(&state, version, lane(&state, &input), move |sink| {
                html(sink, service::adjudicate_sheet(&input, &options)?)
            })
            .await
        }
        other => Err(usage(format!(
            "kind={}: expected adjudicate or claim",
            service::shorten(other)
        ))),
    }
}

/// POST /api/repair?name=&game=&pick=: game `game` (1-based) of the PGN record in the body,
/// repaired by its score-sheet repair `pick` (1-based, best first; the review's `error.repairs`
/// lists them), as PGN in the record's notation with each edit marked by a comment, as
/// `xqa repair` writes it.
pub(crate) async fn repair(
    State(state): State<AppState>,
    version: Version,
    query: RawQuery,
    body: Body,
) -> Result<Response, ApiError> {
    let q = params(query, &["name", "game", "pick"])?;
    let name = param(&q, "name").unwrap_or("upload").to_owned();
    let game = number(&q, "game")?.unwrap_or(1);
    let pick = number(&q, "pick")?.unwrap_or(1);
    let bytes = read_body(&state, body).await?;
    analyse(&state, version, &state.heavy, move |sink| {
        let r = service::repair_game(&bytes, &name, game, pick)?;
        sink.content_type("text/plain; charset=utf-8");
        sink.put(r.text.as_bytes())
    })
    .await
}

pub(crate) async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such page".into())
}
