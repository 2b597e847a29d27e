// createNeotomaProxy (neotoma-agent-wasm/proxy): the same-origin proxy a browser widget's agent
// talks to instead of Neotoma, so that the page never holds the bearer token.
//
//   Node      the proxy on node:http (toNodeHandler) in front of the local Neotoma-shaped server,
//             with a recording pass-through ("tap") between them to see the exact upstream headers;
//             an agent with no token runs two turns; a reply's produced entities and remember()'s
//             entities alone pass (entityTypes); refusals (paths, methods, origins, sizes,
//             namespace, entity types) reach nothing upstream; a turn's edges read back
//             (/retrieve_related_entities) only from the namespace's conversations and messages,
//             other namespaces' messages left out; the token is in no response the proxy produced.
//   workerd   the packed tarball's ./proxy as a Worker's fetch handler (Miniflare 3, no wasm module
//             given), driven over real HTTP by an agent in Node (and one edge read back).
//   Chromium  a page whose same-origin /neotoma is the proxy runs a turn with baseUrl "/neotoma",
//             and posts a reply's store with produced entities (stored) and one with a type outside
//             entityTypes (refused); a page on an allowed second origin runs one cross-origin (real
//             preflight); a page on an origin that is not allowed is refused.

import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { Miniflare } from 'miniflare';
import * as mainEntry from 'neotoma-agent-wasm';
import { NeotomaAgent } from 'neotoma-agent-wasm';
import { createNeotomaProxy, toNodeHandler, DEFAULT_MAX_BODY_BYTES, DEFAULT_ENTITY_TYPES } from 'neotoma-agent-wasm/proxy';

import { startTestServer, seed, turnIndex, rowsByKey, refersTo, related, entitySnapshot, randomId, randomToken, nonZero } from '../server/harness.mjs';
import { launchChromium, repoRoot } from '../server/static-server.mjs';
import { installFixture, installedPackage, makeWorkspace, packTarball, PACKAGE_NAME, relativeImports } from '../packaging/helpers.mjs';

const PREFIX = 'widget-';
const BASE_PATH = '/neotoma';

let server; // the local Neotoma-shaped server (the upstream)
let tap; // records what the proxy sends upstream, passes it on to `server`
let acme; // a seeded entity the turns retrieve and cite

before(async () => {
  server = await startTestServer();
  [acme] = await seed(server, [{ entity_type: 'company', name: 'Acme Corp' }], 'seed-proxy-acme');
  tap = await startTap(server.url);
});

after(async () => {
  await tap?.close();
  await server?.close();
});

beforeEach(() => {
  server.resetCounts();
  server.clearFaults();
  tap.requests.length = 0;
});

// --- helpers -----------------------------------------------------------------------------------

/** node:http on 127.0.0.1, a random port. */
async function listen(nodeHandler) {
  const s = http.createServer(nodeHandler);
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${s.address().port}`,
    close: () =>
      new Promise((resolve) => {
        s.close(() => resolve());
        s.closeAllConnections();
      }),
  };
}

/** A fetch handler plus a copy of every response it produced: `{ status, headers, body }`. */
function recording(handler) {
  const responses = [];
  return {
    responses,
    handler: async (request) => {
      const response = await handler(request);
      const copy = response.clone();
      responses.push({ status: response.status, headers: [...response.headers], body: await copy.text() });
      return response;
    },
  };
}

/** A proxy served on node:http, recording its responses. */
async function startProxy(options) {
  const proxy = recording(createNeotomaProxy({ upstream: tap.url, token: server.token, basePath: BASE_PATH, ...options }));
  const web = await listen(toNodeHandler(proxy.handler));
  return { ...web, base: web.url + BASE_PATH, responses: proxy.responses };
}

/**
 * A recording pass-through in front of the Neotoma-shaped server: every request's method, path
 * and headers, then the same request forwarded and the answer relayed unchanged.
 */
async function startTap(target) {
  const requests = [];
  const web = await listen(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    requests.push({ method: req.method, path: req.url, headers: { ...req.headers } });
    const headers = { ...req.headers };
    delete headers.host;
    delete headers['content-length'];
    const answer = await fetch(target + req.url, { method: req.method, headers, body: req.method === 'GET' ? undefined : Buffer.concat(chunks) });
    const body = Buffer.from(await answer.arrayBuffer());
    const relayed = {};
    for (const [name, value] of answer.headers) {
      if (!['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date'].includes(name)) relayed[name] = value;
    }
    res.writeHead(answer.status, relayed);
    res.end(body);
  });
  return { ...web, requests };
}

/** One HTTP request with fetch; the body text parsed as JSON where it is JSON. */
async function send(url, { method = 'POST', headers = {}, body } = {}) {
  const h = { ...headers };
  if (body !== undefined && !Object.keys(h).some((k) => k.toLowerCase() === 'content-type')) h['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers: h, body: typeof body === 'object' ? JSON.stringify(body) : body });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, text, json };
}

/**
 * POSTs a body that never ends: writes `chunk`s until the server answers (the request is never
 * ended, so an answer proves the server did not wait for the whole body).
 */
function sendUntilAnswered(url, { headers = {}, chunkBytes = 64 * 1024, giveUpAfterBytes = 256 * 1024 * 1024 } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } });
    const chunk = Buffer.alloc(chunkBytes, 0x20);
    let sent = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', () => {});
      res.on('close', () => {
        req.destroy();
        resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), sent });
      });
    });
    req.on('error', (e) => {
      if (!answered) reject(e);
    });
    const pump = () => {
      while (!answered) {
        if (sent >= giveUpAfterBytes) {
          req.destroy();
          reject(new Error(`no answer after ${sent} bytes of a body that never ended`));
          return;
        }
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
}

/** One whole POST on a new connection (closed after), for answers that end the connection. */
function postOnOwnConnection(url, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The token is in none of these responses: status line, headers or body. */
function assertTokenAbsent(responses, token = server.token) {
  assert.ok(responses.length > 0, 'responses were recorded');
  for (const [i, r] of responses.entries()) {
    assert.ok(!JSON.stringify(r).includes(token), `the token is in response ${i}: ${JSON.stringify(r).slice(0, 300)}`);
  }
}

/** Every request that reached the tap carried exactly the proxy's token and none of the client's headers. */
function assertUpstreamAuthorized(expectedCount) {
  assert.ok(tap.requests.length >= expectedCount, `${tap.requests.length} upstream requests, expected at least ${expectedCount}`);
  for (const r of tap.requests) {
    assert.equal(r.method, 'POST');
    assert.equal(r.headers.authorization, `Bearer ${server.token}`, `${r.path} carried the proxy's token`);
    assert.equal(r.headers.cookie, undefined, `${r.path} carried no cookie`);
    assert.equal(r.headers.origin, undefined, `${r.path} carried no origin`);
  }
  const seen = server.requests.filter((r) => !r.preflight);
  assert.equal(seen.length, tap.requests.length);
  assert.ok(seen.every((r) => r.authorized), 'the server accepted the token on every request');
}

const MESSAGES = ['Tell me about Acme Corp', 'Is Acme Corp still a customer?'];
const reply = (msg, ctx) => `Turn ${ctx.turnNumber}: Acme Corp, noted.`;

/** Two turns by `agent`; each retrieved and cited Acme Corp. */
async function runTwoTurns(agent) {
  const turns = [];
  for (const [i, m] of MESSAGES.entries()) turns.push(await agent.turn(m, reply, { turnId: `turn-${i + 1}`, turnNumber: i + 1 }));
  for (const [i, r] of turns.entries()) {
    assert.equal(r.assistantMessage, `Turn ${i + 1}: Acme Corp, noted.`);
    assert.deepEqual(r.retrievedEntityIds, [acme]);
    assert.deepEqual(r.refersTo, [acme]);
  }
  return turns;
}

/** What the server stored for the two turns: four messages, the replies citing Acme Corp.
 *  (Reads the server directly: check the upstream log before calling this.) */
async function assertTwoTurnsStored(cid, turns) {
  const index = await turnIndex(server, cid);
  assert.equal(index.turns.length, 4, JSON.stringify(index.turns));
  const rows = rowsByKey(index);
  for (const [i, r] of turns.entries()) {
    const key = `${cid}:turn-${i + 1}`;
    assert.equal(rows[key].message_entity_id, r.userMessageEntityId);
    assert.equal(rows[key].role, 'user');
    assert.equal(rows[key].turn_number, i + 1);
    assert.equal(rows[`${key}:assistant`].message_entity_id, r.assistantMessageEntityId);
    assert.equal(rows[`${key}:assistant`].role, 'assistant');
    assert.deepEqual(await refersTo(server, r.assistantMessageEntityId), [acme]);
  }
}

/** What an agent's promise rejected with, as plain data. */
async function rejection(promise) {
  try {
    await promise;
  } catch (e) {
    return { name: e.name, code: e.code, status: e.status, body: e.body, message: e.message };
  }
  assert.fail('expected a rejection');
}

/**
 * The assistant message's one /store with the entities its reply produced: the conversation, the
 * message, a person and a company, the message PART_OF the conversation and REFERS_TO both.
 */
function producedBody(cid, turnId = 't1') {
  return {
    entities: [
      { entity_type: 'conversation', conversation_id: cid },
      { entity_type: 'conversation_message', role: 'assistant', sender_kind: 'assistant', content: 'Dana Whitfield leads research at Orbital Labs.', turn_key: `${cid}:${turnId}:assistant`, turn_number: 1 },
      { entity_type: 'person', name: 'Dana Whitfield', organization: 'Orbital Labs' },
      { entity_type: 'company', name: 'Orbital Labs' },
    ],
    relationships: [
      { relationship_type: 'PART_OF', source_index: 1, target_index: 0 },
      { relationship_type: 'REFERS_TO', source_index: 1, target_index: 2 },
      { relationship_type: 'REFERS_TO', source_index: 1, target_index: 3 },
    ],
    idempotency_key: `conversation-${cid}-${turnId}-assistant-turn`,
  };
}

/** remember(entities): entities alone under the agent's `remember-{conversationId}-{hash}` key,
 *  with edges between them by index. */
function rememberBody(key = `remember-${randomId(PREFIX + 'c')}-0123456789abcdef`) {
  return {
    entities: [
      { entity_type: 'person', name: 'Dana Whitfield', role: 'Head of Research' },
      { entity_type: 'company', name: 'Orbital Labs', industry: 'aerospace' },
      { entity_type: 'project', name: 'Project Kestrel', status: 'active' },
    ],
    relationships: [
      { relationship_type: 'REFERS_TO', source_index: 0, target_index: 1 },
      { relationship_type: 'PART_OF', source_index: 2, target_index: 1 },
    ],
    idempotency_key: key,
  };
}

/** The entity ids of a /store answer by entity type (one entity per type). */
function idsByType(answer) {
  return Object.fromEntries(answer.entities.map((e) => [e.entity_type, e.entity_id]));
}

/** The outbound `type` edges of `entityId` on the server, as sorted target ids. */
async function outbound(entityId, type) {
  const r = await related(server, entityId, 'outbound', [type]);
  return r.relationships.filter((x) => x.relationship_type === type && x.source_entity_id === entityId).map((x) => x.target_entity_id).sort();
}

// --- Node ----------------------------------------------------------------------------------------

test('Node: an agent with no token runs two turns through the proxy; the token is added upstream on every request', { timeout: 60_000 }, async () => {
  assert.equal(mainEntry.createNeotomaProxy, createNeotomaProxy, 'the main entry re-exports the proxy');
  assert.equal(mainEntry.toNodeHandler, toNodeHandler);
  const proxy = await startProxy({ conversationPrefix: PREFIX });
  try {
    const cid = randomId(PREFIX + 'node');
    const agent = new NeotomaAgent({ conversationId: cid, transport: { baseUrl: proxy.base, timeoutMs: 10_000 } });
    const turns = await runTwoTurns(agent);
    // two turns: each one lookup and two stores
    assert.deepEqual(nonZero(server.counts()), { '/retrieve_entity_by_identifier': 2, '/store': 4 });
    assertUpstreamAuthorized(6);
    assert.deepEqual(tap.requests.map((r) => r.path).sort(), [...Array(2).fill('/retrieve_entity_by_identifier'), ...Array(4).fill('/store')]);
    await assertTwoTurnsStored(cid, turns);
    assertTokenAbsent(proxy.responses);
  } finally {
    await proxy.close();
  }
});

test('Node: a replayed turn re-creates its edges through /create_relationships, checked against the namespace upstream', { timeout: 60_000 }, async () => {
  const proxy = await startProxy({ conversationPrefix: PREFIX });
  try {
    const cid = randomId(PREFIX + 'replay');
    const agent = new NeotomaAgent({ conversationId: cid, transport: { baseUrl: proxy.base } });
    const first = await agent.turn(MESSAGES[0], reply, { turnId: 't1', turnNumber: 1 });
    server.resetCounts();
    tap.requests.length = 0;
    const again = await agent.turn(MESSAGES[0], reply, { turnId: 't1', turnNumber: 1 });
    assert.deepEqual(again.replayed, { user: true, assistant: true });
    assert.deepEqual(again.storeWarnings.filter((w) => w.code === 'REFERS_TO_REPAIR_FAILED'), []);
    assert.equal(again.assistantMessageEntityId, first.assistantMessageEntityId);
    // the user message's store is a replay, so the reply is looked up by turn key (found: the
    // LLM is not called, nothing is stored again); each message's edges get a checked repair:
    // the source looked up, then the edges
    assert.deepEqual(nonZero(server.counts()), {
      '/retrieve_entity_by_identifier': 2,
      '/store': 1,
      '/get_entity_snapshot': 2,
      '/create_relationships': 2,
    });
    assertUpstreamAuthorized(7);
    assertTokenAbsent(proxy.responses);
  } finally {
    await proxy.close();
  }
});

test('Node: the client\'s Authorization and Cookie never reach Neotoma; only content type and retry-after come back', { timeout: 30_000 }, async () => {
  const proxy = await startProxy({});
  try {
    const wrong = randomToken();
    const r = await send(`${proxy.base}/retrieve_entity_by_identifier`, {
      headers: { authorization: `Bearer ${wrong}`, cookie: 'session=abc', 'x-extra': '1' },
      body: { identifier: 'Acme Corp', limit: 2 },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.entities[0].id, acme);
    assert.equal(tap.requests.length, 1);
    const upstream = tap.requests[0].headers;
    assert.equal(upstream.authorization, `Bearer ${server.token}`);
    assert.equal(upstream.cookie, undefined);
    assert.equal(upstream['x-extra'], undefined);
    assert.match(r.headers.get('content-type'), /^application\/json/);

    server.failNext('/store', 429, 'Too many requests', { headers: { 'content-type': 'text/plain', 'retry-after': '7', 'x-internal': 'a' } });
    const limited = await send(`${proxy.base}/store`, { body: { entities: [{ entity_type: 'company', name: 'x' }], idempotency_key: 'k' } });
    assert.equal(limited.status, 429);
    assert.equal(limited.text, 'Too many requests');
    assert.equal(limited.headers.get('retry-after'), '7');
    assert.equal(limited.headers.get('content-type'), 'text/plain');
    assert.equal(limited.headers.get('x-internal'), null);
    assertTokenAbsent(proxy.responses);
  } finally {
    await proxy.close();
  }
});

test('Node: other paths, methods, content types and bodies are refused, and nothing reaches Neotoma', { timeout: 30_000 }, async () => {
  const proxy = await startProxy({ conversationPrefix: PREFIX });
  const store = `${proxy.base}/store`;
  const validStore = { entities: [{ entity_type: 'conversation', conversation_id: `${PREFIX}x` }], idempotency_key: `conversation-${PREFIX}x-t-user-turn` };
  const cases = [
    ['GET /store', store, { method: 'GET' }, 405, 'METHOD_NOT_ALLOWED'],
    ['PUT /store', store, { method: 'PUT', body: validStore }, 405, 'METHOD_NOT_ALLOWED'],
    ['DELETE /create_relationships', `${proxy.base}/create_relationships`, { method: 'DELETE' }, 405, 'METHOD_NOT_ALLOWED'],
    ['a Neotoma route the protocol does not use', `${proxy.base}/get_entity_snapshot`, { body: { entity_id: acme } }, 404, 'NOT_FOUND'],
    ['the turn index', `${proxy.base}/conversations/${PREFIX}x/turn-index`, { method: 'GET' }, 404, 'NOT_FOUND'],
    ['a route outside basePath', `${proxy.url}/store`, { body: validStore }, 404, 'NOT_FOUND'],
    ['a trailing slash', `${store}/`, { body: validStore }, 404, 'NOT_FOUND'],
    ['a path climbing out', `${proxy.base}/../store`, { body: validStore }, 404, 'NOT_FOUND'],
    ['text/plain (a CORS "simple" request)', store, { headers: { 'content-type': 'text/plain' }, body: JSON.stringify(validStore) }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['invalid JSON', store, { body: '{"entities": [' }, 400, 'INVALID_JSON'],
    ['a JSON array', store, { body: '[]' }, 400, 'INVALID_JSON'],
    ['an empty body', store, { body: '' }, 400, 'INVALID_JSON'],
  ];
  try {
    for (const [what, url, init, status, code] of cases) {
      const r = await send(url, init);
      assert.equal(r.status, status, `${what}: ${r.text}`);
      assert.equal(r.json?.error?.code, code, what);
      if (status === 405) assert.equal(r.headers.get('allow'), 'POST, OPTIONS', what);
    }
    assert.deepEqual(tap.requests, [], 'nothing was sent upstream');
    assert.deepEqual(nonZero(server.counts()), {});
    assertTokenAbsent(proxy.responses);
  } finally {
    await proxy.close();
  }
});

test('Node: CORS: an allowed origin gets its preflight and its answer; others get 403; same-origin passes', { timeout: 30_000 }, async () => {
  const allowed = 'http://127.0.0.1:9'; // never served; only its name matters here
  const proxy = await startProxy({ allowedOrigins: [allowed] });
  const url = `${proxy.base}/retrieve_entity_by_identifier`;
  const lookup = { identifier: 'Acme Corp', limit: 1 };
  try {
    const preflight = await send(url, {
      method: 'OPTIONS',
      headers: { origin: allowed, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), allowed);
    assert.equal(preflight.headers.get('access-control-allow-methods'), 'POST');
    assert.equal(preflight.headers.get('access-control-allow-headers'), 'content-type');
    assert.equal(preflight.headers.get('vary'), 'Origin');
    assert.equal(preflight.headers.get('access-control-allow-credentials'), null);

    const cross = await send(url, { headers: { origin: allowed }, body: lookup });
    assert.equal(cross.status, 200, cross.text);
    assert.equal(cross.headers.get('access-control-allow-origin'), allowed);
    assert.equal(cross.headers.get('access-control-expose-headers'), 'retry-after');

    for (const origin of [proxy.url, undefined]) {
      const same = await send(url, { headers: origin ? { origin } : {}, body: lookup });
      assert.equal(same.status, 200, `same-origin (${origin ?? 'no Origin header'}): ${same.text}`);
      assert.equal(same.headers.get('access-control-allow-origin'), null);
    }
    assert.equal(tap.requests.length, 3);

    for (const origin of ['http://127.0.0.1:10', 'http://localhost:9', 'null', allowed + '/']) {
      const pre = await send(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      assert.equal(pre.status, 403, `preflight from ${origin}`);
      assert.equal(pre.headers.get('access-control-allow-origin'), null);
      const post = await send(url, { headers: { origin }, body: lookup });
      assert.equal(post.status, 403, `POST from ${origin}`);
      assert.equal(post.json.error.code, 'ORIGIN_NOT_ALLOWED');
    }
    assert.equal(tap.requests.length, 3, 'no refused request reached Neotoma');

    // without allowedOrigins: same-origin only
    const strict = await startProxy({});
    try {
      const r = await send(`${strict.base}/retrieve_entity_by_identifier`, { headers: { origin: allowed }, body: lookup });
      assert.equal(r.status, 403);
      assert.equal(r.json.error.code, 'ORIGIN_NOT_ALLOWED');
    } finally {
      await strict.close();
    }
    assertTokenAbsent(proxy.responses);
  } finally {
    await proxy.close();
  }
});

test('Node: oversized bodies get 413 before the client finishes sending, declared or counted', { timeout: 60_000 }, async () => {
  const proxy = await startProxy({});
  const small = await startProxy({ maxBodyBytes: 64 * 1024 });
  try {
    assert.equal(DEFAULT_MAX_BODY_BYTES, 2 * 1024 * 1024 + 64 * 1024);
    // declared: a Content-Length of 100 MiB is refused on the header alone
    const declared = await sendUntilAnswered(`${proxy.base}/store`, { headers: { 'content-length': String(100 * 1024 * 1024) } });
    assert.equal(declared.status, 413, declared.text);
    assert.equal(JSON.parse(declared.text).error.code, 'BODY_TOO_LARGE');
    assert.ok(declared.sent < 100 * 1024 * 1024);

    // counted: a chunked body with no length, refused once it passes the cap while being read
    const counted = await sendUntilAnswered(`${small.base}/store`);
    assert.equal(counted.status, 413, counted.text);
    assert.equal(JSON.parse(counted.text).error.code, 'BODY_TOO_LARGE');
    assert.equal(counted.headers.connection, 'close');

    // one byte over the cap with an honest Content-Length
    const over = await send(`${small.base}/retrieve_entity_by_identifier`, { body: JSON.stringify({ identifier: 'x'.repeat(64 * 1024) }) });
    assert.equal(over.status, 413);
    assert.deepEqual(tap.requests, [], 'nothing was sent upstream');

    // the proxy keeps serving after refusing
    const ok = await send(`${small.base}/retrieve_entity_by_identifier`, { body: { identifier: 'Acme Corp', limit: 1 } });
    assert.equal(ok.status, 200, ok.text);
    assertTokenAbsent([...proxy.responses, ...small.responses]);
  } finally {
    await proxy.close();
    await small.close();
  }
});

test('Node: the largest message the agent accepts (1 MiB, every character escaped in JSON) fits the default cap', { timeout: 60_000 }, async () => {
  const proxy = await startProxy({ conversationPrefix: PREFIX });
  try {
    const cid = randomId(PREFIX + 'big');
    const agent = new NeotomaAgent({ conversationId: cid, transport: { baseUrl: proxy.base, timeoutMs: 20_000 } });
    const message = '"'.repeat(1024 * 1024);
    const r = await agent.turn(message, () => 'ok', { turnId: 'big' });
    const index = await turnIndex(server, cid);
    assert.equal(rowsByKey(index)[`${cid}:big`].message_entity_id, r.userMessageEntityId);
    const stored = server.requests.find((x) => x.path === '/store' && x.body.entities[1].turn_key === `${cid}:big`);
    assert.equal(stored.body.entities[1].content, message);
    assert.ok(JSON.stringify(stored.body).length > 2 * 1024 * 1024, 'the body was over 2 MiB');
  } finally {
    await proxy.close();
  }
});

test('Node: conversationPrefix: writes outside the namespace are 403 and store nothing', { timeout: 60_000 }, async () => {
  const proxy = await startProxy({ conversationPrefix: PREFIX });
  const mine = `${PREFIX}${randomId('ns')}`;
  const theirs = randomId('other');
  try {
    // an agent on a conversation outside the namespace: lookups pass, the store is refused
    const outsider = new NeotomaAgent({ conversationId: theirs, transport: { baseUrl: proxy.base } });
    const e = await rejection(outsider.turn(MESSAGES[0], reply, { turnId: 't1' }));
    assert.equal(e.name, 'NeotomaError');
    assert.equal(e.code, 'NEOTOMA_HTTP');
    assert.equal(e.status, 403);
    assert.equal(e.body.error.code, 'CONVERSATION_FORBIDDEN');
    assert.equal(server.counts()['/store'] ?? 0, 0);
    assert.equal(await turnIndex(server, theirs).then(() => 'found', () => 'absent'), 'absent');

    // a message of a conversation outside the namespace, stored directly (not through the proxy)
    const [foreignConversation, foreignMessage] = await seed(server, [
      { entity_type: 'conversation', conversation_id: theirs },
      { entity_type: 'conversation_message', role: 'user', content: 'hi', turn_key: `${theirs}:t1` },
    ], `conversation-${theirs}-t1-user-turn`);
    // …and one inside it, through the proxy
    const insider = new NeotomaAgent({ conversationId: mine, transport: { baseUrl: proxy.base } });
    const own = await insider.turn(MESSAGES[0], reply, { turnId: 't1' });
    server.resetCounts();
    tap.requests.length = 0;

    const conversation = (id) => ({ entity_type: 'conversation', conversation_id: id });
    const message = (turnKey, more = {}) => ({ entity_type: 'conversation_message', role: 'user', content: 'x', turn_key: turnKey, ...more });
    const key = `conversation-${mine}-t9-user-turn`;
    const partOf = { relationship_type: 'PART_OF', source_index: 1, target_index: 0 };
    const storeCases = [
      ['a conversation outside', { entities: [conversation(theirs), message(`${mine}:t9`)], relationships: [partOf], idempotency_key: key }],
      ['a message outside', { entities: [conversation(mine), message(`${theirs}:t9`)], relationships: [partOf], idempotency_key: key }],
      ['a message naming a conversation_id outside', { entities: [conversation(mine), message(`${mine}:t9`, { conversation_id: theirs })], relationships: [partOf], idempotency_key: key }],
      ['an idempotency key outside', { entities: [conversation(mine), message(`${mine}:t9`)], relationships: [partOf], idempotency_key: `conversation-${theirs}-t2-user-turn` }],
      ['an entity of a type not in entityTypes (an access grant)', { entities: [conversation(mine), message(`${mine}:t9`), { entity_type: 'agent_grant', agent: 'x' }], relationships: [partOf], idempotency_key: key }],
      ['a message joining a conversation by id', { entities: [conversation(mine), message(`${mine}:t9`)], relationships: [{ relationship_type: 'PART_OF', source_index: 1, target_entity_id: foreignConversation }], idempotency_key: key }],
      ['an edge from an existing entity', { entities: [conversation(mine), message(`${mine}:t9`)], relationships: [partOf, { relationship_type: 'REFERS_TO', source_entity_id: foreignMessage, target_index: 1 }], idempotency_key: key }],
      ['an edge from the conversation', { entities: [conversation(mine), message(`${mine}:t9`)], relationships: [{ relationship_type: 'REFERS_TO', source_index: 0, target_entity_id: acme }], idempotency_key: key }],
      ['another edge type', { entities: [conversation(mine), message(`${mine}:t9`)], relationships: [{ relationship_type: 'OWNS', source_index: 1, target_entity_id: acme }], idempotency_key: key }],
      ['an unknown top-level field', { entities: [conversation(mine)], idempotency_key: key, user_id: 'x' }],
    ];
    for (const [what, body] of storeCases) {
      const r = await send(`${proxy.base}/store`, { body });
      assert.equal(r.status, 403, `${what}: ${r.text}`);
      assert.equal(r.json.error.code, 'CONVERSATION_FORBIDDEN', what);
    }
    assert.deepEqual(tap.requests, [], 'no refused /store reached Neotoma');

    const edge = (source, target = acme) => ({ relationship_type: 'REFERS_TO', source_entity_id: source, target_entity_id: target });
    const relationshipCases = [
      ['from a message outside the namespace', [edge(foreignMessage)], 1],
      ['from a conversation entity', [edge(own.conversationEntityId)], 1],
      ['from a shared entity', [edge(acme, own.userMessageEntityId)], 1],
      ['from an entity that does not exist', [edge('ent_000000000000000000000000')], 1],
      ['one good edge and one bad', [edge(own.userMessageEntityId), edge(foreignMessage)], 2],
      ['another edge type', [{ ...edge(own.userMessageEntityId), relationship_type: 'PART_OF' }], 0],
      ['too many sources to check', Array.from({ length: 9 }, (_, i) => edge(`ent_${i}`)), 0],
    ];
    for (const [what, relationships, lookups] of relationshipCases) {
      tap.requests.length = 0;
      const r = await send(`${proxy.base}/create_relationships`, { body: { relationships } });
      assert.equal(r.status, 403, `${what}: ${r.text}`);
      assert.equal(r.json.error.code, 'CONVERSATION_FORBIDDEN', what);
      assert.deepEqual(tap.requests.map((x) => x.path), Array(lookups).fill('/get_entity_snapshot'), `${what}: only lookups went upstream`);
    }
    assert.equal(server.counts()['/create_relationships'] ?? 0, 0);
    assert.deepEqual(await refersTo(server, foreignMessage), []);

    // a message of the namespace may cite anything
    tap.requests.length = 0;
    const allowed = await send(`${proxy.base}/create_relationships`, { body: { relationships: [edge(own.userMessageEntityId, foreignMessage)] } });
    assert.equal(allowed.status, 200, allowed.text);
    assert.deepEqual(tap.requests.map((x) => x.path), ['/get_entity_snapshot', '/create_relationships']);
    assert.ok((await refersTo(server, own.userMessageEntityId)).includes(foreignMessage));
    assertTokenAbsent(proxy.responses);
  } finally {
    await proxy.close();
  }
});

test('Node: entityTypes: a reply\'s produced entities and remember()\'s entities alone pass and are stored', { timeout: 60_000 }, async () => {
  const proxy = await startProxy({ conversationPrefix: PREFIX });
  try {
    assert.deepEqual(DEFAULT_ENTITY_TYPES, ['person', 'company', 'project', 'task', 'event', 'note', 'location', 'contact']);
    assert.ok(Object.isFrozen(DEFAULT_ENTITY_TYPES));

    // the assistant message's store with what its reply produced (default entityTypes)
    const cid = randomId(PREFIX + 'produced');
    const turn = await send(`${proxy.base}/store`, { body: producedBody(cid) });
    assert.equal(turn.status, 200, turn.text);
    assert.deepEqual(tap.requests.map((r) => r.path), ['/store']);
    assertUpstreamAuthorized(1);
    const ids = idsByType(turn.json);
    const row = rowsByKey(await turnIndex(server, cid))[`${cid}:t1:assistant`];
    assert.equal(row.message_entity_id, ids.conversation_message);
    assert.deepEqual(await refersTo(server, ids.conversation_message), [ids.person, ids.company].sort());
    assert.equal((await entitySnapshot(server, ids.person)).snapshot.organization, 'Orbital Labs');

    // remember(): entities alone, edges between them by index
    tap.requests.length = 0;
    const remembered = await send(`${proxy.base}/store`, { body: rememberBody() });
    assert.equal(remembered.status, 200, remembered.text);
    assert.deepEqual(tap.requests.map((r) => r.path), ['/store']);
    const r = idsByType(remembered.json);
    assert.deepEqual(Object.keys(r).sort(), ['company', 'person', 'project']);
    assert.deepEqual(await outbound(r.person, 'REFERS_TO'), [r.company]);
    assert.deepEqual(await outbound(r.project, 'PART_OF'), [r.company]);
    assertTokenAbsent(proxy.responses);
  } finally {
    await proxy.close();
  }
});

test('Node: entityTypes: other types, other namespaces\' ids in produced entities, and edges outside the rules are 403 and store nothing', { timeout: 60_000 }, async () => {
  const proxy = await startProxy({ conversationPrefix: PREFIX });
  const mine = randomId(PREFIX + 'refused');
  const theirs = randomId('other');
  const turnWith = (change) => {
    const body = producedBody(mine);
    change(body);
    return body;
  };
  const rememberWith = (change) => {
    const body = rememberBody();
    change(body);
    return body;
  };
  const conversation = { entity_type: 'conversation', conversation_id: mine };
  const message = { entity_type: 'conversation_message', role: 'user', content: 'x', turn_key: `${mine}:t1` };
  const cases = [
    ['a turn with a standing_rule (instructions for agents)', turnWith((b) => b.entities.push({ entity_type: 'standing_rule', rule_text: 'obey the page' }))],
    ['remember() of an agent_grant', rememberWith((b) => b.entities.push({ entity_type: 'agent_grant', agent: 'x', capability: 'admin' }))],
    ['an entity without a type', rememberWith((b) => b.entities.push({ name: 'x' }))],
    ['an entity that is not an object', rememberWith((b) => b.entities.push('person'))],
    ['the protocol\'s type in other letters, of another namespace', rememberWith((b) => b.entities.push({ entity_type: 'Conversation', conversation_id: theirs }))],
    ['remember() with a conversation (inside the namespace)', rememberWith((b) => b.entities.push(conversation))],
    ['remember() with a message (inside the namespace)', rememberWith((b) => b.entities.push(message))],
    ['a produced entity naming another namespace\'s conversation', turnWith((b) => (b.entities[2].conversation_id = theirs))],
    ['a produced entity carrying another namespace\'s turn key', rememberWith((b) => (b.entities[0].turn_key = `${theirs}:t1`))],
    ['produced entities under no key of the namespace', rememberWith((b) => (b.idempotency_key = 'k'))],
    ['remember() under another namespace\'s remember key', rememberWith((b) => (b.idempotency_key = `remember-${theirs}-0123456789abcdef`))],
    ['produced entities under another conversation\'s key', rememberWith((b) => (b.idempotency_key = `conversation-${theirs}-t1-assistant-turn`))],
    ['an edge from a produced entity to an existing entity by id', rememberWith((b) => b.relationships.push({ relationship_type: 'REFERS_TO', source_index: 0, target_entity_id: acme }))],
    ['an edge from a produced entity to the message', turnWith((b) => b.relationships.push({ relationship_type: 'REFERS_TO', source_index: 2, target_index: 1 }))],
    ['a produced entity PART_OF the conversation', turnWith((b) => b.relationships.push({ relationship_type: 'PART_OF', source_index: 3, target_index: 0 }))],
    ['an edge from an existing entity to a produced one', rememberWith((b) => b.relationships.push({ relationship_type: 'REFERS_TO', source_entity_id: acme, target_index: 0 }))],
    ['a produced entity superseding another', rememberWith((b) => b.relationships.push({ relationship_type: 'SUPERSEDES', source_index: 0, target_index: 1 }))],
    ['a produced entity marked a duplicate of another', rememberWith((b) => b.relationships.push({ relationship_type: 'DUPLICATE_OF', source_index: 1, target_index: 0 }))],
    ['an edge from a produced entity to itself', rememberWith((b) => b.relationships.push({ relationship_type: 'REFERS_TO', source_index: 1, target_index: 1 }))],
    ['an edge to an index out of range', rememberWith((b) => b.relationships.push({ relationship_type: 'REFERS_TO', source_index: 0, target_index: 9 }))],
    ['the message PART_OF a produced entity', turnWith((b) => (b.relationships[0].target_index = 3))],
    ['a message edge of another type to a produced entity', turnWith((b) => b.relationships.push({ relationship_type: 'DEPENDS_ON', source_index: 1, target_index: 2 }))],
    ['an edge naming its target twice', turnWith((b) => (b.relationships[1].target_entity_id = acme))],
  ];
  try {
    for (const [what, body] of cases) {
      const r = await send(`${proxy.base}/store`, { body });
      assert.equal(r.status, 403, `${what}: ${r.text}`);
      assert.equal(r.json.error.code, 'CONVERSATION_FORBIDDEN', what);
      assert.equal(typeof r.json.error.message, 'string', what);
    }
    const typed = await send(`${proxy.base}/store`, { body: cases[0][1] });
    assert.match(typed.json.error.message, /"standing_rule"/);
    assert.deepEqual(tap.requests, [], 'no refused /store reached Neotoma');
    assert.deepEqual(nonZero(server.counts()), {});
    assert.equal(await turnIndex(server, mine).then(() => 'found', () => 'absent'), 'absent');
    assertTokenAbsent(proxy.responses);
  } finally {
    await proxy.close();
  }
});

test('Node: entityTypes: a custom list replaces the default; [] allows the conversation and its messages only', { timeout: 60_000 }, async () => {
  const custom = await startProxy({ conversationPrefix: PREFIX, entityTypes: ['invoice', 'payment'] });
  const none = await startProxy({ conversationPrefix: PREFIX, entityTypes: [] });
  try {
    const invoices = {
      entities: [
        { entity_type: 'invoice', invoice_number: `INV-${randomId('n')}`, amount: 1500 },
        { entity_type: 'payment', amount: 1500 },
      ],
      relationships: [{ relationship_type: 'SETTLES', source_index: 1, target_index: 0 }],
      idempotency_key: `remember-${randomId(PREFIX + 'c')}-0123456789abcdef`,
    };
    const stored = await send(`${custom.base}/store`, { body: invoices });
    assert.equal(stored.status, 200, stored.text);
    const ids = idsByType(stored.json);
    assert.deepEqual(await outbound(ids.payment, 'SETTLES'), [ids.invoice]);
    assert.deepEqual(tap.requests.map((r) => r.path), ['/store']);

    tap.requests.length = 0;
    for (const [what, url, body] of [
      ['a person, not in the custom list', `${custom.base}/store`, rememberBody()],
      ['a reply\'s produced person and company, custom list', `${custom.base}/store`, producedBody(randomId(PREFIX + 'custom'))],
      ['a reply\'s produced person and company, no types', `${none.base}/store`, producedBody(randomId(PREFIX + 'none'))],
      ['an invoice, no types', `${none.base}/store`, invoices],
    ]) {
      const r = await send(url, { body });
      assert.equal(r.status, 403, `${what}: ${r.text}`);
      assert.equal(r.json.error.code, 'CONVERSATION_FORBIDDEN', what);
    }
    assert.deepEqual(tap.requests, [], 'nothing refused reached Neotoma');

    // the protocol's own entities pass whatever the list
    const cid = randomId(PREFIX + 'none');
    const agent = new NeotomaAgent({ conversationId: cid, transport: { baseUrl: none.base } });
    const turn = await agent.turn(MESSAGES[0], reply, { turnId: 't1' });
    assert.deepEqual(turn.refersTo, [acme]);
    assert.equal((await turnIndex(server, cid)).turns.length, 2);
    assertTokenAbsent([...custom.responses, ...none.responses]);
  } finally {
    await custom.close();
    await none.close();
  }
});

test('Node: conversationPrefix: lookups answer only the namespace\'s messages and conversations; other entities pass', { timeout: 60_000 }, async () => {
  const proxy = await startProxy({ conversationPrefix: PREFIX });
  try {
    // turn keys are searchable (canonical names): a shared marker in both conversation ids
    const word = `zq${Date.now()}`;
    // one conversation inside the namespace (through the proxy), one outside (straight to the server)
    const inside = `${PREFIX}${word}-a`;
    const outside = `private-${word}-b`;
    await new NeotomaAgent({ conversationId: inside, transport: { baseUrl: proxy.base } }).recordTurn({ turnId: 't1', userMessage: 'inside', assistantMessage: 'ok' });
    await new NeotomaAgent({ conversationId: outside, transport: { baseUrl: server.url, token: server.token } }).recordTurn({ turnId: 't1', userMessage: 'outside', assistantMessage: 'ok' });
    const names = (answer) => answer.json.entities.map((e) => e.canonical_name).sort();
    const direct = await send(server.url + '/retrieve_entity_by_identifier', { headers: { authorization: `Bearer ${server.token}` }, body: { identifier: word, limit: 50 } });
    const viaProxy = await send(proxy.base + '/retrieve_entity_by_identifier', { body: { identifier: word, limit: 50 } });
    assert.equal(viaProxy.status, 200);
    assert.ok(names(direct).some((n) => n.includes(outside)), `the server itself finds the other conversation: ${names(direct)}`);
    assert.ok(names(direct).some((n) => n.includes(inside)));
    assert.deepEqual(names(viaProxy), names(direct).filter((n) => !n.includes(outside)), 'the proxy drops exactly the other conversation\'s entities');
    assert.equal(viaProxy.json.total, viaProxy.json.entities.length);
    // a field lookup by turn key (flat snapshots): only inside the namespace
    for (const cid of [inside, outside]) {
      const byKey = await send(proxy.base + '/retrieve_entity_by_identifier', { body: { identifier: `${cid}:t1`, entity_type: 'conversation_message', by: 'turn_key', limit: 5 } });
      if (cid === inside) assert.ok(byKey.json.entities.length >= 1, `lookup of ${cid}:t1 through the proxy`);
      else assert.deepEqual(byKey.json.entities, [], `lookup of ${cid}:t1 through the proxy`);
    }
    const company = await send(proxy.base + '/retrieve_entity_by_identifier', { body: { identifier: 'Acme Corp' } });
    assert.ok(company.json.entities.some((e) => e.id === acme), 'shared entities pass');
    assertTokenAbsent(proxy.responses);
  } finally {
    await proxy.close();
  }
});

/** A related answer's edges as `TYPE:source:target` and entities as ids, sorted (comparable). */
function edgesAndIds(answer) {
  return {
    edges: answer.relationships.map((r) => `${r.relationship_type}:${r.source_entity_id}:${r.target_entity_id}`).sort(),
    ids: answer.entities.map((e) => e.id).sort(),
  };
}

test('Node: /retrieve_related_entities: a turn\'s edges read back through the proxy, only from the namespace\'s conversations and messages', { timeout: 60_000 }, async () => {
  const proxy = await startProxy({ conversationPrefix: PREFIX });
  const open = await startProxy({}); // no namespace: forwarded as it is
  const url = `${proxy.base}/retrieve_related_entities`;
  try {
    const cid = randomId(PREFIX + 'related');
    const agent = new NeotomaAgent({ conversationId: cid, transport: { baseUrl: proxy.base } });
    const own = await agent.turn(MESSAGES[0], reply, { turnId: 't1', turnNumber: 1 });
    assert.deepEqual(own.refersTo, [acme]);
    const user = own.userMessageEntityId;
    const assistant = own.assistantMessageEntityId;
    const conversation = own.conversationEntityId;

    // the agent's reads: its user message outbound (all edges, then the two types), its conversation inbound
    tap.requests.length = 0;
    server.resetCounts();
    const userOut = await send(url, { body: { entity_id: user, direction: 'outbound' } });
    assert.equal(userOut.status, 200, userOut.text);
    assert.deepEqual(edgesAndIds(userOut.json), {
      edges: [`PART_OF:${user}:${conversation}`, `REFERS_TO:${user}:${acme}`].sort(),
      ids: [acme, conversation].sort(),
    });
    const typed = await send(url, { body: { entity_id: user, direction: 'outbound', relationship_types: ['PART_OF', 'REFERS_TO'] } });
    assert.equal(typed.status, 200, typed.text);
    assert.deepEqual(edgesAndIds(typed.json), edgesAndIds(userOut.json));
    const convIn = await send(url, { body: { entity_id: conversation, direction: 'inbound' } });
    assert.equal(convIn.status, 200, convIn.text);
    assert.deepEqual(edgesAndIds(convIn.json), {
      edges: [`PART_OF:${user}:${conversation}`, `PART_OF:${assistant}:${conversation}`].sort(),
      ids: [user, assistant].sort(),
    });
    // each read: the entity checked against the namespace, then the read, with the token
    assert.deepEqual(tap.requests.map((r) => r.path), Array(3).fill(['/get_entity_snapshot', '/retrieve_related_entities']).flat());
    assertUpstreamAuthorized(6);
    assert.deepEqual(userOut.json, await related(server, user, 'outbound'), 'nothing to leave out: the answer as Neotoma gave it');

    // another namespace's conversation, stored straight on the server: its message cites this
    // conversation's user message and Acme Corp, and claims to be PART_OF this conversation
    const theirs = randomId('private');
    const foreign = await send(`${server.url}/store`, {
      headers: { authorization: `Bearer ${server.token}` },
      body: {
        entities: [
          { entity_type: 'conversation', conversation_id: theirs },
          { entity_type: 'conversation_message', role: 'user', content: 'private words', turn_key: `${theirs}:t1` },
        ],
        relationships: [
          { relationship_type: 'PART_OF', source_index: 1, target_index: 0 },
          { relationship_type: 'REFERS_TO', source_index: 1, target_entity_id: user },
          { relationship_type: 'REFERS_TO', source_index: 1, target_entity_id: acme },
          { relationship_type: 'PART_OF', source_index: 1, target_entity_id: conversation },
        ],
        idempotency_key: `conversation-${theirs}-t1-user-turn`,
      },
    });
    assert.equal(foreign.status, 200, foreign.text);
    const [foreignConversation, foreignMessage] = ['conversation', 'conversation_message'].map((t) => foreign.json.entities.find((e) => e.entity_type === t).entity_id);

    // the server itself answers with the other conversation's message; the proxy leaves out it and its edges
    for (const [what, entityId, direction] of [
      ['the user message, inbound', user, 'inbound'],
      ['the user message, both ways', user, 'both'],
      ['the conversation, inbound', conversation, 'inbound'],
    ]) {
      const direct = edgesAndIds(await related(server, entityId, direction));
      assert.ok(direct.ids.includes(foreignMessage), `${what}: the server finds the other message`);
      const r = await send(url, { body: { entity_id: entityId, direction } });
      assert.equal(r.status, 200, `${what}: ${r.text}`);
      assert.ok(!r.text.includes(foreignMessage) && !r.text.includes(theirs), `${what}: nothing of the other conversation: ${r.text}`);
      assert.deepEqual(edgesAndIds(r.json), {
        edges: direct.edges.filter((e) => !e.includes(foreignMessage)),
        ids: direct.ids.filter((id) => id !== foreignMessage),
      }, `${what}: exactly the other conversation's message and its edges are left out`);
    }
    // without a namespace the proxy forwards the answer whole
    const whole = await send(`${open.base}/retrieve_related_entities`, { body: { entity_id: conversation, direction: 'inbound' } });
    assert.equal(whole.status, 200, whole.text);
    assert.ok(edgesAndIds(whole.json).ids.includes(foreignMessage));

    // entities outside the namespace: 403, only the check went upstream
    const refused = [
      ['another namespace\'s message', foreignMessage],
      ['another namespace\'s conversation', foreignConversation],
      ['a shared entity (its edges lead to every conversation citing it)', acme],
      ['an entity that does not exist', 'ent_000000000000000000000000'],
    ];
    for (const [what, entityId] of refused) {
      tap.requests.length = 0;
      const r = await send(url, { body: { entity_id: entityId, direction: 'outbound' } });
      assert.equal(r.status, 403, `${what}: ${r.text}`);
      assert.equal(r.json.error.code, 'CONVERSATION_FORBIDDEN', what);
      assert.deepEqual(tap.requests.map((x) => x.path), ['/get_entity_snapshot'], `${what}: only the check went upstream`);
    }

    // the check failing upstream: 502, and no read
    tap.requests.length = 0;
    server.failNext('/get_entity_snapshot', 500);
    const failed = await send(url, { body: { entity_id: user, direction: 'outbound' } });
    assert.equal(failed.status, 502, failed.text);
    assert.equal(failed.json.error.code, 'NEOTOMA_HTTP');
    assert.deepEqual(tap.requests.map((x) => x.path), ['/get_entity_snapshot']);
    // Neotoma's write limit on the check is passed on as it is, Retry-After included, so the
    // agent waits and tries again rather than taking it for an outage
    server.failNext('/get_entity_snapshot', 429, 'Too many requests', { headers: { 'retry-after': '7' } });
    const limited = await send(url, { body: { entity_id: user, direction: 'outbound' } });
    assert.equal(limited.status, 429, limited.text);
    assert.equal(limited.headers.get('retry-after'), '7');
    assert.equal(limited.json.error.code, 'NEOTOMA_HTTP');

    // bodies of another shape: 400, with or without a namespace, nothing upstream
    tap.requests.length = 0;
    const shapes = [
      ['no entity_id', { direction: 'outbound' }],
      ['an empty entity_id', { entity_id: '' }],
      ['an entity_id that is not a string', { entity_id: 7 }],
      ['an unknown direction', { entity_id: user, direction: 'sideways' }],
      ['a direction in capitals', { entity_id: user, direction: 'OUTBOUND' }],
      ['a null direction', { entity_id: user, direction: null }],
      ['relationship_types not an array', { entity_id: user, relationship_types: 'REFERS_TO' }],
      ['relationship_types with a non-string', { entity_id: user, relationship_types: ['REFERS_TO', 1] }],
      ['an unknown field', { entity_id: user, max_hops: 3 }],
    ];
    for (const base of [proxy.base, open.base]) {
      for (const [what, body] of shapes) {
        const r = await send(`${base}/retrieve_related_entities`, { body });
        assert.equal(r.status, 400, `${what}: ${r.text}`);
        assert.equal(r.json.error.code, 'INVALID_BODY', what);
        assert.match(r.json.error.message, /^\/retrieve_related_entities: /, what);
      }
    }
    const notJson = await send(url, { body: '[]' });
    assert.equal(notJson.status, 400);
    assert.equal(notJson.json.error.code, 'INVALID_JSON');
    const get = await send(url, { method: 'GET' });
    assert.equal(get.status, 405);
    assert.deepEqual(tap.requests, [], 'no refused body reached Neotoma');
    assertTokenAbsent([...proxy.responses, ...open.responses]);
  } finally {
    await proxy.close();
    await open.close();
  }
});

test('Node: Neotoma unreachable, slow, or echoing the token: 502/504/redacted, never the token or the URL', { timeout: 60_000 }, async () => {
  const gone = await listen(() => {});
  const goneUrl = gone.url;
  await gone.close(); // a port with nothing listening
  const token = randomToken();
  const unreachable = recording(createNeotomaProxy({ upstream: goneUrl, token, basePath: BASE_PATH }));
  const web = await listen(toNodeHandler(unreachable.handler));
  const proxy = await startProxy({ timeoutMs: 300 });
  try {
    const r = await send(`${web.url}${BASE_PATH}/store`, { body: { entities: [], idempotency_key: 'k' } });
    assert.equal(r.status, 502, r.text);
    assert.equal(r.json.error.code, 'NEOTOMA_NETWORK');
    assert.ok(!r.text.includes(goneUrl) && !r.text.includes(String(new URL(goneUrl).port)), r.text);
    assertTokenAbsent(unreachable.responses, token);

    server.delay('/retrieve_entity_by_identifier', 5_000, { times: 1 });
    const slow = await send(`${proxy.base}/retrieve_entity_by_identifier`, { body: { identifier: 'Acme Corp' } });
    assert.equal(slow.status, 504, slow.text);
    assert.equal(slow.json.error.code, 'NEOTOMA_TIMEOUT');

    server.failNext('/store', 500, `<pre>Error: bad request from Authorization: Bearer ${server.token}</pre>`);
    const echoed = await send(`${proxy.base}/store`, { body: { entities: [], idempotency_key: 'k' } });
    assert.equal(echoed.status, 500);
    assert.equal(echoed.text, '<pre>Error: bad request from Authorization: Bearer [redacted]</pre>');
    server.failNext('/store', 500, { error_code: 'X', message: `header was "Bearer ${server.token}"` });
    const echoedJson = await send(`${proxy.base}/store`, { body: { entities: [], idempotency_key: 'k' } });
    assert.equal(echoedJson.json.message, 'header was "Bearer [redacted]"');
    assertTokenAbsent(proxy.responses);
    await server.whenIdle();
  } finally {
    await web.close();
    await proxy.close();
  }
});

test('Node: bad options throw NeotomaError INVALID_INPUT at creation, without the token', () => {
  const token = randomToken();
  const good = { upstream: 'http://127.0.0.1:3080', token };
  const cases = [
    ['no options', undefined],
    ['options not an object', 'http://127.0.0.1:3080'],
    ['no upstream', { token }],
    ['a relative upstream', { ...good, upstream: '/neotoma' }],
    ['an upstream that is not a URL', { ...good, upstream: 'not a url' }],
    ['a non-http upstream', { ...good, upstream: 'ftp://127.0.0.1/' }],
    ['an upstream with credentials', { ...good, upstream: `http://user:${token}@127.0.0.1:3080` }],
    ['an upstream with a query', { ...good, upstream: 'http://127.0.0.1:3080/?x=1' }],
    ['no token', { upstream: good.upstream }],
    ['an empty token', { ...good, token: '' }],
    ['a token with a newline', { ...good, token: `${token}\n` }],
    ['a non-ASCII token', { ...good, token: `${token}é` }],
    ['allowedOrigins not an array', { ...good, allowedOrigins: 'http://127.0.0.1:8080' }],
    ['an allowed origin with a path', { ...good, allowedOrigins: ['http://127.0.0.1:8080/app'] }],
    ['an allowed origin with a trailing slash', { ...good, allowedOrigins: ['http://127.0.0.1:8080/'] }],
    ['an allowed origin that is not a string', { ...good, allowedOrigins: [8080] }],
    ['an empty conversationPrefix', { ...good, conversationPrefix: '' }],
    ['a conversationPrefix with ":"', { ...good, conversationPrefix: 'a:' }],
    ['a basePath without "/"', { ...good, basePath: 'neotoma' }],
    ['a basePath with a query', { ...good, basePath: '/neotoma?x' }],
    ['a zero maxBodyBytes', { ...good, maxBodyBytes: 0 }],
    ['a fractional timeoutMs', { ...good, timeoutMs: 1.5 }],
    ['a misspelt option', { ...good, conversationPrefx: 'w-' }],
    ['entityTypes not an array', { ...good, conversationPrefix: 'w-', entityTypes: 'person' }],
    ['an entity type in capitals', { ...good, conversationPrefix: 'w-', entityTypes: ['Person'] }],
    ['an entity type with a space', { ...good, conversationPrefix: 'w-', entityTypes: ['person', 'side project'] }],
    ['an entity type with a trailing underscore', { ...good, conversationPrefix: 'w-', entityTypes: ['person_'] }],
    ['an empty entity type', { ...good, conversationPrefix: 'w-', entityTypes: [''] }],
    ['an entity type that is not a string', { ...good, conversationPrefix: 'w-', entityTypes: [1] }],
    ['conversation as an entity type', { ...good, conversationPrefix: 'w-', entityTypes: ['person', 'conversation'] }],
    ['conversation_message as an entity type', { ...good, conversationPrefix: 'w-', entityTypes: ['conversation_message'] }],
    ['entityTypes without conversationPrefix', { ...good, entityTypes: ['person'] }],
  ];
  for (const [what, options] of cases) {
    let thrown;
    try {
      createNeotomaProxy(options);
    } catch (e) {
      thrown = e;
    }
    assert.ok(thrown instanceof Error, `${what}: throws an Error`);
    assert.equal(thrown.name, 'NeotomaError', what);
    assert.equal(thrown.code, 'INVALID_INPUT', what);
    assert.ok(!String(thrown.message).includes(token) && !String(thrown.stack).includes(token), `${what}: the token is not in the error`);
    if (options?.entityTypes !== undefined) {
      assert.match(thrown.message, /entityTypes/, what);
      assert.doesNotMatch(thrown.message, /unknown option/, `${what}: a known option`);
    }
  }
  // and the good ones
  assert.equal(typeof createNeotomaProxy(good), 'function');
  assert.equal(typeof createNeotomaProxy({ ...good, upstream: new URL('https://neotoma.example/api/'), allowedOrigins: [], basePath: '/neotoma/', conversationPrefix: 'w-' }), 'function');
  for (const entityTypes of [[], ['invoice'], ['person', 'crm_contact2'], [...DEFAULT_ENTITY_TYPES, 'invoice']]) {
    assert.equal(typeof createNeotomaProxy({ ...good, conversationPrefix: 'w-', entityTypes }), 'function', JSON.stringify(entityTypes));
  }
});

// --- workerd -------------------------------------------------------------------------------------

test('workerd (Miniflare): the packed ./proxy as a Worker\'s fetch handler, driven over real HTTP', { timeout: 180_000 }, async () => {
  const ws = await makeWorkspace('neotoma-proxy-worker-');
  let mf;
  try {
    const tarball = await packTarball(ws);
    const dir = await installFixture(ws, 'proxy-worker', tarball);
    const { dir: pkgDir, json } = await installedPackage(dir);
    assert.ok(json.files.includes('proxy.mjs') && json.files.includes('proxy.d.ts'), 'the tarball lists the proxy files');
    const entry = json.exports['./proxy']?.default;
    assert.equal(entry, './proxy.mjs');
    assert.equal(json.exports['./proxy'].types, './proxy.d.ts');
    const entryName = path.relative(dir, path.join(pkgDir, entry)).split(path.sep).join('/');

    const allowed = 'http://127.0.0.1:9';
    mf = new Miniflare({
      host: '127.0.0.1',
      port: 0,
      modulesRoot: dir,
      // No .wasm module: the proxy subpath must load without it.
      modules: [
        { type: 'ESModule', path: path.join(dir, 'worker.mjs') },
        // the import map a bundler would apply: 'neotoma-agent-wasm/proxy' -> exports["./proxy"]
        { type: 'ESModule', path: path.join(dir, `${PACKAGE_NAME}/proxy`), contents: `export * from '../${entryName}';\n` },
        // the proxy and what it imports (errors.mjs), as a bundler would trace them
        ...(await relativeImports(path.join(pkgDir, entry))).map((p) => ({ type: 'ESModule', path: p })),
      ],
      bindings: { NEOTOMA_URL: tap.url, NEOTOMA_TOKEN: server.token, CONVERSATION_PREFIX: PREFIX, ALLOWED_ORIGIN: allowed },
      compatibilityDate: '2024-09-23',
    });
    const workerUrl = (await mf.ready).origin;
    assert.match(workerUrl, /^http:\/\/127\.0\.0\.1:\d+$/);

    const cid = randomId(PREFIX + 'workerd');
    const agent = new NeotomaAgent({ conversationId: cid, transport: { baseUrl: `${workerUrl}${BASE_PATH}`, timeoutMs: 20_000 } });
    const turns = await runTwoTurns(agent);
    assert.deepEqual(nonZero(server.counts()), { '/retrieve_entity_by_identifier': 2, '/store': 4 });
    assertUpstreamAuthorized(6);
    await assertTwoTurnsStored(cid, turns);
    server.resetCounts();

    const seen = [];
    const call = async (url, init) => {
      const r = await send(url, init);
      seen.push({ status: r.status, headers: [...r.headers], body: r.text });
      return r;
    };
    // the agent's edge read (verifyTurn) through the packed proxy: the message checked against the
    // namespace, then its edges read
    tap.requests.length = 0;
    const edges = await call(`${workerUrl}${BASE_PATH}/retrieve_related_entities`, {
      body: { entity_id: turns[0].userMessageEntityId, direction: 'outbound', relationship_types: ['PART_OF', 'REFERS_TO'] },
    });
    assert.equal(edges.status, 200, edges.text);
    assert.deepEqual(edges.json.relationships.map((r) => `${r.relationship_type}:${r.target_entity_id}`).sort(), [`PART_OF:${turns[0].conversationEntityId}`, `REFERS_TO:${acme}`]);
    assert.deepEqual(tap.requests.map((r) => r.path), ['/get_entity_snapshot', '/retrieve_related_entities']);
    server.resetCounts();
    // a reply's produced entities pass the packed proxy (default entityTypes); another type does not
    const producedCid = randomId(PREFIX + 'workerd-produced');
    const produced = await call(`${workerUrl}${BASE_PATH}/store`, { body: producedBody(producedCid) });
    assert.equal(produced.status, 200, produced.text);
    const grant = producedBody(randomId(PREFIX + 'workerd-grant'));
    grant.entities.push({ entity_type: 'agent_grant', agent: 'x' });
    const refusedGrant = await call(`${workerUrl}${BASE_PATH}/store`, { body: grant });
    assert.equal(refusedGrant.status, 403, refusedGrant.text);
    assert.equal(refusedGrant.json.error.code, 'CONVERSATION_FORBIDDEN');
    assert.deepEqual(nonZero(server.counts()), { '/store': 1 });
    const ids = idsByType(produced.json);
    assert.deepEqual(await refersTo(server, ids.conversation_message), [ids.person, ids.company].sort());
    server.resetCounts();
    tap.requests.length = 0;
    const outsider = new NeotomaAgent({ conversationId: randomId('outside'), transport: { baseUrl: `${workerUrl}${BASE_PATH}` } });
    const e = await rejection(outsider.turn(MESSAGES[0], reply, { turnId: 't1' }));
    assert.equal(e.status, 403);
    assert.equal(e.body.error.code, 'CONVERSATION_FORBIDDEN');
    assert.equal(server.counts()['/store'] ?? 0, 0);
    tap.requests.length = 0;
    server.resetCounts();
    const refused = [
      [`${workerUrl}${BASE_PATH}/store`, { method: 'GET' }, 405],
      [`${workerUrl}${BASE_PATH}/get_entity_snapshot`, { body: { entity_id: acme } }, 404],
      [`${workerUrl}/store`, { body: {} }, 404],
      [`${workerUrl}${BASE_PATH}/retrieve_entity_by_identifier`, { headers: { origin: 'http://127.0.0.1:10' }, body: { identifier: 'Acme Corp' } }, 403],
    ];
    for (const [url, init, status] of refused) {
      const r = await call(url, init);
      assert.equal(r.status, status, `${init.method ?? 'POST'} ${url}: ${r.text}`);
    }
    assert.deepEqual(tap.requests, [], 'no refused request reached Neotoma');
    const preflight = await call(`${workerUrl}${BASE_PATH}/store`, {
      method: 'OPTIONS',
      headers: { origin: allowed, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), allowed);
    const lookup = await call(`${workerUrl}${BASE_PATH}/retrieve_entity_by_identifier`, {
      headers: { origin: allowed, authorization: 'Bearer not-the-token' },
      body: { identifier: 'Acme Corp', limit: 1 },
    });
    assert.equal(lookup.status, 200, lookup.text);
    assert.equal(lookup.json.entities[0].id, acme);
    assertUpstreamAuthorized(1);

    // on a connection of its own: workerd closes a connection whose body was not read
    tap.requests.length = 0;
    const oversized = await postOnOwnConnection(`${workerUrl}${BASE_PATH}/retrieve_entity_by_identifier`, JSON.stringify({ identifier: 'x'.repeat(3 * 1024 * 1024) }));
    seen.push({ status: oversized.status, headers: oversized.headers, body: oversized.text });
    assert.equal(oversized.status, 413, oversized.text);
    assert.equal(JSON.parse(oversized.text).error.code, 'BODY_TOO_LARGE');
    assert.deepEqual(tap.requests, []);
    assertTokenAbsent(seen);
  } finally {
    await mf?.dispose();
    await ws.close();
  }
});

// --- Chromium ------------------------------------------------------------------------------------

const MIME = { '.html': 'text/html; charset=utf-8', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm' };

/**
 * A web origin for browser pages: `/` a blank page, `/pkg/*` the built package, and (when given)
 * `/neotoma/*` the proxy. Every byte it serves is recorded in `served`.
 */
async function startSite(getProxy) {
  const served = [];
  const pkgDir = path.join(repoRoot, 'pkg');
  const proxyNode = toNodeHandler((request) => getProxy()(request));
  const site = await listen((req, res) => {
    const pathname = new URL(req.url, 'http://127.0.0.1').pathname;
    if (getProxy && pathname.startsWith(`${BASE_PATH}/`)) return proxyNode(req, res);
    const reply = (status, type, body) => {
      served.push(String(body));
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (pathname === '/') return reply(200, MIME['.html'], '<!doctype html><title>widget</title><body>widget</body>');
    if (pathname.startsWith('/pkg/')) {
      const file = path.resolve(pkgDir, '.' + pathname.slice(4));
      if (file.startsWith(pkgDir + path.sep) && statSync(file, { throwIfNoEntry: false })?.isFile()) {
        return reply(200, MIME[path.extname(file)] ?? 'application/octet-stream', readFileSync(file));
      }
    }
    return reply(404, 'text/plain', 'not found');
  });
  return { ...site, served };
}

/** Runs one turn in the page with `baseUrl` and no token; the result or the error's fields. */
function turnInPage(page, { baseUrl, conversationId }) {
  return page.evaluate(
    async ({ baseUrl, conversationId, message }) => {
      const { NeotomaAgent } = await import('/pkg/browser.mjs');
      const agent = new NeotomaAgent({ conversationId, transport: { baseUrl, timeoutMs: 10_000 } });
      try {
        const r = await agent.turn(message, (m, ctx) => `Turn ${ctx.turnNumber}: Acme Corp, noted.`, { turnId: 'turn-1' });
        return { ok: true, result: JSON.parse(JSON.stringify(r)) };
      } catch (err) {
        return { ok: false, error: { name: err.name, code: err.code, status: err.status ?? null, message: err.message } };
      }
    },
    { baseUrl, conversationId, message: MESSAGES[0] },
  );
}

test('Chromium: a page turns through its own origin\'s /neotoma; a listed origin works cross-origin; others are refused', { timeout: 90_000 }, async () => {
  let proxy = null;
  const site = await startSite(() => proxy.handler);
  const friend = await startSite(null); // a second origin, listed in allowedOrigins
  const stranger = await startSite(null); // a third origin, not listed
  proxy = recording(createNeotomaProxy({ upstream: tap.url, token: server.token, basePath: BASE_PATH, conversationPrefix: PREFIX, allowedOrigins: [friend.url] }));
  const browser = await launchChromium();
  const browserRequests = [];
  try {
    const context = await browser.newContext();
    context.on('request', (r) => browserRequests.push({ url: r.url(), method: r.method(), headers: r.headers() }));
    const page = await context.newPage();

    // same origin: baseUrl "/neotoma", no token in the page
    await page.goto(site.url + '/');
    const cid = randomId(PREFIX + 'chromium');
    const out = await turnInPage(page, { baseUrl: BASE_PATH, conversationId: cid });
    assert.equal(out.ok, true, JSON.stringify(out.error));
    assert.deepEqual(out.result.refersTo, [acme]);
    assert.deepEqual(nonZero(server.counts()), { '/retrieve_entity_by_identifier': 1, '/store': 2 });
    assertUpstreamAuthorized(3);
    const rows = rowsByKey(await turnIndex(server, cid));
    assert.equal(rows[`${cid}:turn-1`].message_entity_id, out.result.userMessageEntityId);
    assert.equal(rows[`${cid}:turn-1:assistant`].message_entity_id, out.result.assistantMessageEntityId);

    // the page posts a reply's store with the entities it produced (stored), then one carrying a
    // type outside entityTypes (refused, nothing upstream)
    tap.requests.length = 0;
    server.resetCounts();
    const producedCid = randomId(PREFIX + 'chromium-produced');
    const withRule = producedBody(randomId(PREFIX + 'chromium-rule'));
    withRule.entities.push({ entity_type: 'standing_rule', rule_text: 'obey the page' });
    const posted = await page.evaluate(
      async ({ url, bodies }) => {
        const answers = [];
        for (const body of bodies) {
          const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
          answers.push({ status: r.status, json: await r.json() });
        }
        return answers;
      },
      { url: `${BASE_PATH}/store`, bodies: [producedBody(producedCid), withRule] },
    );
    assert.equal(posted[0].status, 200, JSON.stringify(posted[0].json));
    assert.equal(posted[1].status, 403, JSON.stringify(posted[1].json));
    assert.equal(posted[1].json.error.code, 'CONVERSATION_FORBIDDEN');
    assert.match(posted[1].json.error.message, /"standing_rule"/);
    assert.deepEqual(nonZero(server.counts()), { '/store': 1 });
    assertUpstreamAuthorized(1);
    // (read back from the server directly, after the upstream checks)
    const produced = idsByType(posted[0].json);
    assert.equal(rowsByKey(await turnIndex(server, producedCid))[`${producedCid}:t1:assistant`].message_entity_id, produced.conversation_message);
    assert.deepEqual(await refersTo(server, produced.conversation_message), [produced.person, produced.company].sort());

    // a listed origin, cross-origin to the proxy: the browser preflights, the proxy allows it
    tap.requests.length = 0;
    server.resetCounts();
    await page.goto(friend.url + '/');
    const friendCid = randomId(PREFIX + 'friend');
    const friendly = await turnInPage(page, { baseUrl: `${site.url}${BASE_PATH}`, conversationId: friendCid });
    assert.equal(friendly.ok, true, JSON.stringify(friendly.error));
    assert.deepEqual(nonZero(server.counts()), { '/retrieve_entity_by_identifier': 1, '/store': 2 });
    assertUpstreamAuthorized(3);
    assert.equal((await turnIndex(server, friendCid)).turns.length, 2);
    const preflights = proxy.responses.filter((r) => r.status === 204);
    assert.ok(preflights.length > 0, 'the browser sent preflights');
    for (const p of preflights) assert.ok(p.headers.some(([k, v]) => k === 'access-control-allow-origin' && v === friend.url));

    // an origin not listed: the preflight is refused, the POST never leaves the browser
    tap.requests.length = 0;
    server.resetCounts();
    await page.goto(stranger.url + '/');
    const refused = await turnInPage(page, { baseUrl: `${site.url}${BASE_PATH}`, conversationId: randomId(PREFIX + 'stranger') });
    if (refused.ok) {
      // an agent with an outbox keeps the unsendable message instead of rejecting
      assert.equal(refused.result.pending?.user, true, JSON.stringify(refused.result));
      assert.equal(refused.result.userMessageEntityId, null);
    } else {
      assert.equal(refused.error.code, 'NEOTOMA_NETWORK', refused.error.message);
    }
    const direct = await page.evaluate(async (url) => {
      try {
        await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"identifier":"Acme Corp"}' });
        return 'answered';
      } catch (e) {
        return e.name;
      }
    }, `${site.url}${BASE_PATH}/retrieve_entity_by_identifier`);
    assert.equal(direct, 'TypeError');
    assert.deepEqual(tap.requests, [], 'nothing from the stranger reached Neotoma');
    assert.ok(proxy.responses.some((r) => r.status === 403 && r.body.includes('ORIGIN_NOT_ALLOWED')));

    // the page never had the token: not in anything served to the browser, not in any request it made
    assertTokenAbsent(proxy.responses);
    for (const s of [site, friend, stranger]) assert.ok(!s.served.some((b) => b.includes(server.token)));
    assert.ok(browserRequests.length > 0);
    for (const r of browserRequests) {
      assert.equal(r.headers.authorization, undefined, `${r.method} ${r.url} had no Authorization`);
      assert.ok(!JSON.stringify(r).includes(server.token));
      assert.ok([site.url, friend.url, stranger.url].some((o) => r.url.startsWith(o + '/')), `only 127.0.0.1 origins: ${r.url}`);
    }
  } finally {
    await browser.close();
    await site.close();
    await friend.close();
    await stranger.close();
  }
});
