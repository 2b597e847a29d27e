//! Protocol errors as real JS `Error`s with `code`, `status` and `body`; values thrown by user
//! callbacks are given back exactly as they were thrown.

use std::rc::Rc;

use js_sys::Reflect;
use wasm_bindgen::JsValue;

use crate::protocol::error::Error;
use crate::transport::js_json::to_js as json_to_js;

pub fn to_js(error: Error) -> JsValue {
    if let Some(original) = error
        .external
        .as_ref()
        .and_then(|e| e.downcast_ref::<JsValue>())
    {
        return original.clone();
    }
    let js = js_sys::Error::new(&error.message);
    js.set_name("NeotomaError");
    let set = |k: &str, v: JsValue| {
        let _ = Reflect::set(&js, &JsValue::from_str(k), &v);
    };
    set("code", JsValue::from_str(error.code.as_str()));
    if let Some(status) = error.status {
        set("status", JsValue::from(status));
    }
    if let Some(body) = &error.body {
        set("body", json_to_js(body));
    }
    js.into()
}

/// A value thrown by user code, kept to be re-thrown unchanged.
pub fn thrown(value: JsValue, what: &str) -> Error {
    Error::external(Rc::new(value), format!("{what} threw"))
}
