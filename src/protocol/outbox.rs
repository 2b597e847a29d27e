//! Writes that could not be sent yet, kept in the host's storage until they can.
//!
//! A pending write is the exact `/store` body and its idempotency key, so sending it later (or
//! twice) collapses onto the one observation the first attempt may already have made. The
//! bearer token is never part of it: it lives only in the transport.
//!
//! Storage is a key-value interface (`get`/`put`/`delete` of strings), the shape of Workers KV,
//! Durable Object storage, localStorage-like wrappers and a `Map`; one key per conversation
//! holds that conversation's queue, in order.

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::rc::Rc;

use serde::Serialize;
use serde_json::Value;

use super::error::{Error, ErrorCode};
use super::keys::revision_of;

/// One `/store` waiting to be sent. Stored and shown to JS as camelCase JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingWrite {
    pub idempotency_key: String,
    pub turn_id: String,
    /// `user` or `assistant`.
    pub role: String,
    pub turn_key: String,
    /// The REFERS_TO targets, to re-create if the store is answered as a replay.
    pub refers_to: Vec<String>,
    pub body: Value,
    /// When it was queued (ms since the epoch).
    pub queued_at_ms: u64,
}

/// Durable string storage, the shape of Workers KV and Durable Object storage. Errors are
/// reported as [`ErrorCode::OutboxStorage`].
#[allow(async_fn_in_trait)]
pub trait OutboxStorage {
    /// The string under `key`, if there is one.
    async fn get(&self, key: &str) -> Result<Option<String>, Error>;
    /// Stores `value` under `key`, replacing what was there.
    async fn put(&self, key: &str, value: &str) -> Result<(), Error>;
    /// Removes `key` (nothing happens if it is not there).
    async fn delete(&self, key: &str) -> Result<(), Error>;
}

/// In-process storage: survives a new agent in the same process (or isolate), not a restart.
/// One entry per conversation with waiting writes, which a flush removes.
#[derive(Clone, Default)]
pub struct MemoryStorage(Rc<RefCell<HashMap<String, String>>>);

impl MemoryStorage {
    pub fn get_now(&self, key: &str) -> Option<String> {
        self.0.borrow().get(key).cloned()
    }

    pub fn put_now(&self, key: &str, value: &str) {
        self.0.borrow_mut().insert(key.to_owned(), value.to_owned());
    }

    pub fn delete_now(&self, key: &str) {
        self.0.borrow_mut().remove(key);
    }

    pub fn is_empty(&self) -> bool {
        self.0.borrow().is_empty()
    }
}

impl OutboxStorage for MemoryStorage {
    async fn get(&self, key: &str) -> Result<Option<String>, Error> {
        Ok(self.get_now(key))
    }

    async fn put(&self, key: &str, value: &str) -> Result<(), Error> {
        self.put_now(key, value);
        Ok(())
    }

    async fn delete(&self, key: &str) -> Result<(), Error> {
        self.delete_now(key);
        Ok(())
    }
}

impl PendingWrite {
    /// The message text the write stores.
    pub fn content(&self) -> Option<&str> {
        self.body
            .get("entities")?
            .as_array()?
            .iter()
            .find(|e| e.get("entity_type").and_then(Value::as_str) == Some("conversation_message"))?
            .get("content")?
            .as_str()
    }

    /// Which revision of its message the write is: 1, or n for a `…-vn` key (a regeneration).
    pub fn revision(&self) -> u32 {
        revision_of(&self.idempotency_key)
    }

    /// A stored write, read from the [`Value`] it was parsed into. Not a
    /// `#[derive(Deserialize)]`: a typed deserialisation links serde's "invalid type: floating
    /// point `1.5`" message, and with it float formatting, +15 KB gzip (README, Dependencies).
    fn from_json(v: &Value) -> Option<PendingWrite> {
        let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        Some(PendingWrite {
            idempotency_key: text("idempotencyKey")?,
            turn_id: text("turnId")?,
            role: text("role")?,
            turn_key: text("turnKey")?,
            refers_to: v
                .get("refersTo")?
                .as_array()?
                .iter()
                .map(|target| target.as_str().map(str::to_owned))
                .collect::<Option<_>>()?,
            body: v.get("body").filter(|b| b.is_object())?.clone(),
            queued_at_ms: v.get("queuedAtMs").and_then(Value::as_u64).unwrap_or(0),
        })
    }
}

/// `{"v":1,"writes":[…]}`: the stored form of a queue.
#[derive(Serialize)]
struct StoredQueue<'a> {
    v: u32,
    writes: &'a [PendingWrite],
}

fn encode(writes: &[PendingWrite]) -> String {
    serde_json::to_string(&StoredQueue { v: 1, writes }).expect("a queue is always JSON")
}

/// The queue in `text`, or `None` if it is not a version-1 queue of writes with object bodies.
fn decode(text: &str) -> Option<Vec<PendingWrite>> {
    let stored: Value = serde_json::from_str(text).ok()?;
    if stored.get("v")?.as_u64()? != 1 {
        return None;
    }
    stored
        .get("writes")?
        .as_array()?
        .iter()
        .map(PendingWrite::from_json)
        .collect()
}

/// One conversation's queue on a storage. Every operation reads the stored queue afresh, so
/// two agents of the same conversation on one storage (a restarted one, say) see the same queue.
pub struct Outbox<S> {
    storage: S,
    key: String,
}

impl<S: OutboxStorage> Outbox<S> {
    pub fn new(storage: S, conversation_id: &str) -> Self {
        Outbox {
            storage,
            key: format!("neotoma-agent-wasm/outbox/v1/{conversation_id}"),
        }
    }

    pub fn storage_key(&self) -> &str {
        &self.key
    }

    pub async fn writes(&self) -> Result<Vec<PendingWrite>, Error> {
        match self.storage.get(&self.key).await? {
            None => Ok(Vec::new()),
            Some(text) => decode(&text).ok_or_else(|| {
                Error::new(
                    ErrorCode::OutboxStorage,
                    format!("the stored outbox at {} is unreadable", self.key),
                )
            }),
        }
    }

    /// Appends `write`. If a write with its key is already queued, that one stays (its body is
    /// what the key stands for) and gains `write`'s REFERS_TO targets, re-created when it is sent.
    /// Returns how many writes are queued now.
    pub fn push(&self, write: PendingWrite) -> impl Future<Output = Result<usize, Error>> + '_ {
        self.change(Change::Push(write))
    }

    /// Appends `write` unless a write with its key is already queued (an earlier attempt's, which
    /// stands), leaving the queue as it was then. Returns whether `write` was appended.
    pub async fn add_new(&self, write: PendingWrite) -> Result<bool, Error> {
        Ok(self.change(Change::AddNew(write)).await? > 0)
    }

    /// Drops the write with `idempotency_key` (sent, or refused for good). Returns how many
    /// writes are still queued.
    pub fn remove<'a>(
        &'a self,
        idempotency_key: &'a str,
    ) -> impl Future<Output = Result<usize, Error>> + 'a {
        self.change(Change::Remove(idempotency_key))
    }

    /// Reads the queue, changes it, stores it; returns its length. (One async fn for every
    /// change: each is a state machine of its own in the wasm.) An `AddNew` whose key is queued
    /// already stores nothing and returns 0 (a queue it was added to holds at least it).
    async fn change(&self, change: Change<'_>) -> Result<usize, Error> {
        let mut writes = self.writes().await?;
        match change {
            Change::AddNew(write) => {
                if writes
                    .iter()
                    .any(|w| w.idempotency_key == write.idempotency_key)
                {
                    return Ok(0);
                }
                writes.push(write);
            }
            Change::Push(write) => match writes
                .iter_mut()
                .find(|w| w.idempotency_key == write.idempotency_key)
            {
                Some(queued) => {
                    for target in write.refers_to {
                        if !queued.refers_to.contains(&target) {
                            queued.refers_to.push(target);
                        }
                    }
                }
                None => writes.push(write),
            },
            Change::Remove(key) => writes.retain(|w| w.idempotency_key != key),
        }
        if writes.is_empty() {
            self.storage.delete(&self.key).await?;
        } else {
            self.storage.put(&self.key, &encode(&writes)).await?;
        }
        Ok(writes.len())
    }
}

enum Change<'a> {
    Push(PendingWrite),
    AddNew(PendingWrite),
    Remove(&'a str),
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;
    use serde_json::json;

    fn write(key: &str) -> PendingWrite {
        PendingWrite {
            idempotency_key: key.into(),
            turn_id: "t1".into(),
            role: "user".into(),
            turn_key: "c:t1".into(),
            refers_to: vec!["ent_1".into()],
            body: json!({"idempotency_key": key}),
            queued_at_ms: 1,
        }
    }

    fn now<T>(f: impl std::future::Future<Output = T>) -> T {
        f.now_or_never().expect("memory storage never waits")
    }

    #[test]
    fn keeps_order_dedupes_by_key_and_is_shared_through_the_storage() {
        let storage = MemoryStorage::default();
        let a = Outbox::new(storage.clone(), "c1");
        now(a.push(write("k1"))).unwrap();
        now(a.push(write("k2"))).unwrap();
        now(a.push(write("k1"))).unwrap();
        // another agent of the same conversation on the same storage (a restart)
        let b = Outbox::new(storage.clone(), "c1");
        let keys: Vec<_> = now(b.writes())
            .unwrap()
            .into_iter()
            .map(|w| w.idempotency_key)
            .collect();
        assert_eq!(keys, ["k1", "k2"]);
        assert!(now(Outbox::new(storage.clone(), "c2").writes())
            .unwrap()
            .is_empty());
        now(b.remove("k1")).unwrap();
        now(b.remove("k2")).unwrap();
        assert!(storage.is_empty(), "an empty queue leaves no key");
    }

    #[test]
    fn add_new_keeps_a_queued_write_as_it_is() {
        let storage = MemoryStorage::default();
        let outbox = Outbox::new(storage.clone(), "c1");
        assert!(now(outbox.add_new(write("k1"))).unwrap());
        let mut other = write("k1");
        other.body = json!({"idempotency_key": "k1", "content": "another"});
        assert!(!now(outbox.add_new(other)).unwrap());
        assert!(now(outbox.add_new(write("k2"))).unwrap());
        assert_eq!(
            now(outbox.writes()).unwrap(),
            vec![write("k1"), write("k2")]
        );
    }

    #[test]
    fn a_write_round_trips_through_its_stored_form() {
        let w = write("k1");
        assert_eq!(decode(&encode(std::slice::from_ref(&w))), Some(vec![w]));
        assert_eq!(decode(r#"{"v":2,"writes":[]}"#), None);
        // What the previous release wrote (its own JSON, `queuedAtMs` as JS printed it) reads.
        let earlier = r#"{"v":1,"writes":[{"idempotencyKey":"k1","turnId":"t1","role":"user","turnKey":"c:t1","refersTo":["ent_1"],"body":{"idempotency_key":"k1"},"queuedAtMs":1764633600000}]}"#;
        let read = decode(earlier).unwrap();
        assert_eq!(read[0].queued_at_ms, 1_764_633_600_000);
        assert_eq!(read[0].refers_to, ["ent_1"]);
        assert_eq!(encode(&read), earlier, "and is written back the same");
        assert_eq!(decode(r#"{"v":1,"writes":[{"turnId":"t"}]}"#), None);
    }

    #[test]
    fn an_unreadable_queue_is_a_typed_error() {
        let storage = MemoryStorage::default();
        let outbox = Outbox::new(storage.clone(), "c1");
        storage.put_now(outbox.storage_key(), "{not json");
        let e = now(outbox.writes()).unwrap_err();
        assert_eq!(e.code, ErrorCode::OutboxStorage);
    }
}
