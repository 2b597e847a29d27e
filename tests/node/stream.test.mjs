// Streaming turns (`agent.turnStream`, and `agent.turn` with a streamed reply) over real HTTP to the
// local Neotoma-shaped server: chunks reach the reader while the LLM is still producing, the stored
// reply is exactly the chunks concatenated, and a stream that fails midway stores no assistant
// message while the user message stays stored.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { EmbeddedStore, NeotomaAgent } from 'neotoma-agent-wasm';
import { startTestServer, seedStandard, turnIndex, refersTo, randomId, rowsByKey, entitySnapshot, httpAgent } from '../server/harness.mjs';

let server;
let ids;

before(async () => {
  server = await startTestServer();
  ids = await seedStandard(server);
});

after(async () => {
  await server?.close();
});

/** A promise with its resolve function outside. */
function deferred() {
  let resolve;
  const promise = new Promise((r) => (resolve = r));
  return { promise, resolve };
}

async function readAll(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const utf8 = new TextEncoder();
const decodeAll = (chunks) => new TextDecoder().decode(Buffer.concat(chunks.map((c) => Buffer.from(c))));

/** The stored messages of a conversation by turn_key: the turn-index row plus the full `content`. */
async function storedMessages(cid) {
  const rows = rowsByKey(await turnIndex(server, cid));
  for (const row of Object.values(rows)) {
    row.content = (await entitySnapshot(server, row.message_entity_id)).snapshot.content;
  }
  return rows;
}

test('turnStream: chunks reach the reader before the LLM finishes; stored reply = concatenation', { timeout: 20_000 }, async () => {
  const cid = randomId('stream');
  const agent = httpAgent(server, cid);
  const firstRead = deferred();
  const pieces = ['Acme Corp ', 'is a company ', 'you have stored. ', 'Ünïcödé ✓ 🚀'];
  let ctxSeen;
  async function* llm(message, ctx) {
    ctxSeen = ctx;
    yield pieces[0];
    // The generator only goes on once the reader has the first chunk: this proves streaming,
    // with no timing involved (a buffered implementation would deadlock here and time out).
    await firstRead.promise;
    for (const p of pieces.slice(1)) yield p;
  }
  const { stream, textStream, done } = agent.turnStream('Tell me about Acme Corp', llm);
  assert.ok(stream instanceof ReadableStream);
  assert.ok(textStream instanceof ReadableStream);
  assert.ok(done instanceof Promise);

  const reader = textStream.getReader();
  const first = await reader.read();
  assert.deepEqual(first, { done: false, value: pieces[0] });
  firstRead.resolve();
  const rest = [];
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    rest.push(r.value);
  }
  assert.deepEqual([first.value, ...rest], pieces);

  const bytes = await readAll(stream);
  assert.ok(bytes.every((b) => b instanceof Uint8Array), 'the byte stream yields Uint8Array');
  assert.equal(decodeAll(bytes), pieces.join(''));

  const result = await done;
  assert.equal(result.assistantMessage, pieces.join(''));
  assert.equal(result.turnNumber, 1);
  assert.deepEqual(result.refersTo, [ids.acme]);
  assert.deepEqual(ctxSeen.retrievedEntityIds, [ids.acme]);

  const rows = await storedMessages(cid);
  const user = rows[`${cid}:${result.turnId}`];
  const assistant = rows[`${cid}:${result.turnId}:assistant`];
  assert.equal(user.content, 'Tell me about Acme Corp');
  assert.equal(assistant.content, pieces.join(''));
  assert.equal(assistant.message_entity_id, result.assistantMessageEntityId);
  assert.deepEqual(await refersTo(server, result.assistantMessageEntityId), [ids.acme]);
});

test('turnStream: the byte stream is a Response body that ends before the store; done waits for the store', { timeout: 20_000 }, async () => {
  // A transport object in front of an embedded store that holds the assistant message's store
  // until the test opens the gate.
  const store = new EmbeddedStore();
  const gate = deferred();
  let assistantStoreStarted = false;
  const transport = {
    async store(body) {
      if (body.entities.some((e) => e.role === 'assistant')) {
        assistantStoreStarted = true;
        await gate.promise;
      }
      return store.store(body);
    },
    retrieveEntityByIdentifier: (body) => store.retrieveEntityByIdentifier(body),
    createRelationships: (body) => store.createRelationships(body),
  };
  const agent = new NeotomaAgent({ conversationId: randomId('stream'), transport });
  async function* llm() {
    yield 'Hello ';
    yield 'from the edge.';
  }
  const turn = agent.turnStream('Hi there', llm);
  const text = await new Response(turn.stream).text();
  assert.equal(text, 'Hello from the edge.');
  await new Promise((r) => setTimeout(r, 0));
  assert.ok(assistantStoreStarted, 'the assistant store is under way');
  const state = await Promise.race([turn.done.then(() => 'settled'), new Promise((r) => setTimeout(() => r('pending'), 20))]);
  assert.equal(state, 'pending', 'done waits for the assistant store');
  gate.resolve();
  const result = await turn.done;
  assert.equal(result.assistantMessage, 'Hello from the edge.');
  const stored = store.handle('GET', `/conversations/${encodeURIComponent(agent.conversationId)}/turn-index`, undefined);
  assert.deepEqual(stored.body.turns.map((t) => t.role), ['user', 'assistant']);
  const reply = store.handle('POST', '/get_entity_snapshot', { entity_id: result.assistantMessageEntityId });
  assert.equal(reply.body.snapshot.content, 'Hello from the edge.');
  // The text stream, never read, still holds the same chunks (nothing is lost for a late reader).
  assert.deepEqual(await readAll(turn.textStream), ['Hello ', 'from the edge.']);
});

test('turnStream: ReadableStream<Uint8Array> reply with multi-byte characters split across chunks', { timeout: 20_000 }, async () => {
  const cid = randomId('stream');
  const agent = httpAgent(server, cid);
  const reply = '\uFEFFCafé — 漢字 and 🚀 rockets';
  const bytes = utf8.encode(reply);
  // Split every 3 bytes: cuts through é, —, 漢, 🚀 (and keeps the leading BOM, byte for byte).
  const llm = () =>
    new ReadableStream({
      start(c) {
        for (let i = 0; i < bytes.length; i += 3) c.enqueue(bytes.slice(i, i + 3));
        c.close();
      },
    });
  const { stream, done } = agent.turnStream('Tell me about Acme Corp', llm);
  const out = await readAll(stream);
  assert.deepEqual(Buffer.concat(out.map((c) => Buffer.from(c))), Buffer.from(bytes));
  const result = await done;
  assert.equal(result.assistantMessage, reply);
  const rows = await storedMessages(cid);
  assert.equal(rows[`${cid}:${result.turnId}:assistant`].content, reply);
});

test('turnStream: a surrogate pair split across string chunks is encoded as one character', { timeout: 20_000 }, async () => {
  const agent = httpAgent(server, randomId('stream'));
  const rocket = '🚀';
  const llm = () =>
    new ReadableStream({
      start(c) {
        c.enqueue('go ' + rocket[0]);
        c.enqueue(rocket[1] + '!');
        c.close();
      },
    });
  const { stream, done } = agent.turnStream('launch', llm);
  assert.equal(decodeAll(await readAll(stream)), 'go 🚀!');
  assert.equal((await done).assistantMessage, 'go 🚀!');
});

test('turnStream: the LLM stream failing midway: stream errors, done rejects with that error, no assistant stored', { timeout: 20_000 }, async () => {
  const cid = randomId('stream');
  const agent = httpAgent(server, cid);
  const boom = new Error('model connection reset');
  async function* llm() {
    yield 'Partial ';
    yield 'answer';
    throw boom;
  }
  const { textStream, done } = agent.turnStream('Tell me about Acme Corp', llm);
  const got = [];
  await assert.rejects(
    (async () => {
      for await (const c of textStream) got.push(c);
    })(),
    (e) => e === boom,
  );
  assert.deepEqual(got, ['Partial ', 'answer']);
  await assert.rejects(done, (e) => e === boom);

  const rows = Object.values(await storedMessages(cid));
  assert.deepEqual(rows.map((r) => [r.role, r.content]), [['user', 'Tell me about Acme Corp']], 'only the user message is stored');
});

test('turnStream: a host that only reads the stream gets no unhandled rejection when the turn fails', { timeout: 20_000 }, async () => {
  const unhandled = [];
  const onUnhandled = (reason) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    const agent = httpAgent(server, randomId('stream'));
    const { stream } = agent.turnStream('hello', async function* () {
      yield 'x';
      throw new Error('boom');
    });
    await assert.rejects(readAll(stream), /boom/);
    // Let any unhandled-rejection bookkeeping run.
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});

test('turnStream: bad input errors the streams and rejects done with INVALID_INPUT; nothing is sent', { timeout: 20_000 }, async () => {
  const before = server.counts();
  const agent = httpAgent(server, randomId('stream'));
  for (const [message, llm, opts] of [
    [42, () => 'x', undefined],
    ['hi', 'not a function', undefined],
    ['hi', () => 'x', { turnId: 'bad\u0000id' }],
    ['lone \uD800 surrogate', () => 'x', undefined],
  ]) {
    const { stream, done } = agent.turnStream(message, llm, opts);
    await assert.rejects(done, (e) => e.name === 'NeotomaError' && e.code === 'INVALID_INPUT');
    await assert.rejects(readAll(stream), (e) => e.code === 'INVALID_INPUT');
  }
  assert.deepEqual(server.counts(), before);
});

test('a streamed reply that is not text is refused and the producer is cancelled; no assistant stored', { timeout: 20_000 }, async () => {
  const cid = randomId('stream');
  const agent = httpAgent(server, cid);
  let finallyRan = false;
  async function* numbers() {
    try {
      yield 'fine ';
      yield 42;
      yield 'never read';
    } finally {
      finallyRan = true;
    }
  }
  await assert.rejects(agent.turn('hello', numbers), (e) => e.code === 'INVALID_INPUT' && /strings or Uint8Array/.test(e.message));
  assert.ok(finallyRan, 'the generator was closed (return())');

  let cancelled = null;
  const invalidUtf8 = () =>
    new ReadableStream({
      start(c) {
        c.enqueue(new Uint8Array([0x68, 0x69, 0xff]));
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
  const { done } = agent.turnStream('hello again', invalidUtf8);
  await assert.rejects(done, (e) => e.code === 'INVALID_INPUT' && /UTF-8/.test(e.message));
  assert.ok(cancelled !== null, 'the ReadableStream was cancelled');

  const index = await turnIndex(server, cid);
  assert.deepEqual(index.turns.map((t) => t.role), ['user', 'user']);
});

test('a streamed reply over maxMessageBytes is cut off as soon as it is known', { timeout: 20_000 }, async () => {
  const cid = randomId('stream');
  const agent = httpAgent(server, cid, { maxMessageBytes: 64 });
  let yielded = 0;
  async function* endless() {
    for (;;) {
      yielded += 1;
      yield 'ten bytes!';
    }
  }
  const { done } = agent.turnStream('hello', endless);
  await assert.rejects(done, (e) => e.code === 'INVALID_INPUT' && /maxMessageBytes/.test(e.message));
  assert.ok(yielded <= 8, `stopped reading after ${yielded} chunks`);
  const index = await turnIndex(server, cid);
  assert.deepEqual(index.turns.map((t) => t.role), ['user']);
});

test('agent.turn accepts a streamed reply and stores the concatenation; a plain reply streams as one chunk', { timeout: 20_000 }, async () => {
  const cid = randomId('stream');
  const agent = httpAgent(server, cid);
  const r1 = await agent.turn('What about Sarah Chen?', async function* () {
    yield 'Sarah Chen ';
    yield 'works at Acme Corp.';
  });
  assert.equal(r1.assistantMessage, 'Sarah Chen works at Acme Corp.');
  assert.deepEqual(r1.refersTo, [ids.sarah], 'cites what was retrieved for the message');

  const { textStream, done } = agent.turnStream('and then?', async () => ({ text: 'Nothing more.', refersTo: [ids.falcon] }));
  assert.deepEqual(await readAll(textStream), ['Nothing more.']);
  const r2 = await done;
  assert.equal(r2.turnNumber, 2);
  assert.deepEqual(r2.refersTo, [ids.falcon]);
  const rows = await storedMessages(cid);
  assert.equal(rows[`${cid}:${r1.turnId}:assistant`].content, 'Sarah Chen works at Acme Corp.');
  assert.equal(rows[`${cid}:${r2.turnId}:assistant`].content, 'Nothing more.');
});
