//! Relationships: `POST /create_relationship`, `POST /create_relationships`,
//! `POST /retrieve_related_entities` (transcripts 05b–05e, 06a–06g, 12c).
//!
//! One edge per `(relationship_type, source, target)`, keyed `TYPE:source:target`. Creating an
//! existing edge again is idempotent; its `observation_count` counts distinct writers (each
//! `/store` source, and the relationship API as one writer), so an edge first stored by `/store`
//! and then created through the API has two observations (06e). Endpoints need not exist (a
//! dangling edge, 06f); dangling endpoints are never listed as entities.
//!
//! Ordering (the real server's is arbitrary): `retrieve_related_entities` lists relationships by
//! `relationship_key` and entities by last update, oldest first.

use super::errors::{self, invalid_issue, invalid_payload, invalid_type, Seg};
use super::time::{iso_ms, sanitize_ms};
use fnv::FnvHashSet;

use super::{list_of, push_to_list, EmbeddedStore, Response, USER_ID};
use serde_json::json;
use serde_json::{Map, Value};

/// The writer id of edges made through the relationship API.
const API_ORIGIN: &str = "api:create_relationship";

const DIRECTIONS: &[&str] = &["inbound", "outbound", "both"];

/// One edge.
#[derive(Debug, Clone)]
pub(crate) struct Relationship {
    pub key: String,
    pub relationship_type: String,
    pub source: String,
    pub target: String,
    /// Creation sequence (= index in `EmbeddedStore::relationships`).
    pub seq: usize,
    pub created_ms: f64,
    pub computed_ms: f64,
    pub last_observation_ms: f64,
    /// Distinct writers (`/store` source ids, or the API).
    pub origins: Vec<String>,
    /// Whether it made its source a message of its target conversation (`conversation_members`):
    /// only when both existed, as message and conversation, when it was created.
    pub conversation_member: bool,
}

impl Relationship {
    /// The relationship snapshot (transcript 06a).
    pub(crate) fn to_json(&self) -> Value {
        json!({
            "relationship_key": self.key,
            "relationship_type": self.relationship_type,
            "source_entity_id": self.source,
            "target_entity_id": self.target,
            "schema_version": "1.0",
            "snapshot": {},
            "computed_at": iso_ms(self.computed_ms),
            "observation_count": self.origins.len(),
            "last_observation_at": iso_ms(self.last_observation_ms),
            "provenance": {},
            "user_id": USER_ID,
            "is_live": 1,
        })
    }
}

/// A required non-empty string field, or an issue.
fn required_string<'a>(
    object: &'a Map<String, Value>,
    key: &'static str,
    base: &[Seg],
    issues: &mut Vec<Value>,
) -> Option<&'a str> {
    let mut path = base.to_vec();
    path.push(Seg::Key(key));
    match object.get(key) {
        Some(Value::String(s)) if !s.is_empty() => Some(s),
        Some(Value::String(_)) => {
            issues.push(errors::empty_string(&path));
            None
        }
        other => {
            issues.push(invalid_type("string", other, &path));
            None
        }
    }
}

/// `(relationship_type, source_entity_id, target_entity_id)` of one API relationship.
fn parse_edge<'a>(
    item: &'a Value,
    base: &[Seg],
    issues: &mut Vec<Value>,
) -> Option<(&'a str, &'a str, &'a str)> {
    let Value::Object(object) = item else {
        issues.push(invalid_type("object", Some(item), base));
        return None;
    };
    parse_edge_fields(object, base, issues)
}

fn parse_edge_fields<'a>(
    object: &'a Map<String, Value>,
    base: &[Seg],
    issues: &mut Vec<Value>,
) -> Option<(&'a str, &'a str, &'a str)> {
    let relationship_type = required_string(object, "relationship_type", base, issues);
    let source = required_string(object, "source_entity_id", base, issues);
    let target = required_string(object, "target_entity_id", base, issues);
    Some((relationship_type?, source?, target?))
}

/// The body as an object: a missing or non-JSON body is `{}`; an array or scalar is invalid.
pub(crate) fn body_object<'a>(
    body: &'a Value,
    empty: &'a Map<String, Value>,
    now: f64,
) -> Result<&'a Map<String, Value>, Response> {
    match body {
        Value::Object(m) => Ok(m),
        Value::Null | Value::String(_) => Ok(empty),
        other => Err(invalid_issue(invalid_type("object", Some(other), &[]), now)),
    }
}

impl EmbeddedStore {
    /// Creates the edge or records another writer of it; returns its index.
    pub(crate) fn upsert_relationship(
        &mut self,
        relationship_type: &str,
        source: &str,
        target: &str,
        origin: &str,
        now: f64,
    ) -> usize {
        let key = format!("{relationship_type}:{source}:{target}");
        if let Some(index) = self.relationship_index.get(&key).copied() {
            self.changes.relationship(index);
            if let Some(edge) = self.relationships.get_mut(index) {
                edge.computed_ms = now;
                if !edge.origins.iter().any(|o| o == origin) {
                    edge.origins.push(origin.to_string());
                    edge.last_observation_ms = now;
                }
            }
            return index;
        }
        let index = self.relationships.len();
        self.changes.relationship(index);
        let conversation_member = relationship_type == "PART_OF"
            && self
                .entity(source)
                .is_some_and(|e| e.entity_type == "conversation_message")
            && self
                .entity(target)
                .is_some_and(|e| e.entity_type == "conversation");
        self.index_relationship(Relationship {
            key,
            relationship_type: relationship_type.to_string(),
            source: source.to_string(),
            target: target.to_string(),
            seq: index,
            created_ms: now,
            computed_ms: now,
            last_observation_ms: now,
            origins: vec![origin.to_string()],
            conversation_member,
        });
        index
    }

    /// Appends a new edge and indexes it (also how a store read back from storage rebuilds
    /// its edge indexes, in creation order).
    pub(crate) fn index_relationship(&mut self, edge: Relationship) {
        let index = self.relationships.len();
        self.relationship_index.insert(edge.key.clone(), index);
        push_to_list(&mut self.outbound, &mut self.lists, &edge.source, index);
        push_to_list(&mut self.inbound, &mut self.lists, &edge.target, index);
        if edge.conversation_member {
            if let Some(message) = self.entity_index.get(&edge.source).copied() {
                push_to_list(
                    &mut self.conversation_members,
                    &mut self.lists,
                    &edge.target,
                    message,
                );
            }
        }
        self.relationships.push(edge);
    }

    fn relationship_json(&self, index: usize) -> Value {
        self.relationships
            .get(index)
            .map(Relationship::to_json)
            .unwrap_or(Value::Null)
    }

    /// `POST /create_relationship` (transcripts 06a, 06b, 06f): the relationship snapshot.
    pub fn create_relationship(&mut self, body: &Value, now_ms: f64) -> Result<Value, Response> {
        self.clock_ms = sanitize_ms(now_ms);
        let now = self.clock_ms;
        let empty = Map::new();
        let object = body_object(body, &empty, now)?;
        let mut issues = Vec::new();
        let edge = parse_edge_fields(object, &[], &mut issues);
        let Some((relationship_type, source, target)) = edge.filter(|_| issues.is_empty()) else {
            return Err(invalid_payload(issues, now));
        };
        let index = self.upsert_relationship(relationship_type, source, target, API_ORIGIN, now);
        Ok(self.relationship_json(index))
    }

    /// `POST /create_relationships` (transcripts 06d, 06e). The whole batch is validated first
    /// (any malformed item is a `400` and nothing is created); `errors` is therefore always empty.
    pub fn create_relationships(&mut self, body: &Value, now_ms: f64) -> Result<Value, Response> {
        self.clock_ms = sanitize_ms(now_ms);
        let now = self.clock_ms;
        let empty = Map::new();
        let object = body_object(body, &empty, now)?;
        let items = match object.get("relationships") {
            Some(Value::Array(items)) if !items.is_empty() => items,
            Some(Value::Array(_)) => {
                return Err(invalid_issue(
                    errors::empty_array(&[Seg::Key("relationships")]),
                    now,
                ))
            }
            other => {
                return Err(invalid_issue(
                    invalid_type("array", other, &[Seg::Key("relationships")]),
                    now,
                ))
            }
        };
        let mut issues = Vec::new();
        let mut edges = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            if let Some(edge) = parse_edge(
                item,
                &[Seg::Key("relationships"), Seg::Index(i)],
                &mut issues,
            ) {
                edges.push(edge);
            }
        }
        if !issues.is_empty() {
            return Err(invalid_payload(issues, now));
        }
        let mut created = Vec::with_capacity(edges.len());
        for (i, (relationship_type, source, target)) in edges.into_iter().enumerate() {
            let index =
                self.upsert_relationship(relationship_type, source, target, API_ORIGIN, now);
            let mut item = Map::new();
            item.insert("index".into(), Value::from(i));
            if let Value::Object(fields) = self.relationship_json(index) {
                item.extend(fields);
            }
            created.push(Value::Object(item));
        }
        Ok(json!({
            "success": true,
            "requested": items.len(),
            "created_count": created.len(),
            "error_count": 0,
            "relationships": created,
            "errors": [],
        }))
    }

    /// `POST /retrieve_related_entities` `{entity_id, direction?: inbound|outbound|both,
    /// relationship_types?: [..]}` -> `{relationships, entities}` (one hop).
    pub fn retrieve_related_entities(&self, body: &Value) -> Result<Value, Response> {
        let now = self.clock_ms;
        let empty = Map::new();
        let object = body_object(body, &empty, now)?;
        let mut issues = Vec::new();
        let entity_id = required_string(object, "entity_id", &[], &mut issues);
        let direction = match object.get("direction") {
            None => "both",
            Some(Value::String(d)) if DIRECTIONS.contains(&d.as_str()) => d.as_str(),
            Some(Value::String(d)) => {
                issues.push(errors::invalid_enum(
                    DIRECTIONS,
                    d,
                    &[Seg::Key("direction")],
                ));
                "both"
            }
            other => {
                issues.push(invalid_type("string", other, &[Seg::Key("direction")]));
                "both"
            }
        };
        let mut types: Option<Vec<&str>> = None;
        match object.get("relationship_types") {
            None => {}
            Some(Value::Array(items)) => {
                let mut list = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    match item {
                        Value::String(t) => list.push(t.as_str()),
                        other => issues.push(invalid_type(
                            "string",
                            Some(other),
                            &[Seg::Key("relationship_types"), Seg::Index(i)],
                        )),
                    }
                }
                types = Some(list);
            }
            other => issues.push(invalid_type(
                "array",
                other,
                &[Seg::Key("relationship_types")],
            )),
        }
        let Some(entity_id) = entity_id.filter(|_| issues.is_empty()) else {
            return Err(invalid_payload(issues, now));
        };

        let mut chosen: Vec<usize> = Vec::new();
        if direction != "inbound" {
            chosen.extend_from_slice(list_of(&self.outbound, &self.lists, entity_id));
        }
        if direction != "outbound" {
            for index in list_of(&self.inbound, &self.lists, entity_id) {
                // An edge in both lists goes from the entity to itself: listed once.
                let listed = direction != "inbound"
                    && self
                        .relationships
                        .get(*index)
                        .is_some_and(|edge| edge.source == entity_id);
                if !listed {
                    chosen.push(*index);
                }
            }
        }
        // Plain loops: iterator adapters are instantiated (and linked) per closure.
        let mut edges = Vec::new();
        for index in chosen {
            let Some(edge) = self.relationships.get(index) else {
                continue;
            };
            if types
                .as_ref()
                .is_none_or(|types| types.contains(&edge.relationship_type.as_str()))
            {
                edges.push(edge);
            }
        }
        edges.sort_unstable_by(|a, b| a.key.cmp(&b.key));

        let mut seen = FnvHashSet::default();
        let mut related = Vec::new();
        for edge in &edges {
            let other = if edge.source == entity_id {
                edge.target.as_str()
            } else {
                edge.source.as_str()
            };
            if other != entity_id && seen.insert(other) {
                if let Some(entity) = self.entity(other) {
                    related.push(entity);
                }
            }
        }
        related.sort_unstable_by(|a, b| {
            a.updated_ms
                .total_cmp(&b.updated_ms)
                .then(a.seq.cmp(&b.seq))
        });
        let mut relationships = Vec::with_capacity(edges.len());
        for edge in edges {
            relationships.push(edge.to_json());
        }
        let mut entities = Vec::with_capacity(related.len());
        for entity in related {
            entities.push(entity.row_json());
        }
        Ok(json!({
            "relationships": relationships,
            "entities": entities,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(t: &str, s: &str, d: &str) -> Value {
        json!({"relationship_type": t, "source_entity_id": s, "target_entity_id": d})
    }

    #[test]
    fn create_is_idempotent_and_dangling_is_fine() {
        let mut s = EmbeddedStore::new();
        let a = s
            .create_relationship(&edge("REFERS_TO", "ent_a", "ent_b"), 1.0)
            .expect("ok");
        let b = s
            .create_relationship(&edge("REFERS_TO", "ent_a", "ent_b"), 2.0)
            .expect("ok");
        assert_eq!(a["relationship_key"], "REFERS_TO:ent_a:ent_b");
        assert_eq!(b["observation_count"], 1);
        assert_eq!(b["last_observation_at"], a["last_observation_at"]);
        assert_ne!(b["computed_at"], a["computed_at"]);
        assert_eq!(s.relationships.len(), 1);
        let related = s
            .retrieve_related_entities(&json!({"entity_id": "ent_a"}))
            .expect("ok");
        assert_eq!(related["relationships"].as_array().map(Vec::len), Some(1));
        assert_eq!(related["entities"], json!([]));
    }

    #[test]
    fn batch_and_validation() {
        let mut s = EmbeddedStore::new();
        let r = s
            .create_relationships(
                &json!({"relationships": [edge("A", "x", "y"), edge("A", "x", "y"), edge("B", "y", "x")]}),
                1.0,
            )
            .expect("ok");
        assert_eq!(r["requested"], 3);
        assert_eq!(r["created_count"], 3);
        assert_eq!(r["relationships"][1]["index"], 1);
        assert_eq!(s.relationships.len(), 2);
        for bad in [
            json!({}),
            json!({"relationships": []}),
            json!({"relationships": [1]}),
            json!({"relationships": [{"relationship_type": "A", "source_entity_id": "x"}]}),
            json!([1]),
        ] {
            let e = s.create_relationships(&bad, 2.0).expect_err("invalid");
            assert_eq!(e.status, 400, "{bad}");
        }
        assert_eq!(s.relationships.len(), 2);
        for bad in [
            json!({}),
            json!(null),
            json!("x"),
            json!([]),
            edge("", "a", "b"),
        ] {
            let e = s.create_relationship(&bad, 2.0).expect_err("invalid");
            assert_eq!(e.status, 400, "{bad}");
        }
        let e = s
            .retrieve_related_entities(&json!({"entity_id": "x", "direction": "up"}))
            .expect_err("invalid");
        assert_eq!(
            e.body["details"]["issues"][0]["message"],
            "Invalid enum value. Expected 'inbound' | 'outbound' | 'both', received 'up'"
        );
        for bad in [
            json!({}),
            json!({"entity_id": "x", "direction": "up"}),
            json!({"entity_id": "x", "relationship_types": "A"}),
            json!({"entity_id": "x", "relationship_types": [1]}),
            json!({"entity_id": 1}),
        ] {
            let e = s.retrieve_related_entities(&bad).expect_err("invalid");
            assert_eq!(e.status, 400, "{bad}");
        }
    }

    #[test]
    fn directions_and_types() {
        let mut s = EmbeddedStore::new();
        s.upsert_relationship("A", "x", "y", "o", 1.0);
        s.upsert_relationship("B", "y", "x", "o", 1.0);
        s.upsert_relationship("A", "x", "x", "o", 1.0);
        let count = |body: Value| {
            s.retrieve_related_entities(&body).expect("ok")["relationships"]
                .as_array()
                .map(Vec::len)
                .unwrap_or(0)
        };
        assert_eq!(count(json!({"entity_id": "x"})), 3);
        assert_eq!(count(json!({"entity_id": "x", "direction": "outbound"})), 2);
        assert_eq!(count(json!({"entity_id": "x", "direction": "inbound"})), 2);
        assert_eq!(
            count(json!({"entity_id": "x", "relationship_types": ["B"]})),
            1
        );
    }
}
