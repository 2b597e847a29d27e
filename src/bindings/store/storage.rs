//! The storage of an opened `EmbeddedStore`: a JS object with `list()` (every `[key, record]`
//! pair), `put(key, record)` and `delete(key)`, or `apply(changes)` for a whole batch, returning
//! values or promises. The records are read from it once, on open; after that each write call's
//! changes are written to it, one batch at a time in call order. A batch that fails stays
//! pending, ahead of anything newer, and is written again with the next write call or `flush()`.

use std::cell::RefCell;

use js_sys::{Array, Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::bindings::errors::to_js;
use crate::bindings::js_values::{field, json_value};
use crate::protocol::error::{Error, ErrorCode};
use crate::store::{merge_changes, Change, EmbeddedStore, STATE_KEY};
use crate::transport::js_json::{error_text, to_js as json_to_js};
use serde_json::Value;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(value: &JsValue);
}

pub(super) struct Storage {
    object: JsValue,
    on_error: Option<Function>,
    /// Changes taken from the store and not yet written, oldest first, one per key.
    pending: RefCell<Vec<Change>>,
    /// Settles when the batch before is written (or has failed): batches go one at a time.
    tail: RefCell<Promise>,
}

/// A `NeotomaError` with code `STORE_STORAGE`, the storage's own error (if any) as its `cause`.
fn storage_error(message: String, cause: &JsValue) -> JsValue {
    let error = to_js(Error::new(ErrorCode::StoreStorage, message));
    if !cause.is_undefined() {
        let _ = js_sys::Reflect::set(&error, &JsValue::from_str("cause"), cause);
    }
    error
}

impl Storage {
    pub fn new(object: JsValue, on_error: Option<Function>) -> Result<Storage, Error> {
        let ok = ["list", "put", "delete"]
            .iter()
            .all(|m| field(&object, m).is_some_and(|f| f.is_function()));
        if !ok {
            return Err(Error::invalid_input(
                "storage must be an object with list(), put(key, record) and delete(key) methods \
                 (indexedDbStoreStorage(), memoryStoreStorage(), or your own)",
            ));
        }
        Ok(Storage {
            object,
            on_error,
            pending: RefCell::new(Vec::new()),
            tail: RefCell::new(Promise::resolve(&JsValue::UNDEFINED)),
        })
    }

    /// `object[method](a?, b?)`, awaited; a throw or a rejection is a `STORE_STORAGE` error.
    async fn call(&self, method: &str, a: &JsValue, b: &JsValue) -> Result<JsValue, JsValue> {
        let failed = |cause: JsValue| {
            let what = format!("the store's storage failed: {method}() threw");
            storage_error(format!("{what} {}", error_text(&cause)), &cause)
        };
        let f: Function = field(&self.object, method)
            .and_then(|f| f.dyn_into().ok())
            .ok_or_else(|| failed(JsValue::from_str("(not a function)")))?;
        let returned = f.call2(&self.object, a, b).map_err(failed)?;
        JsFuture::from(Promise::resolve(&returned))
            .await
            .map_err(failed)
    }

    /// Every record the storage holds, with its key, from `list()`.
    pub async fn load(&self) -> Result<Vec<(String, Value)>, JsValue> {
        let none = JsValue::UNDEFINED;
        let listed = self.call("list", &none, &none).await?;
        let pairs = listed.dyn_into::<Array>().map_err(|listed| {
            let why =
                "the store's storage failed: list() must return an array of [key, record] pairs";
            storage_error(why.into(), &listed)
        })?;
        let mut records = Vec::with_capacity(pairs.length() as usize);
        for pair in pairs.iter() {
            let (key, record) = (
                js_sys::Reflect::get_u32(&pair, 0).unwrap_or_default(),
                js_sys::Reflect::get_u32(&pair, 1).unwrap_or_default(),
            );
            let key = key.as_string().unwrap_or_default();
            let record =
                json_value(&record, &format!("the stored record {key:?}")).map_err(to_js)?;
            records.push((key, record));
        }
        Ok(records)
    }

    /// Queues `changes` to be written.
    pub fn queue(&self, changes: Vec<Change>) {
        merge_changes(&mut self.pending.borrow_mut(), changes);
    }

    /// Queues what the store changed since it was last asked; whether a record worth a write
    /// is pending. The state record alone is not: every call moves the store's clock, reads
    /// too, and that goes with the next write (or `flush()`).
    pub fn take(&self, store: &RefCell<EmbeddedStore>) -> bool {
        self.queue(store.borrow_mut().take_changes());
        self.pending
            .borrow()
            .iter()
            .any(|(key, _)| key != STATE_KEY)
    }

    /// Writes everything pending, after the batches before. A failure is given to `onError`
    /// (without one, logged when `background`: no caller waits for it) and returned.
    pub async fn flush(&self, background: bool) -> Result<(), JsValue> {
        let mut release = None;
        let turn = Promise::new(&mut |resolve, _| release = Some(resolve));
        let before = self.tail.replace(turn);
        let _ = JsFuture::from(before).await;
        let batch = std::mem::take(&mut *self.pending.borrow_mut());
        let result = self.write(&batch).await;
        if let Some(release) = release {
            let _ = release.call0(&JsValue::UNDEFINED);
        }
        if let Err(error) = &result {
            // Back ahead of what was queued meanwhile (newer values of a record win); a record
            // written before the failure is written again, which changes nothing.
            let newer = self.pending.replace(batch);
            self.queue(newer);
            match &self.on_error {
                // What it throws is its own business: the failure is reported either way.
                Some(on_error) => drop(on_error.call1(&JsValue::UNDEFINED, error)),
                None if background => console_error(error),
                None => {}
            }
        }
        result
    }

    /// Writes a batch in order: in one `apply` call when the storage has one, else a `put` or
    /// `delete` per record.
    async fn write(&self, batch: &[Change]) -> Result<(), JsValue> {
        let record = |value: &Option<Value>| value.as_ref().map_or(JsValue::UNDEFINED, json_to_js);
        if batch.is_empty() {
            return Ok(());
        }
        if field(&self.object, "apply").is_some() {
            let changes: Array = batch
                .iter()
                .map(|(key, value)| Array::of2(&JsValue::from_str(key), &record(value)))
                .collect();
            self.call("apply", &changes, &JsValue::UNDEFINED).await?;
            return Ok(());
        }
        for (key, value) in batch {
            let method = if value.is_some() { "put" } else { "delete" };
            self.call(method, &JsValue::from_str(key), &record(value))
                .await?;
        }
        Ok(())
    }
}
