// Errors: the llm callback's own error comes back unchanged; transport failures carry a stable
// code (and status/body where there is one) and never the bearer token; bad input is rejected
// before anything is written.

import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';

import { NeotomaAgent } from 'neotoma-agent-wasm';
import { htmlErrorPage } from '../server/neotoma-server.mjs';
import {
  startTestServer,
  seedStandard,
  turnIndex,
  retrieve,
  graphState,
  randomId,
  randomToken,
  sleep,
  httpAgent,
} from '../server/harness.mjs';

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
  server.resetCounts();
});

/** Errors surface as they are: one attempt, no outbox (the defaults retry and keep writes). */
const STRICT = { retry: false, outbox: false };

/** Every textual view of an error a caller might log. */
function errorTexts(err) {
  let body;
  try {
    body = JSON.stringify(err.body);
  } catch {
    body = String(err.body);
  }
  return { string: String(err), message: String(err.message), body: String(body), stack: String(err.stack), json: JSON.stringify(err) ?? '' };
}

class MyErr extends Error {
  constructor(message) {
    super(message);
    this.name = 'MyErr';
    this.extra = { some: 'detail' };
  }
}

// ---------------------------------------------------------------- llm callback errors

for (const [label, make] of [
  ['thrown synchronously', (e) => () => { throw e; }],
  ['rejected asynchronously', (e) => async () => { await sleep(5); throw e; }],
]) {
  test(`the llm callback's own error (${label}) rejects the turn unchanged; the user message stays stored`, { timeout: 10_000 }, async () => {
    const cid = randomId('llm-err');
    const agent = httpAgent(server, cid);
    const mine = new MyErr('model exploded');
    await assert.rejects(agent.turn('Tell me about Acme Corp', make(mine), { turnId: 't1' }), (err) => {
      assert.equal(err, mine, 'the very same object');
      assert.ok(err instanceof MyErr);
      assert.equal(err.message, 'model exploded');
      assert.deepEqual(err.extra, { some: 'detail' });
      assert.equal(err.code, undefined, 'no code added to the caller\'s error');
      return true;
    });
    assert.equal(server.counts()['/store'], 1, 'only the user message was stored');
    const index = await turnIndex(server, cid);
    assert.equal(index.turns.length, 1);
    assert.equal(index.turns[0].role, 'user');
    assert.equal(index.turns[0].turn_key, `${cid}:t1`);
    const found = await retrieve(server, { identifier: `${cid}:t1`, entity_type: 'conversation_message', by: 'turn_key', limit: 10 });
    assert.deepEqual(found.entities.map((e) => e.snapshot.turn_key), [`${cid}:t1`], 'no assistant message');
  });
}

test('a thrown non-Error value (a string, an object) also comes back unchanged', { timeout: 10_000 }, async () => {
  const obj = { reason: 'quota' };
  await assert.rejects(httpAgent(server, randomId('llm-obj')).turn('hi', () => { throw obj; }), (err) => err === obj);
  await assert.rejects(httpAgent(server, randomId('llm-str')).turn('hi', () => Promise.reject('plain string')), (err) => err === 'plain string');
});

test('the turn can be retried after an llm error: the user side replays, the assistant is stored', { timeout: 10_000 }, async () => {
  const cid = randomId('llm-retry');
  const agent = httpAgent(server, cid);
  await assert.rejects(agent.turn('About Acme Corp', () => { throw new MyErr('transient'); }, { turnId: 't1' }));
  const r = await agent.turn('About Acme Corp', () => 'Acme Corp is fine.', { turnId: 't1' });
  assert.deepEqual(r.replayed, { user: true, assistant: false });
  assert.equal(r.turnNumber, 1);
  const index = await turnIndex(server, cid);
  assert.equal(index.turns.length, 2);
});

// ---------------------------------------------------------------- transport errors

test('wrong token: NEOTOMA_HTTP 401, and the token appears nowhere in the error', { timeout: 10_000 }, async () => {
  const wrong = randomToken();
  const agent = httpAgent(server, randomId('auth'), { transport: { token: wrong } });
  await assert.rejects(agent.turn('Tell me about Acme Corp', () => 'never'), (err) => {
    assert.ok(err instanceof Error, 'an Error object');
    assert.equal(err.code, 'NEOTOMA_HTTP');
    assert.equal(err.status, 401);
    assert.equal(err.body?.error_code, 'AUTH_INVALID');
    for (const [where, text] of Object.entries(errorTexts(err))) {
      assert.ok(!text.includes(wrong), `the wrong token leaks through ${where}`);
      assert.ok(!text.includes(server.token), `the server token leaks through ${where}`);
    }
    return true;
  });
  // nothing reached the store
  assert.equal(server.requests.filter((r) => r.path === '/store' && r.status === 200).length, 0);
});

test('server closed, no retry and no outbox: NEOTOMA_NETWORK', { timeout: 10_000 }, async () => {
  const gone = await startTestServer();
  const { url, token } = gone;
  await gone.close();
  const agent = httpAgent(server, randomId('net'), { transport: { baseUrl: url, token }, ...STRICT });
  await assert.rejects(agent.turn('Tell me about Acme Corp', () => 'never'), (err) => {
    assert.ok(err instanceof Error);
    assert.equal(err.code, 'NEOTOMA_NETWORK');
    for (const [where, text] of Object.entries(errorTexts(err))) assert.ok(!text.includes(token), `token leaks through ${where}`);
    return true;
  });
});

test('a /store slower than timeoutMs (no retry, no outbox): NEOTOMA_TIMEOUT in bounded time; a retry once the server committed replays', { timeout: 15_000 }, async () => {
  const cid = randomId('timeout');
  server.delay('/store', 4000, { times: 1 });
  const agent = httpAgent(server, cid, { transport: { timeoutMs: 300 }, ...STRICT });
  const t0 = performance.now();
  await assert.rejects(agent.turn('About Acme Corp', () => 'Acme Corp ok', { turnId: 't1' }), (err) => {
    assert.equal(err.code, 'NEOTOMA_TIMEOUT');
    assert.ok(!String(err.stack).includes(server.token));
    return true;
  });
  const elapsed = performance.now() - t0;
  assert.ok(elapsed < 3000, `timed out after ${elapsed.toFixed(0)} ms (timeoutMs 300, server delay 4000)`);
  // the server still handles the slow request (a real server would), so the retry is a replay
  await server.whenIdle();
  const r = await agent.turn('About Acme Corp', () => 'Acme Corp ok', { turnId: 't1' });
  assert.deepEqual(r.replayed, { user: true, assistant: false });
  assert.equal((await turnIndex(server, cid)).turns.length, 2);
});

test('a 400 HTML answer is an NEOTOMA_HTTP error whose body is the page text', { timeout: 10_000 }, async () => {
  const page = htmlErrorPage('SyntaxError: Unexpected token } in JSON at position 12');
  server.failNext('/store', 400, page);
  await assert.rejects(httpAgent(server, randomId('html')).turn('hello', () => 'never'), (err) => {
    assert.equal(err.code, 'NEOTOMA_HTTP');
    assert.equal(err.status, 400);
    assert.equal(typeof err.body, 'string');
    assert.equal(err.body, page);
    return true;
  });
});

test('other server errors carry status and parsed body (500 JSON, 413 HTML, 429 text; no outbox)', { timeout: 10_000 }, async () => {
  server.failNext('/store', 500, { error_code: 'DB_QUERY_FAILED', message: 'boom', timestamp: new Date().toISOString() });
  await assert.rejects(httpAgent(server, randomId('e500'), STRICT).turn('hello', () => 'never'), (err) => {
    assert.equal(err.code, 'NEOTOMA_HTTP');
    assert.equal(err.status, 500);
    assert.equal(err.body.error_code, 'DB_QUERY_FAILED');
    return true;
  });
  server.failNext('/store', 429, 'Write rate limit exceeded, please slow down', { headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '55' } });
  await assert.rejects(httpAgent(server, randomId('e429'), STRICT).turn('hello', () => 'never'), (err) => {
    assert.equal(err.code, 'NEOTOMA_HTTP');
    assert.equal(err.status, 429);
    assert.equal(err.body, 'Write rate limit exceeded, please slow down');
    return true;
  });
});

test('a real 413 from the server (body over its limit) is NEOTOMA_HTTP 413', { timeout: 10_000 }, async () => {
  const small = await startTestServer({ maxBodyBytes: 2048 });
  try {
    const agent = new NeotomaAgent({ conversationId: randomId('big'), transport: { baseUrl: small.url, token: small.token } });
    await assert.rejects(agent.turn('x'.repeat(4096), () => 'never'), (err) => {
      assert.equal(err.code, 'NEOTOMA_HTTP');
      assert.equal(err.status, 413);
      assert.equal(typeof err.body, 'string');
      assert.match(err.body, /PayloadTooLargeError/);
      return true;
    });
  } finally {
    await small.close();
  }
});

test('without an outbox, the assistant /store failing rejects the turn; the user message stays', { timeout: 10_000 }, async () => {
  const cid = randomId('assist-fail');
  server.failNext('/store', 503, { error_code: 'UNAVAILABLE', message: 'try later' }, { match: (b) => b?.entities?.[1]?.role === 'assistant' });
  await assert.rejects(httpAgent(server, cid, STRICT).turn('hello', () => 'hi'), (err) => err.code === 'NEOTOMA_HTTP' && err.status === 503);
  const index = await turnIndex(server, cid);
  assert.deepEqual(index.turns.map((t) => t.role), ['user']);
});

// ---------------------------------------------------------------- invalid input

const ok = () => 'never';
const cases = [
  ['empty conversationId', () => httpAgent(server, ''), 'hello', {}],
  ['blank conversationId', () => httpAgent(server, '   '), 'hello', {}],
  ['empty turnId', null, 'hello', { turnId: '' }],
  ['over-long turnId (1000 chars)', null, 'hello', { turnId: 't'.repeat(1000) }],
  ['non-string message (number)', null, 42, {}],
  ['non-string message (null)', null, null, {}],
  ['non-string message (undefined)', null, undefined, {}],
  ['non-string message (object)', null, { text: 'hello' }, {}],
  ['message over maxMessageBytes (bytes, not chars)', null, 'é'.repeat(51), {}],
  ['lone surrogate in the message', null, 'hello \uD800 Acme Corp', {}],
  ['lone low surrogate at the end', null, 'Acme Corp \uDC00', {}],
];

for (const [label, makeAgent, message, opts] of cases) {
  test(`INVALID_INPUT before anything is sent: ${label}`, { timeout: 10_000 }, async () => {
    let llmCalled = false;
    const run = async () => {
      // the constructor may throw synchronously (bad conversationId): inside async, that rejects
      const agent = makeAgent ? makeAgent() : httpAgent(server, randomId('bad'), { maxMessageBytes: 100 });
      return agent.turn(message, () => {
        llmCalled = true;
        return ok();
      }, opts);
    };
    await assert.rejects(run(), (err) => {
      assert.ok(err instanceof Error, `an Error, got ${err}`);
      assert.equal(err.code, 'INVALID_INPUT', `code for ${label}: ${err.code} ${err.message}`);
      return true;
    });
    assert.equal(llmCalled, false);
    assert.equal(server.counts()['/store'] ?? 0, 0, 'no /store request');
  });
}

test('a message of exactly maxMessageBytes is accepted', { timeout: 10_000 }, async () => {
  const r = await httpAgent(server, randomId('edge'), { maxMessageBytes: 100 }).turn('é'.repeat(50), () => 'ok');
  assert.ok(r.userMessageEntityId);
});

test('an invalid assistant reply (non-string, lone surrogate, too big) is INVALID_INPUT and no assistant store', { timeout: 10_000 }, async () => {
  for (const bad of [42, { text: 'x\uD800' }, 'y'.repeat(101)]) {
    server.resetCounts();
    const cid = randomId('bad-reply');
    await assert.rejects(httpAgent(server, cid, { maxMessageBytes: 100 }).turn('hello', () => bad), (err) => {
      assert.equal(err.code, 'INVALID_INPUT', `reply ${JSON.stringify(bad).slice(0, 40)}: ${err.code} ${err.message}`);
      return true;
    });
    assert.equal(server.counts()['/store'], 1, 'the user message only');
    const index = await turnIndex(server, cid);
    assert.deepEqual(index.turns.map((t) => t.role), ['user']);
  }
});

test('invalid input leaves the graph as it was', { timeout: 10_000 }, async () => {
  const cid = randomId('bad-graph');
  const agent = httpAgent(server, cid, { maxMessageBytes: 100 });
  await agent.turn('Tell me about Acme Corp', () => 'Acme Corp ok', { turnId: 't1' });
  const before = await graphState(server, cid, [ids.acme]);
  await assert.rejects(agent.turn('Tell me about Acme Corp \uD800', () => 'x', { turnId: 't2' }), (err) => err.code === 'INVALID_INPUT');
  await assert.rejects(agent.turn('Tell me about Acme Corp', () => 'x', { turnId: '' }), (err) => err.code === 'INVALID_INPUT');
  assert.deepEqual(await graphState(server, cid, [ids.acme]), before);
});

test('recordTurn checks both messages before writing anything', { timeout: 10_000 }, async () => {
  const agent = httpAgent(server, randomId('bad-record'));
  await assert.rejects(agent.recordTurn({ turnId: 'r1', userMessage: 'fine', assistantMessage: 'bad \uD800' }), (err) => err.code === 'INVALID_INPUT');
  await assert.rejects(agent.recordTurn({ turnId: 'r1', userMessage: 7, assistantMessage: 'fine' }), (err) => err.code === 'INVALID_INPUT');
  assert.equal(server.counts()['/store'] ?? 0, 0);
});

test('error messages say what happened and what to do', { timeout: 20_000 }, async () => {
  // an API response returned as it is: the message names what came back
  await assert.rejects(httpAgent(server, randomId('msg')).turn('hi', () => ({ choices: [{ message: { content: 'x' } }] })), (err) => {
    assert.equal(err.code, 'INVALID_INPUT');
    assert.match(err.message, /AsyncIterable/);
    assert.match(err.message, /keys \[choices\]/);
    return true;
  });
  // a refused connection says why (Node's fetch keeps it in the cause)
  const gone = await startTestServer();
  const { url } = gone;
  await gone.close();
  await assert.rejects(httpAgent(server, randomId('msg'), { transport: { baseUrl: url }, ...STRICT }).turn('hi', () => 'x'), (err) => {
    assert.equal(err.code, 'NEOTOMA_NETWORK');
    assert.match(err.message, /ECONNREFUSED/);
    return true;
  });
  // a reused turn id: the hint is about turn ids and revision, not keys
  const cid = randomId('msg');
  await httpAgent(server, cid).turn('first', () => 'one', { turnId: 't1' });
  await assert.rejects(httpAgent(server, cid, STRICT).turn('edited', () => 'two', { turnId: 't1' }), (err) => {
    assert.equal(err.code, 'IDEMPOTENCY_MISMATCH');
    assert.match(err.message, /new turnId/);
    assert.match(err.message, /revision/);
    return true;
  });
  // typos and misplaced options are named
  assert.throws(() => new NeotomaAgent({ conversationId: 'c', transport: { baseURL: server.url } }), (err) => err.code === 'INVALID_INPUT' && /baseURL/.test(err.message));
  assert.throws(() => new NeotomaAgent({ conversationId: 'c', transport: { baseUrl: undefined } }), (err) => err.code === 'INVALID_INPUT' && /baseUrl is required/.test(err.message));
  assert.throws(() => new NeotomaAgent({ conversationId: 'c', nextTurnId: () => 'a' }), (err) => err.code === 'INVALID_INPUT' && /nextTurnId/.test(err.message));
  await assert.rejects(httpAgent(server, randomId('msg')).turn('hi', () => 'x', 'turn-9'), (err) => err.code === 'INVALID_INPUT' && /turnId: /.test(err.message));
});
