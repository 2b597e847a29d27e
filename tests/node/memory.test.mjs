// Turns do not leak wasm memory: after a warm-up, 800 more turns (a new agent every 100
// turns, the old one freed) leave the module's linear memory where it was, give or take one
// growth step of the allocator, over HTTP and over a custom JS transport, and need no more slots
// in the table of JS values Rust holds (wasm-bindgen's externref table). Linear memory never
// shrinks, so its size is the allocator's high-water mark: a leak shows as growth. The allocator
// (`GrowByAnEighth` in src/lib.rs) grows the memory by an eighth of its size at a time (at least
// a page), so one step is the most a high-water mark rounded up once can add; measured: 0. The
// leak this guards against (a `JsFuture` per timer that lost its race, each lookup's retrieval
// deadline and the LLM timeout, never freed, with its two JS callbacks; see `Sleep` in
// src/platform.rs) was 390-590 B and ~8 table slots per turn: 310-470 KB and ~6,000 slots over
// 800 turns, several steps. A count check, not a timing one.
//
// The server runs in a child process: its embedded store would otherwise grow this memory with
// what the turns store. A fresh one per test: its lookups slow down as its store grows.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import init, { NeotomaAgent } from 'neotoma-agent-wasm';
import { randomToken, randomId, SEED } from '../server/harness.mjs';

const WARM_UP_TURNS = 150;
const TURNS = 800;
const AGENT_TURNS = 100;
const PAGE = 64 * 1024;
/** The old leak's smallest rate: the bound must stay below what it added over TURNS turns. */
const OLD_LEAK_BYTES_PER_TURN = 390;
/**
 * Three lookups (and three deadlines) a turn, of the three seeded entities. Named by the
 * extractor, not in the text: turns that named them would be found by every later lookup, each
 * slower than the one before (the server's store grows with every turn).
 */
const MESSAGE = 'What did they say about it last week?';
const NAMES = [SEED.sarah.name, SEED.acme.name, SEED.falcon.name];

let memory;
/** wasm-bindgen's table of the JS values Rust holds (with reference types, as built). */
let externrefs;

/** tests/server/neotoma-server.mjs in a child process: `{ url, token, close() }`. */
async function childServer() {
  const token = randomToken();
  const script = fileURLToPath(new URL('../server/neotoma-server.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, '--port', '0', '--token', token], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = await new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = /^(http:\/\/\S+)\n/m.exec(stdout);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${stderr}`)));
  });
  return {
    url,
    token,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function post(server, path, body) {
  const res = await fetch(server.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

const llm = (_message, ctx) => `Noted, ${ctx.retrieved.length} of them.`;

/**
 * `turns` turns of MESSAGE, a new agent (`options()`) every AGENT_TURNS turns, the old one
 * freed; checks every turn found the three entities (the retrieval path ran) and was stored.
 */
async function run(turns, options) {
  let agent;
  for (let i = 0; i < turns; i++) {
    if (i % AGENT_TURNS === 0) agent = new NeotomaAgent({ conversationId: randomId('memory'), identifierExtractor: () => NAMES, ...options() });
    const r = await agent.turn(MESSAGE, llm);
    assert.equal(r.retrieved.length, 3, 'every turn looks up and finds the three entities');
    assert.deepEqual(r.pending, { user: false, assistant: false }, 'both messages stored');
    if (i % AGENT_TURNS === AGENT_TURNS - 1) agent.free();
  }
}

/** The growth of the module's linear memory and externref table over TURNS turns after the warm-up. */
async function growth(options) {
  await run(WARM_UP_TURNS, options);
  const before = { bytes: memory.buffer.byteLength, externrefs: externrefs.length };
  await run(TURNS, options);
  return { before: before.bytes, bytes: memory.buffer.byteLength - before.bytes, externrefs: externrefs.length - before.externrefs };
}

/** One growth step of the allocator from a memory of `bytes`: an eighth of it, in whole pages, at least one. */
const growthStep = (bytes) => Math.max(1, Math.ceil(bytes / 8 / PAGE)) * PAGE;

function assertFlat(grew) {
  const bound = growthStep(grew.before);
  // a memory so large that one step would hide the old leak needs a longer run to tell
  assert.ok(bound < OLD_LEAK_BYTES_PER_TURN * TURNS, `one growth step from ${grew.before} B is ${bound} B: more than the old leak over ${TURNS} turns`);
  assert.ok(grew.bytes <= bound, `wasm memory grew ${grew.bytes} B from ${grew.before} B over ${TURNS} turns (${(grew.bytes / TURNS).toFixed(0)} B per turn; one growth step is ${bound} B)`);
  // freed slots are reused exactly (a free list; no fragmentation), so a steady state needs no more
  assert.equal(grew.externrefs, 0, `the externref table grew ${grew.externrefs} slots over ${TURNS} turns`);
}

/** `use(server)` with a fresh seeded server in a child process, closed after. */
async function withServer(use) {
  const server = await childServer();
  try {
    for (const entity of [SEED.sarah, SEED.acme, SEED.falcon]) await post(server, '/store', { entities: [entity], idempotency_key: randomId('seed') });
    return await use(server);
  } finally {
    await server.close();
  }
}

before(async () => {
  const exports = await init();
  memory = exports.memory;
  externrefs = exports.__wbindgen_externrefs;
  assert.ok(externrefs instanceof WebAssembly.Table, 'the instance exports its externref table');
});

test('memory: 800 turns over HTTP, agents freed, do not grow wasm memory', { timeout: 120_000 }, async () => {
  const grew = await withServer((server) => growth(() => ({ transport: { baseUrl: server.url, token: server.token } })));
  assertFlat(grew);
});

test('memory: 800 turns over a custom JS transport, agents freed, do not grow wasm memory', { timeout: 120_000 }, async () => {
  const grew = await withServer((server) => {
    const transport = {
      store: (body) => post(server, '/store', body),
      retrieveEntityByIdentifier: (body) => post(server, '/retrieve_entity_by_identifier', body),
      createRelationships: (body) => post(server, '/create_relationships', body),
    };
    return growth(() => ({ transport }));
  });
  assertFlat(grew);
});
