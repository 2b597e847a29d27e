//! User callbacks: the LLM and a custom identifier extractor. Whatever they throw or reject
//! with is handed back unchanged.

use std::rc::Rc;

use js_sys::{Function, JsString, Promise, Reflect, Symbol, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{TextDecodeOptions, TextDecoder, TextDecoderOptions};

use super::errors::thrown;
use super::js_values::{entity_ids, entity_list, field, string_arg};
use super::reply_sink::ReplySink;
use crate::platform::method;
use crate::protocol::error::Error;
use crate::protocol::produced::{check_produced, EntityFields};
use crate::protocol::turn::{AgentConfig, Extractor, Llm, Reply, TurnContext};
use crate::transport::js_json::to_js;

/// `(userMessage, ctx) => string | { text, refersTo? } | AsyncIterable<string> |
/// ReadableStream<string | Uint8Array>`, or a promise of one of them.
pub struct JsLlm {
    pub callback: Function,
    /// Where a streaming turn sends the reply's chunks (`turnStream`); `None` for `turn`.
    pub sink: Option<Rc<ReplySink>>,
    /// `maxMessageBytes`: a streamed reply longer than this is cut off as soon as it is known.
    pub max_reply_bytes: usize,
    /// `maxProducedEntities`: the reply's entities are checked before its streams end, so a
    /// reader sees a bad reply fail, not end.
    pub max_entities: usize,
}

impl JsLlm {
    /// The callback, with the agent's limits on what it may return.
    pub fn new(callback: Function, sink: Option<Rc<ReplySink>>, config: &AgentConfig) -> Self {
        JsLlm {
            callback,
            sink,
            max_reply_bytes: config.max_message_bytes,
            max_entities: config.max_produced_entities,
        }
    }
}

impl Llm for JsLlm {
    async fn reply(&self, user_message: &str, ctx: &TurnContext) -> Result<Reply, Error> {
        let ctx_js = to_js(ctx);
        let returned = self
            .callback
            .call2(
                &JsValue::UNDEFINED,
                &JsValue::from_str(user_message),
                &ctx_js,
            )
            .map_err(|e| thrown(e, "llm callback"))?;
        let value = JsFuture::from(Promise::resolve(&returned))
            .await
            .map_err(|e| thrown(e, "llm callback"))?;
        // A stream, `{ stream, refersTo?, entities? }`, or a whole reply.
        let source = match ChunkSource::of(&value)? {
            Some(source) => Some(source),
            None => field(&value, "stream")
                .map(|stream| stream_source(&stream))
                .transpose()?,
        };
        let mut reply = match source {
            Some(source) => Reply {
                text: read_reply_stream(&source, self.sink.as_deref(), self.max_reply_bytes)
                    .await?,
                refers_to: refers_to_of(&value)?,
                entities: Vec::new(),
            },
            None => {
                let reply = reply_from_js(&value)?;
                if let Some(sink) = &self.sink {
                    sink.push(&JsString::from(reply.text.as_str()));
                }
                reply
            }
        };
        if let Some(entities) = field(&value, "entities") {
            reply.entities = produced_entities(entities, &reply.text).await?;
            check_produced(&reply.entities, self.max_entities, self.max_reply_bytes)?;
        }
        // The reply is complete: readers get their end now, before the store round trip.
        if let Some(sink) = &self.sink {
            sink.close();
        }
        Ok(reply)
    }

    fn stored_reply(&self, text: &str) {
        if let Some(sink) = &self.sink {
            sink.push(&JsString::from(text));
            sink.close();
        }
    }
}

/// The `stream` of a `{ stream, entities? }` reply.
fn stream_source(stream: &JsValue) -> Result<ChunkSource, Error> {
    ChunkSource::of(stream)?.ok_or_else(|| {
        Error::invalid_input(
            "the llm reply's stream must be an AsyncIterable of strings or a ReadableStream",
        )
    })
}

/// A reply's `entities`: an array, a promise of one, or a function called with the whole reply
/// text once it is known (a model's tool call or a JSON block at the end of a stream becomes
/// entities there). What the function throws, or the promise rejects with, comes back as is.
async fn produced_entities(entities: JsValue, text: &str) -> Result<Vec<EntityFields>, Error> {
    let thrown_by_entities = |e| thrown(e, "llm reply entities");
    let entities = match entities.dyn_ref::<Function>() {
        Some(f) => f
            .call1(&JsValue::UNDEFINED, &JsValue::from_str(text))
            .map_err(thrown_by_entities)?,
        None => entities,
    };
    let resolved = JsFuture::from(Promise::resolve(&entities))
        .await
        .map_err(thrown_by_entities)?;
    if resolved.is_undefined() || resolved.is_null() {
        return Ok(Vec::new());
    }
    entity_list(&resolved, "llm reply entities")
}

fn refers_to_of(reply: &JsValue) -> Result<Vec<String>, Error> {
    match field(reply, "refersTo") {
        Some(list) => entity_ids(&list, "llm reply refersTo"),
        None => Ok(Vec::new()),
    }
}

/// A streamed reply: a `ReadableStream` (read through its reader) or an async iterable.
enum ChunkSource {
    Reader(JsValue),
    Iterator(JsValue),
}

impl ChunkSource {
    fn of(value: &JsValue) -> Result<Option<ChunkSource>, Error> {
        if !value.is_object() {
            return Ok(None);
        }
        let thrown_by_source = |e| thrown(e, "llm stream");
        if let Some(get_reader) = method(value, &JsValue::from_str("getReader")) {
            let reader = get_reader.call0(value).map_err(thrown_by_source)?;
            return Ok(Some(ChunkSource::Reader(reader)));
        }
        if let Some(iterate) = method(value, &Symbol::async_iterator()) {
            let iterator = iterate.call0(value).map_err(thrown_by_source)?;
            return Ok(Some(ChunkSource::Iterator(iterator)));
        }
        Ok(None)
    }

    /// The next chunk, or `None` at the end. The source's own errors come back unchanged.
    async fn next(&self) -> Result<Option<JsValue>, Error> {
        let (target, name) = match self {
            ChunkSource::Reader(reader) => (reader, "read"),
            ChunkSource::Iterator(iterator) => (iterator, "next"),
        };
        let next = method(target, &JsValue::from_str(name)).ok_or_else(|| {
            Error::invalid_input(format!("the llm stream has no {name}() method"))
        })?;
        let pending = next.call0(target).map_err(|e| thrown(e, "llm stream"))?;
        let step = JsFuture::from(Promise::resolve(&pending))
            .await
            .map_err(|e| thrown(e, "llm stream"))?;
        if !step.is_object() {
            return Err(Error::invalid_input(
                "the llm stream's next()/read() must resolve to { done, value }",
            ));
        }
        let done = Reflect::get(&step, &JsValue::from_str("done")).unwrap_or(JsValue::TRUE);
        if done.is_truthy() {
            return Ok(None);
        }
        Ok(Some(
            Reflect::get(&step, &JsValue::from_str("value")).unwrap_or(JsValue::UNDEFINED),
        ))
    }

    /// We stop reading early (a bad chunk, too long): tell the producer, ignoring what it says.
    fn cancel(&self, reason: &JsValue) {
        let (target, name) = match self {
            ChunkSource::Reader(reader) => (reader, "cancel"),
            ChunkSource::Iterator(iterator) => (iterator, "return"),
        };
        if let Some(stop) = method(target, &JsValue::from_str(name)) {
            if let Ok(pending) = stop.call1(target, reason) {
                if let Ok(promise) = pending.dyn_into::<Promise>() {
                    ignore_rejection(&promise);
                }
            }
        }
    }
}

/// Reads a streamed reply to its end, passing chunks to `sink` as they come. The text is the
/// chunks concatenated exactly: `Uint8Array` chunks are decoded as UTF-8 with invalid bytes
/// refused (never replaced), and a lone surrogate in the whole is refused as for any message.
async fn read_reply_stream(
    source: &ChunkSource,
    sink: Option<&ReplySink>,
    max_bytes: usize,
) -> Result<String, Error> {
    let mut text = JsString::from("");
    let mut decoder: Option<TextDecoder> = None;
    // One loop, no inner async block: `break Some(error)` is the `?` here.
    let failure = loop {
        let chunk = match source.next().await {
            Ok(Some(chunk)) => chunk,
            Ok(None) => break finish_decoding(decoder.as_ref(), sink, &mut text).err(),
            Err(e) => break Some(e),
        };
        let piece = match chunk_text(&chunk, &mut decoder) {
            Ok(piece) => piece,
            Err(e) => break Some(e),
        };
        text = text.concat(&piece);
        // Each UTF-16 unit is at least one UTF-8 byte: over in units means over in bytes.
        if text.length() as usize > max_bytes {
            break Some(too_long(max_bytes));
        }
        if let Some(sink) = sink {
            sink.push(&piece);
        }
    };
    if let Some(e) = failure {
        if e.external.is_none() {
            source.cancel(&JsValue::from_str(&e.message));
        }
        return Err(e);
    }
    let text = string_arg("llm reply", &text)?;
    if text.len() > max_bytes {
        return Err(too_long(max_bytes));
    }
    Ok(text)
}

/// The end of a byte stream: what the decoder still holds (an error if the bytes stopped
/// mid-character).
fn finish_decoding(
    decoder: Option<&TextDecoder>,
    sink: Option<&ReplySink>,
    text: &mut JsString,
) -> Result<(), Error> {
    if let Some(decoder) = decoder {
        let rest = decoder.decode().map_err(|_| invalid_utf8())?;
        if let Some(sink) = sink {
            sink.push(&JsString::from(rest.as_str()));
        }
        *text = text.concat(&JsString::from(rest));
    }
    Ok(())
}

fn chunk_text(chunk: &JsValue, decoder: &mut Option<TextDecoder>) -> Result<JsString, Error> {
    if let Some(s) = chunk.dyn_ref::<JsString>() {
        return Ok(s.clone());
    }
    if chunk.is_instance_of::<Uint8Array>() {
        let decoder = match decoder {
            Some(d) => d,
            None => decoder.insert(utf8_decoder()?),
        };
        let streaming = TextDecodeOptions::new();
        streaming.set_stream(true);
        let decoded = decoder
            .decode_with_buffer_source_and_options(chunk.unchecked_ref(), &streaming)
            .map_err(|_| invalid_utf8())?;
        return Ok(JsString::from(decoded));
    }
    Err(Error::invalid_input(
        "the llm stream must yield strings or Uint8Array chunks",
    ))
}

/// Refuses invalid bytes (never U+FFFD) and keeps a leading BOM: the text is what was sent.
fn utf8_decoder() -> Result<TextDecoder, Error> {
    let options = TextDecoderOptions::new();
    options.set_fatal(true);
    let _ = Reflect::set(&options, &JsValue::from_str("ignoreBOM"), &JsValue::TRUE);
    TextDecoder::new_with_label_and_options("utf-8", &options)
        .map_err(|_| Error::invalid_input("TextDecoder is not available"))
}

fn invalid_utf8() -> Error {
    Error::invalid_input("the llm stream yielded bytes that are not valid UTF-8")
}

fn too_long(max_bytes: usize) -> Error {
    Error::invalid_input(format!(
        "the llm reply is longer than maxMessageBytes ({max_bytes})"
    ))
}

/// Marks `promise`'s rejection as handled (it is reported elsewhere), with one shared no-op.
pub fn ignore_rejection(promise: &Promise) {
    thread_local! {
        static IGNORE: Closure<dyn FnMut(JsValue)> = Closure::new(|_| {});
    }
    IGNORE.with(|ignore| {
        let _ = promise.catch(ignore);
    });
}

/// Reads what the LLM callback resolved to.
pub fn reply_from_js(value: &JsValue) -> Result<Reply, Error> {
    if value.is_string() {
        return Ok(Reply {
            text: string_arg("llm reply", value)?,
            ..Reply::default()
        });
    }
    let shape_error = || {
        Error::invalid_input(format!(
            "the llm callback must return a string, {{ text, refersTo?, entities? }}, \
             {{ stream, entities? }}, an AsyncIterable of strings or a ReadableStream, or a \
             promise of one; it returned {}",
            describe_value(value)
        ))
    };
    let text = field(value, "text").ok_or_else(shape_error)?;
    if !text.is_string() {
        return Err(shape_error());
    }
    Ok(Reply {
        text: string_arg("llm reply text", &text)?,
        refers_to: refers_to_of(value)?,
        entities: Vec::new(),
    })
}

/// What a value is, for an error message: its type, or an object's first keys (an API
/// response returned as it is, `{ choices: … }`, is the usual mistake).
fn describe_value(value: &JsValue) -> String {
    if value.is_undefined() || value.is_null() {
        return if value.is_null() { "null" } else { "undefined" }.to_owned();
    }
    if !value.is_object() {
        return format!("a {}", value.js_typeof().as_string().unwrap_or_default());
    }
    let mut keys: Vec<String> = Vec::new();
    for key in js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>())
        .iter()
        .take(5)
    {
        if let Some(key) = key.as_string() {
            keys.push(key);
        }
    }
    format!("an object with keys [{}]", keys.join(", "))
}

/// A JS `identifierExtractor(text) => string[]`.
pub fn js_extractor(callback: Function) -> Extractor {
    Box::new(move |text: &str| {
        let out = callback
            .call1(&JsValue::UNDEFINED, &JsValue::from_str(text))
            .map_err(|e| thrown(e, "identifierExtractor"))?;
        let array = out.dyn_into::<js_sys::Array>().map_err(|_| {
            Error::invalid_input("identifierExtractor must return an array of strings")
        })?;
        // Non-strings and strings with lone surrogates are skipped, not fatal: retrieval is
        // best-effort.
        let mut identifiers = Vec::new();
        for v in array.iter() {
            if let Ok(identifier) = string_arg("identifier", &v) {
                identifiers.push(identifier);
            }
        }
        Ok(identifiers)
    })
}
