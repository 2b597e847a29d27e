//! The store as versioned JSON records: for a storage (only what a call changed is written) and
//! for export (every record in one document).
//!
//! | storage key | record |
//! |---|---|
//! | `meta` | `{"format": "neotoma-embedded-store", "version": 1}` |
//! | `state` | `{"kind": "state", "id_counter", "clock_ms"}`: where id generation goes on |
//! | `entity/{id}` | an entity: type, canonical name, identity key, snapshot, provenance, times |
//! | `observation/{id}` | one observation, its entity by id |
//! | `relationship/{type}:{source}:{target}` | one edge and its writers |
//! | `idempotency/{key}` | what an idempotency key committed: its source, its observations by id |
//!
//! Records of a kind carry `seq`, their creation order (0, 1, 2, …); times are whole Unix ms.
//! The lookups (ids, identities, edge lists, conversation membership, each entity's
//! observations) are not stored: they are rebuilt on load. The export document is the `meta`
//! record with every other record in `records`. A reader refuses another format and a newer
//! version; a later release keeps reading version 1.
//!
//! [`EmbeddedStore::take_changes`] lists the records written since it was last called, each
//! after the records it names (entities before their observations, observations before the
//! idempotency records naming them), so a storage that stops part-way still holds a store that
//! loads. Records are written with `#[derive(Serialize)]` and read from `Value` by hand: a
//! derived `Deserialize` costs the wasm about 13 KB (README, Size).

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use fnv::FnvHashMap;
use serde::Serialize;
use serde_json::{json, Map, Value};

use super::entities::{Entity, IdempotencyRecord, Observation};
use super::ids::IdGen;
use super::relationships::Relationship;
use super::time::sanitize_ms;
use super::{identity_slot, EmbeddedStore, Index};
use crate::protocol::payload::to_value;

/// The `format` of the meta record and of an export document.
pub const FORMAT: &str = "neotoma-embedded-store";
/// The version this release writes (and the newest it reads).
pub const FORMAT_VERSION: u64 = 1;
/// The storage key of the meta record.
pub const META_KEY: &str = "meta";
/// The key of the state record (the id counter and the clock), which even a read changes.
pub const STATE_KEY: &str = "state";

/// A record's storage key and its new value (`None`: the record is gone).
pub type Change = (String, Option<Value>);

/// Adds `changes` to the changes still to be written, `pending`: a change of a record already
/// pending replaces it in its place, others go last. Linear: a whole store's records (an
/// import) are merged at once.
pub fn merge_changes(pending: &mut Vec<Change>, changes: Vec<Change>) {
    let mut at: FnvHashMap<String, usize> = FnvHashMap::default();
    for (position, (key, _)) in pending.iter().enumerate() {
        at.insert(key.clone(), position);
    }
    for (key, value) in changes {
        match at.get(&key).and_then(|position| pending.get_mut(*position)) {
            Some(older) => older.1 = value,
            None => {
                at.insert(key.clone(), pending.len());
                pending.push((key, value));
            }
        }
    }
}

/// Why records or a document cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatError {
    /// Not this format: the `format` found, if any.
    UnknownFormat(Option<String>),
    /// Written by a newer release.
    NewerVersion(u64),
    /// This format, but a record is malformed, missing or refers to one that is missing.
    Invalid(String),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::UnknownFormat(None) => write!(
                f,
                "not an embedded store's records: no \"format\": \"{FORMAT}\" meta record"
            ),
            FormatError::UnknownFormat(Some(found)) => write!(
                f,
                "not an embedded store's records: format {found:?}, expected \"{FORMAT}\""
            ),
            FormatError::NewerVersion(version) => write!(
                f,
                "the embedded store's records are format version {version}, written by a newer \
                 release; this one reads versions up to {FORMAT_VERSION}"
            ),
            FormatError::Invalid(why) => write!(f, "invalid embedded store records: {why}"),
        }
    }
}

impl std::error::Error for FormatError {}

/// What changed since the last [`EmbeddedStore::take_changes`]. Observations and idempotency
/// records are only appended, so a count says which are new; entities and edges change in
/// place, so each write lists them (repeats are dropped when taken).
#[derive(Debug, Clone, Default)]
pub(crate) struct ChangeLog {
    /// `(id counter, clock)` as last taken; `None` = nothing taken yet (the meta record too).
    state: Option<(u64, f64)>,
    entities: Vec<usize>,
    relationships: Vec<usize>,
    observations: usize,
    idempotency: usize,
}

impl ChangeLog {
    /// Notes that the entity at `index` changed. Only once changes have been taken: until then
    /// the first take lists every record anyway, and a store nobody takes changes from (the
    /// agent's default store) keeps no list growing with every write.
    pub(crate) fn entity(&mut self, index: usize) {
        if self.state.is_some() {
            self.entities.push(index);
        }
    }

    /// Notes that the relationship at `index` changed (as [`entity`](Self::entity)).
    pub(crate) fn relationship(&mut self, index: usize) {
        if self.state.is_some() {
            self.relationships.push(index);
        }
    }
}

/// One record as stored. Borrowed from the store: records are only written from here.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Record<'a> {
    State {
        id_counter: u64,
        clock_ms: u64,
    },
    Entity {
        id: &'a str,
        seq: usize,
        entity_type: &'a str,
        canonical_name: &'a str,
        identity_key: Option<&'a str>,
        schema_version: &'a str,
        created_ms: u64,
        updated_ms: u64,
        snapshot: &'a Map<String, Value>,
        provenance: &'a Map<String, Value>,
    },
    Observation {
        id: &'a str,
        seq: usize,
        entity_id: &'a str,
        source_id: &'a str,
        observed_ms: u64,
        fields: &'a Map<String, Value>,
        identity_basis: &'a str,
        identity_rule: &'a str,
        observation_source: &'a str,
        source_priority: &'a Value,
    },
    Relationship {
        seq: usize,
        relationship_type: &'a str,
        source_entity_id: &'a str,
        target_entity_id: &'a str,
        created_ms: u64,
        computed_ms: u64,
        last_observation_ms: u64,
        origins: &'a [String],
        conversation_member: bool,
    },
    Idempotency {
        key: &'a str,
        seq: usize,
        source_id: &'a str,
        observation_ids: Vec<&'a str>,
    },
}

/// Times are sanitized whole milliseconds, so this is exact.
fn ms(time: f64) -> u64 {
    time as u64
}

fn meta() -> Value {
    json!({"format": FORMAT, "version": FORMAT_VERSION})
}

impl EmbeddedStore {
    /// The whole memory as one JSON document: `{format, version, records: [...]}`.
    pub fn export(&self) -> Value {
        let mut records = Vec::new();
        self.records(
            &mut records,
            true,
            (0..self.entities.len()).collect(),
            0..self.observations.len(),
            (0..self.relationships.len()).collect(),
            0..self.idempotency_records.len(),
        );
        let mut document = meta();
        document["records"] = records.into_iter().map(|(_, record)| record).collect();
        document
    }

    /// A store from an [`export`](Self::export) document. It answers every call as the
    /// exported store did; none of it is written anywhere yet, so
    /// [`take_changes`](Self::take_changes) lists every record.
    pub fn import(document: &Value) -> Result<EmbeddedStore, FormatError> {
        check_meta(document)?;
        let records = document
            .get("records")
            .and_then(Value::as_array)
            .ok_or_else(|| invalid("the document has no \"records\" array".into()))?;
        // nothing taken yet: the first take lists every record
        load(&records.iter().collect::<Vec<_>>())
    }

    /// A store from a storage's records (every value, the meta record among them, in any
    /// order), in step with them: [`take_changes`](Self::take_changes) lists only later
    /// writes. No records at all is a new store.
    pub fn from_records<'a>(
        records: impl IntoIterator<Item = &'a Value>,
    ) -> Result<EmbeddedStore, FormatError> {
        let records: Vec<&Value> = records.into_iter().collect();
        if records.is_empty() {
            return Ok(EmbeddedStore::new());
        }
        let mut metas = records.iter().filter(|r| r.get("format").is_some());
        match (metas.next(), metas.next()) {
            (Some(meta), None) => check_meta(meta)?,
            (None, _) => return Err(FormatError::UnknownFormat(None)),
            (Some(_), Some(_)) => return Err(invalid("two meta records".into())),
        }
        let mut store = load(&records)?;
        store.changes = ChangeLog {
            state: Some((store.ids.counter(), store.clock_ms)),
            observations: store.observations.len(),
            idempotency: store.idempotency_records.len(),
            ..ChangeLog::default()
        };
        Ok(store)
    }

    /// The records written since the last call (every record, the first time), for a storage
    /// to put in this order.
    pub fn take_changes(&mut self) -> Vec<Change> {
        let mut changes = Vec::new();
        let state = (self.ids.counter(), self.clock_ms);
        let first = self.changes.state.is_none();
        if first {
            changes.push((META_KEY.to_string(), meta()));
        }
        let state_changed = self.changes.state != Some(state);
        self.changes.state = Some(state);
        let (entities, relationships) = if first {
            (
                (0..self.entities.len()).collect(),
                (0..self.relationships.len()).collect(),
            )
        } else {
            let mut entities = std::mem::take(&mut self.changes.entities);
            entities.sort_unstable();
            entities.dedup();
            let mut relationships = std::mem::take(&mut self.changes.relationships);
            relationships.sort_unstable();
            relationships.dedup();
            (entities, relationships)
        };
        let observations = self.changes.observations..self.observations.len();
        let idempotency = self.changes.idempotency..self.idempotency_records.len();
        self.changes.observations = self.observations.len();
        self.changes.idempotency = self.idempotency_records.len();
        self.records(
            &mut changes,
            state_changed,
            entities,
            observations,
            relationships,
            idempotency,
        );
        changes
            .into_iter()
            .map(|(key, record)| (key, Some(record)))
            .collect()
    }

    /// Appends the state record (with `state`) and the chosen records with their storage keys,
    /// each kind in creation order. Not generic: one copy for export and for changes.
    fn records(
        &self,
        out: &mut Vec<(String, Value)>,
        state: bool,
        entities: Vec<usize>,
        observations: Range<usize>,
        relationships: Vec<usize>,
        idempotency: Range<usize>,
    ) {
        if state {
            let state = Record::State {
                id_counter: self.ids.counter(),
                clock_ms: ms(self.clock_ms),
            };
            out.push((STATE_KEY.to_string(), to_value(&state)));
        }
        for entity in entities.into_iter().filter_map(|i| self.entities.get(i)) {
            out.push((format!("entity/{}", entity.id), entity_record(entity)));
        }
        for seq in observations {
            let Some(observation) = self.observations.get(seq) else {
                continue;
            };
            let Some(entity) = self.entities.get(observation.entity) else {
                continue;
            };
            out.push((
                format!("observation/{}", observation.id),
                observation_record(seq, observation, entity),
            ));
        }
        for edge in relationships
            .into_iter()
            .filter_map(|i| self.relationships.get(i))
        {
            out.push((
                format!("relationship/{}", edge.key),
                relationship_record(edge),
            ));
        }
        for seq in idempotency {
            let Some(record) = self.idempotency_records.get(seq) else {
                continue;
            };
            let observation_ids = record
                .observations
                .iter()
                .filter_map(|i| self.observations.get(*i))
                .map(|o| o.id.as_str())
                .collect();
            out.push((
                format!("idempotency/{}", record.key),
                to_value(&Record::Idempotency {
                    key: &record.key,
                    seq,
                    source_id: &record.source_id,
                    observation_ids,
                }),
            ));
        }
    }
}

fn entity_record(entity: &Entity) -> Value {
    to_value(&Record::Entity {
        id: &entity.id,
        seq: entity.seq,
        entity_type: &entity.entity_type,
        canonical_name: &entity.canonical_name,
        identity_key: entity.identity_key.as_deref(),
        schema_version: &entity.schema_version,
        created_ms: ms(entity.created_ms),
        updated_ms: ms(entity.updated_ms),
        snapshot: &entity.snapshot,
        provenance: &entity.provenance,
    })
}

fn observation_record(seq: usize, observation: &Observation, entity: &Entity) -> Value {
    to_value(&Record::Observation {
        id: &observation.id,
        seq,
        entity_id: &entity.id,
        source_id: &observation.source_id,
        observed_ms: ms(observation.observed_ms),
        fields: &observation.fields,
        identity_basis: &observation.identity_basis,
        identity_rule: &observation.identity_rule,
        observation_source: &observation.observation_source,
        source_priority: &observation.source_priority,
    })
}

fn relationship_record(edge: &Relationship) -> Value {
    to_value(&Record::Relationship {
        seq: edge.seq,
        relationship_type: &edge.relationship_type,
        source_entity_id: &edge.source,
        target_entity_id: &edge.target,
        created_ms: ms(edge.created_ms),
        computed_ms: ms(edge.computed_ms),
        last_observation_ms: ms(edge.last_observation_ms),
        origins: &edge.origins,
        conversation_member: edge.conversation_member,
    })
}

fn invalid(why: String) -> FormatError {
    FormatError::Invalid(why)
}

/// The meta record (or a document's head): this format, a version this release reads.
fn check_meta(meta: &Value) -> Result<(), FormatError> {
    match meta.get("format") {
        Some(Value::String(format)) if format == FORMAT => {}
        Some(Value::String(format)) => {
            return Err(FormatError::UnknownFormat(Some(format.clone())))
        }
        _ => return Err(FormatError::UnknownFormat(None)),
    }
    match meta.get("version").and_then(Value::as_u64) {
        Some(version) if version > FORMAT_VERSION => Err(FormatError::NewerVersion(version)),
        Some(1..) => Ok(()),
        _ => Err(invalid("\"version\" must be a positive integer".into())),
    }
}

/// One record's fields, read with errors that name the record kind and the field.
struct Fields<'a> {
    kind: &'static str,
    map: &'a Map<String, Value>,
}

impl<'a> Fields<'a> {
    fn wrong(&self, name: &str, what: &str) -> FormatError {
        invalid(format!("{} record: \"{name}\" must be {what}", self.kind))
    }

    fn text(&self, name: &str) -> Result<&'a str, FormatError> {
        match self.map.get(name) {
            Some(Value::String(text)) => Ok(text),
            _ => Err(self.wrong(name, "a string")),
        }
    }

    /// A string or `null`.
    fn optional_text(&self, name: &str) -> Result<Option<&'a str>, FormatError> {
        match self.map.get(name) {
            None | Some(Value::Null) => Ok(None),
            _ => self.text(name).map(Some),
        }
    }

    fn count(&self, name: &str) -> Result<u64, FormatError> {
        self.map
            .get(name)
            .and_then(Value::as_u64)
            .ok_or_else(|| self.wrong(name, "a non-negative integer"))
    }

    fn time(&self, name: &str) -> Result<f64, FormatError> {
        match self.map.get(name).and_then(Value::as_f64) {
            Some(time) if time.is_finite() && time >= 0.0 => Ok(sanitize_ms(time)),
            _ => Err(self.wrong(name, "a time in ms")),
        }
    }

    fn object(&self, name: &str) -> Result<&'a Map<String, Value>, FormatError> {
        match self.map.get(name) {
            Some(Value::Object(object)) => Ok(object),
            _ => Err(self.wrong(name, "an object")),
        }
    }

    fn texts(&self, name: &str) -> Result<Vec<&'a str>, FormatError> {
        let texts = match self.map.get(name) {
            Some(Value::Array(items)) => items.iter().map(Value::as_str).collect(),
            _ => None,
        };
        texts.ok_or_else(|| self.wrong(name, "an array of strings"))
    }
}

/// The records of one kind in creation order: `seq` must run 0, 1, 2, … with none missing.
fn in_order<'a>(
    kind: &'static str,
    records: Vec<Fields<'a>>,
) -> Result<Vec<Fields<'a>>, FormatError> {
    let mut numbered = Vec::with_capacity(records.len());
    for record in records {
        numbered.push((record.count("seq")?, record));
    }
    numbered.sort_unstable_by_key(|(seq, _)| *seq);
    let mut ordered = Vec::with_capacity(numbered.len());
    for (position, (seq, record)) in numbered.into_iter().enumerate() {
        if seq != position as u64 {
            return Err(invalid(format!(
                "{kind} record {position} is missing or repeated (found seq {seq})"
            )));
        }
        ordered.push(record);
    }
    Ok(ordered)
}

/// A record naming one that is missing. Out of line, like [`insert_new`]: `load` calls them
/// in several places.
#[inline(never)]
fn dangling(what: &str, id: &str) -> FormatError {
    invalid(format!("{what} {id}, which has no record"))
}

/// Inserts a new key, refusing a repeated one.
#[inline(never)]
fn insert_new(index: &mut Index, key: String, value: usize, kind: &str) -> Result<(), FormatError> {
    if index.insert(key, value).is_some() {
        return Err(invalid(format!("two {kind} records with one key")));
    }
    Ok(())
}

/// An entity record (every field read before anything is allocated).
fn entity(f: &Fields<'_>, seq: usize) -> Result<Entity, FormatError> {
    let id = f.text("id")?;
    let entity_type = f.text("entity_type")?;
    let canonical_name = f.text("canonical_name")?;
    let identity_key = f.optional_text("identity_key")?;
    let schema_version = f.text("schema_version")?;
    let created_ms = f.time("created_ms")?;
    let updated_ms = f.time("updated_ms")?;
    let snapshot = f.object("snapshot")?;
    let provenance = f.object("provenance")?;
    Ok(Entity {
        id: id.to_string(),
        entity_type: entity_type.to_string(),
        canonical_name: canonical_name.to_string(),
        canonical_lower: canonical_name.to_lowercase(),
        identity_key: identity_key.map(str::to_string),
        schema_version: Cow::Owned(schema_version.to_string()),
        seq,
        created_ms,
        updated_ms,
        snapshot: snapshot.clone(),
        provenance: provenance.clone(),
        observations: Vec::new(),
    })
}

/// An observation record of the entity at `entity`.
fn observation(f: &Fields<'_>, entity: usize) -> Result<Observation, FormatError> {
    let id = f.text("id")?;
    let source_id = f.text("source_id")?;
    let observed_ms = f.time("observed_ms")?;
    let fields = f.object("fields")?;
    let identity_basis = f.text("identity_basis")?;
    let identity_rule = f.text("identity_rule")?;
    let observation_source = f.text("observation_source")?;
    let source_priority = match f.map.get("source_priority") {
        Some(priority @ Value::Number(_)) => priority,
        _ => return Err(f.wrong("source_priority", "a number")),
    };
    Ok(Observation {
        id: id.to_string(),
        entity,
        source_id: source_id.to_string(),
        observed_ms,
        fields: fields.clone(),
        identity_basis: Cow::Owned(identity_basis.to_string()),
        identity_rule: Cow::Owned(identity_rule.to_string()),
        observation_source: observation_source.to_string(),
        source_priority: source_priority.clone(),
    })
}

fn relationship(f: &Fields<'_>, seq: usize) -> Result<Relationship, FormatError> {
    let relationship_type = f.text("relationship_type")?;
    let source = f.text("source_entity_id")?;
    let target = f.text("target_entity_id")?;
    let created_ms = f.time("created_ms")?;
    let computed_ms = f.time("computed_ms")?;
    let last_observation_ms = f.time("last_observation_ms")?;
    let origins = f.texts("origins")?;
    let Some(Value::Bool(conversation_member)) = f.map.get("conversation_member") else {
        return Err(f.wrong("conversation_member", "a boolean"));
    };
    Ok(Relationship {
        key: format!("{relationship_type}:{source}:{target}"),
        relationship_type: relationship_type.to_string(),
        source: source.to_string(),
        target: target.to_string(),
        seq,
        created_ms,
        computed_ms,
        last_observation_ms,
        origins: origins.into_iter().map(str::to_string).collect(),
        conversation_member: *conversation_member,
    })
}

/// Builds a store from its records (the meta record, checked by the caller, is skipped).
fn load(records: &[&Value]) -> Result<EmbeddedStore, FormatError> {
    let mut state = None;
    let (mut entities, mut observations, mut relationships, mut idempotency) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for record in records {
        let Some(map) = record.as_object() else {
            return Err(invalid("a record that is not an object".into()));
        };
        let (kind, list) = match map.get("kind").and_then(Value::as_str) {
            Some("state") => ("state", None),
            Some("entity") => ("entity", Some(&mut entities)),
            Some("observation") => ("observation", Some(&mut observations)),
            Some("relationship") => ("relationship", Some(&mut relationships)),
            Some("idempotency") => ("idempotency", Some(&mut idempotency)),
            None if map.contains_key("format") => continue,
            Some(other) => return Err(invalid(format!("unknown record kind {other:?}"))),
            None => return Err(invalid("a record without \"kind\"".into())),
        };
        let fields = Fields { kind, map };
        match list {
            Some(list) => list.push(fields),
            None if state.is_none() => state = Some(fields),
            None => return Err(invalid("two state records".into())),
        }
    }

    let mut store = EmbeddedStore::new();
    for (seq, f) in in_order("entity", entities)?.iter().enumerate() {
        let entity = entity(f, seq)?;
        if let Some(key) = &entity.identity_key {
            let slot = identity_slot(&entity.entity_type, key);
            insert_new(&mut store.identity_index, slot, seq, "entity identity")?;
        }
        insert_new(&mut store.entity_index, entity.id.clone(), seq, "entity")?;
        store.entities.push(entity);
    }

    store.search.rebuild(&store.entities);

    let mut observation_index = Index::default();
    for (seq, f) in in_order("observation", observations)?.iter().enumerate() {
        let entity_id = f.text("entity_id")?;
        let Some(index) = store.entity_index.get(entity_id).copied() else {
            return Err(dangling("an observation of", entity_id));
        };
        let observation = observation(f, index)?;
        insert_new(
            &mut observation_index,
            observation.id.clone(),
            seq,
            "observation",
        )?;
        if let Some(entity) = store.entities.get_mut(index) {
            entity.observations.push(seq);
        }
        store.observations.push(observation);
    }

    for (seq, f) in in_order("relationship", relationships)?.iter().enumerate() {
        let edge = relationship(f, seq)?;
        if edge.conversation_member && !store.entity_index.contains_key(&edge.source) {
            return Err(dangling("a PART_OF edge from", &edge.source));
        }
        if store.relationship_index.contains_key(&edge.key) {
            return Err(invalid("two relationship records with one key".into()));
        }
        store.index_relationship(edge);
    }

    for (seq, f) in in_order("idempotency", idempotency)?.iter().enumerate() {
        let key = f.text("key")?;
        let source_id = f.text("source_id")?;
        let mut observations = Vec::new();
        for id in f.texts("observation_ids")? {
            let Some(index) = observation_index.get(id) else {
                return Err(dangling("an idempotency record naming", id));
            };
            observations.push(*index);
        }
        insert_new(&mut store.idempotency, key.to_string(), seq, "idempotency")?;
        store.idempotency_records.push(IdempotencyRecord {
            key: key.to_string(),
            source_id: source_id.to_string(),
            observations,
        });
    }

    // Every id handed out moved the counter: one per entity, observation and write at least.
    let ids_used =
        (store.entities.len() + store.observations.len() + store.idempotency_records.len()) as u64;
    match state {
        Some(f) => {
            let counter = f.count("id_counter")?;
            if counter < ids_used {
                return Err(f.wrong("id_counter", "at least the number of ids in use"));
            }
            store.ids = IdGen::resume(counter);
            store.clock_ms = f.time("clock_ms")?;
        }
        None if ids_used == 0 && store.relationships.is_empty() => {}
        None => return Err(invalid("no state record".into())),
    }
    Ok(store)
}
