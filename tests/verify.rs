//! verifyTurn / repairTurn, natively on the embedded store: a turn read back from the store
//! (messages by turn key, their edges), and repairs that make it whole, idempotently.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use serde_json::{json, Value};

use neotoma_agent_wasm::protocol::error::Error;
use neotoma_agent_wasm::protocol::outbox::MemoryStorage;
use neotoma_agent_wasm::protocol::turn::{
    Agent, AgentConfig, CloseTurnInput, Diagnosis, Llm, OpenTurnInput, Reply, TurnContext,
    VerifyInput,
};
use neotoma_agent_wasm::store::EmbeddedStore;
use neotoma_agent_wasm::transport::embedded::EmbeddedTransport;
use neotoma_agent_wasm::transport::{Call, Transport};

mod common;
use common::{block_on, outbound, seed, turn_opts, TestRuntime};

/// The embedded store behind two switches: stores that lose their edges (as a server drops an
/// out-of-range index), and stores that fail with a 503.
struct Lossy {
    inner: EmbeddedTransport,
    drop_edges: Cell<bool>,
    unavailable: Cell<bool>,
}

impl Transport for Lossy {
    async fn call(&self, call: Call, body: &Value) -> Result<Value, Error> {
        if call == Call::Store && self.unavailable.get() {
            return Err(Error::from_http("/store", 503, json!("unavailable")));
        }
        if call == Call::Store && self.drop_edges.get() {
            let mut body = body.clone();
            body["relationships"] = json!([]);
            return self.inner.call(call, &body).await;
        }
        self.inner.call(call, body).await
    }
}

fn agent(store: &Rc<RefCell<EmbeddedStore>>) -> Agent<Lossy, TestRuntime, MemoryStorage> {
    let transport = Lossy {
        inner: EmbeddedTransport::new(store.clone(), Rc::new(|| 1_700_000_000_000.0)),
        drop_edges: Cell::new(false),
        unavailable: Cell::new(false),
    };
    let mut config = AgentConfig::new("c1");
    config.retry = neotoma_agent_wasm::protocol::retry::RetryPolicy::none();
    Agent::new(
        config,
        transport,
        TestRuntime::default(),
        MemoryStorage::default(),
    )
    .unwrap()
}

struct Citing;

impl Llm for Citing {
    async fn reply(&self, _msg: &str, _ctx: &TurnContext) -> Result<Reply, Error> {
        Ok(Reply {
            text: "Acme Corp is a customer.".into(),
            ..Default::default()
        })
    }
}

const MESSAGE: &str = "Tell me about Acme Corp";

fn by_id<'a>(diagnoses: &'a [Diagnosis], id: &str) -> &'a Diagnosis {
    diagnoses
        .iter()
        .find(|d| d.id == id)
        .unwrap_or_else(|| panic!("no diagnosis {id} in {diagnoses:#?}"))
}

fn problems(diagnoses: &[Diagnosis]) -> Vec<(&str, &str)> {
    diagnoses
        .iter()
        .filter(|d| d.severity != "ok")
        .map(|d| (d.id.as_str(), d.severity))
        .collect()
}

fn turn(id: &str) -> VerifyInput {
    VerifyInput {
        turn_id: id.into(),
        ..Default::default()
    }
}

#[test]
fn a_whole_turn_verifies_clean() {
    let store = Rc::new(RefCell::new(EmbeddedStore::new()));
    seed(&store, "company", "Acme Corp");
    let agent = agent(&store);
    block_on(agent.turn(MESSAGE.into(), &Citing, turn_opts("t1"))).unwrap();
    let diagnoses = block_on(agent.verify_turn(&turn("t1"))).unwrap();
    assert_eq!(problems(&diagnoses), []);
    assert_eq!(diagnoses.len(), 11, "{diagnoses:#?}");
    assert_eq!(
        by_id(&diagnoses, "user_message.content").message,
        "the stored text is byte for byte what was sent"
    );
    let repaired = block_on(agent.repair_turn(&turn("t1"))).unwrap();
    assert!(repaired.repairs.is_empty(), "{:#?}", repaired.repairs);
}

#[test]
fn lost_edges_are_found_and_recreated_once() {
    let store = Rc::new(RefCell::new(EmbeddedStore::new()));
    let acme = seed(&store, "company", "Acme Corp");
    let agent = agent(&store);
    agent.transport().drop_edges.set(true);
    let r = block_on(agent.turn(MESSAGE.into(), &Citing, turn_opts("t1"))).unwrap();
    agent.transport().drop_edges.set(false);
    let user = r.user_message_entity_id.clone().unwrap();
    assert!(outbound(&store, &user, "REFERS_TO").is_empty());

    let diagnoses = block_on(agent.verify_turn(&turn("t1"))).unwrap();
    assert_eq!(
        problems(&diagnoses),
        [
            ("user_message.part_of", "error"),
            ("user_message.refers_to", "error"),
            ("assistant_message.part_of", "error"),
            ("assistant_message.refers_to", "error"),
        ]
    );
    assert!(by_id(&diagnoses, "user_message.refers_to")
        .message
        .contains(&acme));

    let repaired = block_on(agent.repair_turn(&turn("t1"))).unwrap();
    let actions: Vec<(&str, &str)> = repaired
        .repairs
        .iter()
        .map(|r| (r.id.as_str(), r.action))
        .collect();
    assert_eq!(
        actions,
        [
            ("user_message.edges", "created_relationships"),
            ("assistant_message.edges", "created_relationships")
        ]
    );
    assert_eq!(problems(&repaired.diagnoses), []);
    assert_eq!(outbound(&store, &user, "REFERS_TO"), [acme]);
    assert_eq!(
        outbound(&store, &user, "PART_OF"),
        [r.conversation_entity_id.clone().unwrap()]
    );
    // a second repair finds nothing to do
    let again = block_on(agent.repair_turn(&turn("t1"))).unwrap();
    assert!(again.repairs.is_empty(), "{:#?}", again.repairs);
}

#[test]
fn a_turn_never_closed_is_repaired_with_the_reply_given() {
    let store = Rc::new(RefCell::new(EmbeddedStore::new()));
    let agent = agent(&store);
    block_on(agent.open_turn(&OpenTurnInput {
        turn_id: Some("t1".into()),
        user_message: "hello".into(),
        ..Default::default()
    }))
    .unwrap();
    let diagnoses = block_on(agent.verify_turn(&turn("t1"))).unwrap();
    assert_eq!(
        problems(&diagnoses),
        [("assistant_message.stored", "error")]
    );

    // without the text it cannot store it, and says so
    let skipped = block_on(agent.repair_turn(&turn("t1"))).unwrap();
    assert_eq!(skipped.repairs[0].action, "skipped");
    assert!(skipped.repairs[0].message.contains("pass it to repairTurn"));

    let with_reply = VerifyInput {
        reply: Some("Hi there.".into()),
        ..turn("t1")
    };
    let repaired = block_on(agent.repair_turn(&with_reply)).unwrap();
    assert_eq!(repaired.repairs[0].action, "stored_message");
    assert_eq!(problems(&repaired.diagnoses), []);
    assert!(block_on(agent.repair_turn(&with_reply))
        .unwrap()
        .repairs
        .is_empty());
}

#[test]
fn a_reply_waiting_in_the_outbox_is_a_warning_that_a_flush_repairs() {
    let store = Rc::new(RefCell::new(EmbeddedStore::new()));
    let agent = agent(&store);
    let opened = block_on(agent.open_turn(&OpenTurnInput {
        turn_id: Some("t1".into()),
        user_message: "hello".into(),
        ..Default::default()
    }))
    .unwrap();
    agent.transport().unavailable.set(true);
    let closed = block_on(agent.close_turn(CloseTurnInput {
        turn_id: opened.turn_id.clone(),
        assistant_message: "Hi.".into(),
        ..Default::default()
    }))
    .unwrap();
    assert!(closed.pending);
    agent.transport().unavailable.set(false);

    let diagnoses = block_on(agent.verify_turn(&turn("t1"))).unwrap();
    assert_eq!(
        problems(&diagnoses),
        [
            ("assistant_message.stored", "warn"),
            ("outbox.pending", "warn")
        ]
    );
    let repaired = block_on(agent.repair_turn(&turn("t1"))).unwrap();
    assert_eq!(repaired.repairs[0].action, "flushed");
    assert_eq!(problems(&repaired.diagnoses), []);
}

#[test]
fn another_agent_checks_the_texts_it_is_given() {
    let store = Rc::new(RefCell::new(EmbeddedStore::new()));
    seed(&store, "company", "Acme Corp");
    block_on(agent(&store).turn(MESSAGE.into(), &Citing, turn_opts("t1"))).unwrap();

    let other = agent(&store);
    let given = VerifyInput {
        turn_id: "t1".into(),
        user_message: Some(MESSAGE.into()),
        reply: Some("Acme Corp is a customer.".into()),
    };
    let diagnoses = block_on(other.verify_turn(&given)).unwrap();
    assert_eq!(problems(&diagnoses), []);
    assert!(by_id(&diagnoses, "user_message.refers_to")
        .message
        .contains("not known here"));

    let wrong = VerifyInput {
        reply: Some("Acme Corp is a supplier.".into()),
        ..given
    };
    let diagnoses = block_on(other.verify_turn(&wrong)).unwrap();
    assert_eq!(
        problems(&diagnoses),
        [("assistant_message.content", "error")]
    );
}
