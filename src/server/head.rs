//! Every request's line and headers are read and checked here, between the socket and hyper,
//! before hyper sees them: a malformed request line or header, a URI or headers over the
//! limits, too many headers, an HTTP version other than 1.0 and 1.1, a bad `Content-Length` or
//! `Transfer-Encoding`, or a request line and headers not sent within the header timeout, are
//! answered here with the schema's error object (hyper's own answers to them have no body).
//!
//! How: a request head is held back until it is whole and checked; a good one is handed to hyper
//! with its body (the body's framing, by `Content-Length` or chunked, is followed so that the next
//! head is found). A bad one is never handed over: once every earlier request of the connection
//! has been answered, hyper is told the client has finished (end of file), closes the connection
//! and shuts its socket down, and the refusal is written then, before the shutdown.
//!
//! The checks are hyper's own (the same `httparse`, the same rules on the message's framing, on
//! the method, the URI and the header names), with the server's smaller limits, so that hyper
//! never refuses a head handed to it.

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
        if self.0.outstanding.fetch_sub(1, Ordering::SeqCst) == 1
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
    Chunked(Chunk),
    /// A body whose framing could not be followed (hyper refuses it): everything is handed over.
    Raw,
    /// A head was refused: hyper is told the client has finished once it has answered the rest.
    Refused,
    /// The client has finished.
    Eof,
}

/// Where a chunked body is.
#[derive(Clone, Copy)]
enum Chunk {
    /// In a chunk's size (whether a digit has been seen; the size so far).
    Size(bool, u64),
    /// Spaces after the size.
    SizeSpace(u64),
    /// A chunk extension (up to the end of the line).
    Extension(u64),
    /// The line feed ending a size line.
    SizeLf(u64),
    /// In a chunk's data: bytes left.
    Data(u64),
    /// The carriage return after a chunk's data.
    DataCr,
    /// The line feed after a chunk's data.
    DataLf,
    /// At the start of a trailer line (after the last chunk).
    Trailer,
    /// In a trailer line.
    TrailerLine,
    /// The line feed after a trailer line.
    TrailerLf,
    /// The final line feed.
    EndLf,
}

enum Step {
    /// The byte belongs to the body; the body goes on.
    More(Chunk),
    /// The byte was the body's last.
    End,
    /// Not chunked encoding.
    Bad,
}

fn hex(b: u8) -> Option<u64> {
    (b as char).to_digit(16).map(u64::from)
}

fn chunk_step(state: Chunk, b: u8) -> Step {
    use Chunk::*;
    let size_end = |size: u64| {
        if size == 0 {
            Step::More(Trailer)
        } else {
            Step::More(Data(size))
        }
    };
    match state {
        Size(digits, size) => match (b, hex(b)) {
            (_, Some(d)) => match size.checked_mul(16).and_then(|s| s.checked_add(d)) {
                Some(s) => Step::More(Size(true, s)),
                None => Step::Bad,
            },
            (b'\t' | b' ', _) if digits => Step::More(SizeSpace(size)),
            (b';', _) if digits => Step::More(Extension(size)),
            (b'\r', _) if digits => Step::More(SizeLf(size)),
            _ => Step::Bad,
        },
        SizeSpace(size) => match b {
            b'\t' | b' ' => Step::More(SizeSpace(size)),
            b';' => Step::More(Extension(size)),
            b'\r' => Step::More(SizeLf(size)),
            _ => Step::Bad,
        },
        Extension(size) => match b {
            b'\r' => Step::More(SizeLf(size)),
            b'\n' => Step::Bad,
            _ => Step::More(Extension(size)),
        },
        SizeLf(size) => match b {
            b'\n' => size_end(size),
            _ => Step::Bad,
        },
        Data(left) => Step::More(if left > 1 { Data(left - 1) } else { DataCr }),
        DataCr => match b {
            b'\r' => Step::More(DataLf),
            _ => Step::Bad,
        },
        DataLf => match b {
            b'\n' => Step::More(Size(false, 0)),
            _ => Step::Bad,
        },
        Trailer => match b {
            b'\r' => Step::More(EndLf),
            _ => Step::More(TrailerLine),
        },
        TrailerLine => match b {
            b'\r' => Step::More(TrailerLf),
            _ => Step::More(TrailerLine),
        },
        TrailerLf => match b {
            b'\n' => Step::More(Trailer),
            _ => Step::Bad,
        },
        EndLf => match b {
            b'\n' => Step::End,
            _ => Step::Bad,
        },
    }
}

/// The verdict on the start of the bytes held back.
enum Head {
    /// Not whole yet.
    Partial,
    /// A good head of `len` bytes, followed by a body framed so.
    Good(usize, Phase),
    /// Refused: the answer's status, kind and message.
    Bad(StatusCode, &'static str, String),
}

fn bad_request(message: String) -> Head {
    Head::Bad(StatusCode::BAD_REQUEST, "bad_request", message)
}

fn too_long_uri(len: usize) -> Head {
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

/// Whether the request line is three words, the last an HTTP version (`HTTP/...`).
fn names_a_version(bytes: &[u8]) -> bool {
    let line = bytes.split(|&b| b == b'\n').next().unwrap_or(bytes);
    let words: Vec<&[u8]> = line.trim_ascii().split(|&b| b == b' ').collect();
    words.len() == 3 && words[2].starts_with(b"HTTP/")
}

/// Checks the request head at the start of `bytes`, as hyper would parse it.
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
            let line = bytes
                .iter()
                .position(|&b| b == b'\n')
                .unwrap_or(bytes.len());
            return if line > MAX_URI_BYTES {
                too_long_uri(line)
            } else {
                too_large_headers(format!("more than {}", bytes.len() - line))
            };
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
        return too_long_uri(path.len());
    }
    let line = bytes.iter().position(|&b| b == b'\n').unwrap_or(0) + 1;
    if len - line > MAX_HEADER_BYTES {
        return too_large_headers((len - line).to_string());
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
    // The framing of the body, by hyper's rules (RFC 9112 §6.3).
    let mut length: Option<u64> = None;
    let mut te = false;
    let mut chunked = false;
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
            // (hyper: chunked must be the last coding of the last such header.)
            chunked = h
                .value
                .rsplit(|&b| b == b',')
                .next()
                .is_some_and(|last| last.trim_ascii().eq_ignore_ascii_case(b"chunked"));
        } else if h.name.eq_ignore_ascii_case("content-length") && !te {
            // (hyper's rule: digits only, one length a header.)
            let value = std::str::from_utf8(h.value).unwrap_or("");
            let parsed = (!value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()))
                .then(|| value.parse::<u64>().ok())
                .flatten();
            let Some(n) = parsed.filter(|&n| n < u64::MAX - 2) else {
                return bad_request(format!(
                    "Content-Length: '{}' is not a length",
                    crate::service::shorten(value)
                ));
            };
            if length.is_some_and(|l| l != n) {
                return bad_request("Content-Length given twice, with two lengths".into());
            }
            length = Some(n);
        }
    }
    if te && !chunked {
        return bad_request(
            "Transfer-Encoding: the last coding of a request body must be chunked".into(),
        );
    }
    let phase = if chunked {
        Phase::Chunked(Chunk::Size(false, 0))
    } else {
        match length {
            Some(n) if n > 0 => Phase::Length(n),
            _ => Phase::Head,
        }
    };
    Head::Good(len, phase)
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
    /// The answer to a refused head, written before the socket is shut down, and how much of it
    /// has been written.
    refusal: Option<(Vec<u8>, usize)>,
    header_timeout: Duration,
    /// Running while the connection is idle (no request being answered) and waits for a head.
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<S> Checked<S> {
    pub(crate) fn new(io: S, peer: SocketAddr, header_timeout: Duration) -> Checked<S> {
        Checked {
            io,
            shared: Arc::new(Shared::default()),
            peer,
            held: Vec::new(),
            cleared: 0,
            phase: Phase::Head,
            refusal: None,
            header_timeout,
            timer: None,
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
        self.phase = Phase::Refused;
        // (What was cleared before the refused head, earlier requests, is still handed over.)
        self.held.truncate(self.cleared);
        self.timer = None;
    }

    /// Follows the held bytes as far as they go: a whole head is checked (and cleared, or
    /// refused), body bytes are cleared.
    fn follow(&mut self) {
        loop {
            let start = self.cleared;
            if start >= self.held.len() {
                return;
            }
            match &mut self.phase {
                Phase::Head => match check(&self.held[start..]) {
                    Head::Partial => return,
                    Head::Good(len, phase) => {
                        self.cleared += len;
                        self.phase = phase;
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
                Phase::Chunked(state) => {
                    let mut s = *state;
                    let mut i = start;
                    let mut next = None;
                    while i < self.held.len() {
                        // (A chunk's data is skipped whole, not byte by byte.)
                        if let Chunk::Data(left) = s {
                            let n = left.min((self.held.len() - i) as u64) as usize;
                            i += n;
                            s = if left == n as u64 {
                                Chunk::DataCr
                            } else {
                                Chunk::Data(left - n as u64)
                            };
                            continue;
                        }
                        match chunk_step(s, self.held[i]) {
                            Step::More(c) => s = c,
                            Step::End => {
                                next = Some(Phase::Head);
                                i += 1;
                                break;
                            }
                            // hyper refuses the body; it closes the connection after its
                            // answer, and nothing after it is a head.
                            Step::Bad => {
                                next = Some(Phase::Raw);
                                break;
                            }
                        }
                        i += 1;
                    }
                    self.cleared = i;
                    self.phase = next.unwrap_or(Phase::Chunked(s));
                }
                Phase::Raw => {
                    self.cleared = self.held.len();
                    return;
                }
                Phase::Refused | Phase::Eof => return,
            }
        }
    }
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
                Phase::Refused => {
                    if this.shared.idle() {
                        // hyper closes the connection, and shuts the socket down: the refusal
                        // is written then.
                        this.phase = Phase::Eof;
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
            if this.cleared > 0 || matches!(this.phase, Phase::Refused) {
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
                log::note(&format!(
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
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if let Some((answer, written)) = &mut this.refusal {
            while *written < answer.len() {
                match Pin::new(&mut this.io).poll_write(cx, &answer[*written..]) {
                    Poll::Ready(Ok(0)) => break,
                    Poll::Ready(Ok(n)) => *written += n,
                    // (The client is gone: nothing more to say.)
                    Poll::Ready(Err(_)) => break,
                    Poll::Pending => return Poll::Pending,
                }
            }
            this.refusal = None;
            let _ = Pin::new(&mut this.io).poll_flush(cx);
        }
        Pin::new(&mut this.io).poll_shutdown(cx)
    }
}
