//! A user's own transport: any JS object with `store`, `retrieveEntityByIdentifier` and
//! `createRelationships` methods returning (promises of) the real server's response bodies, and
//! optionally `retrieveRelatedEntities` (for `verifyTurn`/`repairTurn`). What those methods
//! throw is passed back to the caller unchanged.

use std::rc::Rc;

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::js_json::{json_value, to_js};
use super::{Call, Transport};
use crate::protocol::error::{Error, ErrorCode};
use serde_json::Value;

pub struct JsObjectTransport {
    object: JsValue,
}

impl JsObjectTransport {
    /// Accepts `object` if it has the three methods a turn needs.
    pub fn new(object: JsValue) -> Result<Self, Error> {
        for call in Call::TURN {
            let m = call.method();
            let f = Reflect::get(&object, &JsValue::from_str(m)).unwrap_or(JsValue::UNDEFINED);
            if !f.is_function() {
                return Err(Error::invalid_input(format!(
                    "transport object has no {m}() method (it needs store, \
                     retrieveEntityByIdentifier and createRelationships)"
                )));
            }
        }
        Ok(JsObjectTransport { object })
    }
}

impl Transport for JsObjectTransport {
    async fn call(&self, call: Call, body: &Value) -> Result<Value, Error> {
        let method = call.method();
        let f: Function = Reflect::get(&self.object, &JsValue::from_str(method))
            .ok()
            .and_then(|f| f.dyn_into().ok())
            .ok_or_else(|| {
                Error::invalid_input(format!(
                    "transport.{method} is not a function{}",
                    if call == Call::RetrieveRelatedEntities {
                        " (verifyTurn and repairTurn read a turn's edges with it)"
                    } else {
                        ""
                    }
                ))
            })?;
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
