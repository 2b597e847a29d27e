//! A turn's reply is produced once: a replayed turn (same turn id and number, from a fresh
//! agent) answers with the reply already stored instead of calling the LLM again; `regenerate`
//! asks for a new one on purpose; a queued write another instance superseded leaves the outbox
//! with a trace; the outbox drains on its own timer; conversation hits do not crowd real
//! entities out of retrieval. Natively, on the embedded store behind a transport that fails on cue.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use serde_json::json;
use serde_json::Value;

use neotoma_agent_wasm::protocol::error::{Error, ErrorCode};
use neotoma_agent_wasm::protocol::events::AgentEvent;
use neotoma_agent_wasm::protocol::outbox::MemoryStorage;
use neotoma_agent_wasm::protocol::retry::RetryPolicy;
use neotoma_agent_wasm::protocol::turn::{
    Agent, AgentConfig, Llm, Reply, TurnContext, TurnOptions, TurnResult,
};
use neotoma_agent_wasm::store::EmbeddedStore;
use neotoma_agent_wasm::transport::embedded::EmbeddedTransport;
use neotoma_agent_wasm::transport::{Call, Transport};

mod common;
use common::{
    assert_same_turn, block_on, event_type, outbound, seed, turn_opts, yield_once, TestRuntime,
};

/// What a `/store` meets.
#[derive(Clone, Copy, PartialEq)]
enum StoreFault {
    None,
    /// Assistant messages get no answer (the server never sees them).
    AssistantDown,
    /// Every store is answered 429 with `Retry-After` (ms).
    RateLimited(u32),
    /// `/create_relationships` gets no answer (stores go through).
    EdgesDown,
}

/// The embedded store, logging every call, with `/store` faults on cue.
struct Net {
    inner: EmbeddedTransport,
    calls: RefCell<Vec<(&'static str, Value)>>,
    fault: Cell<StoreFault>,
}

impl Net {
    fn count(&self, path: &str) -> usize {
        self.calls
            .borrow()
            .iter()
            .filter(|(p, _)| *p == path)
            .count()
    }
}

common::transport_by_call!(Net);

impl Net {
    async fn store(&self, body: &Value) -> Result<Value, Error> {
        self.calls.borrow_mut().push(("/store", body.clone()));
        yield_once().await;
        let assistant = body["entities"][1]["role"] == "assistant";
        match self.fault.get() {
            StoreFault::AssistantDown if assistant => {
                Err(Error::new(ErrorCode::NeotomaNetwork, "connection refused"))
            }
            StoreFault::RateLimited(ms) => {
                let mut e = Error::from_http("/store", 429, json!("Write rate limit exceeded"));
                e.retry_after_ms = Some(ms);
                Err(e)
            }
            _ => self.inner.call(Call::Store, body).await,
        }
    }
    async fn retrieve_entity_by_identifier(&self, body: &Value) -> Result<Value, Error> {
        self.calls.borrow_mut().push(("/retrieve", body.clone()));
        self.inner
            .call(Call::RetrieveEntityByIdentifier, body)
            .await
    }
    async fn create_relationships(&self, body: &Value) -> Result<Value, Error> {
        self.calls
            .borrow_mut()
            .push(("/create_relationships", body.clone()));
        if self.fault.get() == StoreFault::EdgesDown {
            return Err(Error::new(ErrorCode::NeotomaNetwork, "connection refused"));
        }
        self.inner.call(Call::CreateRelationships, body).await
    }
}

/// An LLM that never answers the same way twice (as real ones do), counting its calls.
#[derive(Default)]
struct FreshLlm {
    calls: Cell<u32>,
    stored_replies: RefCell<Vec<String>>,
}

impl Llm for FreshLlm {
    async fn reply(&self, _msg: &str, ctx: &TurnContext) -> Result<Reply, Error> {
        self.calls.set(self.calls.get() + 1);
        let names: Vec<String> = ctx
            .retrieved
            .iter()
            .filter_map(|e| e.snapshot.get("name").and_then(Value::as_str))
            .map(str::to_owned)
            .collect();
        // a different number every call: a second reply can never match the first
        let nonce = 7919 * self.calls.get() + 13;
        Ok(Reply {
            text: format!("About {}: answer #{nonce}.", names.join(", ")),
            ..Default::default()
        })
    }

    fn stored_reply(&self, text: &str) {
        self.stored_replies.borrow_mut().push(text.to_owned());
    }
}

type TestAgent = Agent<Net, TestRuntime, MemoryStorage>;

struct World {
    store: Rc<RefCell<EmbeddedStore>>,
    conversation: &'static str,
    events: Rc<RefCell<Vec<AgentEvent>>>,
}

impl World {
    fn new(conversation: &'static str) -> World {
        World {
            store: Rc::new(RefCell::new(EmbeddedStore::new())),
            conversation,
            events: Rc::default(),
        }
    }

    /// A fresh agent (a new process, a retried Worker request) on `storage`.
    fn agent(&self, storage: MemoryStorage) -> TestAgent {
        let mut config = AgentConfig::new(self.conversation);
        config.retry = RetryPolicy::none();
        let events = self.events.clone();
        config.on_event = Some(Box::new(move |e| events.borrow_mut().push(e.clone())));
        let net = Net {
            inner: EmbeddedTransport::new(self.store.clone(), Rc::new(|| 1_700_000_000_000.0)),
            calls: RefCell::new(Vec::new()),
            fault: Cell::new(StoreFault::None),
        };
        Agent::new(config, net, TestRuntime::default(), storage).unwrap()
    }

    /// Every message of the conversation: (turn_key, content, observations).
    fn messages(&self) -> Vec<(String, String, usize)> {
        let answer = self
            .store
            .borrow()
            .retrieve_entity_by_identifier(&json!({
                "identifier": format!("{}:", self.conversation),
                "entity_type": "conversation_message",
                "by": "turn_key",
                "include_observations": true,
            }))
            .unwrap();
        let mut out: Vec<(String, String, usize)> = answer["entities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["snapshot"]["turn_key"].as_str().unwrap().to_owned(),
                    e["snapshot"]["content"].as_str().unwrap().to_owned(),
                    e["observations"].as_array().unwrap().len(),
                )
            })
            .collect();
        out.sort();
        out
    }

    fn event_types(&self) -> Vec<&'static str> {
        self.events.borrow().iter().map(event_type).collect()
    }
}

fn turn(agent: &TestAgent, llm: &FreshLlm, message: &str, options: TurnOptions) -> TurnResult {
    block_on(agent.turn(message.into(), llm, options)).unwrap()
}

/// Turn 1 from a fresh agent with its own outbox (a new process, a retried Worker request).
fn fresh_turn(w: &World, llm: &FreshLlm, options: TurnOptions) -> TurnResult {
    turn(&w.agent(MemoryStorage::default()), llm, MESSAGE, options)
}

fn turn_one() -> TurnOptions {
    TurnOptions {
        turn_number: Some(1),
        ..turn_opts("t1")
    }
}

const MESSAGE: &str = "Tell me about Acme";

/// An agent whose turn 1 met the server's write limit (429, `Retry-After: 2`): both messages
/// wait in its outbox.
fn rate_limited_turn(w: &World) -> TestAgent {
    seed(&w.store, "company", "Acme Corp");
    let agent = w.agent(MemoryStorage::default());
    agent.transport().fault.set(StoreFault::RateLimited(2_000));
    let r = turn(&agent, &FreshLlm::default(), MESSAGE, turn_one());
    assert_eq!((r.pending.user, r.pending.assistant), (true, true));
    agent
}

/// An agent on `storage` whose turn 1 stored the user message and left the reply in its outbox
/// (the server took no assistant message): the agent and that turn's result.
fn reply_left_queued(w: &World, llm: &FreshLlm, storage: MemoryStorage) -> (TestAgent, TurnResult) {
    let agent = w.agent(storage);
    agent.transport().fault.set(StoreFault::AssistantDown);
    let r = turn(&agent, llm, MESSAGE, turn_one());
    assert!(r.pending.assistant && !r.pending.user);
    (agent, r)
}

#[test]
fn a_replay_from_a_fresh_agent_returns_the_stored_reply_without_calling_the_llm() {
    // the conversation id contains the identifier: on a replay, lookups also match the
    // messages the first run stored (substring match, transcript 10b)
    let w = World::new("acme-support");
    let acme = seed(&w.store, "company", "Acme Corp");
    let llm = FreshLlm::default();
    let first = fresh_turn(&w, &llm, turn_one());
    assert_eq!(llm.calls.get(), 1);
    assert_eq!(first.retrieved_entity_ids, vec![acme.clone()]);
    let before = w.messages();

    let replaying = w.agent(MemoryStorage::default());
    let again = turn(&replaying, &llm, MESSAGE, turn_one());
    assert_eq!(llm.calls.get(), 1, "the LLM is not called on a replay");
    assert_eq!(
        *llm.stored_replies.borrow(),
        vec![first.assistant_message.clone()]
    );
    assert_eq!(again.assistant_message, first.assistant_message);
    assert_same_turn(&again, &first);
    assert_eq!(
        (again.replayed.user, again.replayed.assistant),
        (true, true)
    );
    assert_eq!(
        (again.pending.user, again.pending.assistant),
        (false, false)
    );
    assert_eq!(again.refers_to, vec![acme.clone()]);
    assert_eq!(w.messages(), before, "same messages, one observation each");
    assert!(before.iter().all(|(_, _, observations)| *observations == 1));
    let assistant = again.assistant_message_entity_id.unwrap();
    assert_eq!(
        outbound(&w.store, &assistant, "REFERS_TO"),
        vec![acme.clone()]
    );
    let user = again.user_message_entity_id.unwrap();
    assert_eq!(outbound(&w.store, &user, "REFERS_TO"), [acme]);
    // one store (the user message's replay) and one lookup of the stored reply; no reply store
    let net = replaying.transport();
    assert_eq!(net.count("/store"), 1);
    let reply_lookups = net
        .calls
        .borrow()
        .iter()
        .filter(|(p, b)| *p == "/retrieve" && b["by"] == "turn_key")
        .count();
    assert_eq!(reply_lookups, 1);
}

#[test]
fn a_first_run_that_died_before_its_reply_was_stored_is_answered_once_by_the_replay() {
    let w = World::new("acme-support");
    seed(&w.store, "company", "Acme Corp");
    let llm = FreshLlm::default();
    // the reply waits in the first process's outbox…
    let (first, _) = reply_left_queued(&w, &llm, MemoryStorage::default());
    drop(first); // …which dies with it

    let again = fresh_turn(&w, &llm, turn_one());
    assert_eq!(llm.calls.get(), 2, "the replay asks the LLM once");
    assert!(again.replayed.user);
    assert!(!again.replayed.assistant && !again.pending.assistant);
    let messages = w.messages();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[1].0, "acme-support:t1:assistant");
    assert_eq!(messages[1].1, again.assistant_message);
    assert_eq!(messages[1].2, 1);
}

#[test]
fn a_reply_waiting_in_the_outbox_counts_as_stored() {
    let w = World::new("acme-support");
    seed(&w.store, "company", "Acme Corp");
    let storage = MemoryStorage::default();
    let llm = FreshLlm::default();
    let (_first, r) = reply_left_queued(&w, &llm, storage.clone());

    // a fresh agent on the same storage (a reloaded page), the server still refusing replies
    let replaying = w.agent(storage);
    replaying.transport().fault.set(StoreFault::AssistantDown);
    let again = turn(&replaying, &llm, MESSAGE, turn_one());
    assert_eq!(llm.calls.get(), 1);
    assert_eq!(again.assistant_message, r.assistant_message);
    assert_eq!(
        (again.replayed.assistant, again.pending.assistant),
        (true, true)
    );
    assert_eq!(again.assistant_message_entity_id, None);

    // its user message waited behind the queued reply, as writes go in order
    assert!(again.pending.user);
    replaying.transport().fault.set(StoreFault::None);
    let flushed = block_on(replaying.flush()).unwrap();
    assert_eq!((flushed.flushed, flushed.pending), (2, 0));
    assert_eq!(w.messages()[1].1, r.assistant_message);
}

#[test]
fn regenerate_stores_the_next_revision_and_calls_the_llm() {
    let w = World::new("acme-support");
    seed(&w.store, "company", "Acme Corp");
    let llm = FreshLlm::default();
    let first = fresh_turn(&w, &llm, turn_one());
    let regenerate = || TurnOptions {
        regenerate: true,
        ..turn_one()
    };
    let second = fresh_turn(&w, &llm, regenerate());
    let third = fresh_turn(&w, &llm, regenerate());
    assert_eq!(llm.calls.get(), 3);
    assert_ne!(second.assistant_message, first.assistant_message);
    assert_eq!(
        second.assistant_message_entity_id,
        first.assistant_message_entity_id
    );
    let messages = w.messages();
    assert_eq!(messages.len(), 2, "one assistant message entity");
    assert_eq!(
        messages[1].1, third.assistant_message,
        "the newest revision's text"
    );
    assert_eq!(messages[1].2, 3, "three revisions, three observations");
    // and a plain replay now returns the newest revision without calling the LLM
    let replay = fresh_turn(&w, &llm, turn_one());
    assert_eq!(llm.calls.get(), 3);
    assert_eq!(replay.assistant_message, third.assistant_message);

    let both = TurnOptions {
        revision: Some(2),
        ..regenerate()
    };
    let e = block_on(
        w.agent(MemoryStorage::default())
            .turn(MESSAGE.into(), &llm, both),
    );
    assert_eq!(e.unwrap_err().code, ErrorCode::InvalidInput);
}

#[test]
fn a_queued_write_another_instance_superseded_leaves_the_outbox_with_a_trace() {
    let w = World::new("acme-support");
    seed(&w.store, "company", "Acme Corp");
    let llm = FreshLlm::default();
    let (first, _) = reply_left_queued(&w, &llm, MemoryStorage::default());

    // another instance (its own outbox) replays the turn and stores its own reply
    let other = fresh_turn(&w, &llm, turn_one());
    assert_eq!(llm.calls.get(), 2);
    first.transport().fault.set(StoreFault::None);
    let flushed = block_on(first.flush()).unwrap();
    assert_eq!((flushed.flushed, flushed.pending), (0, 0));
    assert!(flushed.failed.is_empty());
    assert_eq!(flushed.superseded.len(), 1);
    assert_eq!(flushed.superseded[0].code, "IDEMPOTENCY_MISMATCH");
    assert_eq!(flushed.superseded[0].role, "assistant");
    assert!(block_on(first.pending_writes()).unwrap().is_empty());
    assert!(w.event_types().contains(&"writeSuperseded"));
    assert_eq!(
        w.messages()[1].1,
        other.assistant_message,
        "the stored reply stands"
    );
}

#[test]
fn the_outbox_drains_on_its_own_timer_honouring_retry_after() {
    let w = World::new("acme-support");
    let idle = w.agent(MemoryStorage::default());
    assert_eq!(idle.start_drain(), None, "nothing waits: no timer");
    let agent = rate_limited_turn(&w);

    // the server's Retry-After, plus jitter (TestRuntime's random is 0.5: +125 ms), never less
    assert_eq!(agent.start_drain(), Some(2_125));
    assert_eq!(agent.start_drain(), None, "one timer at a time");
    assert_eq!(block_on(agent.drain_pass()), Some(2_125), "still limited");
    assert_eq!(block_on(agent.pending_writes()).unwrap().len(), 2);

    agent.transport().fault.set(StoreFault::None);
    assert_eq!(
        block_on(agent.drain_pass()),
        None,
        "drained: the timer stops"
    );
    assert!(block_on(agent.pending_writes()).unwrap().is_empty());
    assert_eq!(w.messages().len(), 2);
    let drains: Vec<(usize, usize, Option<u32>)> = w
        .events
        .borrow()
        .iter()
        .filter_map(|e| match e {
            AgentEvent::Drain {
                flushed,
                pending,
                next_attempt_ms,
                ..
            } => Some((*flushed, *pending, *next_attempt_ms)),
            _ => None,
        })
        .collect();
    assert_eq!(drains, [(0, 2, Some(2_125)), (2, 0, None)]);
    assert_eq!(agent.start_drain(), None, "empty again: no timer");
}

#[test]
fn without_retry_after_the_drain_backs_off_up_to_a_minute() {
    let w = World::new("c1");
    let agent = w.agent(MemoryStorage::default());
    agent.transport().fault.set(StoreFault::AssistantDown);
    turn(&agent, &FreshLlm::default(), "hello", turn_one());
    assert_eq!(agent.start_drain(), Some(1_125));
    let waits: Vec<Option<u32>> = (0..9).map(|_| block_on(agent.drain_pass())).collect();
    let expected: Vec<Option<u32>> = [1, 2, 4, 8, 16, 32, 60, 60, 60]
        .iter()
        .map(|s| Some(s * 1_000 + 125))
        .collect();
    assert_eq!(waits, expected);
}

#[test]
fn flush_until_empty_waits_for_the_server_and_says_what_is_left() {
    let w = World::new("acme-support");
    let agent = rate_limited_turn(&w);
    // TestRuntime's clock stands still and its sleeps return at once: a 0 ms bound gives one pass
    let r = block_on(agent.flush_until_empty(0)).unwrap();
    assert_eq!((r.flushed, r.pending), (0, 2));
    agent.transport().fault.set(StoreFault::None);
    let r = block_on(agent.flush_until_empty(10_000)).unwrap();
    assert_eq!((r.flushed, r.pending), (2, 0));
}

#[test]
fn conversation_hits_do_not_crowd_a_person_out_of_retrieval() {
    // "Dana" occurs in the conversation id, so all 100 of its messages match the lookup too;
    // they sort before `person:…` and fill any small limit (the real server's order)
    let w = World::new("dana-support");
    let dana = seed(&w.store, "person", "Dana");
    let mut entities =
        vec![json!({"entity_type": "conversation", "conversation_id": "dana-support"})];
    for i in 0..100 {
        entities.push(json!({
            "entity_type": "conversation_message", "role": "user", "sender_kind": "user",
            "content": format!("earlier message {i}"), "turn_key": format!("dana-support:old-{i}"),
        }));
    }
    w.store
        .borrow_mut()
        .store(
            &json!({"entities": entities, "idempotency_key": "history"}),
            0.0,
        )
        .unwrap();
    let plain = w
        .store
        .borrow()
        .retrieve_entity_by_identifier(&json!({"identifier": "Dana", "limit": 5}))
        .unwrap();
    let types: Vec<&str> = plain["entities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["entity_type"].as_str().unwrap())
        .collect();
    assert!(
        !types.contains(&"person"),
        "a plain lookup is crowded out: {types:?}"
    );

    let llm = FreshLlm::default();
    let agent = w.agent(MemoryStorage::default());
    let first = turn(&agent, &llm, "Tell me about Dana", turn_one());
    assert_eq!(first.retrieved_entity_ids, vec![dana.clone()]);
    let lookups = agent.transport().count("/retrieve");
    assert_eq!(
        lookups, 2,
        "one lookup, and one by name because the first was crowded"
    );
    let replay = turn(
        &w.agent(MemoryStorage::default()),
        &llm,
        "Tell me about Dana",
        turn_one(),
    );
    assert_eq!(replay.retrieved_entity_ids, vec![dana.clone()]);
    let next = turn(&agent, &llm, "And Dana again?", turn_opts("t2"));
    assert_eq!(next.retrieved_entity_ids, [dana]);
}

#[test]
fn a_flush_while_the_timer_sends_waits_for_it_and_then_tries_itself() {
    let w = World::new("acme-support");
    let agent = rate_limited_turn(&w);
    agent.transport().fault.set(StoreFault::None);
    assert!(agent.start_drain().is_some());
    let stores_before = agent.transport().count("/store");
    // the timer's pass is sending (each store is a round trip) when the host calls flush()
    let (timer, flushed) = block_on(futures_util::future::join(
        agent.drain_pass(),
        agent.flush(),
    ));
    assert_eq!(timer, None, "the timer's pass emptied the outbox");
    let flushed = flushed.unwrap();
    assert_eq!(
        flushed.pending, 0,
        "flush() reports after a real try, not the timer's queue"
    );
    assert!(block_on(agent.pending_writes()).unwrap().is_empty());
    assert_eq!(
        agent.transport().count("/store") - stores_before,
        2,
        "each of the two writes sent once, by the timer"
    );
}

#[test]
fn a_flush_dropped_while_sending_does_not_hold_up_the_next() {
    use futures_util::FutureExt;

    let w = World::new("acme-support");
    let agent = rate_limited_turn(&w);
    agent.transport().fault.set(StoreFault::None);
    {
        let mut first = Box::pin(agent.flush());
        assert!(
            first.as_mut().now_or_never().is_none(),
            "sending: each store is a round trip"
        );
    } // a host gave up on it mid-send
    let mut next = Box::pin(agent.flush());
    let flushed = (0..100)
        .find_map(|_| next.as_mut().now_or_never())
        .expect("the next flush runs, not waiting for the dropped one")
        .unwrap();
    assert_eq!(flushed.pending, 0);
    assert!(block_on(agent.pending_writes()).unwrap().is_empty());
}

/// Replies naming Acme Corp, and producing a note: a stored body no agent could rebuild from the
/// reply's text alone.
struct CitingWithEntities;

impl Llm for CitingWithEntities {
    async fn reply(&self, _msg: &str, _ctx: &TurnContext) -> Result<Reply, Error> {
        Ok(Reply {
            text: "About Acme Corp.".into(),
            entities: vec![
                json!({"entity_type": "note", "content": "asked about Acme"})
                    .as_object()
                    .cloned()
                    .unwrap(),
            ],
            ..Default::default()
        })
    }
}

#[test]
fn a_replay_whose_edge_repair_fails_keeps_the_edges_not_a_rebuilt_store() {
    let w = World::new("c-edges");
    let llm = CitingWithEntities;
    // turn 1 stored whole before Acme Corp existed: its reply refers to nothing yet
    let first = w.agent(MemoryStorage::default());
    block_on(first.turn("Tell me about Acme Corp".into(), &llm, turn_one())).unwrap();
    let acme = seed(&w.store, "company", "Acme Corp");

    // a fresh agent replays turn 1: it now finds Acme Corp, and the reply's edge to it cannot be
    // created right now
    let storage = MemoryStorage::default();
    let again = w.agent(storage.clone());
    again.transport().fault.set(StoreFault::EdgesDown);
    let replayed =
        block_on(again.turn("Tell me about Acme Corp".into(), &llm, turn_one())).unwrap();
    assert!(
        replayed.pending.assistant,
        "the missing edges wait in the outbox"
    );
    let reply = replayed.assistant_message_entity_id.clone().unwrap();
    assert!(outbound(&w.store, &reply, "REFERS_TO")
        .iter()
        .all(|t| *t != acme));

    // once edges can be created, the flush creates them: no /store, nothing superseded
    // (the user message's edge failed the same way: its own write, identical, waits too)
    again.transport().fault.set(StoreFault::None);
    let before = again.transport().calls.borrow().len();
    let flushed = block_on(again.flush()).unwrap();
    assert_eq!((flushed.flushed, flushed.pending), (2, 0));
    assert!(flushed.superseded.is_empty(), "{:?}", flushed.superseded);
    assert!(flushed.failed.is_empty(), "{:?}", flushed.failed);
    let sent = again.transport().calls.borrow()[before..].to_vec();
    let reply_stores = sent
        .iter()
        .filter(|(path, body)| *path == "/store" && body["entities"][1]["role"] == "assistant")
        .count();
    assert_eq!(reply_stores, 0, "the reply is not stored again");
    assert!(outbound(&w.store, &reply, "REFERS_TO").contains(&acme));
}

// ---- Overlapped turns: the LLM has run by the time the store says the turn is a replay.

/// `options` with the user message's store and the LLM at once (the per-turn option).
fn overlapped(options: TurnOptions) -> TurnOptions {
    TurnOptions {
        overlap_user_store: Some(true),
        ..options
    }
}

#[test]
fn an_overlapped_replay_returns_the_stored_reply_and_discards_the_llms_new_one() {
    for fresh_agent in [false, true] {
        let w = World::new("acme-support");
        let acme = seed(&w.store, "company", "Acme Corp");
        let llm = FreshLlm::default();
        let first_agent = w.agent(MemoryStorage::default());
        let first = turn(&first_agent, &llm, MESSAGE, overlapped(turn_one()));
        assert!(!first.replayed.user && !first.pending.user);
        let before = w.messages();
        assert_eq!(before.len(), 2);
        assert!(before.iter().all(|(_, _, observations)| *observations == 1));

        let fresh;
        let replaying = if fresh_agent {
            fresh = w.agent(MemoryStorage::default());
            &fresh
        } else {
            &first_agent
        };
        let stores_before = replaying.transport().count("/store");
        let again = turn(replaying, &llm, MESSAGE, overlapped(turn_one()));
        assert_eq!(llm.calls.get(), 2, "called before the store said replay");
        assert!(
            llm.stored_replies.borrow().is_empty(),
            "its stream is not handed the stored reply as well"
        );
        assert_eq!(
            again.assistant_message, first.assistant_message,
            "the stored reply; the new one is discarded"
        );
        assert_same_turn(&again, &first);
        assert_eq!(
            (again.replayed.user, again.replayed.assistant),
            (true, true)
        );
        assert_eq!(again.refers_to, vec![acme.clone()]);
        assert_eq!(w.messages(), before, "nothing stored twice");
        assert_eq!(
            replaying.transport().count("/store") - stores_before,
            1,
            "only the user message's replay: no reply store"
        );
        assert!(block_on(replaying.pending_writes()).unwrap().is_empty());
    }
}

#[test]
fn an_overlapped_replay_of_a_run_that_died_before_its_reply_stores_the_new_reply_once() {
    let w = World::new("acme-support");
    seed(&w.store, "company", "Acme Corp");
    let llm = FreshLlm::default();
    let (first, _) = reply_left_queued(&w, &llm, MemoryStorage::default());
    drop(first);

    let again = fresh_turn(&w, &llm, overlapped(turn_one()));
    assert_eq!(llm.calls.get(), 2);
    assert!(again.replayed.user);
    assert!(!again.replayed.assistant && !again.pending.assistant);
    let messages = w.messages();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[1].1, again.assistant_message);
    assert!(messages
        .iter()
        .all(|(_, _, observations)| *observations == 1));
}

#[test]
fn an_overlapped_regeneration_stores_the_llms_reply_as_the_next_revision() {
    let w = World::new("acme-support");
    seed(&w.store, "company", "Acme Corp");
    let llm = FreshLlm::default();
    fresh_turn(&w, &llm, overlapped(turn_one()));
    let regenerated = fresh_turn(
        &w,
        &llm,
        overlapped(TurnOptions {
            regenerate: true,
            ..turn_one()
        }),
    );
    assert_eq!(llm.calls.get(), 2);
    assert!(!regenerated.replayed.assistant);
    let messages = w.messages();
    assert_eq!(messages[1].1, regenerated.assistant_message);
    assert_eq!(messages[1].2, 2, "two revisions, two observations");
}

#[test]
fn an_overlapped_retry_of_a_turn_whose_message_waits_in_the_outbox_runs_in_the_plain_order() {
    let w = World::new("acme-support");
    let agent = rate_limited_turn(&w); // both messages of turn 1 wait in its outbox
    let queued = block_on(agent.pending_writes()).unwrap();
    agent.transport().fault.set(StoreFault::None);
    let llm = FreshLlm::default();
    let again = turn(&agent, &llm, MESSAGE, overlapped(turn_one()));
    // the earlier attempt's write stands: the plain order sends it, then finds the reply
    assert_eq!(llm.calls.get(), 0, "the LLM is not called");
    assert_eq!(again.assistant_message, queued[1].content().unwrap());
    assert!(block_on(agent.pending_writes()).unwrap().is_empty());
    assert!(w
        .messages()
        .iter()
        .all(|(_, _, observations)| *observations == 1));
    assert_eq!(w.messages().len(), 2);
}
