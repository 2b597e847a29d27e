//! JSON-like values across the JS boundary, without a general-purpose serde ↔ JS layer.
//!
//! - [`to_js`]: any `Serialize` value as plain JS objects and arrays (serde_json text, then
//!   `JSON.parse`: struct fields keep their order).
//! - [`from_js`]: a JS value as a `serde_json::Value`.
//!
//! Both keep the exact results of the `serde-wasm-bindgen` calls they replace (its
//! `json_compatible()` serializer and `from_value::<Value>`), error texts included, so nothing
//! changes for callers; they only cost far less code.

use std::io;

use js_sys::{Array, ArrayBuffer, Map, Number, Object, Symbol, Uint8Array};
use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, Serializer};
use serde_json::Value;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// JS `String(value)`: how an error value reads in a message.
    #[wasm_bindgen(js_name = String)]
    pub(crate) fn js_string(value: &JsValue) -> String;
}

/// A value as a plain JS value (objects, not Maps; `null` for `None`). A value holding an
/// integer that a JS number cannot represent exactly gives `null` as a whole.
pub fn to_js(value: &impl Serialize) -> JsValue {
    json_text(value, true)
        .and_then(|t| js_sys::JSON::parse(&t).ok())
        .unwrap_or(JsValue::NULL)
}

/// Compact JSON text (as `serde_json::to_string`); with `js_safe`, `None` when an integer is
/// outside the safe JS range (|n| ≥ 2^53). One serializer for both uses: each formatter type
/// is a copy of serde_json's serializer in the wasm.
pub fn json_text(value: &impl Serialize, js_safe: bool) -> Option<String> {
    let mut text = Vec::with_capacity(128);
    value
        .serialize(&mut Serializer::with_formatter(&mut text, Json { js_safe }))
        .ok()?;
    String::from_utf8(text).ok()
}

struct Json {
    js_safe: bool,
}

const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// A plain error kind: `io::Error::other(text)` would link a boxed string error and its `Debug`.
fn unsafe_integer() -> io::Error {
    io::ErrorKind::InvalidData.into()
}

impl Formatter for Json {
    fn write_i64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: i64) -> io::Result<()> {
        if self.js_safe && value.unsigned_abs() > MAX_SAFE_INTEGER {
            return Err(unsafe_integer());
        }
        CompactFormatter.write_i64(writer, value)
    }

    fn write_u64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: u64) -> io::Result<()> {
        if self.js_safe && value > MAX_SAFE_INTEGER {
            return Err(unsafe_integer());
        }
        CompactFormatter.write_u64(writer, value)
    }
}

/// A JS value as JSON: `null`/`undefined` → null, booleans, numbers (safe integers as
/// integers; NaN and ±Infinity → null), BigInts within i64/u64, strings, arrays, plain objects
/// (own enumerable string keys) and Maps with string keys. Anything else is an error whose
/// text reads as `serde-wasm-bindgen`'s did (`"Error: invalid type: …"`).
pub fn from_js(value: &JsValue) -> Result<Value, String> {
    if value.loose_eq(&JsValue::NULL) {
        return Ok(Value::Null);
    }
    if let Some(b) = value.as_bool() {
        return Ok(Value::Bool(b));
    }
    if value.is_bigint() {
        return match i64::try_from(value.clone()) {
            Ok(n) => Ok(Value::from(n)),
            Err(v) => u64::try_from(v).map(Value::from).map_err(|_| {
                "Error: Couldn't deserialize i64 or u64 from a BigInt outside i64::MIN..u64::MAX \
                 bounds"
                    .to_owned()
            }),
        };
    }
    if let Some(n) = value.as_f64() {
        return Ok(if Number::is_safe_integer(value) {
            Value::from(n as i64)
        } else {
            serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
        });
    }
    if let Some(s) = value.as_string() {
        return Ok(Value::String(s));
    }
    if let Some(array) = value.dyn_ref::<Array>() {
        return array.iter().map(|v| from_js(&v)).collect();
    }
    if is_bytes(value) {
        return Err(invalid_type("byte array", EXPECTED_VALUE));
    }
    if value.is_object() && (!Symbol::iterator().js_in(value) || value.has_type::<Map>()) {
        return object(value);
    }
    Err(invalid_type(&unexpected(value), EXPECTED_VALUE))
}

const EXPECTED_VALUE: &str = "any valid JSON value";

/// An iterable of `[key, value]` pairs (a Map), or else a plain object's entries.
fn object(value: &JsValue) -> Result<Value, String> {
    let mut map = serde_json::Map::new();
    let mut first = true;
    let mut entry = |pair: JsValue, map: &mut serde_json::Map<String, Value>| {
        let pair: Array = pair.unchecked_into();
        let key = pair.get(0);
        let Some(key) = key.as_string() else {
            // The first key was read as a map key, later ones as plain strings.
            let expected = if first { "a string key" } else { "a string" };
            return Err(invalid_type(&unexpected(&key), expected));
        };
        first = false;
        map.insert(key, from_js(&pair.get(1))?);
        Ok(())
    };
    match js_sys::try_iter(value).map_err(|e| js_string(&e))? {
        Some(pairs) => {
            for pair in pairs {
                entry(pair.map_err(|e| js_string(&e))?, &mut map)?;
            }
        }
        None => {
            for pair in Object::entries(value.unchecked_ref()).iter() {
                entry(pair, &mut map)?;
            }
        }
    }
    Ok(Value::Object(map))
}

fn is_bytes(value: &JsValue) -> bool {
    value.has_type::<Uint8Array>() || value.has_type::<ArrayBuffer>()
}

fn invalid_type(unexpected: &str, expected: &str) -> String {
    format!("Error: invalid type: {unexpected}, expected {expected}")
}

/// How serde names a value it did not expect (never a string: strings are always accepted).
fn unexpected(value: &JsValue) -> String {
    if value.loose_eq(&JsValue::NULL) {
        "unit value".to_owned()
    } else if let Some(b) = value.as_bool() {
        format!("boolean `{b}`")
    } else if let Some(n) = value.as_f64() {
        format!("floating point `{}`", float_with_decimal_point(value, n))
    } else if is_bytes(value) {
        "byte array".to_owned()
    } else {
        format!("{value:?}")
    }
}

/// Rust's `Display` of an f64 (no exponent, `-0` for negative zero, `inf`/`NaN`) with `.0`
/// added to whole numbers, written from JS's shortest round-trip digits.
fn float_with_decimal_point(value: &JsValue, n: f64) -> String {
    if n.is_nan() {
        return "NaN".to_owned();
    }
    if n.is_infinite() {
        return if n > 0.0 { "inf" } else { "-inf" }.to_owned();
    }
    let text = js_string(value);
    let (sign, body) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None if n == 0.0 && n.is_sign_negative() => ("-", text.as_str()),
        None => ("", text.as_str()),
    };
    let mut out = String::from(sign);
    match body.split_once('e') {
        None => out.push_str(body),
        Some((mantissa, exponent)) => {
            let exponent: i32 = exponent.trim_start_matches('+').parse().unwrap_or(0);
            let int_len = mantissa.find('.').unwrap_or(mantissa.len()) as i32;
            let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
            let point = int_len + exponent;
            let len = digits.len() as i32;
            if point <= 0 {
                out.push_str("0.");
                out.extend(std::iter::repeat_n('0', (-point) as usize));
                out.push_str(&digits);
            } else if point >= len {
                out.push_str(&digits);
                out.extend(std::iter::repeat_n('0', (point - len) as usize));
            } else {
                out.push_str(&digits[..point as usize]);
                out.push('.');
                out.push_str(&digits[point as usize..]);
            }
        }
    }
    if !out.contains('.') {
        out.push_str(".0");
    }
    out
}
