//! What the JS host gives us, reached through `globalThis` so the same code runs in a page, a
//! worker, workerd, Deno and Node: timers, the clock, random bytes, running a future as a promise.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use crate::protocol::keys::uuid_v4;
use crate::protocol::turn::Runtime;

/// `target[key]` when it is a function (`None` for a target that is not an object).
pub fn method(target: &JsValue, key: &JsValue) -> Option<Function> {
    Reflect::get(target, key)
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
}

fn global_function(name: &str) -> Option<Function> {
    method(&js_sys::global(), &JsValue::from_str(name))
}

/// A `setTimeout` that is cleared when dropped, so a timer whose work is no longer wanted does
/// not linger (a pending timer keeps Node's event loop alive).
struct Timer(JsValue);

impl Timer {
    fn start(callback: &Function, ms: u32) -> Timer {
        // called on globalThis: some hosts reject timers called with another `this`
        let id = global_function("setTimeout")
            .and_then(|set_timeout| {
                set_timeout
                    // above 2^31-1 ms hosts fire at once instead of never
                    .call2(
                        &js_sys::global(),
                        callback,
                        &JsValue::from(ms.min(i32::MAX as u32)),
                    )
                    .ok()
            })
            .unwrap_or(JsValue::UNDEFINED);
        Timer(id)
    }

    /// Lets the host exit while the timer waits, where it can (Node's `timeout.unref()`,
    /// `Deno.unrefTimer`): a background timer must not hold a finished script open.
    fn unref(&self) {
        if let Some(unref) = method(&self.0, &JsValue::from_str("unref")) {
            let _ = unref.call0(&self.0);
        } else {
            let deno = Reflect::get(&js_sys::global(), &JsValue::from_str("Deno"))
                .unwrap_or(JsValue::UNDEFINED);
            if let Some(unref) = method(&deno, &JsValue::from_str("unrefTimer")) {
                let _ = unref.call1(&deno, &self.0);
            }
        }
    }
}

impl Drop for Timer {
    fn drop(&mut self) {
        if !self.0.is_undefined() {
            if let Some(clear) = global_function("clearTimeout") {
                let _ = clear.call1(&js_sys::global(), &self.0);
            }
        }
    }
}

/// Resolves after `ms`; dropping it (a lookup that won its race) clears the timer and frees
/// its callback.
///
/// Not a `JsFuture` of a promise resolved by the timer: a `JsFuture` frees its `then` callbacks
/// only when the promise settles, and a cleared timer's promise never does, so every sleep that
/// lost a race (a lookup's deadline, the LLM's) leaked its callbacks and state for good, about
/// 100 bytes of wasm memory each. Here the callback belongs to the sleep and goes with it.
pub struct Sleep {
    state: Rc<SleepState>,
    timeout: Timeout,
}

/// What the timer's callback shares with the sleep: fired yet, and the task to wake.
#[derive(Default)]
struct SleepState {
    fired: Cell<bool>,
    waker: RefCell<Option<Waker>>,
}

impl Sleep {
    pub fn new(ms: u32) -> Sleep {
        let state = Rc::new(SleepState::default());
        let shared = state.clone();
        let timeout = Timeout::new(ms, move || {
            shared.fired.set(true);
            if let Some(waker) = shared.waker.take() {
                waker.wake();
            }
        });
        Sleep { state, timeout }
    }

    /// A sleep that does not keep a Node or Deno process alive (the outbox's own timer).
    pub fn background(ms: u32) -> Sleep {
        let sleep = Sleep::new(ms);
        sleep.timeout.timer.unref();
        sleep
    }
}

impl Future for Sleep {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.state.fired.get() {
            return Poll::Ready(());
        }
        let mut waker = self.state.waker.borrow_mut();
        match waker.as_ref() {
            Some(known) if known.will_wake(cx.waker()) => {}
            _ => *waker = Some(cx.waker().clone()),
        }
        Poll::Pending
    }
}

/// Runs `f` after `ms` unless dropped first. The timer is cleared before the callback is freed
/// (fields drop in order).
pub struct Timeout {
    timer: Timer,
    _callback: Closure<dyn FnMut()>,
}

impl Timeout {
    pub fn new(ms: u32, f: impl FnMut() + 'static) -> Timeout {
        let callback = Closure::<dyn FnMut()>::new(f);
        Timeout {
            timer: Timer::start(callback.as_ref().unchecked_ref(), ms),
            _callback: callback,
        }
    }
}

/// Runs `work` as a JS promise. One boxed future type for every caller, so
/// `future_to_promise`'s machinery is in the wasm once rather than once per future type.
pub fn spawn_promise(work: impl Future<Output = Result<JsValue, JsValue>> + 'static) -> Promise {
    let work: Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>> = Box::pin(work);
    wasm_bindgen_futures::future_to_promise(work)
}

/// Unix milliseconds.
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// 16 bytes from `crypto.getRandomValues`. Called only inside requests, never at module load:
/// workerd gives no random values at global scope.
pub fn random_bytes() -> [u8; 16] {
    let mut bytes = [0u8; 16];
    let crypto = Reflect::get(&js_sys::global(), &JsValue::from_str("crypto"))
        .ok()
        .and_then(|c| c.dyn_into::<web_sys::Crypto>().ok());
    let filled = crypto
        .map(|c| c.get_random_values_with_u8_array(&mut bytes).is_ok())
        .unwrap_or(false);
    if !filled {
        // No Web Crypto (very old hosts): Math.random is not cryptographic, but turn ids only
        // need to be unique, and it keeps the package working.
        for b in bytes.iter_mut() {
            *b = (js_sys::Math::random() * 256.0) as u8;
        }
    }
    bytes
}

/// The [`Runtime`] of a JS host.
#[derive(Clone, Copy, Default)]
pub struct JsRuntime;

impl Runtime for JsRuntime {
    fn sleep(&self, ms: u32) -> impl Future<Output = ()> {
        Sleep::new(ms)
    }

    fn random_uuid(&self) -> String {
        uuid_v4(random_bytes())
    }

    fn random_unit(&self) -> f64 {
        js_sys::Math::random()
    }

    fn now_ms(&self) -> f64 {
        now_ms()
    }
}
