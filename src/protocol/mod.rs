//! The pure turn protocol: no JS, no I/O of its own. Everything here is tested with `cargo test`.
//! Start at [`turn`]: it is the protocol in one file.

pub mod char_class;
pub mod error;
pub mod events;
pub mod fnv;
pub mod identifiers;
pub mod keys;
pub mod lowercase;
pub mod outbox;
pub mod payload;
pub mod response;
pub mod retry;
pub mod substring;
mod to_json;
pub mod turn;
pub mod validate;
