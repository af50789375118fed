//! The error of a service call: what went wrong, as a message and a JSON object, and the exit
//! code the CLI ends with (1: the input is invalid; 2: usage or I/O).

use crate::record::RecordError;
use crate::report::ErrorReport;

/// A refused or failed request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceError {
    /// The CLI's exit code: 1 the input is invalid, 2 a usage or I/O error.
    pub code: u8,
    /// A short machine-readable kind: `usage`, `invalid`, `io`, or a record error kind
    /// (`illegal_move`, `no_such_game`, ...).
    pub kind: String,
    /// The message the CLI prints after `xqa: `.
    pub message: String,
    /// Where in the record, when the error comes from reading one.
    pub record: Option<Box<RecordError>>,
}

impl ServiceError {
    /// A usage error (exit code 2): an unknown option value, a missing file, ...
    pub fn usage(message: impl Into<String>) -> ServiceError {
        ServiceError {
            code: 2,
            kind: "usage".into(),
            message: message.into(),
            record: None,
        }
    }

    /// The input is invalid (exit code 1): a bad FEN, an illegal move, a ply out of range, ...
    pub fn invalid(message: impl Into<String>) -> ServiceError {
        ServiceError {
            code: 1,
            kind: "invalid".into(),
            message: message.into(),
            record: None,
        }
    }

    /// A record that cannot be read or replayed (exit code 2 for I/O, 1 otherwise).
    pub fn record(e: RecordError) -> ServiceError {
        ServiceError {
            code: if e.kind == crate::record::error::kind::IO {
                2
            } else {
                1
            },
            kind: e.kind.clone(),
            message: e.to_string(),
            record: Some(Box::new(e)),
        }
    }

    /// The error as one JSON object:
    /// `{"error": {"kind","message","code", "source","game","line","column","ply","move_text",
    /// "suggestions"}}` (the record fields only when the error comes from a record; `game` is
    /// 1-based).
    pub fn to_json(&self) -> serde_json::Value {
        let mut obj = serde_json::json!({
            "kind": self.kind,
            "message": self.message,
            "code": self.code,
        });
        if let Some(e) = &self.record {
            let detail = ErrorReport::from(e.as_ref());
            obj["source"] = e.source.clone().into();
            obj["game"] = (e.game + 1).into();
            obj["line"] = detail.line.into();
            obj["column"] = detail.column.into();
            obj["ply"] = serde_json::json!(detail.ply);
            obj["move_text"] = serde_json::json!(detail.move_text);
            obj["reason"] = detail.message.into();
            obj["suggestions"] = serde_json::json!(detail.suggestions);
        }
        serde_json::json!({ "error": obj })
    }
}

impl std::fmt::Display for ServiceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ServiceError {}
