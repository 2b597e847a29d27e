//! The embedded Neotoma-compatible store.
