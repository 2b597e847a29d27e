//! `fetch` to a real Neotoma (or a same-origin proxy in front of one).

use std::cell::Cell;
use std::rc::Rc;

use js_sys::{Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, AbortSignal, Request, Response};

use super::js_json::error_text;
use super::Transport;
use crate::json::{self, Value};
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

    pub(crate) async fn post(&self, path: &str, body: &Value) -> Result<Value, Error> {
        let url = format!("{}{}", self.base_url, path);
        let controller = AbortController::new().ok();
        // A request whose future is dropped (a lookup abandoned at the retrieval deadline) is
        // aborted, not left open; disarmed once the answer is read.
        let mut abort_on_drop = AbortOnDrop(controller.clone());
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

        let request = new_request(
            &url,
            self.token.as_deref(),
            &json::to_string(body),
            controller.as_ref().map(|c| c.signal()),
        )
        .map_err(|e| fail("could not build the request", error_text(&e)))?;
        let response = JsFuture::from(fetch_with_request(&request))
            .await
            .map_err(|e| fail("request failed", error_text(&e)))?
            .dyn_into::<Response>()
            .map_err(|_| {
                fail(
                    "request failed",
                    "fetch did not resolve to a Response".into(),
                )
            })?;
        let status = response.status();
        let text = match response.text() {
            Ok(promise) => JsFuture::from(promise).await,
            Err(e) => Err(e),
        }
        .map_err(|e| fail("reading the answer failed", error_text(&e)))?
        .as_string()
        .unwrap_or_default();
        abort_on_drop.0 = None;
        let failed = !(200..300).contains(&status);
        // An error page may echo the request's headers: the token never goes into an error.
        let text = match &self.token {
            Some(token) if failed && text.contains(token) => text.replace(token, "[redacted]"),
            _ => text,
        };
        // Error pages are HTML or plain text: keep them as a string body.
        let parsed = json::from_str(&text).unwrap_or(Value::String(text));
        if failed {
            let mut error = Error::from_http(path, status, parsed);
            let retry_after = response.headers().get("retry-after").ok().flatten();
            error.retry_after_ms = retry_after.and_then(|h| {
                let date = js_sys::Date::parse(&h);
                retry_after_ms(&h, date.is_finite().then_some(date), js_sys::Date::now())
            });
            return Err(error);
        }
        Ok(parsed)
    }
}

struct AbortOnDrop(Option<AbortController>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(controller) = self.0.take() {
            controller.abort();
        }
    }
}

#[wasm_bindgen]
extern "C" {
    // The global `fetch`, called as a plain function: workerd rejects `fetch` called with a
    // `this` other than globalThis (e.g. `window.fetch` bound elsewhere).
    #[wasm_bindgen(js_name = fetch)]
    fn fetch_with_request(request: &Request) -> Promise;
}

/// `new Request(url, { method: "POST", headers, body, signal })`; throws on a URL the host
/// cannot resolve (e.g. a path outside a page).
fn new_request(
    url: &str,
    token: Option<&str>,
    body: &str,
    signal: Option<AbortSignal>,
) -> Result<Request, JsValue> {
    let set = |target: &Object, key: &str, value: &JsValue| {
        let _ = Reflect::set(target, &JsValue::from_str(key), value);
    };
    let headers = Object::new();
    set(&headers, "Content-Type", &"application/json".into());
    if let Some(token) = token {
        set(&headers, "Authorization", &format!("Bearer {token}").into());
    }
    let init = Object::new();
    set(&init, "method", &"POST".into());
    set(&init, "headers", &headers);
    set(&init, "body", &body.into());
    if let Some(signal) = signal {
        set(&init, "signal", &signal);
    }
    Request::new_with_str_and_init(url, init.unchecked_ref())
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
