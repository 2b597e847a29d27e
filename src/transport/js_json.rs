//! JSON values across the JS boundary.
//!
//! - [`to_js`]: any `Serialize` value as plain JS objects and arrays, by serde-wasm-bindgen
//!   (`Serializer::json_compatible()`: objects, not Maps; `null` for `None`), fields in order.
//! - [`json_value`]: a JS value as a [`Value`], exactly or not at all. Not serde-wasm-bindgen's
//!   `from_value`: it would store `undefined` members as `null`, `NaN` as `null`, a `Date` as
//!   `{}` and a lone surrogate as U+FFFD, and its error path links float formatting (README,
//!   Dependencies).

use js_sys::{Array, JsString, Number as JsNumber, Object};
use serde::Serialize;
use serde_json::{Map, Number, Value};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// JS `String(value)`: how an error value reads in a message.
    #[wasm_bindgen(js_name = String)]
    fn js_string(value: &JsValue) -> String;
}

/// A value as a plain JS value. A value holding an integer that a JS number cannot represent
/// exactly (beyond 2^53) gives `null` as a whole, rather than a silently different number.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

/// A JS value taken as JSON exactly, or refused with a description naming `path`: what JSON
/// cannot hold (NaN, ±Infinity, `undefined` in an array, Dates, Maps, Sets, typed arrays,
/// functions, symbols, BigInts, class instances) and strings with lone UTF-16 surrogates are
/// refused instead of being converted into something else. `undefined` object fields are left
/// out, as `JSON.stringify` does.
pub fn json_value(v: &JsValue, path: &str) -> Result<Value, String> {
    convert(v).map_err(|refusal| refusal.describe(path))
}

/// Why a value is not JSON, and where: the steps from the refused value out to the top, built
/// only once something is refused.
struct Refusal {
    what: &'static str,
    within: Vec<Step>,
}

enum Step {
    Index(usize),
    Member(String),
    /// The refused value is an object's key.
    Key,
}

impl Refusal {
    fn new(what: &'static str) -> Self {
        Refusal {
            what,
            within: Vec::new(),
        }
    }

    fn at(mut self, step: Step) -> Self {
        self.within.push(step);
        self
    }

    fn describe(&self, path: &str) -> String {
        let mut at = path.to_owned();
        for step in self.within.iter().rev() {
            match step {
                Step::Index(i) => at.push_str(&format!("[{i}]")),
                Step::Member(key) => at.push_str(&format!(".{key}")),
                Step::Key => at = format!("a key in {at}"),
            }
        }
        format!("{at} {}", self.what)
    }
}

fn convert(v: &JsValue) -> Result<Value, Refusal> {
    if v.is_null() {
        return Ok(Value::Null);
    }
    if let Some(b) = v.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Some(n) = v.as_f64() {
        if !n.is_finite() {
            return Err(Refusal::new("is NaN or Infinity, which JSON cannot hold"));
        }
        // Safe integers as integers (written without a fraction); the others as floats.
        let number = if JsNumber::is_safe_integer(v) {
            Number::from(n as i64)
        } else {
            Number::from_f64(n).expect("finite")
        };
        return Ok(Value::Number(number));
    }
    if let Some(s) = v.dyn_ref::<JsString>() {
        if !s.is_valid_utf16() {
            return Err(Refusal::new(
                "contains a lone UTF-16 surrogate; it would be stored changed",
            ));
        }
        return Ok(Value::String(String::from(s)));
    }
    if Array::is_array(v) {
        let array: &Array = v.unchecked_ref();
        return array
            .iter()
            .enumerate()
            .map(|(i, item)| convert(&item).map_err(|r| r.at(Step::Index(i))))
            .collect::<Result<_, _>>()
            .map(Value::Array);
    }
    if v.is_object() && is_plain_object(v) {
        let mut map = Map::new();
        for entry in Object::entries(v.unchecked_ref()).iter() {
            let pair: Array = entry.unchecked_into();
            let value = pair.get(1);
            if value.is_undefined() {
                continue;
            }
            let Value::String(key) = convert(&pair.get(0)).map_err(|r| r.at(Step::Key))? else {
                return Err(Refusal::new("has a key that is not a string"));
            };
            let value = convert(&value).map_err(|r| r.at(Step::Member(key.clone())))?;
            map.insert(key, value);
        }
        return Ok(Value::Object(map));
    }
    Err(Refusal::new(
        "is not a JSON value (a string, number, boolean, null, array or plain object)",
    ))
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
