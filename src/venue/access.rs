//! Who may use a venue server: the event's access code, entered once per device, and the
//! sessions it opens (a random token kept by the device as a session cookie, and in the database
//! with the name the arbiter gave, so that a restarted server still knows the devices).

use super::{ErrorKind, NOW, Store, VenueError, clean_name};
use rusqlite::{OptionalExtension, params};
use std::path::Path;

/// The letters of a generated code: no 0/O, 1/I/L, 2/Z, 5/S, 8/B, easy to read aloud and to type
/// on a phone.
const ALPHABET: &[u8] = b"ACDEFGHJKMNPQRTUVWXY34679";

/// The event's access code.
#[derive(Clone, PartialEq, Eq)]
pub struct AccessCode(String);

impl std::fmt::Debug for AccessCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AccessCode(..)")
    }
}

fn random_bytes(n: usize) -> std::io::Result<Vec<u8>> {
    let mut buf = vec![0u8; n];
    getrandom::fill(&mut buf).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(buf)
}

/// The form in which codes are compared: letters and digits only, upper case.
fn canonical(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

impl AccessCode {
    /// A new random code of 12 letters and digits (about 56 bits), printed in groups of four.
    pub fn generate() -> std::io::Result<AccessCode> {
        let mut code = String::new();
        // Rejection sampling keeps every letter equally likely.
        let limit = 256 - 256 % ALPHABET.len();
        while code.len() < 14 {
            for b in random_bytes(32)? {
                if (b as usize) < limit && code.len() < 14 {
                    if code.len() == 4 || code.len() == 9 {
                        code.push('-');
                    }
                    code.push(ALPHABET[b as usize % ALPHABET.len()] as char);
                }
            }
        }
        Ok(AccessCode(code))
    }

    /// The code in a file (its first line, spaces around it ignored): at least 8 letters or
    /// digits.
    pub fn from_file(path: &Path) -> Result<AccessCode, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read the access code: {e}", path.display()))?;
        let line = text.lines().next().unwrap_or("").trim();
        if canonical(line).len() < 8 {
            return Err(format!(
                "{}: the access code must have at least 8 letters or digits",
                path.display()
            ));
        }
        Ok(AccessCode(line.to_string()))
    }

    /// The code as it is printed for the arbiters.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The code's tag, kept with each session it opens: a session opened under another code (the
    /// server restarted with a new one, or none on loopback) is not honoured. A fingerprint, not
    /// a secret: whoever reads the database has the sessions anyway.
    pub fn tag(&self) -> String {
        use std::hash::{Hash, Hasher};
        let mut h = std::hash::DefaultHasher::new();
        canonical(&self.0).hash(&mut h);
        format!("{:016x}", h.finish())
    }

    /// Whether `given` is this code: case, spaces and dashes do not matter; the comparison takes
    /// the same time wherever the first difference is.
    pub fn matches(&self, given: &str) -> bool {
        let want = canonical(&self.0);
        let got = canonical(given);
        if want.len() != got.len() {
            return false;
        }
        want.bytes()
            .zip(got.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
    }
}

/// The tag of the sessions opened where no code is asked (loopback).
pub const NO_CODE_TAG: &str = "-";

/// A device let in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// The cookie's value: 32 hex digits.
    pub token: String,
    /// The name the arbiter gave; every entry made on this device carries it.
    pub arbiter: String,
    pub created_at: String,
}

fn is_token(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// How long a session lasts from the code's entry: longer than any event's rounds, and no
/// longer (a phone left behind does not sign entries for ever). The device's cookie lasts as
/// long.
pub const SESSION_DAYS: u32 = 30;

impl Store {
    /// Opens a session for an arbiter who gave the right code, whose tag it keeps
    /// ([`AccessCode::tag`], or [`NO_CODE_TAG`]).
    pub fn open_session(&mut self, arbiter: &str, code_tag: &str) -> Result<Session, VenueError> {
        let path = self.path().to_path_buf();
        let arbiter = clean_name(&path, "arbiter's name", arbiter)?;
        let token: String = random_bytes(16)
            .map_err(|e| VenueError::new(&path, ErrorKind::Io(e.to_string())))?
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        self.conn
            .execute(
                &format!(
                    "INSERT INTO sessions (token, arbiter, code_tag, created_at) VALUES (?1, ?2, \
                     ?3, {NOW})"
                ),
                params![token, arbiter, code_tag],
            )
            .map_err(|e| VenueError::sqlite(&path, e))?;
        self.session(&token, code_tag)?
            .ok_or_else(|| VenueError::new(&path, ErrorKind::NotFound("the new session".into())))
    }

    /// The session of this token, if there is one opened under the code of tag `code_tag` in
    /// the last [`SESSION_DAYS`] days.
    pub fn session(&self, token: &str, code_tag: &str) -> Result<Option<Session>, VenueError> {
        if !is_token(token) {
            return Ok(None);
        }
        self.conn
            .query_row(
                &format!(
                    "SELECT token, arbiter, created_at FROM sessions WHERE token = ?1 AND \
                     code_tag = ?2 AND created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', \
                     '-{SESSION_DAYS} days')"
                ),
                [token, code_tag],
                |r| {
                    Ok(Session {
                        token: r.get(0)?,
                        arbiter: r.get(1)?,
                        created_at: r.get(2)?,
                    })
                },
            )
            .optional()
            .map_err(|e| VenueError::sqlite(self.path(), e))
    }

    /// Closes the session of this token (the device logs out, or hands the phone to another
    /// arbiter): deleted, and committed before this returns. Whether there was one.
    pub fn close_session(&mut self, token: &str) -> Result<bool, VenueError> {
        if !is_token(token) {
            return Ok(false);
        }
        let n = self
            .conn
            .execute("DELETE FROM sessions WHERE token = ?1", [token])
            .map_err(|e| VenueError::sqlite(self.path(), e))?;
        Ok(n > 0)
    }
}
