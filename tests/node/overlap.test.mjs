// Overlapped turns (`overlapUserStore: true`, for the agent or per turn) over real HTTP to the
// local Neotoma-shaped server: right after retrieval the user message's /store is sent and the LLM
// callback invoked at once; the user message is in the outbox storage while the callback runs and
// leaves it once stored; the assistant /store waits for the user /store. Replays (same agent, fresh
// agent), faults (transient, refused for good, unreadable answers) and `turnStream` behave as
// documented in README ("Overlapped turns"). Orders are read from the server's request log and
// from inside the callback, never from wall-clock limits.

import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';

import { NeotomaAgent, idempotencyKey, withMemory } from 'neotoma-agent-wasm';
import {
  startTestServer,
  seedStandard,
  turnIndex,
  entitySnapshot,
  refersTo,
  randomId,
  httpAgent,
  recordingStorage,
  rejectionOf,
} from '../server/harness.mjs';

const STORE = '/store';
const MESSAGE = 'Tell me about Acme Corp and "Project Falcon"';
/** The injected hold on a user /store: long enough that a callback invoked "at once" runs inside it. */
const HOLD_MS = 400;

let server;
let ids;

before(async () => {
  server = await startTestServer();
  ids = await seedStandard(server);
});

after(async () => {
  await server?.close();
});

beforeEach(() => {
  server.clearFaults();
});

const outboxKey = (cid) => `neotoma-agent-wasm/outbox/v1/${cid}`;
const isKey = (key) => (body) => body?.idempotency_key === key;
/** The server's log entries for `/store` requests carrying `key`, in order. */
const storesOf = (key, from = 0) => server.requests.slice(from).filter((r) => r.path === STORE && r.body?.idempotency_key === key);

/** The keys waiting in `storage`'s queue for `cid`, read straight from the storage. */
function queuedKeys(storage, cid) {
  const text = storage.map.get(outboxKey(cid));
  return text ? JSON.parse(text).writes.map((w) => w.idempotencyKey) : [];
}

/**
 * An LLM callback that notes, when invoked, what the outbox storage held and where the turn's
 * user /store stood in the server's log (`received`, `answered`), then answers.
 */
function watchingLlm(storage, cid, reply = 'Acme Corp: noted.') {
  const userKey = idempotencyKey(cid, 't1', 'user');
  const fn = (message, ctx) => {
    const entry = storesOf(userKey).at(-1);
    fn.seen.push({
      at: performance.now(),
      queued: queuedKeys(storage, cid),
      userStoreAnswered: Boolean(entry && entry.respondedAt > 0),
      ctx,
    });
    return reply;
  };
  fn.seen = [];
  return fn;
}

async function storedMessages(cid) {
  const index = await turnIndex(server, cid);
  const out = {};
  for (const row of index.turns) {
    const snap = await entitySnapshot(server, row.message_entity_id);
    out[row.turn_key] = { id: row.message_entity_id, content: snap.snapshot.content, observations: snap.observation_count };
  }
  return out;
}

test('overlapped: the callback is invoked before the user store is answered, with the message in the outbox storage', { timeout: 20_000 }, async () => {
  const cid = randomId('overlap');
  const userKey = idempotencyKey(cid, 't1', 'user');
  const storage = recordingStorage();
  const agent = httpAgent(server, cid, { overlapUserStore: true, outbox: storage });
  server.delay(STORE, HOLD_MS, { match: isKey(userKey) });
  const llm = watchingLlm(storage, cid);
  const from = server.requests.length;
  const result = await agent.turn(MESSAGE, llm, { turnId: 't1' });

  assert.equal(llm.seen.length, 1);
  const [seen] = llm.seen;
  assert.equal(seen.userStoreAnswered, false, 'invoked before the user store was answered');
  assert.deepEqual(seen.queued, [userKey], 'the user message is in the outbox storage while the callback runs');
  assert.deepEqual(seen.ctx.retrievedEntityIds.sort(), [ids.acme, ids.falcon].sort(), 'retrieval is done first');

  const [userStore] = storesOf(userKey, from);
  const [assistantStore] = storesOf(idempotencyKey(cid, 't1', 'assistant'), from);
  assert.ok(seen.at < userStore.respondedAt, 'the callback ran inside the user store');
  assert.ok(userStore.respondedAt <= assistantStore.receivedAt, 'the assistant store waits for the user store');
  assert.deepEqual(result.pending, { user: false, assistant: false });
  assert.deepEqual(result.replayed, { user: false, assistant: false });
  assert.equal(storage.map.size, 0, 'the write left the outbox once stored');
  assert.deepEqual(await agent.pendingWrites(), []);

  const stored = await storedMessages(cid);
  assert.equal(stored[`${cid}:t1`].content, MESSAGE);
  assert.equal(stored[`${cid}:t1:assistant`].content, 'Acme Corp: noted.');
  assert.deepEqual(await refersTo(server, result.userMessageEntityId), [ids.acme, ids.falcon].sort());
  assert.deepEqual(await refersTo(server, result.assistantMessageEntityId), [ids.acme]);
});

test('plain (the default, and overlapUserStore: false per turn): the callback waits for the stored user message', { timeout: 20_000 }, async () => {
  for (const [agentOptions, turnOptions] of [
    [{}, {}],
    [{ overlapUserStore: true }, { overlapUserStore: false }],
  ]) {
    const cid = randomId('plain');
    const storage = recordingStorage();
    const agent = httpAgent(server, cid, { outbox: storage, ...agentOptions });
    server.delay(STORE, HOLD_MS, { match: isKey(idempotencyKey(cid, 't1', 'user')) });
    const llm = watchingLlm(storage, cid);
    await agent.turn(MESSAGE, llm, { turnId: 't1', ...turnOptions });
    assert.equal(llm.seen[0].userStoreAnswered, true, JSON.stringify(agentOptions));
    assert.deepEqual(llm.seen[0].queued, [], 'nothing queued: the message is stored');
  }
  // and per turn the other way round
  const cid = randomId('per-turn');
  const storage = recordingStorage();
  const agent = httpAgent(server, cid, { outbox: storage });
  server.delay(STORE, HOLD_MS, { match: isKey(idempotencyKey(cid, 't1', 'user')) });
  const llm = watchingLlm(storage, cid);
  await agent.turn(MESSAGE, llm, { turnId: 't1', overlapUserStore: true });
  assert.equal(llm.seen[0].userStoreAnswered, false);
});

test('overlapped replays: same agent and fresh agent get the stored reply, one observation per message', { timeout: 20_000 }, async () => {
  for (const fresh of [false, true]) {
    const cid = randomId(fresh ? 'overlap-replay-new' : 'overlap-replay-same');
    let calls = 0;
    const llm = () => `Acme Corp, answer #${++calls}.`;
    const options = { overlapUserStore: true, outbox: recordingStorage() };
    const first = httpAgent(server, cid, options);
    const r1 = await first.turn(MESSAGE, llm, { turnId: 't1', turnNumber: 1 });
    const before = await storedMessages(cid);

    const replaying = fresh ? httpAgent(server, cid, options) : first;
    const from = server.requests.length;
    const again = await replaying.turn(MESSAGE, llm, { turnId: 't1', turnNumber: 1 });
    assert.equal(calls, 2, 'the callback ran before the store said replay');
    assert.equal(again.assistantMessage, r1.assistantMessage, 'the stored reply; the new one is discarded');
    assert.deepEqual(again.replayed, { user: true, assistant: true });
    for (const k of ['turnId', 'turnNumber', 'conversationEntityId', 'userMessageEntityId', 'assistantMessageEntityId']) assert.equal(again[k], r1[k], k);
    assert.deepEqual(await storedMessages(cid), before, 'nothing stored twice');
    for (const m of Object.values(before)) assert.equal(m.observations, 1);
    const stores = server.requests.slice(from).filter((r) => r.path === STORE);
    assert.deepEqual(stores.map((r) => r.body.idempotency_key), [idempotencyKey(cid, 't1', 'user')], 'no reply store');
    assert.deepEqual(await replaying.pendingWrites(), []);
  }
});

test('overlapped turnStream: the streams carry the callback as it runs; a replay resolves done to the stored reply', { timeout: 20_000 }, async () => {
  const cid = randomId('overlap-stream');
  const storage = recordingStorage();
  const options = { overlapUserStore: true, outbox: storage };
  const userKey = idempotencyKey(cid, 't1', 'user');
  server.delay(STORE, HOLD_MS, { match: isKey(userKey), times: 1 });
  let answeredAtFirstChunk;
  async function* first() {
    const entry = storesOf(userKey).at(-1);
    answeredAtFirstChunk = Boolean(entry && entry.respondedAt > 0);
    yield 'Acme Corp ';
    yield 'is stored.';
  }
  const run = httpAgent(server, cid, options).turnStream(MESSAGE, first, { turnId: 't1', turnNumber: 1 });
  const chunks = [];
  for await (const chunk of run.textStream) chunks.push(chunk);
  const r1 = await run.done;
  assert.equal(answeredAtFirstChunk, false, 'streaming began before the user store was answered');
  assert.equal(chunks.join(''), 'Acme Corp is stored.');
  assert.equal(r1.assistantMessage, 'Acme Corp is stored.');

  // a replay from a fresh agent: the callback has run (and streamed) before the store says replay
  async function* second() {
    yield 'A different ';
    yield 'answer.';
  }
  const replay = httpAgent(server, cid, options).turnStream(MESSAGE, second, { turnId: 't1', turnNumber: 1 });
  const replayChunks = [];
  for await (const chunk of replay.textStream) replayChunks.push(chunk);
  const r2 = await replay.done;
  assert.equal(replayChunks.join(''), 'A different answer.', 'the streams carried the callback, as it ran');
  assert.equal(r2.assistantMessage, 'Acme Corp is stored.', 'done: the stored reply');
  assert.deepEqual(r2.replayed, { user: true, assistant: true });
  assert.equal(r2.assistantMessageEntityId, r1.assistantMessageEntityId);
  const stored = await storedMessages(cid);
  assert.equal(stored[`${cid}:t1:assistant`].content, 'Acme Corp is stored.');
  for (const m of Object.values(stored)) assert.equal(m.observations, 1);
});

test('overlapped faults: a transient user store failure is retried; the assistant store waits for its success', { timeout: 20_000 }, async () => {
  const cid = randomId('overlap-retry');
  const userKey = idempotencyKey(cid, 't1', 'user');
  const storage = recordingStorage();
  const agent = httpAgent(server, cid, { overlapUserStore: true, outbox: storage, retry: { initialDelayMs: 5, maxDelayMs: 20 } });
  server.failNext(STORE, 503, undefined, { times: 2, match: isKey(userKey) });
  const llm = watchingLlm(storage, cid);
  const from = server.requests.length;
  const result = await agent.turn(MESSAGE, llm, { turnId: 't1' });
  const users = storesOf(userKey, from);
  assert.deepEqual(users.map((r) => r.status), [503, 503, 200], 'retried with the same body');
  assert.ok(users.every((r) => JSON.stringify(r.body) === JSON.stringify(users[0].body)));
  const [assistant] = storesOf(idempotencyKey(cid, 't1', 'assistant'), from);
  assert.ok(users[2].respondedAt <= assistant.receivedAt, 'never sent before the user store succeeded');
  assert.deepEqual(llm.seen[0].queued, [userKey]);
  assert.deepEqual(result.pending, { user: false, assistant: false });
  assert.equal(storage.map.size, 0);
});

test('overlapped faults: a user store refused for good rejects after the callback with the store\'s own error', { timeout: 20_000 }, async () => {
  const refuse = (cid) =>
    server.failNext(STORE, 400, { error_code: 'VALIDATION_INVALID_FORMAT', message: 'Invalid request payload.' }, { match: isKey(idempotencyKey(cid, 't1', 'user')) });
  const plainCid = randomId('plain-refused');
  refuse(plainCid);
  const plainStorage = recordingStorage();
  const plainLlm = watchingLlm(plainStorage, plainCid);
  const expected = await rejectionOf(httpAgent(server, plainCid, { outbox: plainStorage }).turn(MESSAGE, plainLlm, { turnId: 't1' }));
  assert.equal(plainLlm.seen.length, 0, 'the plain turn never calls the callback');

  const cid = randomId('overlap-refused');
  refuse(cid);
  const storage = recordingStorage();
  const agent = httpAgent(server, cid, { overlapUserStore: true, outbox: storage });
  const llm = watchingLlm(storage, cid);
  const from = server.requests.length;
  const e = await rejectionOf(agent.turn(MESSAGE, llm, { turnId: 't1' }));
  assert.equal(llm.seen.length, 1, 'the callback ran');
  assert.deepEqual(llm.seen[0].queued, [idempotencyKey(cid, 't1', 'user')]);
  assert.equal(e.name, 'NeotomaError');
  assert.equal(e.code, expected.code);
  assert.equal(e.status, expected.status);
  assert.deepEqual(e.body, expected.body);
  assert.equal(e.message, expected.message);
  assert.deepEqual(storesOf(idempotencyKey(cid, 't1', 'assistant'), from), [], 'no assistant store');
  // refused on its merits it would be refused again: dropped, as a flush drops such a write
  assert.deepEqual(await agent.pendingWrites(), []);
  assert.equal(storage.map.size, 0);

  // a callback that fails too: the store's error still wins
  const cid2 = randomId('overlap-both-fail');
  refuse(cid2);
  const boom = new Error('model down');
  const e2 = await rejectionOf(httpAgent(server, cid2, { overlapUserStore: true, outbox: recordingStorage() }).turn(MESSAGE, () => Promise.reject(boom), { turnId: 't1' }));
  assert.equal(e2.code, 'NEOTOMA_HTTP');
  assert.equal(e2.status, 400);
});

test('overlapped turnStream: a user store refused for good rejects done; the streams carried the whole reply', { timeout: 20_000 }, async () => {
  const cid = randomId('overlap-stream-refused');
  server.failNext(STORE, 400, { error_code: 'VALIDATION_INVALID_FORMAT', message: 'Invalid request payload.' }, { match: isKey(idempotencyKey(cid, 't1', 'user')) });
  const agent = httpAgent(server, cid, { overlapUserStore: true, outbox: recordingStorage() });
  async function* llm() {
    yield 'Acme Corp ';
    yield 'is stored.';
  }
  const { textStream, done } = agent.turnStream(MESSAGE, llm, { turnId: 't1' });
  const chunks = [];
  for await (const chunk of textStream) chunks.push(chunk);
  assert.equal(chunks.join(''), 'Acme Corp is stored.', 'the reply was complete before the store answered');
  const e = await rejectionOf(done);
  assert.equal(e.code, 'NEOTOMA_HTTP');
  assert.equal(e.status, 400);
  // a conversation never stored has no turn index (404); any other failure fails the test
  const index = await turnIndex(server, cid).catch((err) => {
    if (String(err.message).includes('-> 404')) return { turns: [] };
    throw err;
  });
  assert.equal(index.turns.length, 0, 'nothing stored');
});

test('overlapped faults: a user store never answered readably rejects with the plain turn\'s error; its write stays in the outbox', { timeout: 30_000 }, async () => {
  const garble = (cid) => server.setFaults({ seed: 1, rules: [{ path: STORE, p: 1, kind: 'truncated', cut: 'length', match: isKey(idempotencyKey(cid, 't1', 'user')) }] });
  const retry = { maxAttempts: 3, initialDelayMs: 5, maxDelayMs: 20 };
  const plainCid = randomId('plain-garbled');
  garble(plainCid);
  const expected = await rejectionOf(httpAgent(server, plainCid, { retry, outbox: recordingStorage() }).turn(MESSAGE, () => 'x', { turnId: 't1' }));
  assert.equal(expected.code, 'NEOTOMA_INVALID_RESPONSE');

  const cid = randomId('overlap-garbled');
  garble(cid);
  const storage = recordingStorage();
  const agent = httpAgent(server, cid, { overlapUserStore: true, retry, outbox: storage });
  const llm = watchingLlm(storage, cid);
  const e = await rejectionOf(agent.turn(MESSAGE, llm, { turnId: 't1' }));
  assert.equal(llm.seen.length, 1);
  assert.equal(e.code, expected.code);
  assert.equal(e.message.replaceAll(plainCid, cid), expected.message.replaceAll(plainCid, cid));
  // the write may have happened (it did): it stays in the outbox, and the next pass tells
  assert.deepEqual(queuedKeys(storage, cid), [idempotencyKey(cid, 't1', 'user')]);
  server.clearFaults();
  const flushed = await agent.flush();
  assert.deepEqual({ flushed: flushed.flushed, pending: flushed.pending }, { flushed: 1, pending: 0 });
  const stored = await storedMessages(cid);
  assert.deepEqual(Object.keys(stored), [`${cid}:t1`], 'the user message, once; no reply');
  assert.equal(stored[`${cid}:t1`].observations, 1);
});

test('overlapped: withMemory takes the option too', { timeout: 20_000 }, async () => {
  const cid = randomId('overlap-with-memory');
  const storage = recordingStorage();
  const llm = watchingLlm(storage, cid);
  const wrapped = withMemory(llm, {
    conversationId: cid,
    transport: { baseUrl: server.url, token: server.token, timeoutMs: 5000 },
    outbox: storage,
    overlapUserStore: true,
    nextTurnId: () => 't1',
  });
  server.delay(STORE, HOLD_MS, { match: isKey(idempotencyKey(cid, 't1', 'user')) });
  const out = await wrapped(MESSAGE);
  assert.equal(out.assistantMessage, 'Acme Corp: noted.');
  assert.equal(llm.seen[0].userStoreAnswered, false);
  assert.deepEqual(llm.seen[0].queued, [idempotencyKey(cid, 't1', 'user')]);
});

test('overlapUserStore that is not a boolean is INVALID_INPUT, before anything is sent', async () => {
  const from = server.requests.length;
  assert.throws(() => new NeotomaAgent({ conversationId: 'c', overlapUserStore: 'yes' }), (e) => e.code === 'INVALID_INPUT' && /overlapUserStore must be a boolean/.test(e.message));
  const agent = httpAgent(server, randomId('bad'));
  const e = await rejectionOf(agent.turn('hi', () => 'x', { overlapUserStore: 1 }));
  assert.equal(e.code, 'INVALID_INPUT');
  assert.match(e.message, /overlapUserStore must be a boolean/);
  assert.equal(server.requests.length, from);
});
