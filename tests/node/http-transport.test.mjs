// The HTTP transport's own parts around gloo-net (src/transport/http.rs): the request gloo-net
// builds reaches Neotoma as sent before; `fetch` is called on globalThis; a failed connection or
// a cut body says why (the JS error's cause, which gloo-net's errors drop); a host `fetch`
// wrapper answering with something odd is an error, not a trap (gloo-net's `send` panics there);
// a body that stops coming is a timeout.

import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';

import { NeotomaAgent } from 'neotoma-agent-wasm';
import { startTestServer, randomId, httpAgent, rejectionOf } from '../server/harness.mjs';

/** Errors surface as they are: one attempt, no outbox. No identifiers: the turn's first request is the user /store. */
const STRICT = { retry: false, outbox: false, identifierExtractor: () => [] };

let server;
const realFetch = globalThis.fetch;

before(async () => {
  server = await startTestServer();
});

after(async () => {
  await server?.close();
});

beforeEach(() => {
  server.clearFaults();
  server.resetCounts();
});

afterEach(() => {
  globalThis.fetch = realFetch;
});

/** A server on 127.0.0.1 that reads each request and then does `answer(req, res)`. */
async function rawServer(answer) {
  const sockets = new Set();
  const srv = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(req, res));
  });
  srv.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${srv.address().port}`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => srv.close(resolve));
    },
  };
}


test('the request: POST to the exact path, JSON content type, the bearer token, the JSON body', { timeout: 10_000 }, async () => {
  const seen = [];
  globalThis.fetch = (request) => {
    seen.push(request.clone()); // fetch consumes the body
    return realFetch(request);
  };
  const cid = randomId('http');
  await httpAgent(server, cid, STRICT).turn('hello', () => 'hi', { turnId: 't1' });
  const stores = seen.filter((r) => new URL(r.url).pathname === '/store');
  assert.equal(stores.length, 2);
  for (const r of stores) {
    assert.ok(r instanceof Request, 'fetch is given a Request');
    assert.equal(r.url, `${server.url}/store`, 'no query or trailing "?" added');
    assert.equal(r.method, 'POST');
    assert.equal(r.headers.get('content-type'), 'application/json');
    assert.equal(r.headers.get('authorization'), `Bearer ${server.token}`);
  }
  const body = await stores[0].json();
  assert.equal(body.idempotency_key, `conversation-${cid}-t1-user-turn`);
});

test('fetch is called on globalThis (workerd rejects any other `this`)', { timeout: 10_000 }, async () => {
  const thisSeen = [];
  // a module is strict code: a plain call gives this function `this === undefined`
  globalThis.fetch = function (...args) {
    thisSeen.push(this);
    return realFetch(...args);
  };
  await httpAgent(server, randomId('http'), STRICT).turn('hello', () => 'hi');
  assert.equal(thisSeen.length, 2);
  // a plain call `fetch(r)` (undefined, which hosts read as globalThis) or a call on globalThis
  for (const t of thisSeen) assert.ok(t === undefined || t === globalThis, `fetch called with this = ${t}`);
});

test('a refused connection and a body cut mid-way say why (the cause Node keeps under "fetch failed" and "terminated")', { timeout: 10_000 }, async () => {
  const gone = await rawServer(() => {});
  const goneUrl = gone.url;
  await gone.close();
  const refused = await rejectionOf(httpAgent(server, randomId('http'), { transport: { baseUrl: goneUrl }, ...STRICT }).turn('hi', () => 'x'));
  assert.equal(refused.code, 'NEOTOMA_NETWORK');
  assert.match(refused.message, /^POST \/store: request failed: TypeError: fetch failed \(.*ECONNREFUSED/);

  const cutting = await rawServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"success":tr');
    setTimeout(() => res.socket.destroy(), 20);
  });
  try {
    const cut = await rejectionOf(httpAgent(server, randomId('http'), { transport: { baseUrl: cutting.url }, ...STRICT }).turn('hi', () => 'x'));
    assert.equal(cut.code, 'NEOTOMA_NETWORK');
    assert.equal(cut.message, 'POST /store: reading the answer failed: TypeError: terminated (other side closed)');
  } finally {
    await cutting.close();
  }
});

test('a body that stops coming after the headers: NEOTOMA_TIMEOUT after transport.timeoutMs, the connection closed', { timeout: 10_000 }, async () => {
  let open = 0;
  const stalling = await rawServer((req, res) => {
    open++;
    res.on('close', () => open--);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"success":');
  });
  try {
    const started = Date.now();
    const err = await rejectionOf(httpAgent(server, randomId('http'), { transport: { baseUrl: stalling.url, timeoutMs: 300 }, ...STRICT }).turn('hi', () => 'x'));
    assert.equal(err.code, 'NEOTOMA_TIMEOUT');
    assert.equal(err.message, 'POST /store: no answer within 300 ms');
    assert.ok(Date.now() - started < 3000, 'bounded by timeoutMs');
    for (let waited = 0; open > 0 && waited < 3000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    assert.equal(open, 0, 'the abort closed the connection');
  } finally {
    await stalling.close();
  }
});

// gloo-net's `Request::send` traps here (`unreachable!`, `panic!`): the turn would never settle, hence the timeout.
test('a host fetch wrapper rejecting with a non-Error, or resolving to a non-Response: NEOTOMA_NETWORK, and the next turn works', { timeout: 10_000 }, async () => {
  const agent = httpAgent(server, randomId('http'), STRICT);
  for (const [odd, expected] of [
    [() => Promise.reject('offline (from a service-worker shim)'), 'POST /store: request failed: offline (from a service-worker shim)'],
    [() => Promise.reject({ reason: 'nope' }), /^POST \/store: request failed: /],
    [() => Promise.resolve({ status: 200, text: () => '{}' }), 'POST /store: request failed: fetch did not resolve to a Response'],
  ]) {
    globalThis.fetch = odd;
    const err = await rejectionOf(agent.turn('hi', () => 'x', { turnId: 't1' }));
    assert.equal(err.code, 'NEOTOMA_NETWORK', String(err));
    if (typeof expected === 'string') assert.equal(err.message, expected);
    else assert.match(err.message, expected);
    globalThis.fetch = realFetch;
  }
  // a trap would leave the module unusable; the same agent goes on
  const r = await agent.turn('hi', () => 'x', { turnId: 't1' });
  assert.ok(r.userMessageEntityId && r.assistantMessageEntityId);
});

test('an answer that echoes the token: redacted in the body and everywhere else in the error', { timeout: 10_000 }, async () => {
  const echoing = await rawServer((req, res) => {
    res.writeHead(401, { 'content-type': 'text/html' });
    res.end(`<html><body>Unauthorized: ${req.headers.authorization}</body></html>`);
  });
  try {
    const err = await rejectionOf(httpAgent(server, randomId('http'), { transport: { baseUrl: echoing.url }, ...STRICT }).turn('hi', () => 'x'));
    assert.equal(err.code, 'NEOTOMA_HTTP');
    assert.equal(err.status, 401);
    assert.equal(err.body, '<html><body>Unauthorized: Bearer [redacted]</body></html>');
    for (const text of [String(err), err.message, err.stack, JSON.stringify(err), JSON.stringify(err.body)]) {
      assert.ok(!String(text).includes(server.token), `token in ${text}`);
    }
  } finally {
    await echoing.close();
  }
});

test('Retry-After, in seconds or as an HTTP date, sets the wait before the retry', { timeout: 10_000 }, async () => {
  const retryAfter = [];
  const limiting = await rawServer((req, res) => {
    const value = retryAfter.shift();
    if (value === undefined) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"success":true,"entities":[]}');
      return;
    }
    res.writeHead(429, { 'content-type': 'text/plain', ...(value === null ? {} : { 'retry-after': value }) });
    res.end('slow down');
  });
  try {
    /** The first retry's delay after a 429 carrying `value` (null: no header); the retry's answer is a 200. */
    const firstRetryDelay = async (value) => {
      retryAfter.push(value);
      const events = [];
      const agent = new NeotomaAgent({
        conversationId: randomId('http'),
        transport: { baseUrl: limiting.url, token: server.token },
        retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1 },
        outbox: false,
        identifierExtractor: () => [],
        onEvent: (e) => events.push(e),
      });
      // the user store is retried and answered 200; the body is not a real store answer, so
      // the turn fails after that: only the retry's delay matters here
      await agent.turn('hi', () => 'x').catch(() => {});
      const retries = events.filter((e) => e.type === 'retry' && e.path === '/store');
      assert.equal(retries.length, 1, JSON.stringify(events));
      assert.equal(retries[0].status, 429);
      return retries[0].delayMs;
    };
    assert.ok((await firstRetryDelay(null)) <= 1, 'no header: the backoff alone');
    assert.equal(await firstRetryDelay('1'), 1000);
    const byDate = await firstRetryDelay(new Date(Date.now() + 2000).toUTCString());
    assert.ok(byDate > 0 && byDate <= 2000, `an HTTP date 2 s ahead (whole seconds): ${byDate} ms`);
  } finally {
    await limiting.close();
  }
});
