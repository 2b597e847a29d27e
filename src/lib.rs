//! neotoma-agent-wasm: the Neotoma agent turn protocol.
//!
//! - [`protocol`]: the pure protocol (identifiers, keys, payloads, response parsing, the turn
//!   state machine). Plain Rust, no JS.
//! - [`store`]: the embedded Neotoma-compatible store (plain Rust).
//! - [`transport`]: how a turn reaches a store: embedded, HTTP `fetch`, or a user's JS object.
//! - `bindings`: the thin `wasm-bindgen` surface (wasm32 only).
//!
//! `no_std` (core + alloc): without std the wasm has no panic machinery that formats messages
//! (core::fmt, Debug impls, Unicode tables); a panic only traps, as it did with std and
//! `panic = "abort"`. Native builds (tests, tools) link std as usual.

#![no_std]

extern crate alloc;
#[cfg(any(feature = "std", not(target_arch = "wasm32")))]
extern crate std;

/// What std's prelude would give: each module imports it with `use crate::prelude::*;`.
#[allow(unused_imports)]
pub(crate) mod prelude {
    #[cfg(all(target_arch = "wasm32", not(feature = "std")))]
    pub(crate) use super::F64Ext;
    pub use alloc::borrow::ToOwned;
    pub use alloc::boxed::Box;
    pub use alloc::string::{String, ToString};
    pub use alloc::vec::Vec;
    pub use alloc::{format, vec};
}

/// `f64::fract` and `f64::floor`: std's methods, missing from core.
#[cfg(any(test, all(target_arch = "wasm32", not(feature = "std"))))]
pub(crate) trait F64Ext {
    fn fract(self) -> f64;
    fn floor(self) -> f64;
}

#[cfg(any(test, all(target_arch = "wasm32", not(feature = "std"))))]
impl F64Ext for f64 {
    fn fract(self) -> f64 {
        self - trunc(self)
    }

    fn floor(self) -> f64 {
        let t = trunc(self);
        if t > self {
            t - 1.0
        } else {
            t
        }
    }
}

/// From 2^52 on every f64 is whole; NaN and ±∞ stay as they are, -0.5 gives -0.0 as in std.
#[cfg(any(test, all(target_arch = "wasm32", not(feature = "std"))))]
fn trunc(x: f64) -> f64 {
    const WHOLE: f64 = 4_503_599_627_370_496.0;
    if !(-WHOLE < x && x < WHOLE) {
        return x;
    }
    let t = (x as i64) as f64;
    if t == 0.0 && x.is_sign_negative() {
        -0.0
    } else {
        t
    }
}

/// A panic traps, without formatting its message (nothing would print it on
/// wasm32-unknown-unknown). With the `std` feature (wasm test build) std's handler is used.
#[cfg(all(target_arch = "wasm32", not(feature = "std")))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}

pub mod json;
pub mod protocol;
mod sort;
pub mod store;
pub mod transport;

#[cfg(target_arch = "wasm32")]
pub mod bindings;
#[cfg(target_arch = "wasm32")]
mod platform;

#[cfg(test)]
mod tests {
    use super::F64Ext;

    #[test]
    fn f64_ext_is_std() {
        let values = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            2.5,
            -2.5,
            1e15 + 0.5,
            -1e15 - 0.5,
            4503599627370495.5,
            4503599627370496.0,
            -4503599627370497.0,
            1e300,
            -1e300,
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        for x in values {
            for (ours, std) in [(F64Ext::fract(x), x.fract()), (F64Ext::floor(x), x.floor())] {
                assert_eq!(ours.to_bits(), std.to_bits(), "{x}");
            }
        }
    }
}
