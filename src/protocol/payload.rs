//! Request bodies the turn protocol sends. One `/store` per message: the conversation and the
//! message travel together, with `PART_OF` and every `REFERS_TO` edge inline.

use super::error::Error;
use super::keys::{idempotency_key, turn_key, Role};
use serde_json::json;
use serde_json::{Map, Value};

/// The conversation every message is `PART_OF`.
#[derive(Debug, Clone, PartialEq)]
pub struct Conversation {
    pub conversation_id: String,
    pub title: Option<String>,
    pub platform: Option<String>,
}

/// One message to store.
#[derive(Debug, Clone, PartialEq)]
pub struct Message<'a> {
    pub role: Role,
    pub turn_id: &'a str,
    pub content: &'a str,
    pub turn_number: Option<u32>,
    /// Caller fields merged onto the message (`userMessageExtra` / `assistantMessageExtra`).
    pub extra: Option<&'a Map<String, Value>>,
    /// Entity ids the message refers to, in order; duplicates are sent once.
    pub refers_to: &'a [String],
}

/// Fields the protocol owns on a `conversation_message`; extras may not overwrite them.
const RESERVED_MESSAGE_FIELDS: [&str; 6] = [
    "entity_type",
    "role",
    "sender_kind",
    "content",
    "turn_key",
    "turn_number",
];

/// Rejects extras that would overwrite protocol fields, before anything is written.
pub fn check_extra(field: &str, extra: &Map<String, Value>) -> Result<(), Error> {
    if let Some(k) = extra
        .keys()
        .find(|k| RESERVED_MESSAGE_FIELDS.contains(&k.as_str()))
    {
        return Err(Error::invalid_input(format!(
            "{field} may not set \"{k}\": the turn protocol owns it"
        )));
    }
    Ok(())
}

/// Builds the `/store` body for one message. Absent options are omitted, never sent as null.
pub fn store_message_request(conversation: &Conversation, message: &Message<'_>) -> Value {
    let mut conv = Map::new();
    conv.insert("entity_type".into(), "conversation".into());
    conv.insert(
        "conversation_id".into(),
        conversation.conversation_id.clone().into(),
    );
    if let Some(title) = &conversation.title {
        conv.insert("title".into(), title.clone().into());
    }
    if let Some(platform) = &conversation.platform {
        conv.insert("platform".into(), platform.clone().into());
    }

    let mut msg = Map::new();
    msg.insert("entity_type".into(), "conversation_message".into());
    msg.insert("role".into(), message.role.as_str().into());
    msg.insert("sender_kind".into(), message.role.as_str().into());
    msg.insert("content".into(), message.content.into());
    msg.insert(
        "turn_key".into(),
        turn_key(&conversation.conversation_id, message.turn_id, message.role).into(),
    );
    if let Some(n) = message.turn_number {
        msg.insert("turn_number".into(), n.into());
    }
    if let Some(extra) = message.extra {
        for (k, v) in extra {
            if !RESERVED_MESSAGE_FIELDS.contains(&k.as_str()) && !v.is_null() {
                msg.insert(k.clone(), v.clone());
            }
        }
    }

    let mut relationships = vec![json!({
        "relationship_type": "PART_OF",
        "source_index": 1,
        "target_index": 0,
    })];
    for target in dedupe(message.refers_to) {
        relationships.push(json!({
            "relationship_type": "REFERS_TO",
            "source_index": 1,
            "target_entity_id": target,
        }));
    }

    json!({
        "entities": [Value::Object(conv), Value::Object(msg)],
        "relationships": relationships,
        "idempotency_key": idempotency_key(&conversation.conversation_id, message.turn_id, message.role),
    })
}

/// `REFERS_TO` edges from an already-stored message, for `/create_relationships`. Used after a
/// replay: the server silently skips relationships a replayed request did not first carry.
pub fn refers_to_request(source_entity_id: &str, targets: &[String]) -> Value {
    let mut relationships: Vec<Value> = Vec::new();
    for t in dedupe(targets) {
        relationships.push(json!({
            "relationship_type": "REFERS_TO",
            "source_entity_id": source_entity_id,
            "target_entity_id": t,
        }));
    }
    json!({ "relationships": relationships })
}

/// The `/retrieve_entity_by_identifier` body for one lookup.
pub fn retrieve_request(identifier: &str, limit: u32) -> Value {
    json!({ "identifier": identifier, "limit": limit })
}

/// A second lookup for an identifier whose first answer was crowded out by conversation
/// bookkeeping ([`crowded_out`](super::response::crowded_out)): only the `name` field of
/// snapshots is searched, which conversations and messages do not have.
pub fn retrieve_by_name_request(identifier: &str, limit: u32) -> Value {
    json!({ "identifier": identifier, "by": "name", "limit": limit })
}

/// Finds a stored message by its turn key (transcript 12d), with its observations: one per
/// stored revision (a regeneration is numbered after them).
pub fn stored_message_request(turn_key: &str) -> Value {
    json!({
        "identifier": turn_key,
        "entity_type": "conversation_message",
        "by": "turn_key",
        "limit": STORED_MESSAGE_HITS,
        "include_observations": true,
        "observations_limit": 100,
    })
}

/// Hits asked for when finding a message by turn key: a substring match, so other
/// conversations' keys that contain this one come too.
const STORED_MESSAGE_HITS: u32 = 10;

fn dedupe(ids: &[String]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::with_capacity(ids.len());
    for id in ids {
        if !out.contains(&id.as_str()) {
            out.push(id);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv() -> Conversation {
        Conversation {
            conversation_id: "c1".into(),
            title: None,
            platform: None,
        }
    }

    #[test]
    fn user_message_request_matches_the_recorded_shape() {
        let refers = vec!["ent_a".to_string(), "ent_b".into(), "ent_a".into()];
        let body = store_message_request(
            &Conversation {
                title: Some("Conversation c1".into()),
                ..conv()
            },
            &Message {
                role: Role::User,
                turn_id: "t2",
                content: "And what about Acme Corp's revenue?",
                turn_number: Some(2),
                extra: None,
                refers_to: &refers,
            },
        );
        assert_eq!(
            body,
            json!({
                "entities": [
                    {"entity_type": "conversation", "conversation_id": "c1", "title": "Conversation c1"},
                    {"entity_type": "conversation_message", "role": "user", "sender_kind": "user",
                     "content": "And what about Acme Corp's revenue?", "turn_key": "c1:t2", "turn_number": 2}
                ],
                "relationships": [
                    {"relationship_type": "PART_OF", "source_index": 1, "target_index": 0},
                    {"relationship_type": "REFERS_TO", "source_index": 1, "target_entity_id": "ent_a"},
                    {"relationship_type": "REFERS_TO", "source_index": 1, "target_entity_id": "ent_b"}
                ],
                "idempotency_key": "conversation-c1-t2-user-turn"
            })
        );
    }

    #[test]
    fn assistant_message_omits_absent_options_and_keeps_extras() {
        let mut extra = Map::new();
        extra.insert("model".into(), "m-1".into());
        extra.insert("dropped".into(), Value::Null);
        let body = store_message_request(
            &conv(),
            &Message {
                role: Role::Assistant,
                turn_id: "t1",
                content: "hi",
                turn_number: None,
                extra: Some(&extra),
                refers_to: &[],
            },
        );
        let msg = &body["entities"][1];
        assert_eq!(msg["turn_key"], "c1:t1:assistant");
        assert_eq!(msg["sender_kind"], "assistant");
        assert_eq!(msg["model"], "m-1");
        assert!(msg.get("turn_number").is_none() && msg.get("dropped").is_none());
        assert!(body["entities"][0].get("title").is_none());
        assert_eq!(body["idempotency_key"], "conversation-c1-t1-assistant-turn");
        assert_eq!(body["relationships"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn extras_may_not_overwrite_protocol_fields() {
        let mut extra = Map::new();
        extra.insert("content".into(), "other".into());
        assert!(check_extra("userMessageExtra", &extra).is_err());
        extra.clear();
        extra.insert("model".into(), "m".into());
        assert!(check_extra("userMessageExtra", &extra).is_ok());
    }

    #[test]
    fn refers_to_request_dedupes() {
        let body = refers_to_request("ent_m", &["ent_a".into(), "ent_a".into()]);
        assert_eq!(body["relationships"].as_array().unwrap().len(), 1);
        assert_eq!(body["relationships"][0]["source_entity_id"], "ent_m");
    }
}
