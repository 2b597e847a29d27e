//! `fetch` to a real Neotoma (or a same-origin proxy in front of one).

use std::cell::Cell;
use std::rc::Rc;

use gloo_net::http::Request;
use serde_json::Value;
use web_sys::AbortController;

use super::Transport;
use crate::platform::Timeout;
use crate::protocol::error::{Error, ErrorCode};
use crate::protocol::retry::retry_after_ms;
use crate::protocol::validate::check_base_url;

/// Default bound on one request.
pub const DEFAULT_TIMEOUT_MS: u32 = 30_000;

pub struct HttpTransport {
    base_url: String,
    /// Never copied into an error, a log line or a result.
    token: Option<String>,
    timeout_ms: u32,
}

impl HttpTransport {
    /// Checks the settings. The token is only checked for characters a header cannot carry,
    /// and the error does not repeat it.
    pub fn new(
        base_url: &str,
        token: Option<String>,
        timeout_ms: u32,
        allow_insecure_http: bool,
    ) -> Result<Self, Error> {
        let base = base_url.trim();
        check_base_url(base, allow_insecure_http)?;
        if let Some(t) = &token {
            if t.is_empty() || t.chars().any(|c| c.is_control() || !c.is_ascii()) {
                return Err(Error::invalid_input(
                    "transport.token must be a non-empty string of printable ASCII characters",
                ));
            }
        }
        if timeout_ms == 0 {
            return Err(Error::invalid_input(
                "transport.timeoutMs must be a positive number",
            ));
        }
        Ok(HttpTransport {
            base_url: base.trim_end_matches('/').to_owned(),
            token,
            timeout_ms,
        })
    }

    async fn post(&self, path: &str, body: &Value) -> Result<Value, Error> {
        let url = format!("{}{}", self.base_url, path);
        let controller = AbortController::new().ok();
        let timed_out = Rc::new(Cell::new(false));
        let _timer = controller.clone().map(|c| {
            let flag = timed_out.clone();
            Timeout::new(self.timeout_ms, move || {
                flag.set(true);
                c.abort();
            })
        });
        let fail = |what: &str, detail: String| {
            if timed_out.get() {
                Error::new(
                    ErrorCode::NeotomaTimeout,
                    format!("POST {path}: no answer within {} ms", self.timeout_ms),
                )
            } else {
                Error::new(
                    ErrorCode::NeotomaNetwork,
                    format!("POST {path}: {what}: {detail}"),
                )
            }
        };

        let mut request = Request::post(&url).header("Content-Type", "application/json");
        if let Some(token) = &self.token {
            request = request.header("Authorization", &format!("Bearer {token}"));
        }
        let signal = controller.as_ref().map(|c| c.signal());
        let request = request
            .abort_signal(signal.as_ref())
            .body(serde_json::to_string(body).unwrap_or_default())
            .map_err(|e| fail("could not build the request", e.to_string()))?;
        let response = request
            .send()
            .await
            .map_err(|e| fail("request failed", e.to_string()))?;
        let status = response.status();
        let text = response
            .text()
            .await
            .map_err(|e| fail("reading the answer failed", e.to_string()))?;
        // Error pages are HTML or plain text: keep them as a string body.
        let parsed = serde_json::from_str::<Value>(&text).unwrap_or(Value::String(text));
        if !(200..300).contains(&status) {
            let mut error = Error::from_http(path, status, parsed);
            error.retry_after_ms = response.headers().get("retry-after").and_then(|h| {
                let date = js_sys::Date::parse(&h);
                retry_after_ms(&h, date.is_finite().then_some(date), js_sys::Date::now())
            });
            return Err(error);
        }
        Ok(parsed)
    }
}

impl Transport for HttpTransport {
    async fn store(&self, body: &Value) -> Result<Value, Error> {
        self.post("/store", body).await
    }

    async fn retrieve_entity_by_identifier(&self, body: &Value) -> Result<Value, Error> {
        self.post("/retrieve_entity_by_identifier", body).await
    }

    async fn create_relationships(&self, body: &Value) -> Result<Value, Error> {
        self.post("/create_relationships", body).await
    }
}
