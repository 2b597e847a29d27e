//! User callbacks: the LLM and a custom identifier extractor. Whatever they throw or reject
//! with is handed back unchanged.

use js_sys::{Function, Promise};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::errors::thrown;
use super::js_values::{entity_ids, field, string_arg};
use crate::protocol::error::Error;
use crate::protocol::turn::{Extractor, Llm, Reply, TurnContext};
use crate::transport::js_object::to_js;

/// `(userMessage, ctx) => string | Promise<string> | { text, refersTo? }`
pub struct JsLlm {
    pub callback: Function,
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
        reply_from_js(&value)
    }
}

/// Reads what the LLM callback resolved to.
pub fn reply_from_js(value: &JsValue) -> Result<Reply, Error> {
    if value.is_string() {
        return Ok(Reply {
            text: string_arg("llm reply", value)?,
            refers_to: Vec::new(),
        });
    }
    let shape_error = || {
        Error::invalid_input(
            "the llm callback must return a string, a promise of one, or { text, refersTo }",
        )
    };
    let text = field(value, "text").ok_or_else(shape_error)?;
    if !text.is_string() {
        return Err(shape_error());
    }
    let refers_to = match field(value, "refersTo") {
        Some(list) => entity_ids(&list, "llm reply refersTo")?,
        None => Vec::new(),
    };
    Ok(Reply {
        text: string_arg("llm reply text", &text)?,
        refers_to,
    })
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
        Ok(array
            .iter()
            .filter_map(|v| string_arg("identifier", &v).ok())
            .collect())
    })
}
