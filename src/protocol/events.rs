//! What an agent tells a UI while it works around failures: retries, writes kept for later,
//! writes sent later, writes refused for good. Events carry ids, keys and error codes, never a
//! request body or the token.

use serde::Serialize;

use super::error::Error;

/// As JS sees it: `{ type: "retry", path, attempt, delayMs, … }`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum AgentEvent {
    /// A request failed in a way another attempt may cure; the agent waits `delay_ms`.
    Retry {
        path: &'static str,
        /// The attempt that failed (1 = the first).
        attempt: u32,
        delay_ms: u32,
        code: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        status: Option<u16>,
    },
    /// A message could not be stored now; it is in the outbox.
    WritePending {
        turn_id: String,
        role: String,
        idempotency_key: String,
        code: &'static str,
        message: String,
        /// Writes in the outbox, this one included.
        pending: usize,
    },
    /// An outbox write was stored.
    WriteFlushed {
        turn_id: String,
        role: String,
        idempotency_key: String,
        replayed: bool,
        pending: usize,
    },
    /// An outbox write was refused on its merits (not a network problem); it is dropped from
    /// the outbox and reported here and in `flush()`'s result.
    WriteFailed {
        turn_id: String,
        role: String,
        idempotency_key: String,
        code: &'static str,
        message: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        status: Option<u16>,
    },
    /// An outbox write met `IDEMPOTENCY_MISMATCH` when it was finally sent: another instance
    /// stored a different text under its key meanwhile (the stored one stands). It is dropped
    /// from the outbox and reported here and in `flush()`'s result.
    WriteSuperseded {
        turn_id: String,
        role: String,
        idempotency_key: String,
        /// Always `IDEMPOTENCY_MISMATCH`.
        code: &'static str,
        message: String,
    },
    /// One pass of the outbox's own timer is over (`flush({ untilEmpty })` reports its passes in
    /// its result instead).
    Drain {
        flushed: usize,
        failed: usize,
        superseded: usize,
        /// Still waiting.
        pending: usize,
        /// When the next pass is due, if writes still wait.
        #[serde(skip_serializing_if = "Option::is_none")]
        next_attempt_ms: Option<u32>,
    },
}

/// A host's event listener. It must not fail the turn: what it does is its own business.
pub type EventSink = Box<dyn Fn(&AgentEvent)>;

/// The error fields events carry.
pub fn error_fields(e: &Error) -> (&'static str, String) {
    (e.code.as_str(), e.message.clone())
}
