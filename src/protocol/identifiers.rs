//! The default identifier extractor: [`extract_identifiers`] and its limits.
//!
//! It lives in its own crate, `crates/identifiers` (`neotoma-identifiers`), so that the release
//! profile can compile it at opt-level 2 while the rest of the package is compiled for size:
//! README, Measured, has what that costs and saves.

pub use neotoma_identifiers::*;
