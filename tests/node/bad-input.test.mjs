// The README's bad-input table, proved: one test per row (titled by the row id), each checking
// the outcome (a JS Error with its stable `code`, or the caller's own error object unchanged) and
// what was written (the conversation's graph before and after, and the write requests that
// reached the store). Over real HTTP to the local Neotoma-shaped server; a small fault server in
// front of it gives the answers that server cannot (no answer at all, an answer cut mid-body, an
// error answer that echoes the Authorization header). Rows marked TODO(bug) in the table are `todo`
// tests: they assert what should happen and fail (without failing the run) until it does.
// The last test checks that the table and these tests list the same row ids.

import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';

import {
  NeotomaAgent,
  EmbeddedStore,
  extractIdentifiers,
  idempotencyKey,
  withMemory,
  setDefaultOutboxStorage,
  createNeotomaProxy,
} from 'neotoma-agent-wasm';
import { htmlErrorPage } from '../server/neotoma-server.mjs';
import { startTestServer, seedStandard, graphState, turnIndex, randomId, randomToken, rejectionOf } from '../server/harness.mjs';

const README = new URL('../../README.md', import.meta.url);

let server; // the Neotoma-shaped test server
let fault; // the fault server in front of it

before(async () => {
  server = await startTestServer();
  await seedStandard(server); // Acme Corp, Project Falcon, Sarah Chen: what retrieval finds
  fault = await startFaultServer(server);
});

after(async () => {
  await fault?.close();
  await server?.close();
});

beforeEach(() => {
  server.clearFaults();
  server.resetCounts();
  fault.clear();
});

// ------------------------------------------------------------------------------------ rows

/** Row id -> how many tests claim it (the meta-test wants exactly one each). */
const rowTests = new Map();
/** Row ids whose test is a TODO(bug). */
const todoRows = new Set();

function row(id, title, fn, { todo } = {}) {
  rowTests.set(id, (rowTests.get(id) ?? 0) + 1);
  if (todo) todoRows.add(id);
  test(`${id} ${title}`, { timeout: 30_000, ...(todo ? { todo: `TODO(bug): ${todo}` } : {}) }, fn);
}

// ------------------------------------------------------------------------------------ helpers

/** Errors surface as they are: one attempt, no outbox. The defaults get rows of their own. */
const STRICT = { retry: false, outbox: false };
/** The default retry policy with short waits, for rows about retrying (not about the waits). */
const QUICK_RETRY = { maxAttempts: 4, initialDelayMs: 20, maxDelayMs: 100 };
const WRITE_PATHS = ['/store', '/create_relationships'];

function httpTransport(extra = {}) {
  return { baseUrl: server.url, token: server.token, timeoutMs: 5000, ...extra };
}

function agentFor(conversationId, options = {}) {
  return new NeotomaAgent({ conversationId, transport: httpTransport(), ...STRICT, ...options });
}

/** An LLM that must not be called, and whether it was. */
function untouchedLlm() {
  const llm = () => {
    llm.calls += 1;
    return 'never';
  };
  llm.calls = 0;
  return llm;
}

function thrownBy(fn) {
  try {
    fn();
  } catch (err) {
    return err;
  }
  assert.fail('expected a throw, got none');
}


/** Every textual view of an error a caller might log. */
function errorTexts(err) {
  const safe = (f) => {
    try {
      return String(f());
    } catch {
      return '';
    }
  };
  return {
    string: safe(() => String(err)),
    message: safe(() => err?.message),
    stack: safe(() => err?.stack),
    body: safe(() => (typeof err?.body === 'string' ? err.body : JSON.stringify(err?.body))),
    json: safe(() => JSON.stringify(err)),
    inspect: safe(() => inspect(err, { depth: 5 })),
  };
}

function assertNoToken(value, tokens = [server.token]) {
  for (const [where, text] of Object.entries(errorTexts(value))) {
    for (const token of tokens) {
      if (token) assert.ok(!text.includes(token), `the bearer token appears in the error's ${where}`);
    }
  }
}

/** A NeotomaError with `code`, which never carries the token. */
function assertCode(err, code, tokens) {
  assert.ok(err instanceof Error, `an Error, got ${inspect(err)}`);
  assert.equal(err.name, 'NeotomaError', `name of ${inspect(err)}`);
  assert.equal(err.code, code, `code ${err.code}: ${err.message}`);
  assertNoToken(err, tokens);
}

/** Write requests the store took: answered 2xx by the store (not by an injected fault). */
function writesReachingStore() {
  return server.requests.filter((r) => WRITE_PATHS.includes(r.path) && r.status >= 200 && r.status < 300 && !r.injected);
}

function assertNoRequest() {
  assert.deepEqual(server.requests.map((r) => r.path), [], 'no request reached the server');
}

/**
 * A conversation that already holds one stored turn (with a REFERS_TO edge to a seeded entity),
 * so "nothing was written" compares a real graph, not an empty one.
 */
async function conversation(options = {}, cid = randomId('bad')) {
  const agent = agentFor(cid, options);
  await agent.recordTurn({ turnId: 'seeded', userMessage: 'Tell me about Acme Corp', assistantMessage: 'Acme Corp is a company.' });
  const before = await graphState(server, cid);
  assert.equal(before.turns.length, 2);
  server.resetCounts();
  return {
    cid,
    agent,
    /** Nothing was written: no write reached the store and the graph is as it was. */
    async unchanged() {
      assert.deepEqual(writesReachingStore().map((r) => r.path), [], 'no write reached the store');
      assert.deepEqual(await graphState(server, cid), before, 'the graph is unchanged');
    },
    /** Only the user message of `turnIds` was written: no assistant message for them. */
    async userMessagesOnly(turnIds) {
      assert.equal(writesReachingStore().length, turnIds.length, 'one /store per turn: the user message');
      const rows = (await turnIndex(server, cid)).turns.map((t) => t.turn_key).sort();
      const expected = [`${cid}:seeded`, `${cid}:seeded:assistant`, ...turnIds.map((t) => `${cid}:${t}`)].sort();
      assert.deepEqual(rows, expected, 'the user messages only');
    },
    /** `turnIds` were stored whole (user and assistant). */
    async stored(turnIds) {
      const rows = (await turnIndex(server, cid)).turns.map((t) => t.turn_key).sort();
      const expected = [`${cid}:seeded`, `${cid}:seeded:assistant`, ...turnIds.flatMap((t) => [`${cid}:${t}`, `${cid}:${t}:assistant`])].sort();
      assert.deepEqual(rows, expected, 'both messages of each turn');
    },
  };
}

/** Reads a stream to its end; returns the error it ends with, and the chunks before it. */
async function streamOutcome(stream) {
  const reader = stream.getReader();
  const chunks = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { chunks, error: null };
      chunks.push(value);
    }
  } catch (error) {
    return { chunks, error };
  }
}

/** A turnStream whose `done` rejects: the error, checked to be the one both streams error with. */
async function turnStreamError(agent, message, llm, options) {
  const { stream, textStream, done } = agent.turnStream(message, llm, options);
  const [err, bytes, text] = await Promise.all([rejectionOf(done), streamOutcome(stream), streamOutcome(textStream)]);
  assert.equal(bytes.error, err, 'the byte stream errors with the same error');
  assert.equal(text.error, err, 'the text stream errors with the same error');
  return err;
}

class CallbackError extends Error {
  constructor(message) {
    super(message);
    this.name = 'CallbackError';
    this.detail = { kept: true };
  }
}

function assertSameObject(err, expected) {
  assert.equal(err, expected, `the very same object, got ${inspect(err)}`);
  assert.equal(err.code, undefined, 'no code added to the caller\'s error');
}

function storageRecordingCalls(overrides = {}) {
  const map = new Map();
  const calls = [];
  return {
    calls,
    map,
    get: (k) => (calls.push('get'), map.get(k)),
    put: (k, v) => (calls.push('put'), map.set(k, v)),
    delete: (k) => (calls.push('delete'), map.delete(k)),
    ...overrides,
  };
}

// ------------------------------------------------------------------------------------ fault server

/**
 * A node:http server in front of the test server: forwards every request unchanged, except on
 * the paths given a fault: 'hang' (never answers), 'cut' (forwards, then declares the answer's
 * full length and closes the connection halfway through it), 'echo' (a 401 whose text
 * repeats the request's Authorization header, as a misconfigured gateway might). Records the
 * path and Authorization header of every request it gets.
 */
async function startFaultServer(upstream) {
  const faults = new Map(); // path -> { kind, times }
  const seen = [];
  const sockets = new Set();
  const hung = new Set(); // answers held open by 'hang' since the last clear(), until the client closes
  const srv = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    const path = new URL(req.url, 'http://127.0.0.1').pathname;
    seen.push({ path, authorization: req.headers.authorization });
    const f = faults.get(path);
    const kind = f && f.times > 0 ? f.kind : null;
    if (f) f.times -= 1;
    if (kind === 'hang') {
      hung.add(res);
      res.on('close', () => hung.delete(res));
      return; // no answer: the connection stays open until the client gives up
    }
    if (kind === 'echo') {
      res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`Unauthorized. Authorization: ${req.headers.authorization}`);
      return;
    }
    const headers = { 'content-type': req.headers['content-type'] ?? 'application/json' };
    if (req.headers.authorization) headers.authorization = req.headers.authorization;
    const answer = await fetch(upstream.url + req.url, { method: req.method, headers, body: req.method === 'GET' ? undefined : body });
    const text = Buffer.from(await answer.arrayBuffer());
    if (kind === 'cut') {
      res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': String(text.length) });
      res.write(text.subarray(0, Math.floor(text.length / 2)), () => res.socket?.destroy());
      return;
    }
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(text);
  });
  srv.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    /** Requests held by 'hang' whose connection the client has not closed yet. */
    hungOpen: () => hung.size,
    set(path, kind, times = Infinity) {
      faults.set(path, { kind, times });
    },
    clear() {
      faults.clear();
      seen.length = 0;
      hung.clear();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => srv.close(resolve));
    },
  };
}

// ====================================================================================== NeotomaAgent options

row('B01', 'NeotomaAgent options that are not an object, or no string conversationId', async () => {
  for (const options of [undefined, null, 'support-42', 42, () => {}, {}, { conversationId: 42 }, { conversationId: ['c'] }, { transport: httpTransport() }]) {
    assertCode(thrownBy(() => new NeotomaAgent(options)), 'INVALID_INPUT');
  }
  assertNoRequest();
});

row('B02', 'conversationId empty or whitespace', async () => {
  for (const conversationId of ['', '   ', '\t\n', '\u00A0', '\u3000']) {
    assertCode(thrownBy(() => agentFor(conversationId)), 'INVALID_INPUT');
  }
  assertNoRequest();
});

row('B03', 'conversationId with a control character', async () => {
  for (const conversationId of ['a\nb', 'a\u0000b', 'a\u001bb', 'a\u007fb', 'a\u0085b']) {
    assertCode(thrownBy(() => agentFor(conversationId)), 'INVALID_INPUT');
  }
  assertNoRequest();
});

row('B04', 'conversationId over 256 UTF-8 bytes (256 is accepted)', async () => {
  for (const conversationId of ['x'.repeat(257), 'é'.repeat(129)]) {
    assertCode(thrownBy(() => agentFor(conversationId)), 'INVALID_INPUT');
  }
  assertNoRequest();
  // the limit itself works end to end
  const longest = `${randomId('max')}-`.padEnd(256, 'x');
  const r = await agentFor(longest).turn('hello', () => 'hi');
  assert.ok(r.userMessageEntityId && r.assistantMessageEntityId);
});

row('B05', 'conversationId with a lone UTF-16 surrogate', async () => {
  for (const conversationId of ['c\uD800', '\uDC00c', 'c\uDBFF']) {
    assertCode(thrownBy(() => agentFor(conversationId)), 'INVALID_INPUT');
  }
  assertNoRequest();
});

row('B06', 'conversationTitle / platform not a string, or with a lone surrogate', async () => {
  const conv = await conversation();
  for (const bad of [{ conversationTitle: 7 }, { conversationTitle: { text: 't' } }, { platform: true }, { conversationTitle: 'T\uD800' }, { platform: '\uDC00web' }]) {
    assertCode(thrownBy(() => agentFor(conv.cid, bad)), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B07', 'retrievalLimit / retrievalTimeoutMs not a non-negative number', async () => {
  const conv = await conversation();
  for (const key of ['retrievalLimit', 'retrievalTimeoutMs']) {
    for (const value of [-1, '8', NaN, Infinity, true, {}]) {
      assertCode(thrownBy(() => agentFor(conv.cid, { [key]: value })), 'INVALID_INPUT');
    }
  }
  await conv.unchanged();
});

row('B08', 'identifierExtractor not a function', async () => {
  const conv = await conversation();
  for (const identifierExtractor of ['default', {}, ['Acme Corp'], 42]) {
    assertCode(thrownBy(() => agentFor(conv.cid, { identifierExtractor })), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B09', 'identifierExtractor that throws: its own error, unchanged, before any write', async () => {
  const conv = await conversation();
  const mine = new CallbackError('extractor broke');
  const agent = agentFor(conv.cid, { identifierExtractor: () => { throw mine; } });
  const llm = untouchedLlm();
  assertSameObject(await rejectionOf(agent.turn('Tell me about Acme Corp', llm, { turnId: 't2' })), mine);
  assert.equal(llm.calls, 0);
  await conv.unchanged();
});

row('B10', 'identifierExtractor that returns a non-array (a string, a Set, a promise)', async () => {
  const conv = await conversation();
  for (const identifierExtractor of [() => 'Acme Corp', () => new Set(['Acme Corp']), async () => ['Acme Corp'], () => undefined]) {
    const llm = untouchedLlm();
    const agent = agentFor(conv.cid, { identifierExtractor });
    assertCode(await rejectionOf(agent.turn('Tell me about Acme Corp', llm, { turnId: 't2' })), 'INVALID_INPUT');
    assert.equal(llm.calls, 0);
  }
  await conv.unchanged();
});

row('B11', 'identifierExtractor array with non-strings / lone surrogates: those are skipped, the turn goes on', async () => {
  const conv = await conversation();
  const agent = agentFor(conv.cid, { identifierExtractor: () => [42, null, { name: 'x' }, 'Acme\uD800', 'Acme Corp'] });
  const r = await agent.turn('Tell me about Acme Corp', () => 'Acme Corp is fine.', { turnId: 't2' });
  const lookups = server.requests.filter((q) => q.path === '/retrieve_entity_by_identifier').map((q) => q.body.identifier);
  assert.deepEqual(lookups, ['Acme Corp'], 'only the string identifier was looked up');
  assert.equal(r.retrieved.length, 1);
  await conv.stored(['t2']);
});

row('B12', 'assistantRefersTo other than "cited" / "retrieved"', async () => {
  const conv = await conversation();
  for (const assistantRefersTo of ['all', 'Cited', 42, true]) {
    assertCode(thrownBy(() => agentFor(conv.cid, { assistantRefersTo })), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B13', 'maxMessageBytes below 1 or not a number', async () => {
  const conv = await conversation();
  for (const maxMessageBytes of [0, 0.5, -1, '1e6', NaN, Infinity]) {
    assertCode(thrownBy(() => agentFor(conv.cid, { maxMessageBytes })), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B14', 'llmTimeoutMs 0 or not a number', async () => {
  const conv = await conversation();
  for (const llmTimeoutMs of [0, 0.4, -1, '5000', NaN]) {
    assertCode(thrownBy(() => agentFor(conv.cid, { llmTimeoutMs })), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B15', 'retry of a bad shape', async () => {
  const conv = await conversation();
  for (const retry of [true, 'no', 0, { maxAttempts: 0 }, { maxAttempts: -1 }, { initialDelayMs: 'x' }, { maxDelayMs: NaN }, { maxElapsedMs: -5 }]) {
    assertCode(thrownBy(() => agentFor(conv.cid, { retry })), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B16', 'unknown option keys (typos) are refused', async () => {
  const conv = await conversation();
  const accepted = [];
  for (const [label, options] of [
    ['retry: { maxAtempts: 1 }', { retry: { maxAtempts: 1 } }],
    ['outBox: false', { outbox: undefined, outBox: false }],
    ['transport.timeoutMS', { transport: httpTransport({ timeoutMS: 100 }) }],
    ['retry: []', { retry: [] }],
  ]) {
    try {
      agentFor(conv.cid, options);
      accepted.push(label);
    } catch (err) {
      assertCode(err, 'INVALID_INPUT');
    }
  }
  await conv.unchanged();
  assert.deepEqual(accepted, [], `accepted silently (the key is ignored, the default applies): ${accepted.join('; ')}`);
});

row('B17', 'outbox of a bad shape', async () => {
  const conv = await conversation();
  for (const outbox of [true, 'memory', { get() {}, put() {} }, new Map(), [], 42]) {
    assertCode(thrownBy(() => agentFor(conv.cid, { outbox })), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B18', 'outbox storage whose put() throws, when a store fails: the send error, saying the write is kept nowhere', async () => {
  const conv = await conversation();
  const storage = storageRecordingCalls({ put: () => { throw new Error('disk full'); } });
  const agent = agentFor(conv.cid, { retry: false, outbox: storage });
  server.failNext('/store', 503, { error_code: 'UNAVAILABLE', message: 'try later' });
  const llm = untouchedLlm();
  const err = await rejectionOf(agent.turn('hello again', llm, { turnId: 't2' }));
  assertCode(err, 'NEOTOMA_HTTP');
  assert.equal(err.status, 503);
  assert.match(err.message, /keeping it in the outbox failed too: outbox storage put\(\) failed: disk full/);
  assert.equal(llm.calls, 0);
  assert.equal(storage.map.size, 0);
  await conv.unchanged();
});

row('B19', 'outbox storage whose get() throws or returns a non-string: stores still go; flush()/pendingWrites() reject OUTBOX_STORAGE', async () => {
  for (const get of [() => { throw new Error('unreadable'); }, () => 42]) {
    const conv = await conversation();
    const agent = agentFor(conv.cid, { retry: false, outbox: storageRecordingCalls({ get }) });
    const r = await agent.turn('hello again', () => 'hi', { turnId: 't2' });
    assert.deepEqual(r.pending, { user: false, assistant: false });
    await conv.stored(['t2']);
    assertCode(await rejectionOf(agent.flush()), 'OUTBOX_STORAGE');
    assertCode(await rejectionOf(agent.pendingWrites()), 'OUTBOX_STORAGE');
  }
});

row('B20', 'onEvent not a function', async () => {
  const conv = await conversation();
  for (const onEvent of ['log', {}, true, 42]) {
    assertCode(thrownBy(() => agentFor(conv.cid, { onEvent })), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B21', 'onEvent listener that throws: ignored, the turn goes on', async () => {
  const conv = await conversation();
  const events = [];
  const agent = agentFor(conv.cid, {
    retry: QUICK_RETRY,
    onEvent: (e) => {
      events.push(e.type);
      throw new Error('listener failed');
    },
  });
  server.failNext('/store', 503, { error_code: 'UNAVAILABLE', message: 'try later' });
  const r = await agent.turn('hello again', () => 'hi', { turnId: 't2' });
  assert.deepEqual(events, ['retry'], 'the listener was called');
  assert.deepEqual(r.pending, { user: false, assistant: false });
  await conv.stored(['t2']);
});

row('B22', 'onEvent async listener that rejects: no unhandled rejection', async () => {
  const conv = await conversation();
  const unhandled = [];
  const onUnhandled = (reason) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    const agent = agentFor(conv.cid, { retry: QUICK_RETRY, onEvent: async () => { throw new Error('async listener failed'); } });
    server.failNext('/store', 503, { error_code: 'UNAVAILABLE', message: 'try later' });
    await agent.turn('hello again', () => 'hi', { turnId: 't2' });
    await new Promise((resolve) => setImmediate(resolve));
    await conv.stored(['t2']);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
  assert.deepEqual(unhandled.map(String), [], 'the promise the listener returned is left rejected and unhandled (Node exits on that by default)');
});

// ====================================================================================== transport

row('B23', 'transport of a bad shape', async () => {
  const conv = await conversation();
  const fn = () => ({});
  for (const transport of [server.url, 42, {}, { token: server.token }, { baseUrl: 42, token: server.token }, { store: fn }, { store: fn, retrieveEntityByIdentifier: 'x', createRelationships: fn }]) {
    assertCode(thrownBy(() => agentFor(conv.cid, { transport })), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B24', 'transport.baseUrl that is not an http(s) URL or a same-origin path', async () => {
  const conv = await conversation();
  for (const baseUrl of ['ftp://127.0.0.1', 'file:///etc/passwd', 'javascript:alert(1)', 'ws://127.0.0.1:3080', '//evil.example/x', 'neotoma', '', '   ', 'https://', 'http://', 'http:/127.0.0.1']) {
    assertCode(thrownBy(() => agentFor(conv.cid, { transport: httpTransport({ baseUrl }) })), 'INVALID_INPUT');
    // allowInsecureHttp only concerns plain http
    assertCode(thrownBy(() => agentFor(conv.cid, { transport: httpTransport({ baseUrl, allowInsecureHttp: true }) })), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B25', 'transport.baseUrl plain http to a host that is not this machine', async () => {
  const conv = await conversation();
  for (const baseUrl of [
    'http://10.0.0.5:3080',
    'http://neotoma.example.com',
    'http://127.0.0.1.evil.example',
    'http://127.0.0.1@evil.example',
    'http://localhost.evil.example',
    `http://0.0.0.0:${server.port}`,
  ]) {
    const err = thrownBy(() => agentFor(conv.cid, { transport: httpTransport({ baseUrl }) }));
    assertCode(err, 'INVALID_INPUT');
    assert.match(err.message, /allowInsecureHttp|no host|http\(s\)/);
  }
  // https anywhere, plain http to loopback, and same-origin paths are accepted
  for (const baseUrl of ['https://neotoma.example.com', `http://localhost:${server.port}`, `http://[::1]:${server.port}`, '/neotoma']) {
    agentFor(conv.cid, { transport: httpTransport({ baseUrl }) });
  }
  await conv.unchanged();
});

row('B26', 'transport.allowInsecureHttp: true allows plain http elsewhere; a non-boolean is refused', async () => {
  const conv = await conversation();
  for (const allowInsecureHttp of ['yes', 1, {}]) {
    assertCode(thrownBy(() => agentFor(conv.cid, { transport: httpTransport({ allowInsecureHttp }) })), 'INVALID_INPUT');
  }
  await conv.unchanged();
  // 0.0.0.0 is refused without the flag (B25); with it the turn goes through (to this machine)
  const agent = agentFor(conv.cid, { transport: httpTransport({ baseUrl: `http://0.0.0.0:${server.port}`, allowInsecureHttp: true }) });
  await agent.turn('hello again', () => 'hi', { turnId: 't2' });
  await conv.stored(['t2']);
});

row('B27', 'transport.baseUrl whose host the check and fetch read differently (backslash before @)', async () => {
  const conv = await conversation();
  // The check reads the host after the last "@" (127.0.0.1: loopback); the WHATWG URL parser
  // treats "\" as "/" in http URLs, so fetch connects to the host before it (0.0.0.0, which the
  // check refuses on its own, B25). 0.0.0.0 keeps this test on this machine; "evil.example"
  // in its place would get the token in clear text.
  const baseUrl = `http://0.0.0.0:${fault.port}\\@127.0.0.1:${server.port}`;
  let agent;
  try {
    agent = agentFor(conv.cid, { transport: httpTransport({ baseUrl }) });
  } catch (err) {
    assertCode(err, 'INVALID_INPUT');
    await conv.unchanged();
    return;
  }
  await agent.turn('hello again', () => 'hi', { turnId: 't2' }).catch(() => {});
  const sent = fault.seen.filter((r) => r.authorization === `Bearer ${server.token}`).map((r) => r.path);
  await conv.unchanged();
  assert.fail(`accepted as loopback; fetch sent ${sent.length} requests (${[...new Set(sent)].join(', ')}) with the bearer token to http://0.0.0.0:${fault.port}`);
});

row('B28', 'transport.token with control characters, non-ASCII, empty, or not a string (the error does not repeat it)', async () => {
  const conv = await conversation();
  const secret = randomToken();
  for (const token of [`${secret}\n`, `${secret}\r\nX-Evil: 1`, `${secret}ö`, `${secret}\u0000`, '', 42, `${secret}\uD800`]) {
    const err = thrownBy(() => agentFor(conv.cid, { transport: httpTransport({ token }) }));
    assertCode(err, 'INVALID_INPUT', [secret, server.token]);
  }
  await conv.unchanged();
});

row('B29', 'transport.timeoutMs 0, negative, or not a number', async () => {
  const conv = await conversation();
  for (const timeoutMs of [0, -1, 0.5, '100', NaN]) {
    assertCode(thrownBy(() => agentFor(conv.cid, { transport: httpTransport({ timeoutMs }) })), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

/** A custom transport that looks things up on the test server over HTTP; `store` as given. */
function customTransport(store) {
  const post = async (path, body) => {
    const res = await fetch(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}` },
      body: JSON.stringify(body),
    });
    return res.json();
  };
  return {
    retrieveEntityByIdentifier: (body) => post('/retrieve_entity_by_identifier', body),
    store,
    createRelationships: (body) => post('/create_relationships', body),
  };
}

row('B30', 'custom transport whose store() throws or rejects: its own error, unchanged; not retried, not kept (defaults)', async () => {
  const conv = await conversation();
  const mine = new CallbackError('transport down');
  for (const store of [() => { throw mine; }, async () => { throw mine; }]) {
    let calls = 0;
    const agent = new NeotomaAgent({ conversationId: conv.cid, transport: customTransport((...a) => (calls++, store(...a))) });
    const llm = untouchedLlm();
    assertSameObject(await rejectionOf(agent.turn('Tell me about Acme Corp', llm, { turnId: 't2' })), mine);
    assert.equal(calls, 1, 'not retried');
    assert.equal(llm.calls, 0);
    assert.deepEqual(await agent.pendingWrites(), [], 'not kept in the outbox');
  }
  await conv.unchanged();
  // a throwing lookup only skips that lookup
  const transport = customTransport(async (body) => (await fetch(server.url + '/store', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}` },
    body: JSON.stringify(body),
  })).json());
  transport.retrieveEntityByIdentifier = () => { throw mine; };
  const r = await new NeotomaAgent({ conversationId: conv.cid, transport }).turn('Tell me about Acme Corp', () => 'Acme Corp is fine.', { turnId: 't2' });
  assert.deepEqual(r.retrieved, []);
  await conv.stored(['t2']);
});

row('B31', 'custom transport whose store() resolves to something that is not a store answer', async () => {
  const conv = await conversation();
  for (const answer of ['ok', {}, { entities: 'x' }, () => 1]) {
    let calls = 0;
    const agent = new NeotomaAgent({ conversationId: conv.cid, transport: customTransport(() => (calls++, answer)), retry: QUICK_RETRY });
    const llm = untouchedLlm();
    assertCode(await rejectionOf(agent.turn('hello again', llm, { turnId: 't2' })), 'NEOTOMA_INVALID_RESPONSE');
    assert.equal(calls, QUICK_RETRY.maxAttempts, 'retried: an unreadable answer may follow a write');
    assert.equal(llm.calls, 0);
    assert.deepEqual(await agent.pendingWrites(), [], 'not kept in the outbox');
  }
  await conv.unchanged();
});

// ====================================================================================== turn / turnStream

row('B32', 'turn/turnStream userMessage not a string', async () => {
  const conv = await conversation();
  for (const message of [42, null, undefined, { text: 'hi' }, ['hi'], new String('hi')]) {
    const llm = untouchedLlm();
    assertCode(await rejectionOf(conv.agent.turn(message, llm)), 'INVALID_INPUT');
    assertCode(await turnStreamError(conv.agent, message, llm), 'INVALID_INPUT');
    assert.equal(llm.calls, 0);
  }
  await conv.unchanged();
});

row('B33', 'userMessage over maxMessageBytes (UTF-8 bytes, not characters)', async () => {
  const conv = await conversation();
  const agent = agentFor(conv.cid, { maxMessageBytes: 100 });
  const llm = untouchedLlm();
  for (const message of ['é'.repeat(51), 'x'.repeat(101)]) {
    assertCode(await rejectionOf(agent.turn(message, llm)), 'INVALID_INPUT');
    assertCode(await turnStreamError(agent, message, llm), 'INVALID_INPUT');
  }
  assert.equal(llm.calls, 0);
  await conv.unchanged();
});

row('B34', 'userMessage with a lone UTF-16 surrogate', async () => {
  const conv = await conversation();
  const llm = untouchedLlm();
  for (const message of ['hello \uD800 Acme Corp', 'Acme Corp \uDC00', '\uDBFF']) {
    assertCode(await rejectionOf(conv.agent.turn(message, llm)), 'INVALID_INPUT');
    assertCode(await turnStreamError(conv.agent, message, llm), 'INVALID_INPUT');
  }
  assert.equal(llm.calls, 0);
  await conv.unchanged();
});

row('B35', 'turn/turnStream llm not a function', async () => {
  const conv = await conversation();
  for (const llm of [undefined, 'gpt-4', { reply: () => 'x' }, 42]) {
    assertCode(await rejectionOf(conv.agent.turn('hello', llm)), 'INVALID_INPUT');
    assertCode(await turnStreamError(conv.agent, 'hello', llm), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B36', 'turnId empty, whitespace, control characters, over 256 bytes, lone surrogate, not a string (every method)', async () => {
  const conv = await conversation();
  const llm = untouchedLlm();
  for (const turnId of ['', '   ', 'a\nb', '\u0000', 't'.repeat(257), 'é'.repeat(129), 't\uD800', 42, { id: 't' }]) {
    assertCode(await rejectionOf(conv.agent.turn('hello', llm, { turnId })), 'INVALID_INPUT');
    assertCode(await turnStreamError(conv.agent, 'hello', llm, { turnId }), 'INVALID_INPUT');
    assertCode(await rejectionOf(conv.agent.openTurn({ turnId, userMessage: 'hello' })), 'INVALID_INPUT');
    assertCode(await rejectionOf(conv.agent.closeTurn({ turnId, assistantMessage: 'hi' })), 'INVALID_INPUT');
    assertCode(await rejectionOf(conv.agent.recordTurn({ turnId, userMessage: 'hello', assistantMessage: 'hi' })), 'INVALID_INPUT');
  }
  assert.equal(llm.calls, 0);
  await conv.unchanged();
});

row('B37', "a conversation or turn id containing ':' (turn keys join ids with ':')", async () => {
  // Turn keys are `{conversationId}:{turnId}`: conversation "X" turn "y:z" and conversation
  // "X:y" turn "z" would name the same message, so ':' is refused in both ids.
  const conv = await conversation();
  assertCode(thrownBy(() => agentFor(`${conv.cid}:y`)), 'INVALID_INPUT');
  for (const turnId of ['y:z', ':', 'z:']) {
    const llm = untouchedLlm();
    assertCode(await rejectionOf(conv.agent.turn('hello again', llm, { turnId })), 'INVALID_INPUT');
    assertCode(await rejectionOf(conv.agent.recordTurn({ turnId, userMessage: 'a', assistantMessage: 'b' })), 'INVALID_INPUT');
    assert.equal(llm.calls, 0);
  }
  await conv.unchanged();
});

row('B38', "turnId whose idempotency key is another conversation's (ids joined with '-'): IDEMPOTENCY_MISMATCH, nothing written", async () => {
  // `conversation-{cid}-{tid}-user-turn`: ("Q-b", "c") and ("Q", "b-c") give the same key.
  const cid = randomId('dash');
  await agentFor(`${cid}-b`).recordTurn({ turnId: 'c', userMessage: 'same text', assistantMessage: 'same reply' });
  const neighbourBefore = await graphState(server, `${cid}-b`);
  const conv = await conversation({}, cid);
  const llm = untouchedLlm();
  const err = await rejectionOf(conv.agent.turn('same text', llm, { turnId: 'b-c' }));
  assertCode(err, 'IDEMPOTENCY_MISMATCH');
  assert.equal(err.status, 400);
  assert.equal(llm.calls, 0);
  await conv.unchanged();
  assert.deepEqual(await graphState(server, `${cid}-b`), neighbourBefore);
});

row('B39', 'turnNumber not a positive integer (every method)', async () => {
  const conv = await conversation();
  const llm = untouchedLlm();
  for (const turnNumber of [0, -1, 1.5, '1', NaN, Infinity, 2 ** 32, true]) {
    assertCode(await rejectionOf(conv.agent.turn('hello', llm, { turnNumber })), 'INVALID_INPUT');
    assertCode(await turnStreamError(conv.agent, 'hello', llm, { turnNumber }), 'INVALID_INPUT');
    assertCode(await rejectionOf(conv.agent.openTurn({ turnNumber, userMessage: 'hello' })), 'INVALID_INPUT');
    assertCode(await rejectionOf(conv.agent.closeTurn({ turnId: 't2', turnNumber, assistantMessage: 'hi' })), 'INVALID_INPUT');
    assertCode(await rejectionOf(conv.agent.recordTurn({ turnNumber, userMessage: 'hello', assistantMessage: 'hi' })), 'INVALID_INPUT');
  }
  assert.equal(llm.calls, 0);
  await conv.unchanged();
});

row('B40', 'revision not a positive integer (turn, turnStream, closeTurn)', async () => {
  const conv = await conversation();
  const llm = untouchedLlm();
  for (const revision of [0, -2, 1.5, '2', NaN]) {
    assertCode(await rejectionOf(conv.agent.turn('hello', llm, { turnId: 't2', revision })), 'INVALID_INPUT');
    assertCode(await turnStreamError(conv.agent, 'hello', llm, { turnId: 't2', revision }), 'INVALID_INPUT');
    assertCode(await rejectionOf(conv.agent.closeTurn({ turnId: 'seeded', assistantMessage: 'regenerated', revision })), 'INVALID_INPUT');
  }
  assert.equal(llm.calls, 0);
  await conv.unchanged();
});

row('B41', 'turn/turnStream options that are not an object', async () => {
  const conv = await conversation();
  const accepted = [];
  for (const options of ['t2', 7, true]) {
    try {
      const r = await conv.agent.turn('hello again', () => 'hi', options);
      accepted.push(`${JSON.stringify(options)} -> stored as turn ${r.turnId}`);
    } catch (err) {
      assertCode(err, 'INVALID_INPUT');
    }
  }
  assert.deepEqual(accepted, [], `ignored, a random turn id used (a replay of the same call would store the turn twice): ${accepted.join('; ')}`);
  await conv.unchanged();
});

row('B42', 'a turnId stored before, with different content: IDEMPOTENCY_MISMATCH, nothing changed (defaults)', async () => {
  const conv = await conversation();
  const agent = new NeotomaAgent({ conversationId: conv.cid, transport: httpTransport() });
  const llm = untouchedLlm();
  const err = await rejectionOf(agent.turn('Tell me about something else', llm, { turnId: 'seeded' }));
  assertCode(err, 'IDEMPOTENCY_MISMATCH');
  assert.equal(err.status, 400);
  assert.equal(llm.calls, 0);
  assert.deepEqual(await agent.pendingWrites(), [], 'not kept in the outbox');
  await conv.unchanged();
});

// ====================================================================================== the LLM callback

/** Runs `llm` in turns t2, t3, … of a fresh conversation; each must reject as `check` says. */
async function llmRows(replies, check, options = {}) {
  const conv = await conversation();
  const agent = agentFor(conv.cid, options);
  const turnIds = [];
  for (const [i, llm] of replies.entries()) {
    const turnId = `t${i + 2}`;
    turnIds.push(turnId);
    await check(await rejectionOf(agent.turn('hello again', llm, { turnId })), i);
  }
  await conv.userMessagesOnly(turnIds);
  return conv;
}

row('B43', 'llm reply that is not a string or { text, refersTo? }: the user message only', async () => {
  const replies = [42, null, undefined, true, {}, { text: 42 }, { reply: 'x' }, { text: 'x', refersTo: 'ent_1' }, { text: 'x', refersTo: [42] }, { text: 'x', refersTo: [''] }, { text: 'x', refersTo: [{ name: 'Acme' }] }];
  await llmRows(replies.map((r) => () => r), (err) => assertCode(err, 'INVALID_INPUT'));
});

row('B44', 'llm reply with a lone UTF-16 surrogate', async () => {
  await llmRows([() => 'x\uD800', async () => ({ text: '\uDC00 reply' }), () => ({ text: 'ok', refersTo: ['ent_\uD800'] })], (err) => assertCode(err, 'INVALID_INPUT'));
});

row('B45', 'llm reply over maxMessageBytes', async () => {
  await llmRows([() => 'y'.repeat(101), async () => ({ text: 'é'.repeat(51) })], (err) => assertCode(err, 'INVALID_INPUT'), { maxMessageBytes: 100 });
});

row('B46', "llm callback that throws: the callback's own error, unchanged", async () => {
  const mine = new CallbackError('model exploded');
  const values = [mine, 'a plain string', { reason: 'quota' }];
  await llmRows(values.map((v) => () => { throw v; }), (err, i) => assert.equal(err, values[i], 'the very same value'));
});

row('B47', "llm callback that rejects: the callback's own error, unchanged", async () => {
  const mine = new CallbackError('model rejected');
  const values = [mine, 'a plain string'];
  await llmRows(values.map((v) => () => Promise.reject(v)), (err, i) => assert.equal(err, values[i], 'the very same value'));
  // turnStream: done and both streams carry it
  const conv = await conversation();
  assertSameObject(await turnStreamError(conv.agent, 'hello again', async () => { throw mine; }, { turnId: 't2' }), mine);
  await conv.userMessagesOnly(['t2']);
});

row('B48', 'llm callback that never settles: LLM_TIMEOUT after llmTimeoutMs', async () => {
  await llmRows([() => new Promise(() => {})], (err) => assertCode(err, 'LLM_TIMEOUT'), { llmTimeoutMs: 200 });
  const conv = await conversation({ llmTimeoutMs: 200 });
  assertCode(await turnStreamError(conv.agent, 'hello again', () => new Promise(() => {}), { turnId: 't2' }), 'LLM_TIMEOUT');
  await conv.userMessagesOnly(['t2']);
});

row('B49', 'llm stream yielding something other than strings or Uint8Array', async () => {
  const conv = await conversation();
  const sources = [
    async function* () { yield 'ok '; yield 42; },
    async function* () { yield { text: 'x' }; },
    () => new ReadableStream({ start(c) { c.enqueue('ok '); c.enqueue(null); c.close(); } }),
  ];
  const turnIds = [];
  for (const [i, source] of sources.entries()) {
    const turnId = `t${i + 2}`;
    turnIds.push(turnId);
    assertCode(await turnStreamError(conv.agent, 'hello again', source, { turnId }), 'INVALID_INPUT');
  }
  assertCode(await rejectionOf(conv.agent.turn('hello again', sources[0], { turnId: 't9' })), 'INVALID_INPUT');
  await conv.userMessagesOnly([...turnIds, 't9']);
});

row('B50', 'llm stream yielding bytes that are not UTF-8 (invalid, or cut mid-character)', async () => {
  const conv = await conversation();
  const bytes = (...chunks) => () => new ReadableStream({ start(c) { for (const b of chunks) c.enqueue(new Uint8Array(b)); c.close(); } });
  const sources = [bytes([0x6f, 0x6b], [0xff, 0xfe]), bytes([0xe2, 0x82])];
  for (const [i, source] of sources.entries()) {
    assertCode(await turnStreamError(conv.agent, 'hello again', source, { turnId: `t${i + 2}` }), 'INVALID_INPUT');
  }
  await conv.userMessagesOnly(['t2', 't3']);
});

row('B51', "llm stream that errors midway: the stream's own error, unchanged", async () => {
  const conv = await conversation();
  const mine = new CallbackError('stream broke');
  const sources = [
    async function* () { yield 'partial '; throw mine; },
    () => new ReadableStream({ start(c) { c.enqueue('partial '); c.error(mine); } }),
  ];
  for (const [i, source] of sources.entries()) {
    assertSameObject(await turnStreamError(conv.agent, 'hello again', source, { turnId: `t${i + 2}` }), mine);
  }
  await conv.userMessagesOnly(['t2', 't3']);
});

row('B52', 'llm stream that never ends: LLM_TIMEOUT after llmTimeoutMs', async () => {
  const conv = await conversation({ llmTimeoutMs: 200 });
  const source = async function* () { yield 'partial '; await new Promise(() => {}); };
  assertCode(await turnStreamError(conv.agent, 'hello again', source, { turnId: 't2' }), 'LLM_TIMEOUT');
  await conv.userMessagesOnly(['t2']);
});

row('B53', 'llm stream longer than maxMessageBytes: cut off as soon as it is over', async () => {
  const conv = await conversation({ maxMessageBytes: 100 });
  let stopped = false;
  const endless = async function* () {
    try {
      for (;;) yield 'x'.repeat(30);
    } finally {
      stopped = true;
    }
  };
  assertCode(await turnStreamError(conv.agent, 'hello again', endless, { turnId: 't2' }), 'INVALID_INPUT');
  assert.ok(stopped, 'the producer was told to stop');
  await conv.userMessagesOnly(['t2']);
});

// ====================================================================================== openTurn / closeTurn / recordTurn

row('B54', 'openTurn input not an object, userMessage missing or not a string', async () => {
  const conv = await conversation();
  for (const input of [undefined, 'hello', {}, { userMessage: 42 }, { userMessage: 'x\uD800' }, { turnId: 't2' }]) {
    assertCode(await rejectionOf(conv.agent.openTurn(input)), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B55', 'userMessageExtra / assistantMessageExtra not a plain object', async () => {
  const conv = await conversation();
  for (const extra of [[], 'x', 42, true, [{ a: 1 }]]) {
    assertCode(await rejectionOf(conv.agent.openTurn({ turnId: 't2', userMessage: 'hello', userMessageExtra: extra })), 'INVALID_INPUT');
    assertCode(await rejectionOf(conv.agent.closeTurn({ turnId: 't2', assistantMessage: 'hi', assistantMessageExtra: extra })), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B56', '*Extra fields that would overwrite protocol fields', async () => {
  const conv = await conversation();
  for (const key of ['entity_type', 'role', 'sender_kind', 'content', 'turn_key', 'turn_number']) {
    const extra = { [key]: key === 'turn_number' ? 99 : 'forged' };
    const e1 = await rejectionOf(conv.agent.openTurn({ turnId: 't2', userMessage: 'hello', userMessageExtra: extra }));
    assertCode(e1, 'INVALID_INPUT');
    assert.match(e1.message, new RegExp(key));
    assertCode(await rejectionOf(conv.agent.closeTurn({ turnId: 'seeded', assistantMessage: 'Acme Corp is a company.', assistantMessageExtra: extra })), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B57', '*Extra with a lone UTF-16 surrogate (in a key or a nested value)', async () => {
  const conv = await conversation();
  for (const extra of [{ note: 'x\uD800' }, { ['k\uDC00']: 1 }, { nested: { deep: ['\uD800'] } }]) {
    assertCode(await rejectionOf(conv.agent.openTurn({ turnId: 't2', userMessage: 'hello', userMessageExtra: extra })), 'INVALID_INPUT');
    assertCode(await rejectionOf(conv.agent.closeTurn({ turnId: 't2', assistantMessage: 'hi', assistantMessageExtra: extra })), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B58', '*Extra with values JSON cannot hold (Date, NaN, Infinity, Map)', async () => {
  const conv = await conversation();
  const accepted = [];
  for (const [label, value] of [['Date', new Date(0)], ['NaN', NaN], ['Infinity', Infinity], ['Map', new Map([['a', 1]])]]) {
    server.resetCounts();
    try {
      await conv.agent.openTurn({ turnId: `extra-${label}`, userMessage: 'hello', userMessageExtra: { value } });
      const sent = server.requests.find((r) => r.path === '/store')?.body?.entities?.[1];
      accepted.push(`${label} sent as ${sent && 'value' in sent ? JSON.stringify(sent.value) : '(dropped)'}`);
    } catch (err) {
      assertCode(err, 'INVALID_INPUT');
    }
  }
  assert.deepEqual(accepted, [], `accepted and silently changed: ${accepted.join('; ')}`);
});

row('B59', 'closeTurn without a turnId, or assistantMessage missing / not a string / over the limit / lone surrogate', async () => {
  const conv = await conversation({ maxMessageBytes: 100 });
  for (const input of [undefined, 'hi', { assistantMessage: 'hi' }, { turnId: 't2' }, { turnId: 't2', assistantMessage: 42 }, { turnId: 't2', assistantMessage: 'y'.repeat(101) }, { turnId: 't2', assistantMessage: 'hi \uD800' }]) {
    assertCode(await rejectionOf(conv.agent.closeTurn(input)), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B60', 'refersTo not an array of entity ids (closeTurn, recordTurn)', async () => {
  const conv = await conversation();
  for (const refersTo of ['ent_1', [42], [''], ['   '], [{ id: '' }], [{ name: 'Acme' }], [null], ['ent_\uD800'], { 0: 'ent_1' }]) {
    assertCode(await rejectionOf(conv.agent.closeTurn({ turnId: 't2', assistantMessage: 'hi', refersTo })), 'INVALID_INPUT');
    assertCode(await rejectionOf(conv.agent.recordTurn({ turnId: 't2', userMessage: 'hello', assistantMessage: 'hi', refersTo })), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B61', 'recordTurn with a bad assistantMessage: refused before the user message is written', async () => {
  const conv = await conversation({ maxMessageBytes: 100 });
  for (const input of [{ userMessage: 'fine' }, { userMessage: 'fine', assistantMessage: 42 }, { userMessage: 'fine', assistantMessage: 'bad \uD800' }, { userMessage: 'fine', assistantMessage: 'y'.repeat(101) }, { userMessage: 7, assistantMessage: 'fine' }]) {
    assertCode(await rejectionOf(conv.agent.recordTurn({ turnId: 't2', ...input })), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

// ====================================================================================== withMemory, free functions

row('B62', 'withMemory with agentFn / nextTurnId not a function, or bad options', async () => {
  for (const [agentFn, options] of [[42, { conversationId: randomId('wm') }], [() => 'x', { conversationId: randomId('wm'), nextTurnId: 't1' }], [() => 'x', { conversationId: '' }], [() => 'x', undefined]]) {
    assertCode(thrownBy(() => withMemory(agentFn, options)), 'INVALID_INPUT');
  }
  assertNoRequest();
});

row('B63', 'withMemory: nextTurnId returning a bad id or throwing, a message that is not a string', async () => {
  const conv = await conversation();
  const mine = new CallbackError('no id');
  const llm = untouchedLlm();
  for (const nextTurnId of [() => 5, () => '', () => 'a\nb']) {
    const chat = withMemory(llm, { conversationId: conv.cid, transport: httpTransport(), ...STRICT, nextTurnId });
    assertCode(await rejectionOf(chat('hello')), 'INVALID_INPUT');
  }
  const throwing = withMemory(llm, { conversationId: conv.cid, transport: httpTransport(), ...STRICT, nextTurnId: () => { throw mine; } });
  assertSameObject(await rejectionOf(throwing('hello')), mine);
  const chat = withMemory(llm, { conversationId: conv.cid, transport: httpTransport(), ...STRICT });
  for (const message of [42, undefined, 'x\uD800']) assertCode(await rejectionOf(chat(message)), 'INVALID_INPUT');
  assert.equal(llm.calls, 0);
  await conv.unchanged();
});

row('B64', 'extractIdentifiers with a non-string or a lone surrogate', async () => {
  for (const text of [42, undefined, null, { text: 'Acme' }, 'Acme \uD800']) {
    assertCode(thrownBy(() => extractIdentifiers(text)), 'INVALID_INPUT');
  }
});

row('B65', 'idempotencyKey with bad ids or a role other than "user" / "assistant"', async () => {
  for (const args of [['', 't', 'user'], ['c', 'a\nb', 'user'], ['c', 't'.repeat(257), 'user'], ['c', 't', 'system'], ['c', 't'], [42, 't', 'user'], ['c\uD800', 't', 'user'], ['c', 't', 'User']]) {
    assertCode(thrownBy(() => idempotencyKey(...args)), 'INVALID_INPUT');
  }
});

row('B66', 'setDefaultOutboxStorage of a bad shape: refused, the default stays', async () => {
  const bad = storageRecordingCalls({ delete: undefined });
  assertCode(thrownBy(() => setDefaultOutboxStorage(bad)), 'INVALID_INPUT');
  assertCode(thrownBy(() => setDefaultOutboxStorage('indexeddb')), 'INVALID_INPUT');
  // an agent on the default outbox keeps a failed write somewhere else than the refused object
  const agent = new NeotomaAgent({ conversationId: randomId('dflt'), transport: httpTransport(), retry: false });
  server.failNext('/store', 500, undefined, { times: 2 });
  const r = await agent.turn('hello', () => 'hi');
  assert.deepEqual(r.pending, { user: true, assistant: true });
  assert.equal((await agent.pendingWrites()).length, 2);
  assert.deepEqual(bad.calls, [], 'the refused storage was never used');
  assert.equal((await agent.flush()).flushed, 2);
});

// ====================================================================================== EmbeddedStore

row('B67', 'EmbeddedStore.handle with a method or path that is not a string', async () => {
  const store = new EmbeddedStore();
  store.handle('POST', '/store', { entities: [{ entity_type: 'note', name: 'kept' }], idempotency_key: 'k1' });
  const seen = [];
  for (const [method, path] of [[42, '/store'], [true, '/store'], [{}, '/store'], [null, '/store'], [undefined, '/store'], ['POST', 42]]) {
    const err = thrownBy(() => store.handle(method, path, {}));
    seen.push(`${inspect(method)}, ${inspect(path)} -> ${err?.constructor?.name}: ${err?.message}${err?.code ? ` (${err.code})` : ''}`);
  }
  assert.equal(store.entityCount, 1, 'nothing written');
  for (const line of seen) assert.match(line, /\(INVALID_INPUT\)$/, `not a NeotomaError: ${seen.join('; ')}`);
});

row('B68', 'EmbeddedStore.handle with an unknown route or method: the 404 page, as the server answers', async () => {
  const store = new EmbeddedStore();
  for (const [method, path] of [['POST', '/nope'], ['GET', '/store'], ['DELETE', '/store'], ['POST', '']]) {
    const r = store.handle(method, path, {});
    assert.equal(r.status, 404, `${method} ${path}`);
    assert.equal(typeof r.body, 'string');
    assert.match(r.body, /<!DOCTYPE html>/);
  }
  assert.equal(store.entityCount, 0);
});

row('B69', 'EmbeddedStore.handle / store() with a body that is not JSON-like', async () => {
  const store = new EmbeddedStore();
  for (const body of [() => 1, Symbol('s')]) {
    assertCode(thrownBy(() => store.handle('POST', '/store', body)), 'INVALID_INPUT');
    assertCode(await rejectionOf(store.store(body)), 'INVALID_INPUT');
  }
  assert.equal(store.entityCount, 0);
});

row('B70', 'EmbeddedStore.handle / store() with a JSON body Neotoma refuses: its error answer, as the real server gives it', async () => {
  const store = new EmbeddedStore();
  for (const [body, status] of [
    [{ entities: 'x' }, 400],
    [{ entities: [] }, 400],
    [{}, 400],
    [{ entities: [{ entity_type: 'note', name: 'x' }] }, 400], // no idempotency_key
    [{ entities: [{ name: 'no type' }], idempotency_key: 'k' }, 500], // transcript 07d: 500 DB_QUERY_FAILED
  ]) {
    const r = store.handle('POST', '/store', body);
    assert.equal(r.status, status, JSON.stringify(body));
    const err = await rejectionOf(store.store(body));
    assertCode(err, 'NEOTOMA_HTTP');
    assert.equal(err.status, status);
  }
  assert.equal(store.entityCount, 0);
});

row('B71', 'EmbeddedStore.handle with a lone surrogate in the body', async () => {
  const store = new EmbeddedStore();
  let r = null;
  try {
    r = store.handle('POST', '/store', { entities: [{ entity_type: 'note', name: 'x\uD800y' }], idempotency_key: 'k1' });
  } catch (err) {
    assertCode(err, 'INVALID_INPUT');
  }
  assert.equal(store.entityCount, 0, `stored with the surrogate replaced: ${JSON.stringify(r?.body?.entities?.[0]?.entity_snapshot_after)}`);
});

row('B72', 'EmbeddedStore.handleRaw with a non-string, a lone surrogate, or invalid JSON', async () => {
  const store = new EmbeddedStore();
  for (const raw of [42, { a: 1 }, '{"name":"x\uD800"}']) {
    assertCode(thrownBy(() => store.handleRaw('POST', '/store', raw)), 'INVALID_INPUT');
  }
  const r = store.handleRaw('POST', '/store', '{"entities": [');
  assert.equal(r.status, 400);
  assert.match(r.body, /SyntaxError/);
  assert.equal(store.entityCount, 0);
});

// ====================================================================================== createNeotomaProxy

const upstream = () => server.url;

row('B73', 'createNeotomaProxy options not an object, or an unknown option', async () => {
  for (const options of [undefined, 'x', [], null, { upstream: upstream(), token: server.token, conversationPrefx: 'w-' }]) {
    assertCode(thrownBy(() => createNeotomaProxy(options)), 'INVALID_INPUT');
  }
  assertNoRequest();
});

row('B74', 'createNeotomaProxy upstream missing, not absolute, not http(s), with credentials, query or fragment', async () => {
  for (const up of [undefined, 'neotoma', '/neotoma', 'ftp://127.0.0.1', 'https://user:pw@neotoma.example', 'https://neotoma.example/?a=1', 'https://neotoma.example/#f', 42]) {
    assertCode(thrownBy(() => createNeotomaProxy({ upstream: up, token: server.token })), 'INVALID_INPUT');
  }
  assertNoRequest();
});

row('B75', 'createNeotomaProxy upstream plain http to a host that is not this machine', async () => {
  let handler = null;
  try {
    handler = createNeotomaProxy({ upstream: 'http://10.0.0.5:3080', token: server.token });
  } catch (err) {
    assertCode(err, 'INVALID_INPUT');
  }
  assert.equal(handler, null, 'accepted: the proxy would send the bearer token in clear text (the agent refuses the same URL, B25)');
});

row('B76', 'createNeotomaProxy token missing, empty, non-ASCII, control characters, surrounding spaces (the error does not repeat it)', async () => {
  const secret = randomToken();
  for (const token of [undefined, '', `${secret}ö`, `${secret}\n`, ` ${secret}`, 42]) {
    assertCode(thrownBy(() => createNeotomaProxy({ upstream: upstream(), token })), 'INVALID_INPUT', [secret]);
  }
  assertNoRequest();
});

row('B77', 'createNeotomaProxy allowedOrigins, conversationPrefix, basePath of a bad shape', async () => {
  for (const bad of [
    { allowedOrigins: 'https://a.example' },
    { allowedOrigins: ['https://a.example/'] },
    { allowedOrigins: ['*'] },
    { allowedOrigins: ['null'] },
    { allowedOrigins: [42] },
    { conversationPrefix: '' },
    { conversationPrefix: 'a:b' },
    { conversationPrefix: 42 },
    { basePath: 'neotoma' },
    { basePath: '/neotoma?x' },
    { basePath: 42 },
  ]) {
    assertCode(thrownBy(() => createNeotomaProxy({ upstream: upstream(), token: server.token, ...bad })), 'INVALID_INPUT');
  }
  assertNoRequest();
});

row('B78', 'createNeotomaProxy maxBodyBytes / timeoutMs not a positive integer', async () => {
  for (const key of ['maxBodyBytes', 'timeoutMs']) {
    for (const value of [0, -1, 1.5, '100', NaN, Infinity]) {
      assertCode(thrownBy(() => createNeotomaProxy({ upstream: upstream(), token: server.token, [key]: value })), 'INVALID_INPUT');
    }
  }
  assertNoRequest();
});

// ====================================================================================== Neotoma's answers

row('B79', 'Neotoma answers /store 200 with an HTML page once (defaults): retried like a lost answer, stored once', async () => {
  const conv = await conversation();
  const agent = new NeotomaAgent({ conversationId: conv.cid, transport: httpTransport(), retry: QUICK_RETRY });
  server.failNext('/store', 200, htmlErrorPage('Welcome to nginx!'));
  const r = await agent.turn('hello again', () => 'hi', { turnId: 't2' });
  assert.deepEqual(r.pending, { user: false, assistant: false });
  assert.equal(server.requests.filter((x) => x.path === '/store').length, 3, 'the user store twice, the assistant once');
  assert.deepEqual(await agent.pendingWrites(), []);
  await conv.stored(['t2']);
});

row('B80', 'Neotoma answers a lookup with an HTML page: that lookup is skipped, the turn goes on', async () => {
  const conv = await conversation();
  server.failNext('/retrieve_entity_by_identifier', 200, htmlErrorPage('Welcome to nginx!'), { times: 10 });
  const r = await conv.agent.turn('Tell me about Acme Corp', () => 'Acme Corp is fine.', { turnId: 't2' });
  assert.deepEqual(r.retrieved, []);
  await conv.stored(['t2']);
});

row('B81', 'Neotoma answers /store with an HTML 4xx page: NEOTOMA_HTTP with the page as body, not retried, not kept (defaults)', async () => {
  const conv = await conversation();
  const agent = new NeotomaAgent({ conversationId: conv.cid, transport: httpTransport() });
  const body = htmlErrorPage('Cannot POST /store');
  server.failNext('/store', 404, body);
  const err = await rejectionOf(agent.turn('hello again', untouchedLlm(), { turnId: 't2' }));
  assertCode(err, 'NEOTOMA_HTTP');
  assert.equal(err.status, 404);
  assert.equal(err.body, body);
  assert.equal(server.requests.filter((r) => r.path === '/store').length, 1, 'one attempt');
  assert.deepEqual(await agent.pendingWrites(), []);
  await conv.unchanged();
});

row('B82', 'Neotoma answers /store with an HTML 502 page (retry: false, outbox: false): NEOTOMA_HTTP 502', async () => {
  const conv = await conversation();
  const body = htmlErrorPage('Bad Gateway');
  server.failNext('/store', 502, body);
  const err = await rejectionOf(conv.agent.turn('hello again', untouchedLlm(), { turnId: 't2' }));
  assertCode(err, 'NEOTOMA_HTTP');
  assert.equal(err.status, 502);
  assert.equal(err.body, body);
  await conv.unchanged();
});

/** Both messages wait in the outbox; once Neotoma is back, `flush()` stores them. */
async function assertPendingThenFlushed(conv, agent, r, events) {
  assert.deepEqual(r.pending, { user: true, assistant: true });
  assert.equal(r.userMessageEntityId, null);
  const pending = await agent.pendingWrites();
  assert.deepEqual(pending.map((w) => w.role), ['user', 'assistant']);
  assertNoToken(pending);
  assertNoToken(events);
  assert.deepEqual(writesReachingStore(), [], 'nothing stored yet');
  await conv.unchanged();
  server.clearFaults();
  fault.clear();
  const flushed = await agent.flush();
  assert.equal(flushed.flushed, 2);
  await conv.stored([r.turnId]);
}

row('B83', 'Neotoma answers /store with an HTML 502 page (defaults): retried, then kept in the outbox, pending', async () => {
  const conv = await conversation();
  const events = [];
  const agent = new NeotomaAgent({ conversationId: conv.cid, transport: httpTransport(), onEvent: (e) => events.push(e) });
  server.failNext('/store', 502, htmlErrorPage('Bad Gateway'), { times: 100 });
  const r = await agent.turn('hello again', () => 'hi', { turnId: 't2' });
  // 4 attempts for the user message, then one more when the assistant store first tries the outbox
  assert.equal(server.requests.filter((q) => q.path === '/store').length, 5);
  assert.deepEqual(events.filter((e) => e.type === 'retry').map((e) => e.attempt), [1, 2, 3]);
  await assertPendingThenFlushed(conv, agent, r, events);
});

row('B84', 'Neotoma answers /store 200 with truncated JSON once (defaults): retried like a lost answer, stored once', async () => {
  const conv = await conversation();
  const agent = new NeotomaAgent({ conversationId: conv.cid, transport: httpTransport(), retry: QUICK_RETRY });
  server.failNext('/store', 200, '{"success":true,"entities":[{"entity_id":"ent_', { headers: { 'content-type': 'application/json' } });
  const r = await agent.turn('hello again', () => 'hi', { turnId: 't2' });
  assert.deepEqual(r.pending, { user: false, assistant: false });
  assert.equal(server.requests.filter((x) => x.path === '/store').length, 3);
  assert.deepEqual(await agent.pendingWrites(), []);
  await conv.stored(['t2']);
});

row('B85', 'Neotoma writes, then its answer is cut mid-body (retry: false, outbox: false): NEOTOMA_NETWORK; the same turn again replays', async () => {
  const conv = await conversation();
  fault.set('/store', 'cut', 1);
  const agent = agentFor(conv.cid, { transport: httpTransport({ baseUrl: fault.url }) });
  const err = await rejectionOf(agent.turn('hello again', untouchedLlm(), { turnId: 't2' }));
  assertCode(err, 'NEOTOMA_NETWORK');
  await conv.userMessagesOnly(['t2']);
  const r = await agent.turn('hello again', () => 'hi', { turnId: 't2' });
  assert.deepEqual(r.replayed, { user: true, assistant: false });
  await conv.stored(['t2']);
});

row('B86', 'Neotoma writes, then its answer is cut mid-body (defaults): retried, the retry replays, stored once', async () => {
  const conv = await conversation();
  fault.set('/store', 'cut', 1);
  const agent = new NeotomaAgent({ conversationId: conv.cid, transport: httpTransport({ baseUrl: fault.url }), retry: QUICK_RETRY });
  const r = await agent.turn('hello again', () => 'hi', { turnId: 't2' });
  assert.deepEqual(r.replayed, { user: true, assistant: false });
  assert.deepEqual(r.pending, { user: false, assistant: false });
  await conv.stored(['t2']);
});

row('B87', 'Neotoma answers /store 500 JSON (retry: false, outbox: false): NEOTOMA_HTTP 500 with the parsed body', async () => {
  const conv = await conversation();
  server.failNext('/store', 500, { error_code: 'DB_QUERY_FAILED', message: 'boom' });
  const err = await rejectionOf(conv.agent.turn('hello again', untouchedLlm(), { turnId: 't2' }));
  assertCode(err, 'NEOTOMA_HTTP');
  assert.equal(err.status, 500);
  assert.equal(err.body.error_code, 'DB_QUERY_FAILED');
  await conv.unchanged();
});

row('B88', 'Neotoma answers /store 500 JSON once (defaults): not retried, kept in the outbox; the next store sends it first', async () => {
  const conv = await conversation();
  const agent = new NeotomaAgent({ conversationId: conv.cid, transport: httpTransport() });
  server.failNext('/store', 500, { error_code: 'DB_QUERY_FAILED', message: 'boom' });
  const r = await agent.turn('hello again', () => 'hi', { turnId: 't2' });
  assert.deepEqual(r.pending, { user: true, assistant: false });
  assert.deepEqual(server.requests.filter((q) => q.path === '/store').map((q) => q.body.entities[1].role), ['user', 'user', 'assistant'], 'the failed user store, then the outbox first, in order');
  assert.deepEqual(await agent.pendingWrites(), []);
  await conv.stored(['t2']);
});

row('B89', 'Neotoma answers /store 429 (retry: false, outbox: false): NEOTOMA_HTTP 429 with the text body', async () => {
  const conv = await conversation();
  server.failNext('/store', 429, 'Write rate limit exceeded, please slow down', { headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '55' } });
  const err = await rejectionOf(conv.agent.turn('hello again', untouchedLlm(), { turnId: 't2' }));
  assertCode(err, 'NEOTOMA_HTTP');
  assert.equal(err.status, 429);
  assert.equal(err.body, 'Write rate limit exceeded, please slow down');
  await conv.unchanged();
});

row('B90', 'Neotoma answers /store 429 once (defaults): retried after Retry-After, stored once', async () => {
  const conv = await conversation();
  const events = [];
  const agent = new NeotomaAgent({ conversationId: conv.cid, transport: httpTransport(), onEvent: (e) => events.push(e) });
  server.failNext('/store', 429, 'Write rate limit exceeded, please slow down', { headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '0' } });
  const r = await agent.turn('hello again', () => 'hi', { turnId: 't2' });
  assert.deepEqual(r.pending, { user: false, assistant: false });
  assert.deepEqual(events.map((e) => [e.type, e.status]), [['retry', 429]]);
  assert.equal(server.requests.filter((q) => q.path === '/store').length, 3);
  await conv.stored(['t2']);
});

row('B91', 'Neotoma never answers /store (retry: false, outbox: false): NEOTOMA_TIMEOUT after transport.timeoutMs', async () => {
  const conv = await conversation();
  fault.set('/store', 'hang');
  const agent = agentFor(conv.cid, { transport: httpTransport({ baseUrl: fault.url, timeoutMs: 300 }) });
  const err = await rejectionOf(agent.turn('hello again', untouchedLlm(), { turnId: 't2' }));
  assertCode(err, 'NEOTOMA_TIMEOUT');
  await conv.unchanged();
});

row('B92', 'Neotoma never answers /store (defaults): retried, then kept in the outbox, pending', async () => {
  const conv = await conversation();
  fault.set('/store', 'hang');
  const events = [];
  const agent = new NeotomaAgent({ conversationId: conv.cid, transport: httpTransport({ baseUrl: fault.url, timeoutMs: 300 }), onEvent: (e) => events.push(e) });
  const r = await agent.turn('hello again', () => 'hi', { turnId: 't2' });
  assert.equal(fault.seen.filter((q) => q.path === '/store').length, 5, '4 attempts, then one when the assistant store tries the outbox first');
  assert.deepEqual(events.filter((e) => e.type === 'retry').map((e) => e.code), ['NEOTOMA_TIMEOUT', 'NEOTOMA_TIMEOUT', 'NEOTOMA_TIMEOUT']);
  await assertPendingThenFlushed(conv, agent, r, events);
});

row('B93', 'a lookup that never answers: skipped after retrievalTimeoutMs, the turn goes on', async () => {
  const conv = await conversation();
  fault.set('/retrieve_entity_by_identifier', 'hang');
  const agent = agentFor(conv.cid, { retrievalTimeoutMs: 200, transport: httpTransport({ baseUrl: fault.url }) });
  const r = await agent.turn('Tell me about Acme Corp', () => 'Acme Corp is fine.', { turnId: 't2' });
  assert.deepEqual(r.retrieved, []);
  await conv.stored(['t2']);
});

row('B94', 'Neotoma refuses the token (401, defaults): NEOTOMA_HTTP 401, not retried, not kept; neither token in the error', async () => {
  const conv = await conversation();
  const wrong = randomToken();
  const agent = new NeotomaAgent({ conversationId: conv.cid, transport: httpTransport({ token: wrong }) });
  const err = await rejectionOf(agent.turn('hello again', untouchedLlm(), { turnId: 't2' }));
  assertCode(err, 'NEOTOMA_HTTP', [wrong, server.token]);
  assert.equal(err.status, 401);
  assert.equal(err.body.error_code, 'AUTH_INVALID');
  assert.deepEqual(await agent.pendingWrites(), []);
  await conv.unchanged();
});

row('B95', 'an error page that echoes the Authorization header: the token stays out of the error', async () => {
  const conv = await conversation();
  fault.set('/store', 'echo');
  const agent = agentFor(conv.cid, { transport: httpTransport({ baseUrl: fault.url }) });
  const err = await rejectionOf(agent.turn('hello again', untouchedLlm(), { turnId: 't2' }));
  assert.equal(err.code, 'NEOTOMA_HTTP');
  assert.equal(err.status, 401);
  await conv.unchanged();
  const leaks = Object.entries(errorTexts(err)).filter(([, text]) => text.includes(server.token)).map(([where]) => where);
  assert.deepEqual(leaks, [], `the token is in the error's ${leaks.join(', ')}`);
});

row('B96', 'a lookup that never answers is aborted, not left open', async () => {
  const conv = await conversation();
  fault.set('/retrieve_entity_by_identifier', 'hang');
  const timeoutMs = 300;
  const agent = agentFor(conv.cid, { retrievalTimeoutMs: 100, transport: httpTransport({ baseUrl: fault.url, timeoutMs }) });
  await agent.turn('Tell me about Acme Corp and Sarah Chen', () => 'ok', { turnId: 't2' });
  // Abandoned at retrievalTimeoutMs, each lookup should be aborted then, or at the latest at
  // transport.timeoutMs; give the connections ten times that to close.
  for (let waited = 0; fault.hungOpen() > 0 && waited < 10 * timeoutMs; waited += 50) await new Promise((r) => setTimeout(r, 50));
  const lookups = fault.seen.filter((r) => r.path === '/retrieve_entity_by_identifier').length;
  assert.equal(fault.hungOpen(), 0, `${fault.hungOpen()} of ${lookups} lookups still open after waiting ten times transport.timeoutMs (${timeoutMs} ms)`);
});

row('B97', 'regenerate not a boolean, or together with revision (turn, turnStream)', async () => {
  const conv = await conversation();
  const llm = untouchedLlm();
  for (const options of [{ regenerate: 'yes' }, { regenerate: 1 }, { regenerate: true, revision: 2 }]) {
    const opts = { turnId: 't2', ...options };
    assertCode(await rejectionOf(conv.agent.turn('hello', llm, opts)), 'INVALID_INPUT');
    assertCode(await turnStreamError(conv.agent, 'hello', llm, opts), 'INVALID_INPUT');
  }
  assert.equal(llm.calls, 0);
  await conv.unchanged();
});

row('B98', 'flush options of a bad shape', async () => {
  const conv = await conversation();
  for (const options of ['all', { untilEmpty: 'yes' }, { timeoutMs: 100 }, { untilEmpty: true, timeoutMs: -1 }, { untilEmpty: true, timeOut: 5 }]) {
    assertCode(await rejectionOf(conv.agent.flush(options)), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B99', "a reply's entities of a bad shape (turn, turnStream): refused before the reply is written", async () => {
  const conv = await conversation({ maxProducedEntities: 2 });
  const cases = [
    { name: 'No Type' },
    { entity_type: 'Person', name: 'A' },
    { entity_type: 'conversation_message', content: 'x' },
    { entity_type: 'note', content: 'x', turn_key: `${conv.cid}:t9` },
    { entity_type: 'event', title: 'x', start_time: new Date() },
    { entity_type: 'event', title: 'x', score: NaN },
    { entity_type: 'note', content: 'a\uD800b' },
  ];
  const turnIds = [];
  for (const [i, entity] of cases.entries()) {
    turnIds.push(`t${i}`);
    assertCode(await rejectionOf(conv.agent.turn('hello', () => ({ text: 'ok', entities: [entity] }), { turnId: `t${i}` })), 'INVALID_INPUT');
  }
  turnIds.push('many');
  const many = [1, 2, 3].map((n) => ({ entity_type: 'task', title: `task ${n}` }));
  assertCode(await rejectionOf(conv.agent.turn('hello', () => ({ text: 'ok', entities: many }), { turnId: 'many' })), 'INVALID_INPUT');
  turnIds.push('streamed');
  const streamed = () => ({ stream: (async function* () { yield 'ok'; })(), entities: () => [{ entity_type: 'conversation' }] });
  assertCode(await turnStreamError(conv.agent, 'hello', streamed, { turnId: 'streamed' }), 'INVALID_INPUT');
  await conv.userMessagesOnly(turnIds);
});

row('B100', 'closeTurn / recordTurn entities of a bad shape', async () => {
  const conv = await conversation();
  for (const entities of ['person', [null], [{ entity_type: 'conversation' }], [{ entity_type: 'person', name: 'x', conversation_id: 'other' }]]) {
    assertCode(await rejectionOf(conv.agent.closeTurn({ turnId: 'seeded', assistantMessage: 'x', entities })), 'INVALID_INPUT');
    assertCode(await rejectionOf(conv.agent.recordTurn({ turnId: 'r1', userMessage: 'a', assistantMessage: 'b', entities })), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B101', "the reply's entities function throws, or its promise rejects", async () => {
  const conv = await conversation();
  const mine = new CallbackError('no JSON block in the reply');
  assertSameObject(await rejectionOf(conv.agent.turn('hello', () => ({ text: 'ok', entities: () => { throw mine; } }), { turnId: 't1' })), mine);
  assertSameObject(await rejectionOf(conv.agent.turn('hello', () => ({ text: 'ok', entities: Promise.reject(mine) }), { turnId: 't2' })), mine);
  await conv.userMessagesOnly(['t1', 't2']);
});

row('B102', 'remember() of a bad shape', async () => {
  const conv = await conversation();
  for (const input of [undefined, 'Dana', [{ name: 'Dana' }], [{ entity_type: 'conversation', conversation_id: conv.cid }], { entity_type: 'person', name: 7n }]) {
    assertCode(await rejectionOf(conv.agent.remember(input)), 'INVALID_INPUT');
  }
  // nothing to remember is no error: an empty array in, an empty array out
  assert.deepEqual(await conv.agent.remember([]), []);
  await conv.unchanged();
});

row('B103', 'verifyTurn / repairTurn of a bad shape', async () => {
  const conv = await conversation();
  for (const input of [undefined, 42, {}, { turnId: 'a:b' }, { turnId: 't1', replies: 'x' }, { turnId: 't1', reply: 7 }]) {
    assertCode(await rejectionOf(conv.agent.verifyTurn(input)), 'INVALID_INPUT');
    assertCode(await rejectionOf(conv.agent.repairTurn(input)), 'INVALID_INPUT');
  }
  await conv.unchanged();
});

row('B104', 'maxProducedEntities, memoryChars: not a non-negative number', async () => {
  for (const options of [{ maxProducedEntities: -1 }, { maxProducedEntities: '16' }, { memoryChars: NaN }, { memoryChars: Infinity }]) {
    assertCode(thrownBy(() => new NeotomaAgent({ conversationId: randomId('bad'), ...options })), 'INVALID_INPUT');
  }
});

row('B105', 'overlapUserStore not a boolean (constructor, turn, turnStream)', async () => {
  for (const overlapUserStore of ['yes', 1, {}]) {
    assertCode(thrownBy(() => new NeotomaAgent({ conversationId: randomId('bad'), overlapUserStore })), 'INVALID_INPUT');
  }
  const conv = await conversation();
  const llm = untouchedLlm();
  for (const overlapUserStore of ['yes', 1]) {
    const opts = { turnId: 't2', overlapUserStore };
    assertCode(await rejectionOf(conv.agent.turn('hello', llm, opts)), 'INVALID_INPUT');
    assertCode(await turnStreamError(conv.agent, 'hello', llm, opts), 'INVALID_INPUT');
  }
  assert.equal(llm.calls, 0);
  await conv.unchanged();
});

// ====================================================================================== the table

test('every row of the README bad-input table has exactly one test, and every test a row', () => {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf('<!-- bad-input-table:start -->');
  const end = text.indexOf('<!-- bad-input-table:end -->');
  assert.ok(start >= 0 && end > start, 'the README has the bad-input-table markers');
  const tableRows = text
    .slice(start, end)
    .split('\n')
    .filter((line) => /^\|\s*B\d+\s*\|/.test(line))
    .map((line) => ({ id: line.split('|')[1].trim(), todo: line.includes('TODO(bug)') }));
  const ids = tableRows.map((r) => r.id);
  assert.ok(ids.length > 0, 'the table has rows');
  assert.deepEqual(ids.filter((id, i) => ids.indexOf(id) !== i), [], 'row ids are unique in the table');
  const missingTests = ids.filter((id) => !rowTests.has(id));
  const extraTests = [...rowTests.keys()].filter((id) => !ids.includes(id));
  const duplicated = [...rowTests].filter(([, n]) => n !== 1).map(([id]) => id);
  assert.deepEqual(missingTests, [], 'table rows without a test');
  assert.deepEqual(extraTests, [], 'tests without a table row');
  assert.deepEqual(duplicated, [], 'rows with more than one test');
  assert.deepEqual(tableRows.filter((r) => r.todo).map((r) => r.id).sort(), [...todoRows].sort(), 'TODO(bug) rows match the todo tests');
});
