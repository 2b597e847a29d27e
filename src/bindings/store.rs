//! `EmbeddedStore` for JS: the in-process Neotoma-compatible store. It answers REST calls
//! (`handle`), and it is a transport object (`store`, `retrieveEntityByIdentifier`,
//! `createRelationships`), so several agents can share one. `export()`/`EmbeddedStore.import()`
//! carry its whole memory as one JSON document; `EmbeddedStore.open(storage)` loads it from a
//! storage and writes each write call's changes back (`storage`).

mod storage;

use std::cell::RefCell;
use std::rc::Rc;

use fnv::FnvHashSet;
use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::prelude::*;

use super::errors::to_js;
use super::js_values::{field, json_value, options_object, string_arg};
use crate::platform::{now_ms, spawn_promise};
use crate::protocol::error::Error;
use crate::store::{EmbeddedStore, FormatError, Response};
use crate::transport::js_json::to_js as json_to_js;
use serde_json::Value;
use storage::Storage;

#[wasm_bindgen(typescript_custom_section)]
const TS_STORE_TYPES: &'static str = r#"
/** One record of the embedded store's format: the `meta` record, or a record whose `kind` is
 *  `state`, `entity`, `observation`, `relationship` or `idempotency` (README, Persistence). */
export type StoreRecord =
  | { format: "neotoma-embedded-store"; version: number }
  | { kind: "state" | "entity" | "observation" | "relationship" | "idempotency"; [field: string]: unknown };

/** The whole memory of an `EmbeddedStore` (`export()`): plain JSON. */
export interface EmbeddedStoreDocument {
  format: "neotoma-embedded-store";
  /** The format version; a release reads its own and every earlier one. */
  version: number;
  records: StoreRecord[];
}

/** Where an opened `EmbeddedStore` keeps its records, one JSON record per key
 *  (`indexedDbStoreStorage()`, `memoryStoreStorage()`, or your own). Methods may return values
 *  or promises. The store reads every record with `list()` when opened, then writes each write
 *  call's changes with `apply`, or else `put`/`delete` one by one. */
export interface StoreStorage {
  /** Every record, as `[key, record]` pairs. */
  list(): Promise<Array<[string, StoreRecord]>> | Array<[string, StoreRecord]>;
  put(key: string, record: StoreRecord): Promise<unknown> | unknown;
  delete(key: string): Promise<unknown> | unknown;
  /** Not used by the store; for your own tools. */
  get?(key: string): Promise<StoreRecord | undefined> | StoreRecord | undefined;
  /** A write call's changes at once, in order (`undefined`: delete the key). */
  apply?(changes: Array<[string, StoreRecord | undefined]>): Promise<unknown> | unknown;
}

export interface OpenStoreOptions {
  /** Called with every failed storage write (a `NeotomaError`, code `STORE_STORAGE`); the
   *  write calls waiting for it reject with the same error. Without it, a failure no call
   *  waits for (a write through `handle`) is logged with `console.error`. */
  onError?: (error: NeotomaError) => void;
  /** Start from this `export()` document: the storage's records are replaced by its own. */
  import?: EmbeddedStoreDocument;
}
"#;

#[wasm_bindgen(js_name = EmbeddedStore)]
pub struct EmbeddedStoreJs {
    inner: Rc<RefCell<EmbeddedStore>>,
    /// Where its records go: a store from `EmbeddedStore.open`.
    storage: Option<Rc<Storage>>,
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

/// The body of a 2xx answer, or a `NeotomaError`.
fn answer(path: &str, result: Result<Value, Response>) -> Result<JsValue, JsValue> {
    result
        .map(|body| json_to_js(&body))
        .map_err(|r| to_js(Error::from_embedded(path, r.status, r.body)))
}

fn settled(result: Result<JsValue, JsValue>) -> Promise {
    match result {
        Ok(value) => Promise::resolve(&value),
        Err(error) => Promise::reject(&error),
    }
}

/// Records that cannot be read are bad input: nothing was written.
fn format_error(e: FormatError) -> Error {
    Error::invalid_input(e.to_string())
}

/// `EmbeddedStore.open`'s storage and options: `onError`, and the store `import` starts from.
fn open_options(
    storage: JsValue,
    options: &JsValue,
) -> Result<(Storage, Option<EmbeddedStore>), Error> {
    options_object(options, "options", &["onError", "import"])?;
    let on_error = match field(options, "onError") {
        Some(f) => Some(
            f.dyn_into::<Function>()
                .map_err(|_| Error::invalid_input("options.onError must be a function"))?,
        ),
        None => None,
    };
    let imported = match field(options, "import") {
        Some(document) => {
            let document = json_value(&document, "options.import")?;
            Some(EmbeddedStore::import(&document).map_err(format_error)?)
        }
        None => None,
    };
    Ok((Storage::new(storage, on_error)?, imported))
}

#[wasm_bindgen(js_class = EmbeddedStore)]
impl EmbeddedStoreJs {
    #[wasm_bindgen(constructor)]
    pub fn new() -> EmbeddedStoreJs {
        EmbeddedStoreJs::from_store(EmbeddedStore::new(), None)
    }

    /// A new store from an `export()` document (not stored anywhere: see `open` for that).
    /// Another format or a newer version is refused (`INVALID_INPUT`).
    #[wasm_bindgen(js_name = import)]
    pub fn import(
        #[wasm_bindgen(unchecked_param_type = "EmbeddedStoreDocument")] document: JsValue,
    ) -> Result<EmbeddedStoreJs, JsValue> {
        let document = json_value(&document, "document").map_err(to_js)?;
        let store = EmbeddedStore::import(&document).map_err(|e| to_js(format_error(e)))?;
        Ok(EmbeddedStoreJs::from_store(store, None))
    }

    /// A store loaded from `storage`, which then gets each write call's changes: `store` and
    /// `createRelationships` settle once their changes are stored. An empty storage is a new
    /// store; records of another format or a newer version are refused (`INVALID_INPUT`).
    #[wasm_bindgen(unchecked_return_type = "Promise<EmbeddedStore>")]
    pub fn open(
        #[wasm_bindgen(unchecked_param_type = "StoreStorage")] storage: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "OpenStoreOptions")] options: JsValue,
    ) -> Promise {
        // Through `spawn_promise`: one copy of the future-to-promise machinery.
        spawn_promise(async move {
            let (storage, imported) = open_options(storage, &options).map_err(to_js)?;
            let records = storage.load().await?;
            let store = match imported {
                None => EmbeddedStore::from_records(records.iter().map(|(_, record)| record))
                    .map_err(|e| to_js(format_error(e)))?,
                Some(mut store) => {
                    // The storage's records replaced by the document's: the keys it will not
                    // rewrite are deleted first.
                    let changes = store.take_changes();
                    let kept: FnvHashSet<&str> = changes.iter().map(|(k, _)| k.as_str()).collect();
                    let stale = records
                        .iter()
                        .filter(|(key, _)| !kept.contains(key.as_str()))
                        .map(|(key, _)| (key.clone(), None))
                        .collect();
                    storage.queue(stale);
                    storage.queue(changes);
                    storage.flush(false).await?;
                    store
                }
            };
            Ok(EmbeddedStoreJs::from_store(store, Some(storage)).into())
        })
    }

    /// The whole memory as one JSON document (`EmbeddedStore.import` reads it back).
    #[wasm_bindgen(unchecked_return_type = "EmbeddedStoreDocument")]
    pub fn export(&self) -> JsValue {
        json_to_js(&self.inner.borrow().export())
    }

    /// Resolves once every change so far is in the storage (at once for a store not opened on
    /// one); rejects with the storage's failure (`STORE_STORAGE`).
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn flush(&self) -> Promise {
        match self.storage.clone() {
            Some(storage) => {
                storage.take(&self.inner);
                spawn_promise(async move {
                    storage.flush(false).await?;
                    Ok(JsValue::UNDEFINED)
                })
            }
            None => Promise::resolve(&JsValue::UNDEFINED),
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
        self.store_in_background();
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
        self.store_in_background();
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
    fn from_store(store: EmbeddedStore, storage: Option<Storage>) -> EmbeddedStoreJs {
        EmbeddedStoreJs {
            inner: Rc::new(RefCell::new(store)),
            storage: storage.map(Rc::new),
        }
    }

    /// One typed call as a promise: its body checked, then [`answer`]. On an opened store, a call
    /// that wrote settles once its changes (and any still pending) are stored. Out of line:
    /// one copy for the transport methods.
    #[inline(never)]
    fn call(&self, path: &'static str, body: JsValue, call: Call) -> Promise {
        let result = match json_arg(body) {
            Ok(b) => answer(path, call(&mut self.inner.borrow_mut(), &b)),
            Err(e) => return Promise::reject(&e),
        };
        match self.storage.clone().filter(|s| s.take(&self.inner)) {
            Some(storage) => spawn_promise(async move {
                storage.flush(false).await?;
                result
            }),
            None => settled(result),
        }
    }

    /// After a `handle` call, which answers at once: its changes are stored in the background
    /// (a failure goes to `onError`, else `console.error`, and stays pending). A read changes
    /// nothing but the store's clock, which the next write stores.
    fn store_in_background(&self) {
        if let Some(storage) = self.storage.clone().filter(|s| s.take(&self.inner)) {
            wasm_bindgen_futures::spawn_local(async move {
                let _ = storage.flush(true).await;
            });
        }
    }

    /// Another JS handle on the same store (Rust-side; used by tests).
    pub fn clone_handle(&self) -> EmbeddedStoreJs {
        EmbeddedStoreJs {
            inner: self.inner.clone(),
            storage: self.storage.clone(),
        }
    }
}
