//! JSON values, text and the `json!` macro: the crate's own small JSON, in place of serde and
//! serde_json (whose parser, serializer, float tables and derived code cost the wasm ~11 KB gzip).
//!
//! - [`Value`] and [`Map`] mirror the part of `crate::json::Value` the crate uses. A map is a
//!   `Vec` sorted by key, so objects are written with sorted keys, as serde_json's default map
//!   does.
//! - [`Number`] keeps a number's JSON text: nothing here parses or formats floats, so no float
//!   code is linked into the wasm (JS does it where a value crosses into JS).
//! - [`from_str`] parses strict RFC 8259 text; [`ToJson`] writes compact text, as
//!   `serde_json::to_string` does, and converts Rust values for `json!`.

mod macros;
mod map;
mod number;
mod parse;
mod value;
mod write;

pub use map::{Iter, IterMut, Map};
pub use number::Number;
pub use parse::{from_str, Error};
pub use value::{insert_member, Value};
pub use write::{to_string, ObjectWriter, ToJson, Writer};

#[cfg(test)]
mod tests;
