//! The embedded store as a transport: the default, so a turn runs with no server at all.

use std::cell::RefCell;
use std::rc::Rc;

use super::Transport;
use crate::protocol::error::Error;
use crate::store::{EmbeddedStore, Response};
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

fn refused(path: &str) -> impl Fn(Response) -> Error + '_ {
    move |r| Error::from_embedded(path, r.status, r.body)
}

impl Transport for EmbeddedTransport {
    async fn store(&self, body: &Value) -> Result<Value, Error> {
        let now = (self.clock)();
        self.store
            .borrow_mut()
            .store(body, now)
            .map_err(refused("/store"))
    }

    async fn retrieve_entity_by_identifier(&self, body: &Value) -> Result<Value, Error> {
        self.store
            .borrow()
            .retrieve_entity_by_identifier(body)
            .map_err(refused("/retrieve_entity_by_identifier"))
    }

    async fn create_relationships(&self, body: &Value) -> Result<Value, Error> {
        let now = (self.clock)();
        self.store
            .borrow_mut()
            .create_relationships(body, now)
            .map_err(refused("/create_relationships"))
    }
}
