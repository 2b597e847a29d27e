//! Entities a reply produces: checked before anything is written, stored in the assistant
//! message's one `/store` (after the conversation and the message, `REFERS_TO` from the message
//! by index), and read back from the answer by type and identity, never by position (a replay
//! answers newest-first).

use serde::Serialize;
use serde_json::{Map, Value};

use super::error::Error;
use super::response::bare_canonical_name;

/// One produced entity as the caller gives it: `entity_type` and flat snake_case fields.
pub type EntityFields = Map<String, Value>;

/// Default cap on the entities one reply may produce (option `maxProducedEntities`).
pub const DEFAULT_MAX_PRODUCED_ENTITIES: usize = 16;

/// Types the protocol stores itself: a reply cannot produce them.
const PROTOCOL_TYPES: [&str; 2] = ["conversation", "conversation_message"];

/// Fields that name the protocol's own entities or the request around an entity: a produced
/// entity carrying one would be resolved as, or confused with, a message or a conversation.
const PROTOCOL_FIELDS: [&str; 6] = [
    "turn_key",
    "conversation_id",
    "sender_kind",
    "idempotency_key",
    "entity_id",
    "relationships",
];

/// Fields tried, in order, for an entity's identity (how the server resolves it to an existing
/// one: `name` for persons, companies and projects; `title`/`email` for types without a name).
const IDENTITY_FIELDS: [&str; 3] = ["name", "title", "email"];

/// What one produced entity became.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Produced {
    pub id: String,
    pub entity_type: String,
    pub canonical_name: Option<String>,
    /// `created`, or `matched_existing` when the server resolved it to an entity it had (a
    /// replayed store says neither: its entities all exist, so it reads `matched_existing`).
    pub action: String,
    /// The store warnings about this entity (`UNKNOWN_FIELD`, `MISSING_REQUIRED_FIELD`, …).
    pub warnings: Vec<Value>,
}

/// `snake_case`: a lowercase ASCII letter, then lowercase letters, digits and `_`.
fn is_snake_case(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_lowercase())
        && bytes.all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// Checks a reply's entities before anything is written: at most `max_count`, each with a
/// snake_case `entity_type` that is not the protocol's own, no protocol fields, and together
/// (as JSON) within `max_bytes`. Errors name the entity by index (`entities[2].entity_type`).
pub fn check_produced(
    entities: &[EntityFields],
    max_count: usize,
    max_bytes: usize,
) -> Result<(), Error> {
    if entities.len() > max_count {
        return Err(Error::invalid_input(format!(
            "entities has {} entities; the limit is {max_count} (option maxProducedEntities)",
            entities.len()
        )));
    }
    for (i, entity) in entities.iter().enumerate() {
        let at = |field: &str| format!("entities[{i}].{field}");
        let entity_type = match entity.get("entity_type") {
            Some(Value::String(t)) => t,
            Some(_) => {
                return Err(Error::invalid_input(format!(
                    "{} must be a string",
                    at("entity_type")
                )))
            }
            None => {
                return Err(Error::invalid_input(format!(
                    "{} is required",
                    at("entity_type")
                )))
            }
        };
        if !is_snake_case(entity_type) {
            return Err(Error::invalid_input(format!(
                "{} must be snake_case (like \"person\" or \"task\"); it is \"{entity_type}\"",
                at("entity_type")
            )));
        }
        if PROTOCOL_TYPES.contains(&entity_type.as_str()) {
            return Err(Error::invalid_input(format!(
                "{} may not be \"{entity_type}\": the turn protocol stores those itself",
                at("entity_type")
            )));
        }
        if let Some(field) = entity
            .keys()
            .find(|k| PROTOCOL_FIELDS.contains(&k.as_str()))
        {
            return Err(Error::invalid_input(format!(
                "{} is a field of the turn protocol's own entities; a produced entity may not set it",
                at(field)
            )));
        }
        if let Some(field) = entity.keys().find(|k| k.trim().is_empty()) {
            return Err(Error::invalid_input(format!(
                "entities[{i}] has an empty field name \"{field}\""
            )));
        }
    }
    let bytes: usize = entities
        .iter()
        .map(|e| serde_json::to_string(e).map_or(0, |s| s.len()))
        .sum();
    if bytes > max_bytes {
        return Err(Error::invalid_input(format!(
            "entities are {bytes} bytes as JSON; the limit is {max_bytes} (option maxMessageBytes)"
        )));
    }
    Ok(())
}

/// The identity an entity resolves by: its first of `name`, `title`, `email`, as the field and
/// its value.
pub(crate) fn identity(fields: &Map<String, Value>) -> Option<(&'static str, &str)> {
    IDENTITY_FIELDS
        .into_iter()
        .find_map(|f| fields.get(f).and_then(Value::as_str).map(|v| (f, v)))
}

fn same_text(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// Whether an entity (its type, snapshot and canonical name) is the one named by `field` =
/// `want`: the same value in its snapshot, or as its canonical name (`person:Dana Whitfield`, or
/// a company's bare `Acme` for `Acme Corp`), case-insensitively. Shared by the store answer's
/// matching here and `remember()`'s lookups.
pub(crate) fn is_named(
    entity_type: &str,
    snapshot: Option<&Map<String, Value>>,
    canonical_name: Option<&str>,
    (field, want): (&str, &str),
) -> bool {
    let in_snapshot = snapshot
        .and_then(|s| s.get(field))
        .and_then(Value::as_str)
        .is_some_and(|have| same_text(have, want));
    let in_canonical_name =
        canonical_name.is_some_and(|c| same_text(bare_canonical_name(c, entity_type), want));
    in_snapshot || in_canonical_name
}

/// Whether an answer entity is the one `sent` resolved to: the same type and identity.
fn resolves_to(sent: &EntityFields, sent_type: &str, answered: &Value) -> bool {
    answered.get("entity_type").and_then(Value::as_str) == Some(sent_type)
        && identity(sent).is_some_and(|named| {
            is_named(
                sent_type,
                answered
                    .get("entity_snapshot_after")
                    .and_then(Value::as_object),
                answered.get("canonical_name").and_then(Value::as_str),
                named,
            )
        })
}

/// What each of `sent` (the produced entities of a `/store` body, as sent) became in its
/// answer, in the order sent. An entity is found by type and identity; one without a
/// recognisable identity by being the only unclaimed answer entity of its type. One the answer
/// does not account for is left out.
pub fn parse_produced(answer: &Value, sent: &[Value]) -> Vec<Produced> {
    match_produced(answer, sent).into_iter().flatten().collect()
}

/// [`parse_produced`], one entry per sent entity (`None` for one the answer does not account
/// for, or that is not an entity object).
pub fn match_produced(answer: &Value, sent: &[Value]) -> Vec<Option<Produced>> {
    let answered: Vec<&Value> = answer
        .get("entities")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|e| {
            e.get("entity_type")
                .and_then(Value::as_str)
                .is_some_and(|t| !PROTOCOL_TYPES.contains(&t))
        })
        .collect();
    let replayed = answer.get("replayed").and_then(Value::as_bool) == Some(true);
    let warnings: &[Value] = answer
        .get("store_warnings")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    let mut claimed = vec![false; answered.len()];
    let mut produced = Vec::with_capacity(sent.len());
    for entity in sent {
        let Some((entity, entity_type)) = entity.as_object().and_then(|e| {
            let entity_type = e.get("entity_type")?.as_str()?;
            Some((e, entity_type))
        }) else {
            produced.push(None);
            continue;
        };
        let unclaimed = |i: &usize| !claimed[*i];
        let by_identity = (0..answered.len())
            .filter(unclaimed)
            .find(|&i| resolves_to(entity, entity_type, answered[i]));
        let only_of_type = || {
            let mut of_type = (0..answered.len()).filter(unclaimed).filter(|&i| {
                answered[i].get("entity_type").and_then(Value::as_str) == Some(entity_type)
            });
            match (of_type.next(), of_type.next()) {
                (Some(i), None) => Some(i),
                _ => None,
            }
        };
        let Some((i, id)) = by_identity.or_else(only_of_type).and_then(|i| {
            let id = answered[i].get("entity_id")?.as_str()?;
            Some((i, id))
        }) else {
            produced.push(None);
            continue;
        };
        claimed[i] = true;
        let action = match answered[i].get("action").and_then(Value::as_str) {
            Some(action) => action,
            None if replayed => "matched_existing",
            None => "created",
        };
        produced.push(Some(Produced {
            id: id.to_owned(),
            entity_type: entity_type.to_owned(),
            canonical_name: answered[i]
                .get("canonical_name")
                .and_then(Value::as_str)
                .map(str::to_owned),
            action: action.to_owned(),
            warnings: warnings
                .iter()
                .filter(|w| w.get("entity_id").and_then(Value::as_str) == Some(id))
                .cloned()
                .collect(),
        }));
    }
    produced
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entity(v: Value) -> EntityFields {
        match v {
            Value::Object(map) => map,
            _ => unreachable!(),
        }
    }

    fn refusal(entities: Vec<Value>) -> String {
        let entities: Vec<EntityFields> = entities.into_iter().map(entity).collect();
        check_produced(&entities, 3, 1000).unwrap_err().message
    }

    #[test]
    fn refuses_bad_entities_naming_index_and_field() {
        assert_eq!(
            refusal(vec![
                json!({"entity_type": "person", "name": "A"}),
                json!({"name": "B"})
            ]),
            "entities[1].entity_type is required"
        );
        assert!(refusal(vec![json!({"entity_type": 7})])
            .starts_with("entities[0].entity_type must be a string"));
        assert!(refusal(vec![json!({"entity_type": "Person"})]).contains("snake_case"));
        assert!(refusal(vec![json!({"entity_type": "my-type"})]).contains("snake_case"));
        assert!(
            refusal(vec![json!({"entity_type": "conversation_message"})])
                .contains("the turn protocol stores those itself")
        );
        assert!(refusal(vec![
            json!({"entity_type": "note", "content": "x", "turn_key": "c:t"})
        ])
        .starts_with("entities[0].turn_key is a field of the turn protocol"));
        assert!(refusal(vec![json!({"entity_type": "task"}); 4]).contains("the limit is 3"));
        assert!(refusal(vec![
            json!({"entity_type": "note", "content": "x".repeat(1000)})
        ])
        .contains("option maxMessageBytes"));
        let fine: Vec<EntityFields> = vec![
            entity(json!({"entity_type": "person", "name": "Dana Whitfield", "role": "lead"})),
            entity(json!({"entity_type": "task_v2", "title": "x", "tags": ["a"], "n": 1.5})),
        ];
        assert!(check_produced(&fine, 3, 1000).is_ok());
    }

    #[test]
    fn matches_by_type_and_identity_never_by_position() {
        let sent = [
            json!({"entity_type": "person", "name": "Dana Whitfield", "organisation": "x"}),
            json!({"entity_type": "company", "name": "Acme Corp"}),
            json!({"entity_type": "person", "name": "Lee Park"}),
            json!({"entity_type": "note", "content": "no identity"}),
        ];
        // a replay: newest first, no action, no observation_index
        let answer = json!({
            "replayed": true,
            "entities": [
                {"entity_id": "ent_note", "entity_type": "note", "entity_snapshot_after": {"content": "no identity"}},
                {"entity_id": "ent_lee", "entity_type": "person", "canonical_name": "person:Lee Park",
                 "entity_snapshot_after": {"name": "Lee Park"}},
                {"entity_id": "ent_acme", "entity_type": "company", "canonical_name": "Acme",
                 "entity_snapshot_after": {"name": "ACME corp"}},
                {"entity_id": "ent_dana", "entity_type": "person", "canonical_name": "person:Dana Whitfield",
                 "entity_snapshot_after": {"name": "Dana Whitfield"}},
                {"entity_id": "ent_msg", "entity_type": "conversation_message"},
                {"entity_id": "ent_conv", "entity_type": "conversation"}
            ],
            "store_warnings": [
                {"code": "UNKNOWN_FIELD", "entity_id": "ent_dana", "entity_type": "person"}
            ]
        });
        let produced = parse_produced(&answer, &sent);
        let ids: Vec<&str> = produced.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["ent_dana", "ent_acme", "ent_lee", "ent_note"]);
        assert!(produced.iter().all(|p| p.action == "matched_existing"));
        assert_eq!(produced[0].warnings.len(), 1);
        assert!(produced[1].warnings.is_empty());
        assert_eq!(produced[1].canonical_name.as_deref(), Some("Acme"));
    }

    #[test]
    fn a_fresh_answer_gives_each_entity_its_action() {
        let sent = [
            json!({"entity_type": "person", "name": "dana whitfield"}),
            json!({"entity_type": "project", "name": "Project Kestrel", "status": "active"}),
        ];
        let answer = json!({"replayed": false, "entities": [
            {"entity_id": "ent_c", "entity_type": "conversation"},
            {"entity_id": "ent_m", "entity_type": "conversation_message"},
            {"entity_id": "ent_d", "entity_type": "person", "action": "matched_existing",
             "canonical_name": "person:Dana Whitfield", "entity_snapshot_after": {"name": "Dana Whitfield"}},
            {"entity_id": "ent_k", "entity_type": "project", "action": "created",
             "canonical_name": "project:Project Kestrel", "entity_snapshot_after": {"name": "Project Kestrel"}}
        ]});
        let produced = parse_produced(&answer, &sent);
        assert_eq!(produced.len(), 2);
        assert_eq!(
            (produced[0].id.as_str(), produced[0].action.as_str()),
            ("ent_d", "matched_existing")
        );
        assert_eq!(
            (produced[1].id.as_str(), produced[1].action.as_str()),
            ("ent_k", "created")
        );
    }
}
