//! Reading duck-typed JS values. Strings are checked for lone UTF-16 surrogates before they
//! cross into Rust, where they would silently become U+FFFD.

use js_sys::{JsString, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::protocol::error::Error;
use crate::protocol::produced::EntityFields;
use crate::protocol::validate::check_turn_number;
use crate::transport::js_json;
use serde_json::{Map, Value};

/// `obj[key]`, with `undefined` and `null` read as absent.
pub fn field(obj: &JsValue, key: &str) -> Option<JsValue> {
    if !obj.is_object() && !obj.is_function() {
        return None;
    }
    Reflect::get(obj, &JsValue::from_str(key))
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

/// A required string argument.
pub fn string_arg(name: &str, value: &JsValue) -> Result<String, Error> {
    let s = value
        .dyn_ref::<JsString>()
        .ok_or_else(|| Error::invalid_input(format!("{name} must be a string")))?;
    let text = String::from(s);
    if !is_well_formed(s, &text) {
        return Err(Error::invalid_input(format!(
            "{name} contains a lone UTF-16 surrogate; it would be stored changed"
        )));
    }
    Ok(text)
}

/// Whether `s` (whose text is `text`) holds no lone UTF-16 surrogate. Asks JS's
/// `String.prototype.isWellFormed` (2023: Chrome 111, Firefox 119, Safari 16.4; V8 answers a
/// one-byte string at once). Without it, a lone surrogate arrives as U+FFFD, and only then is
/// the string checked unit by unit (`is_valid_utf16` makes one JS call per UTF-16 unit: 15 ms for
/// a 1 MiB message); that search for U+FFFD was 2% of a 1 MiB extraction.
fn is_well_formed(s: &JsString, text: &str) -> bool {
    thread_local! {
        // `Object.getPrototypeOf("")` is `String.prototype`.
        static NATIVE: bool =
            Reflect::get(&Object::get_prototype_of(&"".into()), &"isWellFormed".into())
                .is_ok_and(|f| f.is_function());
    }
    if NATIVE.with(|native| *native) {
        s.is_well_formed()
    } else {
        !text.contains('\u{FFFD}') || s.is_valid_utf16()
    }
}

pub fn string_field(obj: &JsValue, key: &str, path: &str) -> Result<Option<String>, Error> {
    field(obj, key)
        .map(|v| string_arg(&format!("{path}{key}"), &v))
        .transpose()
}

pub fn required_string(obj: &JsValue, key: &str, path: &str) -> Result<String, Error> {
    string_field(obj, key, path)?
        .ok_or_else(|| Error::invalid_input(format!("{path}{key} is required")))
}

pub fn number_field(obj: &JsValue, key: &str, path: &str) -> Result<Option<f64>, Error> {
    field(obj, key)
        .map(|v| {
            v.as_f64()
                .filter(|n| n.is_finite() && *n >= 0.0)
                .ok_or_else(|| {
                    Error::invalid_input(format!("{path}{key} must be a non-negative number"))
                })
        })
        .transpose()
}

pub fn bool_field(obj: &JsValue, key: &str, path: &str) -> Result<Option<bool>, Error> {
    field(obj, key)
        .map(|v| {
            v.as_bool()
                .ok_or_else(|| Error::invalid_input(format!("{path}{key} must be a boolean")))
        })
        .transpose()
}

/// A non-negative integer option that fits in u32 (large values are capped).
pub fn u32_field(obj: &JsValue, key: &str, path: &str) -> Result<Option<u32>, Error> {
    Ok(number_field(obj, key, path)?.map(|n| n.min(f64::from(u32::MAX)) as u32))
}

/// A positive integer field (`turnNumber`, `revision`).
pub fn turn_number_field(obj: &JsValue, key: &str) -> Result<Option<u32>, Error> {
    field(obj, key)
        .map(|v| {
            v.as_f64()
                .and_then(|n| check_turn_number(n).ok())
                .ok_or_else(|| Error::invalid_input(format!("{key} must be a positive integer")))
        })
        .transpose()
}

/// An options object: `undefined`/`null` (none), or a plain object whose keys are all known. A
/// misspelt option would otherwise be ignored silently and its default used.
pub fn options_object(value: &JsValue, path: &str, known: &[&str]) -> Result<(), Error> {
    if value.is_undefined() || value.is_null() {
        return Ok(());
    }
    if !value.is_object() || js_sys::Array::is_array(value) {
        return Err(Error::invalid_input(format!("{path} must be an object")));
    }
    let keys = js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>());
    for key in keys.iter() {
        let key = key.as_string().unwrap_or_default();
        if !known.contains(&key.as_str()) {
            return Err(Error::invalid_input(format!(
                "{path} has an unknown option \"{key}\" (known: {})",
                known.join(", ")
            )));
        }
    }
    Ok(())
}

/// A list of entity ids: strings, or objects with `id` / `entity_id`.
pub fn entity_ids(value: &JsValue, path: &str) -> Result<Vec<String>, Error> {
    let array = value
        .dyn_ref::<js_sys::Array>()
        .ok_or_else(|| Error::invalid_input(format!("{path} must be an array of entity ids")))?;
    let mut out = Vec::with_capacity(array.length() as usize);
    for item in array.iter() {
        let id = if item.is_string() {
            Some(string_arg(path, &item)?)
        } else {
            match string_field(&item, "id", path)? {
                Some(id) => Some(id),
                None => string_field(&item, "entity_id", path)?,
            }
        };
        match id {
            Some(id) if !id.trim().is_empty() => out.push(id),
            _ => {
                return Err(Error::invalid_input(format!(
                    "{path} must hold entity ids (strings or objects with id)"
                )))
            }
        }
    }
    Ok(out)
}

/// An object of extra message fields, as JSON.
pub fn json_object_field(obj: &JsValue, key: &str) -> Result<Option<Map<String, Value>>, Error> {
    let Some(v) = field(obj, key) else {
        return Ok(None);
    };
    if !v.is_object() || js_sys::Array::is_array(&v) {
        return Err(Error::invalid_input(format!(
            "{key} must be a plain object"
        )));
    }
    match json_value(&v, key)? {
        Value::Object(map) => Ok(Some(map)),
        _ => Err(Error::invalid_input(format!(
            "{key} must be a plain object"
        ))),
    }
}

/// A list of produced entities: an array of plain objects whose values are JSON, taken exactly
/// (their rules, `entity_type` and the like, are checked by the protocol).
pub fn entity_list(value: &JsValue, path: &str) -> Result<Vec<EntityFields>, Error> {
    if !js_sys::Array::is_array(value) {
        return Err(Error::invalid_input(format!(
            "{path} must be an array of entity objects ({{ entity_type, ...fields }})"
        )));
    }
    match json_value(value, path)? {
        Value::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(i, item)| match item {
                Value::Object(fields) => Ok(fields),
                _ => Err(Error::invalid_input(format!(
                    "{path}[{i}] must be an object ({{ entity_type, ...fields }})"
                ))),
            })
            .collect(),
        _ => unreachable!("an array is read as a JSON array"),
    }
}

/// A value the caller gives as JSON, taken exactly or refused (`INVALID_INPUT`): see
/// [`js_json::json_value`].
pub fn json_value(v: &JsValue, path: &str) -> Result<Value, Error> {
    js_json::json_value(v, path).map_err(Error::invalid_input)
}
