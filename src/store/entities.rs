//! Entities, observations, snapshots and `POST /store` (with idempotency), `POST /get_entity_snapshot`.
//!
//! Every entity object of a `/store` becomes one observation of the entity it resolves to (see
//! `schema` for identity). An entity's snapshot is the merge of its observations' declared
//! fields, latest write wins; `provenance` maps each snapshot field to the observation that set
//! it. The same `idempotency_key` with the same entities replays the first answer (nothing is
//! written, relationships included); with different entities it is `400 ERR_IDEMPOTENCY_MISMATCH`.
//! A replay lists the first write's entities newest observation first, without
//! `observation_index`/`action`/`relationships_created`, each `deduplicated: true`, with the
//! entity's current snapshot as `entity_snapshot_after`.
//!
//! Store warnings: `UNKNOWN_FIELD` (a field a closed schema lacks, dropped from the snapshot),
//! `SOURCE_PRIORITY_ESCALATION` (a priority-ranked field written at the default priority 100) and
//! `MISSING_REQUIRED_FIELD` (a required field absent from the snapshot, e.g. `project` without
//! `status`), with the texts the real server uses. `commit: false` computes the
//! answer on a scratch copy and writes nothing.

use super::errors::{self, invalid_issue, invalid_payload, invalid_type, Seg};
use super::relationships::body_object;
use super::schema::{self, display_name, schema_for, Identity};
use super::time::{iso_ms, sanitize_ms};
use super::{identity_slot, EmbeddedStore, Response, USER_ID};
use crate::protocol::payload::to_value;
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::borrow::Cow;

/// The top-level fields `POST /store` accepts (transcript 07e, in the server's order).
const STORE_FIELDS: &[&str] = &[
    "commit",
    "entities",
    "external_actor",
    "file_content",
    "file_idempotency_key",
    "file_path",
    "idempotency_key",
    "interpretation",
    "mime_type",
    "observation_source",
    "original_filename",
    "relationships",
    "source_peer_id",
    "source_priority",
    "source_storage",
    "strict",
    "user_id",
];

const DEFAULT_OBSERVATION_SOURCE: &str = "llm_summary";
const DEFAULT_SOURCE_PRIORITY: i64 = 100;

const NO_ENTITIES: &str =
    "Must provide either entities, file_path, or file_content with mime_type (or use intake.mode='overflow')";

/// A `/store` answer that wrote something (transcripts 01, 04a, 04b): the fields after
/// `store_warnings` appear only when there is something to say.
#[derive(Serialize)]
struct StoreAnswer {
    success: bool,
    replayed: bool,
    commit: bool,
    source_id: String,
    entities_created: usize,
    observations_created: usize,
    entities: Vec<Value>,
    relationships_created: Vec<Value>,
    store_warnings: Vec<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unknown_fields_count: Option<usize>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    unknown_fields: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    required_fields_missing: Vec<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    conversation_message_count: Option<usize>,
}

const UNKNOWN_FIELDS_HINT: &str = "Undeclared fields are preserved on the observation but excluded from the entity snapshot. To promote them, call update_schema_incremental to add the fields to the schema, then set migrate_existing: true to backfill existing observations. If an existing declared field already fits the data, prefer correct()-ing into that field.";

/// One entity.
#[derive(Debug, Clone)]
pub(crate) struct Entity {
    pub id: String,
    pub entity_type: String,
    pub canonical_name: String,
    /// `canonical_name` lowercased, for substring lookups.
    pub canonical_lower: String,
    /// The resolution key it is found by (`identity_index`); `None` = never matched.
    pub identity_key: Option<String>,
    /// Borrowed from the schema table, owned when read back from storage.
    pub schema_version: Cow<'static, str>,
    /// Creation sequence (= index in `EmbeddedStore::entities`).
    pub seq: usize,
    pub created_ms: f64,
    /// Time of the latest observation.
    pub updated_ms: f64,
    pub snapshot: Map<String, Value>,
    /// Snapshot field -> id of the observation that set it.
    pub provenance: Map<String, Value>,
    /// Indexes into `EmbeddedStore::observations`, oldest first.
    pub observations: Vec<usize>,
}

/// One observation: the fields one `/store` wrote about one entity (undeclared fields included).
#[derive(Debug, Clone)]
pub(crate) struct Observation {
    pub id: String,
    /// Index into `EmbeddedStore::entities`.
    pub entity: usize,
    pub source_id: String,
    pub observed_ms: f64,
    pub fields: Map<String, Value>,
    pub identity_basis: Cow<'static, str>,
    pub identity_rule: Cow<'static, str>,
    pub observation_source: String,
    pub source_priority: Value,
}

/// What an idempotency key committed: the source and one observation per entity object.
#[derive(Debug, Clone)]
pub(crate) struct IdempotencyRecord {
    pub key: String,
    pub source_id: String,
    pub observations: Vec<usize>,
}

/// A relationship endpoint of a `/store` relationship.
#[derive(Debug, Clone, Copy)]
enum Endpoint<'a> {
    Index(f64),
    Id(&'a str),
}

struct RelationshipInput<'a> {
    relationship_type: &'a str,
    source: Endpoint<'a>,
    target: Endpoint<'a>,
}

struct EntityInput<'a> {
    object: &'a Map<String, Value>,
    /// `None` when absent, null or empty (a `500 DB_QUERY_FAILED` once the shape is valid).
    entity_type: Option<&'a str>,
}

/// A `/store` body that passed shape validation.
struct StoreRequest<'a> {
    entities: Vec<EntityInput<'a>>,
    relationships: Vec<RelationshipInput<'a>>,
    idempotency_key: Option<&'a str>,
    commit: bool,
    observation_source: Option<&'a str>,
    source_priority: Option<&'a Value>,
    has_file: bool,
}

fn endpoint<'a>(
    item: &'a Map<String, Value>,
    index_key: &'static str,
    id_key: &'static str,
    base: &[Seg],
    issues: &mut Vec<Value>,
) -> Option<Endpoint<'a>> {
    match (item.get(index_key), item.get(id_key)) {
        (Some(Value::Number(n)), _) => Some(Endpoint::Index(n.as_f64().unwrap_or(-1.0))),
        (_, Some(Value::String(id))) => Some(Endpoint::Id(id)),
        _ => {
            issues.push(errors::endpoint_union(item, index_key, id_key, base));
            None
        }
    }
}

/// zod-like shape validation of a `/store` body.
fn parse_store_request(body: &Map<String, Value>) -> Result<StoreRequest<'_>, Vec<Value>> {
    let mut issues = Vec::new();
    let mut entities = Vec::new();
    match body.get("entities") {
        None => {}
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                let Value::Object(object) = item else {
                    issues.push(invalid_type(
                        "object",
                        Some(item),
                        &[Seg::Key("entities"), Seg::Index(i)],
                    ));
                    continue;
                };
                let entity_type = match object.get("entity_type") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(t)) => Some(t.as_str()).filter(|t| !t.trim().is_empty()),
                    Some(other) => {
                        issues.push(invalid_type(
                            "string",
                            Some(other),
                            &[Seg::Key("entities"), Seg::Index(i), Seg::Key("entity_type")],
                        ));
                        None
                    }
                };
                entities.push(EntityInput {
                    object,
                    entity_type,
                });
            }
        }
        Some(other) => issues.push(invalid_type("array", Some(other), &[Seg::Key("entities")])),
    }

    let mut relationships = Vec::new();
    match body.get("relationships") {
        None => {}
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                let base = [Seg::Key("relationships"), Seg::Index(i)];
                let Value::Object(object) = item else {
                    issues.push(invalid_type("object", Some(item), &base));
                    continue;
                };
                let relationship_type = match object.get("relationship_type") {
                    Some(Value::String(t)) => Some(t.as_str()),
                    other => {
                        issues.push(invalid_type(
                            "string",
                            other,
                            &[
                                Seg::Key("relationships"),
                                Seg::Index(i),
                                Seg::Key("relationship_type"),
                            ],
                        ));
                        None
                    }
                };
                let source = endpoint(
                    object,
                    "source_index",
                    "source_entity_id",
                    &base,
                    &mut issues,
                );
                let target = endpoint(
                    object,
                    "target_index",
                    "target_entity_id",
                    &base,
                    &mut issues,
                );
                if let (Some(relationship_type), Some(source), Some(target)) =
                    (relationship_type, source, target)
                {
                    relationships.push(RelationshipInput {
                        relationship_type,
                        source,
                        target,
                    });
                }
            }
        }
        Some(other) => issues.push(invalid_type(
            "array",
            Some(other),
            &[Seg::Key("relationships")],
        )),
    }

    let idempotency_key = match body.get("idempotency_key") {
        None | Some(Value::Null) => None,
        Some(Value::String(k)) => Some(k.as_str()).filter(|k| !k.is_empty()),
        Some(other) => {
            issues.push(invalid_type(
                "string",
                Some(other),
                &[Seg::Key("idempotency_key")],
            ));
            None
        }
    };
    let commit = match body.get("commit") {
        None => true,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            issues.push(invalid_type("boolean", Some(other), &[Seg::Key("commit")]));
            true
        }
    };
    let observation_source = match body.get("observation_source") {
        None => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(other) => {
            issues.push(invalid_type(
                "string",
                Some(other),
                &[Seg::Key("observation_source")],
            ));
            None
        }
    };
    let source_priority = match body.get("source_priority") {
        None => None,
        Some(v @ Value::Number(_)) => Some(v),
        Some(other) => {
            issues.push(invalid_type(
                "number",
                Some(other),
                &[Seg::Key("source_priority")],
            ));
            None
        }
    };
    let has_file = ["file_path", "file_content"]
        .iter()
        .any(|k| matches!(body.get(*k), Some(Value::String(s)) if !s.is_empty()));

    if issues.is_empty() {
        Ok(StoreRequest {
            entities,
            relationships,
            idempotency_key,
            commit,
            observation_source,
            source_priority,
            has_file,
        })
    } else {
        Err(issues)
    }
}

/// The entity object's fields without `entity_type`, compared to an observation's, without
/// cloning (for idempotency).
fn same_fields(object: &Map<String, Value>, fields: &Map<String, Value>) -> bool {
    let mut own = 0;
    for (k, v) in object {
        if k != "entity_type" {
            if fields.get(k) != Some(v) {
                return false;
            }
            own += 1;
        }
    }
    own == fields.len()
}

fn warning(code: &str, message: String, index: usize, entity: &Entity) -> Value {
    json!({
        "code": code,
        "message": message,
        "observation_index": index,
        "entity_type": entity.entity_type,
        "entity_id": entity.id,
    })
}

fn unknown_field_message(entity_type: &str, field: &str) -> String {
    format!(
        "{entity_type} stored with field \"{field}\" that is not declared on its active schema. The value is preserved on the observation but is dropped from the entity snapshot until the field is added to the schema. To surface it: re-store or correct() the data into an already-declared field, or add the field via register_schema (or update_schema_incremental when the schema declares canonical_name_fields)."
    )
}

fn priority_message(entity_type: &str, fields: &[&str]) -> String {
    let mut ranked = String::new();
    for field in fields {
        if !ranked.is_empty() {
            ranked.push_str(", ");
        }
        ranked.push('\'');
        ranked.push_str(field);
        ranked.push_str("' uses highest_priority");
    }
    format!(
        "{entity_type} written at the default source_priority 100 into field(s) that rank by priority — {}. A default/non-explicit priority 100 OUTRANKS any prior observation written with an explicit lower priority (e.g. a trusted import at 50), silently escalating this write's trust. Note: an explicit source_priority of 100 is indistinguishable from the default at write time, so this advisory fires on both. To make ranking intentional, pass an explicit --source-priority (CLI) / source_priority (API) reflecting how this write should rank against others — see docs/subsystems/conflict_resolution.md.",
        ranked
    )
}

fn missing_required_message(entity_type: &str, field: &str) -> String {
    format!(
        "{entity_type} stored without required field \"{field}\". The schema marks this field required; the write was accepted but the entity is incomplete. Use correct() to supply the missing field."
    )
}

impl Entity {
    /// The entity row (`retrieve_related_entities`, direct identifier hits).
    pub(crate) fn row_json(&self) -> Value {
        json!({
            "id": self.id,
            "entity_type": self.entity_type,
            "canonical_name": self.canonical_name,
            "aliases": [],
            "created_at": iso_ms(self.created_ms),
            "updated_at": iso_ms(self.updated_ms),
            "user_id": USER_ID,
            "first_seen_at": null,
            "last_seen_at": null,
            "merged_to_entity_id": null,
            "merged_at": null,
            "merged_into": null,
        })
    }

    /// The snapshot record (`get_entity_snapshot`; nested `snapshot` of direct hits).
    pub(crate) fn snapshot_json(&self) -> Value {
        json!({
            "entity_id": self.id,
            "entity_type": self.entity_type,
            "schema_version": self.schema_version,
            "canonical_name": display_name(&self.snapshot),
            "snapshot": self.snapshot,
            "computed_at": iso_ms(self.updated_ms),
            "observation_count": self.observations.len(),
            "last_observation_at": iso_ms(self.updated_ms),
            "provenance": self.provenance,
            "user_id": USER_ID,
        })
    }

    /// The name a listing shows: the display name, else the canonical name.
    pub(crate) fn label(&self) -> &str {
        display_name(&self.snapshot).unwrap_or(&self.canonical_name)
    }
}

impl EmbeddedStore {
    pub(crate) fn entity(&self, id: &str) -> Option<&Entity> {
        self.entity_index
            .get(id)
            .and_then(|i| self.entities.get(*i))
    }

    /// Observation `index` and its entity.
    fn observed(&self, index: usize) -> Option<(&Observation, &Entity)> {
        let observation = self.observations.get(index)?;
        Some((observation, self.entities.get(observation.entity)?))
    }

    /// An observation as `include_observations` lists it (transcript 10g).
    pub(crate) fn observation_json(&self, index: usize) -> Option<Value> {
        let (observation, entity) = self.observed(index)?;
        Some(json!({
            "id": observation.id,
            "entity_id": entity.id,
            "entity_type": entity.entity_type,
            "schema_version": entity.schema_version,
            "source_id": observation.source_id,
            "interpretation_id": null,
            "observed_at": iso_ms(observation.observed_ms),
            "specificity_score": 1,
            "source_priority": observation.source_priority,
            "observation_source": observation.observation_source,
            "fields": observation.fields,
            "created_at": iso_ms(observation.observed_ms),
            "user_id": USER_ID,
            "idempotency_key": null,
            "canonical_hash": null,
            "identity_basis": observation.identity_basis,
            "identity_rule": observation.identity_rule,
            "provenance": null,
            "source_peer_id": null,
            "canonical_key": null,
            "sighting_source_id": null,
        }))
    }

    /// `POST /store`. `Err` is the non-2xx answer.
    pub fn store(&mut self, body: &Value, now_ms: f64) -> Result<Value, Response> {
        self.clock_ms = sanitize_ms(now_ms);
        let now = self.clock_ms;
        let empty = Map::new();
        // express leaves a non-JSON body (e.g. text/plain, transcript 07m) as `{}`.
        let object = body_object(body, &empty, now)?;

        let mut unknown = Vec::new();
        let mut paths = Vec::new();
        for key in object.keys() {
            if !STORE_FIELDS.contains(&key.as_str()) {
                unknown.push(Value::from(key.as_str()));
                paths.push(Value::String(format!("$.{key}")));
            }
        }
        if !unknown.is_empty() {
            return Err(errors::error(
                400,
                "ERR_UNKNOWN_FIELD",
                "Request body contains field(s) not declared by POST /store.",
                now,
                Some(json!({
                    "unknown_fields": unknown,
                    "json_paths": paths,
                    "allowed_fields": STORE_FIELDS,
                    "operation": "POST /store",
                })),
            ));
        }

        let request = parse_store_request(object).map_err(|issues| invalid_payload(issues, now))?;
        if request.entities.is_empty() {
            if request.has_file {
                return Err(errors::error(
                    501,
                    "NOT_IMPLEMENTED",
                    "The embedded store does not ingest files (file_path/file_content); store entities instead.",
                    now,
                    None,
                ));
            }
            return Err(invalid_issue(
                json!({"code": "custom", "message": NO_ENTITIES, "path": []}),
                now,
            ));
        }
        let Some(key) = request.idempotency_key else {
            return Err(errors::error(
                400,
                "VALIDATION_ERROR",
                "idempotency_key is required when entities are provided",
                now,
                None,
            ));
        };
        if request.entities.iter().any(|e| e.entity_type.is_none()) {
            return Err(errors::error(
                500,
                "DB_QUERY_FAILED",
                "entity_type is required for each entity",
                now,
                None,
            ));
        }

        if let Some(record) = self
            .idempotency
            .get(key)
            .and_then(|i| self.idempotency_records.get(*i))
        {
            return self.replay(key, record, &request);
        }

        if request.commit {
            Ok(self.write(&request, key, now))
        } else {
            // A dry run: the same answer, computed on a scratch copy that is dropped.
            let mut scratch = self.clone();
            let mut answer = scratch.write(&request, key, now);
            if let Some(map) = answer.as_object_mut() {
                map.insert("commit".into(), Value::Bool(false));
            }
            Ok(answer)
        }
    }

    /// The answer to a repeated idempotency key (transcripts 02, 03, 12b).
    fn replay(
        &self,
        key: &str,
        record: &IdempotencyRecord,
        request: &StoreRequest<'_>,
    ) -> Result<Value, Response> {
        // Plain loops: iterator adapters are instantiated (and linked) per closure.
        if record.observations.len() != request.entities.len() {
            return Err(errors::idempotency_mismatch(key));
        }
        for (position, input) in request.entities.iter().enumerate() {
            let same = record
                .observations
                .get(position)
                .and_then(|index| self.observed(*index))
                .is_some_and(|(observation, entity)| {
                    Some(entity.entity_type.as_str()) == input.entity_type
                        && same_fields(input.object, &observation.fields)
                });
            if !same {
                return Err(errors::idempotency_mismatch(key));
            }
        }
        let mut entities = Vec::with_capacity(record.observations.len());
        for index in record.observations.iter().rev() {
            if let Some((observation, entity)) = self.observed(*index) {
                entities.push(json!({
                    "entity_id": entity.id,
                    "entity_type": entity.entity_type,
                    "observation_id": observation.id,
                    "entity_snapshot_after": entity.snapshot,
                    "deduplicated": true,
                }));
            }
        }
        Ok(json!({
            "success": true,
            "replayed": true,
            "source_id": record.source_id,
            "entities_created": 0,
            "observations_created": record.observations.len(),
            "entities": entities,
        }))
    }

    /// Creates an entity for `identity` and indexes it.
    fn create_entity(&mut self, entity_type: &str, identity: &Identity, now: f64) -> usize {
        let salt = identity.key.as_deref().unwrap_or(entity_type);
        let mut id = self.ids.entity_id(now, salt);
        while self.entity_index.contains_key(&id) {
            id = self.ids.entity_id(now, salt);
        }
        let canonical_name = identity
            .canonical_name
            .clone()
            .unwrap_or_else(|| format!("{entity_type}:{id}"));
        let seq = self.entities.len();
        self.entity_index.insert(id.clone(), seq);
        if let Some(key) = &identity.key {
            self.identity_index
                .insert(identity_slot(entity_type, key), seq);
        }
        let canonical_lower = canonical_name.to_lowercase();
        self.search.add_text(seq, &canonical_lower);
        self.entities.push(Entity {
            id,
            entity_type: entity_type.to_string(),
            canonical_lower,
            canonical_name,
            identity_key: identity.key.clone(),
            schema_version: Cow::Borrowed(schema_for(entity_type).schema_version),
            seq,
            created_ms: now,
            updated_ms: now,
            snapshot: Map::new(),
            provenance: Map::new(),
            observations: Vec::new(),
        });
        self.search.add_name(&self.entities, seq);
        seq
    }

    /// A fresh write (transcripts 01, 04a, 05a, 10a).
    fn write(&mut self, request: &StoreRequest<'_>, key: &str, now: f64) -> Value {
        let source_id = self.ids.uuid(now, key);
        let observation_source = request
            .observation_source
            .unwrap_or(DEFAULT_OBSERVATION_SOURCE)
            .to_string();
        let source_priority = request
            .source_priority
            .cloned()
            .unwrap_or_else(|| Value::from(DEFAULT_SOURCE_PRIORITY));
        let default_priority = source_priority.as_f64() == Some(DEFAULT_SOURCE_PRIORITY as f64);

        let mut entity_indexes = Vec::with_capacity(request.entities.len());
        let mut observation_indexes = Vec::with_capacity(request.entities.len());
        let mut items = Vec::with_capacity(request.entities.len());
        let mut warnings = Vec::new();
        let mut unknown_fields: Vec<String> = Vec::new();
        let mut required_missing = Vec::new();
        let mut created = 0usize;

        for (position, input) in request.entities.iter().enumerate() {
            let entity_type = input.entity_type.unwrap_or_default();
            let schema = schema_for(entity_type);
            // Copied member by member: `BTreeMap::remove` would link its code for this alone.
            let mut fields = Map::new();
            for (field, value) in input.object {
                if field != "entity_type" {
                    fields.insert(field.clone(), value.clone());
                }
            }
            let identity = schema::identity(entity_type, &fields);
            let existing = identity
                .key
                .as_ref()
                .and_then(|k| self.identity_index.get(&identity_slot(entity_type, k)))
                .copied();
            let (index, action) = match existing {
                Some(index) => (index, "matched_existing"),
                None => {
                    created += 1;
                    (self.create_entity(entity_type, &identity, now), "created")
                }
            };

            let salt = format!("{source_id}:{position}");
            let observation_id = self.ids.uuid(now, &salt);
            let observation_index = self.observations.len();
            let mut unknown_here = Vec::new();
            let mut priority_here = Vec::new();
            let Some(entity) = self.entities.get_mut(index) else {
                continue;
            };
            for (field, value) in &fields {
                if schema.declares(field) {
                    self.search
                        .add_field(index, &entity.canonical_lower, field, value);
                    entity.snapshot.insert(field.clone(), value.clone());
                    entity
                        .provenance
                        .insert(field.clone(), Value::from(observation_id.clone()));
                    if let Some(p) = schema.priority_fields.iter().find(|p| **p == field) {
                        priority_here.push(*p);
                    }
                } else {
                    unknown_here.push(field.clone());
                }
            }
            entity.updated_ms = now;
            entity.observations.push(observation_index);
            self.changes.entity(index);

            for field in &unknown_here {
                warnings.push(warning(
                    "UNKNOWN_FIELD",
                    unknown_field_message(entity_type, field),
                    position,
                    entity,
                ));
                if !unknown_fields.contains(field) {
                    unknown_fields.push(field.clone());
                }
            }
            if !priority_here.is_empty() && default_priority {
                warnings.push(warning(
                    "SOURCE_PRIORITY_ESCALATION",
                    priority_message(entity_type, &priority_here),
                    position,
                    entity,
                ));
            }
            for field in schema.required {
                if !entity.snapshot.contains_key(*field) {
                    warnings.push(warning(
                        "MISSING_REQUIRED_FIELD",
                        missing_required_message(entity_type, field),
                        position,
                        entity,
                    ));
                    required_missing.push(json!({
                        "entity_type": entity_type,
                        "field": field,
                        "observation_index": position,
                    }));
                }
            }

            let resolver_tail = if action == "created" {
                "existing_row:none"
            } else {
                "existing_row:matched"
            };
            items.push(json!({
                "entity_id": entity.id,
                "entity_type": entity.entity_type,
                "observation_id": observation_id,
                "observation_index": position,
                "action": action,
                "canonical_name": entity.canonical_name,
                "resolver_path": [identity.resolver, resolver_tail],
                "identity_basis": identity.basis,
                "identity_rule": identity.rule,
                "entity_snapshot_after": entity.snapshot,
            }));

            self.observations.push(Observation {
                id: observation_id,
                entity: index,
                source_id: source_id.clone(),
                observed_ms: now,
                fields,
                identity_basis: Cow::Borrowed(identity.basis),
                identity_rule: Cow::Borrowed(identity.rule),
                observation_source: observation_source.clone(),
                source_priority: source_priority.clone(),
            });
            entity_indexes.push(index);
            observation_indexes.push(observation_index);
        }

        // Relationships: an index endpoint out of range drops the edge silently (07g); an id
        // endpoint need not exist (a dangling edge, as with /create_relationship).
        let mut relationships_created = Vec::new();
        let mut part_of_target: Option<String> = None;
        for relationship in &request.relationships {
            let resolve = |endpoint: Endpoint<'_>| -> Option<String> {
                match endpoint {
                    Endpoint::Id(id) => Some(id.to_string()),
                    Endpoint::Index(i) => {
                        if i >= 0.0 && i.fract() == 0.0 && i < entity_indexes.len() as f64 {
                            entity_indexes
                                .get(i as usize)
                                .and_then(|e| self.entities.get(*e))
                                .map(|e| e.id.clone())
                        } else {
                            None
                        }
                    }
                }
            };
            let (Some(source), Some(target)) =
                (resolve(relationship.source), resolve(relationship.target))
            else {
                continue;
            };
            self.upsert_relationship(
                relationship.relationship_type,
                &source,
                &target,
                &source_id,
                now,
            );
            if part_of_target.is_none()
                && relationship.relationship_type == "PART_OF"
                && self.entity(&source).map(|e| e.entity_type.as_str())
                    == Some("conversation_message")
                && self.entity(&target).map(|e| e.entity_type.as_str()) == Some("conversation")
            {
                part_of_target = Some(target.clone());
            }
            relationships_created.push(json!({
                "relationship_type": relationship.relationship_type,
                "source_entity_id": source,
                "target_entity_id": target,
            }));
        }

        self.idempotency
            .insert(key.to_string(), self.idempotency_records.len());
        self.idempotency_records.push(IdempotencyRecord {
            key: key.to_string(),
            source_id: source_id.clone(),
            observations: observation_indexes,
        });

        let unknown = !unknown_fields.is_empty();
        let answer = StoreAnswer {
            success: true,
            replayed: false,
            commit: true,
            source_id,
            entities_created: created,
            observations_created: items.len(),
            entities: items,
            relationships_created,
            store_warnings: warnings,
            unknown_fields_count: unknown.then_some(unknown_fields.len()),
            unknown_fields,
            hint: unknown.then_some(UNKNOWN_FIELDS_HINT),
            required_fields_missing: required_missing,
            conversation_message_count: part_of_target
                .map(|conversation| self.conversation_message_count(&conversation)),
        };
        to_value(&answer)
    }

    /// `POST /get_entity_snapshot` (transcripts 07h2, 07i2, 07j, 10f).
    pub fn get_entity_snapshot(&self, body: &Value) -> Result<Value, Response> {
        let now = self.clock_ms;
        let entity_id = match body.get("entity_id") {
            Some(Value::String(id)) if !id.is_empty() => id,
            Some(Value::String(_)) => {
                return Err(invalid_issue(
                    errors::empty_string(&[Seg::Key("entity_id")]),
                    now,
                ))
            }
            other => {
                return Err(invalid_issue(
                    invalid_type("string", other, &[Seg::Key("entity_id")]),
                    now,
                ))
            }
        };
        match self.entity(entity_id) {
            Some(entity) => Ok(entity.snapshot_json()),
            None => Err(errors::not_found("Entity not found", now)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(content: &str, turn_key: &str, key: &str) -> Value {
        json!({
            "entities": [
                {"entity_type": "conversation", "conversation_id": "c1", "title": "Conversation c1", "platform": "test"},
                {"entity_type": "conversation_message", "role": "user", "sender_kind": "user", "content": content, "turn_key": turn_key},
            ],
            "relationships": [{"relationship_type": "PART_OF", "source_index": 1, "target_index": 0}],
            "idempotency_key": key,
        })
    }

    #[test]
    fn fresh_write_then_replay_then_mismatch() {
        let mut s = EmbeddedStore::new();
        let a = s.store(&turn("hi", "c1:t1", "k1"), 10.0).expect("stored");
        assert_eq!(a["entities_created"], 2);
        assert_eq!(a["entities"][0]["canonical_name"], "conversation:c1");
        assert_eq!(
            a["entities"][0]["entity_snapshot_after"],
            json!({"conversation_id": "c1", "title": "Conversation c1"})
        );
        assert_eq!(a["unknown_fields"], json!(["platform"]));
        assert_eq!(a["conversation_message_count"], 1);
        let b = s.store(&turn("hi", "c1:t1", "k1"), 20.0).expect("replayed");
        assert_eq!(b["replayed"], true);
        assert_eq!(b["source_id"], a["source_id"]);
        assert_eq!(b["entities"][0]["entity_id"], a["entities"][1]["entity_id"]);
        assert!(b["entities"][0].get("observation_index").is_none());
        let c = s
            .store(&turn("changed", "c1:t1", "k1"), 30.0)
            .expect_err("mismatch");
        assert_eq!(c.status, 400);
        assert_eq!(c.body["error"]["code"], "ERR_IDEMPOTENCY_MISMATCH");
        assert_eq!(s.entity_count(), 2);
        assert_eq!(s.observations.len(), 2);
    }

    #[test]
    fn same_turn_key_new_key_overwrites() {
        let mut s = EmbeddedStore::new();
        let a = s.store(&turn("v1", "c1:t1", "k1"), 10.0).expect("stored");
        let b = s.store(&turn("v2", "c1:t1", "k2"), 20.0).expect("stored");
        assert_eq!(b["entities_created"], 0);
        assert_eq!(b["entities"][1]["action"], "matched_existing");
        assert_eq!(b["entities"][1]["entity_id"], a["entities"][1]["entity_id"]);
        let id = b["entities"][1]["entity_id"].clone();
        let snap = s
            .get_entity_snapshot(&json!({"entity_id": id}))
            .expect("snapshot");
        assert_eq!(snap["snapshot"]["content"], "v2");
        assert_eq!(snap["observation_count"], 2);
        assert_eq!(snap["canonical_name"], Value::Null);
    }

    #[test]
    fn dry_run_writes_nothing() {
        let mut s = EmbeddedStore::new();
        let mut body = turn("v1", "c1:t1", "k1");
        body["commit"] = json!(false);
        let a = s.store(&body, 10.0).expect("dry run");
        assert_eq!(a["commit"], false);
        assert_eq!(s.entity_count(), 0);
        assert!(s.idempotency.is_empty());
    }

    #[test]
    fn wrong_types_are_validation_errors() {
        let mut s = EmbeddedStore::new();
        for body in [
            json!([]),
            json!(3),
            json!({"entities": "x", "idempotency_key": "k"}),
            json!({"entities": [1], "idempotency_key": "k"}),
            json!({"entities": [{"entity_type": 5}], "idempotency_key": "k"}),
            json!({"entities": [{"entity_type": "a"}], "idempotency_key": 5}),
            json!({"entities": [{"entity_type": "a"}], "idempotency_key": "k", "relationships": {}}),
            json!({"entities": [{"entity_type": "a"}], "idempotency_key": "k", "relationships": [{"relationship_type": 1, "source_index": 0, "target_index": 0}]}),
            json!({"entities": [{"entity_type": "a"}], "idempotency_key": "k", "commit": "no"}),
        ] {
            let r = s.store(&body, 1.0).expect_err("invalid");
            assert_eq!(r.status, 400, "{body}");
            assert_eq!(r.body["error_code"], "VALIDATION_INVALID_FORMAT", "{body}");
        }
        let r = s
            .store(
                &json!({"entities": [{"entity_type": null}], "idempotency_key": "k"}),
                1.0,
            )
            .expect_err("no type");
        assert_eq!(r.status, 500);
        let r = s
            .store(&json!({"file_path": "/x.pdf", "idempotency_key": "k"}), 1.0)
            .expect_err("no files");
        assert_eq!(r.status, 501);
        assert_eq!(s.entity_count(), 0);
    }

    #[test]
    fn relationship_endpoints() {
        let mut s = EmbeddedStore::new();
        let body = json!({
            "entities": [{"entity_type": "person", "name": "Ann"}, {"entity_type": "person", "name": "Bob"}],
            "relationships": [
                {"relationship_type": "KNOWS", "source_index": 0, "target_index": 1},
                {"relationship_type": "KNOWS", "source_index": 1.5, "target_index": 0},
                {"relationship_type": "KNOWS", "source_index": -1, "target_index": 0},
                {"relationship_type": "KNOWS", "source_index": 1e300, "target_index": 0},
                {"relationship_type": "KNOWS", "source_index": 1, "target_entity_id": "ent_000000000000000000000000"},
            ],
            "idempotency_key": "k",
        });
        let a = s.store(&body, 1.0).expect("stored");
        assert_eq!(a["relationships_created"].as_array().map(Vec::len), Some(2));
        assert_eq!(s.relationships.len(), 2);
    }

    #[test]
    fn identity_within_one_request_and_unkeyed() {
        let mut s = EmbeddedStore::new();
        let body = json!({
            "entities": [
                {"entity_type": "company", "name": "Acme Corp"},
                {"entity_type": "company", "name": "ACME, Inc."},
                {"entity_type": "note", "body": "x"},
                {"entity_type": "note", "body": "x"},
            ],
            "idempotency_key": "k",
        });
        let a = s.store(&body, 1.0).expect("stored");
        assert_eq!(a["entities_created"], 3);
        assert_eq!(a["entities"][1]["action"], "matched_existing");
        assert_eq!(
            a["entities"][1]["entity_snapshot_after"]["name"],
            "ACME, Inc."
        );
        assert_ne!(a["entities"][2]["entity_id"], a["entities"][3]["entity_id"]);
        let name = a["entities"][2]["canonical_name"].as_str().unwrap_or("");
        assert!(name.starts_with("note:ent_"), "{name}");
    }
}
