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
