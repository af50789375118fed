//! Every request's line and headers are read and checked here, between the socket and hyper,
//! before hyper sees them: a malformed request line or header, a URI or headers over the
//! limits, too many headers, an HTTP version other than 1.0 and 1.1, a bad `Content-Length` or
//! `Transfer-Encoding`, or a request line and headers not sent within the header timeout, are
//! answered here with the schema's error object (hyper's own answers to them have no body).
//!
//! How: a request head is held back until it is whole and checked; a good one is handed to hyper
//! with its body (the body's framing, by `Content-Length` or chunked, is followed so that the next
//! head is found). A bad one is never handed over: once every earlier request of the connection
//! has been answered and flushed, hyper is told the client has finished (end of file), closes the connection
//! and shuts its socket down, and the refusal is written then, before the shutdown.
//!
//! The checks are hyper's own (the same `httparse`, the same rules on the message's framing, on
//! the method, the URI and the header names), with the server's smaller limits, so that hyper
//! never refuses a head handed to it. The framing mirrors hyper 1.12 (`proto/h1/role.rs`,
//! `Server::parse`, for the head; `proto/h1/decode.rs`, `ChunkedState`, for a chunked body),
//! and so does its keep-alive rule: after a head that ends the connection (`Connection: close`,
//! HTTP/1.0 without `keep-alive`, `Content-Length` with `Transfer-Encoding`) no head is read.
//! The unit tests below pin each rule; a change of hyper's version must be checked against them.
//!
//! Every write to the socket goes through [`Checked`] too: a client that takes nothing of its
//! answers for the write timeout (`--body-timeout-seconds`) has its connection closed, so that
//! a client that sends and never reads cannot keep its connection's slot.

use super::api::ApiError;
use super::{MAX_HEADER_BYTES, MAX_URI_BYTES, log};
use axum::http::StatusCode;
use std::future::Future as _;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The most headers a request may have (hyper's own limit).
pub(crate) const MAX_HEADERS: usize = 100;
/// The longest request head held back: a request line and headers at their limits.
pub(crate) const MAX_HEAD_BYTES: usize = MAX_URI_BYTES + MAX_HEADER_BYTES + 1024;

/// What a connection's reader and its requests' answers share: the requests handed to hyper
/// whose answers are not finished, and the reader's waker (woken when the last is).
#[derive(Default)]
pub(crate) struct Shared {
    outstanding: AtomicUsize,
    waker: Mutex<Option<Waker>>,
}

impl Shared {
    fn idle(&self) -> bool {
        self.outstanding.load(Ordering::SeqCst) == 0
    }

    fn wake_when_idle(&self, cx: &Context<'_>) {
        if let Ok(mut w) = self.waker.lock() {
            *w = Some(cx.waker().clone());
        }
    }
}

/// Held by a request's answer (its body) until the answer is finished or dropped.
pub(crate) struct Answering(Arc<Shared>);

impl Answering {
    pub(crate) fn new(shared: &Arc<Shared>) -> Answering {
        Answering(shared.clone())
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        let before = self
            .0
            .outstanding
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                Some(n.saturating_sub(1))
            })
            .unwrap_or(0);
        if before <= 1
            && let Some(w) = self.0.waker.lock().ok().and_then(|mut w| w.take())
        {
            w.wake();
        }
    }
}

/// An answer's body, counted as outstanding until it is finished or dropped.
pub(crate) struct Tracked {
    pub(crate) inner: axum::body::Body,
    pub(crate) _answering: Answering,
}

impl hyper::body::Body for Tracked {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

/// Where the reader is in the connection's requests.
enum Phase {
    /// Waiting for a whole request head.
    Head,
    /// Handing a body over: bytes left of a `Content-Length` body.
    Length(u64),
    /// Handing a chunked body over.
    Chunked(Box<Chunked>),
    /// A body whose framing could not be followed (hyper refuses it): everything is handed over.
    Raw,
    /// No more heads are read: a head was refused (its answer waits in `refusal`), or the last
    /// request of the connection (by hyper's keep-alive rule) has been handed over. hyper is
    /// told the client has finished once it has answered the rest.
    Closing,
    /// The client has finished.
    Eof,
}

/// Where a chunked body is: hyper 1.12's `ChunkedState` (`proto/h1/decode.rs`), state for
/// state, with its limits.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Chunk {
    /// In a chunk's size (whether a digit has been seen; the size so far): `Start` and `Size`.
    Size(bool, u64),
    /// Spaces after the size (`SizeLws`).
    SizeSpace(u64),
    /// A chunk extension, up to the end of the line (`Extension`).
    Extension(u64),
    /// The line feed ending a size line (`SizeLf`).
    SizeLf(u64),
    /// In a chunk's data: bytes left (`Body`).
    Data(u64),
    /// The carriage return after a chunk's data (`BodyCr`).
    DataCr,
    /// The line feed after a chunk's data (`BodyLf`).
    DataLf,
    /// At the start of a trailer line, or of the end line, after the last chunk (`EndCr`).
    Trailer,
    /// In a trailer line (`Trailer`).
    TrailerLine,
    /// The line feed after a trailer line (`TrailerLf`).
    TrailerLf,
    /// The final line feed (`EndLf`).
    EndLf,
}

/// hyper's limits on a chunked body: the bytes of all its chunk extensions
/// (`CHUNKED_EXTENSIONS_LIMIT`), of its trailers (`TRAILER_LIMIT`), and its trailers' number
/// (`DEFAULT_MAX_HEADERS`).
const CHUNK_EXTENSION_BYTES: u64 = 16 * 1024;
const TRAILER_BYTES: usize = 16 * 1024;
const MAX_TRAILERS: usize = 100;

/// A chunked body being followed.
#[derive(Debug)]
struct Chunked {
    at: Chunk,
    /// Bytes of chunk extensions so far (the whole body's).
    extensions: u64,
    /// The trailers so far (checked at the end, as hyper parses them).
    trailers: Vec<u8>,
    /// Trailer lines so far.
    trailer_lines: usize,
}

impl Chunked {
    fn new() -> Chunked {
        Chunked {
            at: Chunk::Size(false, 0),
            extensions: 0,
            trailers: Vec::new(),
            trailer_lines: 0,
        }
    }

    /// Keeps a byte of the trailers; false over hyper's limit.
    fn keep(&mut self, b: u8) -> bool {
        self.trailers.push(b);
        self.trailers.len() < TRAILER_BYTES
    }

    /// Whether the trailers are headers hyper takes (`decode_trailers`).
    fn trailers_good(&self) -> bool {
        if self.trailers.is_empty() {
            return true;
        }
        let mut headers = vec![httparse::EMPTY_HEADER; self.trailer_lines];
        match httparse::parse_headers(&self.trailers, &mut headers) {
            Ok(httparse::Status::Complete((_, headers))) => headers.iter().all(|h| {
                axum::http::HeaderName::from_bytes(h.name.as_bytes()).is_ok()
                    && axum::http::HeaderValue::from_bytes(h.value).is_ok()
            }),
            _ => false,
        }
    }
}

#[derive(Debug, PartialEq)]
enum Step {
    /// The byte belongs to the body; the body goes on.
    More,
    /// The byte was the body's last.
    End,
    /// Not chunked encoding, or over hyper's limits (hyper refuses the body).
    Bad,
}

fn hex(b: u8) -> Option<u64> {
    (b as char).to_digit(16).map(u64::from)
}

/// One byte of a chunked body (a chunk's data is skipped whole by [`follow_chunked`]).
fn chunk_step(c: &mut Chunked, b: u8) -> Step {
    use Chunk::*;
    let next = match c.at {
        Size(digits, size) => match (b, hex(b)) {
            (_, Some(d)) => match size.checked_mul(16).and_then(|s| s.checked_add(d)) {
                Some(s) => Size(true, s),
                None => return Step::Bad,
            },
            (b'\t' | b' ', _) if digits => SizeSpace(size),
            (b';', _) if digits => Extension(size),
            (b'\r', _) if digits => SizeLf(size),
            _ => return Step::Bad,
        },
        SizeSpace(size) => match b {
            b'\t' | b' ' => SizeSpace(size),
            b';' => Extension(size),
            b'\r' => SizeLf(size),
            _ => return Step::Bad,
        },
        Extension(size) => match b {
            b'\r' => SizeLf(size),
            b'\n' => return Step::Bad,
            _ => {
                c.extensions += 1;
                if c.extensions >= CHUNK_EXTENSION_BYTES {
                    return Step::Bad;
                }
                Extension(size)
            }
        },
        SizeLf(size) => match b {
            b'\n' if size == 0 => Trailer,
            b'\n' => Data(size),
            _ => return Step::Bad,
        },
        Data(left) => {
            if left > 1 {
                Data(left - 1)
            } else {
                DataCr
            }
        }
        DataCr => match b {
            b'\r' => DataLf,
            _ => return Step::Bad,
        },
        DataLf => match b {
            b'\n' => Size(false, 0),
            _ => return Step::Bad,
        },
        Trailer => {
            // (The end line's CR is kept only after trailers, as hyper does.)
            if (b != b'\r' || !c.trailers.is_empty()) && !c.keep(b) {
                return Step::Bad;
            }
            if b == b'\r' { EndLf } else { TrailerLine }
        }
        TrailerLine => {
            if !c.keep(b) {
                return Step::Bad;
            }
            if b == b'\r' { TrailerLf } else { TrailerLine }
        }
        TrailerLf => {
            if b != b'\n' || c.trailer_lines >= MAX_TRAILERS {
                return Step::Bad;
            }
            c.trailer_lines += 1;
            if !c.keep(b) {
                return Step::Bad;
            }
            Trailer
        }
        EndLf => {
            if b != b'\n' || (!c.trailers.is_empty() && !c.keep(b)) || !c.trailers_good() {
                return Step::Bad;
            }
            return Step::End;
        }
    };
    c.at = next;
    Step::More
}

/// Follows a chunked body through `bytes`: how many of them belong to it, and whether it ends
/// with them (`End`), goes on (`More`), or is refused by hyper (`Bad`).
fn follow_chunked(c: &mut Chunked, bytes: &[u8]) -> (usize, Step) {
    let mut i = 0;
    while i < bytes.len() {
        // (A chunk's data is skipped whole, not byte by byte.)
        if let Chunk::Data(left) = c.at {
            let n = left.min((bytes.len() - i) as u64);
            i += n as usize;
            c.at = if left == n {
                Chunk::DataCr
            } else {
                Chunk::Data(left - n)
            };
            continue;
        }
        match chunk_step(c, bytes[i]) {
            Step::More => i += 1,
            Step::End => return (i + 1, Step::End),
            Step::Bad => return (i, Step::Bad),
        }
    }
    (i, Step::More)
}

/// The verdict on the start of the bytes held back.
#[derive(Debug)]
enum Head {
    /// Not whole yet.
    Partial,
    /// A good head of `len` bytes, followed by a body framed so, and whether the connection is
    /// kept alive after its request (hyper's rule).
    Good(usize, Phase, bool),
    /// Refused: the answer's status, kind and message.
    Bad(StatusCode, &'static str, String),
}

impl std::fmt::Debug for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Phase::Head => write!(f, "Head"),
            Phase::Length(n) => write!(f, "Length({n})"),
            Phase::Chunked(c) => write!(f, "Chunked({:?})", c.at),
            Phase::Raw => write!(f, "Raw"),
            Phase::Closing => write!(f, "Closing"),
            Phase::Eof => write!(f, "Eof"),
        }
    }
}

fn bad_request(message: String) -> Head {
    Head::Bad(StatusCode::BAD_REQUEST, "bad_request", message)
}

fn too_long_uri(len: String) -> Head {
    Head::Bad(
        StatusCode::URI_TOO_LONG,
        "uri_too_long",
        format!(
            "the request URI is {len} bytes, over the limit of {MAX_URI_BYTES} bytes (send a record in the body)"
        ),
    )
}

fn too_large_headers(len: String) -> Head {
    Head::Bad(
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
        "headers_too_large",
        format!("the request headers take {len} bytes, over the limit of {MAX_HEADER_BYTES} bytes"),
    )
}

/// The request line at the start of `bytes`, after the empty lines that httparse skips: where
/// it starts, the line (without its line end), and where the headers start (`None` if the line
/// has not ended).
fn request_line(bytes: &[u8]) -> (usize, &[u8], Option<usize>) {
    let start = bytes
        .iter()
        .position(|&b| b != b'\r' && b != b'\n')
        .unwrap_or(bytes.len());
    let rest = &bytes[start..];
    match rest.iter().position(|&b| b == b'\n') {
        Some(lf) => {
            let line = &rest[..lf];
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            (start, line, Some(start + lf + 1))
        }
        None => (start, rest, None),
    }
}

/// Whether the request line is three words, the last an HTTP version (`HTTP/...`).
fn names_a_version(bytes: &[u8]) -> bool {
    let (_, line, _) = request_line(bytes);
    let words: Vec<&[u8]> = line.trim_ascii().split(|&b| b == b' ').collect();
    words.len() == 3 && words[2].starts_with(b"HTTP/")
}

/// A header's value as text if it is visible ASCII, as hyper reads it (`HeaderValue::to_str`):
/// hyper reads one that is not as naming nothing.
fn visible(value: &[u8]) -> Option<&str> {
    value
        .iter()
        .all(|&b| (32..127).contains(&b) || b == b'\t')
        .then(|| std::str::from_utf8(value).ok())
        .flatten()
}

/// Whether a comma-separated header value names `token` (hyper's `connection_has`).
fn has_token(value: &[u8], token: &str) -> bool {
    visible(value).is_some_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
}

/// The largest `Content-Length` hyper takes (`DecodedLength`'s `MAX_LEN`).
const MAX_CONTENT_LENGTH: u64 = u64::MAX - 2;

/// Checks the request head at the start of `bytes`, as hyper would parse it (hyper 1.12,
/// `proto/h1/role.rs`, `Server::parse`).
fn check(bytes: &[u8]) -> Head {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    let len = match request.parse(bytes) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) => {
            if bytes.len() <= MAX_HEAD_BYTES {
                return Head::Partial;
            }
            // (Over the limit before its end: the request line, or the headers, are too long.)
            let (start, line, ended) = request_line(bytes);
            match ended {
                Some(end) if line.len() <= MAX_URI_BYTES => {
                    return too_large_headers(format!("more than {}", bytes.len() - end));
                }
                _ => {}
            }
            let mut words = line.splitn(3, |&b| b == b' ');
            let method = words.next().unwrap_or_default();
            let target = words.next().unwrap_or_default();
            let whole = ended.is_some() || words.next().is_some();
            if target.len() > MAX_URI_BYTES {
                return too_long_uri(if whole {
                    target.len().to_string()
                } else {
                    format!("more than {}", target.len())
                });
            }
            return bad_request(format!(
                "malformed request line: {} bytes without {} (the limit is {MAX_URI_BYTES} bytes)",
                if ended.is_some() {
                    line.len()
                } else {
                    bytes.len() - start
                },
                if method.len() == line.len() {
                    "a request target"
                } else {
                    "an end"
                }
            ));
        }
        Err(httparse::Error::TooManyHeaders) => {
            return Head::Bad(
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                "headers_too_large",
                format!("the request has more than {MAX_HEADERS} headers (the limit)"),
            );
        }
        Err(httparse::Error::Version) if !names_a_version(bytes) => {
            return bad_request(
                "malformed request line: expected METHOD TARGET HTTP/1.1 (a space in the target?)"
                    .into(),
            );
        }
        Err(httparse::Error::Version) => {
            return Head::Bad(
                StatusCode::HTTP_VERSION_NOT_SUPPORTED,
                "http_version",
                "the request is not HTTP/1.0 or HTTP/1.1 (this server speaks HTTP/1.1 only)".into(),
            );
        }
        Err(httparse::Error::Token) if request.method.is_none() => {
            return bad_request("malformed request line: not a method".into());
        }
        Err(httparse::Error::Token) => {
            return bad_request("malformed request line: not a request target".into());
        }
        Err(e) => return bad_request(format!("malformed request: {e}")),
    };
    let (Some(method), Some(path), Some(version)) = (request.method, request.path, request.version)
    else {
        return bad_request("malformed request line".into());
    };
    if path.len() > MAX_URI_BYTES {
        return too_long_uri(path.len().to_string());
    }
    let (_, _, line_end) = request_line(bytes);
    let headers_len = len - line_end.unwrap_or(0).min(len);
    if headers_len > MAX_HEADER_BYTES {
        return too_large_headers(headers_len.to_string());
    }
    if axum::http::Method::from_bytes(method.as_bytes()).is_err() {
        return bad_request(format!(
            "malformed request line: '{}' is not a method",
            crate::service::shorten(method)
        ));
    }
    if axum::http::Uri::try_from(path).is_err() {
        return bad_request(format!(
            "malformed request line: '{}' is not a request target",
            crate::service::shorten(path)
        ));
    }
    // The framing of the body, by hyper's rules (RFC 9112 §6.3), and whether the connection is
    // kept alive after the request.
    let mut length: Option<u64> = None;
    let mut te = false;
    let mut chunked = false;
    // (The last Transfer-Encoding's value, when it is not visible ASCII.)
    let mut te_unreadable = false;
    let mut cl = false;
    let mut keep_alive = version == 1;
    let mut close = false;
    for h in request.headers.iter() {
        if axum::http::HeaderName::from_bytes(h.name.as_bytes()).is_err() {
            return bad_request(format!(
                "malformed header name '{}'",
                crate::service::shorten(h.name)
            ));
        }
        if h.name.eq_ignore_ascii_case("transfer-encoding") {
            if version == 0 {
                return bad_request("Transfer-Encoding in an HTTP/1.0 request".into());
            }
            te = true;
            // (hyper: chunked must be the last coding of the last such header, read as text.)
            let value = visible(h.value);
            te_unreadable = value.is_none();
            chunked = value
                .and_then(|v| v.rsplit(',').next())
                .is_some_and(|last| last.trim().eq_ignore_ascii_case("chunked"));
        } else if h.name.eq_ignore_ascii_case("content-length") {
            cl = true;
            if te {
                continue;
            }
            // (hyper's rule: digits only, one length a header.)
            let value = String::from_utf8_lossy(h.value);
            let parsed = (!value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()))
                .then(|| value.parse::<u64>().ok())
                .flatten();
            let Some(n) = parsed.filter(|&n| n <= MAX_CONTENT_LENGTH) else {
                return bad_request(format!(
                    "Content-Length: '{}' is not a length",
                    crate::service::shorten(&value)
                ));
            };
            if length.is_some_and(|l| l != n) {
                return bad_request("Content-Length given twice, with two lengths".into());
            }
            length = Some(n);
        } else if h.name.eq_ignore_ascii_case("connection") {
            // (Once a Connection header says close, a later keep-alive does not undo it.)
            if close || has_token(h.value, "close") {
                close = true;
                keep_alive = false;
            } else if !keep_alive {
                keep_alive = has_token(h.value, "keep-alive");
            }
        }
    }
    if te && !chunked {
        return bad_request(if te_unreadable {
            "Transfer-Encoding: the value is not visible ASCII".into()
        } else {
            "Transfer-Encoding: the last coding of a request body must be chunked".into()
        });
    }
    if te && cl {
        keep_alive = false;
    }
    let phase = if chunked {
        Phase::Chunked(Box::new(Chunked::new()))
    } else {
        match length {
            Some(n) if n > 0 => Phase::Length(n),
            _ => Phase::Head,
        }
    };
    Head::Good(len, phase, keep_alive)
}

/// The socket of a connection, read through the checks above.
pub(crate) struct Checked<S> {
    io: S,
    shared: Arc<Shared>,
    peer: SocketAddr,
    /// Bytes read from the socket and not yet handed to hyper.
    held: Vec<u8>,
    /// How many bytes at the start of `held` may be handed to hyper.
    cleared: usize,
    /// Where the reader is: in a head, a body (whose bytes are cleared as they are followed)...
    phase: Phase,
    /// The request handed over last ends the connection (hyper's keep-alive rule): no head
    /// after it is read.
    last: bool,
    /// The answer to a refused head, written before the socket is shut down, and how much of it
    /// has been written.
    refusal: Option<(Vec<u8>, usize)>,
    /// hyper has been told the client finished because of the refusal (it is written only then:
    /// never after an answer by which hyper closed the connection itself).
    refusal_due: bool,
    header_timeout: Duration,
    /// Running while the connection is idle (no request being answered) and waits for a head.
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
    /// The time a write may take without the client taking a byte.
    write_timeout: Duration,
    /// Running while a write waits for the client.
    write_timer: Option<Pin<Box<tokio::time::Sleep>>>,
    /// The client took nothing for the write timeout: every write fails.
    stalled: bool,
    /// hyper has written since its last flush: an answer may not be whole yet on the socket
    /// (hyper, told the client has finished in the middle of an answer, drops its tail).
    unflushed: bool,
}

impl<S> Checked<S> {
    pub(crate) fn new(
        io: S,
        peer: SocketAddr,
        header_timeout: Duration,
        write_timeout: Duration,
    ) -> Checked<S> {
        Checked {
            io,
            shared: Arc::new(Shared::default()),
            peer,
            held: Vec::new(),
            cleared: 0,
            phase: Phase::Head,
            last: false,
            refusal: None,
            refusal_due: false,
            header_timeout,
            timer: None,
            write_timeout,
            write_timer: None,
            stalled: false,
            unflushed: false,
        }
    }

    pub(crate) fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// Refuses the request whose head is held: its answer is written at shutdown.
    fn refuse(&mut self, status: StatusCode, kind: &str, message: String) {
        log::refused(&format!(
            "request from {}: {} {message}",
            self.peer,
            status.as_u16()
        ));
        let body = ApiError::new(status, kind, message).body();
        let head = format!(
            "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
            status.as_u16(),
            status.canonical_reason().unwrap_or(""),
            body.len()
        );
        let mut answer = head.into_bytes();
        answer.extend_from_slice(body.as_bytes());
        self.refusal = Some((answer, 0));
        self.close();
    }

    /// Reads no more heads: what was cleared (earlier requests) is still handed over.
    fn close(&mut self) {
        self.phase = Phase::Closing;
        self.held.truncate(self.cleared);
        self.timer = None;
    }

    /// Follows the held bytes as far as they go: a whole head is checked (and cleared, or
    /// refused), body bytes are cleared.
    fn follow(&mut self) {
        loop {
            if self.last && matches!(self.phase, Phase::Head) {
                // (hyper reads nothing after the connection's last request.)
                self.close();
                return;
            }
            let start = self.cleared;
            if start >= self.held.len() {
                return;
            }
            match &mut self.phase {
                Phase::Head => match check(&self.held[start..]) {
                    Head::Partial => return,
                    Head::Good(len, phase, keep_alive) => {
                        self.cleared += len;
                        self.phase = phase;
                        self.last = !keep_alive;
                        self.shared.outstanding.fetch_add(1, Ordering::SeqCst);
                        self.timer = None;
                    }
                    Head::Bad(status, kind, message) => {
                        self.refuse(status, kind, message);
                        return;
                    }
                },
                Phase::Length(left) => {
                    let n = (*left).min((self.held.len() - start) as u64);
                    *left -= n;
                    self.cleared += n as usize;
                    if *left == 0 {
                        self.phase = Phase::Head;
                    }
                }
                Phase::Chunked(c) => match follow_chunked(c, &self.held[start..]) {
                    (n, Step::More) => self.cleared += n,
                    (n, Step::End) => {
                        self.cleared += n;
                        self.phase = Phase::Head;
                    }
                    // hyper refuses the body; it closes the connection after its answer, and
                    // nothing after it is a head.
                    (_, Step::Bad) => self.phase = Phase::Raw,
                },
                Phase::Raw => {
                    self.cleared = self.held.len();
                    return;
                }
                Phase::Closing | Phase::Eof => return,
            }
        }
    }

    /// After a write that took nothing: an error once the client has taken nothing for the
    /// write timeout (logged once; every write fails after it).
    fn stall(&mut self, cx: &mut Context<'_>) -> Option<io::Error> {
        if !self.stalled {
            let timeout = self.write_timeout;
            let timer = self
                .write_timer
                .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
            if timer.as_mut().poll(cx).is_pending() {
                return None;
            }
            self.write_timer = None;
            self.stalled = true;
            log::refused(&format!(
                "connection from {} closed: its client took nothing of its answers for {} s (--body-timeout-seconds)",
                self.peer,
                timeout.as_secs_f64()
            ));
        }
        Some(stalled())
    }

    /// What a write came to: progress stops the write timer, a wait runs it.
    fn wrote<T>(
        &mut self,
        cx: &mut Context<'_>,
        result: Poll<io::Result<T>>,
        progress: impl FnOnce(&T) -> bool,
    ) -> Poll<io::Result<T>> {
        match result {
            Poll::Pending => match self.stall(cx) {
                Some(e) => Poll::Ready(Err(e)),
                None => Poll::Pending,
            },
            Poll::Ready(Ok(v)) => {
                if progress(&v) {
                    self.write_timer = None;
                }
                Poll::Ready(Ok(v))
            }
            r => r,
        }
    }
}

fn stalled() -> io::Error {
    io::Error::new(
        io::ErrorKind::TimedOut,
        "the client took nothing of its answers for the write timeout",
    )
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncRead for Checked<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        loop {
            if this.cleared > 0 {
                let n = this.cleared.min(buf.remaining());
                buf.put_slice(&this.held[..n]);
                this.held.drain(..n);
                this.cleared -= n;
                return Poll::Ready(Ok(()));
            }
            match this.phase {
                Phase::Eof => return Poll::Ready(Ok(())),
                Phase::Closing => {
                    if this.shared.idle() && !this.unflushed {
                        // (Every answer is finished and flushed.) hyper closes the connection,
                        // and shuts the socket down: a refusal is written then.
                        this.phase = Phase::Eof;
                        this.refusal_due = this.refusal.is_some();
                        return Poll::Ready(Ok(()));
                    }
                    this.shared.wake_when_idle(cx);
                    // (What the client sends meanwhile is dropped; its leaving is noticed.)
                    let mut scratch = [0u8; 4096];
                    let mut rb = ReadBuf::new(&mut scratch);
                    match Pin::new(&mut this.io).poll_read(cx, &mut rb) {
                        Poll::Ready(Ok(())) if rb.filled().is_empty() => {
                            this.refusal = None;
                            this.phase = Phase::Eof;
                            return Poll::Ready(Ok(()));
                        }
                        Poll::Ready(Ok(())) => continue,
                        Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                        Poll::Pending => return Poll::Pending,
                    }
                }
                _ => {}
            }
            this.follow();
            if this.cleared > 0 || matches!(this.phase, Phase::Closing) {
                continue;
            }
            // Nothing to hand over: read more.
            let mut chunk = [0u8; 16 * 1024];
            let mut rb = ReadBuf::new(&mut chunk);
            match Pin::new(&mut this.io).poll_read(cx, &mut rb) {
                Poll::Ready(Ok(())) if rb.filled().is_empty() => {
                    // The client has finished (a head begun and not ended has no one to answer).
                    this.phase = Phase::Eof;
                    this.held.clear();
                    return Poll::Ready(Ok(()));
                }
                Poll::Ready(Ok(())) => {
                    this.held.extend_from_slice(rb.filled());
                    continue;
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => {}
            }
            // Waiting for the client. While no request is being answered and a head is
            // awaited, the header timeout runs.
            if !matches!(this.phase, Phase::Head) {
                this.timer = None;
                return Poll::Pending;
            }
            if !this.shared.idle() {
                this.timer = None;
                this.shared.wake_when_idle(cx);
                return Poll::Pending;
            }
            let timeout = this.header_timeout;
            let timer = this
                .timer
                .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
            if timer.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            let secs = timeout.as_secs_f64();
            if this.held.is_empty() {
                log::detail(&format!(
                    "connection from {} closed: idle for {secs} s",
                    this.peer
                ));
                this.phase = Phase::Eof;
                return Poll::Ready(Ok(()));
            }
            let line = this.held.iter().position(|&b| b == b'\n');
            this.refuse(
                StatusCode::REQUEST_TIMEOUT,
                "header_timeout",
                format!(
                    "the request {} not sent within this server's {secs} s",
                    if line.is_some() {
                        "headers were"
                    } else {
                        "line was"
                    }
                ),
            );
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Checked<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.stalled {
            return Poll::Ready(Err(stalled()));
        }
        this.unflushed = true;
        let result = Pin::new(&mut this.io).poll_write(cx, buf);
        this.wrote(cx, result, |&n| n > 0)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.stalled {
            return Poll::Ready(Err(stalled()));
        }
        this.unflushed = true;
        let result = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.wrote(cx, result, |&n| n > 0)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.stalled {
            return Poll::Ready(Err(stalled()));
        }
        let result = Pin::new(&mut this.io).poll_flush(cx);
        if let Poll::Ready(Ok(())) = result
            && std::mem::take(&mut this.unflushed)
            && matches!(this.phase, Phase::Closing)
        {
            // (The reader may be waiting for the answers to be flushed.)
            cx.waker().wake_by_ref();
        }
        // (A flush that is done says nothing of the client: the timer goes on.)
        this.wrote(cx, result, |()| false)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if let Some((answer, written)) = &mut this.refusal {
            while this.refusal_due && !this.stalled && *written < answer.len() {
                match Pin::new(&mut this.io).poll_write(cx, &answer[*written..]) {
                    Poll::Ready(Ok(0)) => break,
                    Poll::Ready(Ok(n)) => {
                        *written += n;
                        this.write_timer = None;
                    }
                    // (The client is gone: nothing more to say.)
                    Poll::Ready(Err(_)) => break,
                    Poll::Pending => {
                        if this.stall(cx).is_none() {
                            return Poll::Pending;
                        }
                        break;
                    }
                }
            }
            this.refusal = None;
            let _ = Pin::new(&mut this.io).poll_flush(cx);
        }
        if this.stalled {
            // (The socket is closed when it is dropped.)
            return Poll::Ready(Ok(()));
        }
        let result = Pin::new(&mut this.io).poll_shutdown(cx);
        this.wrote(cx, result, |()| true)
    }
}

#[cfg(test)]
mod tests {
    //! The pre-parser's framing against hyper 1.12's (`proto/h1/decode.rs` and `role.rs`): each
    //! case is what hyper does with the same bytes.
    use super::*;

    /// Follows a chunked body from its start, in one go and byte by byte (the same answer).
    fn chunked(bytes: &[u8]) -> (usize, Step) {
        let whole = follow_chunked(&mut Chunked::new(), bytes);
        let mut c = Chunked::new();
        let mut taken = 0;
        let mut bytewise = (0, Step::More);
        for i in 0..bytes.len() {
            match follow_chunked(&mut c, &bytes[i..=i]) {
                (n, Step::More) => taken += n,
                (n, step) => {
                    bytewise = (taken + n, step);
                    break;
                }
            }
            bytewise = (taken, Step::More);
        }
        assert_eq!(whole, bytewise, "{:?}", String::from_utf8_lossy(bytes));
        whole
    }

    fn ends_at(bytes: &[u8], at: usize) {
        assert_eq!(
            chunked(bytes),
            (at, Step::End),
            "{:?}",
            String::from_utf8_lossy(bytes)
        );
    }

    fn bad(bytes: &[u8]) {
        assert_eq!(
            chunked(bytes).1,
            Step::Bad,
            "{:?}",
            String::from_utf8_lossy(bytes)
        );
    }

    #[test]
    fn chunk_sizes_are_hex_digits() {
        let next = b"GET / HTTP/1.1\r\n\r\n";
        for body in [
            &b"5\r\nhello\r\n0\r\n\r\n"[..],
            b"0\r\n\r\n",
            b"000\r\n\r\n",
            b"a\r\n0123456789\r\nA\r\n0123456789\r\n0\r\n\r\n",
            b"1\r\nx\r\n2\r\nyz\r\n0\r\n\r\n",
            b"fF\r\n",
        ] {
            if body.ends_with(b"\r\n\r\n") {
                let mut b = body.to_vec();
                b.extend_from_slice(next);
                ends_at(&b, body.len());
            }
        }
        // A chunk's data is anything, CR and LF included, and is not read for sizes.
        let b = b"4\r\n\r\n0\n\r\n0\r\n\r\n";
        ends_at(b, b.len());
        // Not yet ended: everything so far is the body.
        assert_eq!(chunked(b"5\r\nhel"), (6, Step::More));
        assert_eq!(chunked(b"ff\r\n"), (4, Step::More));
        assert_eq!(chunked(b""), (0, Step::More));
    }

    #[test]
    fn bad_chunk_sizes_are_refused() {
        bad(b"\r\n");
        bad(b"x\r\n");
        bad(b"-1\r\n");
        bad(b"+1\r\n");
        bad(b"0x5\r\n");
        bad(b" 5\r\n");
        bad(b";ext\r\n");
        bad(b"5 6\r\n");
        bad(b"5\n");
        bad(b"5\rx");
        // 17 hex digits: over u64, as hyper's `or_overflow!`.
        bad(b"10000000000000000\r\n");
        assert_eq!(chunked(b"ffffffffffffffff\r\n"), (18, Step::More));
        // The data not followed by CRLF.
        bad(b"5\r\nhelloX");
        bad(b"5\r\nhello\rX");
        bad(b"5\r\nhello\n");
    }

    #[test]
    fn chunk_extensions_are_skipped_up_to_hyper_s_limit() {
        let b = b"5;name=value\r\nhello\r\n0;last\r\n\r\n";
        ends_at(b, b.len());
        let b = b"5 \t ;a=\"b;c\"\r\nhello\r\n0\r\n\r\n";
        ends_at(b, b.len());
        let b = b"5 \r\nhello\r\n0\r\n\r\n";
        ends_at(b, b.len());
        // A bare LF in an extension: refused (hyper, to save others from it).
        bad(b"5;a\nb\r\nhello\r\n0\r\n\r\n");
        // 16 KiB of extensions in the whole body: refused.
        let mut body = format!("1;{}\r\nx\r\n", "e".repeat(10_000)).into_bytes();
        body.extend_from_slice(format!("0;{}\r\n\r\n", "e".repeat(6_383)).as_bytes());
        let len = body.len();
        ends_at(&body, len);
        let mut body = format!("1;{}\r\nx\r\n", "e".repeat(10_000)).into_bytes();
        body.extend_from_slice(format!("0;{}\r\n\r\n", "e".repeat(6_384)).as_bytes());
        bad(&body);
    }

    #[test]
    fn trailers_and_the_end_line_are_hyper_s() {
        let body = b"5\r\nhello\r\n0\r\nX-Sum: 1\r\nX-Other: two\r\n\r\n";
        let mut b = body.to_vec();
        b.extend_from_slice(b"GET / HTTP/1.1\r\n\r\n");
        ends_at(&b, body.len());
        // Trailers that are not headers: hyper's `decode_trailers` refuses them.
        bad(b"0\r\nnot a header\r\n\r\n");
        bad(b"0\r\nBad Name: x\r\n\r\n");
        // The end line is CRLF.
        bad(b"0\r\n\rX");
        // At most 100 trailers, under 16 KiB.
        let many = |n: usize| {
            let mut b = b"0\r\n".to_vec();
            for i in 0..n {
                b.extend_from_slice(format!("X-{i}: v\r\n").as_bytes());
            }
            b.extend_from_slice(b"\r\n");
            b
        };
        let hundred = many(100);
        ends_at(&hundred, hundred.len());
        bad(&many(101));
        let long = |n: usize| {
            let mut b = format!("0\r\nX: {}\r\n", "v".repeat(n)).into_bytes();
            b.extend_from_slice(b"\r\n");
            b
        };
        // (The trailers' bytes: "X: ", the value, CRLF, and the end line's CRLF.)
        let under = long(TRAILER_BYTES - 8);
        ends_at(&under, under.len());
        bad(&long(TRAILER_BYTES - 7));
    }

    fn good(head: &str) -> (usize, Phase, bool) {
        match check(head.as_bytes()) {
            Head::Good(len, phase, keep_alive) => (len, phase, keep_alive),
            other => panic!("{head:?}: {other:?}"),
        }
    }

    fn refused(head: &[u8]) -> (u16, String) {
        match check(head) {
            Head::Bad(status, _, message) => (status.as_u16(), message),
            other => panic!("{:?}: {other:?}", String::from_utf8_lossy(head)),
        }
    }

    #[test]
    fn content_length_is_hyper_s() {
        let post = |headers: &str| format!("POST / HTTP/1.1\r\nHost: a\r\n{headers}\r\n");
        let head = post("Content-Length: 5\r\n");
        let (len, phase, keep_alive) = good(&format!("{head}helloGET"));
        assert_eq!(len, head.len());
        assert!(matches!(phase, Phase::Length(5)) && keep_alive);
        assert!(matches!(
            good(&post("Content-Length: 0\r\n")).1,
            Phase::Head
        ));
        assert!(matches!(good(&post("")).1, Phase::Head));
        assert!(matches!(
            good(&post("Content-Length: 7\r\nContent-Length: 7\r\n")).1,
            Phase::Length(7)
        ));
        assert!(matches!(
            good(&post("Content-Length: 18446744073709551613\r\n")).1,
            Phase::Length(MAX_CONTENT_LENGTH)
        ));
        for value in [
            "+5",
            "-1",
            "0x5",
            "5,5",
            "5 5",
            "five",
            "18446744073709551614",
            "99999999999999999999",
        ] {
            let (status, message) =
                refused(post(&format!("Content-Length: {value}\r\n")).as_bytes());
            assert_eq!(status, 400, "{value}");
            assert!(message.contains("Content-Length"), "{value}: {message}");
        }
        let (status, _) = refused(post("Content-Length: 3\r\nContent-Length: 4\r\n").as_bytes());
        assert_eq!(status, 400);
    }

    #[test]
    fn transfer_encoding_is_hyper_s() {
        let post = |headers: &str| format!("POST / HTTP/1.1\r\nHost: a\r\n{headers}\r\n");
        let (_, phase, keep_alive) = good(&post("Transfer-Encoding: chunked\r\n"));
        assert!(matches!(phase, Phase::Chunked(_)) && keep_alive);
        assert!(matches!(
            good(&post("Transfer-Encoding: gzip, CHUNKED\r\n")).1,
            Phase::Chunked(_)
        ));
        // The last header's last coding counts.
        assert!(matches!(
            good(&post(
                "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n"
            ))
            .1,
            Phase::Chunked(_)
        ));
        for te in [
            "gzip",
            "chunked, gzip",
            "chunked\r\nTransfer-Encoding: gzip",
        ] {
            let (status, _) = refused(post(&format!("Transfer-Encoding: {te}\r\n")).as_bytes());
            assert_eq!(status, 400, "{te}");
        }
        // A value that is not visible ASCII: hyper reads it as not chunked (and refuses it).
        let mut head =
            b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: \xff, chunked\r\n\r\n".to_vec();
        let (status, message) = refused(&head);
        assert_eq!(status, 400);
        assert!(message.contains("visible ASCII"), "{message}");
        head.truncate(0);
        head.extend_from_slice(b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n");
        assert_eq!(refused(&head).0, 400);
        // With a Content-Length, before or after it: chunked, the length ignored (even a bad
        // one after it), and the connection not kept alive.
        for headers in [
            "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
            "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n",
            "Transfer-Encoding: chunked\r\nContent-Length: nonsense\r\n",
        ] {
            let (_, phase, keep_alive) = good(&post(headers));
            assert!(matches!(phase, Phase::Chunked(_)), "{headers}");
            assert!(!keep_alive, "{headers}");
        }
    }

    #[test]
    fn keep_alive_is_hyper_s() {
        let keeps = |head: &str| good(head).2;
        assert!(keeps("GET / HTTP/1.1\r\n\r\n"));
        assert!(!keeps("GET / HTTP/1.1\r\nConnection: close\r\n\r\n"));
        assert!(!keeps(
            "GET / HTTP/1.1\r\nConnection: Upgrade, CLOSE\r\n\r\n"
        ));
        assert!(!keeps(
            "GET / HTTP/1.1\r\nConnection: close\r\nConnection: keep-alive\r\n\r\n"
        ));
        assert!(!keeps("GET / HTTP/1.0\r\n\r\n"));
        assert!(keeps("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
        assert!(!keeps(
            "GET / HTTP/1.0\r\nConnection: keep-alive\r\nConnection: close\r\n\r\n"
        ));
        // (A value that is not visible ASCII names nothing.)
        let head = b"GET / HTTP/1.1\r\nConnection: close\xff\r\n\r\n";
        assert!(matches!(check(head), Head::Good(_, _, true)));
    }

    #[test]
    fn request_lines_are_read_as_httparse_reads_them() {
        // Empty lines before the request line are skipped.
        assert_eq!(refused(b"\r\nGET / HTTP/2.0\r\n\r\n").0, 505);
        assert_eq!(refused(b"\r\n\nGET / HTTP/2.0\r\n\r\n").0, 505);
        let head = "\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n";
        assert_eq!(good(head).0, head.len());
        assert_eq!(refused(b"GET /a b HTTP/1.1\r\n\r\n").0, 400);
        // A URI over the limit: its length (not the request line's) is named.
        let target = format!("/{}", "x".repeat(MAX_URI_BYTES + 10));
        let (status, message) = refused(format!("GET {target} HTTP/1.1\r\n\r\n").as_bytes());
        assert_eq!(status, 414);
        assert!(
            message.contains(&format!("is {} bytes", target.len())),
            "{message}"
        );
        let target = format!("/{}", "x".repeat(MAX_HEAD_BYTES + 10));
        let (status, message) = refused(format!("GET {target}").as_bytes());
        assert_eq!(status, 414);
        assert!(
            message.contains(&format!("is more than {} bytes", target.len())),
            "{message}"
        );
        let (status, message) = refused(format!("GET {target} HTTP/1.1\r\n").as_bytes());
        assert_eq!(status, 414);
        assert!(
            message.contains(&format!("is {} bytes", target.len())),
            "{message}"
        );
        // Headers over the limit.
        let filler = format!("X-F: {}\r\n", "y".repeat(MAX_HEADER_BYTES));
        let (status, _) = refused(format!("GET / HTTP/1.1\r\n{filler}\r\n").as_bytes());
        assert_eq!(status, 431);
    }
}
