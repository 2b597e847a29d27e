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
static ALLOCATOR: talc::Talck<talc::locking::AssumeUnlockable, heap::GrowByAnEighth> =
    talc::Talc::new(heap::GrowByAnEighth::new()).lock();

#[cfg(target_arch = "wasm32")]
mod heap {
    use std::alloc::Layout;

    use core::arch::wasm32::{memory_grow, memory_size};
    use talc::{OomHandler, Span, Talc};

    const PAGE: usize = 64 * 1024;

    /// Grows the wasm memory for the allocator as talc's `WasmHandler` does, but by an eighth
    /// of its size at least rather than by just enough pages: each `memory.grow` made V8 run a
    /// full garbage collection, so a heap grown a page at a time (an import of a large store)
    /// spent most of its time collecting (export and import of 30,000 entities 3-4x slower).
    /// At most an eighth of the memory is unused headroom.
    pub struct GrowByAnEighth {
        /// The span of memory grown so far (extended while grows are contiguous).
        heap: Span,
    }

    impl GrowByAnEighth {
        pub const fn new() -> Self {
            GrowByAnEighth {
                heap: Span::empty(),
            }
        }
    }

    impl OomHandler for GrowByAnEighth {
        fn handle_oom(talc: &mut Talc<Self>, layout: Layout) -> Result<(), ()> {
            let needed = (layout.size() + 8).max(layout.align() * 2).div_ceil(PAGE);
            let wanted = needed.max(memory_size::<0>() / 8);
            let (previous, pages) = match memory_grow::<0>(wanted) {
                usize::MAX => (memory_grow::<0>(needed), needed),
                previous => (previous, wanted),
            };
            if previous == usize::MAX {
                return Err(());
            }
            let base = (previous * PAGE) as *mut u8;
            let acme = base.wrapping_add(pages * PAGE);
            // Safety: the pages were just grown for this allocator alone, on one thread.
            talc.oom_handler.heap = match talc.oom_handler.heap.get_base_acme() {
                Some((old_base, old_acme)) if old_acme == base => unsafe {
                    talc.extend(talc.oom_handler.heap, Span::new(old_base, acme))
                },
                _ => unsafe { talc.claim(Span::new(base, acme))? },
            };
            Ok(())
        }
    }
}
