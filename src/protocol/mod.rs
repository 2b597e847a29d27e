//! The pure turn protocol: no JS, no I/O. Everything here is tested with `cargo test`.

pub mod identifiers;
