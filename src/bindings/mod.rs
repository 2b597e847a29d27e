//! The wasm-bindgen surface.
