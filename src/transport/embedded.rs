//! The embedded store as a transport: the default, so a turn runs with no server at all.

use std::cell::RefCell;
use std::rc::Rc;

use super::{Call, Transport};
use crate::protocol::error::Error;
use crate::store::EmbeddedStore;
use serde_json::Value;

/// Shares one [`EmbeddedStore`]; `clock` gives Unix milliseconds for its timestamps.
#[derive(Clone)]
pub struct EmbeddedTransport {
    store: Rc<RefCell<EmbeddedStore>>,
    clock: Rc<dyn Fn() -> f64>,
}

impl EmbeddedTransport {
    pub fn new(store: Rc<RefCell<EmbeddedStore>>, clock: Rc<dyn Fn() -> f64>) -> Self {
        EmbeddedTransport { store, clock }
    }
}

impl Transport for EmbeddedTransport {
    async fn call(&self, call: Call, body: &Value) -> Result<Value, Error> {
        let now = (self.clock)();
        let mut store = self.store.borrow_mut();
        match call {
            Call::Store => store.store(body, now),
            Call::RetrieveEntityByIdentifier => store.retrieve_entity_by_identifier(body),
            Call::CreateRelationships => store.create_relationships(body, now),
            Call::RetrieveRelatedEntities => store.retrieve_related_entities(body),
        }
        .map_err(|r| Error::from_embedded(call.path(), r.status, r.body))
    }
}
