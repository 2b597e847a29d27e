//! Helpers shared by the native integration tests: a polling executor and a runtime whose
//! timers fire at once.

#![allow(dead_code)]

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use serde_json::json;

use neotoma_agent_wasm::protocol::events::AgentEvent;
use neotoma_agent_wasm::protocol::turn::{Runtime, TurnOptions, TurnResult};
use neotoma_agent_wasm::store::EmbeddedStore;

/// Everything here completes without real waiting, so polling in a loop is a full executor.
pub fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..10_000 {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
    panic!("future did not complete");
}

/// Timers fire at once (a pending lookup loses its race); UUIDs count up.
#[derive(Default)]
pub struct TestRuntime {
    next: Cell<u8>,
    /// Every wait asked for, in order (backoffs, deadlines).
    pub sleeps: RefCell<Vec<u32>>,
}

impl Runtime for TestRuntime {
    fn sleep(&self, ms: u32) -> impl Future<Output = ()> {
        self.sleeps.borrow_mut().push(ms);
        std::future::ready(())
    }
    fn random_uuid(&self) -> String {
        self.next.set(self.next.get() + 1);
        neotoma_agent_wasm::protocol::keys::uuid_v4([self.next.get(); 16])
    }
    fn random_unit(&self) -> f64 {
        0.5
    }
    fn now_ms(&self) -> f64 {
        0.0
    }
}

/// Pending once, then ready: a network round trip's suspension point, so concurrent turns
/// really interleave.
pub async fn yield_once() {
    let mut yielded = false;
    std::future::poll_fn(|cx| {
        if yielded {
            Poll::Ready(())
        } else {
            yielded = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    })
    .await
}

/// Stores one entity `{entity_type, name}` and returns its id.
pub fn seed(store: &RefCell<EmbeddedStore>, entity_type: &str, name: &str) -> String {
    let answer = store
        .borrow_mut()
        .store(
            &json!({"entities":[{"entity_type": entity_type, "name": name}], "idempotency_key": format!("seed-{name}")}),
            0.0,
        )
        .unwrap();
    answer["entities"][0]["entity_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The targets of `id`'s outbound `kind` relationships.
pub fn outbound(store: &RefCell<EmbeddedStore>, id: &str, kind: &str) -> Vec<String> {
    let related = store
        .borrow()
        .retrieve_related_entities(
            &json!({"entity_id": id, "direction": "outbound", "relationship_types": [kind]}),
        )
        .unwrap();
    related["relationships"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["target_entity_id"].as_str().unwrap().to_owned())
        .collect()
}

/// proptest settings: `cases` per property unless PROPTEST_CASES says otherwise; the fixed
/// `seed` unless PROPTEST_RNG_SEED says otherwise (a failure replays); no regression files.
pub fn proptest_config(cases: u32, seed: u64) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, RngSeed};
    let env = Config::default();
    Config {
        cases: if std::env::var_os("PROPTEST_CASES").is_some() {
            env.cases
        } else {
            cases
        },
        rng_seed: if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
            env.rng_seed
        } else {
            RngSeed::Fixed(seed)
        },
        failure_persistence: None,
        ..env
    }
}

/// Turn options naming only the turn id.
pub fn turn_opts(id: &str) -> TurnOptions {
    TurnOptions {
        turn_id: Some(id.into()),
        ..TurnOptions::default()
    }
}

/// An event's `type`, as JS sees it.
pub fn event_type(event: &AgentEvent) -> &'static str {
    match event {
        AgentEvent::Retry { .. } => "retry",
        AgentEvent::WritePending { .. } => "writePending",
        AgentEvent::WriteFlushed { .. } => "writeFlushed",
        AgentEvent::WriteFailed { .. } => "writeFailed",
        AgentEvent::WriteSuperseded { .. } => "writeSuperseded",
        AgentEvent::Drain { .. } => "drain",
    }
}

/// A replay landed on the first run's entities: the same turn, conversation and messages.
pub fn assert_same_turn(again: &TurnResult, first: &TurnResult) {
    assert_eq!(again.turn_id, first.turn_id);
    assert_eq!(
        again.turn_number, first.turn_number,
        "a replay keeps its number"
    );
    assert_eq!(again.conversation_entity_id, first.conversation_entity_id);
    assert_eq!(again.user_message_entity_id, first.user_message_entity_id);
    assert_eq!(
        again.assistant_message_entity_id,
        first.assistant_message_entity_id
    );
}

/// `impl Transport for $t` by its inherent `store`, `retrieve_entity_by_identifier` and
/// `create_relationships` methods (the edge read goes to its `inner` transport): test transports
/// fault one call at a time.
#[allow(unused_macros)]
macro_rules! transport_by_call {
    ($t:ty) => {
        impl neotoma_agent_wasm::transport::Transport for $t {
            async fn call(
                &self,
                call: neotoma_agent_wasm::transport::Call,
                body: &serde_json::Value,
            ) -> Result<serde_json::Value, neotoma_agent_wasm::protocol::error::Error> {
                use neotoma_agent_wasm::transport::Call;
                match call {
                    Call::Store => self.store(body).await,
                    Call::RetrieveEntityByIdentifier => {
                        self.retrieve_entity_by_identifier(body).await
                    }
                    Call::CreateRelationships => self.create_relationships(body).await,
                    // reads are never faulted: straight to the wrapped transport
                    Call::RetrieveRelatedEntities => self.inner.call(call, body).await,
                }
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use transport_by_call;
