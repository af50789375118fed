//! `xqa serve`: the arbiter's workbench, a local web app over the service layer, and its JSON
//! API. Every answer is computed by the same service call as the CLI's, so the API's JSON is
//! byte for byte what `xqa ... --json` prints for the same input.
//!
//! What the server promises (each promise has its test in `tests/hostile_clients.rs` or
//! `tests/server.rs`):
//!
//! - request bodies are capped ([`ServerOptions::body_limit`], 413 naming the limit), and read
//!   within [`ServerOptions::body_timeout`]; the request line and headers within
//!   [`ServerOptions::header_timeout`] (an idle keep-alive connection is closed after it too);
//!   URIs over [`MAX_URI_BYTES`] get 414 and headers over [`MAX_HEADER_BYTES`] 431, and every
//!   request head is checked before hyper sees it (`head.rs`), so that what hyper would refuse
//!   with a bare status gets the error object too; at most [`ServerOptions::max_connections`]
//!   connections are served at once (more get a 503 and are closed at once), and a connection
//!   whose client takes nothing of its answers for [`ServerOptions::body_timeout`] is closed;
//! - no request touches the file system (records come in the body);
//! - every analysis runs on the blocking pool (never on the async workers), at most
//!   [`ServerOptions::workers`] at a time; the permit is held by the analysis itself, so an
//!   analysis whose client went away still counts, and it is called off at once; each request has
//!   a budget of [`ServerOptions::max_request`] (an error naming it when spent) on top of the rules
//!   engine's node budget; its JSON is built inside the same job, under the same budget, and an
//!   answer over 1 MB is streamed from the job as it is written (`stream.rs`), in bounded memory
//!   (never to an HTTP/1.0 request: up to 16 MB it is sent whole, beyond it refused);
//! - at most [`ServerOptions::queue`] analyses wait their turn: beyond that, 503 with
//!   `Retry-After`; a live count's requests (a FEN and moves, no body) have a lane of their own,
//!   and `/api/moves` and `/api/board` are answered at once, off both lanes;
//! - a request whose `Origin` or `Host` is not the server's own (or one given with
//!   `--allow-origin`) is refused with 403 (no web page the arbiter visits can use the server, DNS
//!   rebinding included);
//! - an unknown or repeated query parameter is a 400 naming it;
//! - every error, whatever its status, is the schema's error object
//!   (`{"schema":1,"code","error":{...}}`);
//! - on SIGTERM (or Ctrl-C) the server stops accepting and finishes the requests in flight.

mod api;
mod assets;
mod guard;
mod head;
mod stream;
pub mod venue;

use axum::Router;
use axum::routing::{get, post};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::Duration;
use tokio::sync::Semaphore;

/// The default cap on a request body: 16 MB.
pub const DEFAULT_BODY_LIMIT: usize = 16 * 1024 * 1024;
/// The longest request URI accepted (a live count's moves go in the query): 32 KiB (hyper
/// itself refuses 64 KiB and more, with a bare 414).
pub const MAX_URI_BYTES: usize = 32 * 1024;
/// The largest total size of a request's headers: 32 KiB.
pub const MAX_HEADER_BYTES: usize = 32 * 1024;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// The largest request body accepted, in bytes.
    pub body_limit: usize,
    /// Analyses run at once (the others wait their turn).
    pub workers: usize,
    /// Analyses that may wait for their turn; beyond them a request gets 503 with Retry-After.
    pub queue: usize,
    /// The budget of one request's analysis (and its answer), counted from its start.
    pub max_request: Duration,
    /// The time a client has to send a request's line and headers (and that an idle keep-alive
    /// connection is kept).
    pub header_timeout: Duration,
    /// The time a client has to send a request's body; and the time a connection's client may
    /// take nothing of its answers (beyond it, the connection is closed).
    pub body_timeout: Duration,
    /// Connections served at once.
    pub max_connections: usize,
    /// Origins (`http://host:port`) allowed besides the server's own; their hosts are allowed as
    /// `Host` too.
    pub allow_origins: Vec<String>,
    /// The event whose rules the analyses follow unless a request names another (`event=` a
    /// shipped event's name, or `none`): an event file's text, as `xqa serve --event FILE`
    /// read it at start-up.
    pub event: Option<crate::service::SettingsText>,
    /// The venue's database (`xqa serve --db`): live counts, the case book, the access code.
    pub venue: Option<Arc<venue::Venue>>,
}

impl Default for ServerOptions {
    fn default() -> ServerOptions {
        let workers = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
            .max(2);
        ServerOptions {
            body_limit: DEFAULT_BODY_LIMIT,
            workers,
            queue: 32,
            max_request: Duration::from_secs(10),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(60),
            max_connections: 256,
            allow_origins: Vec::new(),
            event: None,
            venue: None,
        }
    }
}

/// One lane of analyses: its permits (analyses at once) and the requests admitted to it (running
/// or waiting).
pub(crate) struct Lane {
    pub permits: Arc<Semaphore>,
    pub admitted: Arc<AtomicUsize>,
    /// Running and waiting analyses admitted at most.
    pub capacity: usize,
}

impl Lane {
    fn new(workers: usize, queue: usize) -> Lane {
        Lane {
            permits: Arc::new(Semaphore::new(workers.max(1))),
            admitted: Arc::new(AtomicUsize::new(0)),
            capacity: workers.max(1) + queue,
        }
    }
}

/// What the handlers share.
#[derive(Clone)]
pub(crate) struct AppState {
    pub body_limit: usize,
    pub body_timeout: Duration,
    pub max_request: Duration,
    /// Records uploaded in the body.
    pub heavy: Arc<Lane>,
    /// A FEN and moves in the query (the live count).
    pub light: Arc<Lane>,
    pub event: Option<crate::service::SettingsText>,
    pub allow_origins: Arc<Vec<String>>,
    pub venue: Option<Arc<venue::Venue>>,
}

/// The web app and the API.
pub fn router(options: &ServerOptions) -> Router {
    let state = AppState {
        body_limit: options.body_limit,
        body_timeout: options.body_timeout,
        max_request: options.max_request,
        heavy: Arc::new(Lane::new(options.workers, options.queue)),
        light: Arc::new(Lane::new(1, options.queue)),
        event: options.event.clone(),
        allow_origins: Arc::new(
            options
                .allow_origins
                .iter()
                .map(|o| o.trim_end_matches('/').to_ascii_lowercase())
                .collect(),
        ),
        venue: options.venue.clone(),
    };
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/app.css", get(assets::style))
        .route("/api/validate", post(api::validate))
        .route("/api/adjudicate", post(api::adjudicate))
        .route("/api/claim", post(api::claim))
        .route("/api/moves", get(api::moves))
        .route("/api/review", post(api::review))
        .route("/api/board", get(api::board))
        .route("/api/events", get(api::events))
        .route("/api/sheet", post(api::sheet))
        .route("/api/repair", post(api::repair))
        .route("/venue", get(assets::venue_page))
        .route("/venue.js", get(assets::venue_script))
        .route("/api/venue", get(venue::info))
        .route("/api/venue/login", post(venue::login))
        .route("/api/venue/logout", post(venue::logout))
        .route(
            "/api/venue/counts",
            get(venue::counts).post(venue::start_count),
        )
        .route("/api/venue/counts/{id}", get(venue::count))
        .route("/api/venue/counts/{id}/moves", post(venue::add_move))
        .route("/api/venue/counts/{id}/takeback", post(venue::take_back))
        .route("/api/venue/counts/{id}/close", post(venue::close_count))
        .route("/api/venue/counts/{id}/rule", post(venue::rule_count))
        .route("/api/venue/rule", post(venue::rule))
        .route("/api/venue/casebook", get(venue::casebook_list))
        .route("/api/venue/casebook/{id}", get(venue::casebook_entry))
        .route("/api/venue/casebook/{id}/sheet", get(venue::casebook_sheet))
        .fallback(api::not_found)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::guard,
        ))
        .with_state(state)
}

/// Serves the app on `addr` until `shutdown` completes (then stops accepting, and finishes the
/// requests in flight, for at most the request budget and a little more). `ready` is told the
/// address actually bound (useful with port 0).
pub async fn serve(
    addr: SocketAddr,
    options: &ServerOptions,
    ready: impl FnOnce(SocketAddr),
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    // (Fails, harmlessly, when the program has its own subscriber.)
    let _ = tracing::subscriber::set_global_default(log::Stderr);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    ready(listener.local_addr()?);
    let app = router(options);
    let connections = Arc::new(Semaphore::new(options.max_connections.max(1)));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        // (Slow headers, and an idle keep-alive connection waiting for its next request.)
        // (A backstop: the head's reader (head.rs) times a slow head out first, with an answer.)
        .header_read_timeout(options.header_timeout + Duration::from_secs(5))
        .max_buf_size(MAX_URI_BYTES + MAX_HEADER_BYTES + 8192);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // (Out of file descriptors, mostly: wait a little rather than spin.)
                    log::refused(&format!("accept failed: {e}"));
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Ok(slot) = connections.clone().try_acquire_owned() else {
            let e = api::ApiError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "too_many_connections",
                format!(
                    "{} connections already open (the limit, --max-connections); try again shortly",
                    options.max_connections
                ),
            );
            log::refused(&format!("connection from {peer} closed: {}", e.message()));
            // (Said without reading the request, at once and without waiting: a client whose
            // socket takes nothing gets nothing.)
            let body = e.body();
            let answer = format!(
                "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 2\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.try_write(answer.as_bytes());
            drop(stream);
            continue;
        };
        let local = stream.local_addr().unwrap_or(addr);
        let app = app.clone();
        let stream = head::Checked::new(stream, peer, options.header_timeout, options.body_timeout);
        let shared = stream.shared().clone();
        let service = hyper::service::service_fn(
            move |mut request: axum::extract::Request<hyper::body::Incoming>| {
                // (Until its answer is finished, a refused head after it waits.)
                let answering = head::Answering::new(&shared);
                request
                    .extensions_mut()
                    .insert(guard::Connection { local, peer });
                let mut app = app.clone();
                async move {
                    use tower_service::Service as _;
                    let response = app.call(request.map(axum::body::Body::new)).await?;
                    Ok::<_, std::convert::Infallible>(response.map(|inner| {
                        axum::body::Body::new(head::Tracked {
                            inner,
                            _answering: answering,
                        })
                    }))
                }
            },
        );
        let connection = builder.serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                log::refused(&format!("connection from {peer} closed: {e}"));
            }
            drop(slot);
        });
    }
    drop(listener);
    log::note("shutting down: finishing the requests in flight");
    let grace = options.max_request + options.body_timeout.min(Duration::from_secs(10));
    if tokio::time::timeout(grace, graceful.shutdown())
        .await
        .is_err()
    {
        log::refused("shutdown: some requests did not finish in time");
    }
    Ok(())
}

/// What the server tells its operator, as `tracing` events (target `xqa::serve`): what it
/// refuses (a connection over the limit, a foreign origin, a request over its budget, a busy
/// queue...) as warnings, and its shutdown. [`serve`] installs [`log::Stderr`], which prints
/// them on standard error one line each, unless the program has a subscriber of its own.
pub mod log {
    use tracing::field::{Field, Visit};
    use tracing::span::{Attributes, Id, Record};
    use tracing::{Event, Level, Metadata};

    pub(crate) fn refused(what: &str) {
        tracing::warn!(target: "xqa::serve", "refused: {what}");
    }

    pub(crate) fn note(what: &str) {
        tracing::info!(target: "xqa::serve", "{what}");
    }

    /// What is routine (an idle connection closed): at debug level, not printed by [`Stderr`].
    pub(crate) fn detail(what: &str) {
        tracing::debug!(target: "xqa::serve", "{what}");
    }

    /// A `tracing` subscriber that prints the server's events (`xqa::serve`, info and above)
    /// on standard error: `xqa serve: WARN refused: ...`.
    pub struct Stderr;

    struct Message(String);

    impl Visit for Message {
        fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
            use std::fmt::Write as _;
            if field.name() == "message" {
                let _ = write!(self.0, "{value:?}");
            } else {
                let _ = write!(self.0, " {}={value:?}", field.name());
            }
        }
    }

    impl tracing::Subscriber for Stderr {
        fn enabled(&self, metadata: &Metadata<'_>) -> bool {
            metadata.target().starts_with("xqa") && *metadata.level() <= Level::INFO
        }

        fn new_span(&self, _: &Attributes<'_>) -> Id {
            Id::from_u64(1)
        }

        fn record(&self, _: &Id, _: &Record<'_>) {}

        fn record_follows_from(&self, _: &Id, _: &Id) {}

        fn event(&self, event: &Event<'_>) {
            let mut message = Message(String::new());
            event.record(&mut message);
            eprintln!("xqa serve: {} {}", event.metadata().level(), message.0);
        }

        fn enter(&self, _: &Id) {}

        fn exit(&self, _: &Id) {}
    }
}
