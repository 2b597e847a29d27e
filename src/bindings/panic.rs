//! A Rust panic is never silent, and never the module's end: the hook logs its message (with
//! the JS stack) on `console.error`, then asks wasm-bindgen for a fresh instance. The panicking
//! call still fails (with `panic = "abort"` the panic traps); the next call into the package
//! runs on a new instance of the same module, so a new agent works. Agents made before the
//! panic belonged to the old instance and are gone with it.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
fn set_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        wasm_bindgen::handler::schedule_reinit();
    }));
}

/// Panics with `message`: only in a build with the `test-panic` feature (never the published
/// package), for the test of the hook and the recovery (`tests/panic/`).
#[cfg(feature = "test-panic")]
#[wasm_bindgen(js_name = panicForTest)]
pub fn panic_for_test(message: String) {
    panic!("{message}");
}
