//! Helpers shared by the native integration tests: a polling executor and a runtime whose
//! timers fire at once.

#![allow(dead_code)]

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use neotoma_agent_wasm::protocol::turn::Runtime;

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
