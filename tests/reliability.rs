//! Retries, the outbox and the LLM bound, natively on the embedded store behind a transport that
//! fails on cue: what is sent (same body, same key), how long the agent waits, what is kept, and
//! that every message ends up stored exactly once.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use serde_json::json;
use serde_json::Value;

use neotoma_agent_wasm::protocol::error::{Error, ErrorCode};
use neotoma_agent_wasm::protocol::events::AgentEvent;
use neotoma_agent_wasm::protocol::outbox::MemoryStorage;
use neotoma_agent_wasm::protocol::retry::RetryPolicy;
use neotoma_agent_wasm::protocol::turn::{
    Agent, AgentConfig, CloseTurnInput, Llm, PerMessage, Reply, TurnContext, TurnOptions,
    TurnResult,
};
use neotoma_agent_wasm::store::EmbeddedStore;
use neotoma_agent_wasm::transport::embedded::EmbeddedTransport;
use neotoma_agent_wasm::transport::{Call, Transport};

mod common;
use common::{block_on, event_type, outbound, seed, turn_opts, yield_once, TestRuntime};

/// What the next `/store` does.
#[derive(Clone, Debug)]
enum Fault {
    /// No answer; the server never saw it.
    Network,
    /// The server stored it, but the answer was lost.
    LostAnswer,
    /// An HTTP error, optionally with `Retry-After` (ms).
    Http(u16, Option<u32>),
    /// The server stored it and answered 200 with a body cut short.
    Garbled,
}

/// The embedded store behind scripted `/store` faults; `down` fails every `/store`,
/// `relationships_down` every `/create_relationships`.
struct Faulty {
    inner: EmbeddedTransport,
    script: RefCell<VecDeque<Fault>>,
    down: Cell<bool>,
    relationships_down: Cell<bool>,
    stores: RefCell<Vec<Value>>,
    /// Every `/retrieve_entity_by_identifier` body (entity lookups and stored-reply lookups).
    lookups: RefCell<Vec<Value>>,
    /// What happened, in order: `send {role}`, `answer {role} ok|{code}` for every `/store`
    /// (and what an LLM adds, `llm`).
    log: RefCell<Vec<String>>,
}

impl Faulty {
    /// What a later `/store` meets, after those already scripted.
    fn then(&self, fault: Fault) {
        self.script.borrow_mut().push_back(fault);
    }
}

common::transport_by_call!(Faulty);

impl Faulty {
    async fn store(&self, body: &Value) -> Result<Value, Error> {
        self.stores.borrow_mut().push(body.clone());
        let role = body["entities"][1]["role"]
            .as_str()
            .unwrap_or("?")
            .to_owned();
        self.log.borrow_mut().push(format!("send {role}"));
        yield_once().await; // a round trip: concurrent turns interleave here
        let answer = self.answer_store(body).await;
        let outcome = match &answer {
            Ok(_) => "ok",
            Err(e) => e.code.as_str(),
        };
        self.log
            .borrow_mut()
            .push(format!("answer {role} {outcome}"));
        answer
    }

    async fn answer_store(&self, body: &Value) -> Result<Value, Error> {
        if self.down.get() {
            return Err(Error::new(ErrorCode::NeotomaNetwork, "connection refused"));
        }
        let next = self.script.borrow_mut().pop_front();
        match next {
            None => self.inner.call(Call::Store, body).await,
            Some(Fault::Network) => Err(Error::new(ErrorCode::NeotomaNetwork, "reset")),
            Some(Fault::LostAnswer) => {
                let _ = self.inner.call(Call::Store, body).await;
                Err(Error::new(ErrorCode::NeotomaTimeout, "no answer"))
            }
            Some(Fault::Garbled) => {
                let _ = self.inner.call(Call::Store, body).await;
                Ok(Value::String("{\"success\":true,\"entit".into()))
            }
            Some(Fault::Http(status, retry_after)) => {
                let mut e = Error::from_http("/store", status, json!("<html>busy</html>"));
                e.retry_after_ms = retry_after;
                Err(e)
            }
        }
    }
    async fn retrieve_entity_by_identifier(&self, body: &Value) -> Result<Value, Error> {
        self.lookups.borrow_mut().push(body.clone());
        self.inner
            .call(Call::RetrieveEntityByIdentifier, body)
            .await
    }
    async fn create_relationships(&self, body: &Value) -> Result<Value, Error> {
        if self.relationships_down.get() {
            return Err(Error::new(ErrorCode::NeotomaNetwork, "connection refused"));
        }
        self.inner.call(Call::CreateRelationships, body).await
    }
}

struct Llmish;

impl Llm for Llmish {
    async fn reply(&self, msg: &str, _ctx: &TurnContext) -> Result<Reply, Error> {
        Ok(Reply {
            text: format!("About {msg}: Acme Corp."),
            ..Default::default()
        })
    }
}

/// Never answers.
struct SilentLlm;

impl Llm for SilentLlm {
    async fn reply(&self, _msg: &str, _ctx: &TurnContext) -> Result<Reply, Error> {
        std::future::pending().await
    }
}

type TestAgent = Agent<Faulty, TestRuntime, MemoryStorage>;

/// One whole turn with the `Llmish` model under `turn_id`.
fn turn(agent: &TestAgent, message: &str, turn_id: &str) -> Result<TurnResult, Error> {
    block_on(agent.turn(message.into(), &Llmish, turn_opts(turn_id)))
}

/// A turn while the server is down (its user message goes to the outbox), then the server is back.
fn turn_during_an_outage(agent: &TestAgent, message: &str, turn_id: &str) {
    agent.transport().down.set(true);
    turn(agent, message, turn_id).unwrap();
    agent.transport().down.set(false);
}

struct Setup {
    store: Rc<RefCell<EmbeddedStore>>,
    storage: MemoryStorage,
    events: Rc<RefCell<Vec<AgentEvent>>>,
    acme: String,
}

impl Setup {
    fn new() -> Self {
        let store = Rc::new(RefCell::new(EmbeddedStore::new()));
        let acme = seed(&store, "company", "Acme Corp");
        Setup {
            store,
            storage: MemoryStorage::default(),
            events: Rc::default(),
            acme,
        }
    }

    fn agent(&self, script: Vec<Fault>, configure: impl FnOnce(&mut AgentConfig)) -> TestAgent {
        let mut config = AgentConfig::new("c1");
        let events = self.events.clone();
        config.on_event = Some(Box::new(move |e: &AgentEvent| {
            events.borrow_mut().push(e.clone())
        }));
        configure(&mut config);
        let transport = Faulty {
            inner: EmbeddedTransport::new(self.store.clone(), Rc::new(|| 0.0)),
            script: RefCell::new(script.into()),
            down: Cell::new(false),
            relationships_down: Cell::new(false),
            stores: RefCell::default(),
            lookups: RefCell::default(),
            log: RefCell::default(),
        };
        Agent::new(
            config,
            transport,
            TestRuntime::default(),
            self.storage.clone(),
        )
        .unwrap()
    }

    /// (role, content) of every stored message of c1, in turn order.
    fn messages(&self) -> Vec<(String, String)> {
        let store = self.store.borrow();
        let Ok(index) = store.turn_index("c1") else {
            return Vec::new();
        };
        index["turns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| {
                let snap = store
                    .get_entity_snapshot(&json!({"entity_id": row["message_entity_id"]}))
                    .unwrap();
                (
                    snap["snapshot"]["role"].as_str().unwrap().to_owned(),
                    snap["snapshot"]["content"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    }

    fn refers_to(&self, id: &str) -> Vec<String> {
        outbound(&self.store, id, "REFERS_TO")
    }

    fn event_types(&self) -> Vec<&'static str> {
        self.events.borrow().iter().map(event_type).collect()
    }
}

#[test]
fn transient_failures_are_retried_with_the_same_body_and_key() {
    let s = Setup::new();
    let agent = s.agent(
        vec![Fault::Network, Fault::Http(503, None), Fault::LostAnswer],
        |_| {},
    );
    let r = turn(&agent, "Tell me about Acme Corp", "t1").unwrap();
    assert_eq!(
        r.pending,
        PerMessage {
            user: false,
            assistant: false
        }
    );
    assert!(r.replayed.user, "the last retry found the lost write");
    let stores = agent.transport().stores.borrow();
    assert_eq!(
        stores.len(),
        5,
        "4 attempts for the user message, 1 for the assistant's"
    );
    assert!(
        stores[..4].iter().all(|b| b == &stores[0]),
        "every attempt sends the same body"
    );
    assert_eq!(stores[0]["idempotency_key"], "conversation-c1-t1-user-turn");
    assert_eq!(
        s.messages(),
        vec![
            ("user".into(), "Tell me about Acme Corp".into()),
            (
                "assistant".into(),
                "About Tell me about Acme Corp: Acme Corp.".into()
            ),
        ]
    );
    assert_eq!(
        s.refers_to(r.user_message_entity_id.as_deref().unwrap()),
        vec![s.acme.clone()]
    );
    assert_eq!(s.event_types(), vec!["retry", "retry", "retry"]);
    // backoff doubles, with jitter (random_unit = 0.5: half of 250, 500, 1000)
    let delays: Vec<u32> = s
        .events
        .borrow()
        .iter()
        .filter_map(|e| match e {
            AgentEvent::Retry { delay_ms, .. } => Some(*delay_ms),
            _ => None,
        })
        .collect();
    assert_eq!(delays, vec![125, 250, 500]);
}

#[test]
fn retry_after_is_honoured_and_other_4xx_are_not_retried() {
    let s = Setup::new();
    let agent = s.agent(vec![Fault::Http(429, Some(3_000))], |_| {});
    turn(&agent, "hello", "t1").unwrap();
    match &s.events.borrow()[0] {
        AgentEvent::Retry {
            delay_ms,
            status,
            path,
            attempt,
            ..
        } => {
            assert_eq!(
                (*delay_ms, *status, *path, *attempt),
                (3_000, Some(429), "/store", 1)
            );
        }
        other => panic!("{other:?}"),
    }

    let s = Setup::new();
    let agent = s.agent(vec![Fault::Http(401, None)], |_| {});
    let e = turn(&agent, "hello", "t1").unwrap_err();
    assert_eq!((e.code, e.status), (ErrorCode::NeotomaHttp, Some(401)));
    assert_eq!(
        agent.transport().stores.borrow().len(),
        1,
        "a 401 is not retried"
    );
    assert!(s.messages().is_empty());
    assert!(
        block_on(agent.pending_writes()).unwrap().is_empty(),
        "nor kept: it would fail again"
    );
}

#[test]
fn a_store_that_keeps_failing_goes_to_the_outbox_and_the_turn_goes_on() {
    let s = Setup::new();
    let agent = s.agent(vec![], |c| c.retry.max_attempts = 2);
    agent.transport().down.set(true);
    let r = turn(&agent, "Tell me about Acme Corp", "t1").unwrap();
    assert_eq!(
        r.pending,
        PerMessage {
            user: true,
            assistant: true
        }
    );
    assert_eq!(
        r.assistant_message, "About Tell me about Acme Corp: Acme Corp.",
        "the LLM still answered"
    );
    assert_eq!(r.user_message_entity_id, None);
    let pending = block_on(agent.pending_writes()).unwrap();
    let keys: Vec<_> = pending.iter().map(|w| w.idempotency_key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "conversation-c1-t1-user-turn",
            "conversation-c1-t1-assistant-turn"
        ]
    );
    assert!(s.messages().is_empty());

    // still down: flush keeps everything
    let flushed = block_on(agent.flush()).unwrap();
    assert_eq!((flushed.flushed, flushed.pending), (0, 2));

    agent.transport().down.set(false);
    let flushed = block_on(agent.flush()).unwrap();
    assert_eq!(
        (flushed.flushed, flushed.pending, flushed.failed.len()),
        (2, 0, 0)
    );
    assert_eq!(
        s.messages(),
        vec![
            ("user".into(), "Tell me about Acme Corp".into()),
            (
                "assistant".into(),
                "About Tell me about Acme Corp: Acme Corp.".into()
            ),
        ]
    );
    assert!(block_on(agent.pending_writes()).unwrap().is_empty());
    let types = s.event_types();
    assert_eq!(types.iter().filter(|t| **t == "writePending").count(), 2);
    assert_eq!(types.iter().filter(|t| **t == "writeFlushed").count(), 2);
}

#[test]
fn the_next_turn_sends_waiting_writes_first_in_order() {
    let s = Setup::new();
    let agent = s.agent(vec![], |c| c.retry = RetryPolicy::none());
    turn_during_an_outage(&agent, "first", "t1");
    let r2 = turn(&agent, "second", "t2").unwrap();
    assert_eq!(
        r2.pending,
        PerMessage {
            user: false,
            assistant: false
        }
    );
    let sent: Vec<String> = agent
        .transport()
        .stores
        .borrow()
        .iter()
        .skip(2) // the two failed attempts while down
        .map(|b| b["idempotency_key"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        sent,
        [
            "conversation-c1-t1-user-turn",
            "conversation-c1-t1-assistant-turn",
            "conversation-c1-t2-user-turn",
            "conversation-c1-t2-assistant-turn"
        ]
    );
    assert_eq!(s.messages().len(), 4);
}

#[test]
fn a_restarted_agent_finds_the_outbox_in_its_storage() {
    let s = Setup::new();
    let first = s.agent(vec![], |c| c.retry = RetryPolicy::none());
    first.transport().down.set(true);
    turn(&first, "before the restart", "t1").unwrap();
    drop(first);
    let second = s.agent(vec![], |_| {});
    assert_eq!(block_on(second.pending_writes()).unwrap().len(), 2);
    let flushed = block_on(second.flush()).unwrap();
    assert_eq!(flushed.flushed, 2);
    assert_eq!(s.messages().len(), 2);
}

#[test]
fn a_write_refused_on_its_merits_is_dropped_and_reported() {
    let s = Setup::new();
    let agent = s.agent(vec![], |c| c.retry = RetryPolicy::none());
    turn_during_an_outage(&agent, "one", "t1");
    agent.transport().then(Fault::Http(400, None));
    let flushed = block_on(agent.flush()).unwrap();
    assert_eq!((flushed.flushed, flushed.pending), (1, 0));
    assert_eq!(flushed.failed.len(), 1);
    assert_eq!(
        flushed.failed[0].idempotency_key,
        "conversation-c1-t1-user-turn"
    );
    assert_eq!(flushed.failed[0].code, "NEOTOMA_HTTP");
    assert!(s.event_types().contains(&"writeFailed"));
}

#[test]
fn without_an_outbox_the_failure_is_the_turns_error() {
    let s = Setup::new();
    let agent = s.agent(vec![], |c| {
        c.outbox_enabled = false;
        c.retry = RetryPolicy::none();
    });
    agent.transport().down.set(true);
    let e = block_on(agent.turn("x".into(), &Llmish, TurnOptions::default())).unwrap_err();
    assert_eq!(e.code, ErrorCode::NeotomaNetwork);
    assert!(block_on(agent.pending_writes()).unwrap().is_empty());
}

#[test]
fn an_llm_that_never_answers_times_out_and_no_assistant_message_is_stored() {
    let s = Setup::new();
    let agent = s.agent(vec![], |c| c.llm_timeout_ms = 10);
    let e = block_on(agent.turn("hello".into(), &SilentLlm, TurnOptions::default())).unwrap_err();
    assert_eq!(e.code, ErrorCode::LlmTimeout);
    assert_eq!(s.messages(), vec![("user".into(), "hello".into())]);
}

#[test]
fn a_regeneration_on_purpose_replaces_the_stored_reply() {
    let s = Setup::new();
    let agent = s.agent(vec![], |_| {});
    let r = turn(&agent, "hello", "t1").unwrap();
    let close = |text: &str, revision| CloseTurnInput {
        turn_id: "t1".into(),
        turn_number: Some(1),
        assistant_message: text.into(),
        revision,
        ..Default::default()
    };
    let e = block_on(agent.close_turn(close("A new reply", None))).unwrap_err();
    assert_eq!(
        e.code,
        ErrorCode::IdempotencyMismatch,
        "never a silent overwrite"
    );
    let regen = block_on(agent.close_turn(close("A new reply", Some(2)))).unwrap();
    assert_eq!(
        regen.assistant_message_entity_id,
        r.assistant_message_entity_id
    );
    assert_eq!(
        s.messages(),
        vec![
            ("user".into(), "hello".into()),
            ("assistant".into(), "A new reply".into())
        ]
    );
}

#[test]
fn a_store_answer_cut_short_is_retried_and_read_from_the_replay() {
    let s = Setup::new();
    let agent = s.agent(vec![Fault::Garbled], |_| {});
    let r = turn(&agent, "Tell me about Acme Corp", "t1").unwrap();
    assert!(r.replayed.user);
    assert_eq!(
        r.pending,
        PerMessage {
            user: false,
            assistant: false
        }
    );
    assert_eq!(s.messages().len(), 2);
    assert_eq!(
        s.refers_to(r.user_message_entity_id.as_deref().unwrap()),
        vec![s.acme.clone()]
    );
}

#[test]
fn a_replay_that_finds_more_while_its_write_waits_keeps_the_new_edges() {
    let s = Setup::new();
    let agent = s.agent(vec![], |c| c.retry = RetryPolicy::none());
    agent.transport().down.set(true);
    let message = "Is Dana Whitfield on the Acme Corp account?";
    turn(&agent, message, "t1").unwrap();
    // Dana appears; the turn is replayed (same id, same text) while the server is still down
    let dana = seed(&s.store, "person", "Dana Whitfield");
    let replay = turn(&agent, message, "t1").unwrap();
    assert!(replay.retrieved_entity_ids.contains(&dana));
    let queued = block_on(agent.pending_writes()).unwrap();
    assert_eq!(
        queued.len(),
        2,
        "one write per message, not one per attempt"
    );
    assert!(
        queued[0].refers_to.contains(&dana),
        "the queued write gained the new target"
    );
    agent.transport().down.set(false);
    block_on(agent.flush()).unwrap();
    let index = s.store.borrow().turn_index("c1").unwrap();
    let user_id = index["turns"][0]["message_entity_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut refs = s.refers_to(&user_id);
    refs.sort();
    let mut want = vec![s.acme.clone(), dana];
    want.sort();
    assert_eq!(refs, want);
    assert_eq!(s.messages().len(), 2);
}

#[test]
fn a_failed_edge_repair_stays_in_the_outbox_until_it_succeeds() {
    let s = Setup::new();
    let agent = s.agent(vec![Fault::LostAnswer], |c| {
        c.retry.max_attempts = 2;
    });
    agent.transport().relationships_down.set(true);
    let r = turn(&agent, "Tell me about Acme Corp", "t1").unwrap();
    assert!(r.replayed.user);
    assert!(r
        .store_warnings
        .iter()
        .any(|w| w["code"] == "REFERS_TO_REPAIR_FAILED"));
    // the user write is back in the outbox for its edges; the assistant's waits behind it
    let queued = block_on(agent.pending_writes()).unwrap();
    let keys: Vec<_> = queued.iter().map(|w| w.idempotency_key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "conversation-c1-t1-user-turn",
            "conversation-c1-t1-assistant-turn"
        ]
    );
    assert_eq!(
        r.pending,
        PerMessage {
            user: false,
            assistant: true
        }
    );
    agent.transport().relationships_down.set(false);
    let flushed = block_on(agent.flush()).unwrap();
    assert_eq!((flushed.flushed, flushed.pending), (2, 0));
    assert_eq!(
        s.refers_to(r.user_message_entity_id.as_deref().unwrap()),
        vec![s.acme.clone()]
    );
    assert_eq!(s.messages().len(), 2);
}

#[test]
fn concurrent_turns_after_an_outage_leave_nothing_waiting() {
    let s = Setup::new();
    let agent = s.agent(vec![], |c| c.retry = RetryPolicy::none());
    turn_during_an_outage(&agent, "during the outage", "t1");
    let (a, b) = block_on(futures_util::future::join(
        agent.turn("first after".into(), &Llmish, turn_opts("t2")),
        agent.turn("second after".into(), &Llmish, turn_opts("t3")),
    ));
    a.unwrap();
    b.unwrap();
    assert!(
        block_on(agent.pending_writes()).unwrap().is_empty(),
        "nothing left waiting"
    );
    assert_eq!(s.messages().len(), 6);
    // one stored message per key, whatever the interleaving
    let mut keys: Vec<String> = agent
        .transport()
        .stores
        .borrow()
        .iter()
        .skip(2)
        .map(|b| b["idempotency_key"].as_str().unwrap().to_owned())
        .collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), 6);
}

#[test]
fn an_unreadable_answer_while_flushing_keeps_the_write_for_the_next_pass() {
    let s = Setup::new();
    let agent = s.agent(vec![], |c| c.retry = RetryPolicy::none());
    turn_during_an_outage(&agent, "hello", "t1");
    // the flush's one attempt is stored by the server, but its answer is cut short
    agent.transport().then(Fault::Garbled);
    let r = block_on(agent.flush()).unwrap();
    assert!(r.failed.is_empty(), "not dropped: {:?}", r.failed);
    assert_eq!((r.flushed, r.pending), (0, 2));
    let r = block_on(agent.flush()).unwrap();
    assert_eq!((r.flushed, r.pending), (2, 0));
    assert_eq!(
        s.messages(),
        vec![
            ("user".to_owned(), "hello".to_owned()),
            ("assistant".to_owned(), "About hello: Acme Corp.".to_owned())
        ]
    );
}

// ---- Overlapped turns (`overlap_user_store`): the user message's store and the LLM at once.

/// Like `Llmish`, noting in the transport's log when it is called (`llm`) and what the outbox
/// held at that moment; then answers, or fails. (It cannot wait: the test runtime's timers fire at
/// once, so a callback that waits loses to `llm_timeout_ms`.)
struct WatchingLlm<'a> {
    agent: &'a TestAgent,
    fails: bool,
}

impl Llm for WatchingLlm<'_> {
    async fn reply(&self, msg: &str, ctx: &TurnContext) -> Result<Reply, Error> {
        let outbox = match self.agent.pending_writes().await {
            Ok(writes) => writes
                .iter()
                .map(|w| w.idempotency_key.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            Err(e) => e.code.as_str().to_owned(),
        };
        let log = &self.agent.transport().log;
        log.borrow_mut().push(format!("llm (outbox: {outbox})"));
        if self.fails {
            return Err(Error::invalid_input("the model is down"));
        }
        Llmish.reply(msg, ctx).await
    }
}

fn overlapped(config: &mut AgentConfig) {
    config.overlap_user_store = true;
}

const USER_KEY: &str = "conversation-c1-t1-user-turn";

/// One overlapped-agent turn with the watching LLM; the transport's log after it.
fn watched_turn(agent: &TestAgent, fails: bool) -> (Result<TurnResult, Error>, Vec<String>) {
    let llm = WatchingLlm { agent, fails };
    let r = block_on(agent.turn("Tell me about Acme Corp".into(), &llm, turn_opts("t1")));
    (r, agent.transport().log.borrow().clone())
}

/// A fresh setup and its overlapped agent (its transport following `script`), after one
/// watched turn: the turn's result and the transport's log.
fn overlapped_turn(
    script: Vec<Fault>,
    llm_fails: bool,
) -> (Setup, TestAgent, Result<TurnResult, Error>, Vec<String>) {
    let s = Setup::new();
    let agent = s.agent(script, overlapped);
    let (r, log) = watched_turn(&agent, llm_fails);
    (s, agent, r, log)
}

#[test]
fn an_overlapped_turn_calls_the_llm_before_the_user_store_answers_with_the_message_kept() {
    let (s, agent, r, log) = overlapped_turn(vec![], false);
    let r = r.unwrap();
    assert_eq!(
        log,
        [
            "send user",
            // invoked while the user store is out, its write in the outbox storage meanwhile
            &format!("llm (outbox: {USER_KEY})"),
            "answer user ok",
            "send assistant",
            "answer assistant ok",
        ]
    );
    assert_eq!(
        (r.pending.user, r.pending.assistant, r.replayed.user),
        (false, false, false)
    );
    assert!(
        s.storage.is_empty(),
        "the write left the outbox once stored"
    );
    assert!(s.event_types().is_empty(), "nothing was pending");
    assert_eq!(s.messages().len(), 2);
    assert_eq!(
        s.refers_to(r.user_message_entity_id.as_deref().unwrap()),
        vec![s.acme.clone()]
    );

    // the per-turn option wins over the agent's: this one runs in the protocol's order
    let plain = TurnOptions {
        overlap_user_store: Some(false),
        ..turn_opts("t2")
    };
    let llm = WatchingLlm {
        agent: &agent,
        fails: false,
    };
    block_on(agent.turn("And Acme Corp?".into(), &llm, plain)).unwrap();
    assert_eq!(
        agent.transport().log.borrow()[5..],
        [
            "send user",
            "answer user ok",
            "llm (outbox: )",
            "send assistant",
            "answer assistant ok"
        ]
    );
}

#[test]
fn an_overlapped_user_store_is_retried_and_the_assistant_store_waits_for_it() {
    let (s, agent, r, log) = overlapped_turn(vec![Fault::Network, Fault::Http(503, None)], false);
    let r = r.unwrap();
    assert_eq!(
        log,
        [
            "send user",
            &format!("llm (outbox: {USER_KEY})"),
            "answer user NEOTOMA_NETWORK",
            "send user",
            "answer user NEOTOMA_HTTP",
            "send user",
            "answer user ok",
            // never before the user message is stored
            "send assistant",
            "answer assistant ok",
        ]
    );
    assert!(!r.pending.user && !r.pending.assistant);
    assert_eq!(s.event_types(), ["retry", "retry"]);
    let stores = agent.transport().stores.borrow();
    assert!(
        stores[..3].iter().all(|b| b == &stores[0]),
        "every attempt sends the same body"
    );
    assert!(s.storage.is_empty());
}

#[test]
fn an_overlapped_user_store_refused_for_good_rejects_after_the_llm_with_the_stores_error() {
    // what the plain turn rejects with, for the same refusal
    let plain = Setup::new();
    let agent = plain.agent(vec![Fault::Http(400, None)], |_| {});
    let (expected, log) = watched_turn(&agent, false);
    let expected = expected.unwrap_err();
    assert_eq!(log, ["send user", "answer user NEOTOMA_HTTP"]);

    for llm_fails in [false, true] {
        let (s, agent, e, log) = overlapped_turn(vec![Fault::Http(400, None)], llm_fails);
        let e = e.unwrap_err();
        assert_eq!(
            log,
            [
                "send user",
                &format!("llm (outbox: {USER_KEY})"),
                "answer user NEOTOMA_HTTP"
            ],
            "no assistant store"
        );
        // the store's own error, even when the callback failed too
        assert_eq!(
            (e.code, e.status, &e.message, &e.body),
            (
                expected.code,
                expected.status,
                &expected.message,
                &expected.body
            )
        );
        assert!(s.messages().is_empty());
        // refused on its merits, it would fail again: dropped, as a flush drops such a write
        assert!(block_on(agent.pending_writes()).unwrap().is_empty());
    }
}

#[test]
fn an_overlapped_user_store_never_answered_readably_rejects_and_its_write_stays_in_the_outbox() {
    let garbled = || vec![Fault::Garbled; 4];
    let plain = Setup::new();
    let expected = watched_turn(&plain.agent(garbled(), |_| {}), false)
        .0
        .unwrap_err();
    assert_eq!(expected.code, ErrorCode::InvalidResponse);

    let (s, agent, e, log) = overlapped_turn(garbled(), false);
    let e = e.unwrap_err();
    assert_eq!((e.code, &e.message), (expected.code, &expected.message));
    assert_eq!(log[1], format!("llm (outbox: {USER_KEY})"));
    assert!(!log.iter().any(|l| l.contains("assistant")), "{log:?}");
    // the write may have happened (it did): it stays, and the next pass tells
    let waiting = block_on(agent.pending_writes()).unwrap();
    assert_eq!(waiting.len(), 1);
    assert_eq!(waiting[0].idempotency_key, USER_KEY);
    assert_eq!(waiting[0].body, agent.transport().stores.borrow()[0]);
    let flushed = block_on(agent.flush()).unwrap();
    assert_eq!((flushed.flushed, flushed.pending), (1, 0));
    assert_eq!(
        s.messages(),
        vec![("user".into(), "Tell me about Acme Corp".into())]
    );
    assert!(s.storage.is_empty());
}

#[test]
fn an_overlapped_store_that_cannot_go_now_is_kept_once_and_the_turn_goes_on() {
    let s = Setup::new();
    let agent = s.agent(vec![], |c| {
        overlapped(c);
        c.retry = RetryPolicy::none();
    });
    agent.transport().down.set(true);
    let (r, log) = watched_turn(&agent, false);
    let r = r.unwrap();
    assert_eq!(
        log[..2],
        ["send user", &format!("llm (outbox: {USER_KEY})")]
    );
    assert_eq!((r.pending.user, r.pending.assistant), (true, true));
    let keys: Vec<String> = block_on(agent.pending_writes())
        .unwrap()
        .into_iter()
        .map(|w| w.idempotency_key)
        .collect();
    assert_eq!(keys, [USER_KEY, "conversation-c1-t1-assistant-turn"]);
    assert_eq!(s.event_types(), ["writePending", "writePending"]);
    agent.transport().down.set(false);
    assert_eq!(block_on(agent.flush()).unwrap().flushed, 2);
    assert_eq!(s.messages().len(), 2);
}

#[test]
fn an_overlapped_turn_without_an_outbox_still_overlaps_and_rejects_with_the_stores_error() {
    let s = Setup::new();
    let agent = s.agent(vec![], |c| {
        overlapped(c);
        c.outbox_enabled = false;
        c.retry = RetryPolicy::none();
    });
    agent.transport().down.set(true);
    let (e, log) = watched_turn(&agent, false);
    assert_eq!(e.unwrap_err().code, ErrorCode::NeotomaNetwork);
    assert_eq!(
        log,
        ["send user", "llm (outbox: )", "answer user NEOTOMA_NETWORK"]
    );
    assert!(s.storage.is_empty(), "kept nowhere, as documented");
}

#[test]
fn an_overlapped_turn_whose_outbox_cannot_keep_the_message_runs_in_the_plain_order() {
    let s = Setup::new();
    let agent = s.agent(vec![], overlapped);
    s.storage
        .put_now("neotoma-agent-wasm/outbox/v1/c1", "{unreadable");
    let (r, log) = watched_turn(&agent, false);
    r.unwrap();
    assert_eq!(
        log,
        [
            "send user",
            "answer user ok",
            "llm (outbox: OUTBOX_STORAGE)",
            "send assistant",
            "answer assistant ok"
        ],
        "the callback waits for the store: the message is kept nowhere else meanwhile"
    );
}

#[test]
fn a_flush_while_an_overlapped_user_store_is_out_leaves_that_write_to_its_turn() {
    let s = Setup::new();
    // the turn's first attempt is lost: a flush that took the write would store it meanwhile,
    // and the turn's retry would come back as a replay of its own message
    let agent = s.agent(vec![Fault::Network], overlapped);
    let llm = WatchingLlm {
        agent: &agent,
        fails: false,
    };
    let turn = agent.turn("Tell me about Acme Corp".into(), &llm, turn_opts("t1"));
    // the host's flush (its own call, or the drain timer), once the user store is out
    let flush = async {
        while agent.transport().log.borrow().is_empty() {
            yield_once().await;
        }
        agent.flush().await
    };
    let (r, flushed) = block_on(futures_util::future::join(turn, flush));
    let (r, flushed) = (r.unwrap(), flushed.unwrap());
    assert_eq!(
        agent.transport().log.borrow()[..],
        [
            "send user",
            &format!("llm (outbox: {USER_KEY})"),
            "answer user NEOTOMA_NETWORK",
            // the flush sent nothing: the write in flight is its turn's to send
            "send user",
            "answer user ok",
            "send assistant",
            "answer assistant ok",
        ]
    );
    assert_eq!((flushed.flushed, flushed.pending), (0, 0));
    assert!(!r.replayed.user, "a first attempt is not a replay");
    assert!(!r.pending.user && !r.pending.assistant);
    let reply_lookups = agent
        .transport()
        .lookups
        .borrow()
        .iter()
        .filter(|body| body["by"] == "turn_key")
        .count();
    assert_eq!(reply_lookups, 0, "no stored reply looked for");
    assert_eq!(s.event_types(), ["retry"], "no writeFlushed for it");
    assert_eq!(s.messages().len(), 2);
    assert!(s.storage.is_empty());
}

#[test]
fn concurrent_overlapped_turns_send_each_user_message_once() {
    let s = Setup::new();
    let agent = s.agent(vec![], overlapped);
    let llm = |_| WatchingLlm {
        agent: &agent,
        fails: false,
    };
    let (a, b) = (llm(()), llm(()));
    // t2's user store looks for writes queued ahead of its own: t1's, in flight, is not one
    let (r1, r2) = block_on(futures_util::future::join(
        agent.turn("Tell me about Acme Corp".into(), &a, turn_opts("t1")),
        agent.turn("And Acme Corp?".into(), &b, turn_opts("t2")),
    ));
    let (r1, r2) = (r1.unwrap(), r2.unwrap());
    let log = agent.transport().log.borrow().clone();
    let sent = |role: &str| log.iter().filter(|l| *l == &format!("send {role}")).count();
    assert_eq!((sent("user"), sent("assistant")), (2, 2), "{log:?}");
    assert!(!r1.replayed.user && !r2.replayed.user);
    assert!(s.event_types().is_empty(), "{:?}", s.event_types());
    assert_eq!(s.messages().len(), 4);
    assert!(s.storage.is_empty());
}
