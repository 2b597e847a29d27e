//! Transports: how the turn protocol reaches a Neotoma store. Each answers with the real
//! server's response bodies and fails with a protocol [`Error`] carrying a stable code.
//!
//! - [`embedded`]: the in-process store (the default; plain Rust).
//! - `http`: `fetch` to a real Neotoma (wasm32 only).
//! - `js_object`: any JS object with `store`, `retrieveEntityByIdentifier` and
//!   `createRelationships` methods (wasm32 only).

use crate::protocol::error::Error;
use serde_json::Value;

pub mod embedded;
#[cfg(target_arch = "wasm32")]
pub mod http;
#[cfg(target_arch = "wasm32")]
pub mod js_json;
#[cfg(target_arch = "wasm32")]
pub mod js_object;

/// The calls the agent makes, by name: the turn protocol's three, and the read-back of a turn's
/// edges (`verifyTurn`, `repairTurn`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    Store,
    RetrieveEntityByIdentifier,
    CreateRelationships,
    RetrieveRelatedEntities,
}

impl Call {
    /// The calls every transport must make (a turn needs them).
    pub const TURN: [Call; 3] = [
        Call::Store,
        Call::RetrieveEntityByIdentifier,
        Call::CreateRelationships,
    ];

    /// The REST path (`POST`).
    pub fn path(self) -> &'static str {
        match self {
            Call::Store => "/store",
            Call::RetrieveEntityByIdentifier => "/retrieve_entity_by_identifier",
            Call::CreateRelationships => "/create_relationships",
            Call::RetrieveRelatedEntities => "/retrieve_related_entities",
        }
    }

    /// The method of a JS transport object (and of `EmbeddedStore`) that makes the call.
    pub fn method(self) -> &'static str {
        match self {
            Call::Store => "store",
            Call::RetrieveEntityByIdentifier => "retrieveEntityByIdentifier",
            Call::CreateRelationships => "createRelationships",
            Call::RetrieveRelatedEntities => "retrieveRelatedEntities",
        }
    }
}

/// How the turn protocol reaches a store: one method for every call, so the protocol's
/// state machine holds one transport future. Futures are not `Send`: everything runs on one JS
/// thread (a page, a worker, an isolate), so `async fn` in the trait is what we want.
#[allow(async_fn_in_trait)]
pub trait Transport {
    /// `POST {call.path()}` with `body`: the server's answer body.
    async fn call(&self, call: Call, body: &Value) -> Result<Value, Error>;
}
