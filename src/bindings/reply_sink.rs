//! Where a streamed reply goes while it is being generated: two `ReadableStream`s fed as chunks
//! arrive, `stream` (UTF-8 bytes, what `new Response(stream)` needs) and `textStream` (strings, for
//! UIs). Chunks are queued without backpressure: a host that only awaits `done` must not stall the
//! turn, and a reply is bounded by `maxMessageBytes` anyway.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{JsString, Object, Reflect};
use wasm_bindgen::prelude::*;
use web_sys::{ReadableStream, ReadableStreamDefaultController};

pub struct ReplySink {
    bytes: ReadableStreamDefaultController,
    text: ReadableStreamDefaultController,
    /// A trailing high surrogate held back from the byte stream until its low half arrives,
    /// so a pair split across chunks is not encoded as two U+FFFD.
    held_high_surrogate: RefCell<Option<JsString>>,
    finished: Cell<bool>,
}

/// The streams a caller reads; the sink that feeds them.
pub struct ReplyStreams {
    pub sink: Rc<ReplySink>,
    pub bytes: ReadableStream,
    pub text: ReadableStream,
}

impl ReplySink {
    pub fn create() -> Result<ReplyStreams, JsValue> {
        let (bytes, bytes_controller) = controlled_stream()?;
        let (text, text_controller) = controlled_stream()?;
        let sink = ReplySink {
            bytes: bytes_controller,
            text: text_controller,
            held_high_surrogate: RefCell::new(None),
            finished: Cell::new(false),
        };
        Ok(ReplyStreams {
            sink: Rc::new(sink),
            bytes,
            text,
        })
    }

    /// One chunk of the reply as the LLM produced it. Enqueue fails only when the reader
    /// cancelled; the turn goes on (the reply is still stored), so that is ignored.
    pub fn push(&self, chunk: &JsString) {
        if self.finished.get() || chunk.length() == 0 {
            return;
        }
        let _ = self.text.enqueue_with_chunk(chunk);
        let mut whole = match self.held_high_surrogate.borrow_mut().take() {
            Some(high) => high.concat(chunk),
            None => chunk.clone(),
        };
        let len = whole.length();
        if len > 0 && (0xD800..0xDC00).contains(&(whole.char_code_at(len - 1) as u32)) {
            *self.held_high_surrogate.borrow_mut() = Some(whole.slice(len - 1, len));
            whole = whole.slice(0, len - 1);
        }
        self.enqueue_bytes(&whole);
    }

    /// The reply is complete.
    pub fn close(&self) {
        if self.finished.replace(true) {
            return;
        }
        if let Some(high) = self.held_high_surrogate.borrow_mut().take() {
            self.enqueue_bytes(&high);
        }
        let _ = self.bytes.close();
        let _ = self.text.close();
    }

    /// The turn failed before the reply was complete: readers see `error`.
    pub fn error(&self, error: &JsValue) {
        if self.finished.replace(true) {
            return;
        }
        self.bytes.error_with_e(error);
        self.text.error_with_e(error);
    }

    fn enqueue_bytes(&self, text: &JsString) {
        if text.length() == 0 {
            return;
        }
        let utf8 = String::from(text);
        let _ = self
            .bytes
            .enqueue_with_chunk(&js_sys::Uint8Array::from(utf8.as_bytes()));
    }
}

/// `new ReadableStream({ start(c) { … } })`, keeping the controller `start` was given
/// (called synchronously by the constructor).
fn controlled_stream() -> Result<(ReadableStream, ReadableStreamDefaultController), JsValue> {
    let slot: Rc<RefCell<Option<ReadableStreamDefaultController>>> = Rc::default();
    let start = {
        let slot = slot.clone();
        Closure::<dyn FnMut(JsValue)>::new(move |controller: JsValue| {
            *slot.borrow_mut() = Some(controller.unchecked_into());
        })
    };
    let source = Object::new();
    Reflect::set(&source, &JsValue::from_str("start"), start.as_ref())?;
    let stream = ReadableStream::new_with_underlying_source(&source)?;
    drop(start);
    let controller = slot
        .borrow_mut()
        .take()
        .ok_or_else(|| JsValue::from(js_sys::Error::new("ReadableStream did not call start")))?;
    Ok((stream, controller))
}
