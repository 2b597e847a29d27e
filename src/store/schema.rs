//! Entity-type schemas and identity resolution.
//!
//! | entity_type | snapshot fields | identity (resolution key) | canonical name |
//! |---|---|---|---|
//! | `conversation` | closed (the server's 25 fields: `conversation_id`, `title`, `client_name`, `harness`, `model`, …) | `conversation_id`, exact | `conversation:<conversation_id>` |
//! | `conversation_message` | closed, requires `role`, `content`; `turn_key`, `sender_kind`, `turn_number`, `sender_agent_id`, … | `turn_key`, exact | `conversation_message:<turn_key>` |
//! | `person` | closed, requires `name` | `name`, case-insensitive (else heuristic) | `person:<name>` |
//! | `project` | closed, requires `name`, `status` | `name`, case-insensitive (else heuristic) | `project:<name>` |
//! | `company` | closed, requires `name` | heuristic, `name` minus a corporate suffix | `Acme` for `Acme Corp` |
//! | `task`, `event` | closed, require `title` and `status` / `start_time` | heuristic | that value |
//! | `note` | closed, requires `content` | heuristic (`title`; without one never matched) | that value |
//! | `location` | closed, requires `name` | heuristic | that value |
//! | `contact` | closed, nothing required | heuristic | that value |
//! | `organization` | open | heuristic, `name` minus a corporate suffix | `Acme` for `Acme Corp` |
//! | any other type | open | heuristic | that value |
//!
//! The closed field sets are the real server's built-in schemas for these types (required and
//! optional fields, [`SCHEMAS`]); `schema_version` is declared on every type.
//!
//! A closed schema drops undeclared fields from the snapshot (they stay on the observation) with
//! an `UNKNOWN_FIELD` store warning, as the real server does for `platform` (transcript 01); a
//! required field missing from the snapshot is a `MISSING_REQUIRED_FIELD` warning (04b), and the
//! write succeeds either way.
//!
//! The heuristic identity is the first of `name`, `title`, `email`, `canonical_name` that the
//! type declares and the object has, case-insensitive. An entity with none of its identity fields
//! is never matched: each store creates a new entity whose canonical name is
//! `<entity_type>:<entity_id>`.

use serde_json::{Map, Value};

/// What the store knows about one entity type.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TypeSchema {
    pub schema_version: &'static str,
    /// Fields whose absence is a `MISSING_REQUIRED_FIELD` warning (the write still succeeds).
    pub required: &'static [&'static str],
    /// The other declared fields; `None` = an open schema, every field is kept.
    pub optional: Option<&'static [&'static str]>,
    /// Fields that rank by priority (a `SOURCE_PRIORITY_ESCALATION` advisory when written).
    pub priority_fields: &'static [&'static str],
}

/// A type without a schema: every field kept, nothing required.
const OPEN: TypeSchema = TypeSchema {
    schema_version: "1.0",
    required: &[],
    optional: None,
    priority_fields: &[],
};

/// A closed schema at version 1.0, the version the real server reports for `company` and
/// `project` (transcripts 04e, 10f).
const fn closed(
    required: &'static [&'static str],
    optional: &'static [&'static str],
) -> TypeSchema {
    TypeSchema {
        required,
        optional: Some(optional),
        ..OPEN
    }
}

/// The schemas the store knows, by entity type; any other type is [`OPEN`]. The built-in types'
/// fields are the real server's (0.22.0), in its order.
const SCHEMAS: &[(&str, TypeSchema)] = &[
    (
        "conversation",
        TypeSchema {
            schema_version: "1.4",
            priority_fields: &["title"],
            ..closed(
                &[],
                &[
                    "conversation_id",
                    "session_id",
                    "title",
                    "summary",
                    "started_at",
                    "ended_at",
                    "date",
                    "participant_count",
                    "reported_message_count",
                    "participants",
                    "topics",
                    "decisions",
                    "open_tasks",
                    "model",
                    "tool",
                    "source_url",
                    "thread_kind",
                    "client_name",
                    "harness",
                    "workspace_kind",
                    "repository_name",
                    "repository_root",
                    "repository_remote",
                    "scope_summary",
                    "session_uuid",
                ],
            )
        },
    ),
    (
        "conversation_message",
        TypeSchema {
            schema_version: "1.4",
            ..closed(
                &["role", "content"],
                &[
                    "turn_key",
                    "sender_kind",
                    "sender_agent_id",
                    "recipient_agent_id",
                    "reporter_git_sha",
                    "reporter_git_ref",
                    "reporter_channel",
                    "reporter_app_version",
                    "turn_number",
                ],
            )
        },
    ),
    (
        "person",
        closed(
            &["name"],
            &[
                "first_name",
                "last_name",
                "email",
                "phone",
                "organization",
                "role",
                "address",
                "country",
                "website",
                "notes",
                "external_id",
                "import_date",
                "import_source_file",
            ],
        ),
    ),
    (
        "company",
        TypeSchema {
            // transcript 04a: `'name' uses highest_priority`
            priority_fields: &["name"],
            ..closed(
                &["name"],
                &[
                    "legal_name",
                    "website",
                    "email",
                    "phone",
                    "address",
                    "country",
                    "industry",
                    "type",
                    "description",
                    "notes",
                    "external_id",
                    "import_date",
                    "import_source_file",
                ],
            )
        },
    ),
    (
        "project",
        closed(
            &["name", "status"],
            &[
                "description",
                "owner",
                "start_date",
                "end_date",
                "created_date",
                "updated_date",
                "tags",
                "notes",
                "import_date",
                "import_source_file",
            ],
        ),
    ),
    (
        "task",
        closed(
            &["title", "status"],
            &[
                "description",
                "priority",
                "assignee",
                "project_id",
                "due_date",
                "completed_date",
                "created_date",
                "updated_date",
                "tags",
                "notes",
                "task_type",
                "due_context",
                "import_date",
                "import_source_file",
            ],
        ),
    ),
    (
        "event",
        closed(
            &["title", "start_time"],
            &[
                "description",
                "end_time",
                "location",
                "attendees",
                "event_type",
                "status",
                "created_date",
                "updated_date",
                "notes",
                "import_date",
                "import_source_file",
            ],
        ),
    ),
    (
        "note",
        closed(
            &["content"],
            &[
                "title",
                "tags",
                "source",
                "created_date",
                "updated_date",
                "summary",
                "notes",
                "import_date",
                "import_source_file",
            ],
        ),
    ),
    (
        "location",
        closed(
            &["name"],
            &[
                "address",
                "city",
                "state",
                "country",
                "postal_code",
                "latitude",
                "longitude",
                "type",
                "description",
                "notes",
                "import_date",
                "import_source_file",
            ],
        ),
    ),
    (
        "contact",
        closed(
            &[],
            &[
                "name",
                "email",
                "phone",
                "organization",
                "role",
                "title",
                "linkedin_url",
                "connected_on",
                "data_source",
                "source_owner",
                "type",
                "contact_type",
                "category",
                "platform",
                "address",
                "country",
                "website",
                "notes",
                "contact_id",
                "external_id",
                "first_contact_date",
                "last_contact_date",
                "created_date",
                "updated_date",
            ],
        ),
    ),
    // Not a built-in type of the real server's list; kept open, with a company's name ranking
    // and identity, as before the built-in schemas.
    (
        "organization",
        TypeSchema {
            priority_fields: &["name"],
            ..OPEN
        },
    ),
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

impl TypeSchema {
    pub(crate) fn declares(&self, field: &str) -> bool {
        // `schema_version` is required on every type of the real server (it fills it in).
        self.optional.is_none_or(|optional| {
            field == "schema_version" || self.required.contains(&field) || optional.contains(&field)
        })
    }
}

pub(crate) fn schema_for(entity_type: &str) -> TypeSchema {
    SCHEMAS
        .iter()
        .find(|(name, _)| *name == entity_type)
        .map_or(OPEN, |(_, schema)| *schema)
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
    let schema = schema_for(entity_type);
    for (field, rule) in HEURISTIC_NAME_FIELDS {
        // Only declared fields: an entity is not named by a value its snapshot drops (a
        // `note`'s `name`, a `task`'s `canonical_name`).
        if !schema.declares(field) {
            continue;
        }
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
        assert!(schema_for("widget").declares("anything"));
        assert!(schema_for("organization").declares("anything"));
        assert_eq!(
            display_name(&fields(json!({"title": "T", "name": "N"}))),
            Some("N")
        );
        assert_eq!(display_name(&fields(json!({"role": "user"}))), None);
    }

    #[test]
    fn built_in_schemas() {
        // (type, required, a declared optional field, a field it lacks that a neighbour has)
        let cases: &[(&str, &[&str], &str, &str)] = &[
            ("person", &["name"], "organization", "organisation"),
            ("company", &["name"], "legal_name", "organization"),
            ("project", &["name", "status"], "owner", "title"),
            ("task", &["title", "status"], "assignee", "name"),
            ("event", &["title", "start_time"], "attendees", "name"),
            ("note", &["content"], "title", "name"),
            ("location", &["name"], "postal_code", "email"),
            ("contact", &[], "linkedin_url", "first_name"),
        ];
        for (entity_type, required, optional, lacking) in cases {
            let schema = schema_for(entity_type);
            assert_eq!(schema.required, *required, "{entity_type}");
            assert!(schema.declares(optional), "{entity_type}.{optional}");
            assert!(schema.declares("schema_version"), "{entity_type}");
            assert!(!schema.declares(lacking), "{entity_type}.{lacking}");
        }
        assert_eq!(schema_for("company").priority_fields, ["name"]);
        assert_eq!(schema_for("project").schema_version, "1.0");
        assert_eq!(schema_for("conversation").schema_version, "1.4");
    }

    #[test]
    fn heuristic_identity_uses_declared_fields_only() {
        let titled = identity(
            "note",
            &fields(json!({"content": "x", "title": "Standup notes"})),
        );
        assert_eq!(titled.key.as_deref(), Some("standup notes"));
        assert_eq!(titled.rule, "name_key:title");
        // a note is content first: without a title it is never matched
        let untitled = identity("note", &fields(json!({"content": "x"})));
        assert_eq!(untitled.key, None);
        // `name` is not a note field, so it names nothing
        let named = identity("note", &fields(json!({"name": "N", "content": "x"})));
        assert_eq!(named.key, None);
        let task = identity(
            "task",
            &fields(json!({"name": "N", "title": "Ship it", "status": "open"})),
        );
        assert_eq!(task.canonical_name.as_deref(), Some("Ship it"));
        let contact = identity("contact", &fields(json!({"email": "a@x.io"})));
        assert_eq!(contact.rule, "name_key:email");
        // open types still take any of the heuristic fields
        let widget = identity("widget", &fields(json!({"canonical_name": "W"})));
        assert_eq!(widget.key.as_deref(), Some("w"));
        let org = identity("organization", &fields(json!({"name": "Orbital Labs Ltd"})));
        assert_eq!(org.canonical_name.as_deref(), Some("Orbital Labs"));
        let labs = identity("company", &fields(json!({"name": "Orbital Labs"})));
        assert_eq!(labs.canonical_name.as_deref(), Some("Orbital Labs"));
    }
}
