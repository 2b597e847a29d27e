//! The pure turn protocol: no JS, no I/O of its own. Everything here is tested with `cargo test`.
//! Start at [`turn`]: it is the protocol in one file.

pub mod error;
pub mod events;
pub mod identifiers;
pub mod keys;
pub mod memory;
pub mod outbox;
pub mod payload;
pub mod produced;
pub mod response;
pub mod retry;
pub mod turn;
pub mod validate;
