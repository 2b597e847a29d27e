//! The embedded store as versioned records: `export` -> `import` gives a store that answers
//! every call as the original did (lookups, snapshots, turn-index, related entities, replays of
//! old idempotency keys, the ids of later writes); an unknown format or a newer version is
//! refused; `take_changes` after each write, applied to a storage, rebuilds the same store, and
//! any prefix of one write's changes still loads.

use std::collections::BTreeMap;

use neotoma_agent_wasm::store::{
    merge_changes, Change, EmbeddedStore, FormatError, FORMAT, FORMAT_VERSION, META_KEY,
};
use serde_json::{json, Value};

const CID: &str = "persist-1";
const T0: f64 = 1_764_000_000_000.0;

/// One turn's message store, as the agent sends it: the conversation, the message `PART_OF` it,
/// `REFERS_TO` the given entity ids, and the entities a reply produced (each referred to).
fn message(turn: u32, role: &str, content: &str, refers_to: &[&str], produced: &[Value]) -> Value {
    let mut entities = vec![
        json!({"entity_type": "conversation", "conversation_id": CID, "title": "Persisted", "platform": "test"}),
        json!({"entity_type": "conversation_message", "role": role, "sender_kind": role,
               "content": content, "turn_key": format!("{CID}:t{turn}:{role}"), "turn_number": turn}),
    ];
    let mut relationships =
        vec![json!({"relationship_type": "PART_OF", "source_index": 1, "target_index": 0})];
    for id in refers_to {
        relationships.push(
            json!({"relationship_type": "REFERS_TO", "source_index": 1, "target_entity_id": id}),
        );
    }
    for (i, entity) in produced.iter().enumerate() {
        entities.push(entity.clone());
        relationships.push(
            json!({"relationship_type": "REFERS_TO", "source_index": 1, "target_index": i + 2}),
        );
    }
    json!({
        "entities": entities,
        "relationships": relationships,
        "idempotency_key": format!("conversation-{CID}-t{turn}-{role}-turn"),
    })
}

fn stored(store: &mut EmbeddedStore, body: &Value, now: f64) -> Value {
    store.store(body, now).expect("stored")
}

fn id_at(answer: &Value, index: usize) -> String {
    answer["entities"][index]["entity_id"]
        .as_str()
        .expect("an entity id")
        .to_string()
}

/// The writes of a small conversation and a bit of everything else, each followed by `after`.
fn populate(store: &mut EmbeddedStore, mut after: impl FnMut(&mut EmbeddedStore)) {
    let mut t = T0;
    let mut tick = || {
        t += 1234.0;
        t
    };
    let seeded = stored(
        store,
        &json!({"entities": [
            {"entity_type": "company", "name": "Acme Corp"},
            {"entity_type": "person", "name": "Sarah Chen", "email": "sarah@acme.test"},
            {"entity_type": "note", "content": "no identity, never matched"},
        ], "idempotency_key": "seed-1"}),
        tick(),
    );
    after(store);
    let acme = id_at(&seeded, 0);
    let sarah = id_at(&seeded, 1);

    stored(
        store,
        &message(1, "user", "Tell me about Acme Corp", &[&acme], &[]),
        tick(),
    );
    after(store);
    let project = json!({"entity_type": "project", "name": "Project Kestrel", "status": "active"});
    stored(
        store,
        &message(
            1,
            "assistant",
            "Acme Corp runs Project Kestrel.",
            &[&acme],
            &[project],
        ),
        tick(),
    );
    after(store);
    stored(
        store,
        &message(2, "user", "And Sarah Chen?", &[&sarah], &[]),
        tick(),
    );
    after(store);
    let dana = json!({"entity_type": "person", "name": "Dana Whitfield", "organization": "Acme"});
    stored(
        store,
        &message(
            2,
            "assistant",
            "Sarah works with Dana Whitfield.",
            &[&sarah],
            &[dana],
        ),
        tick(),
    );
    after(store);

    // The relationship API (a second writer of an existing edge, a new one, a dangling one).
    store
        .create_relationships(
            &json!({"relationships": [
                {"relationship_type": "WORKS_AT", "source_entity_id": sarah, "target_entity_id": acme},
                {"relationship_type": "REFERS_TO", "source_entity_id": "ent_000000000000000000000001", "target_entity_id": acme},
            ]}),
            tick(),
        )
        .expect("created");
    after(store);
    // A later observation of an existing entity, at an explicit priority.
    stored(
        store,
        &json!({"entities": [{"entity_type": "company", "name": "ACME, Inc.", "domain": "acme.test"}],
                "idempotency_key": "acme-again", "source_priority": 50, "observation_source": "import"}),
        tick(),
    );
    after(store);
    // A dry run and a refused write change nothing but the clock.
    let mut dry = message(3, "user", "dry", &[], &[]);
    dry["commit"] = json!(false);
    stored(store, &dry, tick());
    after(store);
    store
        .store(&json!({"entities": [{"entity_type": "note"}]}), tick())
        .expect_err("no idempotency key");
    after(store);
}

fn populated() -> EmbeddedStore {
    let mut store = EmbeddedStore::new();
    populate(&mut store, |_| {});
    store
}

/// Every read the store answers, and then the same writes, as one list of answers.
fn answers(mut store: EmbeddedStore) -> Vec<Value> {
    let mut out = Vec::new();
    let mut push = |r: Result<Value, neotoma_agent_wasm::store::Response>| {
        out.push(match r {
            Ok(body) => json!({"ok": body}),
            Err(e) => json!({"status": e.status, "err": e.body}),
        })
    };
    let ids: Vec<String> = store.export()["records"]
        .as_array()
        .expect("records")
        .iter()
        .filter(|r| r["kind"] == "entity")
        .map(|r| r["id"].as_str().expect("id").to_string())
        .collect();
    assert!(ids.len() >= 8, "{ids:?}");
    let conversation = store.turn_index(CID).expect("turn index");
    push(Ok(conversation.clone()));
    push(
        store.turn_index(
            conversation["conversation_entity_id"]
                .as_str()
                .unwrap_or(""),
        ),
    );
    push(store.turn_index("no-such-conversation"));
    for identifier in [
        "Acme",
        "acme corp",
        "Sarah",
        "sarah@acme.test",
        "Kestrel",
        CID,
        "t1",
        "zzz",
    ] {
        push(store.retrieve_entity_by_identifier(&json!({"identifier": identifier})));
        push(store.retrieve_entity_by_identifier(
            &json!({"identifier": identifier, "include_observations": true}),
        ));
    }
    push(store.retrieve_entity_by_identifier(
        &json!({"identifier": "Acme Corp", "entity_type": "company"}),
    ));
    push(store.retrieve_entity_by_identifier(&json!({"identifier": "active", "by": "status"})));
    for id in &ids {
        push(store.retrieve_entity_by_identifier(&json!({"identifier": id})));
        push(store.get_entity_snapshot(&json!({"entity_id": id})));
        for direction in ["inbound", "outbound", "both"] {
            push(
                store.retrieve_related_entities(&json!({"entity_id": id, "direction": direction})),
            );
        }
    }
    push(store.get_entity_snapshot(&json!({"entity_id": "ent_ffffffffffffffffffffffff"})));
    let t = T0 + 1e6;
    // Replays of old keys, a mismatch, then new writes (their ids come from the resumed counter).
    push(store.store(
        &message(1, "user", "Tell me about Acme Corp", &[&ids[0]], &[]),
        t,
    ));
    push(store.store(
        &json!({"entities": [
            {"entity_type": "company", "name": "Acme Corp"},
            {"entity_type": "person", "name": "Sarah Chen", "email": "sarah@acme.test"},
            {"entity_type": "note", "content": "no identity, never matched"},
        ], "idempotency_key": "seed-1"}),
        t,
    ));
    push(store.store(&message(1, "user", "changed", &[&ids[0]], &[]), t));
    push(store.store(
        &message(
            3,
            "user",
            "A new turn about Globex",
            &[],
            &[json!({"entity_type": "company", "name": "Globex"})],
        ),
        t,
    ));
    push(store.store(&json!({"entities": [{"entity_type": "note", "content": "another"}], "idempotency_key": "n2"}), t));
    push(store.create_relationships(&json!({"relationships": [
        {"relationship_type": "WORKS_AT", "source_entity_id": ids[1], "target_entity_id": ids[0]}]}), t));
    push(store.turn_index(CID));
    out.push(json!({"health": store.handle("GET", "/health", None, t).body}));
    out
}

#[test]
fn export_then_import_answers_every_call_the_same() {
    let original = populated();
    let document = original.export();
    assert_eq!(document["format"], FORMAT);
    assert_eq!(document["version"], FORMAT_VERSION);

    // Through JSON text, as a file would carry it.
    let text = serde_json::to_string(&document).expect("JSON");
    let imported =
        EmbeddedStore::import(&serde_json::from_str(&text).expect("parsed")).expect("imported");
    assert_eq!(
        imported.export(),
        document,
        "export -> import -> export is exact"
    );
    assert_eq!(imported.entity_count(), original.entity_count());

    let before = answers(original.clone());
    let after = answers(imported);
    assert_eq!(before.len(), after.len());
    for (i, (a, b)) in before.iter().zip(&after).enumerate() {
        assert_eq!(a, b, "answer {i} differs");
    }

    // The last eight answers: two replays, a mismatch, three writes, the turn-index, health.
    // The replay is a replay, and the new writes got ids no earlier entity has.
    let replay = &after[after.len() - 8]["ok"];
    assert_eq!(replay["replayed"], true, "{replay}");
    let new_turn = &after[after.len() - 5]["ok"];
    assert_eq!(new_turn["replayed"], false);
    assert_eq!(new_turn["entities"][2]["action"], "created");
    let fresh = new_turn["entities"][2]["entity_id"].as_str().expect("id");
    assert!(!text.contains(fresh), "a fresh id after import: {fresh}");
    let mismatch = &after[after.len() - 6];
    assert_eq!(mismatch["err"]["error"]["code"], "ERR_IDEMPOTENCY_MISMATCH");
}

#[test]
fn an_empty_store_round_trips() {
    let empty = EmbeddedStore::new();
    let document = empty.export();
    let records = document["records"].as_array().expect("records");
    assert_eq!(records.len(), 1, "the state record alone: {document}");
    let imported = EmbeddedStore::import(&document).expect("imported");
    assert_eq!(imported.export(), document);
    assert_eq!(imported.entity_count(), 0);
}

#[test]
fn another_format_or_a_newer_version_is_refused() {
    let mut document = populated().export();
    assert_eq!(
        EmbeddedStore::import(&json!({"records": []})).err(),
        Some(FormatError::UnknownFormat(None))
    );
    document["format"] = json!("something-else");
    let refused = EmbeddedStore::import(&document).expect_err("another format");
    assert_eq!(
        refused,
        FormatError::UnknownFormat(Some("something-else".into()))
    );
    assert!(
        refused.to_string().contains("\"something-else\""),
        "{refused}"
    );

    document["format"] = json!(FORMAT);
    document["version"] = json!(FORMAT_VERSION + 1);
    let refused = EmbeddedStore::import(&document).expect_err("a newer version");
    assert_eq!(refused, FormatError::NewerVersion(FORMAT_VERSION + 1));
    assert!(refused.to_string().contains("newer release"), "{refused}");

    for version in [json!(0), json!("1"), json!(1.5), Value::Null] {
        document["version"] = version.clone();
        assert!(
            matches!(
                EmbeddedStore::import(&document),
                Err(FormatError::Invalid(_))
            ),
            "version {version}"
        );
    }

    // A storage holding a newer release's records is refused the same way.
    let records = [
        json!({"format": FORMAT, "version": 2}),
        json!({"kind": "state", "id_counter": 0, "clock_ms": 0}),
    ];
    assert_eq!(
        EmbeddedStore::from_records(&records).err(),
        Some(FormatError::NewerVersion(2))
    );
    let no_meta = [json!({"kind": "state", "id_counter": 0, "clock_ms": 0})];
    assert_eq!(
        EmbeddedStore::from_records(&no_meta).err(),
        Some(FormatError::UnknownFormat(None))
    );
}

#[test]
fn damaged_records_are_refused_with_what_is_wrong() {
    let document = populated().export();
    let damage = |edit: &dyn Fn(&mut Vec<Value>)| -> String {
        let mut damaged = document.clone();
        edit(damaged["records"].as_array_mut().expect("records"));
        match EmbeddedStore::import(&damaged) {
            Err(FormatError::Invalid(why)) => why,
            other => panic!("not refused as invalid: {other:?}"),
        }
    };
    let position = |records: &Vec<Value>, kind: &str| {
        records
            .iter()
            .position(|r| r["kind"] == kind)
            .expect("a record of the kind")
    };
    let why = damage(&|records| {
        let i = position(records, "entity");
        records.remove(i);
    });
    assert!(why.contains("entity record 0 is missing"), "{why}");
    let why = damage(&|records| {
        let i = position(records, "observation");
        records[i]["fields"] = json!("text");
    });
    assert!(why.contains("\"fields\" must be an object"), "{why}");
    let why = damage(&|records| {
        let i = position(records, "idempotency");
        records[i]["observation_ids"] = json!(["00000000-0000-4000-8000-000000000000"]);
    });
    assert!(why.contains("which has no record"), "{why}");
    let why = damage(&|records| {
        let i = position(records, "state");
        records[i]["id_counter"] = json!(1);
    });
    assert!(why.contains("id_counter"), "{why}");
    let why = damage(&|records| records.push(json!({"kind": "widget"})));
    assert!(why.contains("unknown record kind"), "{why}");
    let why = damage(&|records| {
        let i = position(records, "relationship");
        let copy = records[i].clone();
        records.push(copy);
    });
    assert!(why.contains("relationship record"), "{why}");
}

/// A storage: key -> record, as `take_changes` fills it.
type Storage = BTreeMap<String, Value>;

fn apply(storage: &mut Storage, changes: Vec<(String, Option<Value>)>) {
    for (key, value) in changes {
        match value {
            Some(value) => storage.insert(key, value),
            None => storage.remove(&key),
        };
    }
}

#[test]
fn take_changes_after_each_write_rebuilds_the_same_store() {
    let mut storage = Storage::new();
    let mut store = EmbeddedStore::new();
    let mut puts = 0;
    let mut first = true;
    populate(&mut store, |store| {
        let changes = store.take_changes();
        if first {
            assert_eq!(
                changes[0],
                (
                    META_KEY.to_string(),
                    Some(json!({"format": FORMAT, "version": FORMAT_VERSION}))
                )
            );
            first = false;
        }
        puts += changes.len();
        apply(&mut storage, changes);
        assert_eq!(store.take_changes(), vec![], "nothing changed since");
    });
    // Only what changed was written: far fewer puts than a whole store per write.
    let records = storage.len();
    assert!(puts < records * 2, "{puts} puts for {records} records");

    let rebuilt = EmbeddedStore::from_records(storage.values()).expect("loaded");
    assert_eq!(rebuilt.export(), store.export());
    assert_eq!(answers(rebuilt.clone()), answers(store.clone()));

    // The rebuilt store is in step with the storage, and both go on the same way.
    let mut rebuilt = rebuilt;
    assert_eq!(rebuilt.take_changes(), vec![]);
    let body = message(
        9,
        "user",
        "later",
        &[],
        &[json!({"entity_type": "person", "name": "Lee"})],
    );
    let a = store.store(&body, T0 + 5e6).expect("stored");
    let b = rebuilt.store(&body, T0 + 5e6).expect("stored");
    assert_eq!(a, b);
    assert_eq!(store.take_changes(), rebuilt.take_changes());
}

#[test]
fn storage_keys_and_an_example_record() {
    let mut store = EmbeddedStore::new();
    stored(
        &mut store,
        &json!({"entities": [{"entity_type": "person", "name": "Ann"}], "idempotency_key": "k1"}),
        T0,
    );
    let changes = store.take_changes();
    let keys: Vec<&str> = changes.iter().map(|(k, _)| k.as_str()).collect();
    let entity = changes[2].1.clone().expect("a record");
    let id = entity["id"].as_str().expect("id");
    let observation = changes[3].1.clone().expect("a record");
    let oid = observation["id"].as_str().expect("id");
    assert_eq!(
        keys,
        [
            "meta",
            "state",
            &format!("entity/{id}"),
            &format!("observation/{oid}"),
            "idempotency/k1"
        ]
    );
    assert_eq!(
        entity,
        json!({
            "kind": "entity", "id": id, "seq": 0, "entity_type": "person",
            "canonical_name": "person:Ann", "identity_key": "person:ann", "schema_version": "1.0",
            "created_ms": 1_764_000_000_000u64, "updated_ms": 1_764_000_000_000u64,
            "snapshot": {"name": "Ann"}, "provenance": {"name": oid},
        })
    );
    assert_eq!(observation["entity_id"], id);
    assert_eq!(
        changes[1].1,
        Some(json!({"kind": "state", "id_counter": 3, "clock_ms": 1_764_000_000_000u64}))
    );
    // A replay writes nothing new; a read writes nothing at all.
    stored(
        &mut store,
        &json!({"entities": [{"entity_type": "person", "name": "Ann"}], "idempotency_key": "k1"}),
        T0,
    );
    assert_eq!(store.take_changes(), vec![]);
    store
        .retrieve_entity_by_identifier(&json!({"identifier": "Ann"}))
        .expect("found");
    assert_eq!(store.take_changes(), vec![]);
}

#[test]
fn a_storage_that_stopped_part_way_still_loads() {
    let mut storage = Storage::new();
    let mut store = EmbeddedStore::new();
    let mut writes = 0;
    populate(&mut store, |store| {
        let changes = store.take_changes();
        for n in 0..changes.len() {
            let mut partial = storage.clone();
            apply(&mut partial, changes[..n].to_vec());
            if let Err(e) = EmbeddedStore::from_records(partial.values()) {
                panic!(
                    "write {writes}: the first {n} of {} changes do not load: {e}",
                    changes.len()
                );
            }
        }
        apply(&mut storage, changes);
        writes += 1;
    });
    assert!(writes > 5);
}

#[test]
fn no_records_is_a_new_store() {
    let mut store = EmbeddedStore::from_records(std::iter::empty()).expect("empty");
    assert_eq!(store.entity_count(), 0);
    let changes = store.take_changes();
    assert_eq!(changes.len(), 2, "meta and state: {changes:?}");
    let only_meta = [json!({"format": FORMAT, "version": FORMAT_VERSION})];
    let store = EmbeddedStore::from_records(&only_meta).expect("meta alone");
    assert_eq!(store.export(), EmbeddedStore::new().export());
}

#[test]
fn a_first_take_after_many_writes_lists_the_whole_store() {
    // a store nobody took changes from keeps no list of them: its first take lists everything
    let mut store = EmbeddedStore::new();
    populate(&mut store, |_| {});
    let mut storage = Storage::new();
    apply(&mut storage, store.take_changes());
    let rebuilt = EmbeddedStore::from_records(storage.values()).unwrap();
    assert_eq!(rebuilt.export(), store.export());
    assert_eq!(store.take_changes(), vec![], "nothing changed since");
}

/// Pending changes merged with newer ones (what an opened store's write queue does): a record's
/// newer change replaces the older in its place, new records go last, in order; the same as
/// merging one change at a time by looking through the list.
#[test]
fn pending_changes_merge_in_place() {
    let change = |key: &str, v: Option<u64>| (key.to_string(), v.map(Value::from));
    let mut pending = vec![change("meta", Some(0)), change("entity/a", Some(1))];
    merge_changes(
        &mut pending,
        vec![
            change("entity/b", Some(2)),
            change("entity/a", Some(3)),
            change("entity/c", None),
            change("entity/b", Some(4)),
        ],
    );
    assert_eq!(
        pending,
        [
            change("meta", Some(0)),
            change("entity/a", Some(3)),
            change("entity/b", Some(4)),
            change("entity/c", None),
        ]
    );

    // A whole store's records (an import) into a queue that already holds some of them.
    let mut store = populated();
    let all = store.take_changes();
    let mut state = 7u64;
    let mut earlier: Vec<Change> = Vec::new();
    for (key, _) in all.iter().rev().step_by(3) {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
        earlier.push((key.clone(), (state % 2 == 0).then(|| Value::from(state))));
    }
    let mut slow = earlier.clone();
    for (key, value) in all.clone() {
        match slow.iter_mut().find(|(k, _)| *k == key) {
            Some(older) => older.1 = value,
            None => slow.push((key, value)),
        }
    }
    let mut fast = earlier;
    merge_changes(&mut fast, all);
    assert_eq!(fast, slow);
}
