// Scaling of the embedded store in the wasm build (`make pkg` first), in Node: the same calls as
// examples/bench_store.rs (native) through `EmbeddedStore` on a store holding 100, 10,000 and
// 100,000 entities.
//
//   node scripts/bench/store-wasm.mjs [--json] [--sizes 100,10000,100000] [--open-max N]
//
// The store is filled through `store.handle('POST', '/store', body)` with the bodies the agent
// sends (src/protocol/payload.rs): persons, companies, projects (10%, 5%, 5%), the rest
// conversation messages with turn keys, `PART_OF` their conversation and `REFERS_TO` a few of
// the entities; one conversation of 10 messages, one of 1,000 (when the size allows), the others
// of 100. Each figure is the median of repeated calls. `EmbeddedStore.open(storage, { import })`
// is timed up to `--open-max` entities (default: every size).
// NEOTOMA_PKG=<dir> times another build of the package (a copy of pkg/) instead.

import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const pkg = process.env.NEOTOMA_PKG
  ? pathToFileURL(resolve(process.env.NEOTOMA_PKG, 'node.mjs')).href
  : 'neotoma-agent-wasm';
const { EmbeddedStore, memoryStoreStorage } = await import(pkg);

const args = process.argv.slice(2);
const jsonOut = args.includes('--json');
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const sizes = (option('--sizes') ?? '100,10000,100000').split(',').map(Number);
const openMax = Number(option('--open-max') ?? Infinity);

const HITS = 5; // HITS_PER_LOOKUP in src/protocol/turn.rs
const FIRST = ['Sarah', 'Dana', 'Miguel', 'Aiko', 'Priya', 'Jonas', 'Fatima', 'Liam', 'Chen', 'Olga',
  'Kwame', 'Isabel', 'Tomás', 'Noor', 'Erik', 'Mei', 'Rafael', 'Zoë', 'Hiroshi', 'Amara'];
const LAST = ['Chen', 'Whitfield', 'Garcia', 'Tanaka', 'Patel', 'Becker', 'Haddad', "O'Brien", 'Novak',
  'Mensah', 'Rossi', 'Kowalski', 'Lindqvist', 'Nakamura', 'Okafor', 'Dubois', 'Silva', 'Jensen'];
const WORDS = ['Orbital', 'Falcon', 'Globex', 'Initech', 'Umbrella', 'Kestrel', 'Northwind', 'Contoso',
  'Vertex', 'Halcyon', 'Beacon', 'Cobalt', 'Juniper', 'Meridian', 'Quartz', 'Summit'];
const SUFFIXES = ['Corp', 'Labs', 'Inc.', 'GmbH', 'Partners', 'Systems'];

/** xorshift32: every run fills the same store. */
function rng(seed) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s;
  };
  const hex = (n) => next().toString(16).padStart(8, '0').slice(0, n);
  return {
    next,
    pick: (items) => items[next() % items.length],
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(6)}${hex(6)}`,
  };
}

function post(store, path, body) {
  const r = store.handle('POST', path, body);
  if (r.status >= 300) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
}

/** The agent's `/store` body for one message (payload::store_message_request). */
function messageBody(conversationId, role, turnId, content, turnNumber, refersTo) {
  const turnKey = role === 'user' ? `${conversationId}:${turnId}` : `${conversationId}:${turnId}:assistant`;
  const message = { entity_type: 'conversation_message', role, sender_kind: role, content, turn_key: turnKey };
  if (turnNumber !== undefined) message.turn_number = turnNumber;
  return {
    entities: [
      { entity_type: 'conversation', conversation_id: conversationId, title: `Conversation ${conversationId}`, client_name: 'bench' },
      message,
    ],
    relationships: [
      { relationship_type: 'PART_OF', source_index: 1, target_index: 0 },
      ...[...new Set(refersTo)].map((id) => ({ relationship_type: 'REFERS_TO', source_index: 1, target_entity_id: id })),
    ],
    idempotency_key: `conversation-${conversationId}-${turnId}-${role}-turn`,
  };
}

function fill(n) {
  const started = performance.now();
  const r = rng(0x4f6cdd1d ^ n);
  const store = new EmbeddedStore();
  const named = [];
  let person = '';
  const people = Math.floor(n / 10), companies = Math.floor(n / 20), projects = Math.floor(n / 20);
  const entities = [];
  for (let i = 0; i < people; i++) {
    const name = `${r.pick(FIRST)} ${r.pick(LAST)} ${i}`;
    if (i === Math.floor(people / 2)) person = name;
    entities.push({ entity_type: 'person', name, email: `p${i}@example.org`, organization: r.pick(WORDS) });
  }
  for (let i = 0; i < companies; i++) {
    entities.push({ entity_type: 'company', name: `${r.pick(WORDS)} ${i} ${r.pick(SUFFIXES)}`, industry: 'software' });
  }
  for (let i = 0; i < projects; i++) {
    entities.push({ entity_type: 'project', name: `Project ${r.pick(WORDS)} ${i}`, status: 'active' });
  }
  for (let b = 0; b * 50 < entities.length; b++) {
    const answer = post(store, '/store', { entities: entities.slice(b * 50, b * 50 + 50), idempotency_key: `seed-${b}` });
    for (const item of answer.entities) named.push(item.entity_id);
  }

  let left = n - store.entityCount;
  const plan = [['chat-small', 10]];
  left -= 11;
  if (left >= 1001 + 101) {
    plan.push(['chat-big', 1000]);
    left -= 1001;
  }
  for (let i = 0; left > 1; i++) {
    const messages = Math.min(left - 1, 100);
    plan.push([`chat-${String(i).padStart(5, '0')}`, messages]);
    left -= messages + 1;
  }
  const conversations = [];
  let turnKey = '';
  for (const [id, messages] of plan) {
    let last;
    for (let turn = 1; turn <= Math.floor(messages / 2); turn++) {
      const turnId = r.uuid();
      const refers = named.length ? [named[r.next() % named.length], named[r.next() % named.length]] : [];
      const who = `${r.pick(FIRST)} ${r.pick(LAST)}`;
      const user = `What did ${who} say about the ${r.pick(WORDS)} launch and the ${r.pick(WORDS)} budget last week? Can you pull up the notes from our call and the open tasks?`;
      const reply = `${who} said the ${r.pick(WORDS)} launch moves to next quarter; the budget review is on Thursday. The open tasks are the vendor contract and the hiring plan.`;
      post(store, '/store', messageBody(id, 'user', turnId, user, turn, refers));
      last = post(store, '/store', messageBody(id, 'assistant', turnId, reply, turn, refers));
      if (id === 'chat-big' || !turnKey) turnKey = `${id}:${turnId}`;
    }
    if (messages % 2 === 1) last = post(store, '/store', messageBody(id, 'user', r.uuid(), 'and one more thing', undefined, []));
    conversations.push({ messages, entityId: last.entities[0].entity_id, id });
  }
  if (store.entityCount !== n) throw new Error(`filled ${store.entityCount} entities, not ${n}`);
  return { store, named, person, conversations, turnKey, fillMs: performance.now() - started };
}

/** Median ms of `f`, run until 300 ms or 2,000 runs (at least 5). */
async function medianMs(f, { min = 5, budgetMs = 300 } = {}) {
  const samples = [];
  const started = performance.now();
  while (samples.length < min || (samples.length < 2000 && performance.now() - started < budgetMs)) {
    const t = performance.now();
    await f();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

async function measure(n) {
  const f = fill(n);
  const { store } = f;
  const rows = [];
  const lookup = async (name, body) => {
    let result = '';
    const ms = await medianMs(() => {
      const a = post(store, '/retrieve_entity_by_identifier', body);
      result = `${a.total} ${a.match_mode}`;
    });
    rows.push({ name, ms, result });
  };
  const big = f.conversations.reduce((a, b) => (b.messages > a.messages ? b : a));
  await lookup("lookup, hit (a person's name)", { identifier: f.person, limit: HITS });
  await lookup('lookup, miss', { identifier: 'Zebulon Quartermaine', limit: HITS });
  await lookup('lookup, 2-letter miss', { identifier: 'Qz', limit: HITS });
  // The index's worst case: every 3-byte piece of the needle is in over 4,096 entities, so it walks
  // the name order; no canonical name has it (every entity is read), and the people whose e-mail
  // has it come after the conversations (most entities are read again).
  await lookup("lookup, every person's e-mail domain (worst case)", { identifier: 'example.org', limit: HITS });
  await lookup('lookup, a conversation id (its messages match)', { identifier: big.id, limit: HITS });
  await lookup('lookup, the conversation ids\' prefix "chat-"', { identifier: 'chat-', limit: HITS });
  await lookup('lookup by name (after a crowded answer)', { identifier: f.person, by: 'name', limit: HITS });
  const stored = { identifier: f.turnKey, entity_type: 'conversation_message', by: 'turn_key', limit: 10, include_observations: true, observations_limit: 100 };
  await lookup('lookup of a stored message by turn key', stored);
  {
    // The typed transport call the agent makes (a promise).
    let result = '';
    const ms = await medianMs(async () => {
      const a = await store.retrieveEntityByIdentifier({ identifier: f.person, limit: HITS });
      result = `${a.total} ${a.match_mode}`;
    });
    rows.push({ name: "retrieveEntityByIdentifier (the agent's call), hit", ms, result });
  }

  for (const c of f.conversations.filter((c) => c.messages === 10 || c.messages === 1000)) {
    const size = c.messages === 10 ? '10' : '1,000';
    let edges = 0;
    let ms = await medianMs(() => {
      edges = post(store, '/retrieve_related_entities', { entity_id: c.entityId }).relationships.length;
    });
    rows.push({ name: `related entities of a ${size}-message conversation`, ms, result: `${edges} edges` });
    let turns = 0;
    ms = await medianMs(() => {
      turns = store.handle('GET', `/conversations/${c.id}/turn-index`).body.turns.length;
    });
    rows.push({ name: `turn index of a ${size}-message conversation`, ms, result: `${turns} rows` });
  }

  // Seconds each at 100,000 entities: fewer runs.
  const slow = { min: n >= 100000 ? 1 : 3 };
  let document;
  let ms = await medianMs(() => { document = store.export(); }, slow);
  rows.push({ name: 'export', ms, result: `${document.records.length} records` });
  let count = 0;
  ms = await medianMs(() => {
    const imported = EmbeddedStore.import(document);
    count = imported.entityCount;
    imported.free();
  }, slow);
  rows.push({ name: 'import', ms, result: `${count} entities` });
  if (n <= openMax) {
    let records = 0;
    ms = await medianMs(async () => {
      const map = new Map();
      const opened = await EmbeddedStore.open(memoryStoreStorage(map), { import: document });
      records = map.size;
      opened.free();
    }, slow);
    rows.push({ name: 'EmbeddedStore.open(memoryStoreStorage(), { import })', ms, result: `${records} records stored` });
  }

  // Last: stores add entities. A user message in the big conversation referring to three.
  let turn = 10_000;
  let created = 0;
  ms = await medianMs(() => {
    turn += 1;
    const body = messageBody(big.id, 'user', `bench-${turn}`, 'Following up on the vendor contract with the three of them.', turn, f.named.slice(0, 3));
    created = post(store, '/store', body).relationships_created.length;
  });
  rows.push({ name: '/store of a user message with edges', ms, result: `${created} edges` });
  store.free();
  return { fillMs: f.fillMs, rows };
}

const results = [];
for (const n of sizes) {
  const { fillMs, rows } = await measure(n);
  if (!jsonOut) {
    console.log(`${n} entities (filled through handle('POST', '/store') in ${fillMs.toFixed(0)} ms, ${(fillMs * 1e3 / n).toFixed(1)} µs per entity):`);
    for (const row of rows) console.log(`  ${row.name.padEnd(58)} ${row.ms.toFixed(3).padStart(9)} ms  (${row.result})`);
  }
  results.push({ entities: n, fill_ms: fillMs, calls: Object.fromEntries(rows.map((r) => [r.name, { ms: r.ms, result: r.result }])) });
}
if (jsonOut) console.log(JSON.stringify({ bench: 'store', build: 'wasm, Node ' + process.version, sizes: results }));
