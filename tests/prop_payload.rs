//! Properties of the request bodies the turn protocol sends, for any input that passes
//! validation: building them never panics, they survive a JSON round trip, the message content
//! arrives byte for byte, the keys are the ones `keys.rs` makes (in the upstream SDK's shapes),
//! every `REFERS_TO` target is sent exactly once, `PART_OF` is always there, and caller extras
//! never replace a protocol field.
//!
//! Seeded, so `cargo test` is reproducible; explore further with e.g.
//! `PROPTEST_RNG_SEED=$RANDOM PROPTEST_CASES=20000 cargo test --test prop_payload`.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashSet;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError};
use serde_json::{self, Map, Value};

use neotoma_agent_wasm::protocol::keys::{idempotency_key, turn_key, Role};
use neotoma_agent_wasm::protocol::payload::{
    check_extra, refers_to_request, retrieve_request, store_message_request, Conversation, Message,
};
use neotoma_agent_wasm::protocol::validate::{check_id, MAX_ID_BYTES};

mod common;

/// `cases` per property (see `common::proptest_config`), with this file's own seed.
fn config(cases: u32) -> Config {
    common::proptest_config(cases, 0x6e65_6f74_6f6d_6102)
}

/// Text that JSON and UTF-8 handling can get wrong: escapes, NUL and other control characters,
/// CR LF, JavaScript's line separators, a BOM, characters next to the surrogate gap,
/// noncharacters, astral-plane emoji and combining sequences.
#[rustfmt::skip]
const TRICKY: &[&str] = &[
    "\0", "\r\n", "\n", "\r", "\t", "\u{1}", "\u{1f}", "\u{7f}", "\u{85}", "\"", "\\", "\\u0000",
    "\\\"", "/", "</script>", "\u{2028}", "\u{2029}", "\u{feff}", "\u{fffe}", "\u{ffff}",
    "\u{d7ff}", "\u{e000}", "\u{10ffff}", "\u{1f600}", "👩‍👩‍👧", "e\u{301}", "\u{202e}", "İ", "ß",
    "日本語", "{", "}", "[", "]", ":", ",", "null", "true", "1e999",
];

/// Any message content: arbitrary scalar values, tricky pieces, or both.
fn content() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => prop::sample::select(TRICKY).prop_map(str::to_owned),
        3 => any::<char>().prop_map(String::from),
        2 => "[ -~]{0,20}",
    ];
    prop_oneof![
        prop::collection::vec(piece, 0..60).prop_map(|p| p.concat()),
        prop::collection::vec(any::<char>(), 0..300).prop_map(String::from_iter),
        (1usize..4000).prop_map(|n| "é".repeat(n)),
    ]
}

/// Ids that pass `check_id`: short slugs, UUIDs, ids full of the key separators `:` and `-`,
/// any non-control characters, and ids at the 256-byte limit.
fn id() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9]{1,16}",
        "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}",
        "[a-z:\\-]{1,12}",
        prop::collection::vec(any::<char>(), 1..40).prop_map(String::from_iter),
        (0usize..=2).prop_map(|tail| format!(
            "{}{}",
            "é".repeat((MAX_ID_BYTES - tail) / 2),
            "x".repeat(tail % 2)
        )),
    ]
    .prop_filter("passes check_id", |s| check_id("id", s).is_ok())
}

fn role() -> impl Strategy<Value = Role> {
    prop_oneof![Just(Role::User), Just(Role::Assistant)]
}

/// 0..=20 targets drawn from a small pool, so duplicates are common.
fn refers_to() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(prop_oneof!["ent_[0-9A-Z]{1,3}", id()], 0..=20)
}

/// Any JSON leaf, `null` included (a `null` extra is dropped, never sent).
fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        // Quarters: exact in binary and short in decimal.
        any::<i32>().prop_map(|n| Value::from(f64::from(n) / 4.0)),
        ".{0,12}".prop_map(Value::String),
    ]
}

/// Extras whose keys include every protocol-owned field and a few free ones.
fn extra() -> impl Strategy<Value = Option<Map<String, Value>>> {
    let key = prop::sample::select(
        &[
            "entity_type",
            "role",
            "sender_kind",
            "content",
            "turn_key",
            "turn_number",
            "model",
            "latency_ms",
            "idempotency_key",
            "",
            "\u{0}",
        ][..],
    );
    prop::option::of(
        prop::collection::vec((key, json_leaf()), 0..8)
            .prop_map(|kv| kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()),
    )
}

#[derive(Debug, Clone)]
struct Input {
    conversation: Conversation,
    role: Role,
    turn_id: String,
    content: String,
    turn_number: Option<u32>,
    extra: Option<Map<String, Value>>,
    refers_to: Vec<String>,
}

fn input() -> impl Strategy<Value = Input> {
    (
        (id(), prop::option::of(content()), prop::option::of(id())),
        (role(), id(), content(), prop::option::of(1..=u32::MAX)),
        (extra(), refers_to()),
    )
        .prop_map(
            |(
                (conversation_id, title, platform),
                (role, turn_id, content, turn_number),
                (extra, refers_to),
            )| Input {
                conversation: Conversation {
                    conversation_id,
                    title,
                    platform,
                },
                role,
                turn_id,
                content,
                turn_number,
                extra,
                refers_to,
            },
        )
}

/// The targets in first-seen order, each once.
fn distinct(ids: &[String]) -> Vec<&str> {
    let mut seen = HashSet::new();
    ids.iter()
        .map(String::as_str)
        .filter(|id| seen.insert(*id))
        .collect()
}

fn check_store_body(input: &Input, body: &Value) -> Result<(), TestCaseError> {
    let conversation_id = input.conversation.conversation_id.as_str();
    let turn_id = input.turn_id.as_str();

    // What goes over the wire is what was built.
    let wire = body.to_string();
    let back: Value =
        serde_json::from_str(&wire).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&back, body);

    let entities = back["entities"].as_array().expect("entities array");
    prop_assert_eq!(entities.len(), 2);
    let (conversation, message) = (&entities[0], &entities[1]);
    prop_assert_eq!(&conversation["entity_type"], "conversation");
    prop_assert_eq!(
        conversation["conversation_id"].as_str(),
        Some(conversation_id)
    );
    prop_assert_eq!(
        conversation.get("title").and_then(Value::as_str),
        input.conversation.title.as_deref()
    );
    prop_assert_eq!(
        conversation.get("client_name").and_then(Value::as_str),
        input.conversation.platform.as_deref()
    );

    // Byte for byte, whatever the content holds.
    let sent = message["content"].as_str().expect("content is a string");
    prop_assert_eq!(sent.as_bytes(), input.content.as_bytes());
    prop_assert_eq!(&message["entity_type"], "conversation_message");
    prop_assert_eq!(message["role"].as_str(), Some(input.role.as_str()));
    prop_assert_eq!(message["sender_kind"].as_str(), Some(input.role.as_str()));
    prop_assert_eq!(
        message.get("turn_number").and_then(Value::as_u64),
        input.turn_number.map(u64::from)
    );

    // The keys: the ones keys.rs makes, in the upstream SDK's shapes.
    let key = message["turn_key"].as_str().expect("turn_key is a string");
    prop_assert_eq!(key, turn_key(conversation_id, turn_id, input.role));
    let expected_key = match input.role {
        Role::User => format!("{conversation_id}:{turn_id}"),
        Role::Assistant => format!("{conversation_id}:{turn_id}:assistant"),
    };
    prop_assert_eq!(key, expected_key);
    let idem = back["idempotency_key"]
        .as_str()
        .expect("idempotency_key is a string");
    prop_assert_eq!(idem, idempotency_key(conversation_id, turn_id, input.role));
    prop_assert_eq!(
        idem,
        format!(
            "conversation-{conversation_id}-{turn_id}-{}-turn",
            input.role.as_str()
        )
    );

    // Extras: every free non-null one is sent as given; none replaces a protocol field.
    if let Some(extra) = &input.extra {
        for (k, v) in extra {
            let owned = matches!(
                k.as_str(),
                "entity_type" | "role" | "sender_kind" | "content" | "turn_key" | "turn_number"
            );
            prop_assert_eq!(
                check_extra(
                    "userMessageExtra",
                    &Map::from_iter([(k.clone(), v.clone())])
                )
                .is_err(),
                owned
            );
            if !owned && !v.is_null() {
                prop_assert_eq!(message.get(k), Some(v));
            }
        }
    }
    // Absent options are omitted, never sent as null.
    for entity in entities {
        let object = entity.as_object().expect("entities are objects");
        prop_assert!(
            object.values().all(|v| !v.is_null()),
            "a null field in {entity}"
        );
    }

    // One PART_OF from the message to the conversation; each distinct target once, in order.
    let relationships = back["relationships"]
        .as_array()
        .expect("relationships array");
    let part_of: Vec<&Value> = relationships
        .iter()
        .filter(|r| r["relationship_type"] == "PART_OF")
        .collect();
    prop_assert_eq!(part_of.len(), 1);
    prop_assert_eq!(&part_of[0]["source_index"], 1);
    prop_assert_eq!(&part_of[0]["target_index"], 0);
    let refers: Vec<&str> = relationships
        .iter()
        .filter(|r| r["relationship_type"] == "REFERS_TO")
        .map(|r| {
            assert_eq!(r["source_index"], 1);
            r["target_entity_id"]
                .as_str()
                .expect("target id is a string")
        })
        .collect();
    prop_assert_eq!(
        refers.len() + 1,
        relationships.len(),
        "only PART_OF and REFERS_TO"
    );
    prop_assert_eq!(refers, distinct(&input.refers_to));
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    /// validate.rs limits a message's size only (NUL and control characters are allowed), so
    /// every generated content is one a caller may send.
    #[test]
    fn store_bodies_round_trip_with_exact_content_keys_and_edges(input in input()) {
        let body = store_message_request(
            &input.conversation,
            &Message {
                role: input.role,
                turn_id: &input.turn_id,
                content: &input.content,
                turn_number: input.turn_number,
                extra: input.extra.as_ref(),
                refers_to: &input.refers_to,
                produced: &[],
            },
        );
        check_store_body(&input, &body)?;
    }

    /// A user turn and its reply never share a key, and the same input always makes the
    /// same body (a retry must replay, not mismatch).
    #[test]
    fn user_and_assistant_keys_differ_and_bodies_are_deterministic(input in input()) {
        let message = |role| Message {
            role,
            turn_id: &input.turn_id,
            content: &input.content,
            turn_number: input.turn_number,
            extra: input.extra.as_ref(),
            refers_to: &input.refers_to,
            produced: &[],
        };
        let id = input.conversation.conversation_id.as_str();
        prop_assert_ne!(turn_key(id, &input.turn_id, Role::User), turn_key(id, &input.turn_id, Role::Assistant));
        prop_assert_ne!(idempotency_key(id, &input.turn_id, Role::User), idempotency_key(id, &input.turn_id, Role::Assistant));
        let first = store_message_request(&input.conversation, &message(input.role));
        prop_assert_eq!(&store_message_request(&input.conversation, &message(input.role)), &first);
    }

    #[test]
    fn refers_to_bodies_send_each_target_once(source in id(), targets in refers_to()) {
        let body = refers_to_request(&source, &targets);
        let back: Value = serde_json::from_str(&body.to_string()).expect("valid JSON");
        let relationships = back["relationships"].as_array().expect("relationships array");
        let sent: Vec<&str> = relationships
            .iter()
            .map(|r| {
                assert_eq!(r["relationship_type"], "REFERS_TO");
                assert_eq!(r["source_entity_id"].as_str(), Some(source.as_str()));
                r["target_entity_id"].as_str().expect("target id is a string")
            })
            .collect();
        prop_assert_eq!(sent, distinct(&targets));
    }

    #[test]
    fn retrieve_bodies_carry_the_identifier_exactly(identifier in content(), limit in any::<u32>()) {
        let body = retrieve_request(&identifier, limit);
        let back: Value = serde_json::from_str(&body.to_string()).expect("valid JSON");
        prop_assert_eq!(back["identifier"].as_str().map(str::as_bytes), Some(identifier.as_bytes()));
        prop_assert_eq!(back["limit"].as_u64(), Some(u64::from(limit)));
        prop_assert_eq!(back.as_object().map(Map::len), Some(2));
    }
}
