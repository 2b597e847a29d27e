//! POST to a real Neotoma (or a same-origin proxy in front of one): gloo-net builds the request
//! and wraps the answer; ours are the timeout, Retry-After, the token's redaction, error bodies
//! that are not JSON, and the `fetch` call itself with the body read (see [`send`], [`text`]).

use std::cell::Cell;
use std::rc::Rc;

use gloo_net::http::{Request, Response};
use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortController;

use super::js_json::error_text;
use super::{Call, Transport};
use crate::platform::Timeout;
use crate::protocol::error::{Error, ErrorCode};
use crate::protocol::retry::retry_after_ms;
use crate::protocol::validate::check_base_url;
use serde_json::{self, Value};

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

        let mut request = Request::post(&url).header("Content-Type", "application/json");
        if let Some(token) = &self.token {
            request = request.header("Authorization", &format!("Bearer {token}"));
        }
        let signal = controller.as_ref().map(AbortController::signal);
        // Fails on a URL the host cannot resolve (e.g. a path outside a page); gloo-net's error
        // is the JS error's `toString()`, which names the URL.
        let request = request
            .abort_signal(signal.as_ref())
            .body(body.to_string())
            .map_err(|e| fail("could not build the request", e.to_string()))?;
        let response = send(request).await.map_err(|e| fail("request failed", e))?;
        let status = response.status();
        let retry_after = response.headers().get("retry-after");
        let text = text(response)
            .await
            .map_err(|e| fail("reading the answer failed", e))?;
        abort_on_drop.0 = None;
        let failed = !(200..300).contains(&status);
        // An error page may echo the request's headers: the token never goes into an error.
        let text = match &self.token {
            Some(token) if failed && text.contains(token) => text.replace(token, "[redacted]"),
            _ => text,
        };
        // Error pages are HTML or plain text: keep them as a string body.
        let parsed = serde_json::from_str(&text).unwrap_or(Value::String(text));
        if failed {
            let mut error = Error::from_http(path, status, parsed);
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
    // The global `fetch`, called as a plain function (`this` is undefined, so globalThis):
    // workerd rejects `fetch` called with another `this` (e.g. `window.fetch` bound elsewhere).
    // gloo-net 0.7 binds `fetch` the same way.
    #[wasm_bindgen(js_name = fetch)]
    fn fetch_with_request(request: &web_sys::Request) -> Promise;
}

/// `fetch(request)`. Not gloo-net's `Request::send`, whose error keeps only the rejection's
/// `toString()`: Node's "TypeError: fetch failed" says why (ECONNREFUSED, a DNS failure, …)
/// only in its `cause`, which [`error_text`] keeps. `send` also panics (a trap, with
/// `panic = "abort"`) on a rejection that is not an `Error` or an answer that is not a
/// `Response`, both possible with a host's own `fetch` wrapper.
async fn send(request: Request) -> Result<Response, String> {
    let answer = JsFuture::from(fetch_with_request(&request.into()))
        .await
        .map_err(|e| error_text(&e))?;
    answer
        .dyn_into::<web_sys::Response>()
        .map(Response::from)
        .map_err(|_| "fetch did not resolve to a Response".into())
}

/// The answer's body as text. Not gloo-net's `Response::text`, for the same reasons as in
/// [`send`]: a body cut mid-way reads "TypeError: terminated" there, without the cause
/// ("other side closed").
async fn text(response: Response) -> Result<String, String> {
    let text = web_sys::Response::from(response)
        .text()
        .map(JsFuture::from)
        .map_err(|e| error_text(&e))?
        .await
        .map_err(|e| error_text(&e))?;
    Ok(text.as_string().unwrap_or_default())
}

impl Transport for HttpTransport {
    async fn call(&self, call: Call, body: &Value) -> Result<Value, Error> {
        self.post(call.path(), body).await
    }
}
