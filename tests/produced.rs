//! Entities a reply produces, natively on the embedded store: stored in the assistant message's
//! one `/store`, referred to by it, resolved by the store (created, then matched), found by the
//! next turn's retrieval, refused before anything is written when malformed.

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::{json, Value};

use neotoma_agent_wasm::protocol::error::{Error, ErrorCode};
use neotoma_agent_wasm::protocol::outbox::MemoryStorage;
use neotoma_agent_wasm::protocol::produced::EntityFields;
use neotoma_agent_wasm::protocol::turn::{
    Agent, AgentConfig, CloseTurnInput, Llm, OpenTurnInput, Reply, TurnContext,
};
use neotoma_agent_wasm::store::EmbeddedStore;
use neotoma_agent_wasm::transport::embedded::EmbeddedTransport;
use neotoma_agent_wasm::transport::{Call, Transport};

mod common;
use common::{block_on, outbound, turn_opts, TestRuntime};

/// The embedded store, counting the stores sent.
struct Counted {
    inner: EmbeddedTransport,
    stores: RefCell<Vec<Value>>,
}

impl Transport for Counted {
    async fn call(&self, call: Call, body: &Value) -> Result<Value, Error> {
        if call == Call::Store {
            self.stores.borrow_mut().push(body.clone());
        }
        self.inner.call(call, body).await
    }
}

fn agent(store: &Rc<RefCell<EmbeddedStore>>) -> Agent<Counted, TestRuntime, MemoryStorage> {
    let transport = Counted {
        inner: EmbeddedTransport::new(store.clone(), Rc::new(|| 1_700_000_000_000.0)),
        stores: RefCell::new(Vec::new()),
    };
    Agent::new(
        AgentConfig::new("c1"),
        transport,
        TestRuntime::default(),
        MemoryStorage::default(),
    )
    .unwrap()
}

fn entities(values: Vec<Value>) -> Vec<EntityFields> {
    values
        .into_iter()
        .map(|v| v.as_object().cloned().expect("an object"))
        .collect()
}

/// Replies with fixed entities, and keeps what the callback saw.
struct Producing {
    entities: Vec<EntityFields>,
    seen: RefCell<Vec<Value>>,
}

impl Producing {
    fn new(values: Vec<Value>) -> Self {
        Producing {
            entities: entities(values),
            seen: RefCell::new(Vec::new()),
        }
    }
}

impl Llm for Producing {
    async fn reply(&self, _msg: &str, ctx: &TurnContext) -> Result<Reply, Error> {
        self.seen
            .borrow_mut()
            .push(serde_json::to_value(&ctx.retrieved).unwrap());
        Ok(Reply {
            text: "I'll remember that.".into(),
            entities: self.entities.clone(),
            ..Default::default()
        })
    }
}

fn dana_orbital_kestrel() -> Vec<Value> {
    vec![
        json!({"entity_type": "person", "name": "Dana Whitfield", "organization": "Orbital Labs"}),
        json!({"entity_type": "company", "name": "Orbital Labs"}),
        json!({"entity_type": "project", "name": "Project Kestrel", "status": "active", "owner": "Dana Whitfield"}),
    ]
}

const TOLD: &str = "My colleague Dana Whitfield at Orbital Labs is leading Project Kestrel";

#[test]
fn what_a_reply_produces_is_stored_with_it_and_found_next_turn() {
    let store = Rc::new(RefCell::new(EmbeddedStore::new()));
    let agent = agent(&store);
    let llm = Producing::new(dana_orbital_kestrel());
    let first = block_on(agent.turn(TOLD.into(), &llm, turn_opts("t1"))).unwrap();

    // one store per message: the reply's carries the three entities and an edge to each
    let stores = agent.transport().stores.borrow().clone();
    assert_eq!(stores.len(), 2);
    let reply_store = &stores[1];
    let types: Vec<&str> = reply_store["entities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["entity_type"].as_str().unwrap())
        .collect();
    assert_eq!(
        types,
        [
            "conversation",
            "conversation_message",
            "person",
            "company",
            "project"
        ]
    );

    let produced: Vec<(&str, &str)> = first
        .produced
        .iter()
        .map(|p| (p.entity_type.as_str(), p.action.as_str()))
        .collect();
    assert_eq!(
        produced,
        [
            ("person", "created"),
            ("company", "created"),
            ("project", "created")
        ]
    );
    assert_eq!(
        first.produced[0].canonical_name.as_deref(),
        Some("person:Dana Whitfield")
    );
    let assistant = first.assistant_message_entity_id.clone().unwrap();
    let mut refers = outbound(&store, &assistant, "REFERS_TO");
    refers.sort();
    let mut want: Vec<String> = first.produced.iter().map(|p| p.id.clone()).collect();
    want.sort();
    assert_eq!(refers, want, "the reply refers to everything it produced");

    // the turn index shows the first assistant message referring to all three
    let index = store.borrow().turn_index("c1").unwrap();
    let row = index["turns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["message_entity_id"] == assistant.as_str())
        .expect("a turn-index row for the reply")
        .clone();
    let stored: Vec<&str> = row["stored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().or_else(|| s["entity_id"].as_str()).unwrap())
        .collect();
    for p in &first.produced {
        assert!(stored.contains(&p.id.as_str()), "{row}");
    }

    // the next turn's retrieval finds the person, with the fields produced
    let asking = Producing::new(vec![]);
    let second = block_on(agent.turn(
        "What do you know about Dana Whitfield?".into(),
        &asking,
        turn_opts("t2"),
    ))
    .unwrap();
    let dana = second
        .retrieved
        .iter()
        .find(|e| e.entity_type == "person")
        .expect("the person is retrieved");
    assert_eq!(dana.id, first.produced[0].id);
    assert_eq!(dana.snapshot["organization"], "Orbital Labs");
    assert_eq!(asking.seen.borrow()[0][0]["id"], dana.id.as_str());
    assert!(second.produced.is_empty());

    // naming her again matches the stored person instead of making another
    let again = Producing::new(vec![
        json!({"entity_type": "person", "name": "dana whitfield"}),
    ]);
    let third = block_on(agent.turn("Dana again".into(), &again, turn_opts("t3"))).unwrap();
    assert_eq!(third.produced.len(), 1);
    assert_eq!(third.produced[0].id, first.produced[0].id);
    assert_eq!(third.produced[0].action, "matched_existing");
}

#[test]
fn a_replayed_close_writes_nothing_new_and_other_entities_mismatch() {
    let store = Rc::new(RefCell::new(EmbeddedStore::new()));
    let agent = agent(&store);
    let opened = block_on(agent.open_turn(&OpenTurnInput {
        turn_id: Some("t1".into()),
        user_message: TOLD.into(),
        ..Default::default()
    }))
    .unwrap();
    let close = |values: Vec<Value>| CloseTurnInput {
        turn_id: opened.turn_id.clone(),
        assistant_message: "Noted.".into(),
        entities: entities(values),
        ..Default::default()
    };
    let first = block_on(agent.close_turn(close(dana_orbital_kestrel()))).unwrap();
    let count = store.borrow().entity_count();
    let again = block_on(agent.close_turn(close(dana_orbital_kestrel()))).unwrap();
    assert!(again.replayed);
    assert_eq!(
        store.borrow().entity_count(),
        count,
        "a replay creates nothing"
    );
    // matched by type and identity although the replay answers in another order
    let ids = |r: &neotoma_agent_wasm::protocol::turn::CloseTurnResult| -> Vec<(String, String)> {
        r.produced
            .iter()
            .map(|p| (p.id.clone(), p.entity_type.clone()))
            .collect()
    };
    assert_eq!(first.produced.len(), 3);
    assert_eq!(ids(&again), ids(&first));
    assert!(again
        .produced
        .iter()
        .all(|p| p.action == "matched_existing"));

    let other = vec![json!({"entity_type": "person", "name": "Someone Else"})];
    let e = block_on(agent.close_turn(close(other))).unwrap_err();
    assert_eq!(e.code, ErrorCode::IdempotencyMismatch);
    assert_eq!(store.borrow().entity_count(), count);
}

#[test]
fn malformed_entities_are_refused_before_the_reply_is_written() {
    let store = Rc::new(RefCell::new(EmbeddedStore::new()));
    let agent = agent(&store);
    for (values, says) in [
        (
            vec![json!({"name": "No Type"})],
            "entities[0].entity_type is required",
        ),
        (
            vec![
                json!({"entity_type": "person", "name": "A"}),
                json!({"entity_type": "Person"}),
            ],
            "entities[1].entity_type must be snake_case",
        ),
        (
            vec![json!({"entity_type": "conversation_message", "content": "x"})],
            "entities[0].entity_type may not be \"conversation_message\"",
        ),
        (
            vec![json!({"entity_type": "note", "content": "x", "turn_key": "c1:t9"})],
            "entities[0].turn_key is a field of the turn protocol",
        ),
        (
            vec![json!({"entity_type": "task", "title": "x"}); 17],
            "the limit is 16 (option maxProducedEntities)",
        ),
    ] {
        let before = agent.transport().stores.borrow().len();
        let llm = Producing::new(values);
        let e = block_on(agent.turn(TOLD.into(), &llm, turn_opts("bad"))).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidInput);
        assert!(e.message.contains(says), "{}", e.message);
        // only the user message went out (a replay after the first round): no reply store
        let sent = agent.transport().stores.borrow()[before..].to_vec();
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0]["entities"][1]["role"], "user");
    }

    // record_turn checks them before even the user message is written
    let before = agent.transport().stores.borrow().len();
    let bad = Reply {
        text: "ok".into(),
        entities: entities(vec![json!({"entity_type": ""})]),
        ..Default::default()
    };
    let e = block_on(agent.record_turn(Some("t5".into()), None, "hi".into(), bad)).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(agent.transport().stores.borrow().len(), before);
}

#[test]
fn remember_looks_up_first_stores_the_rest_once() {
    let store = Rc::new(RefCell::new(EmbeddedStore::new()));
    let agent = agent(&store);
    // Dana is already known (told in a turn); the company and the project are not
    let llm = Producing::new(vec![
        json!({"entity_type": "person", "name": "Dana Whitfield"}),
    ]);
    let told = block_on(agent.turn(TOLD.into(), &llm, turn_opts("t1"))).unwrap();
    let before = agent.transport().stores.borrow().len();

    let remembered = block_on(agent.remember(entities(vec![
        json!({"entity_type": "person", "name": "dana whitfield", "email": "dana@orbital.example"}),
        json!({"entity_type": "company", "name": "Orbital Labs"}),
        json!({"entity_type": "project", "name": "Project Kestrel", "status": "active"}),
    ])))
    .unwrap();
    let actions: Vec<(&str, &str)> = remembered
        .iter()
        .map(|r| (r.entity_type.as_str(), r.action.as_str()))
        .collect();
    assert_eq!(
        actions,
        [
            ("person", "matched_existing"),
            ("company", "created"),
            ("project", "created")
        ]
    );
    assert_eq!(remembered[0].id, Some(told.produced[0].id.clone()));
    let stores = agent.transport().stores.borrow()[before..].to_vec();
    assert_eq!(stores.len(), 1, "one store for the entities not found");
    let body = &stores[0];
    assert_eq!(body["entities"].as_array().unwrap().len(), 2);
    let key = body["idempotency_key"].as_str().unwrap();
    assert!(key.starts_with("remember-c1-"), "{key}");

    // twice: everything is found now, nothing is written
    let again = block_on(agent.remember(entities(vec![
        json!({"entity_type": "company", "name": "Orbital Labs"}),
        json!({"entity_type": "project", "name": "Project Kestrel", "status": "active"}),
    ])))
    .unwrap();
    assert_eq!(agent.transport().stores.borrow().len(), before + 1);
    assert!(again.iter().all(|r| r.action == "matched_existing"));
    assert_eq!(again[0].id, remembered[1].id);

    // an entity without an identity is always stored; the same content replays onto it
    let note = || entities(vec![json!({"entity_type": "note", "content": "buy milk"})]);
    let first = block_on(agent.remember(note())).unwrap();
    let second = block_on(agent.remember(note())).unwrap();
    assert_eq!(first[0].id, second[0].id);
    let notes = agent.transport().stores.borrow()[before + 1..].to_vec();
    assert_eq!(notes.len(), 2);
    assert_eq!(notes[0]["idempotency_key"], notes[1]["idempotency_key"]);

    // bad input: refused before anything is sent
    let e = block_on(agent.remember(entities(vec![json!({"name": "x"})]))).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(agent.transport().stores.borrow().len(), before + 3);
}
