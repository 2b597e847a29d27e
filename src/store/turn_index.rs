//! `GET /conversations/{id}/turn-index` (transcripts 05f, 05g, 06h).
//!
//! `{id}` is a `conversation_id` or the conversation's entity id. One row per message that is
//! `PART_OF` the conversation, in creation order. `turn_number` is the message's `turn_number`
//! field when it is a non-negative integer, else its 1-based position. A message's `REFERS_TO`
//! targets (existing entities only, newest edge first) are sorted into `stored` and `retrieved`:
//! every target of an assistant message is `stored`; a target of any other message is `stored`
//! when an assistant message with the same `turn_number` also refers to it, else `retrieved`.
//! Each is listed as `{entity_id, entity_type, canonical_name}` with the display name
//! (`Acme Corp`). `content_preview` is the first 200 characters of `content`; `issues` is empty.

use super::entities::Entity;
use super::errors;
use super::time::iso_ms;
use fnv::FnvHashSet;

use super::{identity_slot, list_of, EmbeddedStore, Response};
use serde_json::json;
use serde_json::Value;

/// Characters of `content` shown in `content_preview`.
const PREVIEW_CHARS: usize = 200;

fn preview(content: Option<&Value>) -> Value {
    match content {
        Some(Value::String(s)) => {
            let mut preview = String::new();
            let mut left = PREVIEW_CHARS;
            for c in s.chars() {
                if left == 0 {
                    break;
                }
                left -= 1;
                preview.push(c);
            }
            Value::String(preview)
        }
        _ => Value::Null,
    }
}

/// The message's `turn_number` when it is a non-negative whole number (`1` or `1.0`), else its
/// position.
fn turn_number(entity: &Entity, position: usize) -> u64 {
    match entity.snapshot.get("turn_number").and_then(Value::as_f64) {
        // `as` saturates.
        Some(n) if n >= 0.0 && n.fract() == 0.0 => n as u64,
        _ => position as u64,
    }
}

impl EmbeddedStore {
    /// The conversation entity for a `conversation_id` or an entity id.
    fn find_conversation(&self, conversation: &str) -> Option<&Entity> {
        if let Some(entity) = self.entity(conversation) {
            if entity.entity_type == "conversation" {
                return Some(entity);
            }
        }
        let slot = identity_slot("conversation", &format!("conversation:{conversation}"));
        self.identity_index
            .get(&slot)
            .and_then(|i| self.entities.get(*i))
    }

    /// Number of `conversation_message` entities `PART_OF` a conversation.
    pub(crate) fn conversation_message_count(&self, conversation_id: &str) -> usize {
        list_of(&self.conversation_members, &self.lists, conversation_id).len()
    }

    /// Indexes of the `conversation_message` entities `PART_OF` a conversation, in creation order.
    fn conversation_messages(&self, conversation_id: &str) -> Vec<usize> {
        let mut messages =
            list_of(&self.conversation_members, &self.lists, conversation_id).to_vec();
        messages.sort_unstable();
        messages.dedup();
        messages
    }

    /// The existing `REFERS_TO` targets of a message, newest edge first.
    fn references(&self, message_id: &str) -> Vec<&Entity> {
        let mut edges = Vec::new();
        for index in list_of(&self.outbound, &self.lists, message_id) {
            if let Some(edge) = self.relationships.get(*index) {
                if edge.relationship_type == "REFERS_TO" {
                    edges.push(edge);
                }
            }
        }
        edges.sort_unstable_by(|a, b| {
            b.created_ms
                .total_cmp(&a.created_ms)
                .then(a.seq.cmp(&b.seq))
        });
        let mut targets = Vec::with_capacity(edges.len());
        for edge in edges {
            if let Some(entity) = self.entity(&edge.target) {
                targets.push(entity);
            }
        }
        targets
    }

    /// `GET /conversations/{id}/turn-index`; `conversation` is a `conversation_id` or the
    /// conversation's entity id. Unknown conversation: `404 RESOURCE_NOT_FOUND`.
    pub fn turn_index(&self, conversation: &str) -> Result<Value, Response> {
        let Some(conv) = self.find_conversation(conversation) else {
            return Err(errors::not_found("Conversation not found", self.clock_ms));
        };

        struct Row<'a> {
            message: &'a Entity,
            turn_number: u64,
            assistant: bool,
            references: Vec<&'a Entity>,
        }
        let mut rows: Vec<Row<'_>> = Vec::new();
        for index in self.conversation_messages(&conv.id) {
            if let Some(message) = self.entities.get(index) {
                rows.push(Row {
                    message,
                    turn_number: turn_number(message, rows.len() + 1),
                    assistant: message.snapshot.get("role").and_then(Value::as_str)
                        == Some("assistant"),
                    references: self.references(&message.id),
                });
            }
        }

        // (turn number, entity id) of every assistant reference.
        let produced: FnvHashSet<(u64, &str)> = rows
            .iter()
            .filter(|r| r.assistant)
            .flat_map(|row| {
                row.references
                    .iter()
                    .map(|entity| (row.turn_number, entity.id.as_str()))
            })
            .collect();

        let listed = |entity: &Entity| {
            json!({
                "entity_id": entity.id,
                "entity_type": entity.entity_type,
                "canonical_name": entity.label(),
            })
        };
        let mut turns = Vec::with_capacity(rows.len());
        for row in &rows {
            turns.push({
                let mut stored = Vec::new();
                let mut retrieved = Vec::new();
                for entity in &row.references {
                    if row.assistant || produced.contains(&(row.turn_number, entity.id.as_str())) {
                        stored.push(listed(entity));
                    } else {
                        retrieved.push(listed(entity));
                    }
                }
                let snapshot = &row.message.snapshot;
                json!({
                    "turn_number": row.turn_number,
                    "message_entity_id": row.message.id,
                    "role": snapshot.get("role").cloned().unwrap_or(Value::Null),
                    "turn_key": snapshot.get("turn_key").cloned().unwrap_or(Value::Null),
                    "content_preview": preview(snapshot.get("content")),
                    "created_at": iso_ms(row.message.created_ms),
                    "stored": stored,
                    "retrieved": retrieved,
                    "issues": [],
                })
            });
        }

        let conversation_id = conv
            .snapshot
            .get("conversation_id")
            .cloned()
            .unwrap_or_else(|| Value::from(conversation));
        Ok(json!({
            "conversation_id": conversation_id,
            "conversation_entity_id": conv.id,
            "turns": turns,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(s: &mut EmbeddedStore, body: Value, now: f64) -> Value {
        s.store(&body, now).expect("stored")
    }

    #[test]
    fn stored_versus_retrieved() {
        let mut s = EmbeddedStore::new();
        let seed = store(
            &mut s,
            json!({"entities": [{"entity_type": "company", "name": "Acme Corp"}, {"entity_type": "person", "name": "Ann"}], "idempotency_key": "seed"}),
            1.0,
        );
        let acme = seed["entities"][0]["entity_id"]
            .as_str()
            .unwrap_or("")
            .to_string();
        let ann = seed["entities"][1]["entity_id"]
            .as_str()
            .unwrap_or("")
            .to_string();
        let conv = json!({"entity_type": "conversation", "conversation_id": "c9", "title": "Conversation c9"});
        store(
            &mut s,
            json!({
                "entities": [conv, {"entity_type": "conversation_message", "role": "user", "content": "x".repeat(300), "turn_key": "c9:1", "turn_number": 1}],
                "relationships": [
                    {"relationship_type": "PART_OF", "source_index": 1, "target_index": 0},
                    {"relationship_type": "REFERS_TO", "source_index": 1, "target_entity_id": acme},
                    {"relationship_type": "REFERS_TO", "source_index": 1, "target_entity_id": ann},
                ],
                "idempotency_key": "u1",
            }),
            2.0,
        );
        store(
            &mut s,
            json!({
                "entities": [conv, {"entity_type": "conversation_message", "role": "assistant", "content": "ok", "turn_key": "c9:1:assistant", "turn_number": 1}],
                "relationships": [
                    {"relationship_type": "PART_OF", "source_index": 1, "target_index": 0},
                    {"relationship_type": "REFERS_TO", "source_index": 1, "target_entity_id": acme},
                    {"relationship_type": "REFERS_TO", "source_index": 1, "target_entity_id": "ent_000000000000000000000000"},
                ],
                "idempotency_key": "a1",
            }),
            3.0,
        );
        let index = s.turn_index("c9").expect("index");
        let turns = index["turns"].as_array().cloned().unwrap_or_default();
        assert_eq!(turns.len(), 2);
        assert_eq!(turns[0]["turn_number"], 1);
        assert_eq!(
            turns[0]["content_preview"]
                .as_str()
                .map(|c| c.chars().count()),
            Some(200)
        );
        assert_eq!(
            turns[0]["stored"],
            json!([{"entity_id": acme, "entity_type": "company", "canonical_name": "Acme Corp"}])
        );
        assert_eq!(
            turns[0]["retrieved"],
            json!([{"entity_id": ann, "entity_type": "person", "canonical_name": "Ann"}])
        );
        assert_eq!(turns[1]["stored"].as_array().map(Vec::len), Some(1));
        assert_eq!(turns[1]["retrieved"], json!([]));
        let by_id = s
            .turn_index(index["conversation_entity_id"].as_str().unwrap_or(""))
            .expect("by id");
        assert_eq!(by_id, index);
        let missing = s.turn_index("nope").expect_err("404");
        assert_eq!(missing.status, 404);
        assert_eq!(
            s.turn_index(&acme).expect_err("not a conversation").status,
            404
        );
    }

    #[test]
    fn positional_numbers_without_turn_number() {
        let mut s = EmbeddedStore::new();
        for (i, role) in ["user", "assistant"].iter().enumerate() {
            store(
                &mut s,
                json!({
                    "entities": [
                        {"entity_type": "conversation", "conversation_id": "p"},
                        {"entity_type": "conversation_message", "role": role, "content": "m", "turn_key": format!("p:{i}")},
                    ],
                    "relationships": [{"relationship_type": "PART_OF", "source_index": 1, "target_index": 0}],
                    "idempotency_key": format!("k{i}"),
                }),
                i as f64,
            );
        }
        let index = s.turn_index("p").expect("index");
        assert_eq!(index["turns"][0]["turn_number"], 1);
        assert_eq!(index["turns"][1]["turn_number"], 2);
        assert_eq!(index["turns"][1]["role"], "assistant");
    }
}
