//! The turn state machine on the embedded store, natively: what is sent, what is stored, what
//! comes back, and what happens when lookups fail or hang.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use serde_json::json;
use serde_json::Value;

use neotoma_agent_wasm::protocol::error::{Error, ErrorCode};
use neotoma_agent_wasm::protocol::outbox::MemoryStorage;
use neotoma_agent_wasm::protocol::retry::RetryPolicy;
use neotoma_agent_wasm::protocol::turn::{
    Agent, AgentConfig, AssistantRefersTo, CloseTurnInput, Llm, OpenTurnInput, Reply, TurnContext,
    TurnOptions,
};
use neotoma_agent_wasm::store::EmbeddedStore;
use neotoma_agent_wasm::transport::embedded::EmbeddedTransport;
use neotoma_agent_wasm::transport::{Call, Transport};

mod common;
use common::{assert_same_turn, block_on, outbound, seed, turn_opts, yield_once, TestRuntime};

/// The embedded store, with a log of calls and lookups that can fail or never answer.
struct Observed {
    inner: EmbeddedTransport,
    calls: RefCell<Vec<(String, Value)>>,
    failing: Vec<&'static str>,
    hanging: Vec<&'static str>,
}

impl Observed {
    fn count(&self, path: &str) -> usize {
        self.calls
            .borrow()
            .iter()
            .filter(|(p, _)| p == path)
            .count()
    }
}

common::transport_by_call!(Observed);

impl Observed {
    async fn store(&self, body: &Value) -> Result<Value, Error> {
        self.calls
            .borrow_mut()
            .push(("/store".into(), body.clone()));
        yield_once().await;
        self.inner.call(Call::Store, body).await
    }
    async fn retrieve_entity_by_identifier(&self, body: &Value) -> Result<Value, Error> {
        self.calls
            .borrow_mut()
            .push(("/retrieve".into(), body.clone()));
        let id = body["identifier"].as_str().unwrap_or_default();
        if self.failing.contains(&id) {
            return Err(Error::from_http(
                "/retrieve_entity_by_identifier",
                500,
                json!("boom"),
            ));
        }
        if self.hanging.contains(&id) {
            std::future::pending::<()>().await;
        }
        self.inner
            .call(Call::RetrieveEntityByIdentifier, body)
            .await
    }
    async fn create_relationships(&self, body: &Value) -> Result<Value, Error> {
        self.calls
            .borrow_mut()
            .push(("/create_relationships".into(), body.clone()));
        self.inner.call(Call::CreateRelationships, body).await
    }
}

struct Fixture {
    store: Rc<RefCell<EmbeddedStore>>,
}

impl Fixture {
    fn new() -> Self {
        let store = Rc::new(RefCell::new(EmbeddedStore::new()));
        for (t, name) in [
            ("company", "Acme Corp"),
            ("project", "Project Falcon"),
            ("person", "Sarah Chen"),
        ] {
            seed(&store, t, name);
        }
        Fixture { store }
    }

    fn agent(&self, config: AgentConfig) -> Agent<Observed, TestRuntime, MemoryStorage> {
        self.agent_with(config, vec![], vec![])
    }

    fn agent_with(
        &self,
        config: AgentConfig,
        failing: Vec<&'static str>,
        hanging: Vec<&'static str>,
    ) -> Agent<Observed, TestRuntime, MemoryStorage> {
        let transport = Observed {
            inner: EmbeddedTransport::new(self.store.clone(), Rc::new(|| 1_700_000_000_000.0)),
            calls: RefCell::new(Vec::new()),
            failing,
            hanging,
        };
        Agent::new(
            config,
            transport,
            TestRuntime::default(),
            MemoryStorage::default(),
        )
        .unwrap()
    }

    fn snapshot(&self, id: &str) -> Value {
        self.store
            .borrow()
            .get_entity_snapshot(&json!({ "entity_id": id }))
            .unwrap()
    }

    fn outbound(&self, id: &str, kind: &str) -> Vec<String> {
        outbound(&self.store, id, kind)
    }

    fn id_of(&self, name: &str) -> String {
        let r = self
            .store
            .borrow()
            .retrieve_entity_by_identifier(&json!({"identifier": name}))
            .unwrap();
        r["entities"][0]["id"].as_str().unwrap().to_owned()
    }
}

/// Replies naming the first retrieved entity (or "nothing").
struct NamingLlm;

impl Llm for NamingLlm {
    async fn reply(&self, _msg: &str, ctx: &TurnContext) -> Result<Reply, Error> {
        let first = ctx
            .retrieved
            .first()
            .and_then(|e| e.snapshot.get("name"))
            .and_then(Value::as_str)
            .unwrap_or("nothing");
        Ok(Reply {
            text: format!("Here is what I know about {first}."),
            ..Default::default()
        })
    }
}

struct FailingLlm;

impl Llm for FailingLlm {
    async fn reply(&self, _msg: &str, _ctx: &TurnContext) -> Result<Reply, Error> {
        Err(Error::invalid_input("the model is down"))
    }
}

const MESSAGE: &str = "Tell me about Acme Corp and \"Project Falcon\"";

#[test]
fn a_turn_is_one_retrieval_wave_and_two_stores() {
    let fx = Fixture::new();
    let agent = fx.agent(AgentConfig::new("c1"));
    let r = block_on(agent.turn(MESSAGE.into(), &NamingLlm, turn_opts("t1"))).unwrap();

    let calls = agent.transport().calls.borrow().clone();
    let paths: Vec<&str> = calls.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(paths, ["/retrieve", "/retrieve", "/store", "/store"]);

    let user_store = &calls[2].1;
    assert_eq!(
        user_store["idempotency_key"],
        "conversation-c1-t1-user-turn"
    );
    assert_eq!(user_store["entities"][1]["content"], MESSAGE);
    assert_eq!(user_store["entities"][1]["turn_number"], 1);
    let assistant_store = &calls[3].1;
    assert_eq!(
        assistant_store["idempotency_key"],
        "conversation-c1-t1-assistant-turn"
    );
    assert_eq!(
        assistant_store["entities"][1]["turn_key"],
        "c1:t1:assistant"
    );
    assert_eq!(assistant_store["entities"][1]["turn_number"], 1);

    let acme = fx.id_of("Acme Corp");
    let falcon = fx.id_of("Project Falcon");
    assert_eq!(r.retrieved_entity_ids, vec![acme.clone(), falcon.clone()]);
    assert_eq!(r.assistant_message, "Here is what I know about Acme Corp.");
    // the reply cites Acme Corp only
    assert_eq!(r.refers_to, vec![acme.clone()]);

    let user = fx.snapshot(r.user_message_entity_id.as_deref().unwrap());
    assert_eq!(user["snapshot"]["content"], MESSAGE);
    assert_eq!(user["snapshot"]["role"], "user");
    assert_eq!(
        fx.outbound(r.user_message_entity_id.as_deref().unwrap(), "PART_OF"),
        vec![r.conversation_entity_id.clone().unwrap()]
    );
    let mut user_refs = fx.outbound(r.user_message_entity_id.as_deref().unwrap(), "REFERS_TO");
    user_refs.sort();
    let mut want = vec![acme.clone(), falcon];
    want.sort();
    assert_eq!(user_refs, want);
    assert_eq!(
        fx.outbound(
            r.assistant_message_entity_id.as_deref().unwrap(),
            "REFERS_TO"
        ),
        vec![acme]
    );
    assert_eq!(
        fx.outbound(r.assistant_message_entity_id.as_deref().unwrap(), "PART_OF"),
        vec![r.conversation_entity_id.unwrap()]
    );
}

#[test]
fn retrieved_mode_refers_to_everything_retrieved() {
    let fx = Fixture::new();
    let mut config = AgentConfig::new("c1");
    config.assistant_refers_to = AssistantRefersTo::Retrieved;
    let agent = fx.agent(config);
    let r = block_on(agent.turn(MESSAGE.into(), &NamingLlm, TurnOptions::default())).unwrap();
    assert_eq!(r.refers_to, r.retrieved_entity_ids);
    assert_eq!(r.refers_to.len(), 2);
}

#[test]
fn a_replayed_turn_writes_nothing_and_returns_the_same_ids() {
    let fx = Fixture::new();
    let agent = fx.agent(AgentConfig::new("c1"));
    let first = block_on(agent.turn(MESSAGE.into(), &NamingLlm, turn_opts("t1"))).unwrap();
    let count = fx.store.borrow().entity_count();
    let again = block_on(agent.turn(MESSAGE.into(), &NamingLlm, turn_opts("t1"))).unwrap();
    assert_eq!(fx.store.borrow().entity_count(), count);
    assert_same_turn(&again, &first);
    assert!(again.replayed.user && again.replayed.assistant);
    assert!(!first.replayed.user && !first.replayed.assistant);
}

#[test]
fn a_replay_restores_refers_to_edges_the_first_store_lacked() {
    let fx = Fixture::new();
    let agent = fx.agent(AgentConfig::new("c1"));
    // first attempt: retrieval found nothing (the entity did not exist yet)
    let first = block_on(agent.open_turn(&OpenTurnInput {
        turn_id: Some("t1".into()),
        user_message: "What about Globex?".into(),
        ..Default::default()
    }))
    .unwrap();
    assert!(first.retrieved.is_empty());
    seed(&fx.store, "company", "Globex");
    // the replay finds it; the server would drop the new edge, so it is created separately
    let replay = block_on(agent.open_turn(&OpenTurnInput {
        turn_id: Some("t1".into()),
        user_message: "What about Globex?".into(),
        ..Default::default()
    }))
    .unwrap();
    assert!(replay.replayed);
    assert_eq!(replay.user_message_entity_id, first.user_message_entity_id);
    assert_eq!(agent.transport().count("/create_relationships"), 1);
    assert_eq!(
        fx.outbound(
            replay.user_message_entity_id.as_deref().unwrap(),
            "REFERS_TO"
        ),
        vec![fx.id_of("Globex")]
    );
}

#[test]
fn failing_and_hanging_lookups_are_skipped() {
    let fx = Fixture::new();
    let agent = fx.agent_with(
        AgentConfig::new("c1"),
        vec!["Acme Corp"],
        vec!["Project Falcon"],
    );
    let r = block_on(agent.turn(
        "Acme Corp, \"Project Falcon\" and Sarah Chen".into(),
        &NamingLlm,
        TurnOptions::default(),
    ))
    .unwrap();
    assert_eq!(r.retrieved_entity_ids, vec![fx.id_of("Sarah Chen")]);
    assert_eq!(agent.transport().count("/store"), 2);
}

#[test]
fn retrieval_is_bounded_by_the_limit() {
    let fx = Fixture::new();
    let mut config = AgentConfig::new("c1");
    config.retrieval_limit = 2;
    let agent = fx.agent(config);
    let r = block_on(agent.turn(
        "Acme Corp, Sarah Chen, \"Project Falcon\", Globex, Initech, Umbrella".into(),
        &NamingLlm,
        TurnOptions::default(),
    ))
    .unwrap();
    assert_eq!(agent.transport().count("/retrieve"), 2);
    assert_eq!(r.retrieved.len(), 2);
}

#[test]
fn an_llm_error_leaves_the_user_message_and_no_assistant_message() {
    let fx = Fixture::new();
    let agent = fx.agent(AgentConfig::new("c1"));
    let before = fx.store.borrow().entity_count();
    let err = block_on(agent.turn(MESSAGE.into(), &FailingLlm, turn_opts("t1"))).unwrap_err();
    assert_eq!(err.message, "the model is down");
    assert_eq!(agent.transport().count("/store"), 1);
    assert_eq!(fx.store.borrow().entity_count(), before + 2);
}

#[test]
fn bad_input_sends_nothing() {
    let fx = Fixture::new();
    let mut config = AgentConfig::new("c1");
    config.max_message_bytes = 8;
    let agent = fx.agent(config);
    for (turn_id, message) in [
        (Some(String::new()), "ok"),
        (Some("x".repeat(257)), "ok"),
        (Some("t\n1".into()), "ok"),
        (None, "far more than eight bytes"),
    ] {
        let options = TurnOptions {
            turn_id,
            ..TurnOptions::default()
        };
        let err = block_on(agent.turn(message.into(), &NamingLlm, options)).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidInput);
    }
    assert!(agent.transport().calls.borrow().is_empty());
    assert!(Agent::new(
        AgentConfig::new(" "),
        fx.agent(AgentConfig::new("c")).transport().inner.clone(),
        TestRuntime::default(),
        MemoryStorage::default()
    )
    .is_err());
}

#[test]
fn a_reused_turn_id_with_other_content_is_an_idempotency_mismatch() {
    let fx = Fixture::new();
    let agent = fx.agent(AgentConfig::new("c1"));
    block_on(agent.turn("first".into(), &NamingLlm, turn_opts("t1"))).unwrap();
    let count = fx.store.borrow().entity_count();
    let err = block_on(agent.turn("second".into(), &NamingLlm, turn_opts("t1"))).unwrap_err();
    assert_eq!(err.code, ErrorCode::IdempotencyMismatch);
    assert_eq!(err.status, Some(400));
    // no server answered: the embedded store did, and the message says so
    assert!(
        err.message
            .starts_with("the embedded store refused /store (400 ERR_IDEMPOTENCY_MISMATCH): "),
        "{}",
        err.message
    );
    assert_eq!(fx.store.borrow().entity_count(), count);
}

#[test]
fn an_embedded_store_error_says_what_the_embedded_store_refused() {
    let fx = Fixture::new();
    let transport = fx.agent(AgentConfig::new("c1")).transport().inner.clone();
    let err = block_on(transport.call(Call::Store, &json!({ "entities": "x" }))).unwrap_err();
    assert_eq!(err.code, ErrorCode::NeotomaHttp);
    assert_eq!(err.status, Some(400));
    assert_eq!(
        err.body.as_ref().map(|b| b["error_code"].clone()),
        Some(json!("VALIDATION_INVALID_FORMAT"))
    );
    assert!(
        err.message
            .starts_with("the embedded store refused /store (400 VALIDATION_INVALID_FORMAT): "),
        "{}",
        err.message
    );
    let err = block_on(transport.call(Call::CreateRelationships, &json!({ "relationships": "x" })))
        .unwrap_err();
    assert!(
        err.message
            .starts_with("the embedded store refused /create_relationships (400 "),
        "{}",
        err.message
    );
}

#[test]
fn turn_numbers_count_on_and_close_turn_reuses_them() {
    let fx = Fixture::new();
    let agent = fx.agent(AgentConfig::new("c1"));
    let a = block_on(agent.open_turn(&OpenTurnInput {
        user_message: "one".into(),
        ..Default::default()
    }))
    .unwrap();
    let b = block_on(agent.open_turn(&OpenTurnInput {
        turn_number: Some(7),
        user_message: "two".into(),
        ..Default::default()
    }))
    .unwrap();
    let c = block_on(agent.open_turn(&OpenTurnInput {
        user_message: "three".into(),
        ..Default::default()
    }))
    .unwrap();
    assert_eq!((a.turn_number, b.turn_number, c.turn_number), (1, 7, 8));
    assert_ne!(a.turn_id, c.turn_id);
    let closed = block_on(agent.close_turn(CloseTurnInput {
        turn_id: b.turn_id.clone(),
        assistant_message: "reply".into(),
        refers_to: vec!["ent_explicit".into()],
        ..Default::default()
    }))
    .unwrap();
    assert_eq!(closed.turn_number, Some(7));
    assert_eq!(closed.refers_to, vec!["ent_explicit".to_string()]);
    let stored = fx.snapshot(closed.assistant_message_entity_id.as_deref().unwrap());
    assert_eq!(stored["snapshot"]["turn_number"], 7);
}

#[test]
fn turns_in_flight_together_get_distinct_numbers() {
    let fx = Fixture::new();
    let agent = fx.agent(AgentConfig::new("c1"));
    let (a, b) = block_on(futures_util::future::join(
        agent.turn("first".into(), &NamingLlm, TurnOptions::default()),
        agent.turn("second".into(), &NamingLlm, TurnOptions::default()),
    ));
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_ne!(a.turn_number, b.turn_number);
    assert_ne!(a.turn_id, b.turn_id);
}

#[test]
fn an_over_matching_identifier_does_not_crowd_out_the_others() {
    let fx = Fixture::new();
    for n in 1..=6 {
        seed(&fx.store, "company", &format!("Globex {n}"));
    }
    let mut config = AgentConfig::new("c1");
    config.retrieval_limit = 3;
    let agent = fx.agent(config);
    // "Globex" matches six companies; Sarah Chen must still be among the three kept
    let r = block_on(agent.turn(
        "Globex and Sarah Chen".into(),
        &NamingLlm,
        TurnOptions::default(),
    ))
    .unwrap();
    assert_eq!(r.retrieved.len(), 3);
    assert!(r.retrieved_entity_ids.contains(&fx.id_of("Sarah Chen")));
}

/// Fails the first `/store`, then behaves.
struct FlakyOnce {
    inner: EmbeddedTransport,
    failed: Cell<bool>,
}

common::transport_by_call!(FlakyOnce);

impl FlakyOnce {
    async fn store(&self, body: &Value) -> Result<Value, Error> {
        if !self.failed.replace(true) {
            // the server got the write but the answer was lost
            let _ = self.inner.call(Call::Store, body).await;
            return Err(Error::new(ErrorCode::NeotomaTimeout, "no answer"));
        }
        self.inner.call(Call::Store, body).await
    }
    async fn retrieve_entity_by_identifier(&self, body: &Value) -> Result<Value, Error> {
        self.inner
            .call(Call::RetrieveEntityByIdentifier, body)
            .await
    }
    async fn create_relationships(&self, body: &Value) -> Result<Value, Error> {
        self.inner.call(Call::CreateRelationships, body).await
    }
}

#[test]
fn a_retried_turn_keeps_its_number_and_replays() {
    // No automatic retry and no outbox: the caller sees the error and retries the turn.
    let fx = Fixture::new();
    let transport = FlakyOnce {
        inner: EmbeddedTransport::new(fx.store.clone(), Rc::new(|| 0.0)),
        failed: Cell::new(false),
    };
    let mut config = AgentConfig::new("c1");
    config.retry = RetryPolicy::none();
    config.outbox_enabled = false;
    let agent = Agent::new(
        config,
        transport,
        TestRuntime::default(),
        MemoryStorage::default(),
    )
    .unwrap();
    let err = block_on(agent.turn(MESSAGE.into(), &NamingLlm, turn_opts("t1"))).unwrap_err();
    assert_eq!(err.code, ErrorCode::NeotomaTimeout);
    let retry = block_on(agent.turn(MESSAGE.into(), &NamingLlm, turn_opts("t1"))).unwrap();
    assert_eq!(retry.turn_number, 1);
    assert!(retry.replayed.user);
    let next = block_on(agent.turn("next".into(), &NamingLlm, TurnOptions::default())).unwrap();
    assert_eq!(next.turn_number, 2);
}

#[test]
fn a_lost_answer_is_retried_with_the_same_body_and_collapses_onto_one_message() {
    let fx = Fixture::new();
    let transport = FlakyOnce {
        inner: EmbeddedTransport::new(fx.store.clone(), Rc::new(|| 0.0)),
        failed: Cell::new(false),
    };
    let agent = Agent::new(
        AgentConfig::new("c1"),
        transport,
        TestRuntime::default(),
        MemoryStorage::default(),
    )
    .unwrap();
    let r = block_on(agent.turn(MESSAGE.into(), &NamingLlm, turn_opts("t1"))).unwrap();
    assert!(
        r.replayed.user,
        "the retry was answered as a replay of the lost write"
    );
    assert_eq!(
        r.pending,
        neotoma_agent_wasm::protocol::turn::PerMessage {
            user: false,
            assistant: false
        }
    );
    let index = fx.store.borrow().turn_index("c1").unwrap();
    assert_eq!(
        index["turns"].as_array().unwrap().len(),
        2,
        "one user and one assistant message"
    );
    // the replayed store's REFERS_TO edges exist (repaired if the server skipped them)
    let mut refs = fx.outbound(r.user_message_entity_id.as_deref().unwrap(), "REFERS_TO");
    refs.sort();
    let mut want = vec![fx.id_of("Acme Corp"), fx.id_of("Project Falcon")];
    want.sort();
    assert_eq!(refs, want);
}

/// An agent whose turns overlap the user message's store with the LLM.
fn overlapped_config() -> AgentConfig {
    let mut config = AgentConfig::new("c1");
    config.overlap_user_store = true;
    config
}

#[test]
fn an_overlapped_turn_sends_the_same_requests_and_stores_the_same_turn() {
    let plain_fx = Fixture::new();
    let plain = plain_fx.agent(AgentConfig::new("c1"));
    let p = block_on(plain.turn(MESSAGE.into(), &NamingLlm, turn_opts("t1"))).unwrap();
    let fx = Fixture::new();
    let agent = fx.agent(overlapped_config());
    let r = block_on(agent.turn(MESSAGE.into(), &NamingLlm, turn_opts("t1"))).unwrap();

    let bodies = |calls: &RefCell<Vec<(String, Value)>>| calls.borrow().clone();
    assert_eq!(
        bodies(&agent.transport().calls),
        bodies(&plain.transport().calls),
        "same requests, same bodies, same order"
    );
    assert_eq!(r.assistant_message, p.assistant_message);
    assert_eq!(r.retrieved_entity_ids, p.retrieved_entity_ids);
    assert_eq!(r.refers_to, p.refers_to);
    assert_eq!(r.turn_number, 1);
    for (id, plain_id) in [
        (&r.user_message_entity_id, &p.user_message_entity_id),
        (
            &r.assistant_message_entity_id,
            &p.assistant_message_entity_id,
        ),
    ] {
        let (id, plain_id) = (id.as_deref().unwrap(), plain_id.as_deref().unwrap());
        assert_eq!(
            fx.snapshot(id)["snapshot"]["content"],
            plain_fx.snapshot(plain_id)["snapshot"]["content"]
        );
        assert_eq!(
            fx.outbound(id, "REFERS_TO").len(),
            plain_fx.outbound(plain_id, "REFERS_TO").len()
        );
        assert_eq!(
            fx.outbound(id, "PART_OF"),
            vec![r.conversation_entity_id.clone().unwrap()]
        );
    }
    assert!(block_on(agent.pending_writes()).unwrap().is_empty());
}

#[test]
fn an_overlapped_llm_error_leaves_the_user_message_stored_and_no_assistant_message() {
    let fx = Fixture::new();
    let agent = fx.agent(overlapped_config());
    let before = fx.store.borrow().entity_count();
    let err = block_on(agent.turn(MESSAGE.into(), &FailingLlm, turn_opts("t1"))).unwrap_err();
    assert_eq!(err.message, "the model is down");
    assert_eq!(agent.transport().count("/store"), 1);
    assert_eq!(fx.store.borrow().entity_count(), before + 2);
    assert!(
        block_on(agent.pending_writes()).unwrap().is_empty(),
        "stored, so out of the outbox"
    );
}

#[test]
fn an_overlapped_reused_turn_id_with_other_content_is_still_an_idempotency_mismatch() {
    let fx = Fixture::new();
    let agent = fx.agent(overlapped_config());
    block_on(agent.turn("first".into(), &NamingLlm, turn_opts("t1"))).unwrap();
    let count = fx.store.borrow().entity_count();
    let err = block_on(agent.turn("second".into(), &NamingLlm, turn_opts("t1"))).unwrap_err();
    assert_eq!(
        (err.code, err.status),
        (ErrorCode::IdempotencyMismatch, Some(400))
    );
    assert_eq!(fx.store.borrow().entity_count(), count, "nothing changed");
    assert_eq!(agent.transport().count("/store"), 3, "no assistant store");
    assert!(block_on(agent.pending_writes()).unwrap().is_empty());
}
