//! The wasm-bindgen surface: JS values in, protocol calls, JS values out. No protocol logic here.

pub mod agent;
mod errors;
mod js_values;
mod llm;
mod outbox;
mod panic;
mod reply_sink;
pub mod store;
mod types;
pub mod with_memory;

use wasm_bindgen::prelude::*;

use crate::protocol::identifiers::extract_identifiers;
use crate::protocol::keys::{self, Role};
use crate::protocol::validate::check_id;

/// The default identifier extractor: names, ids, emails, URLs, quoted strings, in order.
#[wasm_bindgen(js_name = extractIdentifiers)]
pub fn extract_identifiers_js(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<Vec<String>, JsValue> {
    let text = js_values::string_arg("text", &text).map_err(errors::to_js)?;
    Ok(extract_identifiers(&text))
}

/// The protocol's 64-bit FNV-1a hash of a text's UTF-8 bytes, as 16 hex digits: what a turn keeps
/// of a message to tell whether a stored text is the same (the AI SDK middleware's turn ids too).
#[wasm_bindgen(js_name = textHash)]
pub fn text_hash_js(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<String, JsValue> {
    let text = js_values::string_arg("text", &text).map_err(errors::to_js)?;
    Ok(format!("{:016x}", keys::text_hash(&text)))
}

/// The idempotency key of one message of a turn: `conversation-{cid}-{tid}-{role}-turn`.
#[wasm_bindgen(js_name = idempotencyKey)]
pub fn idempotency_key_js(
    #[wasm_bindgen(js_name = conversationId, unchecked_param_type = "string")]
    conversation_id: JsValue,
    #[wasm_bindgen(js_name = turnId, unchecked_param_type = "string")] turn_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "\"user\" | \"assistant\"")] role: JsValue,
) -> Result<String, JsValue> {
    let conversation_id =
        js_values::string_arg("conversationId", &conversation_id).map_err(errors::to_js)?;
    let turn_id = js_values::string_arg("turnId", &turn_id).map_err(errors::to_js)?;
    check_id("conversationId", &conversation_id).map_err(errors::to_js)?;
    check_id("turnId", &turn_id).map_err(errors::to_js)?;
    let role = role
        .as_string()
        .and_then(|r| Role::parse(&r))
        .ok_or_else(|| {
            errors::to_js(crate::protocol::error::Error::invalid_input(
                "role must be \"user\" or \"assistant\"",
            ))
        })?;
    Ok(keys::idempotency_key(&conversation_id, &turn_id, role))
}
