//! neotoma-agent-wasm: the Neotoma agent turn protocol.
//!
//! - [`protocol`]: the pure protocol (identifiers, keys, payloads, response parsing, the turn
//!   state machine). Plain Rust, no JS.
//! - [`store`]: the embedded Neotoma-compatible store (plain Rust).
//! - [`transport`]: how a turn reaches a store: embedded, HTTP `fetch`, or a user's JS object.
//! - `bindings`: the thin `wasm-bindgen` surface (wasm32 only).

pub mod protocol;
pub mod store;
pub mod transport;

#[cfg(target_arch = "wasm32")]
pub mod bindings;
#[cfg(target_arch = "wasm32")]
mod platform;

/// The wasm heap allocator, smaller than std's dlmalloc. Sound here: a wasm instance of this
/// package runs on one thread.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::TalckWasm = unsafe { talc::TalckWasm::new_global() };
