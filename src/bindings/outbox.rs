//! The outbox's storage as JS sees it: `{ get(key), put(key, value), delete(key) }` returning
//! values or promises (Workers KV and Durable Object storage have exactly this shape), or the
//! default: IndexedDB where the browser entry registered it, else memory shared by every agent
//! of this module instance.

use std::cell::RefCell;

use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::errors::to_js;
use super::js_values::field;
use crate::protocol::error::{Error, ErrorCode};
use crate::protocol::outbox::{MemoryStorage, OutboxStorage};

pub enum JsOutboxStorage {
    Memory(MemoryStorage),
    Object(JsValue),
}

thread_local! {
    static MEMORY: MemoryStorage = MemoryStorage::default();
    static DEFAULT_OBJECT: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

/// Registers the storage used when `outbox` is omitted (the browser entry passes IndexedDB).
#[wasm_bindgen(js_name = setDefaultOutboxStorage)]
pub fn set_default_outbox_storage(
    #[wasm_bindgen(unchecked_param_type = "OutboxStorage | undefined")] storage: JsValue,
) -> Result<(), JsValue> {
    if storage.is_undefined() || storage.is_null() {
        DEFAULT_OBJECT.with(|d| d.borrow_mut().take());
        return Ok(());
    }
    check_shape(&storage).map_err(to_js)?;
    DEFAULT_OBJECT.with(|d| *d.borrow_mut() = Some(storage));
    Ok(())
}

/// The `outbox` option: `None` = disabled (`outbox: false`).
pub fn storage_from(option: Option<JsValue>) -> Result<Option<JsOutboxStorage>, Error> {
    match option {
        None => Ok(Some(match DEFAULT_OBJECT.with(|d| d.borrow().clone()) {
            Some(object) => JsOutboxStorage::Object(object),
            None => JsOutboxStorage::Memory(MEMORY.with(Clone::clone)),
        })),
        Some(v) if v.as_bool() == Some(false) => Ok(None),
        Some(v) => {
            check_shape(&v)?;
            Ok(Some(JsOutboxStorage::Object(v)))
        }
    }
}

fn check_shape(v: &JsValue) -> Result<(), Error> {
    let ok = ["get", "put", "delete"]
        .iter()
        .all(|m| field(v, m).is_some_and(|f| f.is_function()));
    if ok {
        Ok(())
    } else {
        Err(Error::invalid_input(
            "outbox must be false or an object with get(key), put(key, value) and delete(key) \
             methods (Workers KV, Durable Object storage, or your own)",
        ))
    }
}

impl JsOutboxStorage {
    /// Calls `object[method](key, value?)` and awaits what it returns.
    async fn call(
        object: &JsValue,
        method: &str,
        key: &str,
        value: Option<&str>,
    ) -> Result<JsValue, Error> {
        let failed = |why: String| {
            Error::new(
                ErrorCode::OutboxStorage,
                format!("outbox storage {method}() failed: {why}"),
            )
        };
        let f: Function = field(object, method)
            .and_then(|f| f.dyn_into().ok())
            .ok_or_else(|| failed("not a function".into()))?;
        let key = JsValue::from_str(key);
        let returned = match value {
            Some(value) => f.call2(object, &key, &JsValue::from_str(value)),
            None => f.call1(object, &key),
        }
        .map_err(|e| failed(describe(&e)))?;
        JsFuture::from(Promise::resolve(&returned))
            .await
            .map_err(|e| failed(describe(&e)))
    }
}

fn describe(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "it threw".into())
}

impl OutboxStorage for JsOutboxStorage {
    async fn get(&self, key: &str) -> Result<Option<String>, Error> {
        let object = match self {
            JsOutboxStorage::Memory(m) => return Ok(m.get_now(key)),
            JsOutboxStorage::Object(object) => object,
        };
        let v = Self::call(object, "get", key, None).await?;
        if v.is_undefined() || v.is_null() {
            return Ok(None);
        }
        v.as_string().map(Some).ok_or_else(|| {
            Error::new(
                ErrorCode::OutboxStorage,
                "outbox storage get() must return the string it was given",
            )
        })
    }

    async fn put(&self, key: &str, value: &str) -> Result<(), Error> {
        match self {
            JsOutboxStorage::Memory(m) => m.put_now(key, value),
            JsOutboxStorage::Object(object) => {
                Self::call(object, "put", key, Some(value)).await?;
            }
        }
        Ok(())
    }

    async fn delete(&self, key: &str) -> Result<(), Error> {
        match self {
            JsOutboxStorage::Memory(m) => m.delete_now(key),
            JsOutboxStorage::Object(object) => {
                Self::call(object, "delete", key, None).await?;
            }
        }
        Ok(())
    }
}
