//! When and how long to wait before sending a request again.
//!
//! Retrying a write is safe only because every attempt sends the same body under the same
//! idempotency key: the server collapses them onto one observation. So the caller builds the
//! body once and this module only decides *whether* and *when*.

use super::error::{Error, ErrorCode};
use serde_json::Value;

/// Bounds on retrying one request. `max_attempts` counts the first try.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    pub max_attempts: u32,
    /// Backoff before the 2nd attempt; doubles each time (full jitter: a random part of it).
    pub initial_delay_ms: u32,
    /// Cap on one backoff (a `Retry-After` above it is still honoured, within `max_elapsed_ms`).
    pub max_delay_ms: u32,
    /// No attempt starts later than this after the first (a wait that would cross it is not made).
    pub max_elapsed_ms: u32,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 4,
            initial_delay_ms: 250,
            max_delay_ms: 4_000,
            max_elapsed_ms: 15_000,
        }
    }
}

impl RetryPolicy {
    /// No retries at all.
    pub fn none() -> Self {
        RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        }
    }

    /// The wait before attempt `failed + 1` after `failed` failed attempts, or `None` to give up.
    /// `random_unit` is in [0, 1); `elapsed_ms` is the time since the first attempt started.
    pub fn delay_before_next(
        &self,
        failed: u32,
        error: &Error,
        random_unit: f64,
        elapsed_ms: f64,
    ) -> Option<u32> {
        if failed >= self.max_attempts || !is_retryable(error) {
            return None;
        }
        let exp = self
            .initial_delay_ms
            .saturating_mul(1u32 << (failed.saturating_sub(1)).min(20))
            .min(self.max_delay_ms);
        let jittered = (f64::from(exp) * random_unit.clamp(0.0, 1.0)) as u32;
        // The server's own figure wins over our guess when it is longer.
        let wait = error.retry_after_ms.map_or(jittered, |ra| ra.max(jittered));
        if elapsed_ms + f64::from(wait) > f64::from(self.max_elapsed_ms) {
            return None;
        }
        Some(wait)
    }
}

/// Failures that another attempt may cure: no answer, a timeout, a 2xx answer that cannot be
/// read, 429, 502/503/504, or an envelope that says `retryable: true`. Other 4xx/5xx answers
/// would fail the same way again.
pub fn is_retryable(error: &Error) -> bool {
    if error.external.is_some() {
        return false; // thrown by user code (a custom transport): not ours to repeat
    }
    match error.code {
        // no answer, or a 2xx store answer we cannot read: the write may have happened, and
        // the same body under the same key is answered as its replay
        ErrorCode::NeotomaNetwork | ErrorCode::NeotomaTimeout | ErrorCode::InvalidResponse => true,
        ErrorCode::NeotomaHttp => {
            matches!(error.status, Some(429 | 502 | 503 | 504))
                || error.body.as_ref().is_some_and(says_retryable)
        }
        _ => false,
    }
}

/// Worth keeping in the outbox when retries ran out: the server may take it later. Requests
/// the server refused on their merits (4xx other than 408/429) are not.
pub fn is_deferrable(error: &Error) -> bool {
    // An answer that keeps being unreadable is a broken server or transport: say so loudly
    // rather than pile writes up in the outbox.
    (is_retryable(error) && error.code != ErrorCode::InvalidResponse)
        || (error.code == ErrorCode::NeotomaHttp
            && error.external.is_none()
            && matches!(error.status, Some(408) | Some(500..=599)))
}

/// `{retryable: true}` or `{error: {retryable: true}}`.
fn says_retryable(body: &Value) -> bool {
    let flag = |v: &Value| v.get("retryable").and_then(Value::as_bool) == Some(true);
    flag(body) || body.get("error").is_some_and(flag)
}

/// `Retry-After` as milliseconds: delta-seconds, or an HTTP date given `now_ms` (Unix ms) and
/// the date already parsed by the platform (`date_ms`). Capped at one hour.
pub fn retry_after_ms(header: &str, date_ms: Option<f64>, now_ms: f64) -> Option<u32> {
    const CAP_MS: f64 = 3_600_000.0;
    let header = header.trim();
    let ms = if !header.is_empty() && header.bytes().all(|b| b.is_ascii_digit()) {
        // digits only: no float parser (its tables would cost the wasm kilobytes)
        let seconds = header.bytes().fold(0u64, |n, b| {
            (n * 10 + u64::from(b - b'0')).min(u64::from(u32::MAX))
        });
        seconds as f64 * 1000.0
    } else {
        (date_ms? - now_ms).max(0.0)
    };
    Some(ms.min(CAP_MS) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn http(status: u16, body: Value) -> Error {
        Error::from_http("/store", status, body)
    }

    #[test]
    fn classifies_what_a_retry_can_cure() {
        assert!(is_retryable(&Error::new(ErrorCode::NeotomaNetwork, "x")));
        assert!(is_retryable(&Error::new(ErrorCode::NeotomaTimeout, "x")));
        for s in [429, 502, 503, 504] {
            assert!(is_retryable(&http(s, json!("busy"))), "{s}");
        }
        for s in [400, 401, 403, 404, 413, 500] {
            assert!(!is_retryable(&http(s, json!({}))), "{s}");
        }
        assert!(is_retryable(&http(
            500,
            json!({"error": {"code": "X", "retryable": true}})
        )));
        assert!(is_retryable(&http(409, json!({"retryable": true}))));
        assert!(!is_retryable(&Error::invalid_input("bad")));
        assert!(!is_retryable(&http(
            400,
            json!({"error":{"code":"ERR_IDEMPOTENCY_MISMATCH"}})
        )));
        let thrown = Error::external(std::rc::Rc::new(1u8), "threw");
        assert!(!is_retryable(&thrown));
        assert!(is_deferrable(&http(500, json!({}))));
        assert!(!is_deferrable(&http(401, json!({}))));
        assert!(!is_deferrable(&http(400, json!({}))));
        let unreadable = Error::new(ErrorCode::InvalidResponse, "cut short");
        assert!(is_retryable(&unreadable) && !is_deferrable(&unreadable));
    }

    #[test]
    fn backoff_doubles_with_full_jitter_and_stops_at_the_bounds() {
        let p = RetryPolicy {
            max_attempts: 5,
            initial_delay_ms: 100,
            max_delay_ms: 1000,
            max_elapsed_ms: 10_000,
        };
        let net = Error::new(ErrorCode::NeotomaNetwork, "x");
        // random_unit just under 1 gives the ceiling of each step
        let top: Vec<_> = (1..5)
            .map(|n| p.delay_before_next(n, &net, 0.999_999, 0.0).unwrap())
            .collect();
        assert_eq!(top, vec![99, 199, 399, 799]);
        assert_eq!(p.delay_before_next(1, &net, 0.0, 0.0), Some(0));
        assert_eq!(
            p.delay_before_next(5, &net, 0.5, 0.0),
            None,
            "attempts bound"
        );
        assert_eq!(
            p.delay_before_next(1, &net, 0.5, 9_990.0),
            None,
            "time bound"
        );
        let bad = Error::invalid_input("x");
        assert_eq!(p.delay_before_next(1, &bad, 0.5, 0.0), None);
        assert_eq!(
            RetryPolicy::none().delay_before_next(1, &net, 0.5, 0.0),
            None
        );
    }

    #[test]
    fn retry_after_is_honoured_within_the_time_bound() {
        let p = RetryPolicy::default();
        let mut limited = http(429, json!("Too many requests"));
        limited.retry_after_ms = Some(2_000);
        assert_eq!(p.delay_before_next(1, &limited, 0.1, 0.0), Some(2_000));
        limited.retry_after_ms = Some(55_000); // the real server's figure (09c)
        assert_eq!(p.delay_before_next(1, &limited, 0.1, 0.0), None);
    }

    #[test]
    fn parses_retry_after() {
        assert_eq!(retry_after_ms("55", None, 0.0), Some(55_000));
        assert_eq!(retry_after_ms(" 0 ", None, 0.0), Some(0));
        assert_eq!(retry_after_ms("99999999", None, 0.0), Some(3_600_000));
        assert_eq!(
            retry_after_ms("Sun, 29 Nov 2026 18:48:28 GMT", Some(5_000.0), 1_000.0),
            Some(4_000)
        );
        assert_eq!(
            retry_after_ms("Sun, 29 Nov 2026 18:48:28 GMT", Some(0.0), 1_000.0),
            Some(0)
        );
        assert_eq!(retry_after_ms("soon", None, 0.0), None);
        assert_eq!(retry_after_ms("-5", None, 0.0), None);
    }
}
