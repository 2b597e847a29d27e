//! The one error type of the protocol: a stable code, a message that says what happened, and the
//! HTTP status and parsed body where there is one. The bindings turn it into a JS `Error`.

use std::any::Any;
use std::fmt;
use std::rc::Rc;

use serde_json::Value;

/// Stable error codes: part of the public API (`err.code` in JS).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// Bad input caught before anything was written.
    InvalidInput,
    /// Neotoma answered with a non-2xx status.
    NeotomaHttp,
    /// The request never got an answer (connection refused, DNS, CORS, reset).
    NeotomaNetwork,
    /// No answer within the configured timeout.
    NeotomaTimeout,
    /// The idempotency key was already used with different content.
    IdempotencyMismatch,
    /// Neotoma answered 2xx with a body this package cannot understand.
    InvalidResponse,
    /// The LLM callback (or its stream) did not settle within `llmTimeoutMs`.
    LlmTimeout,
    /// The outbox storage failed to keep a write that could not be sent.
    OutboxStorage,
    /// The embedded store's storage failed to keep a change (`EmbeddedStore.open`).
    StoreStorage,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidInput => "INVALID_INPUT",
            ErrorCode::NeotomaHttp => "NEOTOMA_HTTP",
            ErrorCode::NeotomaNetwork => "NEOTOMA_NETWORK",
            ErrorCode::NeotomaTimeout => "NEOTOMA_TIMEOUT",
            ErrorCode::IdempotencyMismatch => "IDEMPOTENCY_MISMATCH",
            ErrorCode::InvalidResponse => "NEOTOMA_INVALID_RESPONSE",
            ErrorCode::LlmTimeout => "LLM_TIMEOUT",
            ErrorCode::OutboxStorage => "OUTBOX_STORAGE",
            ErrorCode::StoreStorage => "STORE_STORAGE",
        }
    }
}

/// A protocol error. `external` carries a value thrown by user code (an LLM callback, a custom
/// transport) so the bindings can re-throw it unchanged; the core never looks inside it.
#[derive(Clone)]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
    pub status: Option<u16>,
    pub body: Option<Value>,
    /// How long the server asked us to wait (`Retry-After`), when it said.
    pub retry_after_ms: Option<u32>,
    pub external: Option<Rc<dyn Any>>,
}

impl Error {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
            status: None,
            body: None,
            retry_after_ms: None,
            external: None,
        }
    }

    pub fn invalid_input(message: impl Into<String>) -> Self {
        Error::new(ErrorCode::InvalidInput, message)
    }

    /// Wraps a value thrown by user code so it can be re-thrown as is.
    pub fn external(value: Rc<dyn Any>, message: impl Into<String>) -> Self {
        Error {
            external: Some(value),
            ..Error::new(ErrorCode::NeotomaHttp, message)
        }
    }

    /// An error from a non-2xx answer to `POST {path}`. The message names the server's own
    /// error code and message where the body has them (both JSON error shapes are seen).
    pub fn from_http(path: &str, status: u16, body: Value) -> Self {
        Error::answered(false, path, status, body)
    }

    /// The same for an error answer of the in-process embedded store (no server involved):
    /// the same `code`, `status` and `body`, a message that says the embedded store refused.
    pub fn from_embedded(path: &str, status: u16, body: Value) -> Self {
        Error::answered(true, path, status, body)
    }

    fn answered(embedded: bool, path: &str, status: u16, body: Value) -> Self {
        let (server_code, server_message) = server_error_fields(&body);
        let code = if server_code.as_deref() == Some("ERR_IDEMPOTENCY_MISMATCH") {
            ErrorCode::IdempotencyMismatch
        } else {
            ErrorCode::NeotomaHttp
        };
        let mut message = match (embedded, server_code) {
            (false, None) => format!("Neotoma answered {status} to {path}"),
            (false, Some(c)) => format!("Neotoma answered {status} to {path} ({c})"),
            (true, None) => format!("the embedded store refused {path} ({status})"),
            (true, Some(c)) => format!("the embedded store refused {path} ({status} {c})"),
        };
        match server_message {
            Some(m) => message.push_str(&format!(": {m}")),
            None => {
                if let Value::String(text) = &body {
                    let snippet: String = text.chars().take(120).collect();
                    if !snippet.trim().is_empty() {
                        message.push_str(&format!(": {}", snippet.trim()));
                    }
                }
            }
        }
        if code == ErrorCode::IdempotencyMismatch {
            // The server's advice is about keys; an agent's caller controls turn ids.
            message.push_str(
                " (a turn id already stored with other content: use a new turnId, or pass \
                 `revision` to store a regenerated reply on purpose)",
            );
        }
        Error {
            status: Some(status),
            body: Some(body),
            ..Error::new(code, message)
        }
    }
}

/// Reads `{error_code, message}` or `{error:{code, message}}`, the two JSON error shapes.
fn server_error_fields(body: &Value) -> (Option<String>, Option<String>) {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
    if let Some(inner) = body.get("error").filter(|e| e.is_object()) {
        return (text(inner.get("code")), text(inner.get("message")));
    }
    (text(body.get("error_code")), text(body.get("message")))
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("code", &self.code)
            .field("message", &self.message)
            .field("status", &self.status)
            .field("body", &self.body)
            .field("external", &self.external.is_some())
            .finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn idempotency_mismatch_is_recognised() {
        let body = json!({"error":{"code":"ERR_IDEMPOTENCY_MISMATCH","message":"used with different content","hint":"h"}});
        let e = Error::from_http("/store", 400, body);
        assert_eq!(e.code, ErrorCode::IdempotencyMismatch);
        assert_eq!(e.status, Some(400));
        assert!(e.message.contains("used with different content"));
    }

    #[test]
    fn flat_error_and_html_bodies_make_readable_messages() {
        let e = Error::from_http(
            "/store",
            401,
            json!({"error_code":"AUTH_INVALID","message":"Unauthorized"}),
        );
        assert_eq!(e.code, ErrorCode::NeotomaHttp);
        assert!(e.message.contains("AUTH_INVALID") && e.message.contains("Unauthorized"));
        let html = Error::from_http("/nope", 404, Value::String("<!DOCTYPE html>".into()));
        assert_eq!(html.status, Some(404));
        assert_eq!(html.body, Some(Value::String("<!DOCTYPE html>".into())));
    }

    #[test]
    fn an_embedded_store_answer_says_the_embedded_store_refused() {
        let body = json!({"error_code":"VALIDATION_INVALID_FORMAT","message":"Invalid input"});
        let e = Error::from_embedded("/store", 400, body.clone());
        assert_eq!(
            e.message,
            "the embedded store refused /store (400 VALIDATION_INVALID_FORMAT): Invalid input"
        );
        // the same code, status and body as the server's answer over HTTP; only the words differ
        let http = Error::from_http("/store", 400, body.clone());
        assert_eq!(
            http.message,
            "Neotoma answered 400 to /store (VALIDATION_INVALID_FORMAT): Invalid input"
        );
        assert_eq!(
            (e.code, e.status, &e.body),
            (http.code, http.status, &http.body)
        );
        assert_eq!(e.body, Some(body));

        let text = Error::from_embedded("/nope", 404, Value::String(" <html>no</html> ".into()));
        assert_eq!(
            text.message,
            "the embedded store refused /nope (404): <html>no</html>"
        );
        let bare = Error::from_embedded("/create_relationships", 500, json!({}));
        assert_eq!(
            bare.message,
            "the embedded store refused /create_relationships (500)"
        );
        let mismatch = Error::from_embedded(
            "/store",
            400,
            json!({"error":{"code":"ERR_IDEMPOTENCY_MISMATCH","message":"used with different content"}}),
        );
        assert_eq!(mismatch.code, ErrorCode::IdempotencyMismatch);
        assert!(mismatch.message.starts_with(
            "the embedded store refused /store (400 ERR_IDEMPOTENCY_MISMATCH): used with different content (a turn id"
        ));
    }
}
