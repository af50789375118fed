//! Answers written while they are built. An analysis's job writes its answer into a [`Sink`]: an
//! answer of less than [`WHOLE_BELOW`] bytes is sent whole when the job ends (with its length,
//! and an error found on the way still gets its own status); a larger one is streamed, in
//! chunks of [`CHUNK`] bytes through a channel of [`IN_FLIGHT`] chunks to the response body, so
//! that its memory stays a few megabytes whatever its size. The job holds its permit while it
//! writes: a client that reads slowly keeps it until the request's budget is spent (the job is
//! then stopped), and a client that goes away releases it at the next chunk.
//!
//! A streamed answer that cannot be finished (the budget spent, the analysis failing half-way)
//! ends with an error of the body: hyper then closes the connection without the chunked
//! encoding's last chunk, so that a client can never take a cut answer for a whole one.
//!
//! That promise needs the chunked encoding, which HTTP/1.0 does not have (hyper sends an
//! HTTP/1.0 body unframed, ended by the close, so a cut answer would look whole): an answer to
//! an HTTP/1.0 request is never streamed. It is sent whole, with its length, up to
//! [`WHOLE_HTTP10`] bytes; a larger one is refused with the error object (`answer_too_large`).

use crate::service::ServiceError;
use axum::body::Bytes;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Instant;
use tokio::sync::{mpsc, oneshot};

/// Answers shorter than this are sent whole: 1 MB.
pub(crate) const WHOLE_BELOW: usize = 1 << 20;
/// The size of a streamed chunk: 64 KiB.
pub(crate) const CHUNK: usize = 64 * 1024;
/// Answers to an HTTP/1.0 request (never streamed) are sent whole up to this: 16 MB.
pub(crate) const WHOLE_HTTP10: usize = 16 << 20;
/// Chunks on their way from the job to the connection at most.
pub(crate) const IN_FLIGHT: usize = 4;

/// What travels from the job to the response body.
pub(crate) enum Piece {
    Data(Bytes),
    /// The answer is whole (without it, the end of the channel is an error: the job stopped).
    Done,
}

/// Where a job writes its answer (see the module's documentation).
pub(crate) struct Sink {
    content_type: &'static str,
    buf: Vec<u8>,
    /// Until the answer is streamed: tells the handler to answer with a stream.
    start: Option<oneshot::Sender<&'static str>>,
    tx: mpsc::Sender<Piece>,
    deadline: Instant,
    budget: std::time::Duration,
    runtime: tokio::runtime::Handle,
    /// Why the sink stopped taking the answer (the client gone, the budget spent).
    failure: Option<ServiceError>,
    /// Bytes sent to the connection so far.
    pub(crate) sent: usize,
    /// Whether the answer may be streamed (not to an HTTP/1.0 request).
    streamable: bool,
}

/// The handler's end of a sink: the stream to answer with, if the answer is streamed.
pub(crate) struct Source {
    pub(crate) start: oneshot::Receiver<&'static str>,
    pub(crate) rx: mpsc::Receiver<Piece>,
}

/// A sink for a job whose budget (`budget`, from now) ends at `deadline`, and the handler's end
/// of it; `streamable`: whether a large answer may be streamed (false for an HTTP/1.0 request).
pub(crate) fn sink(
    deadline: Instant,
    budget: std::time::Duration,
    runtime: tokio::runtime::Handle,
    streamable: bool,
) -> (Sink, Source) {
    let (start_tx, start_rx) = oneshot::channel();
    let (tx, rx) = mpsc::channel(IN_FLIGHT);
    (
        Sink {
            content_type: "application/json",
            buf: Vec::new(),
            start: Some(start_tx),
            tx,
            deadline,
            budget,
            runtime,
            failure: None,
            sent: 0,
            streamable,
        },
        Source {
            start: start_rx,
            rx,
        },
    )
}

/// The error of a job stopped by its budget, naming it.
pub(crate) fn over_budget(budget: std::time::Duration) -> ServiceError {
    let mut e = ServiceError::usage(format!(
        "the analysis was stopped: it took more than this server's budget of {} s per request (--max-request-seconds)",
        budget.as_secs_f64()
    ));
    e.kind = "over_budget".into();
    e.code = 1;
    e
}

/// The error of an answer too large to send whole to an HTTP/1.0 request.
fn needs_http11() -> ServiceError {
    let mut e = ServiceError::usage(format!(
        "the answer is over {} MB: an answer that large is streamed, which needs HTTP/1.1 (the request was HTTP/1.0); send it again over HTTP/1.1",
        WHOLE_HTTP10 >> 20
    ));
    e.kind = "answer_too_large".into();
    e
}

fn gone() -> ServiceError {
    let mut e = ServiceError::usage("the client went away before its answer was written");
    e.kind = "client_gone".into();
    e
}

impl Sink {
    /// The answer's content type (before anything is written).
    pub(crate) fn content_type(&mut self, content_type: &'static str) {
        self.content_type = content_type;
    }

    /// Writes `bytes` of the answer; an error when the sink takes no more (the client gone, the
    /// budget spent, the analysis called off).
    pub(crate) fn put(&mut self, bytes: &[u8]) -> Result<(), ServiceError> {
        if let Some(e) = &self.failure {
            return Err(e.clone());
        }
        self.buf.extend_from_slice(bytes);
        let limit = match (self.start.is_some(), self.streamable) {
            (true, true) => WHOLE_BELOW,
            (true, false) => WHOLE_HTTP10,
            (false, _) => CHUNK,
        };
        if self.buf.len() >= limit
            && let Err(e) = self.flush()
        {
            self.failure = Some(e.clone());
            return Err(e);
        }
        Ok(())
    }

    /// A value's JSON (compact).
    pub(crate) fn json<T: serde::Serialize + ?Sized>(&mut self, v: &T) -> Result<(), ServiceError> {
        serde_json::to_writer(&mut *self, v).map_err(|e| self.failed(e))
    }

    /// A value's JSON as `serde_json::to_string_pretty` writes it.
    pub(crate) fn json_pretty<T: serde::Serialize + ?Sized>(
        &mut self,
        v: &T,
    ) -> Result<(), ServiceError> {
        serde_json::to_writer_pretty(&mut *self, v).map_err(|e| self.failed(e))
    }

    /// The error to give for a failed write: the sink's own reason if it stopped, else `e`.
    pub(crate) fn failed(&self, e: impl std::fmt::Display) -> ServiceError {
        self.failure
            .clone()
            .unwrap_or_else(|| ServiceError::usage(format!("the answer could not be written: {e}")))
    }

    /// The sink's own reason if it stopped taking the answer, else `e` (an error of the service
    /// that wrote into it).
    pub(crate) fn reason_or(&self, e: ServiceError) -> ServiceError {
        self.failure.clone().unwrap_or(e)
    }

    /// An error if the answer is no longer wanted: the analysis called off (its client gone) or
    /// the budget spent.
    pub(crate) fn check(&self) -> Result<(), ServiceError> {
        if let Some(e) = &self.failure {
            return Err(e.clone());
        }
        if crate::rules::search::cancelled() {
            return Err(ServiceError::usage("called off"));
        }
        if Instant::now() >= self.deadline {
            return Err(over_budget(self.budget));
        }
        Ok(())
    }

    /// Sends what is buffered as chunks: first, past [`WHOLE_BELOW`], tells the handler to
    /// answer with a stream.
    fn flush(&mut self) -> Result<(), ServiceError> {
        self.check()?;
        if !self.streamable {
            return Err(needs_http11());
        }
        if let Some(start) = self.start.take() {
            // (The handler gone, or its budget spent: the answer is not wanted.)
            start.send(self.content_type).map_err(|_| gone())?;
        }
        let buf = std::mem::take(&mut self.buf);
        for piece in buf.chunks(CHUNK) {
            self.send(Piece::Data(Bytes::copy_from_slice(piece)))?;
            self.sent += piece.len();
        }
        Ok(())
    }

    /// Sends a piece, waiting for room at most until the deadline.
    fn send(&mut self, piece: Piece) -> Result<(), ServiceError> {
        let sent = self.runtime.block_on(tokio::time::timeout_at(
            self.deadline.into(),
            self.tx.send(piece),
        ));
        match sent {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(gone()),
            Err(_) => Err(over_budget(self.budget)),
        }
    }

    /// Ends the answer: the whole answer if it was never streamed (`None` when it was), else
    /// the stream's last chunk and its end.
    pub(crate) fn finish(mut self) -> Result<Option<(&'static str, Vec<u8>)>, ServiceError> {
        if let Some(e) = self.failure.take() {
            return Err(e);
        }
        if self.start.is_some() {
            return Ok(Some((self.content_type, std::mem::take(&mut self.buf))));
        }
        let rest = std::mem::take(&mut self.buf);
        if !rest.is_empty() {
            self.sent += rest.len();
            self.send(Piece::Data(Bytes::from(rest)))?;
        }
        self.send(Piece::Done)?;
        Ok(None)
    }

    /// Whether the answer is being streamed (its status, 200, already sent).
    pub(crate) fn streaming(&self) -> bool {
        self.start.is_none()
    }
}

impl std::io::Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.put(bytes)
            .map(|()| bytes.len())
            .map_err(|e| std::io::Error::other(e.message))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The body of a streamed answer: the chunks the job sends; an error if the job stops before
/// it says the answer is done. Dropping it (the client gone) calls the job off.
pub(crate) struct Streamed {
    rx: mpsc::Receiver<Piece>,
    done: bool,
    cancel: Arc<AtomicBool>,
    /// The task that calls the job off when the budget is spent: stopped with the body.
    deadline: tokio::task::AbortHandle,
}

impl Streamed {
    pub(crate) fn new(
        rx: mpsc::Receiver<Piece>,
        cancel: Arc<AtomicBool>,
        deadline: tokio::task::AbortHandle,
    ) -> Streamed {
        Streamed {
            rx,
            done: false,
            cancel,
            deadline,
        }
    }
}

impl Drop for Streamed {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.deadline.abort();
    }
}

impl hyper::body::Body for Streamed {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, std::io::Error>>> {
        if self.done {
            return Poll::Ready(None);
        }
        match self.rx.poll_recv(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(Some(Piece::Data(b))) => Poll::Ready(Some(Ok(hyper::body::Frame::data(b)))),
            Poll::Ready(Some(Piece::Done)) => {
                self.done = true;
                Poll::Ready(None)
            }
            Poll::Ready(None) => {
                self.done = true;
                Poll::Ready(Some(Err(std::io::Error::other(
                    "the answer was cut short: its analysis stopped (see the server's log)",
                ))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.done
    }
}
