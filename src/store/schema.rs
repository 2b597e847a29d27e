//! Entity-type schemas and identity resolution.
//!
//! | entity_type | snapshot fields | identity (resolution key) | canonical name |
//! |---|---|---|---|
//! | `conversation` | `conversation_id`, `title`, `harness` | `conversation_id`, exact | `conversation:<conversation_id>` |
//! | `conversation_message` | `role`, `sender_kind`, `content`, `turn_key`, `turn_number`, `model` | `turn_key`, exact | `conversation_message:<turn_key>` |
//! | `project`, `person` | open | `name`, case-insensitive | `project:<name>`, `person:<name>` |
//! | `company`, `organization` | open | `name` minus a corporate suffix, case-insensitive | `Acme` for `Acme Corp` |
//! | any other type | open | first of `name`, `title`, `email`, `canonical_name`, case-insensitive | that value |
//!
//! A closed schema drops undeclared fields from the snapshot (they stay on the observation) with
//! an `UNKNOWN_FIELD` store warning, as the real server does for `platform` (transcript 01).
//! An entity with none of its identity fields is never matched: each store creates a new entity
//! whose canonical name is `<entity_type>:<entity_id>`.

use serde_json::{Map, Value};

/// Declared fields of a `conversation`.
const CONVERSATION_FIELDS: &[&str] = &["conversation_id", "title", "harness"];

/// Declared fields of a `conversation_message`.
const MESSAGE_FIELDS: &[&str] = &[
    "role",
    "sender_kind",
    "content",
    "turn_key",
    "turn_number",
    "model",
];

/// Fields tried, in order, for the identity of a type without a schema rule, with the
/// `name_key:<field>` rule each resolves by.
const HEURISTIC_NAME_FIELDS: &[(&str, &str)] = &[
    ("name", "name_key:name"),
    ("title", "name_key:title"),
    ("email", "name_key:email"),
    ("canonical_name", "name_key:canonical_name"),
];

/// Snapshot fields `retrieve_entity_by_identifier` searches in `snapshot_field` mode.
pub(crate) const IDENTIFIER_FIELDS: &[&str] = &[
    "name",
    "title",
    "email",
    "turn_key",
    "conversation_id",
    "canonical_name",
];

/// Fields whose value is the display name (`snapshot.canonical_name`), first present wins.
const DISPLAY_FIELDS: &[&str] = &["name", "title", "email"];

/// Suffixes dropped from company names for identity (`Acme Corp` and `ACME, Inc.` are `Acme`).
const CORPORATE_SUFFIXES: &[&str] = &[
    "corp",
    "corporation",
    "inc",
    "incorporated",
    "llc",
    "llp",
    "lp",
    "ltd",
    "limited",
    "co",
    "company",
    "gmbh",
    "plc",
    "ag",
    "sa",
];

/// What the store knows about one entity type.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TypeSchema {
    pub schema_version: &'static str,
    /// `Some` = closed field set; `None` = every field is kept.
    pub fields: Option<&'static [&'static str]>,
    /// Fields that rank by priority (a `SOURCE_PRIORITY_ESCALATION` advisory when written).
    pub priority_fields: &'static [&'static str],
    /// Fields whose absence is a `MISSING_REQUIRED_FIELD` warning (the write still succeeds).
    pub required: &'static [&'static str],
}

impl TypeSchema {
    pub(crate) fn declares(&self, field: &str) -> bool {
        match self.fields {
            Some(fields) => fields.contains(&field),
            None => true,
        }
    }
}

pub(crate) fn schema_for(entity_type: &str) -> TypeSchema {
    match entity_type {
        "conversation" => TypeSchema {
            schema_version: "1.4",
            fields: Some(CONVERSATION_FIELDS),
            priority_fields: &["title"],
            required: &[],
        },
        "conversation_message" => TypeSchema {
            schema_version: "1.4",
            fields: Some(MESSAGE_FIELDS),
            priority_fields: &[],
            required: &[],
        },
        "company" | "organization" => TypeSchema {
            schema_version: "1.0",
            fields: None,
            priority_fields: &["name"],
            required: &[],
        },
        "project" => TypeSchema {
            schema_version: "1.0",
            fields: None,
            priority_fields: &[],
            required: &["status"],
        },
        _ => TypeSchema {
            schema_version: "1.0",
            fields: None,
            priority_fields: &[],
            required: &[],
        },
    }
}

/// How an entity object resolves to an entity.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Identity {
    /// `None` when the object has no identity field (filled with `<type>:<entity_id>` later).
    pub canonical_name: Option<String>,
    /// The resolution key within the entity type; `None` = never matches an existing entity.
    pub key: Option<String>,
    /// `resolver_path[0]`.
    pub resolver: &'static str,
    pub basis: &'static str,
    pub rule: &'static str,
}

/// The text of an identity field: a non-blank string, or a number as serde_json prints it (`1.5`,
/// `100.0` for `1e2`).
fn identity_text(value: Option<&Value>) -> Option<String> {
    match value {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    }
}

/// Lowercase, whitespace collapsed: the case-insensitive form of a name.
pub(crate) fn name_key(text: &str) -> String {
    let mut collapsed = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !collapsed.is_empty() {
            collapsed.push(' ');
        }
        collapsed.push_str(word);
    }
    collapsed.to_lowercase()
}

/// `Acme Corp` -> `Acme`, `ACME, Inc.` -> `ACME`; a name that is only a suffix is kept.
pub(crate) fn strip_corporate_suffix(name: &str) -> String {
    let mut words: Vec<&str> = name.split_whitespace().collect();
    while words.len() > 1 {
        let last = words
            .last()
            .map(|w| w.trim_matches(|c: char| c == '.' || c == ','))
            .unwrap_or("")
            .to_lowercase();
        if CORPORATE_SUFFIXES.contains(&last.as_str()) {
            words.pop();
        } else {
            break;
        }
    }
    let mut joined = String::with_capacity(name.len());
    for word in words {
        if !joined.is_empty() {
            joined.push(' ');
        }
        joined.push_str(word);
    }
    joined.trim_end_matches(',').to_string()
}

fn composite(
    entity_type: &str,
    rule: &'static str,
    resolver: &'static str,
    text: String,
) -> Identity {
    let canonical = format!("{entity_type}:{text}");
    Identity {
        key: Some(canonical.clone()),
        canonical_name: Some(canonical),
        resolver,
        basis: "schema_rule",
        rule,
    }
}

fn heuristic(entity_type: &str, fields: &Map<String, Value>) -> Identity {
    for (field, rule) in HEURISTIC_NAME_FIELDS {
        if let Some(text) = identity_text(fields.get(*field)) {
            let mut canonical = text.trim().to_string();
            if matches!(entity_type, "company" | "organization") && *field == "name" {
                canonical = strip_corporate_suffix(&canonical);
            }
            return Identity {
                key: Some(name_key(&canonical)),
                canonical_name: Some(canonical),
                resolver: rule,
                basis: "heuristic_name",
                rule,
            };
        }
    }
    Identity {
        canonical_name: None,
        key: None,
        resolver: "identity:none",
        basis: "none",
        rule: "none",
    }
}

/// Resolves the identity of one entity object (fields without `entity_type`).
pub(crate) fn identity(entity_type: &str, fields: &Map<String, Value>) -> Identity {
    match entity_type {
        "conversation" => {
            if let Some(text) = identity_text(fields.get("conversation_id")) {
                return composite(
                    entity_type,
                    "composite:conversation_id",
                    "schema:canonical_name_fields:composite:conversation_id",
                    text,
                );
            }
        }
        "conversation_message" => {
            if let Some(text) = identity_text(fields.get("turn_key")) {
                return composite(
                    entity_type,
                    "composite:turn_key",
                    "schema:canonical_name_fields:turn_key",
                    text,
                );
            }
        }
        // the real server names both `<type>:<name>` (schemas.md: `person:Dana Whitfield`,
        // `project:Project Kestrel`)
        "project" | "person" => {
            if let Some(text) = identity_text(fields.get("name")) {
                let canonical = format!("{entity_type}:{}", text.trim());
                return Identity {
                    key: Some(name_key(&canonical)),
                    canonical_name: Some(canonical),
                    resolver: "schema:canonical_name_fields:name",
                    basis: "schema_rule",
                    rule: "composite:name",
                };
            }
        }
        _ => {}
    }
    heuristic(entity_type, fields)
}

/// The lowercase needle a typed identifier lookup also tries (`Acme Corp` as a `company` is
/// `acme`, the canonical name it would resolve to).
pub(crate) fn typed_needle(entity_type: &str, identifier: &str) -> Option<String> {
    let mut probe = Map::new();
    let field = match entity_type {
        "conversation" => "conversation_id",
        "conversation_message" => "turn_key",
        _ => "name",
    };
    probe.insert(field.to_string(), Value::from(identifier));
    identity(entity_type, &probe)
        .canonical_name
        .map(|c| c.to_lowercase())
}

/// The display name of a snapshot (`snapshot.canonical_name` in snapshot answers; `null` for
/// messages).
pub(crate) fn display_name(snapshot: &Map<String, Value>) -> Option<&str> {
    for field in DISPLAY_FIELDS {
        if let Some(Value::String(s)) = snapshot.get(*field) {
            if !s.trim().is_empty() {
                return Some(s);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn conversation_and_message_rules() {
        let c = identity("conversation", &fields(json!({"conversation_id": "c1"})));
        assert_eq!(c.canonical_name.as_deref(), Some("conversation:c1"));
        assert_eq!(c.rule, "composite:conversation_id");
        let m = identity(
            "conversation_message",
            &fields(json!({"turn_key": "c1:t1"})),
        );
        assert_eq!(
            m.canonical_name.as_deref(),
            Some("conversation_message:c1:t1")
        );
        assert_eq!(m.resolver, "schema:canonical_name_fields:turn_key");
        let n = identity("conversation", &fields(json!({"conversation_id": 7})));
        assert_eq!(n.key.as_deref(), Some("conversation:7"));
    }

    #[test]
    fn company_and_project_and_others() {
        let a = identity("company", &fields(json!({"name": "Acme Corp"})));
        assert_eq!(a.canonical_name.as_deref(), Some("Acme"));
        assert_eq!(a.basis, "heuristic_name");
        let b = identity("company", &fields(json!({"name": "ACME,  Inc."})));
        assert_eq!(a.key, b.key);
        assert_eq!(strip_corporate_suffix("Corp"), "Corp");
        let p = identity("project", &fields(json!({"name": "Project Falcon"})));
        assert_eq!(p.canonical_name.as_deref(), Some("project:Project Falcon"));
        assert_eq!(p.rule, "composite:name");
        let dana = identity("person", &fields(json!({"name": "Dana Whitfield"})));
        assert_eq!(
            dana.canonical_name.as_deref(),
            Some("person:Dana Whitfield")
        );
        let person = identity("person", &fields(json!({"email": "A@x.io"})));
        assert_eq!(person.key.as_deref(), Some("a@x.io"));
        assert_eq!(person.rule, "name_key:email");
        let none = identity("note", &fields(json!({"body": "x"})));
        assert_eq!(none.key, None);
        assert_eq!(
            typed_needle("company", "Acme Corp").as_deref(),
            Some("acme")
        );
    }

    #[test]
    fn closed_schemas() {
        assert!(!schema_for("conversation").declares("platform"));
        assert!(schema_for("conversation_message").declares("turn_number"));
        assert!(schema_for("note").declares("anything"));
        assert_eq!(
            display_name(&fields(json!({"title": "T", "name": "N"}))),
            Some("N")
        );
        assert_eq!(display_name(&fields(json!({"role": "user"}))), None);
    }
}
