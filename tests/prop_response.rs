//! Properties of the response parsers. On any JSON at all (wrong types where strings belong,
//! huge numbers, nested junk, text that happens to parse) they never panic: a store answer is
//! read or refused with `NEOTOMA_INVALID_RESPONSE`, a retrieval answer yields only entities it
//! really holds. On real answers, from the embedded store to requests built from generated
//! turns, the store parser finds the stored conversation and message whatever the order of the
//! entities and whatever other turns and conversations the answer also carries.
//!
//! Seeded, so `cargo test` is reproducible; explore further with e.g.
//! `PROPTEST_RNG_SEED=$RANDOM PROPTEST_CASES=20000 cargo test --test prop_response`.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError};
use serde_json::json;
use serde_json::{Map, Number, Value};

use neotoma_agent_wasm::protocol::error::ErrorCode;
use neotoma_agent_wasm::protocol::keys::{idempotency_key, turn_key, Role};
use neotoma_agent_wasm::protocol::payload::{store_message_request, Conversation, Message};
use neotoma_agent_wasm::protocol::response::{parse_retrieve_response, parse_store_response};
use neotoma_agent_wasm::protocol::validate::check_id;
use neotoma_agent_wasm::store::EmbeddedStore;

mod common;

/// `cases` per property (see `common::proptest_config`), with this file's own seed.
fn config(cases: u32) -> Config {
    common::proptest_config(cases, 0x6e65_6f74_6f6d_6103)
}

// ----- arbitrary JSON ------------------------------------------------------------------------

/// The conversation and turn key the arbitrary answers are read for.
const CONVERSATION_ID: &str = "c1";
const TURN_KEY: &str = "c1:t1";

/// Strings the parsers look for, so junk often looks almost right.
#[rustfmt::skip]
const WORDS: &[&str] = &[
    "entities", "entity_id", "entity_type", "entity_snapshot_after", "conversation",
    "conversation_message", "conversation_id", "turn_key", "replayed", "store_warnings", "id",
    "snapshot", "canonical_name", "name", "title", "email", "full_name", "company", CONVERSATION_ID,
    TURN_KEY, "c1:t1:assistant", "company:", "", " ", "x",
];

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(WORDS).prop_map(str::to_owned),
        1 => ".{0,8}",
        1 => prop::collection::vec(any::<char>(), 0..6).prop_map(String::from_iter),
    ]
}

/// Any JSON value: every leaf type, huge and tiny numbers, nested arrays and objects.
fn junk() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop_oneof![
            Just(f64::MAX),
            Just(f64::MIN_POSITIVE),
            Just(-0.0),
            any::<f64>()
        ]
        .prop_filter_map("finite", Number::from_f64)
        .prop_map(Value::Number),
        word().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((word(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// `plausible` most of the time, any junk otherwise.
fn mostly<S: Strategy<Value = Value>>(plausible: S) -> impl Strategy<Value = Value> {
    prop_oneof![3 => plausible, 1 => junk()]
}

fn type_name() -> impl Strategy<Value = Value> {
    prop::sample::select(
        &[
            "conversation",
            "conversation_message",
            "company",
            "note",
            "",
        ][..],
    )
    .prop_map(Value::from)
}

fn entity_id() -> impl Strategy<Value = Value> {
    "ent_[a-z0-9]{1,4}".prop_map(Value::String)
}

/// A snapshot with some of the fields the parsers read, each right, wrong or junk.
fn snapshot() -> impl Strategy<Value = Value> {
    let key = prop::sample::select(
        &[
            "conversation_id",
            "turn_key",
            "name",
            "title",
            "email",
            "full_name",
            "canonical_name",
            "snapshot",
        ][..],
    );
    let value = mostly(prop_oneof![
        prop::sample::select(&[CONVERSATION_ID, TURN_KEY, "c2", "c1:t2", "Acme", "A"][..])
            .prop_map(Value::from),
        prop::collection::vec(("name|title", "[A-Za-z ]{0,8}"), 0..3).prop_map(|kv| {
            Value::Object(kv.into_iter().map(|(k, v)| (k, Value::String(v))).collect())
        }),
    ]);
    prop::collection::vec((key, value), 0..5)
        .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()))
}

/// An entity as either parser might see it, each field present or not, right or junk.
fn entity() -> impl Strategy<Value = Value> {
    let field = |name: &'static str, value: BoxedStrategy<Value>| {
        prop::option::of(mostly(value)).prop_map(move |v| v.map(|v| (name.to_owned(), v)))
    };
    (
        field("entity_type", type_name().boxed()),
        field("entity_id", entity_id().boxed()),
        field("id", entity_id().boxed()),
        field("entity_snapshot_after", snapshot().boxed()),
        field("snapshot", snapshot().boxed()),
        field("canonical_name", word().prop_map(Value::String).boxed()),
    )
        .prop_map(|(a, b, c, d, e, f)| {
            Value::Object([a, b, c, d, e, f].into_iter().flatten().collect())
        })
}

/// A well-formed entity of a `/store` answer, about the conversation and turn asked for or
/// about others.
fn store_entity() -> impl Strategy<Value = Value> {
    (
        prop_oneof![
            2 => Just("conversation"),
            2 => Just("conversation_message"),
            1 => Just("company"),
        ],
        entity_id(),
        prop::sample::select(&[CONVERSATION_ID, "c2"][..]),
        prop::sample::select(&[TURN_KEY, "c1:t2", "c1:t1:assistant"][..]),
    )
        .prop_map(|(t, id, conversation_id, key)| {
            let snapshot = match t {
                "conversation" => json!({"conversation_id": conversation_id, "title": "T"}),
                "conversation_message" => json!({"turn_key": key, "content": "hi"}),
                _ => json!({"name": "Acme"}),
            };
            json!({"entity_type": t, "entity_id": id, "entity_snapshot_after": snapshot})
        })
}

/// One damage done to a JSON tree: the node at `path` (child indexes, taken modulo the
/// children there) is replaced by `with`, or removed from its parent when `with` is `None`.
#[derive(Debug, Clone)]
struct Damage {
    path: Vec<u32>,
    with: Option<Value>,
}

fn damage() -> impl Strategy<Value = Damage> {
    (
        prop::collection::vec(any::<u32>(), 1..5),
        prop::option::of(junk()),
    )
        .prop_map(|(path, with)| Damage { path, with })
}

fn apply(node: &mut Value, path: &[u32], with: &Option<Value>) {
    let Some((&step, rest)) = path.split_first() else {
        if let Some(w) = with {
            *node = w.clone();
        }
        return;
    };
    match node {
        Value::Array(items) if !items.is_empty() => {
            let i = step as usize % items.len();
            if rest.is_empty() && with.is_none() {
                items.remove(i);
            } else {
                apply(&mut items[i], rest, with);
            }
        }
        Value::Object(fields) if !fields.is_empty() => {
            let Some(key) = fields.keys().nth(step as usize % fields.len()).cloned() else {
                return;
            };
            if rest.is_empty() && with.is_none() {
                fields.remove(&key);
            } else if let Some(child) = fields.get_mut(&key) {
                apply(child, rest, with);
            }
        }
        _ => {
            if let Some(w) = with {
                *node = w.clone();
            }
        }
    }
}

/// A plausible `/store` answer, with up to three damages.
fn damaged_store_answer() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(store_entity(), 0..6),
        any::<bool>(),
        prop::collection::vec(junk(), 0..2),
        prop::collection::vec(damage(), 0..4),
    )
        .prop_map(|(entities, replayed, warnings, damages)| {
            let mut body = json!({
                "success": true,
                "replayed": replayed,
                "entities": entities,
                "store_warnings": warnings,
            });
            for d in &damages {
                apply(&mut body, &d.path, &d.with);
            }
            body
        })
}

/// A well-formed entity of a `/retrieve_entity_by_identifier` answer, in the `snapshot_field`
/// shape or the `direct` one (fields one level deeper), conversation hits included.
fn retrieve_entity() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(
            &["company", "project", "note", "conversation", "conversation_message"][..],
        ),
        entity_id(),
        "[A-Za-z ]{0,12}",
        any::<bool>(),
    )
        .prop_map(|(t, id, name, direct)| {
            if direct {
                json!({"id": id, "entity_type": t, "canonical_name": format!("{t}:{name}"),
                       "snapshot": {"entity_id": id, "canonical_name": name, "snapshot": {"name": name}}})
            } else {
                json!({"id": id, "entity_type": t, "canonical_name": name, "snapshot": {"name": name}})
            }
        })
}

/// A plausible `/retrieve_entity_by_identifier` answer, with up to three damages.
fn damaged_retrieve_answer() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(retrieve_entity(), 0..6),
        prop::collection::vec(damage(), 0..4),
    )
        .prop_map(|(entities, damages)| {
            let mut body =
                json!({"entities": entities, "total": entities.len(), "match_mode": "direct"});
            for d in &damages {
                apply(&mut body, &d.path, &d.with);
            }
            body
        })
}

/// An answer body: a damaged store or retrieval answer, entities of any shape, or anything.
fn answer() -> impl Strategy<Value = Value> {
    let loose = (
        prop::option::of(mostly(
            prop::collection::vec(mostly(entity()), 0..8).prop_map(Value::Array),
        )),
        prop::option::of(mostly(any::<bool>().prop_map(Value::Bool))),
        prop::option::of(mostly(
            prop::collection::vec(junk(), 0..3).prop_map(Value::Array),
        )),
        prop::collection::vec((word(), junk()), 0..3),
    )
        .prop_map(|(entities, replayed, warnings, rest)| {
            let mut body: Map<String, Value> = rest.into_iter().collect();
            for (k, v) in [
                ("entities", entities),
                ("replayed", replayed),
                ("store_warnings", warnings),
            ] {
                if let Some(v) = v {
                    body.insert(k.to_owned(), v);
                }
            }
            Value::Object(body)
        });
    prop_oneof![3 => damaged_store_answer(), 2 => damaged_retrieve_answer(), 2 => loose, 1 => junk()]
}

/// Literals JSON parsers disagree on or choke on: huge and tiny numbers, lone surrogates, NUL.
#[rustfmt::skip]
const ODD_LITERALS: &[&str] = &[
    "1e308", "-1e400", "1e-400", "18446744073709551616", "-9223372036854775809", "-0", "0.1e1",
    "\"\\u0000\"", "\"\\ud800\"", "\"\\ud83d\\ude00\"", "[]", "{}", "null", "\"", "",
];

/// The last char boundary at or before `i`.
fn char_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Answer text as it comes off the wire: a serialized answer with an odd literal spliced in
/// somewhere, cut short, or any text at all.
fn answer_text() -> impl Strategy<Value = String> {
    prop_oneof![
        (
            answer(),
            any::<prop::sample::Index>(),
            prop::sample::select(ODD_LITERALS)
        )
            .prop_map(|(body, at, literal)| {
                let text = body.to_string();
                let cut = char_boundary(&text, at.index(text.len() + 1));
                format!("{}{literal}{}", &text[..cut], &text[cut..])
            }),
        (answer(), any::<prop::sample::Index>()).prop_map(|(body, at)| {
            let text = body.to_string();
            text[..char_boundary(&text, at.index(text.len() + 1))].to_owned()
        }),
        ".{0,64}",
    ]
}

fn entities_of(body: &Value) -> &[Value] {
    body.get("entities")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn str_at<'v>(v: &'v Value, path: &[&str]) -> Option<&'v str> {
    path.iter()
        .try_fold(v, |v, k| v.get(k))
        .and_then(Value::as_str)
}

/// The store parser on any body: `Ok` only with ids it can justify, else a typed error.
fn check_store_parse(body: &Value) -> Result<(), TestCaseError> {
    let entities = entities_of(body);
    let of_type = |t: &str| -> Vec<&Value> {
        entities
            .iter()
            .filter(|e| str_at(e, &["entity_type"]) == Some(t))
            .collect()
    };
    // An id may come from an entity of the type whose snapshot names what was sent, or from
    // the only entity of the type.
    let justified = |id: &str, t: &str, field: &str, want: &str| {
        let candidates = of_type(t);
        candidates.iter().any(|e| {
            str_at(e, &["entity_id"]) == Some(id)
                && (str_at(e, &["entity_snapshot_after", field]) == Some(want)
                    || candidates.len() == 1)
        })
    };
    // One entity of the type that names what was sent, with an id: that is the answer.
    let unique_match = |t: &str, field: &str, want: &str| -> Option<&str> {
        let named: Vec<&Value> = of_type(t)
            .into_iter()
            .filter(|e| str_at(e, &["entity_snapshot_after", field]) == Some(want))
            .collect();
        match named.as_slice() {
            [only] => str_at(only, &["entity_id"]),
            _ => None,
        }
    };
    let expected_conversation = unique_match("conversation", "conversation_id", CONVERSATION_ID);
    let expected_message = unique_match("conversation_message", "turn_key", TURN_KEY);

    match parse_store_response(body, CONVERSATION_ID, TURN_KEY) {
        Ok(out) => {
            prop_assert!(justified(
                &out.conversation_entity_id,
                "conversation",
                "conversation_id",
                CONVERSATION_ID
            ));
            prop_assert!(justified(
                &out.message_entity_id,
                "conversation_message",
                "turn_key",
                TURN_KEY
            ));
            if let Some(id) = expected_conversation {
                prop_assert_eq!(out.conversation_entity_id.as_str(), id);
            }
            if let Some(id) = expected_message {
                prop_assert_eq!(out.message_entity_id.as_str(), id);
            }
            prop_assert_eq!(
                out.replayed,
                body.get("replayed") == Some(&Value::Bool(true))
            );
            let warnings = body
                .get("store_warnings")
                .and_then(Value::as_array)
                .cloned();
            prop_assert_eq!(out.warnings, warnings.unwrap_or_default());
        }
        Err(e) => {
            prop_assert_eq!(e.code, ErrorCode::InvalidResponse);
            prop_assert!(e.status.is_none() && e.external.is_none());
            prop_assert!(
                expected_conversation.is_none() || expected_message.is_none(),
                "refused an answer that names both: {e:?}"
            );
        }
    }
    Ok(())
}

/// The retrieval parser on any body: exactly the non-conversation entities that have a string
/// `id` and `entity_type`, in order, each with names a reply may cite.
fn check_retrieve_parse(body: &Value) -> Result<(), TestCaseError> {
    let identifier = "Acme";
    let kept: Vec<&Value> = entities_of(body)
        .iter()
        .filter(|e| str_at(e, &["id"]).is_some())
        .filter(|e| {
            str_at(e, &["entity_type"])
                .is_some_and(|t| !matches!(t, "conversation" | "conversation_message"))
        })
        .collect();
    let got = parse_retrieve_response(body, identifier);
    let got_ids: Vec<(&str, &str)> = got
        .iter()
        .map(|e| (e.id.as_str(), e.entity_type.as_str()))
        .collect();
    let expected: Vec<(&str, &str)> = kept
        .iter()
        .filter_map(|e| Some((str_at(e, &["id"])?, str_at(e, &["entity_type"])?)))
        .collect();
    prop_assert_eq!(got_ids, expected);
    for (entity, source) in got.iter().zip(&kept) {
        prop_assert_eq!(entity.identifier.as_str(), identifier);
        // The fields are the snapshot's, or the nested snapshot's in the `direct` shape.
        let outer = source.get("snapshot").and_then(Value::as_object);
        let inner = outer
            .and_then(|s| s.get("snapshot"))
            .and_then(Value::as_object);
        let fields = inner.or(outer).cloned().unwrap_or_default();
        prop_assert_eq!(&entity.snapshot, &fields);
        if let Some(name) = &entity.canonical_name {
            prop_assert!(
                str_at(source, &["canonical_name"]) == Some(name.as_str())
                    || str_at(source, &["snapshot", "canonical_name"]) == Some(name.as_str())
            );
        }
        let names = entity.names();
        if entity.id.trim().chars().count() >= 2 {
            prop_assert_eq!(names.last().copied(), Some(entity.id.as_str()));
        }
        for name in names {
            prop_assert!(name.trim().chars().count() >= 2, "name {name:?}");
        }
        let text = serde_json::to_string(entity).unwrap();
        prop_assert!(serde_json::from_str::<Value>(&text).is_ok());
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn parsers_read_or_refuse_any_json(body in answer()) {
        check_store_parse(&body)?;
        check_retrieve_parse(&body)?;
    }

    /// Text off the wire, read as the HTTP transport reads it: JSON if it parses, else the
    /// text itself as a string.
    #[test]
    fn parsers_read_or_refuse_any_text(text in answer_text()) {
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        check_store_parse(&body)?;
        check_retrieve_parse(&body)?;
    }
}

// ----- real answers ----------------------------------------------------------------------------

/// Ids the protocol accepts, kept printable so failures read well; `:` and `-` included.
fn id() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9]{1,12}",
        "[a-zA-Z0-9:\\- é]{1,24}",
        "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}",
    ]
    .prop_filter("passes check_id", |s| check_id("id", s).is_ok())
}

#[derive(Debug, Clone)]
struct Turn {
    conversation_id: String,
    turn_id: String,
    role: Role,
    content: String,
    turn_number: Option<u32>,
}

fn turn() -> impl Strategy<Value = Turn> {
    (
        id(),
        id(),
        prop_oneof![Just(Role::User), Just(Role::Assistant)],
        prop::collection::vec(any::<char>(), 0..80).prop_map(String::from_iter),
        prop::option::of(1..=u32::MAX),
    )
        .prop_map(
            |(conversation_id, turn_id, role, content, turn_number)| Turn {
                conversation_id,
                turn_id,
                role,
                content,
                turn_number,
            },
        )
}

impl Turn {
    fn key(&self) -> String {
        turn_key(&self.conversation_id, &self.turn_id, self.role)
    }

    fn idempotency_key(&self) -> String {
        idempotency_key(&self.conversation_id, &self.turn_id, self.role)
    }

    fn request(&self) -> Value {
        store_message_request(
            &Conversation {
                conversation_id: self.conversation_id.clone(),
                title: Some(format!("Conversation {}", self.conversation_id)),
                platform: None,
            },
            &Message {
                role: self.role,
                turn_id: &self.turn_id,
                content: &self.content,
                turn_number: self.turn_number,
                extra: None,
                refers_to: &[],
                produced: &[],
            },
        )
    }
}

const NOW_MS: f64 = 1_750_000_000_000.0;

fn store(store: &mut EmbeddedStore, body: &Value) -> Result<Value, TestCaseError> {
    let answer = store.handle("POST", "/store", Some(body), NOW_MS);
    prop_assert_eq!(
        answer.status,
        200,
        "the store refused a request the protocol built: {}",
        answer.body
    );
    Ok(answer.body)
}

/// `entities` reordered by `order` (sort keys), with `decoys` spliced in at `at`.
fn reshuffle(answer: &Value, order: &[u32], decoys: &[Value], at: &[usize]) -> Value {
    let mut entities: Vec<(u32, Value)> = entities_of(answer)
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, e)| (order.get(i).copied().unwrap_or(0), e))
        .collect();
    entities.sort_by_key(|(k, _)| *k);
    let mut entities: Vec<Value> = entities.into_iter().map(|(_, e)| e).collect();
    for (decoy, &at) in decoys.iter().zip(at) {
        entities.insert(at % (entities.len() + 1), decoy.clone());
    }
    let mut out = answer.clone();
    out["entities"] = Value::Array(entities);
    out
}

proptest! {
    #![proptest_config(config(128))]

    /// The embedded store accepts every request the protocol builds, and the parser finds the
    /// stored conversation and message, the entity whose snapshot holds the content byte for
    /// byte, in any order among entities of other turns and conversations; a replay answers
    /// with the same ids and `replayed: true`.
    #[test]
    fn store_answers_are_matched_by_type_and_turn_key_in_any_order(
        turn in turn(),
        others in prop::collection::vec(turn(), 0..6),
        order in prop::collection::vec(any::<u32>(), 2),
        at in prop::collection::vec(any::<usize>(), 0..12),
    ) {
        let mut neotoma = EmbeddedStore::new();
        let mut decoys = Vec::new();
        for other in &others {
            // Other turns of this and other conversations. One that shares the turn's
            // idempotency key (the same turn, or ids that run together: "a-b"+"c", "a"+"b-c")
            // would be a different test; a refused decoy is simply not a decoy.
            if other.idempotency_key() == turn.idempotency_key() {
                continue;
            }
            let answer = neotoma.handle("POST", "/store", Some(&other.request()), NOW_MS);
            if answer.status == 200 {
                decoys.extend(entities_of(&answer.body).iter().cloned());
            }
        }
        let answer = store(&mut neotoma, &turn.request())?;
        let key = turn.key();
        let reshuffled = reshuffle(&answer, &order, &decoys, &at);
        let out = parse_store_response(&reshuffled, &turn.conversation_id, &turn.key())
            .map_err(|e| TestCaseError::fail(format!("{e:?} on {reshuffled}")))?;
        prop_assert!(!out.replayed);

        let mut snapshot = |id: &str| {
            let got = neotoma.handle("POST", "/get_entity_snapshot", Some(&json!({"entity_id": id})), NOW_MS);
            assert_eq!(got.status, 200, "{}", got.body);
            got.body
        };
        let message = snapshot(&out.message_entity_id);
        prop_assert_eq!(str_at(&message, &["entity_type"]), Some("conversation_message"));
        prop_assert_eq!(str_at(&message, &["snapshot", "turn_key"]), Some(key.as_str()));
        prop_assert_eq!(str_at(&message, &["snapshot", "content"]).map(str::as_bytes), Some(turn.content.as_bytes()));
        let conversation = snapshot(&out.conversation_entity_id);
        prop_assert_eq!(str_at(&conversation, &["entity_type"]), Some("conversation"));
        prop_assert_eq!(str_at(&conversation, &["snapshot", "conversation_id"]), Some(turn.conversation_id.as_str()));

        let replay = store(&mut neotoma, &turn.request())?;
        let again = parse_store_response(&reshuffle(&replay, &order, &decoys, &at), &turn.conversation_id, &turn.key())
            .map_err(|e| TestCaseError::fail(format!("{e:?} on the replay {replay}")))?;
        prop_assert!(again.replayed);
        prop_assert_eq!(again.conversation_entity_id, out.conversation_entity_id);
        prop_assert_eq!(again.message_entity_id, out.message_entity_id);
    }
}
