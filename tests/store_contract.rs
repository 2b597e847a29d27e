//! Contract tests: the embedded store answers the recorded Neotoma transcripts
//! (`tests/fixtures/transcripts`, copied from the real server's recordings) with the same status
//! codes, the same shapes and the same semantics. Ids differ: every recorded entity id and UUID
//! (source, observation ids) is mapped to the one the embedded store returned at the same place,
//! and recorded ids in later request bodies and paths are replaced by ours. Timestamps are only
//! checked to be ISO-8601.

use std::collections::HashMap;
use std::fs;

use neotoma_agent_wasm::store::{EmbeddedStore, Response};
use serde_json::json;
use serde_json::Value;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/transcripts");

fn load(name: &str) -> Value {
    let dir = fs::read_dir(FIXTURES).expect("fixtures directory");
    let path = dir
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&format!("{name}-")))
        })
        .unwrap_or_else(|| panic!("no fixture {name}"));
    let text = fs::read_to_string(&path).expect("readable fixture");
    expand(serde_json::from_str(&text).expect("fixture is JSON"))
}

/// The recordings abbreviate huge strings as `<string N chars: xxxx...>`; expand them.
fn expand(value: Value) -> Value {
    match value {
        Value::String(s) => {
            if let Some(rest) = s.strip_prefix("<string ") {
                if let Some((count, tail)) = rest.split_once(" chars: ") {
                    if let (Ok(n), Some(c)) = (count.parse::<usize>(), tail.chars().next()) {
                        return Value::String(c.to_string().repeat(n));
                    }
                }
            }
            Value::String(s)
        }
        Value::Array(items) => Value::Array(items.into_iter().map(expand).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, expand(v))).collect()),
        other => other,
    }
}

fn is_hex(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn is_entity_id(s: &str) -> bool {
    s.strip_prefix("ent_")
        .is_some_and(|rest| rest.len() == 24 && is_hex(rest))
}

fn is_uuid(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.len() == 5
        && parts.iter().map(|p| p.len()).eq([8, 4, 4, 4, 12])
        && parts.iter().all(|p| is_hex(p))
}

fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 24
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && b[16] == b':'
        && b[19] == b'.'
        && b[23] == b'Z'
        && s.chars()
            .enumerate()
            .all(|(i, c)| [4, 7, 10, 13, 16, 19, 23].contains(&i) || c.is_ascii_digit())
}

/// Replays transcripts against one store, mapping recorded ids to ours.
struct Run {
    store: EmbeddedStore,
    ids: HashMap<String, String>,
    clock: f64,
}

impl Run {
    fn new() -> Self {
        Run {
            store: EmbeddedStore::new(),
            ids: HashMap::new(),
            clock: 1_795_000_000_000.0,
        }
    }

    fn map(&self, recorded: &str) -> String {
        let mut text = recorded.to_string();
        for (from, to) in &self.ids {
            if text.contains(from.as_str()) {
                text = text.replace(from.as_str(), to);
            }
        }
        text
    }

    /// Recorded ids in a request body replaced by ours.
    fn substitute(&self, value: &Value) -> Value {
        match value {
            Value::String(s) if s.len() < 10_000 => Value::String(self.map(s)),
            Value::Array(items) => Value::Array(items.iter().map(|v| self.substitute(v)).collect()),
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), self.substitute(v)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// Sends the recorded request (ids substituted); asserts the recorded status.
    fn send(&mut self, name: &str) -> (Value, Response) {
        let transcript = load(name);
        let request = &transcript["request"];
        let method = request["method"].as_str().unwrap_or("GET").to_string();
        let path = self.map(request["path"].as_str().unwrap_or("/"));
        let body = match &request["body"] {
            Value::Null => None,
            other => Some(self.substitute(other)),
        };
        self.clock += 1000.0;
        let mine = self.store.handle(&method, &path, body.as_ref(), self.clock);
        let recorded = &transcript["response"];
        assert_eq!(
            u64::from(mine.status),
            recorded["status"].as_u64().unwrap_or(0),
            "{name}: status; ours: {}",
            mine.body
        );
        (recorded["body"].clone(), mine)
    }

    /// Sends the recorded request and checks our body against the recorded one.
    fn check(&mut self, name: &str) -> Response {
        let (recorded, mine) = self.send(name);
        let mut problems = Vec::new();
        self.same(&recorded, &mine.body, "$", &mut problems);
        assert!(problems.is_empty(), "{name}:\n{}", problems.join("\n"));
        mine
    }

    /// Like `check`, with the arrays at `unordered` (top-level keys) compared as sets:
    /// the real server's order there follows its random ids.
    fn check_unordered(&mut self, name: &str, unordered: &[(&str, &str)]) -> Response {
        let (mut recorded, mut mine) = self.send(name);
        for (key, sort_field) in unordered {
            let sort = |items: &mut Value, map: &dyn Fn(&str) -> String| {
                if let Some(list) = items.as_array_mut() {
                    list.sort_by_key(|item| map(item[*sort_field].as_str().unwrap_or("")));
                }
            };
            sort(&mut recorded[*key], &|s| self.map(s));
            sort(&mut mine.body[*key], &|s| s.to_string());
        }
        let mut problems = Vec::new();
        self.same(&recorded, &mine.body, "$", &mut problems);
        assert!(problems.is_empty(), "{name}:\n{}", problems.join("\n"));
        mine
    }

    /// Structural comparison. Learns id mappings as it goes; timestamps only need to be ISO.
    fn same(&mut self, recorded: &Value, mine: &Value, at: &str, problems: &mut Vec<String>) {
        match (recorded, mine) {
            (Value::Object(r), Value::Object(m)) => {
                let rk: Vec<&String> = r.keys().collect();
                let mk: Vec<&String> = m.keys().collect();
                if rk != mk {
                    problems.push(format!("{at}: keys {rk:?} != ours {mk:?}"));
                    return;
                }
                for (k, v) in r {
                    self.same(v, &m[k], &format!("{at}.{k}"), problems);
                }
            }
            (Value::Array(r), Value::Array(m)) => {
                if r.len() != m.len() {
                    problems.push(format!("{at}: {} items != ours {}", r.len(), m.len()));
                    return;
                }
                for (i, (rv, mv)) in r.iter().zip(m).enumerate() {
                    self.same(rv, mv, &format!("{at}[{i}]"), problems);
                }
            }
            (Value::String(r), Value::String(m)) => {
                if is_timestamp(r) {
                    if !is_timestamp(m) {
                        problems.push(format!("{at}: {m:?} is not a timestamp"));
                    }
                } else if is_entity_id(r) || is_uuid(r) {
                    match self.ids.get(r) {
                        Some(ours) if ours != m => {
                            problems.push(format!("{at}: {r} maps to {ours}, ours is {m}"))
                        }
                        Some(_) => {}
                        None => {
                            let shape_ok = if is_entity_id(r) {
                                is_entity_id(m)
                            } else {
                                is_uuid(m)
                            };
                            if !shape_ok {
                                problems.push(format!("{at}: {m:?} is not shaped like {r:?}"));
                            } else if self.ids.values().any(|v| v == m) {
                                problems.push(format!("{at}: {m} already stands for another id"));
                            } else {
                                self.ids.insert(r.clone(), m.clone());
                            }
                        }
                    }
                } else if &self.map(r) != m {
                    let short = |s: &str| s.chars().take(120).collect::<String>();
                    problems.push(format!("{at}: {:?} != ours {:?}", short(r), short(m)));
                }
            }
            (r, m) => {
                if r != m {
                    problems.push(format!("{at}: {r} != ours {m}"));
                }
            }
        }
    }

    fn call(&mut self, method: &str, path: &str, body: Option<Value>) -> Response {
        self.clock += 1000.0;
        self.store.handle(method, path, body.as_ref(), self.clock)
    }
}

fn ids_of(entities: &Value, field: &str) -> Vec<String> {
    entities
        .as_array()
        .map(|list| {
            list.iter()
                .map(|e| e[field].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn recorded_session_replays_with_the_same_answers() {
    let mut run = Run::new();

    // Turn 1, its replay, and a replay with changed content.
    let first = run.check("01");
    assert_eq!(first.body["replayed"], false);
    assert_eq!(first.body["entities"][0]["action"], "created");
    assert_eq!(first.body["unknown_fields"], json!(["platform"]));
    assert!(first.body["entities"][0]["entity_snapshot_after"]
        .get("platform")
        .is_none());
    let replay = run.check("02");
    assert_eq!(replay.body["replayed"], true);
    assert_eq!(replay.body["entities_created"], 0);
    assert_eq!(replay.body["source_id"], first.body["source_id"]);
    let mut forward = ids_of(&first.body["entities"], "entity_id");
    forward.reverse();
    assert_eq!(
        ids_of(&replay.body["entities"], "entity_id"),
        forward,
        "replay is newest first"
    );
    for entity in replay.body["entities"].as_array().into_iter().flatten() {
        assert_eq!(entity["deduplicated"], true);
        assert!(entity.get("observation_index").is_none());
        assert!(entity.get("action").is_none());
    }
    assert!(replay.body.get("relationships_created").is_none());
    let mismatch = run.check("03");
    assert_eq!(mismatch.body["error"]["code"], "ERR_IDEMPOTENCY_MISMATCH");
    assert_eq!(run.store.entity_count(), 2);

    // Seeds and identifier lookups.
    for name in [
        "04a", "04b", "04c", "04d", "04e", "04f", "04g", "04h", "04i", "04j", "04k", "04l", "04m",
    ] {
        run.check(name);
    }

    // Turn 2 (index and id endpoints mixed), related entities, turn index.
    let turn2 = run.check("05a");
    assert_eq!(turn2.body["entities"][0]["action"], "matched_existing");
    assert_eq!(
        turn2.body["relationships_created"].as_array().map(Vec::len),
        Some(2)
    );
    for name in ["05b", "05c", "05d", "05e"] {
        run.check_unordered(
            name,
            &[("relationships", "relationship_key"), ("entities", "id")],
        );
    }
    let by_conversation_id = run.check("05f");
    let by_entity_id = run.check("05g");
    assert_eq!(by_conversation_id.body, by_entity_id.body);

    // Relationship API: idempotent per pair, dangling targets accepted.
    let a = run.check("06a");
    let b = run.check("06b");
    assert_eq!(a.body["relationship_key"], b.body["relationship_key"]);
    run.check_unordered(
        "06c",
        &[("relationships", "relationship_key"), ("entities", "id")],
    );
    run.check("06d");
    let batch = run.check("06e");
    assert_eq!(batch.body["relationships"][1]["observation_count"], 2);
    run.check("06f");
    run.check_unordered(
        "06g",
        &[("relationships", "relationship_key"), ("entities", "id")],
    );
    let index = run.check("06h");
    assert_eq!(index.body["turns"][0]["stored"], json!([]));
    assert_eq!(
        index.body["turns"][0]["retrieved"].as_array().map(Vec::len),
        Some(2)
    );

    // Bad inputs. (07b, a wrong token, is the transport's business: no auth here.)
    run.check("07a");
    run.check("07a2");
    for name in ["07c", "07c2"] {
        let transcript = load(name);
        let raw = transcript["request"]["body"]
            .as_str()
            .unwrap_or("")
            .to_string();
        let path = transcript["request"]["path"]
            .as_str()
            .unwrap_or("/")
            .to_string();
        run.clock += 1000.0;
        let r = run.store.handle_raw("POST", &path, Some(&raw), run.clock);
        assert_eq!(r.status, 400, "{name}");
        let page = r.body.as_str().unwrap_or("");
        assert!(
            page.starts_with("<!DOCTYPE html>") && page.contains("SyntaxError"),
            "{name}: {page}"
        );
    }
    let before = run.store.entity_count();
    for name in ["07d", "07e", "07e2", "07f", "07f2"] {
        run.check(name);
    }
    let oor = run.check("07g");
    assert_eq!(oor.body["relationships_created"], json!([]));
    for name in ["07g2", "07g3"] {
        run.check(name);
    }
    assert_eq!(
        run.store.entity_count(),
        before + 1,
        "only 07g wrote (one new message)"
    );
    run.check("07h");
    let big = run.check("07h2");
    assert_eq!(
        big.body["snapshot"]["content"].as_str().map(str::len),
        Some(1_048_576)
    );
    {
        let transcript = load("07h3");
        let raw = transcript["request"]["body"].to_string();
        run.clock += 1000.0;
        let r = run
            .store
            .handle_raw("POST", "/store", Some(&raw), run.clock);
        assert_eq!(r.status, 413);
        assert!(r
            .body
            .as_str()
            .unwrap_or("")
            .contains("PayloadTooLargeError"));
    }
    let stored = run.check("07i");
    let snapshot = run.check("07i2");
    let sent = load("07i")["request"]["body"]["entities"][1]["content"].clone();
    assert_eq!(
        snapshot.body["snapshot"]["content"], sent,
        "byte-exact content"
    );
    assert_eq!(
        stored.body["entities"][1]["entity_snapshot_after"]["content"],
        sent
    );
    assert!(sent.as_str().unwrap_or("").contains("\r\n"));
    for name in ["07j", "07k", "07l", "07m"] {
        run.check(name);
    }
    run.check("08a");

    // Same turn_key under a new idempotency key overwrites; identifier overmatching.
    let edited = run.check("10a");
    assert_eq!(edited.body["entities"][1]["action"], "matched_existing");
    let c1 = run.check("10b");
    assert_eq!(c1.body["total"], 3);
    run.check("10c");
    {
        // 10d ran against a bigger database; check its rules rather than its rows.
        let (recorded, mine) = run.send("10d");
        for body in [&recorded, &mine.body] {
            let names: Vec<String> = ids_of(&body["entities"], "canonical_name");
            assert!(!names.is_empty());
            assert!(
                names.windows(2).all(|w| w[0] <= w[1]),
                "sorted by canonical name"
            );
            assert!(names
                .iter()
                .all(|n| n.to_lowercase().contains("conversation")));
            assert_eq!(body["total"].as_u64(), Some(names.len() as u64));
            assert_eq!(body["match_mode"], "direct");
        }
        let keys = |v: &Value| v.as_object().map(|m| m.keys().cloned().collect::<Vec<_>>());
        assert_eq!(
            keys(&recorded["entities"][0]),
            keys(&mine.body["entities"][0])
        );
    }
    run.check("10e");
    run.check("10f");
    run.check("10g");

    // A replay with an added edge does not create it.
    run.check("12a");
    let replay = run.check("12b");
    assert_eq!(replay.body["replayed"], true);
    run.check("12c");
    run.check("12d");
}

#[test]
fn replay_with_changed_relationships_creates_nothing() {
    let mut run = Run::new();
    run.check("04a");
    run.check("12a");
    let relationships = run.store.handle(
        "POST",
        "/retrieve_related_entities",
        Some(&json!({"entity_id": run.map("ent_c174dfe4edc6b11edc5d69e7")})),
        run.clock,
    );
    let before = relationships.body["relationships"].as_array().map(Vec::len);
    run.check("12b");
    run.check("12c");
    let after = run.store.handle(
        "POST",
        "/retrieve_related_entities",
        Some(&json!({"entity_id": run.map("ent_c174dfe4edc6b11edc5d69e7")})),
        run.clock,
    );
    assert_eq!(after.body["relationships"].as_array().map(Vec::len), before);
}

/// The README's rule, checked on the real server with a two-message turn stored with
/// `turn_number: 1` on both: every assistant target is `stored`; a user target is `stored` when
/// the assistant of the same turn also refers to it, else `retrieved`.
#[test]
fn turn_index_classifies_stored_and_retrieved() {
    let mut run = Run::new();
    let seed = run.call(
        "POST",
        "/store",
        Some(json!({
            "entities": [
                {"entity_type": "company", "name": "Acme Corp"},
                {"entity_type": "project", "name": "Project Falcon"},
            ],
            "idempotency_key": "seed",
        })),
    );
    let acme = seed.body["entities"][0]["entity_id"].clone();
    let falcon = seed.body["entities"][1]["entity_id"].clone();
    let conversation =
        json!({"entity_type": "conversation", "conversation_id": "t", "title": "Conversation t"});
    let user = run.call(
        "POST",
        "/store",
        Some(json!({
            "entities": [conversation, {"entity_type": "conversation_message", "role": "user", "sender_kind": "user", "content": "Acme and Falcon?", "turn_key": "t:1", "turn_number": 1}],
            "relationships": [
                {"relationship_type": "PART_OF", "source_index": 1, "target_index": 0},
                {"relationship_type": "REFERS_TO", "source_index": 1, "target_entity_id": acme},
                {"relationship_type": "REFERS_TO", "source_index": 1, "target_entity_id": falcon},
            ],
            "idempotency_key": "t-1-user",
        })),
    );
    assert_eq!(user.status, 200);
    let assistant = run.call(
        "POST",
        "/store",
        Some(json!({
            "entities": [conversation, {"entity_type": "conversation_message", "role": "assistant", "sender_kind": "assistant", "content": "Acme is…", "turn_key": "t:1:assistant", "turn_number": 1}],
            "relationships": [
                {"relationship_type": "PART_OF", "source_index": 1, "target_index": 0},
                {"relationship_type": "REFERS_TO", "source_index": 1, "target_entity_id": acme},
            ],
            "idempotency_key": "t-1-assistant",
        })),
    );
    assert_eq!(assistant.status, 200);
    assert_eq!(assistant.body["conversation_message_count"], 2);
    let index = run.call("GET", "/conversations/t/turn-index", None);
    assert_eq!(index.status, 200);
    let turns = &index.body["turns"];
    assert_eq!(turns.as_array().map(Vec::len), Some(2));
    let listed = |id: &Value, name: &str, t: &str| json!({"entity_id": id, "entity_type": t, "canonical_name": name});
    assert_eq!(turns[0]["role"], "user");
    assert_eq!(turns[0]["turn_number"], 1);
    assert_eq!(
        turns[0]["stored"],
        json!([listed(&acme, "Acme Corp", "company")])
    );
    assert_eq!(
        turns[0]["retrieved"],
        json!([listed(&falcon, "Project Falcon", "project")])
    );
    assert_eq!(turns[1]["role"], "assistant");
    assert_eq!(turns[1]["turn_number"], 1);
    assert_eq!(
        turns[1]["stored"],
        json!([listed(&acme, "Acme Corp", "company")])
    );
    assert_eq!(turns[1]["retrieved"], json!([]));
    let missing = run.call("GET", "/conversations/nope/turn-index", None);
    assert_eq!(missing.status, 404);
    assert_eq!(missing.body["error_code"], "RESOURCE_NOT_FOUND");
}

/// Wrong JSON types anywhere are answered (never a panic), on every route.
#[test]
fn odd_inputs_never_panic() {
    let mut run = Run::new();
    run.check("01");
    let odd = [
        Value::Null,
        json!(true),
        json!(-1),
        json!(1e308),
        json!("text"),
        json!([]),
        json!([null, {}]),
        json!({}),
        json!({"entities": null}),
        json!({"entities": [null], "idempotency_key": "x"}),
        json!({"entities": [{"entity_type": "conversation", "conversation_id": {"a": 1}}], "idempotency_key": "o1"}),
        json!({"entities": [{"entity_type": "conversation_message", "turn_key": [1]}], "idempotency_key": "o2", "relationships": [{"relationship_type": "R", "source_index": 0, "target_index": -0.0}]}),
        json!({"identifier": {}, "entity_id": [], "relationships": [{}], "direction": 5, "limit": -3}),
        json!({"identifier": "c1", "limit": 1e300, "by": "turn_number"}),
        json!({"relationship_type": "R", "source_entity_id": "a", "target_entity_id": "b"}),
    ];
    let routes = [
        ("POST", "/store"),
        ("POST", "/retrieve_entity_by_identifier"),
        ("POST", "/create_relationships"),
        ("POST", "/create_relationship"),
        ("POST", "/retrieve_related_entities"),
        ("POST", "/get_entity_snapshot"),
        ("GET", "/conversations/c1/turn-index"),
        ("GET", "/conversations/%FF%FE/turn-index"),
        ("GET", "/health?x=1"),
        ("PUT", "/store"),
    ];
    for (method, path) in routes {
        for body in &odd {
            let r = run.call(method, path, Some(body.clone()));
            assert!(
                (200..600).contains(&r.status),
                "{method} {path} {body}: {}",
                r.status
            );
            if r.is_success() {
                assert!(r.is_json());
            }
        }
    }
    for raw in ["", "{", "[1,", "\"\\ud800\"", "{\"a\":1}", "null", "1"] {
        run.clock += 1.0;
        let r = run.store.handle_raw("POST", "/store", Some(raw), run.clock);
        assert!((400..500).contains(&r.status), "{raw:?}: {}", r.status);
    }
    for clock in [f64::NAN, f64::INFINITY, -1.0, 0.0, 1e20] {
        let r = run.store.handle("GET", "/health", None, clock);
        assert_eq!(r.status, 200);
        let e = run.store.handle(
            "POST",
            "/get_entity_snapshot",
            Some(&json!({"entity_id": "ent_x"})),
            clock,
        );
        assert_eq!(e.status, 404);
        assert!(e.body["timestamp"].as_str().is_some_and(is_timestamp));
    }
}

/// The warnings of `code` in a `/store` answer.
fn warnings_of<'a>(answer: &'a Value, code: &str) -> Vec<&'a Value> {
    answer["store_warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|w| w["code"] == code)
        .collect()
}

/// A turn that also stores what it produced (a person, their company, a project) and refers to
/// them from the message: schemas.md's closed `person`/`company`/`project` schemas, identity by
/// name (`person:Dana Whitfield`, `Orbital Labs`, `project:Project Kestrel`), and idempotency.
#[test]
fn produced_entities_resolve_by_name_under_the_built_in_schemas() {
    let mut run = Run::new();
    let turn = json!({
        "entities": [
            {"entity_type": "conversation", "conversation_id": "k1", "title": "Conversation k1"},
            {"entity_type": "conversation_message", "role": "user", "sender_kind": "user",
             "content": "Dana Whitfield of Orbital Labs now leads Project Kestrel.", "turn_key": "k1:t1", "turn_number": 1},
            {"entity_type": "person", "name": "Dana Whitfield", "organization": "Orbital Labs"},
            {"entity_type": "company", "name": "Orbital Labs"},
            {"entity_type": "project", "name": "Project Kestrel", "status": "active"},
        ],
        "relationships": [
            {"relationship_type": "PART_OF", "source_index": 1, "target_index": 0},
            {"relationship_type": "REFERS_TO", "source_index": 1, "target_index": 2},
            {"relationship_type": "REFERS_TO", "source_index": 1, "target_index": 3},
            {"relationship_type": "REFERS_TO", "source_index": 1, "target_index": 4},
        ],
        "idempotency_key": "conversation-k1-t1-user-turn",
    });
    let first = run.call("POST", "/store", Some(turn.clone()));
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(first.body["entities_created"], 5);
    let entities = &first.body["entities"];
    assert_eq!(ids_of(entities, "action"), ["created"; 5]);
    assert_eq!(
        ids_of(entities, "canonical_name"),
        [
            "conversation:k1",
            "conversation_message:k1:t1",
            "person:Dana Whitfield",
            "Orbital Labs",
            "project:Project Kestrel",
        ]
    );
    assert_eq!(
        entities[2]["entity_snapshot_after"],
        json!({"name": "Dana Whitfield", "organization": "Orbital Labs"})
    );
    assert_eq!(
        entities[4]["entity_snapshot_after"],
        json!({"name": "Project Kestrel", "status": "active"})
    );
    // every field is declared and every required field is there
    assert!(warnings_of(&first.body, "UNKNOWN_FIELD").is_empty());
    assert!(warnings_of(&first.body, "MISSING_REQUIRED_FIELD").is_empty());
    assert!(first.body.get("unknown_fields").is_none());
    assert!(first.body.get("required_fields_missing").is_none());
    let ids = ids_of(entities, "entity_id");
    let edges: Vec<[String; 3]> = first.body["relationships_created"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            ["relationship_type", "source_entity_id", "target_entity_id"]
                .map(|k| r[k].as_str().unwrap_or("").to_string())
        })
        .collect();
    let edge = |t: &str, s: usize, d: usize| [t.to_string(), ids[s].clone(), ids[d].clone()];
    assert_eq!(
        edges,
        [
            edge("PART_OF", 1, 0),
            edge("REFERS_TO", 1, 2),
            edge("REFERS_TO", 1, 3),
            edge("REFERS_TO", 1, 4),
        ]
    );

    // A later turn names her again, in lower case and with a misspelt field.
    let again = run.call(
        "POST",
        "/store",
        Some(json!({
            "entities": [
                {"entity_type": "conversation", "conversation_id": "k1", "title": "Conversation k1"},
                {"entity_type": "person", "name": "dana whitfield", "organisation": "Orbital Labs Ltd"},
            ],
            "idempotency_key": "conversation-k1-t2-user-turn",
        })),
    );
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.body["entities_created"], 0);
    let dana = &again.body["entities"][1];
    assert_eq!(dana["action"], "matched_existing");
    assert_eq!(dana["entity_id"], ids[2].as_str());
    assert_eq!(dana["canonical_name"], "person:Dana Whitfield");
    assert_eq!(
        dana["entity_snapshot_after"],
        json!({"name": "dana whitfield", "organization": "Orbital Labs"})
    );
    let unknown = warnings_of(&again.body, "UNKNOWN_FIELD");
    assert_eq!(unknown.len(), 1, "{}", again.body);
    // the shape of the recorded `platform` warning (transcript 01)
    let recorded = load("01")["response"]["body"]["store_warnings"][0].clone();
    let keys = |v: &Value| v.as_object().map(|m| m.keys().cloned().collect::<Vec<_>>());
    assert_eq!(keys(unknown[0]), keys(&recorded));
    assert_eq!(unknown[0]["entity_type"], "person");
    assert_eq!(unknown[0]["entity_id"], ids[2].as_str());
    assert_eq!(unknown[0]["observation_index"], 1);
    assert!(unknown[0]["message"]
        .as_str()
        .is_some_and(|m| m.starts_with("person stored with field \"organisation\" ")));
    assert_eq!(again.body["unknown_fields"], json!(["organisation"]));
    assert_eq!(again.body["unknown_fields_count"], 1);

    // Found by name, with `organization` in the snapshot; the misspelt field only on its
    // observation.
    for body in [
        json!({"identifier": "Dana Whitfield"}),
        json!({"identifier": "Dana Whitfield", "entity_type": "person", "include_observations": true}),
    ] {
        let found = run.call("POST", "/retrieve_entity_by_identifier", Some(body.clone()));
        assert_eq!(found.status, 200);
        assert_eq!(found.body["match_mode"], "direct", "{body}");
        assert_eq!(found.body["total"], 1, "{body}");
        let hit = &found.body["entities"][0];
        assert_eq!(hit["id"], ids[2].as_str());
        assert_eq!(hit["entity_type"], "person");
        assert_eq!(hit["snapshot"]["snapshot"]["organization"], "Orbital Labs");
        assert!(hit["snapshot"]["snapshot"].get("organisation").is_none());
        // observations exactly when asked for, and then the misspelt field is on one
        let asked = body.get("include_observations").is_some();
        assert_eq!(hit.get("observations").is_some(), asked, "{body}");
        if asked {
            let observations = hit["observations"].as_array().unwrap();
            assert_eq!(observations.len(), 2);
            assert_eq!(
                observations[0]["fields"]["organisation"],
                "Orbital Labs Ltd"
            );
        }
    }

    // The first key again: another produced entity is a mismatch, the same body a replay.
    let mut other_person = turn.clone();
    other_person["entities"][2] = json!({"entity_type": "person", "name": "Orrin Vale"});
    let mut other_status = turn.clone();
    other_status["entities"][4]["status"] = json!("paused");
    for changed in [other_person, other_status] {
        let mismatch = run.call("POST", "/store", Some(changed));
        assert_eq!(mismatch.status, 400);
        assert_eq!(mismatch.body["error"]["code"], "ERR_IDEMPOTENCY_MISMATCH");
    }
    let replay = run.call("POST", "/store", Some(turn));
    assert_eq!(replay.status, 200);
    assert_eq!(replay.body["replayed"], true);
    assert_eq!(replay.body["entities_created"], 0);
    assert_eq!(replay.body["source_id"], first.body["source_id"]);
    let mut newest_first = ids.clone();
    newest_first.reverse();
    assert_eq!(ids_of(&replay.body["entities"], "entity_id"), newest_first);
    assert_eq!(run.store.entity_count(), 5);
}

/// schemas.md's built-in types have closed field sets: a field the type lacks is dropped from
/// the snapshot (kept on the observation) with an `UNKNOWN_FIELD` warning, a missing required
/// field is a `MISSING_REQUIRED_FIELD` warning, and the write succeeds either way. A type
/// without a schema keeps every field.
#[test]
fn built_in_schemas_close_their_field_sets() {
    // (entity, the field its type lacks, the required fields it misses)
    let cases: [(Value, Option<&str>, &[&str]); 9] = [
        (
            json!({"entity_type": "person", "name": "Dana Whitfield", "email": "dana@orbital.example", "organisation": "Orbital Labs"}),
            Some("organisation"),
            &[],
        ),
        (
            json!({"entity_type": "company", "name": "Orbital Labs", "industry": "aerospace", "organization": "Orbital"}),
            Some("organization"),
            &[],
        ),
        (
            json!({"entity_type": "project", "name": "Project Kestrel", "owner": "Dana", "title": "Kestrel"}),
            Some("title"),
            &["status"],
        ),
        (
            json!({"entity_type": "task", "title": "Send the deck", "priority": "high", "due": "friday"}),
            Some("due"),
            &["status"],
        ),
        (
            json!({"entity_type": "event", "title": "Kestrel review", "location": "Lisbon", "date": "2026-12-01"}),
            Some("date"),
            &["start_time"],
        ),
        (
            json!({"entity_type": "note", "title": "Kestrel risks", "body": "Supply chain"}),
            Some("body"),
            &["content"],
        ),
        (
            json!({"entity_type": "location", "name": "Lisbon", "country": "Portugal", "population": 545_000}),
            Some("population"),
            &[],
        ),
        (
            json!({"entity_type": "contact", "email": "dana@orbital.example", "linkedin_url": "https://linkedin.example/dana", "first_name": "Dana"}),
            Some("first_name"),
            &[],
        ),
        (
            json!({"entity_type": "recipe", "name": "Pastel de nata", "oven": "250C"}),
            None,
            &[],
        ),
    ];
    let mut run = Run::new();
    let entities: Vec<Value> = cases.iter().map(|(e, _, _)| e.clone()).collect();
    let answer = run.call(
        "POST",
        "/store",
        Some(json!({"entities": entities, "idempotency_key": "schemas"})),
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.body["entities_created"], cases.len());
    let unknown = warnings_of(&answer.body, "UNKNOWN_FIELD");
    let missing = warnings_of(&answer.body, "MISSING_REQUIRED_FIELD");
    for (i, (entity, lacking, misses)) in cases.iter().enumerate() {
        let entity_type = entity["entity_type"].as_str().unwrap_or("");
        let stored = &answer.body["entities"][i];
        let mut expected = entity.clone();
        if let Some(map) = expected.as_object_mut() {
            map.remove("entity_type");
            if let Some(field) = lacking {
                map.remove(*field);
            }
        }
        assert_eq!(stored["entity_snapshot_after"], expected, "{entity_type}");
        let at = |w: &&Value| w["observation_index"] == i;
        let named: Vec<&str> = unknown
            .iter()
            .copied()
            .filter(at)
            .map(|w| {
                assert_eq!(w["entity_type"], entity_type);
                assert_eq!(w["entity_id"], stored["entity_id"]);
                w["message"].as_str().unwrap_or("")
            })
            .collect();
        assert_eq!(named.len(), usize::from(lacking.is_some()), "{entity_type}");
        if let Some(field) = lacking {
            assert!(
                named[0].contains(&format!("field \"{field}\"")),
                "{}",
                named[0]
            );
        }
        let missed: Vec<&str> = missing
            .iter()
            .copied()
            .filter(at)
            .map(|w| w["message"].as_str().unwrap_or(""))
            .collect();
        assert_eq!(missed.len(), misses.len(), "{entity_type}: {missed:?}");
        for (message, field) in missed.iter().zip(misses.iter()) {
            assert!(
                message.starts_with(&format!(
                    "{entity_type} stored without required field \"{field}\""
                )),
                "{message}"
            );
        }
    }
    let lacking: Vec<&str> = cases.iter().filter_map(|(_, f, _)| *f).collect();
    assert_eq!(answer.body["unknown_fields"], json!(lacking));
    assert_eq!(
        answer.body["required_fields_missing"],
        json!([
            {"entity_type": "project", "field": "status", "observation_index": 2},
            {"entity_type": "task", "field": "status", "observation_index": 3},
            {"entity_type": "event", "field": "start_time", "observation_index": 4},
            {"entity_type": "note", "field": "content", "observation_index": 5},
        ])
    );
}

/// One entity of an export, with the lowercase texts a lookup reads, for [`slow_lookup`].
struct Exported {
    id: String,
    seq: u64,
    entity_type: String,
    canonical_name: String,
    canonical_lower: String,
    /// `(field, lowercase text)` of the snapshot's strings and numbers.
    fields: Vec<(String, String)>,
}

fn exported(store: &EmbeddedStore) -> Vec<Exported> {
    let document = store.export();
    let mut entities = Vec::new();
    for record in document["records"].as_array().into_iter().flatten() {
        if record["kind"] != "entity" {
            continue;
        }
        let text = |key: &str| record[key].as_str().unwrap_or_default().to_string();
        let mut fields = Vec::new();
        for (field, value) in record["snapshot"].as_object().into_iter().flatten() {
            match value {
                Value::String(s) => fields.push((field.clone(), s.to_lowercase())),
                Value::Number(n) => fields.push((field.clone(), n.to_string())),
                _ => {}
            }
        }
        entities.push(Exported {
            id: text("id"),
            seq: record["seq"].as_u64().unwrap_or_default(),
            entity_type: text("entity_type"),
            canonical_lower: text("canonical_name").to_lowercase(),
            canonical_name: text("canonical_name"),
            fields,
        });
    }
    entities
}

/// `/retrieve_entity_by_identifier` the slow way, from the rules in `src/store/retrieve.rs`
/// over every entity: `(match_mode, ids in answer order)`. Not for entity ids, nor for typed
/// lookups of types whose identity rewrites the name (`company`).
fn slow_lookup(
    entities: &[Exported],
    identifier: &str,
    entity_type: Option<&str>,
    by: Option<&str>,
    limit: usize,
) -> (String, Vec<String>) {
    const IDENTIFIER_FIELDS: [&str; 6] = [
        "name",
        "title",
        "email",
        "turn_key",
        "conversation_id",
        "canonical_name",
    ];
    let needle = identifier.trim().to_lowercase();
    let field_contains = |e: &Exported, field: &str| {
        (field == "canonical_name" && e.canonical_lower.contains(&needle))
            || e.fields
                .iter()
                .any(|(f, text)| f == field && text.contains(&needle))
    };
    let typed = entity_type
        .map(|t| format!("{t}:{}", identifier.trim()).to_lowercase())
        .filter(|typed| *typed != needle);
    let of_type = |e: &&Exported| entity_type.is_none_or(|t| e.entity_type == t);
    let hits = |matches: &dyn Fn(&Exported) -> bool| {
        let mut hits: Vec<&Exported> = entities
            .iter()
            .filter(of_type)
            .filter(|e| matches(e))
            .collect();
        hits.sort_by(|a, b| {
            a.canonical_name
                .cmp(&b.canonical_name)
                .then(a.seq.cmp(&b.seq))
        });
        hits.truncate(limit);
        hits.iter().map(|e| e.id.clone()).collect::<Vec<_>>()
    };
    let (mode, ids) = match by {
        Some(field) => ("snapshot_field", hits(&|e| field_contains(e, field))),
        None => {
            let direct = hits(&|e| {
                e.canonical_lower.contains(&needle)
                    || typed
                        .as_ref()
                        .is_some_and(|t| e.canonical_lower.contains(t.as_str()))
            });
            if direct.is_empty() {
                let matches = |e: &Exported| IDENTIFIER_FIELDS.iter().any(|f| field_contains(e, f));
                ("snapshot_field", hits(&matches))
            } else {
                ("direct", direct)
            }
        }
    };
    if ids.is_empty() {
        ("none".to_string(), ids)
    } else {
        (mode.to_string(), ids)
    }
}

/// A store big enough that some of the lookup index's grams saturate (over 4,096 entities share
/// `person:`, `@example.org`, digits) answers every lookup as the rules say, computed the slow
/// way over every entity: lookups that the index answers from candidates and lookups that walk
/// the name order, short and long needles, misses, non-ASCII names, values replaced by later
/// observations; and the same again after export and import (the index rebuilt).
#[test]
fn lookups_in_a_large_store_answer_as_a_full_scan_would() {
    const FIRST: [&str; 8] = [
        "Sarah", "Dana", "Zoë", "Tomás", "İlkay", "Mei", "KELVIN", "Aiko",
    ];
    const LAST: [&str; 6] = ["Chen", "Whitfield", "Øster", "Garcia", "O'Brien", "Ünal"];
    let mut store = EmbeddedStore::new();
    let mut now = 1_764_000_000_000.0;
    let mut post = |store: &mut EmbeddedStore, body: Value| {
        now += 1.0;
        let r = store.handle("POST", "/store", Some(&body), now);
        assert_eq!(r.status, 200, "{}", r.body);
    };
    let mut batch = Vec::new();
    for i in 0..4600 {
        let name = format!("{} {} {i}", FIRST[i % 8], LAST[i % 6]);
        batch.push(
            json!({"entity_type": "person", "name": name, "email": format!("p{i}@example.org")}),
        );
        if i % 10 == 0 {
            batch.push(json!({"entity_type": "company", "name": format!("Globex {i} Corp")}));
            batch.push(
                json!({"entity_type": "widget", "name": i * 7, "title": format!("Widget {i}")}),
            );
        }
        if batch.len() >= 50 {
            post(
                &mut store,
                json!({"entities": std::mem::take(&mut batch), "idempotency_key": format!("seed-{i}")}),
            );
        }
    }
    post(
        &mut store,
        json!({"entities": batch, "idempotency_key": "seed-last"}),
    );
    for c in 0..4 {
        for t in 0..30 {
            post(
                &mut store,
                json!({
                    "entities": [
                        {"entity_type": "conversation", "conversation_id": format!("chat-{c}"), "title": format!("Conversation chat-{c}")},
                        {"entity_type": "conversation_message", "role": "user", "sender_kind": "user",
                         "content": "What did Sarah Chen say?", "turn_key": format!("chat-{c}:t{t}"), "turn_number": t},
                    ],
                    "relationships": [{"relationship_type": "PART_OF", "source_index": 1, "target_index": 0}],
                    "idempotency_key": format!("turn-{c}-{t}"),
                }),
            );
        }
    }
    // Later observations replace values: e-mails of some people, a title of some widgets.
    for i in (0..4600).step_by(97) {
        let name = format!("{} {} {i}", FIRST[i % 8], LAST[i % 6]);
        post(
            &mut store,
            json!({
                "entities": [{"entity_type": "person", "name": name, "email": format!("moved{i}@elsewhere.net")}],
                "idempotency_key": format!("move-{i}"),
            }),
        );
    }
    for i in (0..4600).step_by(970) {
        post(
            &mut store,
            json!({
                "entities": [{"entity_type": "widget", "name": i * 7, "title": format!("Renamed {i}")}],
                "idempotency_key": format!("rename-{i}"),
            }),
        );
    }
    // The newest entities, first in name order among people: found by a needle whose grams
    // are all saturated.
    for k in 0..3 {
        post(
            &mut store,
            json!({
                "entities": [{"entity_type": "person", "name": format!("Aaron Ames {k}")}],
                "idempotency_key": format!("aaron-{k}"),
            }),
        );
    }

    let mut lookups: Vec<(String, Option<&str>, Option<&str>)> = Vec::new();
    for needle in [
        "person",
        "Person:",
        "person:a",
        "sarah",
        "SARAH CHEN",
        "sarah chen 8",
        "chen 4",
        "zoë",
        "ZOË",
        "tomás",
        "i̇lkay",
        "ünal",
        "øster",
        "o'brien",
        "kelvin",
        "\u{212A}elvin",
        "e",
        "é",
        "ß",
        "4",
        "12",
        "460",
        "4599",
        "@example.org",
        "p1@",
        "moved",
        "p97@example",
        "moved97@",
        "elsewhere.net",
        "globex",
        "globex 1",
        "corp",
        "widget",
        "widget 9",
        "renamed",
        "renamed 970",
        "Widget 970",
        "6797",
        "70",
        "chat-",
        "chat-2",
        "chat-3:t2",
        ":t1",
        "conversation",
        "conversation chat-1",
        "conversation_message:chat-0:t29",
        "zzq",
        "qz",
        "q",
        "nobody here",
        "  dana whitfield  ",
    ] {
        lookups.push((needle.to_string(), None, None));
        for field in [
            "name",
            "email",
            "title",
            "turn_key",
            "canonical_name",
            "content",
        ] {
            lookups.push((needle.to_string(), None, Some(field)));
        }
    }
    for (needle, entity_type) in [
        ("Sarah Chen 0", "person"),
        ("sarah", "person"),
        ("chat-1:t2", "conversation_message"),
        ("chat-1", "conversation"),
        ("e", "widget"),
        ("4", "company"),
    ] {
        lookups.push((needle.to_string(), Some(entity_type), None));
        lookups.push((needle.to_string(), Some(entity_type), Some("name")));
    }

    let imported = EmbeddedStore::import(&store.export()).expect("imports");
    let entities = exported(&store);
    assert!(entities.len() > 5000, "{}", entities.len());
    for store in [&mut store.clone(), &mut imported.clone()] {
        for (identifier, entity_type, by) in &lookups {
            for limit in [1, 5, 100] {
                let mut body = json!({"identifier": identifier, "limit": limit});
                if let Some(t) = entity_type {
                    body["entity_type"] = json!(t);
                }
                if let Some(f) = by {
                    body["by"] = json!(f);
                }
                let r = store.handle("POST", "/retrieve_entity_by_identifier", Some(&body), now);
                assert_eq!(r.status, 200, "{body}: {}", r.body);
                let ids: Vec<String> = ids_of(&r.body["entities"], "id");
                let mode = r.body["match_mode"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                let expected = slow_lookup(&entities, identifier, *entity_type, *by, limit);
                assert_eq!((mode, ids), expected, "{body}");
            }
        }
    }
}

/// A value replaced by a later observation is found by its new text and no longer by the old
/// one (unless the canonical name, which never changes, still has it), before and after import.
#[test]
fn a_replaced_value_is_found_by_its_new_text_only() {
    let mut store = EmbeddedStore::new();
    for (key, title) in [
        ("k1", "Chief Technology Officer"),
        ("k2", "Chief Executive Officer"),
    ] {
        let body = json!({"entities": [{"entity_type": "contact", "name": "Ann Lee", "title": title}], "idempotency_key": key});
        assert_eq!(store.handle("POST", "/store", Some(&body), 1.0).status, 200);
    }
    assert_eq!(store.entity_count(), 1);
    let imported = EmbeddedStore::import(&store.export()).expect("imports");
    for mut store in [store, imported] {
        let mut find = |identifier: &str| {
            let body = json!({"identifier": identifier});
            store
                .handle("POST", "/retrieve_entity_by_identifier", Some(&body), 2.0)
                .body
        };
        let found = find("executive");
        assert_eq!(found["match_mode"], "snapshot_field");
        assert_eq!(
            found["entities"][0]["snapshot"]["title"],
            "Chief Executive Officer"
        );
        assert_eq!(find("technology")["match_mode"], "none");
        assert_eq!(find("ann l")["match_mode"], "direct");
    }
}
