//! The page's assets, embedded in the binary (the app works offline, with no CDN).

use axum::http::header;
use axum::response::IntoResponse;

const INDEX: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/app.css");
const VENUE_PAGE: &str = include_str!("assets/venue.html");
const VENUE_SCRIPT: &str = include_str!("assets/venue.js");

pub(crate) async fn index() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX)
}

pub(crate) async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        SCRIPT,
    )
}

pub(crate) async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE)
}

/// The chief arbiter's page: running counts and the case book (`xqa serve --db`).
pub(crate) async fn venue_page() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        VENUE_PAGE,
    )
}

pub(crate) async fn venue_script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        VENUE_SCRIPT,
    )
}
