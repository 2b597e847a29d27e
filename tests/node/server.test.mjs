// The local Neotoma-shaped server itself answers like the real one where a client can tell:
// auth, HTML error pages, size limit, unknown routes, CORS, health, and the test hooks.

import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { startServer } from '../server/neotoma-server.mjs';
import { call, randomToken } from '../server/harness.mjs';

const ORIGIN = 'http://127.0.0.1:8080';
let server;

before(async () => {
  server = await startServer({ token: randomToken(), allowOrigin: ORIGIN, maxBodyBytes: 64 * 1024 });
});

after(async () => {
  await server?.close();
});

beforeEach(() => {
  server.clearFaults();
  server.resetCounts();
});

test('binds 127.0.0.1 on a random port', () => {
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.ok(server.port > 0);
});

test('refuses to bind anything but loopback', async () => {
  await assert.rejects(startServer({ host: '0.0.0.0', token: 'x' }), /loopback/);
});

test('GET /health needs no auth', async () => {
  const r = await call(server, 'GET', '/health', undefined, { token: null });
  assert.equal(r.status, 200);
  assert.equal(r.body.ok, true);
  assert.equal(r.body.version, '0.22.0');
});

test('every other route needs the bearer token: 401 AUTH_INVALID JSON', async () => {
  for (const [method, path, body] of [
    ['POST', '/store', { entities: [{ entity_type: 'note', title: 'x' }], idempotency_key: 'k' }],
    ['POST', '/retrieve_entity_by_identifier', { identifier: 'x' }],
    ['POST', '/create_relationships', { relationships: [] }],
    ['POST', '/create_relationship', {}],
    ['POST', '/retrieve_related_entities', { entity_id: 'ent_x' }],
    ['POST', '/get_entity_snapshot', { entity_id: 'ent_x' }],
    ['GET', '/conversations/c1/turn-index', undefined],
  ]) {
    for (const token of [null, 'wrong-token']) {
      const r = await call(server, method, path, body, { token });
      assert.equal(r.status, 401, `${method} ${path} with ${token}`);
      assert.match(r.headers.get('content-type'), /^application\/json; charset=utf-8/);
      assert.equal(r.body.error_code, 'AUTH_INVALID');
      assert.equal(r.body.message, 'Unauthorized - invalid authentication token');
      assert.ok(!Number.isNaN(Date.parse(r.body.timestamp)));
    }
  }
  // nothing was stored by the unauthorised /store
  const found = await call(server, 'POST', '/retrieve_entity_by_identifier', { identifier: 'x' });
  assert.equal(found.body.total, 0);
});

test('a valid call is answered by the embedded store as JSON', async () => {
  const r = await call(server, 'POST', '/store', { entities: [{ entity_type: 'company', name: 'Acme Corp' }], idempotency_key: 'seed-acme' });
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type'), /^application\/json; charset=utf-8/);
  assert.equal(r.body.replayed, false);
  const id = r.body.entities[0].entity_id;
  const snap = await call(server, 'POST', '/get_entity_snapshot', { entity_id: id });
  assert.equal(snap.status, 200);
  assert.equal(snap.body.snapshot.name, 'Acme Corp');
  const missing = await call(server, 'POST', '/get_entity_snapshot', { entity_id: 'ent_000000000000000000000000' });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error_code, 'RESOURCE_NOT_FOUND');
});

test('invalid JSON: 400 HTML page', async () => {
  const r = await call(server, 'POST', '/store', '{"entities": [ {"entity_type": "note"} ');
  assert.equal(r.status, 400);
  assert.match(r.headers.get('content-type'), /^text\/html; charset=utf-8/);
  assert.match(r.body, /^<!DOCTYPE html>/);
  assert.match(r.body, /SyntaxError/);
});

test('body over the limit: 413 HTML page', async () => {
  const r = await call(server, 'POST', '/store', { entities: [{ entity_type: 'note', title: 'y'.repeat(70 * 1024) }], idempotency_key: 'big' });
  assert.equal(r.status, 413);
  assert.match(r.headers.get('content-type'), /^text\/html/);
  assert.match(r.body, /PayloadTooLargeError: request entity too large/);
});

test('unknown route or wrong method: 404 HTML page', async () => {
  let r = await call(server, 'POST', '/no_such_endpoint', {});
  assert.equal(r.status, 404);
  assert.match(r.headers.get('content-type'), /^text\/html/);
  assert.match(r.body, /Cannot POST \/no_such_endpoint/);
  r = await call(server, 'GET', '/store');
  assert.equal(r.status, 404);
  assert.match(r.body, /Cannot GET \/store/);
});

test('CORS: the configured origin gets the allow headers on preflight and actual requests', async () => {
  const pre = await fetch(`${server.url}/store`, {
    method: 'OPTIONS',
    headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
  });
  assert.ok(pre.status === 200 || pre.status === 204);
  assert.equal(pre.headers.get('access-control-allow-origin'), ORIGIN);
  assert.equal(pre.headers.get('access-control-allow-credentials'), 'true');
  assert.match(pre.headers.get('access-control-allow-methods'), /POST/);
  assert.equal(pre.headers.get('access-control-allow-headers'), 'Content-Type,Authorization');
  assert.match(pre.headers.get('vary'), /Origin/);

  const actual = await call(server, 'POST', '/retrieve_entity_by_identifier', { identifier: 'Acme' }, { headers: { origin: ORIGIN } });
  assert.equal(actual.status, 200);
  assert.equal(actual.headers.get('access-control-allow-origin'), ORIGIN);
  assert.equal(actual.headers.get('access-control-allow-credentials'), 'true');
  assert.match(actual.headers.get('vary'), /Origin/);
  // errors carry them too, so a browser can read the status
  const denied = await call(server, 'POST', '/store', {}, { token: 'nope', headers: { origin: ORIGIN } });
  assert.equal(denied.status, 401);
  assert.equal(denied.headers.get('access-control-allow-origin'), ORIGIN);
  assert.equal(server.counts()['/store'], 1, 'preflights are not counted');
});

test('CORS: other origins get no allow-origin header', async () => {
  const pre = await fetch(`${server.url}/store`, {
    method: 'OPTIONS',
    headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
  });
  assert.equal(pre.headers.get('access-control-allow-origin'), null);
  const actual = await call(server, 'POST', '/retrieve_entity_by_identifier', { identifier: 'Acme' }, { headers: { origin: 'http://evil.example' } });
  assert.equal(actual.headers.get('access-control-allow-origin'), null);
  assert.match(actual.headers.get('vary'), /Origin/);
});

test('counts, request log, failNext (with match) and delay', async () => {
  server.failNext('/retrieve_entity_by_identifier', 503, { error_code: 'X' }, { times: 2 });
  server.failNext('/get_entity_snapshot', 500, 'plain page', { match: (b) => b.entity_id === 'ent_b' });
  const a = await call(server, 'POST', '/retrieve_entity_by_identifier', { identifier: 'a' });
  const b = await call(server, 'POST', '/retrieve_entity_by_identifier', { identifier: 'b' });
  const c = await call(server, 'POST', '/retrieve_entity_by_identifier', { identifier: 'c' });
  assert.deepEqual([a.status, b.status, c.status], [503, 503, 200]);
  const sa = await call(server, 'POST', '/get_entity_snapshot', { entity_id: 'ent_a' });
  const sb = await call(server, 'POST', '/get_entity_snapshot', { entity_id: 'ent_b' });
  assert.deepEqual([sa.status, sb.status], [404, 500]);
  assert.equal(sb.body, 'plain page');
  assert.deepEqual(server.counts(), { '/retrieve_entity_by_identifier': 3, '/get_entity_snapshot': 2 });
  assert.deepEqual(server.requests.map((r) => [r.method, r.path, r.status]), [
    ['POST', '/retrieve_entity_by_identifier', 503],
    ['POST', '/retrieve_entity_by_identifier', 503],
    ['POST', '/retrieve_entity_by_identifier', 200],
    ['POST', '/get_entity_snapshot', 404],
    ['POST', '/get_entity_snapshot', 500],
  ]);
  assert.deepEqual(server.requests[0].body, { identifier: 'a' });
  assert.ok(!JSON.stringify(server.requests).includes(server.token), 'the log never holds the token');

  server.delay('/retrieve_entity_by_identifier', 250, { times: 1 });
  const t0 = performance.now();
  await Promise.all([
    call(server, 'POST', '/retrieve_entity_by_identifier', { identifier: 'slow' }),
    call(server, 'GET', '/health', undefined, { token: null }),
  ]);
  assert.ok(performance.now() - t0 >= 240);
  await call(server, 'POST', '/retrieve_entity_by_identifier', { identifier: 'fast' });
  const byId = (id) => server.requests.find((r) => r.body?.identifier === id);
  assert.equal(byId('slow').delayedMs, 250);
  assert.equal(byId('fast').delayedMs, undefined, 'times: 1');
  assert.equal(server.requests.find((r) => r.path === '/health').delayedMs, undefined, 'other paths are not delayed');
  server.resetCounts();
  assert.deepEqual(server.counts(), {});
  assert.equal(server.requests.length, 0);
});

test("delay('*') holds every path without a delay of its own; a path's own delay wins", async () => {
  server.delay('*', 5);
  server.delay('/store', 7, { times: 1 });
  await call(server, 'POST', '/retrieve_entity_by_identifier', { identifier: 'x' });
  await call(server, 'POST', '/create_relationships', { relationships: [] });
  await call(server, 'GET', '/health', undefined, { token: null });
  await call(server, 'POST', '/store', { entities: [{ entity_type: 'note', title: 'd1' }], idempotency_key: 'delay-all-1' });
  await call(server, 'POST', '/store', { entities: [{ entity_type: 'note', title: 'd2' }], idempotency_key: 'delay-all-2' });
  assert.deepEqual(server.requests.map((r) => [r.path, r.delayedMs]), [
    ['/retrieve_entity_by_identifier', 5],
    ['/create_relationships', 5],
    ['/health', 5],
    ['/store', 7],
    ['/store', 5],
  ]);
  server.delay('*', 0);
  await call(server, 'POST', '/retrieve_entity_by_identifier', { identifier: 'y' });
  assert.equal(server.requests.at(-1).delayedMs, undefined, "delay('*', 0) clears it");
});

test('hold(): requests wait until release(); arrived resolves once count have come; a barrier answers them together', async () => {
  const note = (title) => ({ entities: [{ entity_type: 'note', title }], idempotency_key: `hold-${title}` });
  const byKey = (key) => server.requests.find((r) => r.body?.idempotency_key === key);
  /** Until the request with `key` is held (bounded by the test's timeout, not by a clock). */
  const untilHeld = async (key) => {
    while (!byKey(key)?.held) await new Promise((r) => setImmediate(r));
  };
  // held until the test releases them; only matching requests; others go through
  const h = server.hold('/store', { count: 2, match: (b) => b.idempotency_key.startsWith('hold-h') });
  let arrived = false;
  h.arrived.then(() => (arrived = true));
  const first = call(server, 'POST', '/store', note('h1'));
  await untilHeld('hold-h1');
  assert.equal((await call(server, 'POST', '/store', note('other'))).status, 200, 'not matched: not held');
  assert.equal(h.held(), 1);
  assert.equal(arrived, false);
  const second = call(server, 'POST', '/store', note('h2'));
  await h.arrived;
  assert.equal(h.held(), 2);
  assert.deepEqual([byKey('hold-h1').status, byKey('hold-h2').status], [0, 0], 'neither answered before release()');
  assert.deepEqual([byKey('hold-h1').held, byKey('hold-h2').held, byKey('hold-other').held], [true, true, undefined]);
  h.release();
  assert.deepEqual([(await first).status, (await second).status], [200, 200]);
  assert.equal((await call(server, 'POST', '/store', note('h3'))).status, 200, 'count reached: the hold is gone');
  assert.equal(byKey('hold-h3').held, undefined);

  // a barrier: every request received before the first is answered
  const barrier = server.hold('/retrieve_entity_by_identifier', { count: 4 });
  barrier.arrived.then(barrier.release);
  const from = server.requests.length;
  const answers = await Promise.all(['a', 'b', 'c', 'd'].map((identifier) => call(server, 'POST', '/retrieve_entity_by_identifier', { identifier })));
  assert.deepEqual(answers.map((r) => r.status), [200, 200, 200, 200]);
  const wave = server.requests.slice(from);
  assert.ok(Math.max(...wave.map((r) => r.receivedAt)) <= Math.min(...wave.map((r) => r.respondedAt)), 'all received before any was answered');

  // clearFaults() releases what a hold still holds
  server.hold('/store', { count: 5 });
  const pending = call(server, 'POST', '/store', note('cleared'));
  await untilHeld('hold-cleared');
  server.clearFaults();
  assert.equal((await pending).status, 200);
  assert.throws(() => server.hold('/store', { count: 0 }), /count/);
});

test('close() ends a request held by hold(): it fails', async () => {
  const s = await startServer({ token: randomToken() });
  const h = s.hold('/store');
  const pending = call(s, 'POST', '/store', { entities: [{ entity_type: 'note', title: 'x' }], idempotency_key: 'k' }).catch((e) => e);
  await h.arrived;
  await s.close();
  assert.ok((await pending) instanceof Error, 'the held request fails on close');
});

test('close() returns promptly even with a request held by delay()', async () => {
  const s = await startServer({ token: randomToken() });
  s.delay('/store', 60_000);
  const pending = call(s, 'POST', '/store', { entities: [{ entity_type: 'note', title: 'x' }], idempotency_key: 'k' }).catch((e) => e);
  await new Promise((r) => setTimeout(r, 50));
  const t0 = performance.now();
  await s.close();
  assert.ok(performance.now() - t0 < 1000);
  assert.ok((await pending) instanceof Error, 'the held request fails on close');
});

test('CLI: --port --token --allow-origin prints the URL and serves', { timeout: 15_000 }, async () => {
  const script = fileURLToPath(new URL('../server/neotoma-server.mjs', import.meta.url));
  const token = randomToken();
  const child = spawn(process.execPath, [script, '--port', '0', '--token', token, '--allow-origin', ORIGIN], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let timer;
    const url = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('\n')) resolve(out.split('\n')[0].trim());
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}`)));
      timer = setTimeout(() => reject(new Error('no URL printed')), 10_000);
    }).finally(() => clearTimeout(timer));
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await call({ url, token }, 'POST', '/retrieve_entity_by_identifier', { identifier: 'x' }, { headers: { origin: ORIGIN } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('access-control-allow-origin'), ORIGIN);
  } finally {
    child.kill('SIGTERM');
  }
});
