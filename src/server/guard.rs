//! What every request passes through before its handler: the size of its URI and headers, its
//! `Host` and `Origin` (only the server's own, or those allowed with `--allow-origin`); and after
//! it: an error answer without a body (axum's 405, ...) is given the schema's error object.

use super::api::ApiError;
use super::{AppState, MAX_HEADER_BYTES, MAX_URI_BYTES, log};
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;

/// The connection a request came on (set by [`super::serve`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Connection {
    /// The server's address the client connected to.
    pub local: SocketAddr,
    pub peer: SocketAddr,
}

pub(crate) async fn guard(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let admitted = match (admit(&state, &request), &state.venue) {
        (Ok(()), Some(v)) => {
            let headers = request.headers().clone();
            super::venue::gate(v, &path, &headers).await
        }
        (result, _) => result,
    };
    if let Err(e) = admitted {
        let peer = request
            .extensions()
            .get::<Connection>()
            .map_or_else(|| "?".to_owned(), |c| c.peer.to_string());
        log::refused(&format!(
            "{method} {} from {peer}: {} {}",
            crate::service::shorten(&path),
            e.status().as_u16(),
            e.message()
        ));
        return e.into_response();
    }
    let response = next.run(request).await;
    with_error_body(response, &method, &path)
}

fn admit(state: &AppState, request: &Request) -> Result<(), ApiError> {
    let uri = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    if uri > MAX_URI_BYTES {
        return Err(ApiError::new(
            StatusCode::URI_TOO_LONG,
            "uri_too_long",
            format!(
                "the request URI is {uri} bytes, over the limit of {MAX_URI_BYTES} bytes (send a record in the body)"
            ),
        ));
    }
    let headers: usize = request
        .headers()
        .iter()
        .map(|(n, v)| n.as_str().len() + v.len() + 4)
        .sum();
    if headers > MAX_HEADER_BYTES {
        return Err(ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "headers_too_large",
            format!(
                "the request headers take {headers} bytes, over the limit of {MAX_HEADER_BYTES} bytes"
            ),
        ));
    }
    // Without a connection (the router used on its own, in tests) there is no address to check
    // the host against.
    let Some(connection) = request.extensions().get::<Connection>() else {
        return Ok(());
    };
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_owned)
        .or_else(|| request.uri().authority().map(|a| a.as_str().to_owned()));
    let Some(host) = host.map(|h| h.to_ascii_lowercase()) else {
        return Err(forbidden("the request names no host".into()));
    };
    if !own_host(&host, connection.local, &state.allow_origins) {
        return Err(forbidden(format!(
            "Host {}: not this server's address (a name for it is allowed with --allow-origin http://NAME:PORT)",
            crate::service::shorten(&host)
        )));
    }
    if let Some(origin) = request.headers().get(header::ORIGIN) {
        let origin = origin
            .to_str()
            .unwrap_or("")
            .trim_end_matches('/')
            .to_ascii_lowercase();
        let same = origin == format!("http://{host}");
        if !same && !state.allow_origins.contains(&origin) {
            return Err(forbidden(format!(
                "Origin {}: a page of another site may not use this server (allow it with --allow-origin)",
                crate::service::shorten(&origin)
            )));
        }
    }
    Ok(())
}

fn forbidden(message: String) -> ApiError {
    ApiError::new(StatusCode::FORBIDDEN, "forbidden", message)
}

/// Whether `host` (`name:port`, lower case) names the server: its address on this connection,
/// a loopback name when it listens on loopback, or the host of an allowed origin.
fn own_host(host: &str, local: SocketAddr, allowed: &[String]) -> bool {
    if allowed.iter().any(|o| {
        o.split_once("://")
            .is_some_and(|(_, authority)| authority == host)
    }) {
        return true;
    }
    let (name, port) = match host.rsplit_once(':') {
        Some((n, p)) if !p.contains(']') => (n, p.parse::<u16>().ok()),
        _ => (host, Some(80)),
    };
    if port != Some(local.port()) {
        return false;
    }
    // (A socket bound to `::` sees an IPv4 client's connection on `::ffff:a.b.c.d`.)
    let ip = local.ip().to_canonical();
    let literal = match ip {
        std::net::IpAddr::V4(v4) => v4.to_string(),
        std::net::IpAddr::V6(v6) => format!("[{v6}]"),
    };
    name == literal || (ip.is_loopback() && matches!(name, "localhost" | "127.0.0.1" | "[::1]"))
}

/// An error answer without a body (axum's own 405, ...) given the error object.
fn with_error_body(response: Response, method: &axum::http::Method, path: &str) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error())
        || response.headers().contains_key(header::CONTENT_TYPE)
    {
        return response;
    }
    let path = crate::service::shorten(path);
    let (kind, message) = match status {
        StatusCode::METHOD_NOT_ALLOWED => (
            "method_not_allowed",
            format!(
                "{method} {path}: method not allowed (it takes {})",
                if path.starts_with("/api/")
                    && !matches!(path.as_str(), "/api/moves" | "/api/board" | "/api/events")
                {
                    "POST"
                } else {
                    "GET"
                }
            ),
        ),
        StatusCode::NOT_FOUND => ("not_found", format!("{path}: no such page")),
        s => (
            "http",
            format!(
                "{method} {path}: {} {}",
                s.as_u16(),
                s.canonical_reason().unwrap_or("")
            ),
        ),
    };
    let mut answer = ApiError::new(status, kind, message).into_response();
    for name in [header::ALLOW, header::RETRY_AFTER] {
        if let Some(v) = response.headers().get(&name) {
            answer.headers_mut().insert(name, v.clone());
        }
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::own_host;

    #[test]
    fn the_server_s_own_host_names() {
        let allowed = vec!["http://arbiter.local:8080".to_owned()];
        let loopback = "127.0.0.1:8080".parse().unwrap();
        let lan = "192.168.1.5:8080".parse().unwrap();
        let mapped = "[::ffff:192.168.1.5]:8080".parse().unwrap();
        let v6 = "[::1]:8080".parse().unwrap();
        for (host, local, own) in [
            ("127.0.0.1:8080", loopback, true),
            ("localhost:8080", loopback, true),
            ("localhost:8081", loopback, false),
            ("evil.example:8080", loopback, false),
            ("127.0.0.1", loopback, false),
            ("arbiter.local:8080", loopback, true),
            ("arbiter.local:8081", loopback, false),
            ("192.168.1.5:8080", lan, true),
            ("localhost:8080", lan, false),
            ("192.168.1.5:8080", mapped, true),
            ("[::1]:8080", v6, true),
            ("localhost:8080", v6, true),
            ("[::1]", v6, false),
        ] {
            assert_eq!(own_host(host, local, &allowed), own, "{host} on {local}");
        }
    }
}
