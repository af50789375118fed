//! The error of a service call: what went wrong, as a message and a JSON object, and the exit
//! code the CLI ends with (1: the input is invalid; 2: usage or I/O).

use crate::record::RecordError;
use crate::report::schema;

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

    /// The error as one JSON object in the report schema:
    /// `{"schema":1,"code","error":{"kind","message","file","game","line","column","offset","ply",
    /// "move_text","suggestions"}}` (`code`: the CLI's exit code; `game` 1-based; the fields a
    /// plain error does not know are null).
    pub fn to_json(&self) -> serde_json::Value {
        let error = match &self.record {
            Some(e) => {
                let mut obj = schema::error_object(e);
                // The message of a record error already names the file and game; the object
                // gives them as fields, so it keeps the record's own reason.
                obj["message"] = e.message.clone().into();
                obj
            }
            None => schema::plain_error(&self.kind, &self.message),
        };
        schema::versioned(serde_json::json!({ "code": self.code, "error": error }))
    }
}

impl std::fmt::Display for ServiceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ServiceError {}
