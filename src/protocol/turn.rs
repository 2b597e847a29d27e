//! The turn protocol, in one place.
//!
//! ```text
//! open_turn:  check input → extract identifiers → look them up in parallel (bounded count,
//!             bounded time, failures skipped) → ONE /store: [conversation, user message]
//!             + PART_OF + REFERS_TO every retrieved entity
//! turn:       open_turn → the LLM callback (its error comes back unchanged; the user message
//!             stays stored) → close_turn
//! close_turn: ONE /store: [conversation, assistant message] + PART_OF + REFERS_TO what the
//!             reply cites (or everything retrieved, in "retrieved" mode)
//! ```
//! A store answered as a replay (`replayed: true`) silently skips relationships the first
//! request lacked, so after a replay the REFERS_TO edges are re-created with
//! `/create_relationships`, which is idempotent per pair.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::future::Future;

use futures_util::future::{join_all, select, Either};
use serde::Serialize;
use serde_json::{json, Map, Value};

use super::error::Error;
use super::identifiers::extract_identifiers;
use super::keys::{turn_key, Role};
use super::payload::{
    check_extra, refers_to_request, retrieve_request, store_message_request, Conversation, Message,
};
use super::response::{parse_retrieve_response, parse_store_response, RetrievedEntity};
use super::validate::{check_id, check_message, DEFAULT_MAX_MESSAGE_BYTES};
use crate::transport::Transport;

/// Default number of entities kept per turn (and of lookups made).
pub const DEFAULT_RETRIEVAL_LIMIT: usize = 8;
/// Default bound on the whole retrieval phase.
pub const DEFAULT_RETRIEVAL_TIMEOUT_MS: u32 = 2_500;
/// Hits asked for per identifier: the server's substring match over-matches, so a few.
const HITS_PER_LOOKUP: u32 = 5;
/// Turns remembered per agent (turn number and retrieved set, for close_turn and replays).
const REMEMBERED_TURNS: usize = 1024;

/// What the platform provides: timers and randomness.
pub trait Runtime {
    /// Resolves after `ms` milliseconds.
    fn sleep(&self, ms: u32) -> impl Future<Output = ()>;
    /// A random RFC 4122 v4 UUID.
    fn random_uuid(&self) -> String;
}

/// The agent's reply, from the LLM callback.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reply {
    pub text: String,
    /// Entity ids the reply refers to beyond those it cites by name.
    pub refers_to: Vec<String>,
}

/// What the LLM callback sees.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnContext {
    pub retrieved: Vec<RetrievedEntity>,
    pub retrieved_entity_ids: Vec<String>,
    pub turn_id: String,
    pub turn_number: u32,
    pub conversation_id: String,
}

/// The user's LLM. Errors it returns are passed back to the caller as they are.
#[allow(async_fn_in_trait)]
pub trait Llm {
    async fn reply(&self, user_message: &str, ctx: &TurnContext) -> Result<Reply, Error>;
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
    pub extractor: Option<Extractor>,
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
            extractor: None,
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
    pub conversation_entity_id: String,
    pub user_message_entity_id: String,
    pub retrieved: Vec<RetrievedEntity>,
    pub retrieved_entity_ids: Vec<String>,
    pub replayed: bool,
    pub store_warnings: Vec<Value>,
}

#[derive(Debug, Clone, Default)]
pub struct CloseTurnInput {
    pub turn_id: String,
    pub turn_number: Option<u32>,
    pub assistant_message: String,
    pub refers_to: Vec<String>,
    pub extra: Option<Map<String, Value>>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CloseTurnResult {
    pub turn_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_number: Option<u32>,
    pub conversation_entity_id: String,
    pub assistant_message_entity_id: String,
    pub refers_to: Vec<String>,
    pub replayed: bool,
    pub store_warnings: Vec<Value>,
}

#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
pub struct Replayed {
    pub user: bool,
    pub assistant: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnResult {
    pub assistant_message: String,
    pub turn_id: String,
    pub turn_number: u32,
    pub conversation_entity_id: String,
    pub user_message_entity_id: String,
    pub assistant_message_entity_id: String,
    pub retrieved: Vec<RetrievedEntity>,
    pub retrieved_entity_ids: Vec<String>,
    /// The assistant message's REFERS_TO targets.
    pub refers_to: Vec<String>,
    pub replayed: Replayed,
    pub store_warnings: Vec<Value>,
}

/// What an agent remembers of a turn it opened.
#[derive(Debug, Clone)]
struct OpenedTurn {
    turn_number: u32,
    retrieved: Vec<RetrievedEntity>,
}

#[derive(Default)]
struct TurnLog {
    last_number: u32,
    opened: HashMap<String, OpenedTurn>,
    order: VecDeque<String>,
}

impl TurnLog {
    /// The turn number for `turn_id`: the caller's, the one it had before (a replay), or the next.
    fn number_for(&self, turn_id: &str, requested: Option<u32>) -> u32 {
        requested
            .or_else(|| self.opened.get(turn_id).map(|t| t.turn_number))
            .unwrap_or(self.last_number.saturating_add(1))
    }

    /// Fixes the turn's number when the turn starts, under its id: a retry of a failed turn
    /// (same id) gets the same number, so it sends the same body and replays cleanly.
    fn reserve(&mut self, turn_id: &str, requested: Option<u32>) -> u32 {
        let number = self.number_for(turn_id, requested);
        let retrieved = match self.opened.get(turn_id) {
            Some(t) if t.turn_number == number => t.retrieved.clone(),
            _ => Vec::new(),
        };
        self.remember(
            turn_id,
            OpenedTurn {
                turn_number: number,
                retrieved,
            },
        );
        number
    }

    fn remember(&mut self, turn_id: &str, turn: OpenedTurn) {
        self.last_number = self.last_number.max(turn.turn_number);
        if self.opened.insert(turn_id.to_owned(), turn).is_none() {
            self.order.push_back(turn_id.to_owned());
            if self.order.len() > REMEMBERED_TURNS {
                if let Some(old) = self.order.pop_front() {
                    self.opened.remove(&old);
                }
            }
        }
    }
}

/// One conversation's agent: runs turns over a transport.
pub struct Agent<T, R> {
    transport: T,
    runtime: R,
    config: AgentConfig,
    turns: RefCell<TurnLog>,
}

impl<T: Transport, R: Runtime> Agent<T, R> {
    pub fn new(config: AgentConfig, transport: T, runtime: R) -> Result<Self, Error> {
        config.check()?;
        Ok(Agent {
            transport,
            runtime,
            config,
            turns: RefCell::new(TurnLog::default()),
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
        let lookups = wanted.iter().map(|identifier| async move {
            let lookup = Box::pin(async move {
                let body = retrieve_request(identifier, HITS_PER_LOOKUP);
                self.transport.retrieve_entity_by_identifier(&body).await
            });
            let deadline = Box::pin(self.runtime.sleep(timeout));
            match select(lookup, deadline).await {
                Either::Left((Ok(answer), _)) => parse_retrieve_response(&answer, identifier),
                // a failed or late lookup is skipped: retrieval must never fail a turn
                _ => Vec::new(),
            }
        });
        // Best hit of every identifier first, then the second hits, …: an identifier that
        // over-matches cannot crowd out the others.
        let mut hits: Vec<std::vec::IntoIter<RetrievedEntity>> = join_all(lookups)
            .await
            .into_iter()
            .map(Vec::into_iter)
            .collect();
        let mut found: Vec<RetrievedEntity> = Vec::new();
        while found.len() < limit {
            let round: Vec<RetrievedEntity> = hits.iter_mut().filter_map(Iterator::next).collect();
            if round.is_empty() {
                break;
            }
            for entity in round {
                if found.len() < limit && !found.iter().any(|f| f.id == entity.id) {
                    found.push(entity);
                }
            }
        }
        Ok(found)
    }

    /// Retrieval, then the user message in one store.
    pub async fn open_turn(&self, input: &OpenTurnInput) -> Result<OpenTurnResult, Error> {
        let (turn_id, turn_number) = self.prepare(
            input.turn_id.clone(),
            input.turn_number,
            &input.user_message,
            input.extra.as_ref(),
        )?;
        let retrieved = self.retrieve(&input.user_message).await?;
        let retrieved_entity_ids: Vec<String> = retrieved.iter().map(|e| e.id.clone()).collect();
        let stored = self
            .store_message(
                Role::User,
                &turn_id,
                Some(turn_number),
                &input.user_message,
                input.extra.as_ref(),
                &retrieved_entity_ids,
            )
            .await?;
        self.turns.borrow_mut().remember(
            &turn_id,
            OpenedTurn {
                turn_number,
                retrieved: retrieved.clone(),
            },
        );
        Ok(OpenTurnResult {
            turn_id,
            turn_number,
            conversation_entity_id: stored.conversation_entity_id,
            user_message_entity_id: stored.message_entity_id,
            retrieved,
            retrieved_entity_ids,
            replayed: stored.replayed,
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
        let opened = self.turns.borrow().opened.get(&input.turn_id).cloned();
        let turn_number = input.turn_number.or(opened.as_ref().map(|t| t.turn_number));
        let retrieved = opened.map(|t| t.retrieved).unwrap_or_default();
        let refers_to =
            self.assistant_refers_to(&input.assistant_message, &retrieved, &input.refers_to);
        let stored = self
            .store_message(
                Role::Assistant,
                &input.turn_id,
                turn_number,
                &input.assistant_message,
                input.extra.as_ref(),
                &refers_to,
            )
            .await?;
        Ok(CloseTurnResult {
            turn_id: input.turn_id,
            turn_number,
            conversation_entity_id: stored.conversation_entity_id,
            assistant_message_entity_id: stored.message_entity_id,
            refers_to,
            replayed: stored.replayed,
            store_warnings: stored.warnings,
        })
    }

    /// A whole turn: open, the LLM, close. If the LLM fails, its error is returned as it is and
    /// the user message stays stored; no assistant message is written.
    pub async fn turn(
        &self,
        user_message: String,
        llm: &impl Llm,
        turn_id: Option<String>,
        turn_number: Option<u32>,
    ) -> Result<TurnResult, Error> {
        let input = OpenTurnInput {
            turn_id,
            turn_number,
            user_message,
            extra: None,
        };
        let opened = self.open_turn(&input).await?;
        let ctx = TurnContext {
            retrieved: opened.retrieved.clone(),
            retrieved_entity_ids: opened.retrieved_entity_ids.clone(),
            turn_id: opened.turn_id.clone(),
            turn_number: opened.turn_number,
            conversation_id: self.conversation_id().to_owned(),
        };
        let reply = llm.reply(&input.user_message, &ctx).await?;
        let closed = self
            .close_turn(CloseTurnInput {
                turn_id: opened.turn_id.clone(),
                turn_number: Some(opened.turn_number),
                assistant_message: reply.text.clone(),
                refers_to: reply.refers_to,
                extra: None,
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
        assistant_message: String,
        refers_to: Vec<String>,
    ) -> Result<TurnResult, Error> {
        // check the assistant side too before the user message is written
        check_message(
            "assistantMessage",
            &assistant_message,
            self.config.max_message_bytes,
        )?;
        let opened = self
            .open_turn(&OpenTurnInput {
                turn_id,
                turn_number,
                user_message,
                extra: None,
            })
            .await?;
        let closed = self
            .close_turn(CloseTurnInput {
                turn_id: opened.turn_id.clone(),
                turn_number: Some(opened.turn_number),
                assistant_message: assistant_message.clone(),
                refers_to,
                extra: None,
            })
            .await?;
        Ok(joined(opened, closed, assistant_message))
    }

    /// The assistant's REFERS_TO targets: cited (or all) retrieved entities, then the explicit ones.
    fn assistant_refers_to(
        &self,
        reply: &str,
        retrieved: &[RetrievedEntity],
        explicit: &[String],
    ) -> Vec<String> {
        let mut out: Vec<String> = match self.config.assistant_refers_to {
            AssistantRefersTo::Retrieved => retrieved.iter().map(|e| e.id.clone()).collect(),
            AssistantRefersTo::Cited => cited_entities(reply, retrieved),
        };
        for id in explicit {
            if !id.trim().is_empty() && !out.contains(id) {
                out.push(id.clone());
            }
        }
        out
    }

    async fn store_message(
        &self,
        role: Role,
        turn_id: &str,
        turn_number: Option<u32>,
        content: &str,
        extra: Option<&Map<String, Value>>,
        refers_to: &[String],
    ) -> Result<super::response::StoreOutcome, Error> {
        let body = store_message_request(
            &self.config.conversation,
            &Message {
                role,
                turn_id,
                content,
                turn_number,
                extra,
                refers_to,
            },
        );
        let answer = self.transport.store(&body).await?;
        let key = turn_key(self.conversation_id(), turn_id, role);
        let mut outcome = parse_store_response(&answer, self.conversation_id(), &key)?;
        if outcome.replayed && !refers_to.is_empty() {
            let repair = refers_to_request(&outcome.message_entity_id, refers_to);
            if let Err(e) = self.transport.create_relationships(&repair).await {
                outcome.warnings.push(json!({
                    "code": "REFERS_TO_REPAIR_FAILED",
                    "message": format!("replayed store; re-creating REFERS_TO edges failed: {}", e.message),
                    "entity_id": outcome.message_entity_id,
                }));
            }
        }
        Ok(outcome)
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
        replayed: Replayed {
            user: opened.replayed,
            assistant: closed.replayed,
        },
        store_warnings,
    }
}

/// Retrieved entities whose name or id appears in the reply, case-insensitively.
pub fn cited_entities(reply: &str, retrieved: &[RetrievedEntity]) -> Vec<String> {
    let haystack = reply.to_lowercase();
    let mut out: Vec<String> = Vec::new();
    for entity in retrieved {
        let cited = entity
            .names()
            .iter()
            .any(|name| haystack.contains(&name.trim().to_lowercase()));
        if cited && !out.contains(&entity.id) {
            out.push(entity.id.clone());
        }
    }
    out
}
