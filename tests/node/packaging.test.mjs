// Packaging tests, in the spirit of automerge's: `npm pack` the built pkg/, install the tarball into
// small fixture projects (tests/packaging/*, copied to a temp dir) and run a real two-turn
// conversation in each runtime, every turn going over HTTP to the local Neotoma-shaped server on
// 127.0.0.1. Then check on the server what the conversation stored.
//
//   Node ESM  tests/packaging/node-esm  `node main.mjs`; the package name resolves via exports["."].node
//   Deno      tests/packaging/deno      `deno run` with deno.json `"nodeModulesDir": "manual"`: Deno
//                                       resolves 'neotoma-agent-wasm' from the npm-installed node_modules/
//                                       with its own conditions (deno first), i.e. to deno.mjs. Offline:
//                                       DENO_DIR is a temp dir, --cached-only, net only to 127.0.0.1.
//   workerd   tests/packaging/worker    Miniflare 3 (which does not resolve npm packages): the test
//                                       reads exports["."].workerd from the installed package.json and
//                                       lists the modules itself: the package's files under their real
//                                       node_modules/ paths (ESModule for .mjs/.js, CompiledWasm for the
//                                       .wasm) plus a one-line module named 'neotoma-agent-wasm' that
//                                       re-exports that entry (the import map a bundler would apply).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { Miniflare } from 'miniflare';

import { startTestServer, seed, turnIndex, rowsByKey, randomId } from '../server/harness.mjs';
import {
  DENO_BIN,
  describeRun,
  installFixture,
  installedPackage,
  lastJsonLine,
  makeWorkspace,
  packTarball,
  run,
  PACKAGE_NAME,
} from '../packaging/helpers.mjs';

// The fixtures send these two messages with turn ids turn-1 and turn-2.
const MESSAGES = ['Tell me about Acme Corp', 'Is Acme Corp still a customer?'];
const TURN_IDS = ['turn-1', 'turn-2'];

let server;
let acme;
let ws;
let tarball;
const timings = {};

before(async () => {
  server = await startTestServer();
  [acme] = await seed(server, [{ entity_type: 'company', name: 'Acme Corp' }], 'seed-packaging-acme');
  ws = await makeWorkspace();
  const t0 = performance.now();
  tarball = await packTarball(ws);
  timings.pack = Math.round(performance.now() - t0);
});

after(async () => {
  await server?.close();
  await ws?.close();
  if (process.env.PACKAGING_TIMINGS) console.error('packaging timings (ms):', JSON.stringify(timings));
});

/** The two TurnResults and what the server stored for the conversation. */
async function checkConversation(cid, turns) {
  assert.equal(turns.length, 2);
  const [r1, r2] = turns;
  for (const [i, r] of turns.entries()) {
    assert.equal(r.turnId, TURN_IDS[i]);
    assert.equal(r.turnNumber, i + 1);
    assert.equal(r.assistantMessage, `Turn ${i + 1}: Acme Corp, noted.`);
    assert.deepEqual(r.replayed, { user: false, assistant: false });
    assert.deepEqual(r.retrievedEntityIds, [acme]);
    assert.deepEqual(r.refersTo, [acme]);
    assert.ok(Array.isArray(r.storeWarnings));
  }
  assert.equal(r1.conversationEntityId, r2.conversationEntityId);

  const index = await turnIndex(server, cid);
  assert.equal(index.conversation_id, cid);
  assert.equal(index.conversation_entity_id, r1.conversationEntityId);
  assert.equal(index.turns.length, 4, JSON.stringify(index.turns, null, 1));
  const rows = rowsByKey(index);
  const [k1, k2] = TURN_IDS.map((t) => `${cid}:${t}`);
  assert.deepEqual(Object.keys(rows).sort(), [k1, `${k1}:assistant`, k2, `${k2}:assistant`].sort());
  for (const [k, r, n] of [[k1, r1, 1], [k2, r2, 2]]) {
    assert.equal(rows[k].role, 'user');
    assert.equal(rows[k].turn_number, n);
    assert.equal(rows[k].message_entity_id, r.userMessageEntityId);
    assert.equal(rows[`${k}:assistant`].role, 'assistant');
    assert.equal(rows[`${k}:assistant`].turn_number, n);
    assert.equal(rows[`${k}:assistant`].message_entity_id, r.assistantMessageEntityId);
  }
}

test('Node ESM: the packed tarball, installed in a "type": "module" project, runs two turns over HTTP', { timeout: 120_000 }, async () => {
  const t0 = performance.now();
  const dir = await installFixture(ws, 'node-esm', tarball);
  const t1 = performance.now();
  const cid = randomId('pkg-node');
  const r = await run(process.execPath, ['main.mjs', server.url, server.token, cid], { cwd: dir, timeoutMs: 30_000 });
  timings.node = { install: Math.round(t1 - t0), run: r.ms };
  assert.equal(r.code, 0, describeRun('node main.mjs', r));
  const out = lastJsonLine(r.stdout);
  const { dir: pkgDir } = await installedPackage(dir);
  assert.equal(out.resolved, pathToFileURL(path.join(pkgDir, 'node.mjs')).href);
  await checkConversation(cid, out.turns);
});

test('Deno: the packed tarball, npm-installed, runs two turns over HTTP through the deno entry', { timeout: 120_000 }, async () => {
  const t0 = performance.now();
  const dir = await installFixture(ws, 'deno', tarball);
  const t1 = performance.now();
  const cid = randomId('pkg-deno');
  const env = {
    ...process.env,
    DENO_DIR: path.join(ws.dir, '.deno-dir'),
    DENO_NO_UPDATE_CHECK: '1',
    DENO_NO_PROMPT: '1',
    NO_COLOR: '1',
  };
  const r = await run(
    DENO_BIN,
    ['run', '--cached-only', '--no-prompt', '--allow-net=127.0.0.1', `--allow-read=${dir}`, 'main.mjs', server.url, server.token, cid],
    { cwd: dir, env, timeoutMs: 60_000 },
  );
  timings.deno = { install: Math.round(t1 - t0), run: r.ms };
  assert.equal(r.code, 0, describeRun('deno run main.mjs', r));
  const out = lastJsonLine(r.stdout);
  const { dir: pkgDir } = await installedPackage(dir);
  assert.equal(out.resolved, pathToFileURL(path.join(pkgDir, 'deno.mjs')).href);
  await checkConversation(cid, out.turns);
});

test('workerd (Miniflare): a Worker importing the packed package runs two turns over HTTP', { timeout: 120_000 }, async () => {
  const t0 = performance.now();
  const dir = await installFixture(ws, 'worker', tarball);
  const { dir: pkgDir, json } = await installedPackage(dir);
  const entry = json.exports['.'].workerd;
  assert.equal(typeof entry, 'string', 'exports["."].workerd');
  const entryPath = path.join(pkgDir, entry);
  const entryName = path.relative(dir, entryPath).split(path.sep).join('/');
  const typeOf = (file) => (file.endsWith('.wasm') ? 'CompiledWasm' : 'ESModule');
  const pkgFiles = [entry, './neotoma_agent_wasm.js', './neotoma_agent_wasm_bg.wasm'].map((f) => path.join(pkgDir, f));
  const t1 = performance.now();

  const mf = new Miniflare({
    modulesRoot: dir,
    modules: [
      { type: 'ESModule', path: path.join(dir, 'worker.mjs') },
      {
        type: 'ESModule',
        path: path.join(dir, PACKAGE_NAME),
        contents: `export * from './${entryName}';\nexport { default } from './${entryName}';\n`,
      },
      ...[...new Set(pkgFiles)].map((p) => ({ type: typeOf(p), path: p })),
    ],
    bindings: { NEOTOMA_URL: server.url, NEOTOMA_TOKEN: server.token },
    compatibilityDate: '2024-09-23',
  });
  try {
    const cid = randomId('pkg-workerd');
    const turns = [];
    for (const [i, message] of MESSAGES.entries()) {
      const res = await mf.dispatchFetch('http://localhost/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ conversationId: cid, message, turnId: TURN_IDS[i], turnNumber: i + 1 }),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      assert.equal(res.status, 200, `POST /chat (turn ${i + 1}) -> ${res.status}: ${text}`);
      turns.push(JSON.parse(text));
    }
    timings.workerd = { install: Math.round(t1 - t0), run: Math.round(performance.now() - t1) };
    await checkConversation(cid, turns);
    // the module the Worker ran is the workerd entry (it compiles nothing at run time)
    assert.match(await readFile(entryPath, 'utf8'), /import wasmModule from '\.\/neotoma_agent_wasm_bg\.wasm'/);
  } finally {
    await mf.dispose();
  }
});
