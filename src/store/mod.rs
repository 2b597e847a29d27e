//! The embedded Neotoma-compatible store.
//!
//! An in-memory store that answers the REST calls the turn protocol makes with the same shapes
//! and semantics as the real Neotoma server (0.22.0, as recorded in the shared transcripts); only
//! the ids differ. Plain Rust: no JS, no clock, no randomness, never panics on any input.
//!
//! - [`EmbeddedStore::handle`] answers one REST call (`method`, `path`, parsed JSON body);
//!   [`EmbeddedStore::handle_raw`] also takes the raw body text and answers invalid JSON and
//!   oversized bodies the way express does.
//! - The typed entry points ([`EmbeddedStore::store`], [`EmbeddedStore::retrieve_entity_by_identifier`],
//!   …) return the 2xx body or the non-2xx [`Response`].
//!
//! Layout: `entities` (`/store`, observations, snapshots, idempotency), `relationships`
//! (`/create_relationship(s)`, `/retrieve_related_entities`), `retrieve`
//! (`/retrieve_entity_by_identifier`) and `search` (its index), `turn_index`
//! (`GET /conversations/{id}/turn-index`), `schema` (entity types and identity resolution),
//! `errors` (error bodies and HTML pages), `ids` and `time` (deterministic ids, ISO
//! timestamps), `persist` (the store as versioned records: [`EmbeddedStore::export`],
//! [`EmbeddedStore::import`], and for a storage [`EmbeddedStore::from_records`] and
//! [`EmbeddedStore::take_changes`]).
//!
//! Deliberate differences from the real server: no authentication (a transport concern), no
//! rate limit (`429`), no CORS, no file/`file_content` ingestion (`501 NOT_IMPLEMENTED`), no
//! semantic search (`match_mode` is never `"semantic"`), a fixed small schema table (see
//! `schema`), and fixed orderings where the real server's order follows its random ids
//! (`retrieve_related_entities`: relationships by key, entities by last update). Each module
//! documents its rules.

mod entities;
mod errors;
mod ids;
mod persist;
mod relationships;
mod retrieve;
mod schema;
mod search;
mod time;
mod turn_index;

use fnv::FnvHashMap;

use entities::{Entity, IdempotencyRecord, Observation};
use ids::IdGen;
use persist::ChangeLog;
pub use persist::{
    merge_changes, Change, FormatError, FORMAT, FORMAT_VERSION, META_KEY, STATE_KEY,
};
use relationships::Relationship;
use search::SearchIndex;
use serde_json::json;
use serde_json::{Map, Value};

/// The Neotoma API version the store answers as (`GET /health`).
pub const COMPATIBLE_SERVER_VERSION: &str = "0.22.0";

/// Bodies over this many bytes are refused with `413` (express's `10mb` JSON limit).
pub const MAX_BODY_BYTES: usize = 10 * 1024 * 1024;

/// The single local user every row belongs to.
pub(crate) const USER_ID: &str = "00000000-0000-0000-0000-000000000000";

/// One answer. A `Value::String` body is a non-JSON (HTML or text) answer, like the real
/// server's 404 and invalid-JSON pages.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    pub status: u16,
    pub body: Value,
}

impl Response {
    /// A `200` JSON answer.
    pub fn ok(body: Value) -> Self {
        Response { status: 200, body }
    }

    /// `2xx`.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// Whether the body is JSON (not an HTML/text page).
    pub fn is_json(&self) -> bool {
        !self.body.is_string()
    }
}

fn into_response(result: Result<Value, Response>) -> Response {
    match result {
        Ok(body) => Response::ok(body),
        Err(response) => response,
    }
}

/// The in-memory store. `Clone` gives an independent copy.
#[derive(Debug, Clone, Default)]
pub struct EmbeddedStore {
    /// Entities in creation order (index = creation sequence).
    pub(crate) entities: Vec<Entity>,
    /// Entity id -> index.
    pub(crate) entity_index: Index,
    /// `identity_slot(entity_type, resolution key)` -> index.
    pub(crate) identity_index: Index,
    /// Observations in write order.
    pub(crate) observations: Vec<Observation>,
    /// Relationships in creation order.
    pub(crate) relationships: Vec<Relationship>,
    /// `relationship_key` -> index.
    pub(crate) relationship_index: Index,
    /// Entity id -> the list (in `lists`) of relationships it is the source of.
    pub(crate) outbound: Index,
    /// Entity id -> the list (in `lists`) of relationships it is the target of.
    pub(crate) inbound: Index,
    /// Conversation entity id -> the list (in `lists`) of the `conversation_message` entities
    /// `PART_OF` it (in edge creation order), maintained as edges are created.
    pub(crate) conversation_members: Index,
    /// The index lists `outbound`, `inbound` and `conversation_members` point to.
    pub(crate) lists: Vec<Vec<usize>>,
    /// `idempotency_key` -> the write it committed (index in `idempotency_records`).
    pub(crate) idempotency: Index,
    pub(crate) idempotency_records: Vec<IdempotencyRecord>,
    pub(crate) ids: IdGen,
    /// The latest `now_ms` seen (timestamps of errors raised by read calls).
    pub(crate) clock_ms: f64,
    /// What changed since the last `take_changes` (for a storage).
    pub(crate) changes: ChangeLog,
    /// What `/retrieve_entity_by_identifier` finds entities by.
    pub(crate) search: SearchIndex,
}

/// Key -> index into one of the store's vectors.
pub(crate) type Index = FnvHashMap<String, usize>;

/// The list `map` points to for `key` (empty when none).
pub(crate) fn list_of<'a>(map: &Index, lists: &'a [Vec<usize>], key: &str) -> &'a [usize] {
    map.get(key)
        .and_then(|i| lists.get(*i))
        .map_or(&[], Vec::as_slice)
}

/// Appends `value` to the list `map` points to for `key`, creating it.
pub(crate) fn push_to_list(map: &mut Index, lists: &mut Vec<Vec<usize>>, key: &str, value: usize) {
    let slot = match map.get(key) {
        Some(slot) => *slot,
        None => {
            map.insert(key.to_string(), lists.len());
            lists.push(Vec::new());
            lists.len() - 1
        }
    };
    if let Some(list) = lists.get_mut(slot) {
        list.push(value);
    }
}

/// The `identity_index` key of a resolution key within an entity type.
pub(crate) fn identity_slot(entity_type: &str, key: &str) -> String {
    format!("{entity_type}\u{0}{key}")
}

impl EmbeddedStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of entities (for tests).
    pub fn entity_count(&self) -> usize {
        self.entities.len()
    }

    /// One REST call as the real server answers it. `body` is the parsed JSON body (`None` for
    /// GET or no body). `now_ms` is Unix ms.
    ///
    /// Routes: `POST /store`, `POST /retrieve_entity_by_identifier`, `POST /create_relationships`,
    /// `POST /create_relationship`, `POST /retrieve_related_entities`, `POST /get_entity_snapshot`,
    /// `GET /conversations/{id}/turn-index`, `GET /health`; anything else is express's `404` page.
    /// Like express, routing ignores the query string, a trailing slash and letter case.
    pub fn handle(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        now_ms: f64,
    ) -> Response {
        self.clock_ms = time::sanitize_ms(now_ms);
        let now = self.clock_ms;
        let method = method.to_ascii_uppercase();
        let pathname = pathname(path);
        let route = route_key(pathname);
        let empty = Value::Object(Map::new());
        let body = body.unwrap_or(&empty);
        match (method.as_str(), route.as_str()) {
            ("POST", "/store") => into_response(self.store(body, now)),
            ("POST", "/retrieve_entity_by_identifier") => {
                into_response(self.retrieve_entity_by_identifier(body))
            }
            ("POST", "/create_relationships") => {
                into_response(self.create_relationships(body, now))
            }
            ("POST", "/create_relationship") => into_response(self.create_relationship(body, now)),
            ("POST", "/retrieve_related_entities") => {
                into_response(self.retrieve_related_entities(body))
            }
            ("POST", "/get_entity_snapshot") => into_response(self.get_entity_snapshot(body)),
            ("GET", "/health") => Response::ok(json!({
                "ok": true,
                "version": COMPATIBLE_SERVER_VERSION,
            })),
            ("GET", _) => match turn_index_param(pathname) {
                Some(conversation) => into_response(self.turn_index(&conversation)),
                None => errors::unknown_route(&method, pathname),
            },
            _ => errors::unknown_route(&method, pathname),
        }
    }

    /// [`handle`](Self::handle) for a raw body text, answering what express answers before
    /// routing: a body over [`MAX_BODY_BYTES`] is `413`, a body that is not a JSON object or array
    /// is `400`, both with an HTML page. An empty or blank body is no body. GET bodies are ignored.
    pub fn handle_raw(
        &mut self,
        method: &str,
        path: &str,
        raw_body: Option<&str>,
        now_ms: f64,
    ) -> Response {
        self.clock_ms = time::sanitize_ms(now_ms);
        let raw = match raw_body {
            Some(text) if !method.eq_ignore_ascii_case("GET") && !text.trim().is_empty() => text,
            _ => return self.handle(method, path, None, now_ms),
        };
        if raw.len() > MAX_BODY_BYTES {
            return errors::payload_too_large();
        }
        // body-parser's strict mode: only an object or an array is JSON here.
        if !raw.trim_start().starts_with(['{', '[']) {
            let token: String = raw.trim_start().chars().take(1).collect();
            return errors::invalid_json(&format!(
                "Unexpected token '{token}' in JSON at position 0"
            ));
        }
        match serde_json::from_str(raw) {
            Ok(value) => self.handle(method, path, Some(&value), now_ms),
            Err(e) => errors::invalid_json(&e.to_string()),
        }
    }
}

/// The path without query string or fragment.
fn pathname(path: &str) -> &str {
    let end = path
        .bytes()
        .position(|b| b == b'?' || b == b'#')
        .unwrap_or(path.len());
    path.get(..end).unwrap_or(path)
}

/// The routing form of a path: lowercase, one trailing slash dropped.
fn route_key(pathname: &str) -> String {
    let trimmed = if pathname.len() > 1 {
        pathname.strip_suffix('/').unwrap_or(pathname)
    } else {
        pathname
    };
    trimmed.to_ascii_lowercase()
}

/// `{id}` of `/conversations/{id}/turn-index`, percent-decoded.
fn turn_index_param(pathname: &str) -> Option<String> {
    const HEAD: &str = "/conversations/";
    const TAIL: &str = "/turn-index";
    let trimmed = if pathname.len() > 1 {
        pathname.strip_suffix('/').unwrap_or(pathname)
    } else {
        pathname
    };
    let rest = trimmed
        .get(..HEAD.len())
        .filter(|head| head.eq_ignore_ascii_case(HEAD))
        .and_then(|_| trimmed.get(HEAD.len()..))?;
    let split = rest.len().checked_sub(TAIL.len())?;
    let id = rest
        .get(split..)
        .filter(|tail| tail.eq_ignore_ascii_case(TAIL))
        .and_then(|_| rest.get(..split))?;
    if id.is_empty() || id.bytes().any(|b| b == b'/') {
        return None;
    }
    Some(percent_decode(id))
}

/// `%XX` escapes decoded (a `%` not followed by two hex digits is kept as it is); invalid UTF-8
/// in the result becomes U+FFFD.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let escaped = (b == b'%')
            .then(|| text.get(i + 1..i + 3))
            .flatten()
            .filter(|hex| hex.bytes().all(|h| h.is_ascii_hexdigit()))
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(decoded) => {
                out.push(decoded);
                i += 3;
            }
            None => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routing_helpers() {
        assert_eq!(pathname("/store?x=1"), "/store");
        assert_eq!(route_key("/Store/"), "/store");
        assert_eq!(route_key("/"), "/");
        assert_eq!(
            turn_index_param("/conversations/c%3A1/turn-index").as_deref(),
            Some("c:1")
        );
        assert_eq!(
            turn_index_param("/CONVERSATIONS/x/Turn-Index/").as_deref(),
            Some("x")
        );
        assert_eq!(turn_index_param("/conversations//turn-index"), None);
        assert_eq!(turn_index_param("/conversations/turn-index"), None);
        assert_eq!(turn_index_param("/conversations/x/turn-index//"), None);
        assert_eq!(
            turn_index_param("/conversations/中/turn-index").as_deref(),
            Some("中")
        );
        assert_eq!(turn_index_param("/conversations/a/b/turn-index"), None);
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
        assert_eq!(percent_decode("%E4%B8%AD"), "中");
        assert_eq!(percent_decode("%e4%b8%ad%"), "中%");
        assert_eq!(percent_decode("a%FFb%+1"), "a\u{FFFD}b%+1");
    }

    #[test]
    fn health_and_unknown_routes() {
        let mut s = EmbeddedStore::new();
        let r = s.handle("GET", "/health", None, 1.0);
        assert_eq!(r.status, 200);
        assert_eq!(r.body["ok"], true);
        assert_eq!(r.body["version"], COMPATIBLE_SERVER_VERSION);
        let r = s.handle("POST", "/no_such_endpoint", Some(&json!({})), 1.0);
        assert_eq!(r.status, 404);
        assert!(!r.is_json());
        let r = s.handle("GET", "/store", None, 1.0);
        assert_eq!(r.status, 404);
        assert!(r.body.as_str().unwrap_or("").contains("Cannot GET /store"));
        let r = s.handle("DELETE", "/conversations/c1/turn-index", None, 1.0);
        assert_eq!(r.status, 404);
    }

    #[test]
    fn raw_bodies() {
        let mut s = EmbeddedStore::new();
        let r = s.handle_raw("POST", "/store", Some("{\"entities\": [ "), 1.0);
        assert_eq!(r.status, 400);
        assert!(r.body.as_str().unwrap_or("").contains("SyntaxError"));
        let r = s.handle_raw("POST", "/store", Some("   "), 1.0);
        assert_eq!(r.status, 400);
        assert_eq!(r.body["error_code"], "VALIDATION_INVALID_FORMAT");
        let r = s.handle_raw("POST", "/store", Some(" 1"), 1.0);
        assert_eq!(r.status, 400);
        assert!(!r.is_json());
        let r = s.handle_raw("GET", "/health", Some("not json"), 1.0);
        assert_eq!(r.status, 200);
        let big = format!("{{\"a\":\"{}\"}}", "y".repeat(MAX_BODY_BYTES));
        let r = s.handle_raw("POST", "/store", Some(&big), 1.0);
        assert_eq!(r.status, 413);
    }
}
