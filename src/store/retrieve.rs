//! `POST /retrieve_entity_by_identifier` (transcripts 04c–04m, 07e2, 07k, 10b–10g, 12d).
//!
//! `{identifier, entity_type?, limit?, by?, include_observations?, observations_limit?}`; other
//! fields are ignored. Matching is case-insensitive and by substring, in this order:
//!
//! 1. `identifier` is an entity id -> that entity, `match_mode:"direct"`, `{id, entity_type,
//!    canonical_name, snapshot:<snapshot record>}` (04g).
//! 2. `by` given -> substring of that snapshot field only, `match_mode:"snapshot_field"` (12d).
//! 3. Substring of the canonical name -> `match_mode:"direct"`, the entity row plus a nested
//!    `snapshot` record (04e, 04i, 10b: `c1` also finds its messages). With `entity_type`, the
//!    identifier is also tried as the canonical name it would resolve to for that type
//!    (`Acme Corp` as a `company` is `Acme`, 04j).
//! 4. Substring of a snapshot identifier field (`name`, `title`, `email`, `turn_key`,
//!    `conversation_id`, `canonical_name`; not `content`) -> `match_mode:"snapshot_field"`,
//!    `{id, entity_type, canonical_name, snapshot:{…}}` (04c).
//! 5. Nothing -> `{entities:[], total:0, match_mode:"none"}`, plus a `hint` when the identifier
//!    looks like an entity id (10e).
//!
//! Hits are ordered by canonical name (as in 10d), cut to `limit` (default 100); `total` is the
//! number returned, as the real server reports it.
//!
//! Entities are found through the `search` index (the candidates a needle's grams allow, or the
//! name order when it is common), each then checked by the rules above: the answers are those of
//! a scan of every entity, at a cost that does not grow with the store.

use super::entities::Entity;
use super::errors::{self, invalid_payload, invalid_type, Seg};
use super::ids::looks_like_entity_id;
use super::relationships::body_object;
use super::schema::{typed_needle, IDENTIFIER_FIELDS};
use super::search::{answer_order, contains_lowercase, Candidates};
use super::{EmbeddedStore, Response};
use crate::protocol::payload::to_value;
use serde::Serialize;
use serde_json::{json, Map, Value};

const DEFAULT_LIMIT: usize = 100;
const DEFAULT_OBSERVATIONS_LIMIT: usize = 20;

const ENTITY_ID_HINT: &str =
    "identifier looks like an entity_id; use retrieve_entity_snapshot(entity_id=…) for direct fetch";

/// An optional string field (`null` is a type error, as with zod's `.optional()`).
fn optional_string<'a>(
    object: &'a Map<String, Value>,
    key: &'static str,
    issues: &mut Vec<Value>,
) -> Option<&'a str> {
    match object.get(key) {
        None => None,
        Some(Value::String(s)) => Some(s),
        other => {
            issues.push(invalid_type("string", other, &[Seg::Key(key)]));
            None
        }
    }
}

/// An optional positive integer field.
fn optional_count(
    object: &Map<String, Value>,
    key: &'static str,
    default: usize,
    issues: &mut Vec<Value>,
) -> usize {
    match object.get(key) {
        None => default,
        Some(Value::Number(n)) => match n.as_f64() {
            Some(f) if f.fract() != 0.0 => {
                issues.push(errors::not_integer(&[Seg::Key(key)]));
                default
            }
            Some(f) if f < 1.0 => {
                issues.push(errors::number_too_small(1, &[Seg::Key(key)]));
                default
            }
            // `as` saturates.
            Some(f) => f as usize,
            None => default,
        },
        other => {
            issues.push(invalid_type("number", other, &[Seg::Key(key)]));
            default
        }
    }
}

/// Whether snapshot field `field` (or the canonical name, for `canonical_name`) contains
/// `needle` (lowercase).
fn field_contains(entity: &Entity, field: &str, needle: &str) -> bool {
    if field == "canonical_name" && entity.canonical_lower.contains(needle) {
        return true;
    }
    match entity.snapshot.get(field) {
        Some(Value::String(s)) => contains_lowercase(s, needle),
        Some(Value::Number(n)) => n.to_string().contains(needle),
        _ => false,
    }
}

/// `{id, entity_type, canonical_name, snapshot}`: a hit by id or by snapshot field.
fn entity_hit(entity: &Entity, snapshot: Value) -> Value {
    json!({
        "id": entity.id,
        "entity_type": entity.entity_type,
        "canonical_name": entity.canonical_name,
        "snapshot": snapshot,
    })
}

/// A `/retrieve_entity_by_identifier` answer (transcripts 04c–04m).
#[derive(Serialize)]
struct RetrieveAnswer {
    entities: Vec<Value>,
    total: usize,
    match_mode: &'static str,
    /// Only when nothing matched an identifier that looks like an entity id.
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<&'static str>,
}

impl RetrieveAnswer {
    fn new(entities: Vec<Value>, match_mode: &'static str) -> Self {
        RetrieveAnswer {
            total: entities.len(),
            entities,
            match_mode,
            hint: None,
        }
    }
}

impl EmbeddedStore {
    /// The first `limit` entities by canonical name (then creation) of `entity_type` that
    /// `matches`, among `candidates`. One copy of the code for the three scans.
    fn scan<'a>(
        &'a self,
        candidates: &Candidates,
        entity_type: Option<&str>,
        limit: usize,
        matches: &dyn Fn(&Entity) -> bool,
    ) -> Vec<&'a Entity> {
        let keep = |entity: &Entity| {
            entity_type.is_none_or(|t| entity.entity_type == t) && matches(entity)
        };
        match candidates {
            Candidates::Only(list) => {
                // The first `limit` hits in answer order, kept in order as they are found: a
                // binary search per hit, not a sort of every hit.
                let mut hits: Vec<&Entity> = Vec::new();
                for index in list {
                    let Some(entity) = self.entities.get(*index).filter(|e| keep(e)) else {
                        continue;
                    };
                    let at = hits.partition_point(|hit| answer_order(hit, &entity).is_lt());
                    if at < limit {
                        hits.truncate(limit - 1);
                        hits.insert(at.min(hits.len()), entity);
                    }
                }
                hits
            }
            // Many entities may match: the first `limit` in name order are the answer.
            Candidates::Bits(_) | Candidates::Any => {
                self.search
                    .first_in_name_order(&self.entities, candidates, limit, &keep)
            }
        }
    }

    fn with_observations(&self, mut item: Value, entity: &Entity, limit: Option<usize>) -> Value {
        if let (Some(limit), Some(map)) = (limit, item.as_object_mut()) {
            let mut observations = Vec::new();
            for (taken, index) in entity.observations.iter().rev().enumerate() {
                if taken == limit {
                    break;
                }
                if let Some(observation) = self.observation_json(*index) {
                    observations.push(observation);
                }
            }
            map.insert("observations".into(), Value::Array(observations));
        }
        item
    }

    /// `POST /retrieve_entity_by_identifier`. See the module docs for the matching rules.
    pub fn retrieve_entity_by_identifier(&self, body: &Value) -> Result<Value, Response> {
        let now = self.clock_ms;
        let empty = Map::new();
        let object = body_object(body, &empty, now)?;
        let mut issues = Vec::new();
        let identifier = match object.get("identifier") {
            Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim()),
            Some(Value::String(_)) => {
                issues.push(errors::empty_string(&[Seg::Key("identifier")]));
                None
            }
            other => {
                issues.push(invalid_type("string", other, &[Seg::Key("identifier")]));
                None
            }
        };
        let entity_type = optional_string(object, "entity_type", &mut issues);
        let by = optional_string(object, "by", &mut issues);
        let limit = optional_count(object, "limit", DEFAULT_LIMIT, &mut issues);
        let include_observations = match object.get("include_observations") {
            None => false,
            Some(Value::Bool(b)) => *b,
            other => {
                issues.push(invalid_type(
                    "boolean",
                    other,
                    &[Seg::Key("include_observations")],
                ));
                false
            }
        };
        let observations_limit = optional_count(
            object,
            "observations_limit",
            DEFAULT_OBSERVATIONS_LIMIT,
            &mut issues,
        );
        let Some(identifier) = identifier.filter(|_| issues.is_empty()) else {
            return Err(invalid_payload(issues, now));
        };
        let observations = include_observations.then_some(observations_limit);

        if by.is_none() {
            if let Some(entity) = self
                .entity(identifier)
                .filter(|e| entity_type.is_none_or(|t| e.entity_type == t))
            {
                let item = entity_hit(entity, entity.snapshot_json());
                let entities = vec![self.with_observations(item, entity, observations)];
                return Ok(to_value(&RetrieveAnswer::new(entities, "direct")));
            }
        }

        let needle = identifier.to_lowercase();
        let candidates = self.search.candidates(&needle);
        let (mode, hits) = match by {
            Some(field) => {
                // The index lists the identifier fields only; another field is searched in full.
                let candidates = if IDENTIFIER_FIELDS.contains(&field) {
                    candidates
                } else {
                    Candidates::Any
                };
                let matches = |e: &Entity| field_contains(e, field, &needle);
                let hits = self.scan(&candidates, entity_type, limit, &matches);
                ("snapshot_field", hits)
            }
            None => {
                let typed = entity_type
                    .and_then(|t| typed_needle(t, identifier))
                    .filter(|n| *n != needle);
                let typed_candidates = typed
                    .as_deref()
                    .map(|typed| candidates.clone().or(self.search.candidates(typed)));
                let direct_candidates = typed_candidates.as_ref().unwrap_or(&candidates);
                let direct = self.scan(direct_candidates, entity_type, limit, &|e| {
                    e.canonical_lower.contains(&needle)
                        || typed
                            .as_deref()
                            .is_some_and(|n| e.canonical_lower.contains(n))
                });
                if direct.is_empty() {
                    let matches = |e: &Entity| {
                        IDENTIFIER_FIELDS
                            .iter()
                            .any(|f| field_contains(e, f, &needle))
                    };
                    let hits = self.scan(&candidates, entity_type, limit, &matches);
                    ("snapshot_field", hits)
                } else {
                    ("direct", direct)
                }
            }
        };

        if hits.is_empty() {
            let answer = RetrieveAnswer {
                hint: looks_like_entity_id(identifier).then_some(ENTITY_ID_HINT),
                ..RetrieveAnswer::new(Vec::new(), "none")
            };
            return Ok(to_value(&answer));
        }

        let items: Vec<Value> = hits
            .iter()
            .map(|entity| {
                let item = if mode == "direct" {
                    let mut row = entity.row_json();
                    if let Some(map) = row.as_object_mut() {
                        map.insert("snapshot".into(), entity.snapshot_json());
                    }
                    row
                } else {
                    entity_hit(entity, json!(entity.snapshot))
                };
                self.with_observations(item, entity, observations)
            })
            .collect();
        Ok(to_value(&RetrieveAnswer::new(items, mode)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seeded() -> EmbeddedStore {
        let mut s = EmbeddedStore::new();
        let body = json!({
            "entities": [
                {"entity_type": "company", "name": "Acme Corp"},
                {"entity_type": "project", "name": "Project Falcon"},
                {"entity_type": "conversation", "conversation_id": "c1", "title": "Conversation c1"},
                {"entity_type": "conversation_message", "role": "user", "content": "Tell me", "turn_key": "c1:t1"},
                {"entity_type": "conversation_message", "role": "assistant", "content": "Sure", "turn_key": "c1:t1:assistant"},
            ],
            "idempotency_key": "seed",
        });
        s.store(&body, 1.0).expect("seeded");
        s
    }

    fn find(s: &EmbeddedStore, body: Value) -> Value {
        s.retrieve_entity_by_identifier(&body).expect("ok")
    }

    #[test]
    fn modes() {
        let s = seeded();
        let r = find(&s, json!({"identifier": "Acme Corp"}));
        assert_eq!(r["match_mode"], "snapshot_field");
        assert_eq!(r["entities"][0]["canonical_name"], "Acme");
        assert_eq!(r["entities"][0]["snapshot"], json!({"name": "Acme Corp"}));
        let r = find(&s, json!({"identifier": "acme"}));
        assert_eq!(r["match_mode"], "direct");
        assert_eq!(r["entities"][0]["snapshot"]["canonical_name"], "Acme Corp");
        let r = find(
            &s,
            json!({"identifier": "Acme Corp", "entity_type": "company"}),
        );
        assert_eq!(r["match_mode"], "direct");
        let r = find(&s, json!({"identifier": "c1"}));
        assert_eq!(r["total"], 3);
        let r = find(&s, json!({"identifier": "c1", "limit": 1}));
        assert_eq!(r["total"], 1);
        assert_eq!(r["entities"][0]["canonical_name"], "conversation:c1");
        let r = find(&s, json!({"identifier": "Tell"}));
        assert_eq!(r, json!({"entities": [], "total": 0, "match_mode": "none"}));
        let r = find(&s, json!({"identifier": "ent_000000000000000000000000"}));
        assert_eq!(r["hint"], ENTITY_ID_HINT);
        let r = find(
            &s,
            json!({"identifier": "c1:t1", "entity_type": "conversation_message", "by": "turn_key"}),
        );
        assert_eq!(r["match_mode"], "snapshot_field");
        assert_eq!(r["total"], 2);
    }

    #[test]
    fn by_id_and_observations() {
        let s = seeded();
        let id = s.entities[0].id.clone();
        let r = find(&s, json!({"identifier": id}));
        assert_eq!(r["match_mode"], "direct");
        assert!(r["entities"][0].get("aliases").is_none());
        assert_eq!(
            r["entities"][0]["snapshot"]["entity_id"],
            Value::from(id.clone())
        );
        let r = find(&s, json!({"identifier": id, "entity_type": "project"}));
        assert_eq!(r["match_mode"], "none");
        let r = find(
            &s,
            json!({"identifier": "Acme Corp", "include_observations": true, "observations_limit": 2}),
        );
        let obs = &r["entities"][0]["observations"];
        assert_eq!(obs.as_array().map(Vec::len), Some(1));
        assert_eq!(obs[0]["fields"], json!({"name": "Acme Corp"}));
        assert_eq!(obs[0]["observation_source"], "llm_summary");
    }

    #[test]
    fn validation() {
        let s = seeded();
        for bad in [
            json!({}),
            json!({"identifier": 1}),
            json!({"identifier": "  "}),
            json!({"identifier": "a", "limit": 0}),
            json!({"identifier": "a", "limit": 1.5}),
            json!({"identifier": "a", "limit": "1"}),
            json!({"identifier": "a", "entity_type": null}),
            json!({"identifier": "a", "include_observations": "yes"}),
            json!(["a"]),
        ] {
            let e = s.retrieve_entity_by_identifier(&bad).expect_err("invalid");
            assert_eq!(e.status, 400, "{bad}");
            assert_eq!(e.body["error_code"], "VALIDATION_INVALID_FORMAT");
        }
        let ok = find(&s, json!({"identifier": "Acme", "bogus_field": 1}));
        assert_eq!(ok["total"], 1);
    }
}
