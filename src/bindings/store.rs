//! `EmbeddedStore` for JS: the in-process Neotoma-compatible store. It answers REST calls
//! (`handle`), and it is a transport object (`store`, `retrieveEntityByIdentifier`,
//! `createRelationships`), so several agents can share one.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Promise, Reflect};
use wasm_bindgen::prelude::*;

use super::errors::to_js;
use super::js_values::{json_value, string_arg};
use crate::platform::now_ms;
use crate::protocol::error::Error;
use crate::store::{EmbeddedStore, Response};
use crate::transport::js_json::to_js as json_to_js;
use serde_json::Value;

#[wasm_bindgen(js_name = EmbeddedStore)]
pub struct EmbeddedStoreJs {
    inner: Rc<RefCell<EmbeddedStore>>,
}

fn json_arg(body: JsValue) -> Result<Value, JsValue> {
    if body.is_undefined() || body.is_null() {
        return Ok(Value::Object(Default::default()));
    }
    json_value(&body, "body").map_err(to_js)
}

/// `method` and `path` of a REST call: strings, checked here (a non-string would otherwise
/// reach the wasm as garbage).
fn call_args(method: &JsValue, path: &JsValue) -> Result<(String, String), JsValue> {
    Ok((
        string_arg("method", method).map_err(to_js)?,
        string_arg("path", path).map_err(to_js)?,
    ))
}

fn response_js(r: Response) -> JsValue {
    let out = js_sys::Object::new();
    let _ = Reflect::set(&out, &"status".into(), &JsValue::from(r.status));
    let _ = Reflect::set(&out, &"body".into(), &json_to_js(&r.body));
    out.into()
}

/// Resolves with the body of a 2xx answer; rejects with a `NeotomaError` otherwise.
fn answer(path: &str, result: Result<Value, Response>) -> Promise {
    match result {
        Ok(body) => Promise::resolve(&json_to_js(&body)),
        Err(r) => Promise::reject(&to_js(Error::from_embedded(path, r.status, r.body))),
    }
}

#[wasm_bindgen(js_class = EmbeddedStore)]
impl EmbeddedStoreJs {
    #[wasm_bindgen(constructor)]
    pub fn new() -> EmbeddedStoreJs {
        EmbeddedStoreJs {
            inner: Rc::new(RefCell::new(EmbeddedStore::new())),
        }
    }

    /// One REST call (`"POST", "/store", body`), answered as the real server would.
    #[wasm_bindgen(unchecked_return_type = "EmbeddedResponse")]
    pub fn handle(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] method: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "unknown")] body: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (method, path) = call_args(&method, &path)?;
        let body = if body.is_undefined() || body.is_null() {
            None
        } else {
            Some(json_arg(body)?)
        };
        let r = self
            .inner
            .borrow_mut()
            .handle(&method, &path, body.as_ref(), now_ms());
        Ok(response_js(r))
    }

    /// Like `handle`, for a raw request body text (invalid JSON and oversized bodies are
    /// answered as the real server answers them).
    #[wasm_bindgen(js_name = handleRaw, unchecked_return_type = "EmbeddedResponse")]
    pub fn handle_raw(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] method: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
        #[wasm_bindgen(js_name = rawBody, unchecked_optional_param_type = "string")]
        raw_body: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (method, path) = call_args(&method, &path)?;
        let raw = if raw_body.is_undefined() || raw_body.is_null() {
            None
        } else {
            Some(string_arg("rawBody", &raw_body).map_err(to_js)?)
        };
        let r = self
            .inner
            .borrow_mut()
            .handle_raw(&method, &path, raw.as_deref(), now_ms());
        Ok(response_js(r))
    }

    #[wasm_bindgen(unchecked_return_type = "Promise<StoreResponse>")]
    pub fn store(
        &self,
        #[wasm_bindgen(unchecked_param_type = "StoreRequest")] body: JsValue,
    ) -> Promise {
        self.call("/store", body, |s, b| s.store(b, now_ms()))
    }

    #[wasm_bindgen(
        js_name = retrieveEntityByIdentifier,
        unchecked_return_type = "Promise<RetrieveResponse>"
    )]
    pub fn retrieve_entity_by_identifier(
        &self,
        #[wasm_bindgen(unchecked_param_type = "RetrieveRequest")] body: JsValue,
    ) -> Promise {
        self.call("/retrieve_entity_by_identifier", body, |s, b| {
            s.retrieve_entity_by_identifier(b)
        })
    }

    #[wasm_bindgen(js_name = createRelationships, unchecked_return_type = "Promise<unknown>")]
    pub fn create_relationships(
        &self,
        #[wasm_bindgen(unchecked_param_type = "{ relationships: RelationshipById[] }")]
        body: JsValue,
    ) -> Promise {
        self.call("/create_relationships", body, |s, b| {
            s.create_relationships(b, now_ms())
        })
    }

    #[wasm_bindgen(js_name = retrieveRelatedEntities, unchecked_return_type = "Promise<RelatedResponse>")]
    pub fn retrieve_related_entities(
        &self,
        #[wasm_bindgen(unchecked_param_type = "RelatedRequest")] body: JsValue,
    ) -> Promise {
        self.call("/retrieve_related_entities", body, |s, b| {
            s.retrieve_related_entities(b)
        })
    }

    /// Number of entities stored.
    #[wasm_bindgen(getter, js_name = entityCount)]
    pub fn entity_count(&self) -> usize {
        self.inner.borrow().entity_count()
    }
}

impl Default for EmbeddedStoreJs {
    fn default() -> Self {
        Self::new()
    }
}

/// A typed entry point of the store (body -> 2xx body or the non-2xx answer).
type Call = fn(&mut EmbeddedStore, &Value) -> Result<Value, Response>;

impl EmbeddedStoreJs {
    /// One typed call as a promise: its body checked, then [`answer`]. Out of line: one copy
    /// for the transport methods.
    #[inline(never)]
    fn call(&self, path: &str, body: JsValue, call: Call) -> Promise {
        match json_arg(body) {
            Ok(b) => answer(path, call(&mut self.inner.borrow_mut(), &b)),
            Err(e) => Promise::reject(&e),
        }
    }

    /// Another JS handle on the same store (Rust-side; used by tests).
    pub fn clone_handle(&self) -> EmbeddedStoreJs {
        EmbeddedStoreJs {
            inner: self.inner.clone(),
        }
    }
}
