// The edge example, www/worker/, in real workerd (Miniflare 3): `POST /chat` runs a Neotoma turn in
// the Worker, streams the reply, and stores it over real HTTP in the local Neotoma-shaped server
// (tests/server/neotoma-server.mjs) on 127.0.0.1. The LLM is the Worker's local responder, or an
// OpenAI-compatible API played by tests/packaging/edge/openai-sse-server.mjs on 127.0.0.1.
//
// Miniflare runs the Worker as www/worker/wrangler.toml describes it (main, compatibility date).
// It does not resolve npm packages, so the test lists the modules itself, as a bundler would lay
// them out after `npm install` in www/worker/: the Worker's modules traced from `main`, the built
// pkg/'s workerd entry (exports["."].workerd) and the files it imports, under
// node_modules/neotoma-agent-wasm/, and a one-line module named 'neotoma-agent-wasm' re-exporting
// the entry (the import map a bundler would apply).
//
// A turn's end is observed through the Worker's own log line ("neotoma turn <id> #<n> stored" or
// "... failed: <CODE>"), written when `done` settles inside ctx.waitUntil.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Miniflare } from 'miniflare';
import { parse as parseToml } from 'smol-toml';

import { startTestServer, seed, turnIndex, rowsByKey, randomId, entitySnapshot, related, refersTo } from '../server/harness.mjs';
import { startOpenAIServer } from '../packaging/edge/openai-sse-server.mjs';
import { relativeImports } from '../packaging/helpers.mjs';
import { sseData, replyChunks, systemPrompt } from '../../www/worker/openai.mjs';

const REPO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WORKER_DIR = path.join(REPO_DIR, 'www', 'worker');
const PKG_DIR = path.join(REPO_DIR, 'pkg');
const PACKAGE_NAME = 'neotoma-agent-wasm';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const MARKER_RE = /\n\n\[reply interrupted: ([A-Z_]+)\]$/;

let server;
let acme;
let openai;

before(async () => {
  server = await startTestServer();
  [acme] = await seed(server, [{ entity_type: 'company', name: 'Acme Corp' }], 'seed-edge-acme');
  openai = await startOpenAIServer();
});

after(async () => {
  await server?.close();
  await openai?.close();
});

/** The Worker's modules (main first) plus the built package's, laid out as under www/worker/node_modules. */
async function workerModules(main) {
  const pkgJson = JSON.parse(await readFile(path.join(PKG_DIR, 'package.json'), 'utf8'));
  const entry = pkgJson.exports['.'].workerd;
  assert.equal(typeof entry, 'string', 'pkg/package.json exports["."].workerd');
  const installedDir = path.join(WORKER_DIR, 'node_modules', PACKAGE_NAME);
  const entryName = path.posix.join('node_modules', PACKAGE_NAME, entry);
  const pkgFiles = await relativeImports(path.join(PKG_DIR, entry));
  return [
    ...(await relativeImports(path.join(WORKER_DIR, main))).map((p) => ({ type: 'ESModule', path: p })),
    {
      type: 'ESModule',
      path: path.join(WORKER_DIR, PACKAGE_NAME),
      contents: `export * from './${entryName}';\nexport { default } from './${entryName}';\n`,
    },
    ...(await Promise.all(
      pkgFiles.map(async (p) => ({
        type: p.endsWith('.wasm') ? 'CompiledWasm' : 'ESModule',
        path: path.join(installedDir, path.relative(PKG_DIR, p)),
        contents: await readFile(p),
      })),
    )),
  ];
}

/**
 * The Worker in Miniflare with `bindings` as its env: `{ chat(body), fetch(path, init), logs(),
 * waitForLog(text), dispose() }`. Every answer read through `chat`/`fetch` is kept in `seen`.
 */
async function startWorker(bindings) {
  const config = parseToml(await readFile(path.join(WORKER_DIR, 'wrangler.toml'), 'utf8'));
  let logs = '';
  let logWaiters = [];
  const mf = new Miniflare({
    modulesRoot: WORKER_DIR,
    modules: await workerModules(config.main),
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags ?? [],
    bindings,
    handleRuntimeStdio(stdout, stderr) {
      for (const stream of [stdout, stderr]) {
        stream.on('data', (data) => {
          logs += data;
          logWaiters = logWaiters.filter((w) => !w());
        });
      }
    },
  });
  try {
    await mf.ready;
  } catch (err) {
    throw new Error(`workerd did not start: ${err.message}\n--- workerd output ---\n${logs}`, { cause: err });
  }
  const seen = [];
  const worker = {
    seen,
    logs: () => logs,
    /** The raw Response (body unread): for reading a stream as it comes. */
    dispatch(urlPath, init = {}) {
      // identity: Miniflare would otherwise gzip the body, which holds small chunks back
      const headers = { 'accept-encoding': 'identity', ...init.headers };
      return mf.dispatchFetch(`http://localhost${urlPath}`, { ...init, headers, signal: AbortSignal.timeout(30_000) });
    },
    /** `{ status, headers, text, json? }`, the whole body read. */
    async fetch(urlPath, init) {
      const res = await worker.dispatch(urlPath, init);
      const text = await res.text();
      seen.push({ headers: [...res.headers], text });
      let json;
      if ((res.headers.get('content-type') ?? '').startsWith('application/json')) json = JSON.parse(text);
      return { status: res.status, headers: res.headers, text, json };
    },
    chat(body) {
      return worker.fetch('/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
    /** Resolves once the Worker has logged `text`. */
    waitForLog(text) {
      return new Promise((resolve) => {
        const check = () => logs.includes(text) && (resolve(), true);
        if (!check()) logWaiters.push(check);
      });
    },
    dispose: () => mf.dispose(),
  };
  return worker;
}

/** No secret in any answer the Worker gave (headers and bodies) or in its logs. */
function assertNoSecrets(worker, secrets) {
  const everything = JSON.stringify(worker.seen) + worker.logs();
  for (const secret of secrets) assert.ok(!everything.includes(secret), 'a secret leaked into an answer or a log');
}

/** The turn's rows in the server's turn-index, checked: PART_OF the conversation, REFERS_TO `expectedRefs`. */
async function storedMessage(row, conversationEntityId, expectedRefs) {
  const snapshot = (await entitySnapshot(server, row.message_entity_id)).snapshot;
  const partOf = (await related(server, row.message_entity_id, 'outbound', ['PART_OF'])).relationships.map((r) => r.target_entity_id);
  assert.deepEqual(partOf, [conversationEntityId], `${row.turn_key} PART_OF`);
  assert.deepEqual(await refersTo(server, row.message_entity_id), expectedRefs, `${row.turn_key} REFERS_TO`);
  return snapshot.content;
}

const neotomaEnv = () => ({ NEOTOMA_URL: server.url, NEOTOMA_TOKEN: server.token });

test('wrangler.toml runs worker.mjs; package.json depends on the package', async () => {
  const config = parseToml(await readFile(path.join(WORKER_DIR, 'wrangler.toml'), 'utf8'));
  assert.equal(config.main, 'worker.mjs');
  assert.match(config.compatibility_date, /^\d{4}-\d{2}-\d{2}$/);
  const pkg = JSON.parse(await readFile(path.join(WORKER_DIR, 'package.json'), 'utf8'));
  assert.ok(pkg.dependencies[PACKAGE_NAME], 'www/worker/package.json dependencies');
  assert.doesNotMatch(await readFile(path.join(WORKER_DIR, 'wrangler.toml'), 'utf8'), /^\s*(NEOTOMA_TOKEN|OPENAI_API_KEY)\s*=/m);
});

test('SSE parsing: every split of the byte stream gives the same events and text', async () => {
  const deltas = ['Acme', ' Corp — café ', '🚀', '\n', 'line "two"'];
  const events = [
    ': keep-alive comment\r\n\r\n',
    'event: ignored\ndata: {"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}\n\n',
    ...deltas.map((content, i) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}${['\n\n', '\r\n\r\n', '\r\r'][i % 3]}`),
    'data:{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n',
    'data: [DONE]\n\n',
  ];
  const bytes = new TextEncoder().encode(events.join(''));
  const collect = async (iterable) => {
    const out = [];
    for await (const x of iterable) out.push(x);
    return out;
  };
  const streamOf = (...parts) =>
    new ReadableStream({
      start(c) {
        for (const p of parts) c.enqueue(p);
        c.close();
      },
    });
  const whole = await collect(replyChunks(streamOf(bytes)));
  assert.deepEqual(whole, deltas);
  for (let cut = 1; cut < bytes.length; cut++) {
    const parts = [bytes.subarray(0, cut), bytes.subarray(cut)];
    assert.deepEqual(await collect(replyChunks(streamOf(...parts))), deltas, `split at byte ${cut}`);
  }
  // one event's data lines are joined by "\n"; an unfinished last event is dropped
  const multi = new TextEncoder().encode('data: a\ndata:  b\ndata\n\ndata: dropped');
  assert.deepEqual(await collect(sseData(streamOf(multi))), ['a\n b\n']);
  // a stream that ends without [DONE], and one with a non-JSON event, are errors with a code
  await assert.rejects(collect(replyChunks(streamOf(new TextEncoder().encode(events.slice(0, 3).join(''))))), { code: 'LLM_STREAM' });
  await assert.rejects(collect(replyChunks(streamOf(new TextEncoder().encode('data: {"choices":\n\n')))), { code: 'LLM_STREAM' });
  await assert.rejects(collect(replyChunks(streamOf(new TextEncoder().encode('data: {"error":{"message":"overloaded"}}\n\n')))), {
    code: 'LLM_STREAM',
  });
  // the system prompt carries the agent's memory block (ctx.memory) as it is
  const memory = 'Remembered entities (Neotoma):\n- company "Acme Corp" (ent_1): industry: manufacturing';
  assert.equal(
    systemPrompt(memory),
    `You are a helpful assistant with a long-term memory (Neotoma).\nName the remembered entities when you use them.\n${memory}`,
  );
  assert.equal(systemPrompt(''), "You are a helpful assistant with a long-term memory (Neotoma).\nNo remembered entity matches the user's message.");
});

test('local responder: two turns streamed by the Worker are stored exactly as streamed, over HTTP', { timeout: 120_000 }, async () => {
  const worker = await startWorker(neotomaEnv());
  try {
    const cid = randomId('edge-local');
    const sent = [
      { message: 'Tell me about Acme Corp', turnId: 'turn 1 ✓', turnNumber: 1 },
      { message: 'Is Acme Corp still a customer?', turnNumber: 2 }, // the Worker's agent picks the id
    ];
    const turns = [];
    for (const s of sent) {
      const res = await worker.chat({ conversationId: cid, ...s });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(res.headers.get('x-turn-number'), String(s.turnNumber));
      const turnId = decodeURIComponent(res.headers.get('x-turn-id'));
      await worker.waitForLog(`neotoma turn ${turnId} #${s.turnNumber} stored`);
      turns.push({ turnId, reply: res.text });
    }
    assert.equal(turns[0].turnId, 'turn 1 ✓');
    assert.match(turns[1].turnId, UUID_RE);
    assert.equal(turns[0].reply, 'Turn 1. From memory: Acme Corp (company).');
    assert.equal(turns[1].reply, 'Turn 2. From memory: Acme Corp (company).');

    const index = await turnIndex(server, cid);
    const rows = rowsByKey(index);
    const keys = turns.map((t) => `${cid}:${t.turnId}`);
    assert.deepEqual(Object.keys(rows).sort(), [keys[0], `${keys[0]}:assistant`, keys[1], `${keys[1]}:assistant`].sort());
    for (const [i, key] of keys.entries()) {
      assert.equal(rows[key].role, 'user');
      assert.equal(rows[key].turn_number, i + 1);
      assert.equal(rows[`${key}:assistant`].role, 'assistant');
      assert.equal(rows[`${key}:assistant`].turn_number, i + 1);
      assert.equal(await storedMessage(rows[key], index.conversation_entity_id, [acme]), sent[i].message);
      assert.equal(await storedMessage(rows[`${key}:assistant`], index.conversation_entity_id, [acme]), turns[i].reply);
    }
    assertNoSecrets(worker, [server.token]);
  } finally {
    await worker.dispose();
  }
});

test('OpenAI-compatible LLM: the request carries model, stream, key and retrieved entities; the reply streams through and is stored whole', { timeout: 120_000 }, async () => {
  const key = `sk-edge-${randomBytes(16).toString('hex')}`;
  const worker = await startWorker({ ...neotomaEnv(), OPENAI_BASE_URL: `${openai.url}/v1/`, OPENAI_API_KEY: key, OPENAI_MODEL: 'edge-test-model' });
  try {
    const cid = randomId('edge-openai');
    const message = 'Is Acme Corp still a customer?';
    const deltas = ['Yes: Acme Corp', ' renewed — ', 'café plan ', '🚀', ' in 2025.'];
    let openGate;
    const gate = new Promise((resolve) => (openGate = resolve));
    openai.planReply(deltas, { gate });
    const requestsBefore = openai.requests.length;

    const res = await worker.dispatch('/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ conversationId: cid, message, turnId: 'turn-1', turnNumber: 1 }),
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-turn-id'), 'turn-1');
    // The fake API holds everything after its first delta until the gate opens: bytes arriving
    // now prove the Worker streams the reply instead of buffering it.
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    assert.equal(first.done, false);
    let streamed = decoder.decode(first.value, { stream: true });
    assert.ok(streamed.length > 0 && deltas[0].startsWith(streamed), JSON.stringify(streamed));
    openGate();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      streamed += decoder.decode(value, { stream: true });
    }
    streamed += decoder.decode();
    worker.seen.push({ headers: [...res.headers], text: streamed });
    assert.equal(streamed, deltas.join(''));
    await worker.waitForLog('neotoma turn turn-1 #1 stored');

    assert.equal(openai.requests.length, requestsBefore + 1);
    const request = openai.requests.at(-1);
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/v1/chat/completions');
    assert.equal(request.headers.authorization, `Bearer ${key}`);
    assert.equal(request.body.model, 'edge-test-model');
    assert.equal(request.body.stream, true);
    assert.equal(request.body.messages.length, 2);
    const [system, user] = request.body.messages;
    assert.equal(system.role, 'system');
    assert.ok(system.content.includes(`- company "Acme Corp" (${acme})`), system.content);
    assert.deepEqual(user, { role: 'user', content: message });

    const index = await turnIndex(server, cid);
    const rows = rowsByKey(index);
    assert.deepEqual(Object.keys(rows).sort(), [`${cid}:turn-1`, `${cid}:turn-1:assistant`]);
    assert.equal(await storedMessage(rows[`${cid}:turn-1`], index.conversation_entity_id, [acme]), message);
    assert.equal(await storedMessage(rows[`${cid}:turn-1:assistant`], index.conversation_entity_id, [acme]), deltas.join(''));
    assertNoSecrets(worker, [key, server.token]);
  } finally {
    await worker.dispose();
  }
});

test('LLM failing mid-stream: the body ends with the interruption marker, the user message is stored, no assistant message', { timeout: 120_000 }, async () => {
  const key = `sk-edge-${randomBytes(16).toString('hex')}`;
  const worker = await startWorker({ ...neotomaEnv(), OPENAI_BASE_URL: `${openai.url}/v1`, OPENAI_API_KEY: key });
  try {
    const deltas = ['Acme Corp', ' was founded', ' in'];
    for (const [ending, code] of [
      ['cut', 'LLM_NETWORK'], // the connection is destroyed mid-body
      ['invalid', 'LLM_STREAM'], // an event whose data is not JSON
      ['eof', 'LLM_STREAM'], // a clean end without [DONE]
    ]) {
      const cid = randomId(`edge-${ending}`);
      const turnId = `turn-${ending}`;
      openai.planReply(deltas, { ending });
      const res = await worker.chat({ conversationId: cid, message: 'When was Acme Corp founded?', turnId, turnNumber: 1 });
      assert.equal(res.status, 200, `${ending}: ${res.text}`);
      const marker = MARKER_RE.exec(res.text);
      assert.ok(marker, `${ending}: no interruption marker in ${JSON.stringify(res.text)}`);
      assert.equal(marker[1], code, ending);
      assert.ok(deltas.join('').startsWith(res.text.slice(0, marker.index)), `${ending}: ${JSON.stringify(res.text)}`);
      await worker.waitForLog(`neotoma turn ${turnId} failed: ${code}`); // `done` rejected

      const rows = rowsByKey(await turnIndex(server, cid));
      assert.deepEqual(Object.keys(rows), [`${cid}:${turnId}`], `${ending}: only the user message is stored`);
      assert.equal(rows[`${cid}:${turnId}`].role, 'user');
    }
    assertNoSecrets(worker, [key, server.token]);
  } finally {
    await worker.dispose();
  }
});

test('LLM refusing before any chunk: 502 with its code (never the key it echoed); the user message stays stored', { timeout: 120_000 }, async () => {
  const key = `sk-edge-${randomBytes(16).toString('hex')}`;
  const worker = await startWorker({ ...neotomaEnv(), OPENAI_BASE_URL: `${openai.url}/v1`, OPENAI_API_KEY: key });
  try {
    const cid = randomId('edge-refused');
    openai.planStatus(401, { error: { message: `Incorrect API key provided: ${key}.`, type: 'invalid_request_error', code: 'invalid_api_key' } });
    const res = await worker.chat({ conversationId: cid, message: 'Tell me about Acme Corp', turnId: 'turn-1', turnNumber: 1 });
    assert.equal(res.status, 502, res.text);
    assert.deepEqual(res.json, { error: { code: 'LLM_HTTP', message: 'the LLM endpoint answered 401' } });
    await worker.waitForLog('neotoma turn turn-1 failed: LLM_HTTP');
    assert.deepEqual(Object.keys(rowsByKey(await turnIndex(server, cid))), [`${cid}:turn-1`]);
    assertNoSecrets(worker, [key, server.token]);
  } finally {
    await worker.dispose();
  }
});

test('bad input: 400 with a code and nothing sent to Neotoma; other paths 404, other methods 405', { timeout: 120_000 }, async () => {
  const worker = await startWorker(neotomaEnv());
  try {
    const cid = randomId('edge-bad');
    const requestsBefore = server.requests.length;
    const cases = [
      ['{"conversationId": "c",', 'INVALID_JSON'],
      ['[1, 2]', 'INVALID_INPUT'],
      [{ message: 'Tell me about Acme Corp' }, 'INVALID_INPUT'],
      [{ conversationId: '', message: 'hi' }, 'INVALID_INPUT'],
      [{ conversationId: cid }, 'INVALID_INPUT'],
      [{ conversationId: cid, message: 42 }, 'INVALID_INPUT'],
      [{ conversationId: cid, message: 'hi', turnNumber: 0 }, 'INVALID_INPUT'],
      [{ conversationId: cid, message: 'hi', turnNumber: '2' }, 'INVALID_INPUT'],
      [{ conversationId: cid, message: 'hi', turnId: 'a\u0001b' }, 'INVALID_INPUT'],
    ];
    for (const [body, code] of cases) {
      const res = await worker.chat(body);
      assert.equal(res.status, 400, `${JSON.stringify(body)} -> ${res.status} ${res.text}`);
      assert.equal(res.json.error.code, code, JSON.stringify(body));
      assert.equal(typeof res.json.error.message, 'string');
      assert.ok(res.json.error.message.length > 0);
    }
    const get = await worker.fetch('/chat');
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    assert.equal(get.json.error.code, 'METHOD_NOT_ALLOWED');
    const other = await worker.fetch('/chat/extra', { method: 'POST', body: '{}' });
    assert.equal(other.status, 404);
    assert.equal(other.json.error.code, 'NOT_FOUND');

    assert.equal(server.requests.length, requestsBefore, 'no request reached Neotoma');
    assertNoSecrets(worker, [server.token]);
  } finally {
    await worker.dispose();
  }
});

test('no NEOTOMA_URL: the embedded store, one per isolate, kept across requests', { timeout: 120_000 }, async () => {
  const worker = await startWorker({});
  try {
    const requestsBefore = server.requests.length;
    const first = await worker.chat({ conversationId: 'edge-embedded', message: 'Tell me about Acme Corp', turnId: 'turn-1', turnNumber: 1 });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.text, 'Turn 1. Nothing in memory matches your message.');
    await worker.waitForLog('neotoma turn turn-1 #1 stored');
    // the same turn id with other content: the store of the first request remembers it
    const reused = await worker.chat({ conversationId: 'edge-embedded', message: 'Something else', turnId: 'turn-1', turnNumber: 1 });
    assert.equal(reused.status, 409, reused.text);
    assert.equal(reused.json.error.code, 'IDEMPOTENCY_MISMATCH');
    assert.equal(server.requests.length, requestsBefore, 'nothing went to the Neotoma server');
  } finally {
    await worker.dispose();
  }
});
