//! The turn protocol, in one place.
//!
//! ```text
//! open_turn:  check input → extract identifiers → look them up in parallel (bounded count,
//!             bounded time, failures skipped) → ONE /store: [conversation, user message]
//!             + PART_OF + REFERS_TO every retrieved entity
//! turn:       open_turn → the LLM callback (its error comes back unchanged; the user message
//!             stays stored) → close_turn
//! overlapped: (`overlap_user_store`, opt-in) retrieval → the user message's write kept in the
//!             outbox → its /store and the LLM callback at once → (both done) close_turn; the
//!             write leaves the outbox once stored, and no flush sends it meanwhile (it is in
//!             flight). The store's failure wins over the callback's.
//! close_turn: ONE /store: [conversation, assistant message, ...entities the reply produced]
//!             + PART_OF + REFERS_TO each produced entity (by index) and what the reply cites
//!             (or everything retrieved, in "retrieved" mode)
//! ```
//! A store answered as a replay (`replayed: true`) silently skips relationships the first
//! request lacked, so after a replay the REFERS_TO edges are re-created with
//! `/create_relationships`, which is idempotent per pair.
//!
//! A turn's reply is produced once. When the user message is answered as a replay (or waits in
//! the outbox), the turn looks for its stored reply first (the outbox, then one lookup by turn
//! key) and returns it without calling the LLM; only `regenerate` asks for a new one, stored as
//! the next revision. An overlapped turn has called the LLM by then: that reply is discarded.
//!
//! Failures: every request is retried with backoff when another attempt may cure it
//! ([`retry`](super::retry)), sending the same body under the same idempotency key. A message
//! store that still fails for a reason the server may get over later goes into the outbox
//! ([`outbox`](super::outbox)) and the turn goes on: the result says the write is pending, and
//! `flush` (or the next store) sends it, in order, before anything newer.

use std::cell::{Cell, RefCell};
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::task::{Poll, Waker};

use futures_util::future::{join, select, Either};
use serde::Serialize;
use serde_json::{json, Map, Value};

use super::error::{Error, ErrorCode};
use super::events::{error_fields, AgentEvent, EventSink};
use super::identifiers::extract_identifiers;
use super::keys::{idempotency_key, revision_key, text_hash, turn_key, Role};
use super::memory::{memory_block, DEFAULT_MEMORY_CHARS};
use super::outbox::{Outbox, OutboxStorage, PendingWrite};
use super::payload::{
    check_extra, produced_in, refers_to_request, retrieve_by_name_request, retrieve_request,
    store_request, stored_message_request, Conversation, Message,
};
use super::produced::{
    check_produced, parse_produced, EntityFields, Produced, DEFAULT_MAX_PRODUCED_ENTITIES,
};
use super::response::{
    crowded_out, parse_retrieve_response, parse_store_response, parse_stored_message,
    RetrievedEntity, StoreOutcome,
};
use super::retry::{is_deferrable, RetryPolicy};
use super::validate::{check_id, check_message, DEFAULT_MAX_MESSAGE_BYTES};
use crate::transport::{Call, Transport};

mod remember;
mod verify;
pub use remember::{Remembered, REMEMBER_ROLE};
pub use verify::{Diagnosis, Repair, TurnRepairs, VerifyInput};

/// Default number of entities kept per turn (and of lookups made).
pub const DEFAULT_RETRIEVAL_LIMIT: usize = 8;
/// Default bound on the whole retrieval phase.
pub const DEFAULT_RETRIEVAL_TIMEOUT_MS: u32 = 2_500;
/// Hits asked for per identifier: the server's substring match over-matches, so a few.
const HITS_PER_LOOKUP: u32 = 5;
/// Default bound on the LLM callback (its whole stream included).
pub const DEFAULT_LLM_TIMEOUT_MS: u32 = 300_000;
/// Turns remembered per agent ([`OpenedTurn`]: its number for replays, what its messages meant
/// for `verify_turn`, its retrieved entities' ids and names for close_turn). Older turns are
/// forgotten, oldest first: a replay of one gets the next number unless the caller gives it,
/// and `verify_turn` checks it against the texts the caller gives. About 640 bytes of wasm
/// memory each with three retrieved entities (scripts/bench/memory.mjs, README's Measured).
const REMEMBERED_TURNS: usize = 1024;
/// The `role` of a stored message's missing edges in the outbox and in events (`edges_write`).
pub const EDGES_ROLE: &str = "edges";
/// The outbox key of a stored message's missing edges: this, then the message's entity id.
const EDGES_KEY_PREFIX: &str = "edges-";

/// The outbox's own timer: first wait after a write could not go, doubled after every pass
/// that sends nothing, up to the cap (a `Retry-After` from the server is used instead).
const DRAIN_FIRST_DELAY_MS: u32 = 1_000;
const DRAIN_MAX_DELAY_MS: u32 = 60_000;
/// Added to every drain wait, so agents of one server do not come back in step.
const DRAIN_JITTER_MS: f64 = 250.0;

/// What the platform provides: timers and randomness.
pub trait Runtime {
    /// Resolves after `ms` milliseconds.
    fn sleep(&self, ms: u32) -> impl Future<Output = ()>;
    /// A random RFC 4122 v4 UUID.
    fn random_uuid(&self) -> String;
    /// A random number in [0, 1), for backoff jitter.
    fn random_unit(&self) -> f64;
    /// Wall-clock milliseconds (Unix epoch).
    fn now_ms(&self) -> f64;
}

/// The agent's reply, from the LLM callback.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reply {
    pub text: String,
    /// Entity ids the reply refers to beyond those it cites by name.
    pub refers_to: Vec<String>,
    /// Entities the reply produced, stored with it.
    pub entities: Vec<EntityFields>,
}

/// What the LLM callback sees.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnContext {
    pub retrieved: Vec<RetrievedEntity>,
    /// The retrieved entities as a compact text block for a system prompt (`memoryChars`).
    pub memory: String,
    pub retrieved_entity_ids: Vec<String>,
    pub turn_id: String,
    pub turn_number: u32,
    pub conversation_id: String,
}

/// The user's LLM. Errors it returns are passed back to the caller as they are.
#[allow(async_fn_in_trait)]
pub trait Llm {
    async fn reply(&self, user_message: &str, ctx: &TurnContext) -> Result<Reply, Error>;

    /// Called instead of [`reply`](Llm::reply) when the turn is a replay whose reply is already
    /// stored: a streaming host hands `text` on (in one chunk) as if it had just been generated.
    fn stored_reply(&self, _text: &str) {}
}

/// How one whole turn runs (`turn`, `turnStream`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TurnOptions {
    pub turn_id: Option<String>,
    pub turn_number: Option<u32>,
    /// An explicit revision of the reply (2, 3, …: see [`CloseTurnInput::revision`]).
    pub revision: Option<u32>,
    /// A new reply even if the turn's reply is already stored: stored as the next revision.
    pub regenerate: bool,
    /// This turn overlapped or not, whatever [`AgentConfig::overlap_user_store`] says.
    pub overlap_user_store: Option<bool>,
}

/// Which entities the assistant message `REFERS_TO`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AssistantRefersTo {
    /// Retrieved entities whose name or id appears in the reply (plus the callback's own).
    #[default]
    Cited,
    /// Every retrieved entity, as the upstream SDK does.
    Retrieved,
}

/// Extracts identifiers; a custom extractor may fail (its error is passed back as is).
pub type Extractor = Box<dyn Fn(&str) -> Result<Vec<String>, Error>>;

/// Agent settings, already checked.
pub struct AgentConfig {
    pub conversation: Conversation,
    pub retrieval_limit: usize,
    pub retrieval_timeout_ms: u32,
    pub assistant_refers_to: AssistantRefersTo,
    pub max_message_bytes: usize,
    /// The most entities one reply may produce.
    pub max_produced_entities: usize,
    /// Bound on `ctx.memory`, in characters.
    pub memory_chars: usize,
    pub extractor: Option<Extractor>,
    pub retry: RetryPolicy,
    pub llm_timeout_ms: u32,
    /// Failed message stores are kept in the outbox (true) or returned as errors (false).
    pub outbox_enabled: bool,
    /// Overlapped turns: the user message's store and the LLM callback start together, right
    /// after retrieval (one round trip before the callback instead of two). Off by default:
    /// the protocol's order is the message stored first, then the agent.
    pub overlap_user_store: bool,
    pub on_event: Option<EventSink>,
}

impl AgentConfig {
    pub fn new(conversation_id: impl Into<String>) -> Self {
        AgentConfig {
            conversation: Conversation {
                conversation_id: conversation_id.into(),
                title: None,
                platform: None,
            },
            retrieval_limit: DEFAULT_RETRIEVAL_LIMIT,
            retrieval_timeout_ms: DEFAULT_RETRIEVAL_TIMEOUT_MS,
            assistant_refers_to: AssistantRefersTo::Cited,
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            max_produced_entities: DEFAULT_MAX_PRODUCED_ENTITIES,
            memory_chars: DEFAULT_MEMORY_CHARS,
            extractor: None,
            retry: RetryPolicy::default(),
            llm_timeout_ms: DEFAULT_LLM_TIMEOUT_MS,
            outbox_enabled: true,
            overlap_user_store: false,
            on_event: None,
        }
    }

    /// Checks the settings themselves (conversation id).
    pub fn check(&self) -> Result<(), Error> {
        check_id("conversationId", &self.conversation.conversation_id)
    }
}

#[derive(Debug, Clone, Default)]
pub struct OpenTurnInput {
    pub turn_id: Option<String>,
    pub turn_number: Option<u32>,
    pub user_message: String,
    pub extra: Option<Map<String, Value>>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenTurnResult {
    pub turn_id: String,
    pub turn_number: u32,
    /// `None` while the user message is pending in the outbox.
    pub conversation_entity_id: Option<String>,
    pub user_message_entity_id: Option<String>,
    pub retrieved: Vec<RetrievedEntity>,
    pub retrieved_entity_ids: Vec<String>,
    pub replayed: bool,
    /// The user message is in the outbox, not yet stored.
    pub pending: bool,
    pub store_warnings: Vec<Value>,
}

#[derive(Debug, Clone, Default)]
pub struct CloseTurnInput {
    pub turn_id: String,
    pub turn_number: Option<u32>,
    pub assistant_message: String,
    pub refers_to: Vec<String>,
    /// Entities the reply produced, stored in the same request.
    pub entities: Vec<EntityFields>,
    pub extra: Option<Map<String, Value>>,
    /// A deliberate new text for an already-stored reply (a regeneration): 2, 3, … give the
    /// write its own idempotency key (`…-assistant-turn-v2`), so it replaces the stored text
    /// instead of failing with `IDEMPOTENCY_MISMATCH`.
    pub revision: Option<u32>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CloseTurnResult {
    pub turn_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_number: Option<u32>,
    pub conversation_entity_id: Option<String>,
    pub assistant_message_entity_id: Option<String>,
    pub refers_to: Vec<String>,
    /// What the produced entities became (empty while the reply waits in the outbox).
    pub produced: Vec<Produced>,
    pub replayed: bool,
    pub pending: bool,
    pub store_warnings: Vec<Value>,
}

/// A flag per message of a turn (`replayed`, `pending`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PerMessage {
    pub user: bool,
    pub assistant: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnResult {
    pub assistant_message: String,
    pub turn_id: String,
    pub turn_number: u32,
    pub conversation_entity_id: Option<String>,
    pub user_message_entity_id: Option<String>,
    pub assistant_message_entity_id: Option<String>,
    pub retrieved: Vec<RetrievedEntity>,
    pub retrieved_entity_ids: Vec<String>,
    /// The assistant message's REFERS_TO targets by id (what it cites).
    pub refers_to: Vec<String>,
    /// The entities the reply produced, stored with it (and referred to by it).
    pub produced: Vec<Produced>,
    pub replayed: PerMessage,
    /// Messages waiting in the outbox (not stored yet; `flush` sends them).
    pub pending: PerMessage,
    pub store_warnings: Vec<Value>,
}

/// What `flush` did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FlushResult {
    pub flushed: usize,
    /// Still in the outbox (the server is still unreachable).
    pub pending: usize,
    /// Refused on their merits and dropped from the outbox.
    pub failed: Vec<FailedWrite>,
    /// Met `IDEMPOTENCY_MISMATCH` when sent: another instance stored a different text under the
    /// key meanwhile, which stands. Dropped from the outbox.
    pub superseded: Vec<FailedWrite>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FailedWrite {
    pub idempotency_key: String,
    pub turn_id: String,
    pub role: String,
    pub code: &'static str,
    pub message: String,
}

/// A request of the protocol: a [`Call`], and for a message store the turn key its answer must
/// hold.
#[derive(Clone, Copy)]
enum Request<'a> {
    Store(&'a str),
    /// A store of entities alone (`remember()`): its answer must list them.
    StoreEntities,
    Retrieve,
    CreateRelationships,
    /// A read-back of a stored entity's edges (`verifyTurn`, `repairTurn`).
    RetrieveRelated,
}

impl Request<'_> {
    fn call(self) -> Call {
        match self {
            Request::Store(_) | Request::StoreEntities => Call::Store,
            Request::Retrieve => Call::RetrieveEntityByIdentifier,
            Request::CreateRelationships => Call::CreateRelationships,
            Request::RetrieveRelated => Call::RetrieveRelatedEntities,
        }
    }
}

/// A message store: stored now, or kept for later.
enum Delivery {
    Stored(StoreOutcome),
    Pending,
}

/// What became of a write sent after the outbox: answered (the write, for what follows), or
/// kept in the outbox.
enum Sent {
    Answered(PendingWrite, Value),
    Kept,
}

/// A turn's reply found already stored, or waiting in the outbox.
struct StoredReply {
    text: String,
    at: ReplyAt,
    /// Which revision of the reply this is (1, or n for `…-vn`).
    revision: u32,
}

/// What a turn answers with: its reply already stored, or a new one from the LLM (under this
/// revision, if not the first).
enum TurnReply {
    Stored(StoredReply),
    New(Option<u32>),
}

/// Where a stored reply was found.
enum ReplyAt {
    /// Waiting in the outbox: its write.
    Queued(PendingWrite),
    /// In the store: the message's entity id.
    Stored(String),
}

/// The outbox's own timer: whether it runs, how many passes in a row sent nothing, and the
/// wait the server last asked for.
#[derive(Default)]
struct DrainState {
    running: Cell<bool>,
    /// Writes may be waiting: set when one is kept, cleared by a pass that empties the queue.
    wanted: Cell<bool>,
    blocked_passes: Cell<u32>,
    retry_after_ms: Cell<Option<u32>>,
}

/// What an agent remembers of a turn it opened.
#[derive(Debug, Clone, Default)]
struct OpenedTurn {
    turn_number: u32,
    retrieved: Vec<RetrievedRef>,
    /// What the turn's messages meant, for `verify_turn`: the hash of each text sent.
    user_text: Option<u64>,
    reply: Option<SentReply>,
}

/// What an agent remembers of an entity a turn retrieved: its id and the names a reply may cite
/// it by ([`RetrievedEntity::names`]). Not its snapshot: that is most of an entity's size (a
/// map per entity, about 700 bytes of wasm memory even for one field) and only the turn's own
/// LLM callback reads it, from the turn's context.
#[derive(Debug, Clone)]
struct RetrievedRef {
    id: String,
    /// Its names besides its id.
    names: Vec<String>,
}

impl RetrievedRef {
    fn of(entities: &[RetrievedEntity]) -> Vec<RetrievedRef> {
        entities
            .iter()
            .map(|e| {
                let mut names: Vec<String> = Vec::new();
                // a name is often also the canonical name: kept once
                for name in e.names() {
                    if name != e.id && !names.iter().any(|known| known == name) {
                        names.push(name.to_owned());
                    }
                }
                RetrievedRef {
                    id: e.id.clone(),
                    names,
                }
            })
            .collect()
    }
}

/// What an agent keeps of a reply it stored (or queued).
#[derive(Debug, Clone)]
struct SentReply {
    text: u64,
    /// Its REFERS_TO targets by id: cited, explicit and (once stored) produced.
    refers_to: Vec<String>,
}

/// The turns an agent remembers: at most `REMEMBERED_TURNS` entries, looked up once or twice a
/// turn. Once full, a new turn takes the oldest one's place (a ring).
#[derive(Default)]
struct TurnLog {
    last_number: u32,
    opened: Vec<(String, OpenedTurn)>,
    /// Where the oldest entry is once the log is full: the next to be forgotten.
    oldest: usize,
}

impl TurnLog {
    fn get(&self, turn_id: &str) -> Option<&OpenedTurn> {
        self.opened
            .iter()
            .find(|(id, _)| id == turn_id)
            .map(|(_, turn)| turn)
    }

    /// The turn number for `turn_id`: the caller's, the one it had before (a replay), or the next.
    fn number_for(&self, turn_id: &str, requested: Option<u32>) -> u32 {
        requested
            .or_else(|| self.get(turn_id).map(|t| t.turn_number))
            .unwrap_or(self.last_number.saturating_add(1))
    }

    /// Fixes the turn's number when the turn starts, under its id: a retry of a failed turn
    /// (same id) gets the same number, so it sends the same body and replays cleanly.
    fn reserve(&mut self, turn_id: &str, requested: Option<u32>) -> u32 {
        let number = self.number_for(turn_id, requested);
        let turn = match self.get(turn_id) {
            Some(t) if t.turn_number == number => t.clone(),
            _ => OpenedTurn {
                turn_number: number,
                ..OpenedTurn::default()
            },
        };
        self.remember(turn_id, turn);
        number
    }

    /// Changes what is remembered of `turn_id` (a turn not known yet starts empty).
    fn update(&mut self, turn_id: &str, change: impl FnOnce(&mut OpenedTurn)) {
        let mut turn = self.get(turn_id).cloned().unwrap_or_default();
        change(&mut turn);
        self.remember(turn_id, turn);
    }

    /// Stores `turn` under `turn_id`: in place if the id is known (its age unchanged), else as
    /// the newest, forgetting the oldest beyond `REMEMBERED_TURNS`.
    fn remember(&mut self, turn_id: &str, turn: OpenedTurn) {
        self.last_number = self.last_number.max(turn.turn_number);
        if let Some((_, known)) = self.opened.iter_mut().find(|(id, _)| id == turn_id) {
            *known = turn;
            return;
        }
        let entry = (turn_id.to_owned(), turn);
        if self.opened.len() < REMEMBERED_TURNS {
            self.opened.push(entry);
        } else {
            self.opened[self.oldest] = entry;
            self.oldest = (self.oldest + 1) % REMEMBERED_TURNS;
        }
    }
}

/// One conversation's agent: runs turns over a transport, keeping writes it could not send in
/// an outbox on `S`.
pub struct Agent<T, R, S> {
    transport: T,
    runtime: R,
    config: AgentConfig,
    turns: RefCell<TurnLog>,
    outbox: Outbox<S>,
    flushing: Cell<bool>,
    /// Flushes waiting for the one that is sending to finish.
    flush_waiters: RefCell<Vec<Waker>>,
    /// Keys of the writes in the outbox that their own turn is sending now (an overlapped
    /// turn's user message): kept there only in case the host dies meanwhile, so no flush sends
    /// them, nor counts them as waiting.
    in_flight: RefCell<Vec<String>>,
    drain: DrainState,
}

/// A write its own turn is sending, until dropped (also when the turn's future is dropped
/// part-way): flushes leave it alone until then.
struct InFlight<'a, T, R, S> {
    agent: &'a Agent<T, R, S>,
    key: String,
}

impl<T, R, S> Drop for InFlight<'_, T, R, S> {
    fn drop(&mut self) {
        // one mark: a second overlapped attempt of the same turn marks it too, and may stop first
        let mut in_flight = self.agent.in_flight.borrow_mut();
        if let Some(at) = in_flight.iter().position(|key| *key == self.key) {
            in_flight.swap_remove(at);
        }
    }
}

/// The flush that is sending, until dropped (also when its future is dropped part-way): then
/// the flushes waiting for it are woken.
struct Sending<'a, T, R, S>(&'a Agent<T, R, S>);

impl<T, R, S> Drop for Sending<'_, T, R, S> {
    fn drop(&mut self) {
        self.0.flushing.set(false);
        for waiter in self.0.flush_waiters.take() {
            waiter.wake();
        }
    }
}

impl<T: Transport, R: Runtime, S: OutboxStorage> Agent<T, R, S> {
    pub fn new(config: AgentConfig, transport: T, runtime: R, storage: S) -> Result<Self, Error> {
        config.check()?;
        let outbox = Outbox::new(storage, &config.conversation.conversation_id);
        Ok(Agent {
            transport,
            runtime,
            config,
            turns: RefCell::new(TurnLog::default()),
            outbox,
            flushing: Cell::new(false),
            flush_waiters: RefCell::new(Vec::new()),
            in_flight: RefCell::new(Vec::new()),
            drain: DrainState::default(),
        })
    }

    pub fn config(&self) -> &AgentConfig {
        &self.config
    }

    pub fn transport(&self) -> &T {
        &self.transport
    }

    fn conversation_id(&self) -> &str {
        &self.config.conversation.conversation_id
    }

    /// Checks a turn's input and fixes its id and number. Nothing is sent before this passes.
    fn prepare(
        &self,
        turn_id: Option<String>,
        turn_number: Option<u32>,
        user_message: &str,
        extra: Option<&Map<String, Value>>,
    ) -> Result<(String, u32), Error> {
        let turn_id = match turn_id {
            Some(id) => id,
            None => self.runtime.random_uuid(),
        };
        check_id("turnId", &turn_id)?;
        check_message("userMessage", user_message, self.config.max_message_bytes)?;
        if let Some(extra) = extra {
            check_extra("userMessageExtra", extra)?;
        }
        // Reserved now, not when the store answers: two turns in flight at once must not get
        // the same number.
        let number = self.turns.borrow_mut().reserve(&turn_id, turn_number);
        Ok((turn_id, number))
    }

    /// Bounded retrieval: at most `retrieval_limit` lookups, all in flight at once, each
    /// abandoned at the shared deadline; failures are skipped.
    pub async fn retrieve(&self, user_message: &str) -> Result<Vec<RetrievedEntity>, Error> {
        let limit = self.config.retrieval_limit;
        if limit == 0 {
            return Ok(Vec::new());
        }
        let identifiers = match &self.config.extractor {
            Some(custom) => custom(user_message)?,
            None => extract_identifiers(user_message),
        };
        let mut wanted: Vec<String> = Vec::new();
        for id in identifiers {
            let id = id.trim().to_owned();
            if !id.is_empty() && !wanted.iter().any(|w| w.eq_ignore_ascii_case(&id)) {
                wanted.push(id);
            }
            if wanted.len() == limit {
                break;
            }
        }
        let timeout = self.config.retrieval_timeout_ms;
        let lookup = |identifier| async move {
            let lookup = Box::pin(self.look_up(identifier));
            let deadline = Box::pin(self.runtime.sleep(timeout));
            match select(lookup, deadline).await {
                Either::Left((found, _)) => found,
                // a late lookup is skipped: retrieval must never fail a turn
                Either::Right(_) => Vec::new(),
            }
        };
        // Best hit of every identifier first, then the second hits, …: an identifier that
        // over-matches cannot crowd out the others.
        let hits = join_all(wanted.iter().map(|identifier| lookup(identifier))).await;
        Ok(interleave(
            hits.into_iter().map(Vec::into_iter).collect(),
            limit,
        ))
    }

    /// One identifier's entities; a failed lookup finds nothing. When conversation bookkeeping
    /// filled the answer (an identifier that also occurs in conversation ids), a second lookup
    /// searches snapshot names only, so a person or project of that name is not crowded out:
    /// at most one extra request per identifier, and only then.
    async fn look_up(&self, identifier: &str) -> Vec<RetrievedEntity> {
        let body = retrieve_request(identifier, HITS_PER_LOOKUP);
        let Ok(answer) = self
            .send(Request::Retrieve, &body, &self.config.retry)
            .await
        else {
            return Vec::new();
        };
        let mut found = parse_retrieve_response(&answer, identifier);
        if crowded_out(&answer, HITS_PER_LOOKUP as usize) {
            let body = retrieve_by_name_request(identifier, HITS_PER_LOOKUP);
            if let Ok(by_name) = self
                .send(Request::Retrieve, &body, &self.config.retry)
                .await
            {
                for entity in parse_retrieve_response(&by_name, identifier) {
                    if !found.iter().any(|f| f.id == entity.id) {
                        found.push(entity);
                    }
                }
            }
        }
        found
    }

    /// Retrieval, then the user message in one store.
    pub async fn open_turn(&self, input: &OpenTurnInput) -> Result<OpenTurnResult, Error> {
        let (turn_number, retrieved, write) = self.user_write_after_retrieval(input).await?;
        self.store_user_message(input, write, turn_number, retrieved, false)
            .await
    }

    /// A turn's first steps, for `open_turn` and `turn`: its input checked and its id and number
    /// fixed, retrieval, then the user message's write (not sent yet; its `turn_id` is the
    /// turn's).
    async fn user_write_after_retrieval(
        &self,
        input: &OpenTurnInput,
    ) -> Result<(u32, Vec<RetrievedEntity>, PendingWrite), Error> {
        let (turn_id, turn_number) = self.prepare(
            input.turn_id.clone(),
            input.turn_number,
            &input.user_message,
            input.extra.as_ref(),
        )?;
        let retrieved = self.retrieve(&input.user_message).await?;
        let write = self.user_write(input, &turn_id, turn_number, &retrieved);
        Ok((turn_number, retrieved, write))
    }

    /// The user message's write: its store request, as the outbox would keep it.
    fn user_write(
        &self,
        input: &OpenTurnInput,
        turn_id: &str,
        turn_number: u32,
        retrieved: &[RetrievedEntity],
    ) -> PendingWrite {
        let message = Message {
            role: Role::User,
            turn_id,
            content: &input.user_message,
            turn_number: Some(turn_number),
            extra: input.extra.as_ref(),
            refers_to: &entity_ids(retrieved),
            produced: &[],
        };
        self.pending_write(&message, None)
    }

    /// The user message's store (`queued`: its write is in the outbox already, an overlapped
    /// turn's), and what the turn remembers and reports of it.
    async fn store_user_message(
        &self,
        input: &OpenTurnInput,
        write: PendingWrite,
        turn_number: u32,
        retrieved: Vec<RetrievedEntity>,
        queued: bool,
    ) -> Result<OpenTurnResult, Error> {
        let (turn_id, retrieved_entity_ids) = (write.turn_id.clone(), write.refers_to.clone());
        let delivery = self.store_message(write, queued).await?;
        self.turns.borrow_mut().update(&turn_id, |turn| {
            turn.turn_number = turn_number;
            turn.retrieved = RetrievedRef::of(&retrieved);
            turn.user_text = Some(text_hash(&input.user_message));
        });
        let stored = reported(delivery);
        Ok(OpenTurnResult {
            turn_id,
            turn_number,
            conversation_entity_id: stored.conversation_entity_id,
            user_message_entity_id: stored.message_entity_id,
            retrieved,
            retrieved_entity_ids,
            replayed: stored.replayed,
            pending: stored.pending,
            store_warnings: stored.warnings,
        })
    }

    /// The assistant message in one store, referring to what it cites.
    pub async fn close_turn(&self, input: CloseTurnInput) -> Result<CloseTurnResult, Error> {
        check_id("turnId", &input.turn_id)?;
        check_message(
            "assistantMessage",
            &input.assistant_message,
            self.config.max_message_bytes,
        )?;
        if let Some(extra) = &input.extra {
            check_extra("assistantMessageExtra", extra)?;
        }
        self.check_entities(&input.entities)?;
        let opened = self.turns.borrow().get(&input.turn_id).cloned();
        let turn_number = input.turn_number.or(opened.as_ref().map(|t| t.turn_number));
        let retrieved = opened.map(|t| t.retrieved).unwrap_or_default();
        let refers_to =
            self.assistant_refers_to(&input.assistant_message, &retrieved, &input.refers_to);
        if input.revision == Some(0) {
            return Err(Error::invalid_input("revision starts at 1"));
        }
        let message = Message {
            role: Role::Assistant,
            turn_id: &input.turn_id,
            content: &input.assistant_message,
            turn_number,
            extra: input.extra.as_ref(),
            refers_to: &refers_to,
            produced: &input.entities,
        };
        let delivery = self
            .store_message(self.pending_write(&message, input.revision), false)
            .await?;
        let stored = reported(delivery);
        let sent = SentReply {
            text: text_hash(&input.assistant_message),
            refers_to: refers_to
                .iter()
                .cloned()
                .chain(stored.produced.iter().map(|p| p.id.clone()))
                .collect(),
        };
        self.turns.borrow_mut().update(&input.turn_id, |turn| {
            turn.turn_number = turn_number.unwrap_or(turn.turn_number);
            turn.reply = Some(sent);
        });
        Ok(CloseTurnResult {
            turn_id: input.turn_id,
            turn_number,
            conversation_entity_id: stored.conversation_entity_id,
            assistant_message_entity_id: stored.message_entity_id,
            refers_to,
            produced: stored.produced,
            replayed: stored.replayed,
            pending: stored.pending,
            store_warnings: stored.warnings,
        })
    }

    /// A whole turn: open, the LLM, close. If the LLM fails (or does not finish within
    /// `llm_timeout_ms`), its error is returned as it is and the user message stays stored; no
    /// assistant message is written. A user message kept in the outbox does not stop the turn.
    ///
    /// A replay (the user message answered as a replay, or waiting in the outbox) whose reply is
    /// already stored returns that reply and does not call the LLM, unless `regenerate`.
    ///
    /// Overlapped (`overlap_user_store`): once retrieval is done, the user message's write goes
    /// into the outbox (nothing is lost if the host dies while the callback runs), then its store
    /// and the callback run at once; the assistant message waits for both. A store that fails for
    /// good rejects the turn once the callback is done, with the store's error, as a plain turn
    /// would have before calling it. A replay is known only when the store answers: the callback
    /// has run by then, and its reply is discarded for the stored one.
    pub async fn turn(
        &self,
        user_message: String,
        llm: &impl Llm,
        options: TurnOptions,
    ) -> Result<TurnResult, Error> {
        if options.regenerate && options.revision.is_some() {
            return Err(Error::invalid_input(
                "pass regenerate or revision, not both: regenerate numbers the revision itself",
            ));
        }
        if options.revision == Some(0) {
            return Err(Error::invalid_input("revision starts at 1"));
        }
        let TurnOptions {
            turn_id,
            turn_number,
            revision,
            regenerate,
            overlap_user_store,
        } = options;
        let input = OpenTurnInput {
            turn_id,
            turn_number,
            user_message,
            extra: None,
        };
        let (turn_number, retrieved, write) = self.user_write_after_retrieval(&input).await?;

        // Overlapped, the callback runs alongside the user message's store, on its own copy of
        // the context; else it waits for the store (and is not called on a replay).
        let in_flight = match overlap_user_store.unwrap_or(self.config.overlap_user_store) {
            true => self.may_overlap(&write).await,
            false => None,
        };
        let overlapped = in_flight.is_some();
        let early_ctx =
            overlapped.then(|| self.context(retrieved.clone(), write.turn_id.clone(), turn_number));
        let early_reply = async {
            match &early_ctx {
                Some(ctx) => Some(self.call_llm(llm, &input.user_message, ctx).await),
                None => None,
            }
        };
        let queued = overlapped && self.config.outbox_enabled;
        let stored = async {
            let _in_flight = in_flight; // until its store is done (or the turn dropped)
            self.store_user_message(&input, write, turn_number, retrieved, queued)
                .await
        };
        let (opened, early_reply) = join(stored, early_reply).await;
        // the store's error first: a plain turn would have met it before calling the LLM
        let mut opened = opened?;
        let early_reply = early_reply.transpose()?;
        let revision = match self.reply_for(&opened, regenerate, revision).await {
            TurnReply::Stored(stored) => {
                // an overlapped callback ran before the store said replay: its reply is dropped
                if early_reply.is_none() {
                    llm.stored_reply(&stored.text);
                }
                return Ok(self.replayed_turn(opened, stored).await);
            }
            TurnReply::New(revision) => revision,
        };
        let reply = match early_reply {
            Some(reply) => reply,
            None => {
                // lent to the callback's context, given back for the result
                let ctx = self.context(
                    std::mem::take(&mut opened.retrieved),
                    opened.turn_id.clone(),
                    opened.turn_number,
                );
                let reply = self.call_llm(llm, &input.user_message, &ctx).await?;
                opened.retrieved = ctx.retrieved;
                reply
            }
        };
        self.finish(opened, reply, revision).await
    }

    /// Whether a turn may overlap: its user message's write is now in the outbox (put there
    /// now), or there is no outbox. Not if a write under its key waits there already (an earlier
    /// attempt's: the plain order sends that one and finds the reply without calling the LLM),
    /// nor if the storage fails (the message would be kept nowhere while the callback runs).
    /// Overlapping, the write is marked in flight: its turn sends it, no flush meanwhile.
    async fn may_overlap(&self, write: &PendingWrite) -> Option<InFlight<'_, T, R, S>> {
        let key = write.idempotency_key.clone();
        // marked before it is queued: a flush running while the storage writes must not take it
        self.in_flight.borrow_mut().push(key.clone());
        let in_flight = InFlight { agent: self, key };
        let kept = !self.config.outbox_enabled
            || matches!(self.outbox.add_new(write.clone()).await, Ok(true));
        kept.then_some(in_flight)
    }

    /// What the LLM callback sees of a turn.
    fn context(
        &self,
        retrieved: Vec<RetrievedEntity>,
        turn_id: String,
        turn_number: u32,
    ) -> TurnContext {
        TurnContext {
            memory: memory_block(&retrieved, self.config.memory_chars),
            retrieved_entity_ids: entity_ids(&retrieved),
            retrieved,
            turn_id,
            turn_number,
            conversation_id: self.conversation_id().to_owned(),
        }
    }

    /// The LLM callback, bounded by `llm_timeout_ms`. Its own error comes back as it is.
    async fn call_llm(
        &self,
        llm: &impl Llm,
        user_message: &str,
        ctx: &TurnContext,
    ) -> Result<Reply, Error> {
        let timeout = self.config.llm_timeout_ms;
        let call = Box::pin(llm.reply(user_message, ctx));
        let deadline = Box::pin(self.runtime.sleep(timeout));
        match select(call, deadline).await {
            Either::Left((reply, _)) => reply,
            Either::Right(_) => Err(Error::new(
                ErrorCode::LlmTimeout,
                format!("the llm callback did not finish within llmTimeoutMs ({timeout} ms)"),
            )),
        }
    }

    /// What a turn answers with, its user message stored (or queued): on a replay (answered as
    /// one, or waiting in the outbox) the reply already stored, unless `regenerate` asks for a
    /// new one, which then gets the next revision; else a new reply under `revision`.
    async fn reply_for(
        &self,
        opened: &OpenTurnResult,
        regenerate: bool,
        revision: Option<u32>,
    ) -> TurnReply {
        if opened.replayed || opened.pending {
            match self.stored_reply(&opened.turn_id, opened.replayed).await {
                Some(stored) if !regenerate => return TurnReply::Stored(stored),
                Some(stored) => return TurnReply::New(Some(stored.revision.saturating_add(1))),
                None => {}
            }
        }
        TurnReply::New(revision)
    }

    /// The turn's reply if it is already stored: the newest write of it waiting in the outbox,
    /// else (when the server answered the user message, `look_up`) the stored message, found by
    /// its turn key in one request with its observations (one per stored revision). A failed
    /// lookup finds nothing: the turn then asks the LLM, as for a reply never stored.
    async fn stored_reply(&self, turn_id: &str, look_up: bool) -> Option<StoredReply> {
        let key = turn_key(self.conversation_id(), turn_id, Role::Assistant);
        let queued = match self.outbox.writes().await {
            Ok(writes) => writes.into_iter().rev().find(|w| w.turn_key == key),
            Err(_) => None,
        };
        if let Some(write) = queued {
            if let Some(text) = write.content() {
                return Some(StoredReply {
                    text: text.to_owned(),
                    revision: write.revision(),
                    at: ReplyAt::Queued(write),
                });
            }
        }
        if !look_up {
            return None;
        }
        let body = stored_message_request(&key);
        let answer = self
            .send(Request::Retrieve, &body, &self.config.retry)
            .await
            .ok()?;
        let found = parse_stored_message(&answer, &key)?;
        Some(StoredReply {
            text: found.content,
            at: ReplyAt::Stored(found.entity_id),
            revision: u32::try_from(found.observations.max(1)).unwrap_or(u32::MAX),
        })
    }

    /// A replayed turn answered with its stored reply. Its REFERS_TO edges are made sure of, as
    /// after any replayed store (the entities it cites may have been found only now): a stored
    /// reply's with `/create_relationships`, and if that fails the reply's write goes to the
    /// outbox, whose replay re-creates them; a queued reply's write gains the targets. Nothing
    /// else is written.
    async fn replayed_turn(&self, opened: OpenTurnResult, stored: StoredReply) -> TurnResult {
        let queued_targets = match &stored.at {
            ReplyAt::Queued(write) => write.refers_to.as_slice(),
            ReplyAt::Stored(_) => &[],
        };
        let retrieved = RetrievedRef::of(&opened.retrieved);
        let refers_to = self.assistant_refers_to(&stored.text, &retrieved, queued_targets);
        let mut store_warnings = Vec::new();
        let (entity_id, pending) = match stored.at {
            ReplyAt::Queued(mut write) => {
                if write.refers_to != refers_to {
                    write.refers_to = refers_to.clone();
                    let _ = self.outbox.push(write).await; // merges the new targets
                }
                (None, true)
            }
            ReplyAt::Stored(id) if refers_to.is_empty() => (Some(id), false),
            ReplyAt::Stored(id) => {
                let repair = refers_to_request(&id, &refers_to);
                let repaired = self
                    .send(Request::CreateRelationships, &repair, &self.config.retry)
                    .await;
                let mut pending = false;
                if let Err(e) = repaired {
                    let then = if self.config.outbox_enabled {
                        "the missing edges go to the outbox to try again"
                    } else {
                        "the stored reply is returned as it is"
                    };
                    store_warnings.push(repair_failed(&e, &id, then));
                    if self.config.outbox_enabled {
                        // the edges alone: the reply is stored, and its body (extras, produced
                        // entities) cannot be rebuilt from its text to be sent again
                        let write = self.edges_write(&opened.turn_id, &id, &refers_to, repair);
                        pending = self.defer(write, &e).await.is_ok();
                    }
                }
                (Some(id), pending)
            }
        };
        let closed = CloseTurnResult {
            turn_id: opened.turn_id.clone(),
            turn_number: Some(opened.turn_number),
            conversation_entity_id: opened.conversation_entity_id.clone(),
            assistant_message_entity_id: entity_id,
            refers_to,
            produced: Vec::new(),
            replayed: true,
            pending,
            store_warnings,
        };
        joined(opened, closed, stored.text)
    }

    /// The assistant side of an opened turn, and the whole turn's result.
    async fn finish(
        &self,
        opened: OpenTurnResult,
        reply: Reply,
        revision: Option<u32>,
    ) -> Result<TurnResult, Error> {
        let closed = self
            .close_turn(CloseTurnInput {
                turn_id: opened.turn_id.clone(),
                turn_number: Some(opened.turn_number),
                assistant_message: reply.text.clone(),
                refers_to: reply.refers_to,
                entities: reply.entities,
                extra: None,
                revision,
            })
            .await?;
        Ok(joined(opened, closed, reply.text))
    }

    /// Both messages of a turn that already happened (no LLM call).
    pub async fn record_turn(
        &self,
        turn_id: Option<String>,
        turn_number: Option<u32>,
        user_message: String,
        reply: Reply,
    ) -> Result<TurnResult, Error> {
        // check the assistant side too before the user message is written
        check_message(
            "assistantMessage",
            &reply.text,
            self.config.max_message_bytes,
        )?;
        self.check_entities(&reply.entities)?;
        let opened = self
            .open_turn(&OpenTurnInput {
                turn_id,
                turn_number,
                user_message,
                extra: None,
            })
            .await?;
        self.finish(opened, reply, None).await
    }

    /// A reply's produced entities against the agent's limits.
    fn check_entities(&self, entities: &[EntityFields]) -> Result<(), Error> {
        check_produced(
            entities,
            self.config.max_produced_entities,
            self.config.max_message_bytes,
        )
    }

    /// The assistant's REFERS_TO targets: cited (or all) retrieved entities, then the explicit ones.
    fn assistant_refers_to(
        &self,
        reply: &str,
        retrieved: &[RetrievedRef],
        explicit: &[String],
    ) -> Vec<String> {
        let mut out: Vec<String> = match self.config.assistant_refers_to {
            AssistantRefersTo::Retrieved => retrieved.iter().map(|e| e.id.clone()).collect(),
            AssistantRefersTo::Cited => cited(reply, retrieved),
        };
        for id in explicit {
            if !id.trim().is_empty() && !out.contains(id) {
                out.push(id.clone());
            }
        }
        out
    }

    /// The store request for one message, as the outbox would keep it.
    fn pending_write(&self, message: &Message<'_>, revision: Option<u32>) -> PendingWrite {
        // a deliberate regeneration: its own key, so the store replaces the text (10a)
        let key = revision_key(
            &idempotency_key(self.conversation_id(), message.turn_id, message.role),
            revision.unwrap_or(1),
        );
        let body = store_request(&self.config.conversation, message, &key);
        PendingWrite {
            idempotency_key: key,
            turn_id: message.turn_id.to_owned(),
            role: message.role.as_str().to_owned(),
            turn_key: turn_key(self.conversation_id(), message.turn_id, message.role),
            refers_to: message.refers_to.to_vec(),
            body,
            queued_at_ms: self.runtime.now_ms() as u64,
        }
    }

    /// A stored message's missing REFERS_TO edges, as the outbox keeps them: a
    /// `/create_relationships` (idempotent per pair), one per message (keyed by its entity id).
    fn edges_write(
        &self,
        turn_id: &str,
        entity_id: &str,
        targets: &[String],
        body: Value,
    ) -> PendingWrite {
        PendingWrite {
            idempotency_key: format!("{EDGES_KEY_PREFIX}{entity_id}"),
            turn_id: turn_id.to_owned(),
            role: EDGES_ROLE.to_owned(),
            turn_key: String::new(),
            refers_to: targets.to_vec(),
            body,
            queued_at_ms: self.runtime.now_ms() as u64,
        }
    }

    /// One message's write in one `/store`, retried; kept in the outbox if it still fails for a
    /// reason the server may get over. Writes already waiting go first, so the store sees them
    /// in order. `queued`: the write is in the outbox already (an overlapped turn's user
    /// message), and leaves it once stored.
    async fn store_message(&self, write: PendingWrite, queued: bool) -> Result<Delivery, Error> {
        let turn_key = write.turn_key.clone();
        match self
            .send_write(write, Request::Store(&turn_key), queued)
            .await?
        {
            Sent::Answered(write, answer) => {
                let (outcome, edges_done) = self.settle(&write, &answer).await?;
                if self.config.outbox_enabled {
                    // Stored: a queued write leaves the outbox, unless its REFERS_TO edges are
                    // not there yet: then it goes back to (or stays in) the outbox, whose replay
                    // will re-create them.
                    let kept = if !edges_done {
                        self.outbox.push(write).await.is_ok()
                    } else {
                        queued && self.outbox.remove(&write.idempotency_key).await.is_err()
                    };
                    if kept {
                        self.drain.wanted.set(true);
                    }
                }
                Ok(Delivery::Stored(outcome))
            }
            Sent::Kept => Ok(Delivery::Pending),
        }
    }

    /// Sends `write` (its answer checked as `request` says) after the writes already waiting;
    /// keeps it in the outbox instead when they still wait, or when it fails for a reason the
    /// server may get over. `queued`: `write` is in the outbox already, after the writes that
    /// go first; refused on its merits it leaves it (an unreadable answer may follow a write
    /// that happened: then it stays, as in a flush).
    async fn send_write(
        &self,
        write: PendingWrite,
        request: Request<'_>,
        queued: bool,
    ) -> Result<Sent, Error> {
        if self.config.outbox_enabled {
            // One quick pass over older writes; if they still cannot go, this one waits too.
            // A storage that cannot be read must not stop a write the network can take.
            let another_flush_running = self.flushing.get();
            let before = queued.then_some(write.idempotency_key.as_str());
            let waiting = match self.flush_pass(&RetryPolicy::none(), before).await {
                Ok(flushed) => flushed.pending,
                Err(_) => 0,
            };
            if waiting > 0 {
                let reason = Error::new(
                    ErrorCode::NeotomaNetwork,
                    "earlier writes of this conversation are still waiting in the outbox",
                );
                self.defer(write, &reason).await?;
                // If another turn's flush was sending and has just finished, it did not see
                // this write: one more pass, so it does not wait for the next turn.
                if another_flush_running && !self.flushing.get() {
                    let _ = self.flush_pass(&RetryPolicy::none(), None).await;
                }
                return Ok(Sent::Kept);
            }
        }
        match self.send(request, &write.body, &self.config.retry).await {
            Ok(answer) => Ok(Sent::Answered(write, answer)),
            Err(e) if self.config.outbox_enabled && is_deferrable(&e) => {
                self.drain.retry_after_ms.set(e.retry_after_ms);
                self.defer(write, &e).await?;
                Ok(Sent::Kept)
            }
            Err(e) if queued && e.code == ErrorCode::InvalidResponse => {
                self.drain.wanted.set(true);
                Err(e)
            }
            Err(e) => {
                if queued {
                    let _ = self.outbox.remove(&write.idempotency_key).await;
                }
                Err(e)
            }
        }
    }

    /// Reads a store answer for `write` and makes sure its REFERS_TO edges exist: a replayed
    /// store does not create edges its first request lacked, and a write kept in the outbox may
    /// have gained targets since its body was built. Returns whether the edges are all there.
    async fn settle(
        &self,
        write: &PendingWrite,
        answer: &Value,
    ) -> Result<(StoreOutcome, bool), Error> {
        let mut outcome = parse_store_response(answer, self.conversation_id(), &write.turn_key)?;
        outcome.produced = parse_produced(answer, produced_in(&write.body));
        let sent_targets = refers_to_targets(&write.body);
        let missing = write
            .refers_to
            .iter()
            .any(|t| !sent_targets.contains(&t.as_str()));
        if write.refers_to.is_empty() || !(outcome.replayed || missing) {
            return Ok((outcome, true));
        }
        let repair = refers_to_request(&outcome.message_entity_id, &write.refers_to);
        let repaired = self
            .send(Request::CreateRelationships, &repair, &self.config.retry)
            .await;
        if let Err(e) = &repaired {
            outcome.warnings.push(repair_failed(
                e,
                &outcome.message_entity_id,
                "the write stays in the outbox to try again",
            ));
        }
        Ok((outcome, repaired.is_ok()))
    }

    /// Keeps `write` in the outbox. If the storage itself fails, the send error is returned
    /// (with the storage's reason): the caller must know the message is not kept anywhere.
    async fn defer(&self, write: PendingWrite, reason: &Error) -> Result<Delivery, Error> {
        let (turn_id, role, key) = (
            write.turn_id.clone(),
            write.role.clone(),
            write.idempotency_key.clone(),
        );
        let pending = match self.outbox.push(write).await {
            Ok(pending) => pending,
            Err(storage) => {
                let mut e = reason.clone();
                e.message = format!(
                    "{}; keeping it in the outbox failed too: {}",
                    reason.message, storage.message
                );
                return Err(e);
            }
        };
        self.drain.wanted.set(true);
        let (code, message) = error_fields(reason);
        self.emit(AgentEvent::WritePending {
            turn_id,
            role,
            idempotency_key: key,
            code,
            message,
            pending,
        });
        Ok(Delivery::Pending)
    }

    /// Sends the outbox, oldest first, with the configured retries: stops at the first write
    /// the server still cannot take (keeping it and everything after it), drops writes refused
    /// on their merits (reported in `failed`).
    /// If a flush is already sending (the outbox's own timer, say), this one waits for it to
    /// finish and then makes its own pass, so what it reports is after a real try.
    pub async fn flush(&self) -> Result<FlushResult, Error> {
        self.flush_idle().await;
        self.flush_pass(&self.config.retry, None).await
    }

    /// Resolves once no flush is sending (nothing may await between this and the next pass).
    async fn flush_idle(&self) {
        poll_fn(|cx| {
            if self.flushing.get() {
                self.flush_waiters.borrow_mut().push(cx.waker().clone());
                Poll::Pending
            } else {
                Poll::Ready(())
            }
        })
        .await
    }

    /// Writes waiting in the outbox.
    pub async fn pending_writes(&self) -> Result<Vec<PendingWrite>, Error> {
        self.outbox.writes().await
    }

    /// Flushes until the outbox is empty or `timeout_ms` has passed, waiting between passes as
    /// the outbox's own timer does (the server's `Retry-After`, else a growing backoff). The
    /// result counts every pass; `pending` is what is left.
    pub async fn flush_until_empty(&self, timeout_ms: u32) -> Result<FlushResult, Error> {
        let started = self.runtime.now_ms();
        let mut total = FlushResult::default();
        let mut blocked_passes = 0;
        loop {
            self.flush_idle().await;
            let pass = self.flush_pass(&RetryPolicy::none(), None).await?;
            blocked_passes = blocked_after(blocked_passes, pass.flushed);
            total.flushed += pass.flushed;
            total.failed.extend(pass.failed);
            total.superseded.extend(pass.superseded);
            total.pending = pass.pending;
            let elapsed = self.runtime.now_ms() - started;
            if pass.pending == 0 || elapsed >= f64::from(timeout_ms) {
                return Ok(total);
            }
            let left = (f64::from(timeout_ms) - elapsed) as u32;
            self.runtime
                .sleep(self.drain_delay(blocked_passes).min(left.max(1)))
                .await;
        }
    }

    /// Starts the outbox's own timer if writes may be waiting and it is not running yet:
    /// returns the wait before its first pass. The host then sleeps, calls [`Agent::drain_pass`]
    /// and repeats while it returns a wait. (The host runs the timer: only it can hold the agent
    /// weakly and keep the timer from holding a process open.)
    pub fn start_drain(&self) -> Option<u32> {
        if !self.config.outbox_enabled || !self.drain.wanted.get() || self.drain.running.get() {
            return None;
        }
        self.drain.running.set(true);
        self.drain.blocked_passes.set(0);
        Some(self.drain_delay(0))
    }

    /// One pass of the outbox's own timer: sends what waits (no retries: the timer is the
    /// retry). Returns the wait before the next pass, or `None` once the outbox is empty (the
    /// timer stops; a later failed write starts it again). Reported as a `drain` event.
    pub async fn drain_pass(&self) -> Option<u32> {
        self.flush_idle().await;
        let pass = self.flush_pass(&RetryPolicy::none(), None).await;
        let (flushed, failed, superseded, pending) = match &pass {
            Ok(r) => (r.flushed, r.failed.len(), r.superseded.len(), r.pending),
            // an unreadable storage: try again later, as for a server that cannot take it
            Err(_) => (0, 0, 0, 1),
        };
        let blocked = blocked_after(self.drain.blocked_passes.get(), flushed);
        self.drain.blocked_passes.set(blocked);
        let next_attempt_ms = (pending > 0).then(|| self.drain_delay(blocked));
        if next_attempt_ms.is_none() {
            self.drain.running.set(false);
            self.drain.wanted.set(false);
        }
        self.emit(AgentEvent::Drain {
            flushed,
            failed,
            superseded,
            pending,
            next_attempt_ms,
        });
        next_attempt_ms
    }

    /// The wait before the next outbox pass after `blocked_passes` passes that sent nothing:
    /// the server's last `Retry-After` if it gave one, else 1 s doubling up to 60 s; plus a
    /// little jitter, never less.
    fn drain_delay(&self, blocked_passes: u32) -> u32 {
        let wait = self.drain.retry_after_ms.get().unwrap_or_else(|| {
            DRAIN_FIRST_DELAY_MS
                .saturating_mul(1 << blocked_passes.saturating_sub(1).min(6))
                .min(DRAIN_MAX_DELAY_MS)
        });
        let jitter = (self.runtime.random_unit().clamp(0.0, 1.0) * DRAIN_JITTER_MS) as u32;
        wait.saturating_add(jitter)
    }

    /// One pass over the outbox. `before`: only the writes queued ahead of the one with that
    /// key (a write about to be sent on its own; none if it is gone); `pending` then counts what
    /// still blocks it. Writes in flight (their own turn is sending them) are skipped, not
    /// waited for: they are as good as sent, as a plain turn's write that never entered the
    /// outbox, and one that fails comes back as waiting.
    async fn flush_pass(
        &self,
        retry: &RetryPolicy,
        before: Option<&str>,
    ) -> Result<FlushResult, Error> {
        let mut result = FlushResult::default();
        // If another flush is sending, whatever it has not sent yet counts as waiting.
        let only_count = self.flushing.replace(true);
        let _sending = (!only_count).then(|| Sending(self));
        let outcome = self
            .flush_loop(retry, &mut result, only_count, before)
            .await;
        outcome.map(|()| result)
    }

    async fn flush_loop(
        &self,
        retry: &RetryPolicy,
        result: &mut FlushResult,
        only_count: bool,
        before: Option<&str>,
    ) -> Result<(), Error> {
        loop {
            // read afresh each time: a turn running meanwhile may have queued more
            let mut writes = self.outbox.writes().await?;
            if let Some(key) = before {
                let ahead = writes.iter().position(|w| w.idempotency_key == key);
                writes.truncate(ahead.unwrap_or(0));
            }
            writes.retain(|w| !self.in_flight.borrow().contains(&w.idempotency_key));
            let queued = writes.len();
            if only_count {
                result.pending = queued;
                return Ok(());
            }
            let Some(write) = writes.into_iter().next() else {
                result.pending = 0;
                return Ok(());
            };
            let request = match write.role.as_str() {
                REMEMBER_ROLE => Request::StoreEntities,
                EDGES_ROLE => Request::CreateRelationships,
                _ => Request::Store(&write.turn_key),
            };
            // a stored message's edges: built from the targets now queued, which a second
            // replay may have added to (the outbox merges targets, not bodies)
            let edges;
            let body = match write.idempotency_key.strip_prefix(EDGES_KEY_PREFIX) {
                Some(source) if write.role == EDGES_ROLE => {
                    edges = refers_to_request(source, &write.refers_to);
                    &edges
                }
                _ => &write.body,
            };
            let sent = self.send(request, body, retry).await;
            // Ok(replayed) when stored, Err when refused on its merits: either way it leaves
            // the outbox (one `remove` await for both).
            let stored = match sent {
                // entities alone, or edges alone: no message to find, no edges to make sure of
                Ok(answer) if write.role == REMEMBER_ROLE || write.role == EDGES_ROLE => {
                    Ok(answer["replayed"].as_bool() == Some(true))
                }
                Ok(answer) => {
                    let (outcome, edges_done) = self.settle(&write, &answer).await?;
                    if !edges_done {
                        // stored, but its edges could not be re-created: keep it and stop here
                        self.drain.retry_after_ms.set(None);
                        result.pending = queued;
                        return Ok(());
                    }
                    Ok(outcome.replayed)
                }
                // An unreadable 2xx may follow a write that happened (or not): a queued write is
                // never dropped for it; a later pass sends it again and the answer tells.
                Err(e) if is_deferrable(&e) || e.code == ErrorCode::InvalidResponse => {
                    self.drain.retry_after_ms.set(e.retry_after_ms);
                    result.pending = queued;
                    return Ok(());
                }
                Err(e) => Err(e),
            };
            let pending = self.outbox.remove(&write.idempotency_key).await?;
            match stored {
                Ok(replayed) => {
                    result.flushed += 1;
                    self.emit(AgentEvent::WriteFlushed {
                        turn_id: write.turn_id,
                        role: write.role,
                        idempotency_key: write.idempotency_key,
                        replayed,
                        pending,
                    });
                }
                Err(e) => {
                    let (code, message) = error_fields(&e);
                    let dropped = FailedWrite {
                        idempotency_key: write.idempotency_key,
                        turn_id: write.turn_id,
                        role: write.role,
                        code,
                        message,
                    };
                    if e.code == ErrorCode::IdempotencyMismatch {
                        self.emit(AgentEvent::WriteSuperseded {
                            turn_id: dropped.turn_id.clone(),
                            role: dropped.role.clone(),
                            idempotency_key: dropped.idempotency_key.clone(),
                            code,
                            message: dropped.message.clone(),
                        });
                        result.superseded.push(dropped);
                    } else {
                        self.emit(AgentEvent::WriteFailed {
                            turn_id: dropped.turn_id.clone(),
                            role: dropped.role.clone(),
                            idempotency_key: dropped.idempotency_key.clone(),
                            code,
                            message: dropped.message.clone(),
                            status: e.status,
                        });
                        result.failed.push(dropped);
                    }
                }
            }
        }
    }

    /// One request: sent until it succeeds, fails in a way a retry cannot cure, or `policy`
    /// runs out. Every attempt sends the same body: the caller built it once.
    async fn send(
        &self,
        request: Request<'_>,
        body: &Value,
        policy: &RetryPolicy,
    ) -> Result<Value, Error> {
        let started = self.runtime.now_ms();
        let mut failed = 0;
        loop {
            let sent = self.transport.call(request.call(), body).await;
            let attempt = sent.and_then(|answer| {
                // A 2xx we cannot read (cut short, HTML) may follow a write that happened: it is
                // retried like a lost answer, and the replay's answer tells.
                match request {
                    Request::Store(turn_key) => {
                        parse_store_response(&answer, self.conversation_id(), turn_key)?;
                    }
                    Request::StoreEntities if !answer["entities"].is_array() => {
                        return Err(Error::new(
                            ErrorCode::InvalidResponse,
                            "/store answer has no entities array",
                        ));
                    }
                    _ => {}
                }
                Ok(answer)
            });
            let error = match attempt {
                Ok(answer) => return Ok(answer),
                Err(e) => e,
            };
            failed += 1;
            let elapsed = self.runtime.now_ms() - started;
            let Some(delay_ms) =
                policy.delay_before_next(failed, &error, self.runtime.random_unit(), elapsed)
            else {
                return Err(error);
            };
            self.emit(AgentEvent::Retry {
                path: request.call().path(),
                attempt: failed,
                delay_ms,
                code: error.code.as_str(),
                status: error.status,
            });
            self.runtime.sleep(delay_ms).await;
        }
    }

    fn emit(&self, event: AgentEvent) {
        if let Some(listener) = &self.config.on_event {
            listener(&event);
        }
    }
}

/// Runs `futures` concurrently on this thread; their outputs in order. (futures-util's
/// `join_all` would do, but links its `FuturesOrdered` for long lists: several KB of wasm for
/// at most a few lookups.)
pub(crate) async fn join_all<F: Future>(futures: impl IntoIterator<Item = F>) -> Vec<F::Output> {
    let mut running: Vec<Option<Pin<Box<F>>>> =
        futures.into_iter().map(|f| Some(Box::pin(f))).collect();
    let mut outputs: Vec<Option<F::Output>> = running.iter().map(|_| None).collect();
    poll_fn(|cx| {
        let mut done = true;
        for (slot, out) in running.iter_mut().zip(outputs.iter_mut()) {
            if let Some(future) = slot {
                match future.as_mut().poll(cx) {
                    Poll::Ready(output) => {
                        *out = Some(output);
                        *slot = None;
                    }
                    Poll::Pending => done = false,
                }
            }
        }
        if done {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    })
    .await;
    outputs.into_iter().flatten().collect()
}

/// Up to `limit` distinct entities: the first hit of every lookup, then the second hits, …
fn interleave(
    mut hits: Vec<std::vec::IntoIter<RetrievedEntity>>,
    limit: usize,
) -> Vec<RetrievedEntity> {
    let mut found: Vec<RetrievedEntity> = Vec::new();
    while found.len() < limit {
        let mut round_empty = true;
        for list in hits.iter_mut() {
            let Some(entity) = list.next() else {
                continue;
            };
            round_empty = false;
            if found.len() < limit && !found.iter().any(|f| f.id == entity.id) {
                found.push(entity);
            }
        }
        if round_empty {
            break;
        }
    }
    found
}

/// The entities' ids, in order.
fn entity_ids(entities: &[RetrievedEntity]) -> Vec<String> {
    entities.iter().map(|e| e.id.clone()).collect()
}

/// The `REFERS_TO` targets a `/store` body carries inline.
fn refers_to_targets(body: &Value) -> Vec<&str> {
    let mut targets = Vec::new();
    let Some(rels) = body.get("relationships").and_then(Value::as_array) else {
        return targets;
    };
    for r in rels {
        if r.get("relationship_type").and_then(Value::as_str) == Some("REFERS_TO") {
            if let Some(target) = r.get("target_entity_id").and_then(Value::as_str) {
                targets.push(target);
            }
        }
    }
    targets
}

/// Outbox passes in a row that sent nothing, after one that sent `flushed` writes.
fn blocked_after(blocked_passes: u32, flushed: usize) -> u32 {
    if flushed == 0 {
        blocked_passes.saturating_add(1)
    } else {
        0
    }
}

/// The store warning for REFERS_TO edges that could not be re-created.
fn repair_failed(e: &Error, entity_id: &str, then: &str) -> Value {
    json!({
        "code": "REFERS_TO_REPAIR_FAILED",
        "message": format!("re-creating REFERS_TO edges failed ({}); {then}", e.message),
        "entity_id": entity_id,
    })
}

/// A message store as the result reports it.
struct Reported {
    conversation_entity_id: Option<String>,
    message_entity_id: Option<String>,
    replayed: bool,
    pending: bool,
    warnings: Vec<Value>,
    produced: Vec<Produced>,
}

fn reported(delivery: Delivery) -> Reported {
    match delivery {
        Delivery::Stored(outcome) => Reported {
            conversation_entity_id: Some(outcome.conversation_entity_id),
            message_entity_id: Some(outcome.message_entity_id),
            replayed: outcome.replayed,
            pending: false,
            warnings: outcome.warnings,
            produced: outcome.produced,
        },
        Delivery::Pending => Reported {
            conversation_entity_id: None,
            message_entity_id: None,
            replayed: false,
            pending: true,
            warnings: Vec::new(),
            produced: Vec::new(),
        },
    }
}

fn joined(
    opened: OpenTurnResult,
    closed: CloseTurnResult,
    assistant_message: String,
) -> TurnResult {
    let mut store_warnings = opened.store_warnings;
    store_warnings.extend(closed.store_warnings);
    TurnResult {
        assistant_message,
        turn_id: opened.turn_id,
        turn_number: opened.turn_number,
        conversation_entity_id: opened.conversation_entity_id,
        user_message_entity_id: opened.user_message_entity_id,
        assistant_message_entity_id: closed.assistant_message_entity_id,
        retrieved: opened.retrieved,
        retrieved_entity_ids: opened.retrieved_entity_ids,
        refers_to: closed.refers_to,
        produced: closed.produced,
        replayed: PerMessage {
            user: opened.replayed,
            assistant: closed.replayed,
        },
        pending: PerMessage {
            user: opened.pending,
            assistant: closed.pending,
        },
        store_warnings,
    }
}

/// Retrieved entities whose name or id appears in the reply, case-insensitively.
pub fn cited_entities(reply: &str, retrieved: &[RetrievedEntity]) -> Vec<String> {
    cited(reply, &RetrievedRef::of(retrieved))
}

/// [`cited_entities`] over what an agent remembers of them.
fn cited(reply: &str, retrieved: &[RetrievedRef]) -> Vec<String> {
    let haystack = reply.to_lowercase();
    let mut out: Vec<String> = Vec::new();
    for entity in retrieved {
        let cited = entity
            .names
            .iter()
            .chain([&entity.id])
            .map(|name| name.trim())
            .any(|name| name.chars().count() >= 2 && haystack.contains(&name.to_lowercase()));
        if cited && !out.contains(&entity.id) {
            out.push(entity.id.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_log_forgets_the_oldest_turns_beyond_its_bound_and_stops_growing() {
        let mut log = TurnLog::default();
        let turns = 3 * REMEMBERED_TURNS;
        for n in 1..=turns {
            assert_eq!(log.reserve(&format!("t{n}"), None) as usize, n);
        }
        assert_eq!(log.opened.len(), REMEMBERED_TURNS);
        // the log never grows past the bound
        assert!(log.opened.capacity() < 2 * REMEMBERED_TURNS);
        let oldest_kept = turns - REMEMBERED_TURNS + 1;
        assert!(log.get(&format!("t{}", oldest_kept - 1)).is_none());
        // a remembered turn keeps its number; a forgotten one gets the next
        assert_eq!(
            log.number_for(&format!("t{oldest_kept}"), None) as usize,
            oldest_kept
        );
        assert_eq!(log.number_for("t1", None) as usize, turns + 1);
    }

    #[test]
    fn a_remembered_turn_keeps_the_names_its_reply_may_cite_not_the_snapshots() {
        let entity = RetrievedEntity {
            id: "ent_1".into(),
            entity_type: "project".into(),
            canonical_name: Some("project:Project Falcon".into()),
            snapshot: serde_json::from_value(
                json!({ "name": "Project Falcon", "status": "on hold" }),
            )
            .unwrap(),
            identifier: "Falcon".into(),
        };
        let remembered = RetrievedRef::of(std::slice::from_ref(&entity));
        assert_eq!(remembered[0].id, "ent_1");
        // its name and its bare canonical name are one name
        assert_eq!(remembered[0].names, ["Project Falcon"]);
        let expected: [(&str, &[&str]); 3] = [
            ("project falcon slipped", &["ent_1"]),
            ("see ent_1", &["ent_1"]),
            ("nothing relevant", &[]),
        ];
        for (reply, ids) in expected {
            assert_eq!(cited(reply, &remembered), ids, "{reply}");
            assert_eq!(
                cited_entities(reply, std::slice::from_ref(&entity)),
                ids,
                "{reply}"
            );
        }
        assert_eq!(cited("PROJECT FALCON", &remembered), ["ent_1"]);
    }
}
