//! Scaling of the embedded store: the calls of a turn on a store holding 100, 10,000 and
//! 100,000 entities, native (release).
//!
//! `cargo run --release --example bench_store` prints a table; `-- --json` prints one JSON
//! object instead (for `make bench`); `-- --sizes 100,10000` picks the store sizes.
//!
//! The store is filled through `EmbeddedStore::handle` with the bodies the agent sends
//! (`protocol::payload`): persons, companies and projects (10%, 5%, 5%), the rest conversation
//! messages with turn keys, `PART_OF` their conversation and `REFERS_TO` a few of the entities;
//! one conversation of 10 messages, one of 1,000 (when the size allows), the others of 100.
//! Each figure is the median of repeated calls on the filled store.

use std::time::Instant;

use neotoma_agent_wasm::protocol::keys::{turn_key, Role};
use neotoma_agent_wasm::protocol::payload::{
    outbound_request, remember_request, retrieve_by_name_request, retrieve_request,
    store_message_request, stored_message_request, Conversation, Message,
};
use neotoma_agent_wasm::store::EmbeddedStore;
use serde_json::{json, Value};

/// Hits the agent asks for per lookup (`HITS_PER_LOOKUP` in `protocol/turn.rs`).
const HITS: u32 = 5;
const SMALL_CONVERSATION: &str = "chat-small";
const BIG_CONVERSATION: &str = "chat-big";

const FIRST: &[&str] = &[
    "Sarah", "Dana", "Miguel", "Aiko", "Priya", "Jonas", "Fatima", "Liam", "Chen", "Olga", "Kwame",
    "Isabel", "Tomás", "Noor", "Erik", "Mei", "Rafael", "Zoë", "Hiroshi", "Amara",
];
const LAST: &[&str] = &[
    "Chen",
    "Whitfield",
    "Garcia",
    "Tanaka",
    "Patel",
    "Becker",
    "Haddad",
    "O'Brien",
    "Novak",
    "Mensah",
    "Rossi",
    "Kowalski",
    "Lindqvist",
    "Nakamura",
    "Okafor",
    "Dubois",
    "Silva",
    "Jensen",
];
const WORDS: &[&str] = &[
    "Orbital",
    "Falcon",
    "Globex",
    "Initech",
    "Umbrella",
    "Kestrel",
    "Northwind",
    "Contoso",
    "Vertex",
    "Halcyon",
    "Beacon",
    "Cobalt",
    "Juniper",
    "Meridian",
    "Quartz",
    "Summit",
];
const SUFFIXES: &[&str] = &["Corp", "Labs", "Inc.", "GmbH", "Partners", "Systems"];

/// A small deterministic generator (xorshift), so every run fills the same store.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }

    /// A UUID-shaped turn id, as the agent makes them.
    fn uuid(&mut self) -> String {
        let (a, b) = (self.next(), self.next());
        format!(
            "{:08x}-{:04x}-4{:03x}-a{:03x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xfff,
            b >> 52,
            b & 0xffff_ffff_ffff
        )
    }
}

struct Filled {
    store: EmbeddedStore,
    now: f64,
    /// Entity ids of the people, companies and projects (for `REFERS_TO`).
    named: Vec<String>,
    /// A person's name that is stored once.
    person: String,
    /// Conversation entity ids by size: (messages, entity id, conversation id).
    conversations: Vec<(usize, String, String)>,
    /// The turn key of one stored user message.
    turn_key: String,
    fill_ms: f64,
}

fn post(store: &mut EmbeddedStore, path: &str, body: &Value, now: f64) -> Value {
    let r = store.handle("POST", path, Some(body), now);
    assert!(r.is_success(), "{path}: {} {}", r.status, r.body);
    r.body
}

/// One turn's two stores (user message, then reply), each `REFERS_TO` up to two named entities.
fn store_turn(
    filled: &mut Filled,
    rng: &mut Rng,
    conversation: &Conversation,
    turn: u32,
) -> (String, Value) {
    let turn_id = rng.uuid();
    let refers: Vec<String> = (0..2)
        .filter_map(|_| {
            let n = filled.named.len() as u64;
            (n > 0).then(|| filled.named[(rng.next() % n) as usize].clone())
        })
        .collect();
    let who = format!("{} {}", rng.pick(FIRST), rng.pick(LAST));
    let user = format!(
        "What did {who} say about the {} launch and the {} budget last week? Can you pull up \
         the notes from our call and the open tasks?",
        rng.pick(WORDS),
        rng.pick(WORDS)
    );
    let reply = format!(
        "{who} said the {} launch moves to next quarter; the budget review is on Thursday. \
         The open tasks are the vendor contract and the hiring plan.",
        rng.pick(WORDS)
    );
    let mut last = Value::Null;
    for (role, content) in [(Role::User, user), (Role::Assistant, reply)] {
        let message = Message {
            role,
            turn_id: &turn_id,
            content: &content,
            turn_number: Some(turn),
            extra: None,
            refers_to: &refers,
            produced: &[],
        };
        let body = store_message_request(conversation, &message);
        filled.now += 1.0;
        last = post(&mut filled.store, "/store", &body, filled.now);
    }
    (
        turn_key(&conversation.conversation_id, &turn_id, Role::User),
        last,
    )
}

fn conversation(id: &str) -> Conversation {
    Conversation {
        conversation_id: id.to_string(),
        title: Some(format!("Conversation {id}")),
        platform: Some("bench".to_string()),
    }
}

/// A store of exactly `n` entities.
fn fill(n: usize) -> Filled {
    let started = Instant::now();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d ^ n as u64);
    let mut filled = Filled {
        store: EmbeddedStore::new(),
        now: 1_764_000_000_000.0,
        named: Vec::new(),
        person: String::new(),
        conversations: Vec::new(),
        turn_key: String::new(),
        fill_ms: 0.0,
    };

    // People, companies, projects: stored in batches of 50, as `remember()` bodies.
    let (people, companies, projects) = (n / 10, n / 20, n / 20);
    let mut entities = Vec::new();
    for i in 0..people {
        let name = format!("{} {} {i}", rng.pick(FIRST), rng.pick(LAST));
        if i == people / 2 {
            filled.person = name.clone();
        }
        entities.push(json!({"entity_type": "person", "name": name,
            "email": format!("p{i}@example.org"), "organization": rng.pick(WORDS)}));
    }
    for i in 0..companies {
        let name = format!("{} {i} {}", rng.pick(WORDS), rng.pick(SUFFIXES));
        entities.push(json!({"entity_type": "company", "name": name, "industry": "software"}));
    }
    for i in 0..projects {
        let name = format!("Project {} {i}", rng.pick(WORDS));
        entities.push(json!({"entity_type": "project", "name": name, "status": "active"}));
    }
    for (batch, chunk) in entities.chunks(50).enumerate() {
        let body = remember_request(Value::Array(chunk.to_vec()), &format!("seed-{batch}"));
        filled.now += 1.0;
        let answer = post(&mut filled.store, "/store", &body, filled.now);
        for item in answer["entities"].as_array().into_iter().flatten() {
            filled
                .named
                .push(item["entity_id"].as_str().unwrap_or_default().to_string());
        }
    }

    // Conversations: the small one, the big one if it fits, then 100-message ones; a turn is
    // two messages, so sizes are even and a last conversation takes what is left.
    let mut left = n - filled.store.entity_count();
    let mut plan = vec![(SMALL_CONVERSATION.to_string(), 10)];
    left -= 11;
    if left >= 1001 + 101 {
        plan.push((BIG_CONVERSATION.to_string(), 1000));
        left -= 1001;
    }
    let mut index = 0;
    while left > 1 {
        let messages = (left - 1).min(100);
        plan.push((format!("chat-{index:05}"), messages));
        left -= messages + 1;
        index += 1;
    }
    for (id, messages) in plan {
        let conv = conversation(&id);
        let mut last = Value::Null;
        for turn in 0..messages / 2 {
            let (key, answer) = store_turn(&mut filled, &mut rng, &conv, turn as u32 + 1);
            if id == BIG_CONVERSATION || filled.turn_key.is_empty() {
                filled.turn_key = key;
            }
            last = answer;
        }
        if messages % 2 == 1 {
            // An odd count: a last user message alone.
            let turn_id = rng.uuid();
            let message = Message {
                role: Role::User,
                turn_id: &turn_id,
                content: "and one more thing",
                turn_number: None,
                extra: None,
                refers_to: &[],
                produced: &[],
            };
            filled.now += 1.0;
            last = post(
                &mut filled.store,
                "/store",
                &store_message_request(&conv, &message),
                filled.now,
            );
        }
        let conv_entity = last["entities"][0]["entity_id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        filled.conversations.push((messages, conv_entity, id));
    }
    assert_eq!(
        filled.store.entity_count(),
        n,
        "the fill makes exactly n entities"
    );
    filled.fill_ms = started.elapsed().as_secs_f64() * 1e3;
    filled
}

/// Median ms of `f`, run until 300 ms or 2,000 runs; at least 5 runs when they fit in a second,
/// so the calls that take seconds at 100,000 entities (export, import) run once or twice and
/// `make bench` stays under five minutes.
fn median_ms(mut f: impl FnMut()) -> f64 {
    let mut samples = Vec::new();
    let started = Instant::now();
    while samples.is_empty()
        || (samples.len() < 5 && started.elapsed().as_millis() < 1000)
        || (samples.len() < 2000 && started.elapsed().as_millis() < 300)
    {
        let t = Instant::now();
        f();
        samples.push(t.elapsed().as_secs_f64() * 1e3);
    }
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

struct Row {
    name: &'static str,
    /// What the call returned, to show it did the work (hits, edges, records).
    result: String,
    ms: f64,
}

fn lookup(filled: &mut Filled, name: &'static str, body: Value) -> Row {
    let mut total = Value::Null;
    let now = filled.now;
    let store = &mut filled.store;
    let ms = median_ms(|| {
        let answer = post(store, "/retrieve_entity_by_identifier", &body, now);
        total = json!(format!("{} {}", answer["total"], answer["match_mode"]));
    });
    Row {
        name,
        result: total.as_str().unwrap_or_default().replace('"', ""),
        ms,
    }
}

fn measure(n: usize) -> (f64, Vec<Row>) {
    let mut filled = fill(n);
    let mut rows = Vec::new();

    let person = filled.person.clone();
    rows.push(lookup(
        &mut filled,
        "lookup, hit (a person's name)",
        retrieve_request(&person, HITS),
    ));
    rows.push(lookup(
        &mut filled,
        "lookup, miss",
        retrieve_request("Zebulon Quartermaine", HITS),
    ));
    rows.push(lookup(
        &mut filled,
        "lookup, 2-letter miss",
        retrieve_request("Qz", HITS),
    ));
    // The index's worst case: every 3-byte piece of the needle is in over 4,096 entities, so it
    // walks the name order; no canonical name has it (every entity is read), and the people whose
    // e-mail has it come after the conversations (most entities are read again).
    rows.push(lookup(
        &mut filled,
        "lookup, every person's e-mail domain (worst case)",
        retrieve_request("example.org", HITS),
    ));
    // The 1,000-message conversation, else the largest there is.
    let big_id = filled
        .conversations
        .iter()
        .max_by_key(|c| c.0)
        .map(|c| c.2.clone())
        .unwrap_or_default();
    rows.push(lookup(
        &mut filled,
        "lookup, a conversation id (its messages match)",
        retrieve_request(&big_id, HITS),
    ));
    rows.push(lookup(
        &mut filled,
        "lookup, the conversation ids' prefix \"chat-\"",
        retrieve_request("chat-", HITS),
    ));
    rows.push(lookup(
        &mut filled,
        "lookup by name (after a crowded answer)",
        retrieve_by_name_request(&person, HITS),
    ));
    let key = filled.turn_key.clone();
    rows.push(lookup(
        &mut filled,
        "lookup of a stored message by turn key",
        stored_message_request(&key),
    ));

    for (messages, entity_id, conversation_id) in filled.conversations.clone() {
        if messages != 10 && messages != 1000 {
            continue;
        }
        let body = json!({"entity_id": entity_id});
        let mut edges = 0;
        let now = filled.now;
        let store = &mut filled.store;
        let ms = median_ms(|| {
            let answer = post(store, "/retrieve_related_entities", &body, now);
            edges = answer["relationships"].as_array().map_or(0, Vec::len);
        });
        rows.push(Row {
            name: if messages == 10 {
                "related entities of a 10-message conversation"
            } else {
                "related entities of a 1,000-message conversation"
            },
            result: format!("{edges} edges"),
            ms,
        });
        let path = format!("/conversations/{conversation_id}/turn-index");
        let mut turns = 0;
        let ms = median_ms(|| {
            let r = store.handle("GET", &path, None, now);
            turns = r.body["turns"].as_array().map_or(0, Vec::len);
        });
        rows.push(Row {
            name: if messages == 10 {
                "turn index of a 10-message conversation"
            } else {
                "turn index of a 1,000-message conversation"
            },
            result: format!("{turns} rows"),
            ms,
        });
    }
    let message_id = filled.store.handle(
        "POST",
        "/retrieve_entity_by_identifier",
        Some(&stored_message_request(&key)),
        filled.now,
    );
    if let Some(id) = message_id.body["entities"][0]["id"].as_str() {
        let body = outbound_request(id);
        let now = filled.now;
        let store = &mut filled.store;
        let mut edges = 0;
        let ms = median_ms(|| {
            let answer = post(store, "/retrieve_related_entities", &body, now);
            edges = answer["relationships"].as_array().map_or(0, Vec::len);
        });
        rows.push(Row {
            name: "a message's outbound edges (verifyTurn)",
            result: format!("{edges} edges"),
            ms,
        });
    }

    let mut records = 0;
    let ms = median_ms(|| {
        let document = filled.store.export();
        records = document["records"].as_array().map_or(0, Vec::len);
    });
    rows.push(Row {
        name: "export",
        result: format!("{records} records"),
        ms,
    });
    let document = filled.store.export();
    let mut count = 0;
    let ms = median_ms(|| {
        let store = EmbeddedStore::import(&document).expect("imports");
        count = store.entity_count();
    });
    rows.push(Row {
        name: "import",
        result: format!("{count} entities"),
        ms,
    });
    let ms = median_ms(|| {
        let mut store = EmbeddedStore::import(&document).expect("imports");
        records = store.take_changes().len();
    });
    rows.push(Row {
        name: "import, then its first take_changes (open with import)",
        result: format!("{records} changes"),
        ms,
    });

    // Last: stores add entities. A user message in the big conversation referring to three
    // entities, each a new turn.
    let conv = conversation(&big_id);
    let mut rng = Rng(7);
    let mut turn = 10_000;
    let targets: Vec<String> = filled.named.iter().take(3).cloned().collect();
    let mut created = 0;
    let ms = median_ms(|| {
        turn += 1;
        let turn_id = format!("bench-{turn}-{}", rng.next());
        let message = Message {
            role: Role::User,
            turn_id: &turn_id,
            content: "Following up on the vendor contract with the three of them.",
            turn_number: Some(turn),
            extra: None,
            refers_to: &targets,
            produced: &[],
        };
        let body = store_message_request(&conv, &message);
        filled.now += 1.0;
        let answer = post(&mut filled.store, "/store", &body, filled.now);
        created = answer["relationships_created"]
            .as_array()
            .map_or(0, Vec::len);
    });
    rows.push(Row {
        name: "/store of a user message with edges",
        result: format!("{created} edges"),
        ms,
    });
    (filled.fill_ms, rows)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let json_out = args.iter().any(|a| a == "--json");
    let sizes: Vec<usize> = args
        .iter()
        .position(|a| a == "--sizes")
        .and_then(|i| args.get(i + 1))
        .map(|list| list.split(',').filter_map(|s| s.parse().ok()).collect())
        .unwrap_or_else(|| vec![100, 10_000, 100_000]);

    let mut results = Vec::new();
    for &n in &sizes {
        let (fill_ms, rows) = measure(n);
        if !json_out {
            println!(
                "{n} entities (filled through /store in {fill_ms:.0} ms, {:.1} µs per entity):",
                fill_ms * 1e3 / n as f64
            );
            for row in &rows {
                println!("  {:<58} {:>9.3} ms  ({})", row.name, row.ms, row.result);
            }
        }
        let figures: serde_json::Map<String, Value> = rows
            .iter()
            .map(|r| (r.name.to_string(), json!({"ms": r.ms, "result": r.result})))
            .collect();
        results.push(json!({"entities": n, "fill_ms": fill_ms, "calls": figures}));
    }
    if json_out {
        println!(
            "{}",
            json!({"bench": "store", "build": "native release", "sizes": results})
        );
    }
}
