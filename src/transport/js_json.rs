//! JSON-like values across the JS boundary, without a general-purpose serde ↔ JS layer.
//!
//! - [`to_js`]: any `Serialize` value as plain JS objects and arrays (serde_json text, then
//!   `JSON.parse`: struct fields keep their order).
//! - [`json_value`]: a JS value as a `serde_json::Value`, exactly or not at all.

use crate::prelude::*;

use js_sys::{Array, JsString, Number, Object};
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// JS `String(value)`: how an error value reads in a message.
    #[wasm_bindgen(js_name = String)]
    fn js_string(value: &JsValue) -> String;
}

/// A value as a plain JS value (objects, not Maps; `null` for `None`). A value holding an
/// integer that a JS number cannot represent exactly gives `null` as a whole.
pub fn to_js(value: &impl Serialize) -> JsValue {
    json_text(value, true)
        .and_then(|t| js_sys::JSON::parse(&t).ok())
        .unwrap_or(JsValue::NULL)
}

/// Compact JSON text (as `serde_json::to_string`); with `js_safe`, `None` when an integer is
/// outside the safe JS range (|n| ≥ 2^53). serde_json without std takes no custom formatter, so
/// the integers are checked in the text: it writes them as bare digits, floats always with a
/// `.` or an exponent.
pub fn json_text(value: &impl Serialize, js_safe: bool) -> Option<String> {
    let text = serde_json::to_string(value).ok()?;
    (!js_safe || integers_js_safe(&text)).then_some(text)
}

const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Whether every integer token of the JSON `text` (outside strings) is within ±(2^53 - 1).
fn integers_js_safe(text: &str) -> bool {
    let bytes = text.as_bytes();
    let (mut i, mut in_string) = (0, false);
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            b'0'..=b'9' if !in_string => {
                let (mut n, mut float) = (0u64, false);
                while let Some(&b) = bytes.get(i) {
                    match b {
                        b'0'..=b'9' => n = n.saturating_mul(10).saturating_add(u64::from(b - b'0')),
                        b'.' | b'e' | b'E' | b'+' | b'-' => float = true,
                        _ => break,
                    }
                    i += 1;
                }
                if !float && n > MAX_SAFE_INTEGER {
                    return false;
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    true
}

/// A JS value taken as JSON exactly, or refused with a description naming `path`: what JSON
/// cannot hold (NaN, ±Infinity, `undefined` in an array, Dates, Maps, Sets, typed arrays,
/// functions, symbols, BigInts, class instances) and strings with lone UTF-16 surrogates are
/// refused instead of being converted into something else. `undefined` object fields are left
/// out, as `JSON.stringify` does.
pub fn json_value(v: &JsValue, path: &str) -> Result<Value, String> {
    let refuse = |what: &str| Err(format!("{path} {what}"));
    if v.is_null() {
        return Ok(Value::Null);
    }
    if let Some(b) = v.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Some(n) = v.as_f64() {
        if !n.is_finite() {
            return refuse("is NaN or Infinity, which JSON cannot hold");
        }
        return Ok(if Number::is_safe_integer(v) {
            Value::from(n as i64)
        } else {
            serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
        });
    }
    if let Some(s) = v.dyn_ref::<JsString>() {
        if !s.is_valid_utf16() {
            return refuse("contains a lone UTF-16 surrogate; it would be stored changed");
        }
        return Ok(Value::String(String::from(s)));
    }
    if Array::is_array(v) {
        let array: &Array = v.unchecked_ref();
        return array
            .iter()
            .enumerate()
            .map(|(i, item)| json_value(&item, &format!("{path}[{i}]")))
            .collect();
    }
    if v.is_object() && is_plain_object(v) {
        let mut map = serde_json::Map::new();
        for entry in Object::entries(v.unchecked_ref()).iter() {
            let pair: Array = entry.unchecked_into();
            let value = pair.get(1);
            if value.is_undefined() {
                continue;
            }
            let key = json_value(&pair.get(0), &format!("a key in {path}"))?;
            let Value::String(key) = key else {
                return refuse("has a key that is not a string");
            };
            let value = json_value(&value, &format!("{path}.{key}"))?;
            map.insert(key, value);
        }
        return Ok(Value::Object(map));
    }
    refuse("is not a JSON value (a string, number, boolean, null, array or plain object)")
}

/// `{…}` or `Object.create(null)`: not a Date, Map, class instance, …
fn is_plain_object(v: &JsValue) -> bool {
    let proto = Object::get_prototype_of(v);
    proto.is_null() || Object::is(&proto, &Object::get_prototype_of(&Object::new()))
}

/// How a thrown value reads in a message: an `Error`'s `Name: message`, with its cause when it
/// has one (Node's "fetch failed" says why only there: ECONNREFUSED, a DNS failure, …).
pub fn error_text(value: &JsValue) -> String {
    match value.dyn_ref::<js_sys::Error>() {
        Some(error) => {
            let mut text: String = error.to_string().into();
            if let Some(cause) = error.cause().dyn_ref::<js_sys::Error>() {
                text.push_str(&format!(" ({})", String::from(cause.message())));
            }
            text
        }
        None => js_string(value),
    }
}
