//! What the JS host gives us, reached through `globalThis` so the same code runs in a page, a
//! worker, workerd, Deno and Node: timers, the clock, random bytes.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::protocol::keys::uuid_v4;
use crate::protocol::turn::Runtime;

fn global_function(name: &str) -> Option<Function> {
    Reflect::get(&js_sys::global(), &JsValue::from_str(name))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
}

/// A `setTimeout` as a future. Dropping it clears the timer, so a lookup that wins its race
/// leaves no pending timer behind (which would keep Node's event loop alive).
pub struct Sleep {
    id: JsValue,
    done: JsFuture,
}

impl Sleep {
    pub fn new(ms: u32) -> Sleep {
        let mut id = JsValue::UNDEFINED;
        let promise = Promise::new(&mut |resolve, _reject| {
            if let Some(set_timeout) = global_function("setTimeout") {
                // called on globalThis: some hosts reject timers called with another `this`
                id = set_timeout
                    .call2(&js_sys::global(), &resolve, &JsValue::from(ms))
                    .unwrap_or(JsValue::UNDEFINED);
            }
        });
        Sleep {
            id,
            done: JsFuture::from(promise),
        }
    }
}

impl Future for Sleep {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        Pin::new(&mut self.done).poll(cx).map(|_| ())
    }
}

impl Drop for Sleep {
    fn drop(&mut self) {
        if !self.id.is_undefined() {
            if let Some(clear) = global_function("clearTimeout") {
                let _ = clear.call1(&js_sys::global(), &self.id);
            }
        }
    }
}

/// Runs `f` after `ms` unless the returned guard is dropped first.
pub struct Timeout {
    id: JsValue,
    _callback: wasm_bindgen::closure::Closure<dyn FnMut()>,
}

impl Timeout {
    pub fn new(ms: u32, f: impl FnMut() + 'static) -> Timeout {
        let callback = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(f);
        let id = global_function("setTimeout")
            .and_then(|set_timeout| {
                set_timeout
                    .call2(
                        &js_sys::global(),
                        callback.as_ref().unchecked_ref(),
                        &JsValue::from(ms),
                    )
                    .ok()
            })
            .unwrap_or(JsValue::UNDEFINED);
        Timeout {
            id,
            _callback: callback,
        }
    }
}

impl Drop for Timeout {
    fn drop(&mut self) {
        if let Some(clear) = global_function("clearTimeout") {
            let _ = clear.call1(&js_sys::global(), &self.id);
        }
    }
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
}
