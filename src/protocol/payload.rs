//! Request bodies the turn protocol sends. One `/store` per message: the conversation and the
//! message travel together, with `PART_OF` and every `REFERS_TO` edge inline.

use serde::Serialize;
use serde_json::{Map, Value};

use super::error::Error;
use super::keys::{idempotency_key, turn_key, Role};
use super::produced::EntityFields;

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
    /// Entities the reply produced: stored in the same request, after the conversation and the
    /// message, each referred to by index.
    pub produced: &'a [EntityFields],
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

/// A `/store` body but its `entities` (moved in afterwards, not copied: the message may be
/// 1 MiB): the edges between them (by index within the request, or to stored entities by id),
/// under one idempotency key.
#[derive(Serialize)]
struct StoreRequest<'a> {
    relationships: Vec<Relationship<'a>>,
    idempotency_key: &'a str,
}

/// A `/create_relationships` body.
#[derive(Serialize)]
struct RelationshipsRequest<'a> {
    relationships: Vec<Relationship<'a>>,
}

/// One edge. Each end is an index into the same request's entities or a stored entity's id.
#[derive(Serialize, Default)]
struct Relationship<'a> {
    relationship_type: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    source_index: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    source_entity_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    target_index: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    target_entity_id: Option<&'a str>,
}

#[derive(Serialize)]
struct ConversationEntity<'a> {
    entity_type: &'static str,
    conversation_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    /// The `platform` option, in the field the real server's `conversation` schema has for what
    /// wrote a conversation (`platform` is undeclared there: an `UNKNOWN_FIELD` on every store).
    #[serde(rename = "client_name", skip_serializing_if = "Option::is_none")]
    platform: Option<&'a str>,
}

#[derive(Serialize)]
struct MessageEntity<'a> {
    entity_type: &'static str,
    role: &'static str,
    sender_kind: &'static str,
    content: &'a str,
    turn_key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    turn_number: Option<u32>,
}

/// A `/retrieve_entity_by_identifier` body.
#[derive(Serialize)]
struct RetrieveRequest<'a> {
    identifier: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    entity_type: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    by: Option<&'static str>,
    limit: u32,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    include_observations: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    observations_limit: Option<u32>,
}

/// A fixed-shape request or answer as a JSON value (its types have only string keys, so
/// serializing cannot fail).
pub(crate) fn to_value(value: &impl Serialize) -> Value {
    serde_json::to_value(value).expect("a fixed shape is always JSON")
}

/// Where a message's produced entities start in its `/store`'s `entities`: after the
/// conversation (0) and the message (1).
const FIRST_PRODUCED_INDEX: u32 = 2;

/// The produced entities of a message's `/store` body, as sent: those after the conversation
/// and the message.
pub(crate) fn produced_in(body: &Value) -> &[Value] {
    body.get("entities")
        .and_then(Value::as_array)
        .and_then(|entities| entities.get(FIRST_PRODUCED_INDEX as usize..))
        .unwrap_or(&[])
}

/// Builds the `/store` body for one message. Absent options are omitted, never sent as null.
pub fn store_message_request(conversation: &Conversation, message: &Message<'_>) -> Value {
    let key = idempotency_key(&conversation.conversation_id, message.turn_id, message.role);
    store_request(conversation, message, &key)
}

/// [`store_message_request`] under `idempotency_key` (a regeneration's own key).
pub fn store_request(
    conversation: &Conversation,
    message: &Message<'_>,
    idempotency_key: &str,
) -> Value {
    let conv = ConversationEntity {
        entity_type: "conversation",
        conversation_id: &conversation.conversation_id,
        title: conversation.title.as_deref(),
        platform: conversation.platform.as_deref(),
    };
    let mut msg = to_value(&MessageEntity {
        entity_type: "conversation_message",
        role: message.role.as_str(),
        sender_kind: message.role.as_str(),
        content: message.content,
        turn_key: turn_key(&conversation.conversation_id, message.turn_id, message.role),
        turn_number: message.turn_number,
    });
    // The caller's own fields: never the protocol's, never null.
    if let Value::Object(fields) = &mut msg {
        let extra = message.extra.into_iter().flatten();
        fields.extend(
            extra
                .filter(|(k, v)| !RESERVED_MESSAGE_FIELDS.contains(&k.as_str()) && !v.is_null())
                .map(|(k, v)| (k.clone(), v.clone())),
        );
    }
    let part_of = Relationship {
        relationship_type: "PART_OF",
        source_index: Some(1),
        target_index: Some(0),
        ..Default::default()
    };
    let refers_to_produced = (FIRST_PRODUCED_INDEX..)
        .take(message.produced.len())
        .map(|index| Relationship {
            relationship_type: "REFERS_TO",
            source_index: Some(1),
            target_index: Some(index),
            ..Default::default()
        });
    let refers_to = dedupe(message.refers_to).map(|target| Relationship {
        relationship_type: "REFERS_TO",
        source_index: Some(1),
        target_entity_id: Some(target),
        ..Default::default()
    });
    let mut body = to_value(&StoreRequest {
        relationships: std::iter::once(part_of)
            .chain(refers_to_produced)
            .chain(refers_to)
            .collect(),
        idempotency_key,
    });
    let produced = message.produced.iter().cloned().map(Value::Object);
    body["entities"] = [to_value(&conv), msg].into_iter().chain(produced).collect();
    body
}

/// `REFERS_TO` edges from a stored message to `targets`, each once.
pub fn refers_to_request(source_entity_id: &str, targets: &[String]) -> Value {
    relationships_request("REFERS_TO", source_entity_id, targets)
}

/// A `/create_relationships` body: `relationship_type` edges from a stored entity to `targets`,
/// each once.
pub fn relationships_request(
    relationship_type: &'static str,
    source_entity_id: &str,
    targets: &[String],
) -> Value {
    let relationships = dedupe(targets)
        .map(|target| Relationship {
            relationship_type,
            source_entity_id: Some(source_entity_id),
            target_entity_id: Some(target),
            ..Default::default()
        })
        .collect();
    to_value(&RelationshipsRequest { relationships })
}

/// A `/retrieve_related_entities` body: a stored entity's outbound edges.
pub fn outbound_request(entity_id: &str) -> Value {
    serde_json::json!({ "entity_id": entity_id, "direction": "outbound" })
}

/// A `remember()` store: entities alone (a JSON array, as sent), no conversation or message,
/// under `idempotency_key`.
pub fn remember_request(entities: Value, idempotency_key: &str) -> Value {
    serde_json::json!({
        "entities": entities,
        "idempotency_key": idempotency_key,
    })
}

/// A lookup of one entity of `entity_type` by its identity (`remember()`).
pub fn retrieve_typed_request(identifier: &str, entity_type: &str, limit: u32) -> Value {
    to_value(&RetrieveRequest {
        entity_type: Some(entity_type),
        ..RetrieveRequest::plain(identifier, limit)
    })
}

/// A bounded-retrieval lookup of one identifier.
pub fn retrieve_request(identifier: &str, limit: u32) -> Value {
    to_value(&RetrieveRequest::plain(identifier, limit))
}

/// The same lookup restricted to names (when message hits crowd the first answer).
pub fn retrieve_by_name_request(identifier: &str, limit: u32) -> Value {
    to_value(&RetrieveRequest {
        by: Some("name"),
        ..RetrieveRequest::plain(identifier, limit)
    })
}

/// A stored message found by its turn key (transcript 12d), with its observations: one per
/// stored revision (a regeneration is numbered after them).
pub fn stored_message_request(turn_key: &str) -> Value {
    to_value(&RetrieveRequest {
        entity_type: Some("conversation_message"),
        by: Some("turn_key"),
        include_observations: true,
        observations_limit: Some(100),
        ..RetrieveRequest::plain(turn_key, STORED_MESSAGE_HITS)
    })
}

impl<'a> RetrieveRequest<'a> {
    fn plain(identifier: &'a str, limit: u32) -> Self {
        RetrieveRequest {
            identifier,
            entity_type: None,
            by: None,
            limit,
            include_observations: false,
            observations_limit: None,
        }
    }
}

/// Hits asked for when finding a message by turn key: a substring match, so other
/// conversations' keys that contain this one come too.
const STORED_MESSAGE_HITS: u32 = 10;

fn dedupe(ids: &[String]) -> impl Iterator<Item = &str> {
    ids.iter()
        .enumerate()
        .filter(|&(i, id)| !ids[..i].contains(id))
        .map(|(_, id)| id.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
                produced: &[],
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
                produced: &[],
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
    fn produced_entities_travel_in_the_same_store_referred_to_by_index() {
        let produced: Vec<EntityFields> = [
            json!({"entity_type": "person", "name": "Dana Whitfield", "organization": "Orbital Labs"}),
            json!({"entity_type": "company", "name": "Orbital Labs"}),
        ]
        .into_iter()
        .map(|v| v.as_object().cloned().unwrap())
        .collect();
        let cited = vec!["ent_kestrel".to_string()];
        let body = store_message_request(
            &conv(),
            &Message {
                role: Role::Assistant,
                turn_id: "t1",
                content: "I'll remember Dana.",
                turn_number: Some(1),
                extra: None,
                refers_to: &cited,
                produced: &produced,
            },
        );
        let types: Vec<&str> = body["entities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["entity_type"].as_str().unwrap())
            .collect();
        assert_eq!(
            types,
            ["conversation", "conversation_message", "person", "company"]
        );
        assert_eq!(body["entities"][2]["organization"], "Orbital Labs");
        assert_eq!(
            body["relationships"],
            json!([
                {"relationship_type": "PART_OF", "source_index": 1, "target_index": 0},
                {"relationship_type": "REFERS_TO", "source_index": 1, "target_index": 2},
                {"relationship_type": "REFERS_TO", "source_index": 1, "target_index": 3},
                {"relationship_type": "REFERS_TO", "source_index": 1, "target_entity_id": "ent_kestrel"}
            ])
        );
        assert_eq!(body["idempotency_key"], "conversation-c1-t1-assistant-turn");
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
