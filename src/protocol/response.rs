//! Reading Neotoma's answers. Store results are matched to what was sent by `entity_type` and
//! `turn_key`, never by position: a replay answers newest-first and without `observation_index`.

use serde::Serialize;
use serde_json::{Map, Value};

use super::error::{Error, ErrorCode};
use super::produced::Produced;

/// What one message store produced.
#[derive(Debug, Clone, PartialEq)]
pub struct StoreOutcome {
    pub conversation_entity_id: String,
    pub message_entity_id: String,
    pub replayed: bool,
    pub warnings: Vec<Value>,
    /// What the message's produced entities became (filled in by the caller, which knows what
    /// it sent).
    pub produced: Vec<Produced>,
}

/// The id of the entity of type `entity_type` whose snapshot has `field` = `want`. A snapshot
/// may lack the field (an older schema): then the only entity of that type, which is
/// unambiguous because we send exactly one of each.
fn pick(entities: &[Value], entity_type: &str, field: &str, want: &str) -> Option<String> {
    let mut only = None;
    let mut of_type = 0;
    for e in entities {
        if e.get("entity_type").and_then(Value::as_str) != Some(entity_type) {
            continue;
        }
        let value = e
            .get("entity_snapshot_after")
            .and_then(|s| s.get(field))
            .and_then(Value::as_str);
        if value == Some(want) {
            only = Some(e);
            of_type = 1;
            break;
        }
        of_type += 1;
        only = Some(e);
    }
    if of_type != 1 {
        return None;
    }
    only?
        .get("entity_id")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// Finds the conversation and the message with `turn_key` in a `/store` answer.
pub fn parse_store_response(
    body: &Value,
    conversation_id: &str,
    turn_key: &str,
) -> Result<StoreOutcome, Error> {
    let entities = body
        .get("entities")
        .and_then(Value::as_array)
        .ok_or_else(|| invalid("/store answer has no entities array"))?;
    let conversation_entity_id = pick(entities, "conversation", "conversation_id", conversation_id)
        .ok_or_else(|| invalid("/store answer has no conversation entity"))?;
    let message_entity_id = pick(entities, "conversation_message", "turn_key", turn_key)
        .ok_or_else(|| {
            invalid(format!(
                "/store answer has no conversation_message with turn_key {turn_key}"
            ))
        })?;
    let warnings = body
        .get("store_warnings")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    Ok(StoreOutcome {
        conversation_entity_id,
        message_entity_id,
        replayed: body
            .get("replayed")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        warnings,
        produced: Vec::new(),
    })
}

/// One entity found by bounded retrieval, in one shape whatever the server's `match_mode`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RetrievedEntity {
    pub id: String,
    pub entity_type: String,
    pub canonical_name: Option<String>,
    /// The entity's fields (`name`, `title`, …), flattened out of the `direct` shape.
    pub snapshot: Map<String, Value>,
    /// The identifier from the message that found it.
    pub identifier: String,
}

/// A canonical name without its type: `project:Project Falcon` → `Project Falcon` (a company's,
/// `Acme`, has none).
pub fn bare_canonical_name<'a>(canonical_name: &'a str, entity_type: &str) -> &'a str {
    canonical_name
        .strip_prefix(entity_type)
        .and_then(|rest| rest.strip_prefix(':'))
        .unwrap_or(canonical_name)
}

impl RetrievedEntity {
    /// Its canonical name without its type ([`bare_canonical_name`]).
    pub fn bare_canonical_name(&self) -> Option<&str> {
        let c = self.canonical_name.as_deref()?;
        Some(bare_canonical_name(c, &self.entity_type))
    }

    /// Names a reply may cite this entity by: snapshot names, the canonical name, the id.
    pub fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for field in ["name", "title", "canonical_name", "email", "full_name"] {
            if let Some(s) = self.snapshot.get(field).and_then(Value::as_str) {
                names.push(s);
            }
        }
        if let Some(c) = self.bare_canonical_name() {
            names.push(c);
        }
        names.push(&self.id);
        names.retain(|n| n.trim().chars().count() >= 2);
        names
    }
}

/// Entity types that are bookkeeping of conversations, not things a user talks about.
const CONVERSATION_TYPES: [&str; 2] = ["conversation", "conversation_message"];

/// Reads the entities of a `/retrieve_entity_by_identifier` answer, dropping conversation
/// bookkeeping hits. Ids are in `id` (there is no `entity_id` at the top of a result).
pub fn parse_retrieve_response(body: &Value, identifier: &str) -> Vec<RetrievedEntity> {
    let Some(entities) = body.get("entities").and_then(Value::as_array) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for e in entities {
        if let Some(entity) = retrieved_entity(e, identifier) {
            found.push(entity);
        }
    }
    found
}

fn is_bookkeeping(entity_type: &str) -> bool {
    CONVERSATION_TYPES.contains(&entity_type)
}

/// A lookup hit's fields: its `snapshot`, or `snapshot.snapshot` in `direct` answers, which
/// nest them one level deeper.
fn hit_fields(hit: &Value) -> Option<&Map<String, Value>> {
    let snapshot = hit.get("snapshot")?.as_object()?;
    snapshot
        .get("snapshot")
        .and_then(Value::as_object)
        .or(Some(snapshot))
}

/// One hit of a lookup, unless it is conversation bookkeeping (or has no id or type).
fn retrieved_entity(e: &Value, identifier: &str) -> Option<RetrievedEntity> {
    let id = e.get("id").and_then(Value::as_str)?.to_owned();
    let entity_type = e.get("entity_type").and_then(Value::as_str)?.to_owned();
    if is_bookkeeping(&entity_type) {
        return None;
    }
    let snapshot = e.get("snapshot").and_then(Value::as_object);
    let fields = hit_fields(e).cloned().unwrap_or_default();
    let canonical_name = snapshot
        .and_then(|s| s.get("canonical_name"))
        .filter(|_| snapshot.is_some_and(|s| s.contains_key("snapshot")))
        .or_else(|| e.get("canonical_name"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    Some(RetrievedEntity {
        id,
        entity_type,
        canonical_name,
        snapshot: fields,
        identifier: identifier.to_owned(),
    })
}

/// Whether a lookup's answer was cut at `limit` with conversation bookkeeping among its hits.
/// The server orders hits by canonical name and `conversation:…`/`conversation_message:…`
/// sort before `person:…` and `project:…`, so an identifier that also occurs in conversation
/// ids can fill the whole answer with messages (transcript 10b) and push real entities out.
pub fn crowded_out(body: &Value, limit: usize) -> bool {
    let Some(entities) = body.get("entities").and_then(Value::as_array) else {
        return false;
    };
    entities.len() >= limit
        && entities.iter().any(|e| {
            e.get("entity_type")
                .and_then(Value::as_str)
                .is_some_and(is_bookkeeping)
        })
}

/// A message already stored, found again by its turn key (transcript 12d).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredMessage {
    pub entity_id: String,
    pub content: String,
    /// Observations the answer listed (with `include_observations`): one per stored revision.
    pub observations: usize,
    pub turn_number: Option<u64>,
}

/// The `conversation_message` whose `turn_key` is exactly `turn_key` in a lookup answer. The
/// lookup matches by substring, so `c1:t1` also finds `c1:t1:assistant` and `c1:t10`: only
/// the exact key counts.
pub fn parse_stored_message(body: &Value, turn_key: &str) -> Option<StoredMessage> {
    let entities = body.get("entities").and_then(Value::as_array)?;
    entities.iter().find_map(|e| {
        if e.get("entity_type").and_then(Value::as_str) != Some("conversation_message") {
            return None;
        }
        let fields = hit_fields(e)?;
        if fields.get("turn_key").and_then(Value::as_str) != Some(turn_key) {
            return None;
        }
        Some(StoredMessage {
            entity_id: e.get("id").and_then(Value::as_str)?.to_owned(),
            content: fields.get("content").and_then(Value::as_str)?.to_owned(),
            observations: e
                .get("observations")
                .and_then(Value::as_array)
                .map_or(0, Vec::len),
            turn_number: fields.get("turn_number").and_then(Value::as_u64),
        })
    })
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidResponse, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn replay_answers_are_matched_by_type_not_position() {
        // transcript 02: newest observation first, no observation_index
        let replay = json!({"success":true,"replayed":true,"entities":[
            {"entity_id":"ent_msg","entity_type":"conversation_message","entity_snapshot_after":{"turn_key":"c1:t1"},"deduplicated":true},
            {"entity_id":"ent_conv","entity_type":"conversation","entity_snapshot_after":{"conversation_id":"c1"},"deduplicated":true}
        ]});
        let out = parse_store_response(&replay, "c1", "c1:t1").unwrap();
        assert_eq!(out.conversation_entity_id, "ent_conv");
        assert_eq!(out.message_entity_id, "ent_msg");
        assert!(out.replayed);
        assert!(out.warnings.is_empty());
    }

    #[test]
    fn store_warnings_are_kept() {
        let body = json!({"replayed":false,"entities":[
            {"entity_id":"ent_conv","entity_type":"conversation","entity_snapshot_after":{"conversation_id":"c1"}},
            {"entity_id":"ent_msg","entity_type":"conversation_message","entity_snapshot_after":{"turn_key":"c1:t1"}}
        ],"store_warnings":[{"code":"UNKNOWN_FIELD"}]});
        let out = parse_store_response(&body, "c1", "c1:t1").unwrap();
        assert!(!out.replayed);
        assert_eq!(out.warnings.len(), 1);
    }

    #[test]
    fn a_missing_message_is_an_invalid_response() {
        let body = json!({"entities":[{"entity_id":"ent_conv","entity_type":"conversation"}]});
        let e = parse_store_response(&body, "c1", "c1:t1").unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidResponse);
        assert_eq!(
            parse_store_response(&json!("<html>"), "c1", "c1:t1")
                .unwrap_err()
                .code,
            ErrorCode::InvalidResponse
        );
    }

    #[test]
    fn both_match_modes_are_read() {
        // transcript 04c (snapshot_field) and 04e (direct)
        let field = json!({"entities":[{"id":"ent_a","entity_type":"company","canonical_name":"Acme","snapshot":{"name":"Acme Corp"}}],"total":1,"match_mode":"snapshot_field"});
        let direct = json!({"entities":[{"id":"ent_f","entity_type":"project","canonical_name":"project:Project Falcon",
            "snapshot":{"entity_id":"ent_f","canonical_name":"Project Falcon","snapshot":{"name":"Project Falcon"}}}],"total":1,"match_mode":"direct"});
        let a = parse_retrieve_response(&field, "Acme Corp");
        assert_eq!(a[0].id, "ent_a");
        assert_eq!(a[0].snapshot["name"], "Acme Corp");
        assert_eq!(a[0].canonical_name.as_deref(), Some("Acme"));
        let f = parse_retrieve_response(&direct, "Project Falcon");
        assert_eq!(f[0].snapshot["name"], "Project Falcon");
        assert_eq!(f[0].canonical_name.as_deref(), Some("Project Falcon"));
        assert!(f[0].names().contains(&"Project Falcon"));
    }

    #[test]
    fn conversation_hits_are_dropped() {
        let body = json!({"entities":[
            {"id":"ent_c","entity_type":"conversation","canonical_name":"conversation:c1","snapshot":{}},
            {"id":"ent_m","entity_type":"conversation_message","canonical_name":"conversation_message:c1:t1","snapshot":{}},
            {"id":"ent_x","entity_type":"note","canonical_name":"c1 notes","snapshot":{"title":"c1 notes"}}
        ]});
        let got = parse_retrieve_response(&body, "c1");
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].id, "ent_x");
        assert!(parse_retrieve_response(
            &json!({"entities":[],"total":0,"match_mode":"none"}),
            "x"
        )
        .is_empty());
    }

    #[test]
    fn a_full_answer_of_conversation_hits_is_crowded() {
        let hit =
            |t: &str| json!({"id":"ent_1","entity_type":t,"canonical_name":"x","snapshot":{}});
        let full = json!({"entities":[hit("conversation"), hit("conversation_message")]});
        assert!(crowded_out(&full, 2));
        assert!(
            !crowded_out(&full, 3),
            "not cut at the limit: nothing was pushed out"
        );
        let people = json!({"entities":[hit("person"), hit("person")]});
        assert!(!crowded_out(&people, 2));
        assert!(!crowded_out(&json!("<html>"), 2));
    }

    #[test]
    fn a_stored_message_is_found_by_its_exact_turn_key() {
        // transcript 12d: a substring match, so the user message's key also finds longer keys
        let body = json!({"entities":[
            {"id":"ent_u","entity_type":"conversation_message","canonical_name":"conversation_message:c1:t1",
             "snapshot":{"role":"user","content":"Hi","turn_key":"c1:t1"}},
            {"id":"ent_a","entity_type":"conversation_message","canonical_name":"conversation_message:c1:t1:assistant",
             "snapshot":{"role":"assistant","content":"Hello","turn_key":"c1:t1:assistant"},
             "observations":[{"id":"o1"},{"id":"o2"}]}
        ],"total":2,"match_mode":"snapshot_field"});
        let found = parse_stored_message(&body, "c1:t1:assistant").unwrap();
        assert_eq!(found.entity_id, "ent_a");
        assert_eq!(found.content, "Hello");
        assert_eq!(found.observations, 2);
        assert_eq!(
            parse_stored_message(&body, "c1:t1").unwrap().entity_id,
            "ent_u"
        );
        assert_eq!(parse_stored_message(&body, "c1:t"), None);
        let direct = json!({"entities":[{"id":"ent_a","entity_type":"conversation_message",
            "snapshot":{"entity_id":"ent_a","snapshot":{"content":"Hello","turn_key":"c1:t1:assistant"}}}]});
        assert_eq!(
            parse_stored_message(&direct, "c1:t1:assistant")
                .unwrap()
                .content,
            "Hello"
        );
    }
}
