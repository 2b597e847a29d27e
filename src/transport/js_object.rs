//! A user's own transport: any JS object with `store`, `retrieveEntityByIdentifier` and
//! `createRelationships` methods returning (promises of) the real server's response bodies.
//! What those methods throw is passed back to the caller unchanged.

use std::rc::Rc;

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::js_json::{json_value, to_js};
use super::Transport;
use crate::json::Value;
use crate::protocol::error::{Error, ErrorCode};

pub const METHODS: [&str; 3] = ["store", "retrieveEntityByIdentifier", "createRelationships"];

pub struct JsObjectTransport {
    object: JsValue,
}

impl JsObjectTransport {
    /// Accepts `object` if it has all three methods.
    pub fn new(object: JsValue) -> Result<Self, Error> {
        for m in METHODS {
            let f = Reflect::get(&object, &JsValue::from_str(m)).unwrap_or(JsValue::UNDEFINED);
            if !f.is_function() {
                return Err(Error::invalid_input(format!(
                    "transport object has no {m}() method (it needs {})",
                    METHODS.join(", ")
                )));
            }
        }
        Ok(JsObjectTransport { object })
    }

    pub(crate) async fn call(&self, method: &str, body: &Value) -> Result<Value, Error> {
        let f: Function = Reflect::get(&self.object, &JsValue::from_str(method))
            .ok()
            .and_then(|f| f.dyn_into().ok())
            .ok_or_else(|| Error::invalid_input(format!("transport.{method} is not a function")))?;
        let arg = to_js(body);
        let returned = f.call1(&self.object, &arg).map_err(|e| thrown(e, method))?;
        let answer = JsFuture::from(Promise::resolve(&returned))
            .await
            .map_err(|e| thrown(e, method))?;
        json_value(&answer, &format!("what transport.{method}() resolved to"))
            .map_err(|e| Error::new(ErrorCode::InvalidResponse, e))
    }
}

fn thrown(value: JsValue, method: &str) -> Error {
    Error::external(Rc::new(value), format!("transport.{method}() threw"))
}

impl Transport for JsObjectTransport {
    async fn store(&self, body: &Value) -> Result<Value, Error> {
        self.call("store", body).await
    }

    async fn retrieve_entity_by_identifier(&self, body: &Value) -> Result<Value, Error> {
        self.call("retrieveEntityByIdentifier", body).await
    }

    async fn create_relationships(&self, body: &Value) -> Result<Value, Error> {
        self.call("createRelationships", body).await
    }
}
