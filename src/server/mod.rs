//! `xqa serve`: the arbiter's workbench, a local web app over the service layer, and its JSON
//! API. Every answer is computed by the same service call as the CLI's, so the API's JSON is
//! byte for byte what `xqa ... --json` prints for the same input.
//!
//! Safety: request bodies are capped ([`ServerOptions::body_limit`], 413 with a message naming
//! the limit); no request touches the file system (records come in the body); every analysis
//! runs on the blocking pool (never on the async workers), at most [`ServerOptions::workers`]
//! at a time, each under the rules engine's node budget.

mod api;
mod assets;

use axum::Router;
use axum::routing::{get, post};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// The default cap on a request body: 16 MB.
pub const DEFAULT_BODY_LIMIT: usize = 16 * 1024 * 1024;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// The largest request body accepted, in bytes.
    pub body_limit: usize,
    /// Analyses run at once (the others wait their turn).
    pub workers: usize,
    /// The event whose rules the analyses follow unless a request names another (`event=` a
    /// shipped event's name, or `none`): an event file's text, as `xqa serve --event FILE`
    /// read it at start-up.
    pub event: Option<crate::service::SettingsText>,
}

impl Default for ServerOptions {
    fn default() -> ServerOptions {
        ServerOptions {
            body_limit: DEFAULT_BODY_LIMIT,
            workers: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2)
                .max(2),
            event: None,
        }
    }
}

/// What the handlers share.
#[derive(Clone)]
pub(crate) struct AppState {
    pub body_limit: usize,
    pub permits: Arc<Semaphore>,
    pub event: Option<crate::service::SettingsText>,
}

/// The web app and the API.
pub fn router(options: &ServerOptions) -> Router {
    let state = AppState {
        body_limit: options.body_limit,
        permits: Arc::new(Semaphore::new(options.workers.max(1))),
        event: options.event.clone(),
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
        .route("/api/sheet", post(api::sheet))
        .fallback(api::not_found)
        .layer(axum::extract::DefaultBodyLimit::max(options.body_limit))
        .with_state(state)
}

/// Serves the app on `addr` until the process ends. `ready` is told the address actually bound
/// (useful with port 0).
pub async fn serve(
    addr: SocketAddr,
    options: &ServerOptions,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    ready(listener.local_addr()?);
    axum::serve(listener, router(options)).await
}
