//! JSON values across the JS boundary.
//!
//! - [`to_js`]: any `Serialize` value as plain JS objects and arrays: its JSON text, then
//!   `JSON.parse`. Numbers keep their JSON text in Rust (serde_json's `arbitrary_precision`),
//!   which serde-wasm-bindgen's serializer would write as `{"$serde_json::private::Number": …}`
//!   objects; and struct fields keep their order.
//! - [`json_value`]: a JS value as a [`Value`], exactly or not at all.

use js_sys::{Array, JsString, Number as JsNumber, Object};
use serde::Serialize;
use serde_json::{Map, Number, Value};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// JS `String(value)`: how an error value reads in a message, and a number's JSON text.
    #[wasm_bindgen(js_name = String)]
    fn js_string(value: &JsValue) -> String;
}

/// A value as a plain JS value (objects, not Maps; `null` for `None`). A value holding a number
/// that a JS number cannot represent exactly (an integer beyond 2^53) gives `null` as a whole,
/// rather than a silently different number.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    // The text is written from `value` itself: a `Value` copy would sort struct fields by name.
    match serde_json::to_string(value) {
        Ok(text) if serde_json::from_str(&text).is_ok_and(|v| is_js_exact(&v)) => {
            js_sys::JSON::parse(&text).unwrap_or(JsValue::NULL)
        }
        _ => JsValue::NULL,
    }
}

/// Every integer in `value` is one a JS number holds exactly (decimals JS reads as it reads them).
fn is_js_exact(value: &Value) -> bool {
    match value {
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u as f64 as u64 == u,
            (_, Some(i)) => i as f64 as i64 == i,
            // Digits beyond 64 bits, or a decimal / exponent.
            _ => true,
        },
        Value::Array(items) => items.iter().all(is_js_exact),
        Value::Object(map) => map.values().all(is_js_exact),
        _ => true,
    }
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
        // Safe integers as digits; JS prints the others (`1.5`, `1e+21`, `9007199254740992`),
        // which is valid JSON number text, so no float formatting is linked into the wasm.
        let number = if JsNumber::is_safe_integer(v) {
            Number::from(n as i64)
        } else {
            js_string(v)
                .parse()
                .expect("JS prints a finite number as JSON number text")
        };
        return Ok(Value::Number(number));
    }
    if let Some(s) = v.dyn_ref::<JsString>() {
        if !s.is_valid_utf16() {
            return refuse("contains a lone UTF-16 surrogate; it would be stored changed");
        }
        return Ok(Value::String(String::from(s)));
    }
    if Array::is_array(v) {
        let array: &Array = v.unchecked_ref();
        let mut items = Vec::with_capacity(array.length() as usize);
        for (i, item) in array.iter().enumerate() {
            items.push(json_value(&item, &format!("{path}[{i}]"))?);
        }
        return Ok(Value::Array(items));
    }
    if v.is_object() && is_plain_object(v) {
        let mut map = Map::new();
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
