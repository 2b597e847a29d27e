// The embedded store kept in a storage: `EmbeddedStore.open(storage)` reads the records back and
// writes each write call's changes; agents use an opened store as their transport; `export()` /
// `EmbeddedStore.import()` carry the whole memory as JSON; a storage failure is never silent.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { EmbeddedStore, NeotomaAgent, memoryStoreStorage } from 'neotoma-agent-wasm';
import { randomId, rejectionOf } from '../server/harness.mjs';

function turnIndexOf(store, cid) {
  const res = store.handle('GET', `/conversations/${encodeURIComponent(cid)}/turn-index`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** Every read an app makes of a conversation's memory, as one value to compare. */
async function memoryOf(store, cid) {
  const lookups = [];
  for (const identifier of ['Dana Whitfield', 'Orbital Labs', 'Kestrel', cid]) {
    lookups.push(await store.retrieveEntityByIdentifier({ identifier, include_observations: true }));
  }
  const index = turnIndexOf(store, cid);
  const related = await store.retrieveRelatedEntities({ entity_id: index.conversation_entity_id });
  return { index, lookups, related };
}

/** Two turns of a conversation on `store`, the first reply producing entities. */
async function twoTurns(store, cid) {
  const agent = new NeotomaAgent({ conversationId: cid, transport: store });
  const first = await agent.turn('My colleague Dana Whitfield at Orbital Labs leads Project Kestrel', () => ({
    text: "I'll remember Dana, Orbital Labs and Project Kestrel.",
    entities: [
      { entity_type: 'person', name: 'Dana Whitfield', organization: 'Orbital Labs' },
      { entity_type: 'company', name: 'Orbital Labs' },
      { entity_type: 'project', name: 'Project Kestrel', status: 'active' },
    ],
  }), { turnId: 't1' });
  const second = await agent.turn('What does Dana Whitfield lead?', (message, ctx) => {
    assert.ok(ctx.retrieved.some((e) => e.entity_type === 'person' && e.canonical_name === 'Dana Whitfield'), 'retrieved from the store');
    return 'Dana Whitfield leads Project Kestrel.';
  }, { turnId: 't2' });
  return { first, second };
}

test('an opened store keeps a conversation in its storage; reopened, it answers the same', { timeout: 20_000 }, async () => {
  const map = new Map();
  const cid = randomId('persist');
  const store = await EmbeddedStore.open(memoryStoreStorage(map));
  const { first, second } = await twoTurns(store, cid);
  assert.equal(second.turnNumber, 2);
  assert.equal(first.produced.length, 3);

  // Every record is in the storage by the time the turn resolved.
  assert.deepEqual(map.get('meta'), { format: 'neotoma-embedded-store', version: 1 });
  const kinds = new Set([...map.values()].map((r) => r.kind));
  for (const kind of ['state', 'entity', 'observation', 'relationship', 'idempotency']) assert.ok(kinds.has(kind), kind);
  assert.ok(map.has(`entity/${first.conversationEntityId}`));

  // A page reload: a fresh store from the same storage.
  const reopened = await EmbeddedStore.open(memoryStoreStorage(map));
  assert.deepEqual(reopened.export(), store.export());
  assert.equal(reopened.entityCount, store.entityCount);
  assert.deepEqual(await memoryOf(reopened, cid), await memoryOf(store, cid));

  // A new agent on the reopened store: a replayed turn is a replay, the next turn goes on.
  const agent = new NeotomaAgent({ conversationId: cid, transport: reopened });
  const replay = await agent.turn('What does Dana Whitfield lead?', () => 'Dana Whitfield leads Project Kestrel.', { turnId: 't2', turnNumber: 2 });
  assert.deepEqual(replay.replayed, { user: true, assistant: true });
  assert.equal(replay.userMessageEntityId, second.userMessageEntityId);
  const third = await agent.turn('And Orbital Labs?', () => 'Orbital Labs is where Dana works.', { turnId: 't3', turnNumber: 3 });
  assert.equal(third.conversationEntityId, first.conversationEntityId);
  assert.equal(turnIndexOf(reopened, cid).turns.length, 6);
  await reopened.flush(); // the clock of the GET above: a read is stored with the next write
  assert.deepEqual((await EmbeddedStore.open(memoryStoreStorage(map))).export(), reopened.export());
});

test('export() -> JSON text -> import() -> export() is exact', { timeout: 20_000 }, async () => {
  const store = new EmbeddedStore();
  const cid = randomId('export');
  await twoTurns(store, cid);
  const document = store.export();
  assert.equal(document.format, 'neotoma-embedded-store');
  assert.equal(document.version, 1);
  const text = JSON.stringify(document);
  const imported = EmbeddedStore.import(JSON.parse(text));
  assert.deepEqual(imported.export(), document);
  assert.equal(JSON.stringify(imported.export()), text, 'the same text, field order included');
  assert.deepEqual(await memoryOf(imported, cid), await memoryOf(store, cid));

  // A new entity after import gets an id no earlier record has.
  const answer = await imported.store({ entities: [{ entity_type: 'person', name: 'Lee Park' }], idempotency_key: 'later' });
  assert.equal(answer.entities[0].action, 'created');
  assert.ok(!text.includes(answer.entities[0].entity_id));
});

test('another format, a newer version or damaged records are refused (INVALID_INPUT)', async () => {
  const document = new EmbeddedStore().export();
  for (const [doc, message] of [
    [{ ...document, format: 'something-else' }, /format "something-else"/],
    [{ ...document, version: 2 }, /version 2, written by a newer release/],
    [{ records: [] }, /no "format"/],
    [{ ...document, records: [{ kind: 'widget' }] }, /unknown record kind "widget"/],
  ]) {
    const err = assert.throws(() => EmbeddedStore.import(doc), (e) => e.code === 'INVALID_INPUT' && message.test(e.message));
    void err;
  }
  assert.throws(() => EmbeddedStore.import({ ...document, records: [{ kind: 'state', id_counter: 1, clock_ms: NaN }] }), { code: 'INVALID_INPUT' });

  const newer = new Map([['meta', { format: 'neotoma-embedded-store', version: 2 }]]);
  const err = await rejectionOf(EmbeddedStore.open(memoryStoreStorage(newer)));
  assert.equal(err.code, 'INVALID_INPUT');
  assert.match(err.message, /newer release/);

  for (const bad of [undefined, {}, { list() {}, put() {} }]) {
    assert.equal((await rejectionOf(EmbeddedStore.open(bad))).code, 'INVALID_INPUT');
  }
  const options = await rejectionOf(EmbeddedStore.open(memoryStoreStorage(), { onErr: () => {} }));
  assert.match(options.message, /unknown option "onErr"/);
});

test('open({ import }) replaces the storage\'s records by the document\'s', { timeout: 20_000 }, async () => {
  const source = new EmbeddedStore();
  const cid = randomId('restore');
  await twoTurns(source, cid);
  const map = new Map();
  const other = await EmbeddedStore.open(memoryStoreStorage(map));
  await other.store({ entities: [{ entity_type: 'note', content: 'to be replaced' }], idempotency_key: 'old' });
  assert.ok(map.has('idempotency/old'));

  const restored = await EmbeddedStore.open(memoryStoreStorage(map), { import: source.export() });
  assert.deepEqual(restored.export(), source.export());
  assert.ok(!map.has('idempotency/old'), 'records the document does not have are deleted');
  assert.deepEqual((await EmbeddedStore.open(memoryStoreStorage(map))).export(), source.export());
});

/** A storage with only list/put/delete, each answering after a random delay, that fails on demand. */
function flakyStorage(map) {
  const storage = {
    failing: 0,
    calls: [],
    list: async () => [...map],
    put: async (key, record) => {
      storage.calls.push(['put', key]);
      await new Promise((res) => setTimeout(res, Math.random() * 3));
      if (storage.failing > 0) {
        storage.failing--;
        throw new Error('disk full');
      }
      map.set(key, record);
    },
    delete: async (key) => {
      map.delete(key);
    },
  };
  return storage;
}

test('writes reach a put/delete storage in call order, concurrent calls included', { timeout: 20_000 }, async () => {
  const map = new Map();
  const store = await EmbeddedStore.open(flakyStorage(map));
  const writes = [];
  for (let i = 0; i < 20; i++) {
    writes.push(store.store({
      entities: [{ entity_type: 'company', name: 'Acme Corp', notes: `version ${i}` }],
      idempotency_key: `k${i}`,
    }));
  }
  await Promise.all(writes);
  const reopened = await EmbeddedStore.open(memoryStoreStorage(map));
  assert.deepEqual(reopened.export(), store.export());
  const [hit] = (await reopened.retrieveEntityByIdentifier({ identifier: 'Acme' })).entities;
  assert.equal(hit.snapshot.snapshot.notes, 'version 19', 'the latest value, not an older one written late');
});

test('a storage failure rejects the write, reaches onError, and is written again later', { timeout: 20_000 }, async () => {
  const map = new Map();
  const storage = flakyStorage(map);
  const errors = [];
  const store = await EmbeddedStore.open(storage, { onError: (e) => errors.push(e) });
  const cid = randomId('flaky');
  const agent = new NeotomaAgent({ conversationId: cid, transport: store });
  await agent.turn('hello', () => 'hi', { turnId: 't1' });

  storage.failing = 1;
  const err = await rejectionOf(agent.turn('Tell me about Orbital Labs', () => 'Orbital Labs is a company.', { turnId: 't2' }));
  assert.equal(err.code, 'STORE_STORAGE');
  assert.equal(err.name, 'NeotomaError');
  assert.match(err.message, /^the store's storage failed: put\(\) threw Error: disk full/);
  assert.equal(err.cause.message, 'disk full');
  assert.deepEqual(errors, [err], 'onError got the same error');
  const stale = await EmbeddedStore.open(memoryStoreStorage(new Map(map)));
  assert.notDeepEqual(stale.export(), store.export(), 'the storage is behind: the turn was not reported as done');

  // The same turn again: its user message is a replay, and everything pending is written.
  const again = await agent.turn('Tell me about Orbital Labs', () => 'Orbital Labs is a company.', { turnId: 't2' });
  assert.equal(again.replayed.user, true);
  assert.deepEqual((await EmbeddedStore.open(memoryStoreStorage(map))).export(), store.export());
  assert.equal(errors.length, 1);

  // flush() retries too, and resolves once nothing is pending.
  storage.failing = 1;
  const res = store.handle('POST', '/store', { entities: [{ entity_type: 'note', content: 'via handle' }], idempotency_key: 'h1' });
  assert.equal(res.status, 200);
  for (let i = 0; i < 100 && errors.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
  assert.equal(errors.length, 2, 'a background write failure reaches onError');
  assert.equal(errors[1].code, 'STORE_STORAGE');
  await store.flush();
  assert.deepEqual((await EmbeddedStore.open(memoryStoreStorage(map))).export(), store.export());
});

test('a store not opened on a storage: flush() resolves at once, nothing else changes', async () => {
  const store = new EmbeddedStore();
  await store.flush();
  const r = await store.store({ entities: [{ entity_type: 'person', name: 'Ann' }], idempotency_key: 'k' });
  assert.equal(r.entities_created, 1);
  assert.equal(store.export().records.filter((x) => x.kind === 'entity').length, 1);
});
