// The embedded store (no server at all), an EmbeddedStore shared by two agents, a custom JS
// transport object, withMemory, and the small exported helpers.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import * as pkg from 'neotoma-agent-wasm';
import { startTestServer, seedStandard, call, randomId, rejectionOf } from '../server/harness.mjs';

const { NeotomaAgent, EmbeddedStore, withMemory, extractIdentifiers, idempotencyKey } = pkg;

const sorted = (xs) => [...xs].sort();

async function seedEmbedded(store) {
  const out = {};
  for (const [key, entity] of [
    ['acme', { entity_type: 'company', name: 'Acme Corp' }],
    ['falcon', { entity_type: 'project', name: 'Project Falcon' }],
    ['sarah', { entity_type: 'person', name: 'Sarah Chen' }],
  ]) {
    const res = await store.store({ entities: [entity], idempotency_key: `seed-${key}` });
    out[key] = res.entities[0].entity_id;
  }
  return out;
}

function turnIndexOf(store, cid) {
  const res = store.handle('GET', `/conversations/${encodeURIComponent(cid)}/turn-index`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

test('the package exports the documented API', () => {
  for (const name of ['NeotomaAgent', 'EmbeddedStore', 'withMemory', 'extractIdentifiers', 'idempotencyKey']) {
    assert.equal(typeof pkg[name], 'function', name);
  }
});

test('a turn on the default embedded store works without any server', { timeout: 10_000 }, async () => {
  const origFetch = globalThis.fetch;
  let fetched = 0;
  globalThis.fetch = (...args) => {
    fetched++;
    return origFetch(...args);
  };
  try {
    const cid = randomId('embedded');
    const agent = new NeotomaAgent({ conversationId: cid });
    const r1 = await agent.turn('Tell me about Acme Corp', (msg, ctx) => {
      assert.deepEqual(ctx.retrieved, [], 'a private, empty store');
      return 'I do not know Acme Corp yet.';
    });
    assert.ok(r1.conversationEntityId && r1.userMessageEntityId && r1.assistantMessageEntityId);
    assert.equal(r1.turnNumber, 1);
    assert.deepEqual(r1.replayed, { user: false, assistant: false });
    const r2 = await agent.turn('And now?', () => 'Still nothing.');
    assert.equal(r2.turnNumber, 2);
    assert.equal(r2.conversationEntityId, r1.conversationEntityId);
    // replay on the private store
    const again = await agent.turn('Tell me about Acme Corp', () => 'I do not know Acme Corp yet.', { turnId: r1.turnId });
    assert.equal(again.userMessageEntityId, r1.userMessageEntityId);
    assert.deepEqual(again.replayed, { user: true, assistant: true });
    assert.equal(fetched, 0, 'the embedded store makes no network request');
  } finally {
    globalThis.fetch = origFetch;
  }
});

test('two agents on the default embedded store do not share it', { timeout: 10_000 }, async () => {
  const a = new NeotomaAgent({ conversationId: 'same-id' });
  const b = new NeotomaAgent({ conversationId: 'same-id' });
  const ra = await a.turn('hello', () => 'hi', { turnId: 't1' });
  // same key, different content: on a shared store this would be a mismatch
  const rb = await b.turn('something else', () => 'other', { turnId: 't1' });
  assert.deepEqual(rb.replayed, { user: false, assistant: false });
  assert.ok(ra.userMessageEntityId && rb.userMessageEntityId);
});

test('an EmbeddedStore passed as transport is shared by two agents', { timeout: 10_000 }, async () => {
  const store = new EmbeddedStore();
  const ids = await seedEmbedded(store);
  const cid = randomId('shared');
  const one = new NeotomaAgent({ conversationId: cid, transport: store });
  const two = new NeotomaAgent({ conversationId: cid, transport: store });

  const r1 = await one.turn('Tell me about Acme Corp and "Project Falcon"', () => 'Acme Corp is a company.', { turnId: 't1', turnNumber: 1 });
  assert.deepEqual(sorted(r1.retrievedEntityIds), sorted([ids.acme, ids.falcon]));
  assert.deepEqual(r1.refersTo, [ids.acme]);
  const r2 = await two.turn('What did Sarah Chen say?', () => 'Sarah Chen said hello.', { turnId: 't2', turnNumber: 2 });
  assert.deepEqual(r2.retrievedEntityIds, [ids.sarah]);
  assert.equal(r2.conversationEntityId, r1.conversationEntityId, 'one conversation entity in the shared store');

  const index = turnIndexOf(store, cid);
  assert.equal(index.turns.length, 4);
  assert.deepEqual(index.turns.map((t) => t.turn_number).sort(), [1, 1, 2, 2]);
  const user1 = index.turns.find((t) => t.turn_key === `${cid}:t1`);
  assert.deepEqual(user1.stored.map((x) => x.entity_id), [ids.acme]);
  assert.deepEqual(user1.retrieved.map((x) => x.entity_id), [ids.falcon]);

  // the second agent replays the first agent's turn: same ids, nothing new
  const replay = await two.turn('Tell me about Acme Corp and "Project Falcon"', () => 'Acme Corp is a company.', { turnId: 't1', turnNumber: 1 });
  assert.equal(replay.userMessageEntityId, r1.userMessageEntityId);
  assert.equal(replay.assistantMessageEntityId, r1.assistantMessageEntityId);
  assert.deepEqual(replay.replayed, { user: true, assistant: true });
  assert.equal(turnIndexOf(store, cid).turns.length, 4);
});

test('an embedded-store error says what the embedded store refused, not "Neotoma answered"', { timeout: 10_000 }, async () => {
  const refused = (path, status, code) =>
    new RegExp(`^the embedded store refused ${path} \\(${status} ${code}\\): `);
  const mismatch = refused('/store', 400, 'ERR_IDEMPOTENCY_MISMATCH');
  const strict = { retry: false, outbox: false };
  // the default embedded store, and an EmbeddedStore passed as transport: a turn id reused with
  // other content
  for (const transport of [undefined, new EmbeddedStore()]) {
    const agent = new NeotomaAgent({ conversationId: randomId('refused'), ...strict, ...(transport ? { transport } : {}) });
    await agent.turn('first', () => 'one', { turnId: 't1' });
    const err = await rejectionOf(agent.turn('edited', () => 'two', { turnId: 't1' }));
    const what = transport ? 'EmbeddedStore as transport' : 'default embedded store';
    assert.ok(err instanceof Error, what);
    assert.equal(err.name, 'NeotomaError', what);
    assert.equal(err.code, 'IDEMPOTENCY_MISMATCH', what);
    assert.equal(err.status, 400, what);
    assert.equal(err.body.error.code, 'ERR_IDEMPOTENCY_MISMATCH', what);
    assert.match(err.message, mismatch, what);
    assert.match(err.message, /new turnId/, what);
  }
  // EmbeddedStore's own transport methods reject the same way
  const store = new EmbeddedStore();
  const err = await rejectionOf(store.store({ entities: 'x' }));
  assert.equal(err.code, 'NEOTOMA_HTTP');
  assert.equal(err.status, 400);
  assert.equal(err.body.error_code, 'VALIDATION_INVALID_FORMAT');
  assert.equal(err.message, 'the embedded store refused /store (400 VALIDATION_INVALID_FORMAT): Invalid request payload.');
  const rel = await rejectionOf(store.createRelationships({ relationships: 'x' }));
  assert.equal(rel.code, 'NEOTOMA_HTTP');
  assert.match(rel.message, refused('/create_relationships', 400, 'VALIDATION_INVALID_FORMAT'));
});

test('EmbeddedStore.handle speaks the REST shapes (store, retrieve, 404 for unknown routes)', () => {
  const store = new EmbeddedStore();
  const stored = store.handle('POST', '/store', { entities: [{ entity_type: 'company', name: 'Acme Corp' }], idempotency_key: 'k1' });
  assert.equal(stored.status, 200);
  assert.equal(stored.body.replayed, false);
  const id = stored.body.entities[0].entity_id;
  assert.match(id, /^ent_/);
  const replay = store.handle('POST', '/store', { entities: [{ entity_type: 'company', name: 'Acme Corp' }], idempotency_key: 'k1' });
  assert.equal(replay.body.replayed, true);
  assert.equal(replay.body.entities[0].entity_id, id);
  const found = store.handle('POST', '/retrieve_entity_by_identifier', { identifier: 'acme corp' });
  assert.equal(found.status, 200);
  assert.deepEqual(found.body.entities.map((e) => e.id), [id]);
  const none = store.handle('POST', '/retrieve_entity_by_identifier', { identifier: 'Nobody Here' });
  assert.deepEqual([none.body.entities.length, none.body.total, none.body.match_mode], [0, 0, 'none']);
  const unknown = store.handle('POST', '/no_such_endpoint', {});
  assert.equal(unknown.status, 404);
  assert.equal(typeof unknown.body, 'string');
  const noKey = store.handle('POST', '/store', { entities: [{ entity_type: 'note', title: 'x' }] });
  assert.equal(noKey.status, 400);
});

test('any JS object with store / retrieveEntityByIdentifier / createRelationships is a transport', { timeout: 10_000 }, async () => {
  const server = await startTestServer();
  try {
    const ids = await seedStandard(server);
    const calls = [];
    const post = (path) => async (body) => {
      calls.push(path);
      const r = await call(server, 'POST', path, body);
      if (r.status !== 200) throw Object.assign(new Error(`HTTP ${r.status}`), { status: r.status });
      return r.body;
    };
    const transport = {
      store: post('/store'),
      retrieveEntityByIdentifier: post('/retrieve_entity_by_identifier'),
      createRelationships: post('/create_relationships'),
    };
    const agent = new NeotomaAgent({ conversationId: randomId('custom'), transport });
    const r = await agent.turn('Tell me about Acme Corp', () => 'Acme Corp is fine.');
    assert.deepEqual(r.retrievedEntityIds, [ids.acme]);
    assert.deepEqual(r.refersTo, [ids.acme]);
    assert.deepEqual(calls, ['/retrieve_entity_by_identifier', '/store', '/store']);
  } finally {
    await server.close();
  }
});

test('a custom transport whose store throws: the turn rejects, a failing lookup is skipped', { timeout: 10_000 }, async () => {
  const store = new EmbeddedStore();
  await seedEmbedded(store);
  const boom = new Error('lookup down');
  const transport = {
    store: (b) => store.store(b),
    retrieveEntityByIdentifier: async () => {
      throw boom;
    },
    createRelationships: (b) => store.createRelationships(b),
  };
  const r = await new NeotomaAgent({ conversationId: randomId('custom-fail'), transport }).turn('Tell me about Acme Corp', () => 'ok');
  assert.deepEqual(r.retrieved, []);

  const storeErr = new Error('store down');
  const broken = { ...transport, store: async () => { throw storeErr; } };
  await assert.rejects(new NeotomaAgent({ conversationId: randomId('custom-fail2'), transport: broken }).turn('hello', () => 'never'));
});

test('withMemory works like upstream @neotoma/agent: wrapped(msg) -> {assistantMessage, ctx}; wrapped.memory', { timeout: 10_000 }, async () => {
  const store = new EmbeddedStore();
  const ids = await seedEmbedded(store);
  const cid = randomId('wm');
  const seen = [];
  const wrapped = withMemory(
    async (userMessage, ctx) => {
      seen.push({ userMessage, ctx });
      return ctx.retrieved.length ? `I found ${ctx.retrieved.map((e) => e.snapshot.name).join(', ')}.` : 'Nothing stored.';
    },
    { conversationId: cid, transport: store, platform: 'test' },
  );
  assert.equal(typeof wrapped, 'function');
  assert.ok(wrapped.memory instanceof NeotomaAgent, 'wrapped.memory is the NeotomaAgent');

  const a = await wrapped('What do we know about Acme Corp?');
  assert.equal(a.assistantMessage, 'I found Acme Corp.');
  assert.equal(a.ctx.conversationId, cid);
  assert.equal(typeof a.ctx.turnId, 'string');
  assert.deepEqual(a.ctx.retrievedEntityIds, [ids.acme]);
  assert.deepEqual(a.ctx.retrieved.map((e) => e.id), [ids.acme]);
  assert.equal(seen[0].userMessage, 'What do we know about Acme Corp?');

  const b = await wrapped('Hello');
  assert.equal(b.assistantMessage, 'Nothing stored.');
  assert.notEqual(b.ctx.turnId, a.ctx.turnId);

  const index = turnIndexOf(store, cid);
  assert.equal(index.turns.length, 4);
  // the memory handle runs turns on the same conversation
  const c = await wrapped.memory.turn('And Sarah Chen?', () => 'Sarah Chen, yes.');
  assert.deepEqual(c.retrievedEntityIds, [ids.sarah]);
  assert.equal(turnIndexOf(store, cid).turns.length, 6);

  // the agent function's error comes back unchanged
  const mine = new Error('inner failed');
  const failing = withMemory(() => { throw mine; }, { conversationId: randomId('wm-err'), transport: store });
  await assert.rejects(failing('hi'), (err) => err === mine);
});

test('extractIdentifiers and idempotencyKey', () => {
  const got = extractIdentifiers('Tell me about Acme Corp and "Project Falcon"');
  assert.ok(Array.isArray(got));
  assert.ok(got.includes('Acme Corp'), JSON.stringify(got));
  assert.ok(got.includes('Project Falcon'), JSON.stringify(got));
  assert.ok(!got.includes('Tell'), JSON.stringify(got));
  assert.deepEqual(extractIdentifiers(''), []);
  assert.equal(idempotencyKey('c1', 't1', 'user'), 'conversation-c1-t1-user-turn');
  assert.equal(idempotencyKey('c1', 't1', 'assistant'), 'conversation-c1-t1-assistant-turn');
});

test('textHash: the protocol\'s 64-bit FNV-1a of the UTF-8 bytes, 16 hex digits; a non-string is INVALID_INPUT', () => {
  const { textHash } = pkg;
  // FNV-1a 64 of "" is the offset basis, of "a" a published test vector
  assert.equal(textHash(''), 'cbf29ce484222325');
  assert.equal(textHash('a'), 'af63dc4c8601ec8c');
  // of the UTF-8 bytes (its UTF-16 units would give a764669b8b397e21)
  assert.equal(textHash('héllo 🍣'), '7f97a6cbd1f257e9');
  assert.notEqual(textHash('hello'), textHash('hellp'));
  assert.throws(() => textHash(42), (err) => err.code === 'INVALID_INPUT');
});

test('one EmbeddedStore behind the HTTP server and in-process: an HTTP agent and a local agent share a conversation', { timeout: 10_000 }, async () => {
  const store = new EmbeddedStore();
  const ids = await seedEmbedded(store);
  const server = await startTestServer({ store });
  try {
    const cid = randomId('both');
    const remote = new NeotomaAgent({ conversationId: cid, transport: { baseUrl: server.url, token: server.token } });
    const local = new NeotomaAgent({ conversationId: cid, transport: store });
    const r1 = await remote.turn('Tell me about Acme Corp', () => 'Acme Corp, yes.', { turnId: 't1', turnNumber: 1 });
    const r2 = await local.turn('And Sarah Chen?', () => 'Sarah Chen, yes.', { turnId: 't2', turnNumber: 2 });
    assert.deepEqual(r1.retrievedEntityIds, [ids.acme]);
    assert.deepEqual(r2.retrievedEntityIds, [ids.sarah]);
    assert.equal(r1.conversationEntityId, r2.conversationEntityId);
    const overHttp = await call(server, 'GET', `/conversations/${cid}/turn-index`);
    assert.deepEqual(overHttp.body, turnIndexOf(store, cid));
    assert.equal(overHttp.body.turns.length, 4);
  } finally {
    await server.close();
  }
});
