// A restart: a second agent instance (same conversation) replays turns the first one stored, or
// sends the writes the first one left in a shared outbox storage.
//
// Replay after a new entity appeared: agent A stores t1..t3; t2 names "Dana Whitfield", who does
// not exist yet, so A's t2 refers to nothing. Dana is added. Agent B replays t1..t3 (same ids,
// same messages): its t2 retrieval finds Dana, the store answers `replayed: true` and silently
// skips the new REFERS_TO (transcripts 12a-12c), and the agent re-creates it with
// /create_relationships. Over HTTP to the local server and on a shared EmbeddedStore.
//
// Pending writes across a restart: agent A, its server unreachable, keeps its writes in a
// `{get, put, delete}` storage over a Map; agent B, a new instance on the same storage, flushes
// them once the server is back: each stored exactly once, and a second flush does nothing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { NeotomaAgent, EmbeddedStore, idempotencyKey } from 'neotoma-agent-wasm';
import { startTestServer, seed, seedStandard, call, refersTo, turnIndex, entitySnapshot, related, randomId, recordingStorage, httpAgent } from '../server/harness.mjs';

let server;
let ids;

before(async () => {
  server = await startTestServer();
  ids = await seedStandard(server);
});

after(async () => {
  await server?.close();
});

const DANA = { entity_type: 'person', name: 'Dana Whitfield' };

/** Three turns; t2 names Dana Whitfield from the start. Replies are fixed, so a replay sends the same text. */
const TURNS = [
  { turnId: 't1', message: 'Tell me about Acme Corp', reply: 'Acme Corp is a company you stored.' },
  { turnId: 't2', message: 'Has Dana Whitfield replied about the contract?', reply: 'Dana Whitfield has not replied yet.' },
  { turnId: 't3', message: 'And what is the status of Project Falcon?', reply: 'Project Falcon is on track.' },
];

const FAST_RETRY = { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 100 };

/** No outbox unless a test passes one, and a 2 s timeout. */
function agentOf(conversationId, options = {}) {
  return httpAgent(server, conversationId, { outbox: false, transport: { timeoutMs: 2000 }, ...options });
}

async function runTurns(agent) {
  const out = [];
  for (const t of TURNS) out.push(await agent.turn(t.message, () => t.reply, { turnId: t.turnId }));
  return out;
}

/** Store reads through `handle` (the EmbeddedStore, or the server's store behind HTTP). */
function reader(handle) {
  const ok = (method, path, body) => {
    const r = handle(method, path, body);
    assert.equal(r.status, 200, `${method} ${path}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  return {
    turnIndex: (cid) => ok('GET', `/conversations/${encodeURIComponent(cid)}/turn-index`),
    snapshot: (id) => ok('POST', '/get_entity_snapshot', { entity_id: id }),
    refersTo: (id) =>
      ok('POST', '/retrieve_related_entities', { entity_id: id, direction: 'outbound', relationship_types: ['REFERS_TO'] })
        .relationships.filter((r) => r.source_entity_id === id)
        .map((r) => r.target_entity_id)
        .sort(),
    partOf: (id) =>
      ok('POST', '/retrieve_related_entities', { entity_id: id, direction: 'outbound', relationship_types: ['PART_OF'] })
        .relationships.filter((r) => r.source_entity_id === id)
        .map((r) => r.target_entity_id),
    store: (body) => ok('POST', '/store', body),
  };
}

/** What both replay scenarios assert once B has replayed: one message per turn, edges, ids. */
function checkAfterReplay(read, cid, a, b, { dana, acme, falcon }) {
  const index = read.turnIndex(cid);
  assert.equal(index.turns.length, 2 * TURNS.length, 'one turn-index row per message');
  assert.equal(new Set(index.turns.map((r) => r.turn_key)).size, index.turns.length, 'no turn key twice');
  for (const [i, t] of TURNS.entries()) {
    assert.deepEqual(b[i].replayed, { user: true, assistant: true }, `${t.turnId}: B's stores were replays`);
    assert.deepEqual(b[i].pending, { user: false, assistant: false });
    assert.equal(b[i].turnNumber, i + 1);
    for (const k of ['conversationEntityId', 'userMessageEntityId', 'assistantMessageEntityId']) {
      assert.equal(b[i][k], a[i][k], `${t.turnId}: B lands on A's ${k}`);
    }
    for (const [role, id, content] of [
      ['user', b[i].userMessageEntityId, t.message],
      ['assistant', b[i].assistantMessageEntityId, t.reply],
    ]) {
      const rows = index.turns.filter((r) => r.message_entity_id === id);
      assert.equal(rows.length, 1, `${t.turnId} ${role}: one row`);
      assert.equal(rows[0].role, role);
      assert.equal(rows[0].turn_number, i + 1);
      const snap = read.snapshot(id);
      assert.equal(snap.snapshot.content, content);
      assert.equal(snap.observation_count, 1, `${t.turnId} ${role}: the replay made no new observation`);
      assert.deepEqual(read.partOf(id), [index.conversation_entity_id]);
    }
  }
  // t2: A found nobody; B found Dana, and the REFERS_TO edges to her exist after all
  assert.deepEqual(a[1].retrievedEntityIds, []);
  assert.deepEqual(a[1].refersTo, []);
  assert.deepEqual(b[1].retrievedEntityIds, [dana]);
  assert.deepEqual(b[1].refersTo, [dana]);
  assert.deepEqual(read.refersTo(b[1].userMessageEntityId), [dana], 'user message REFERS_TO Dana');
  assert.deepEqual(read.refersTo(b[1].assistantMessageEntityId), [dana], 'assistant message REFERS_TO Dana');
  assert.deepEqual(read.refersTo(b[0].userMessageEntityId), [acme]);
  assert.deepEqual(read.refersTo(b[2].userMessageEntityId), [falcon]);
}

test('the local server and the embedded store answer a replay with an added REFERS_TO as the real one (12a-12c): replayed, edge skipped', async () => {
  const bodyFor = (cid, withEdge) => ({
    entities: [
      { entity_type: 'conversation', conversation_id: cid, title: `Conversation ${cid}` },
      { entity_type: 'conversation_message', role: 'user', sender_kind: 'user', content: 'What about Acme Corp?', turn_key: `${cid}:t1`, turn_number: 1 },
    ],
    relationships: [
      { relationship_type: 'PART_OF', source_index: 1, target_index: 0 },
      ...(withEdge ? [{ relationship_type: 'REFERS_TO', source_index: 1, target_entity_id: ids.acme }] : []),
    ],
    idempotency_key: `conversation-${cid}-t1-user-turn`,
  });
  const embedded = new EmbeddedStore();
  const viaHttp = async (method, path, body) => call(server, method, path, body);
  const viaEmbedded = async (method, path, body) => embedded.handle(method, path, body);
  for (const [name, send] of [
    ['HTTP server', viaHttp],
    ['EmbeddedStore', viaEmbedded],
  ]) {
    const cid = randomId('replay-edges');
    const first = await send('POST', '/store', bodyFor(cid, false));
    assert.equal(first.status, 200, name);
    assert.equal(first.body.replayed, false, name);
    const message = first.body.entities.find((e) => e.entity_type === 'conversation_message').entity_id;
    const again = await send('POST', '/store', bodyFor(cid, true));
    assert.equal(again.status, 200, name);
    assert.equal(again.body.replayed, true, `${name}: same key, same entities, one more edge: a replay`);
    assert.equal(again.body.relationships_created, undefined, name);
    const rel = await send('POST', '/retrieve_related_entities', { entity_id: message, direction: 'outbound', relationship_types: ['REFERS_TO'] });
    assert.deepEqual(rel.body.relationships, [], `${name}: the added REFERS_TO was silently not created`);
  }
});

test('restart over HTTP: B replays t1..t3 after Dana Whitfield appeared; replayed, one message per turn, the Dana edge repaired', { timeout: 20_000 }, async () => {
  const cid = randomId('restart-http');
  const a = await runTurns(agentOf(cid));
  assert.deepEqual(a.map((r) => r.replayed), TURNS.map(() => ({ user: false, assistant: false })));
  const [dana] = await seed(server, [DANA], randomId('seed-dana'));

  const from = server.requests.length;
  const b = await runTurns(agentOf(cid)); // a new instance: nothing shared with A but the server
  const sent = server.requests.slice(from);

  // the store answered every user message `replayed: true`; each reply was found stored (one
  // lookup by turn key), so no reply was stored again; the t2 user message carried the Dana
  // edge the server skipped, and the agent re-created it for both messages
  const stores = sent.filter((r) => r.path === '/store');
  assert.equal(stores.length, 3, 'one store per replayed turn: the user message');
  for (const r of stores) assert.equal(r.response.replayed, true);
  const t2 = stores.find((r) => r.body.idempotency_key === idempotencyKey(cid, 't2', 'user'));
  assert.ok(t2.body.relationships.some((x) => x.relationship_type === 'REFERS_TO' && x.target_entity_id === dana), 'sent with the Dana edge');
  const replyLookups = sent.filter((r) => r.path === '/retrieve_entity_by_identifier' && r.body.by === 'turn_key');
  assert.equal(replyLookups.length, 3, 'one reply lookup per replayed turn');
  const repairs = sent.filter((r) => r.path === '/create_relationships').flatMap((r) => r.body.relationships);
  for (const id of [b[1].userMessageEntityId, b[1].assistantMessageEntityId]) {
    assert.ok(repairs.some((x) => x.relationship_type === 'REFERS_TO' && x.source_entity_id === id && x.target_entity_id === dana), 'repaired with /create_relationships');
  }
  checkAfterReplay(reader((m, p, body) => server.store.handle(m, p, body)), cid, a, b, { dana, acme: ids.acme, falcon: ids.falcon });
  // and through the server's HTTP API, as a client sees it
  assert.deepEqual(await refersTo(server, b[1].userMessageEntityId), [dana]);
  assert.equal((await turnIndex(server, cid)).turns.length, 6);
});

test('restart on a shared EmbeddedStore (no server): the same replay, the same repair', async () => {
  const store = new EmbeddedStore();
  const read = reader((m, p, body) => store.handle(m, p, body));
  const [acme] = read.store({ entities: [{ entity_type: 'company', name: 'Acme Corp' }], idempotency_key: 'seed-acme' }).entities.map((e) => e.entity_id);
  const [falcon] = read.store({ entities: [{ entity_type: 'project', name: 'Project Falcon' }], idempotency_key: 'seed-falcon' }).entities.map((e) => e.entity_id);
  const cid = randomId('restart-embedded');
  const agent = () => new NeotomaAgent({ conversationId: cid, transport: store, outbox: false });
  const a = await runTurns(agent());
  const [dana] = read.store({ entities: [DANA], idempotency_key: 'seed-dana' }).entities.map((e) => e.entity_id);
  const b = await runTurns(agent());
  checkAfterReplay(read, cid, a, b, { dana, acme, falcon });
});

test('restart with writes pending: A keeps them in the storage while the server drops every connection; B flushes them exactly once', { timeout: 20_000 }, async () => {
  const cid = randomId('restart-pending');
  const storage = recordingStorage();
  const events = [];
  const options = { outbox: storage, retry: FAST_RETRY, onEvent: (e) => events.push(e) };

  server.setFaults({ seed: 12, rules: [{ path: '*', p: 1, kind: 'drop-request' }] });
  let a = agentOf(cid, options);
  const pendingResults = [];
  try {
    for (const t of TURNS.slice(0, 2)) pendingResults.push(await a.turn(t.message, () => t.reply, { turnId: t.turnId }));
  } finally {
    server.clearFaults();
  }
  assert.ok(server.faultCounts()['drop-request'] > 0);
  for (const r of pendingResults) {
    assert.deepEqual(r.pending, { user: true, assistant: true });
    assert.equal(r.userMessageEntityId, null);
    assert.equal(r.assistantMessageEntityId, null);
    assert.equal(r.conversationEntityId, null);
  }
  const keys = TURNS.slice(0, 2).flatMap((t) => ['user', 'assistant'].map((role) => idempotencyKey(cid, t.turnId, role)));
  assert.deepEqual((await a.pendingWrites()).map((w) => w.idempotencyKey), keys);
  assert.equal(storage.map.size, 1, 'one storage key for the conversation');
  assert.equal((await turnIndex(server, cid).catch(() => ({ turns: [] }))).turns.length, 0, 'nothing reached the store');
  a.free(); // the process that ran A is gone
  a = null;

  const b = agentOf(cid, options);
  assert.deepEqual((await b.pendingWrites()).map((w) => w.idempotencyKey), keys, 'B sees A\'s writes');
  const from = server.requests.length;
  assert.deepEqual(await b.flush(), { flushed: 4, pending: 0, failed: [], superseded: [] });
  const stores = server.requests.slice(from).filter((r) => r.path === '/store');
  assert.deepEqual(stores.map((r) => r.body.idempotency_key), keys, 'each write sent once, in order');
  assert.deepEqual(await b.flush(), { flushed: 0, pending: 0, failed: [], superseded: [] }, 'a second flush does nothing');
  assert.equal(server.requests.slice(from).filter((r) => r.path === '/store').length, 4);
  assert.equal(storage.map.size, 0);
  assert.deepEqual(await b.pendingWrites(), []);

  const index = await turnIndex(server, cid);
  assert.equal(index.turns.length, 4);
  for (const [i, t] of TURNS.slice(0, 2).entries()) {
    for (const [role, content] of [
      ['user', t.message],
      ['assistant', t.reply],
    ]) {
      const row = index.turns.find((r) => r.turn_key === (role === 'user' ? `${cid}:${t.turnId}` : `${cid}:${t.turnId}:assistant`));
      assert.ok(row, `${t.turnId} ${role} stored`);
      assert.equal(row.turn_number, i + 1);
      const snap = await entitySnapshot(server, row.message_entity_id);
      assert.equal(snap.snapshot.content, content);
      assert.equal(snap.observation_count, 1);
    }
  }
  const flushed = events.filter((e) => e.type === 'writeFlushed');
  assert.deepEqual(flushed.map((e) => [e.idempotencyKey, e.replayed]), keys.map((k) => [k, false]));
  for (const { value } of storage.puts) assert.ok(!value.includes(server.token), 'no token in the storage');
  assert.ok(!JSON.stringify(events).includes(server.token), 'no token in an event');
});

test('restart with a pending write whose answer was lost: the store has it, B\'s flush replays it, still one message each', { timeout: 20_000 }, async () => {
  const cid = randomId('restart-lost');
  const storage = recordingStorage();
  const events = [];
  const options = { outbox: storage, retry: FAST_RETRY, onEvent: (e) => events.push(e) };

  // lookups answer; every store is written and its answer lost
  server.setFaults({ seed: 13, rules: [{ path: '/store', p: 1, kind: 'drop-response' }] });
  const a = agentOf(cid, options);
  let r;
  try {
    r = await a.turn(TURNS[0].message, () => TURNS[0].reply, { turnId: 't1' });
  } finally {
    server.clearFaults();
  }
  assert.deepEqual(r.pending, { user: true, assistant: true });
  assert.deepEqual(r.retrievedEntityIds, [ids.acme]);
  // The user store was written (its answer lost); the assistant store then waited behind it in
  // the outbox without being sent (the older write still could not get through).
  const before = await turnIndex(server, cid);
  assert.deepEqual(before.turns.map((x) => x.role), ['user'], 'the user write happened, only its answers were lost');
  a.free();

  const b = agentOf(cid, options);
  assert.deepEqual(await b.flush(), { flushed: 2, pending: 0, failed: [], superseded: [] });
  const flushed = events.filter((e) => e.type === 'writeFlushed');
  assert.deepEqual(flushed.map((e) => [e.role, e.replayed]), [['user', true], ['assistant', false]], 'the user write was a replay');
  const index = await turnIndex(server, cid);
  assert.equal(index.turns.length, 2);
  const userRow = index.turns.find((x) => x.role === 'user');
  for (const k of ['message_entity_id', 'turn_key', 'turn_number', 'content_preview', 'created_at']) {
    assert.equal(userRow[k], before.turns[0][k], `the user message unchanged: ${k}`);
  }
  for (const row of index.turns) {
    assert.equal((await entitySnapshot(server, row.message_entity_id)).observation_count, 1);
  }
  const user = index.turns.find((x) => x.role === 'user').message_entity_id;
  const assistant = index.turns.find((x) => x.role === 'assistant').message_entity_id;
  assert.deepEqual(await refersTo(server, user), [ids.acme]);
  assert.deepEqual(await refersTo(server, assistant), [ids.acme]);
  assert.deepEqual((await related(server, user, 'outbound', ['PART_OF'])).relationships.map((x) => x.target_entity_id), [index.conversation_entity_id]);
  assert.equal(storage.map.size, 0);
});

// A turn replayed while its first attempt's write is still in the outbox retrieves more (Imogen
// Tarrant appeared meanwhile): the queued write keeps its body (its key stands for it) and gains
// her as a REFERS_TO target, which the flush re-creates after storing it.
test('a replay queued behind its own pending write keeps the REFERS_TO edges it added', { timeout: 20_000 }, async () => {
  const cid = randomId('restart-queued-replay');
  const storage = recordingStorage();
  const options = { outbox: storage, retry: FAST_RETRY };
  // someone no other test creates
  const t = { turnId: 't1', message: 'Has Imogen Tarrant replied about the lease?', reply: 'Imogen Tarrant has not replied yet.' };
  server.setFaults({ seed: 14, rules: [{ path: '/store', p: 1, kind: 'html-error', status: 500, match: (body) => body.idempotency_key.includes(cid) }] });
  let b;
  let result;
  try {
    const a = agentOf(cid, options);
    const first = await a.turn(t.message, () => t.reply, { turnId: t.turnId });
    assert.deepEqual(first.pending, { user: true, assistant: true });
    assert.deepEqual(first.retrievedEntityIds, []);
    a.free();
    await seed(server, [{ entity_type: 'person', name: 'Imogen Tarrant' }], randomId('seed-imogen'));
    b = agentOf(cid, options);
    result = await b.turn(t.message, () => t.reply, { turnId: t.turnId });
  } finally {
    server.clearFaults();
  }
  const imogen = result.retrievedEntityIds[0];
  assert.ok(imogen, "B found her");
  assert.deepEqual(result.refersTo, [imogen]);
  assert.deepEqual(result.pending, { user: true, assistant: true });
  assert.equal((await b.flush()).pending, 0);
  const index = await turnIndex(server, cid);
  const user = index.turns.find((x) => x.role === 'user').message_entity_id;
  const assistant = index.turns.find((x) => x.role === 'assistant').message_entity_id;
  assert.deepEqual(await refersTo(server, user), [imogen], 'user message REFERS_TO her, as B retrieved');
  assert.deepEqual(await refersTo(server, assistant), [imogen], 'assistant message REFERS_TO her, as B cited');
});

// When a store is answered as a replay and re-creating its REFERS_TO edges fails, the result
// carries a REFERS_TO_REPAIR_FAILED warning and the write stays in the outbox (the assistant's
// queues behind it); the flush replays it and re-creates the edges.
test('a failed REFERS_TO repair after a replay stays in the outbox until the flush re-creates the edges', { timeout: 20_000 }, async () => {
  const cid = randomId('restart-repair-fails');
  const t = { turnId: 't1', message: 'Has Ottoline Marsh replied about the lease?', reply: 'Ottoline Marsh has not replied yet.' };
  const a = agentOf(cid);
  const first = await a.turn(t.message, () => t.reply, { turnId: t.turnId });
  assert.deepEqual(first.retrievedEntityIds, []);
  const [ottoline] = await seed(server, [{ entity_type: 'person', name: 'Ottoline Marsh' }], randomId('seed-ottoline'));

  const b = agentOf(cid, { outbox: recordingStorage(), retry: FAST_RETRY });
  server.setFaults({ seed: 15, rules: [{ path: '/create_relationships', p: 1, kind: 'html-error', status: 502 }] });
  let replay;
  try {
    replay = await b.turn(t.message, () => t.reply, { turnId: t.turnId });
  } finally {
    server.clearFaults();
  }
  assert.equal(replay.replayed.user, true);
  assert.deepEqual(replay.pending, { user: false, assistant: true }, 'the assistant write waits behind the repair');
  assert.deepEqual(replay.retrievedEntityIds, [ottoline]);
  assert.deepEqual(replay.refersTo, [ottoline]);
  assert.equal(server.faultCounts()['html-error'] > 0, true, 'the repairs failed');
  assert.ok(replay.storeWarnings.some((w) => w.code === 'REFERS_TO_REPAIR_FAILED'), 'reported as a warning');
  assert.deepEqual(await b.flush(), { flushed: 2, pending: 0, failed: [], superseded: [] });
  const index = await turnIndex(server, cid);
  assert.equal(index.turns.length, 2, 'still one message per role');
  const assistantId = index.turns.find((x) => x.role === 'assistant').message_entity_id;
  assert.deepEqual(await refersTo(server, replay.userMessageEntityId), [ottoline], 'user message REFERS_TO her, as B retrieved');
  assert.deepEqual(await refersTo(server, assistantId), [ottoline], 'assistant message REFERS_TO her, as B cited');
});
