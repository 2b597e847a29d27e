//! `remember()`: entities stored on purpose, outside a turn (the upstream SDK's
//! `retrieveOrStore`, done so that calling it twice writes once).
//!
//! ```text
//! remember: check → look each entity up by its identity (name, title, email), in parallel
//!           → ONE /store of those not found, keyed by their content (remember-{cid}-{hash})
//! ```
//! A failed lookup counts as not found: the store's own resolution then matches the entity if
//! it exists, so nothing is duplicated either way. The store is retried, and kept in the
//! outbox when the server cannot take it now, as a message store is.

use serde::Serialize;
use serde_json::Value;

use super::{join_all, Agent, Request, Sent};
use crate::protocol::error::Error;
use crate::protocol::keys::remember_key;
use crate::protocol::outbox::{OutboxStorage, PendingWrite};
use crate::protocol::payload::{remember_request, retrieve_typed_request};
use crate::protocol::produced::{
    check_produced, identity, is_named, match_produced, EntityFields, Produced,
};
use crate::protocol::response::parse_retrieve_response;
use crate::transport::Transport;

use super::Runtime;

/// The `role` of a remember write in the outbox and in events (it belongs to no turn).
pub const REMEMBER_ROLE: &str = "remember";

/// Hits asked for when looking an entity up by its identity.
const HITS: u32 = 5;

/// What one remembered entity is in the store.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Remembered {
    /// `None` while its store waits in the outbox.
    pub id: Option<String>,
    pub entity_type: String,
    pub canonical_name: Option<String>,
    /// `created`; `matched_existing` when the store had it (found by the lookup, or resolved to
    /// it by the store); `pending` while its store waits in the outbox.
    pub action: String,
    pub warnings: Vec<Value>,
}

impl From<Produced> for Remembered {
    fn from(p: Produced) -> Self {
        Remembered {
            id: Some(p.id),
            entity_type: p.entity_type,
            canonical_name: p.canonical_name,
            action: p.action,
            warnings: p.warnings,
        }
    }
}

impl<T: Transport, R: Runtime, S: OutboxStorage> Agent<T, R, S> {
    /// Looks each entity up by its identity and stores, in one request, those the store does
    /// not have. One result per entity, in the order given.
    pub async fn remember(&self, entities: Vec<EntityFields>) -> Result<Vec<Remembered>, Error> {
        check_produced(
            &entities,
            self.config.max_produced_entities,
            self.config.max_message_bytes,
        )?;
        let found = join_all(entities.iter().map(|e| self.find_existing(e))).await;
        let missing: Vec<&EntityFields> = entities
            .iter()
            .zip(&found)
            .filter(|(_, found)| found.is_none())
            .map(|(e, _)| e)
            .collect();
        let mut stored = if missing.is_empty() {
            Vec::new()
        } else {
            self.store_entities(&missing).await?
        }
        .into_iter();
        Ok(found
            .into_iter()
            .zip(&entities)
            .map(|(found, entity)| {
                found
                    .or_else(|| stored.next())
                    .unwrap_or_else(|| unaccounted(entity))
            })
            .collect())
    }

    /// The stored entity `entity` names: same type, same identity value. `None` when it has no
    /// identity, nothing matches, or the lookup failed.
    async fn find_existing(&self, entity: &EntityFields) -> Option<Remembered> {
        let entity_type = entity.get("entity_type")?.as_str()?;
        let (field, value) = identity(entity)?;
        let body = retrieve_typed_request(value, entity_type, HITS);
        let answer = self
            .send(Request::Retrieve, &body, &self.config.retry)
            .await
            .ok()?;
        let hits = parse_retrieve_response(&answer, value);
        let hit = hits.into_iter().find(|hit| {
            hit.entity_type == entity_type
                && is_named(
                    entity_type,
                    Some(&hit.snapshot),
                    hit.canonical_name.as_deref(),
                    (field, value),
                )
        })?;
        Some(Remembered {
            id: Some(hit.id),
            entity_type: hit.entity_type,
            canonical_name: hit.canonical_name,
            action: "matched_existing".to_owned(),
            warnings: Vec::new(),
        })
    }

    /// One `/store` of `entities`, keyed by their content; what each became, in order (`pending`
    /// entries while the write waits in the outbox).
    async fn store_entities(&self, entities: &[&EntityFields]) -> Result<Vec<Remembered>, Error> {
        // the entities as sent, built once: their JSON text is the key, the array the body's
        let sent = Value::Array(
            entities
                .iter()
                .map(|e| Value::Object((*e).clone()))
                .collect(),
        );
        let key = remember_key(self.conversation_id(), &sent.to_string());
        let write = PendingWrite {
            body: remember_request(sent, &key),
            idempotency_key: key,
            turn_id: String::new(),
            role: REMEMBER_ROLE.to_owned(),
            turn_key: String::new(),
            refers_to: Vec::new(),
            queued_at_ms: self.runtime.now_ms() as u64,
        };
        Ok(
            match self
                .send_write(write, Request::StoreEntities, false)
                .await?
            {
                Sent::Answered(write, answer) => {
                    let sent = write.body["entities"]
                        .as_array()
                        .map_or(&[][..], Vec::as_slice);
                    match_produced(&answer, sent)
                        .into_iter()
                        .zip(entities)
                        .map(|(produced, entity)| {
                            produced.map_or_else(|| unaccounted(entity), Remembered::from)
                        })
                        .collect()
                }
                Sent::Kept => entities.iter().map(|e| pending_entry(e)).collect(),
            },
        )
    }
}

fn entity_type(entity: &EntityFields) -> Option<&str> {
    entity.get("entity_type").and_then(Value::as_str)
}

fn pending_entry(entity: &EntityFields) -> Remembered {
    Remembered {
        id: None,
        entity_type: entity_type(entity).unwrap_or_default().to_owned(),
        canonical_name: None,
        action: "pending".to_owned(),
        warnings: Vec::new(),
    }
}

/// An entity a store answer did not account for (a server that answers fewer entities than it
/// was sent): reported without an id rather than dropped.
fn unaccounted(entity: &EntityFields) -> Remembered {
    Remembered {
        action: "unknown".to_owned(),
        ..pending_entry(entity)
    }
}
