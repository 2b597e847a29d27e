// Packaging tests, in the spirit of automerge's: `npm pack` the built pkg/, install the tarball into
// small fixture projects (tests/packaging/*, copied to a temp dir) and run a real two-turn
// conversation in each runtime, every turn going over HTTP to the local Neotoma-shaped server on
// 127.0.0.1. Then check on the server what the conversation stored (assertTwoTurnConversationStored
// in tests/packaging/helpers.mjs, shared with the Vite + Chromium fixture in packaging-vite.test.mjs).
//
//   Node ESM  tests/packaging/node-esm  `node main.mjs`; the package name resolves via exports["."].node
//   Deno      tests/packaging/deno      `deno run` with deno.json `"nodeModulesDir": "manual"`: Deno
//                                       resolves 'neotoma-agent-wasm' from the npm-installed node_modules/
//                                       with its own conditions (deno first), i.e. to deno.mjs. Offline:
//                                       DENO_DIR is a temp dir, --cached-only, net only to 127.0.0.1.
//   workerd   tests/packaging/worker    Miniflare 3 (which does not resolve npm packages): the test
//                                       reads exports["."].workerd from the installed package.json and
//                                       lists the modules itself: that entry and the package files it
//                                       imports, transitively, under their real node_modules/ paths
//                                       (ESModule for .mjs/.js, CompiledWasm for the .wasm) plus a one-line module named 'neotoma-agent-wasm' that
//                                       re-exports that entry (the import map a bundler would apply).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { Miniflare } from 'miniflare';

import { startTestServer, seed, randomId } from '../server/harness.mjs';
import {
  assertTwoTurnConversationStored,
  DENO_BIN,
  describeRun,
  installFixture,
  installedPackage,
  lastJsonLine,
  makeWorkspace,
  MESSAGES,
  packTarball,
  relativeImports,
  run,
  PACKAGE_NAME,
  TURN_IDS,
} from '../packaging/helpers.mjs';

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

test('Node ESM: the packed tarball, installed in a "type": "module" project, runs two turns over HTTP', { timeout: 120_000 }, async () => {
  const t0 = performance.now();
  const dir = await installFixture(ws, 'node-esm', tarball);
  const t1 = performance.now();
  const cid = randomId('pkg-node');
  const env = { ...process.env, NEOTOMA_URL: server.url, NEOTOMA_TOKEN: server.token, CONVERSATION_ID: cid };
  const r = await run(process.execPath, ['main.mjs'], { cwd: dir, env, timeoutMs: 30_000 });
  timings.node = { install: Math.round(t1 - t0), run: r.ms };
  assert.equal(r.code, 0, describeRun('node main.mjs', r));
  const out = lastJsonLine(r.stdout);
  const { dir: pkgDir } = await installedPackage(dir);
  assert.equal(out.resolved, pathToFileURL(path.join(pkgDir, 'node.mjs')).href);
  await assertTwoTurnConversationStored(server, { conversationId: cid, turns: out.turns, entityId: acme });
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
    NEOTOMA_URL: server.url,
    NEOTOMA_TOKEN: server.token,
    CONVERSATION_ID: cid,
  };
  const r = await run(
    DENO_BIN,
    ['run', '--cached-only', '--no-prompt', '--allow-net=127.0.0.1', `--allow-read=${dir}`, '--allow-env=NEOTOMA_URL,NEOTOMA_TOKEN,CONVERSATION_ID', 'main.mjs'],
    { cwd: dir, env, timeoutMs: 60_000 },
  );
  timings.deno = { install: Math.round(t1 - t0), run: r.ms };
  assert.equal(r.code, 0, describeRun('deno run main.mjs', r));
  const out = lastJsonLine(r.stdout);
  const { dir: pkgDir } = await installedPackage(dir);
  assert.equal(out.resolved, pathToFileURL(path.join(pkgDir, 'deno.mjs')).href);
  await assertTwoTurnConversationStored(server, { conversationId: cid, turns: out.turns, entityId: acme });
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
  const pkgFiles = await relativeImports(entryPath);
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
      ...pkgFiles.map((p) => ({ type: typeOf(p), path: p })),
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
    await assertTwoTurnConversationStored(server, { conversationId: cid, turns, entityId: acme });
    // the module the Worker ran is the workerd entry (it compiles nothing at run time)
    assert.match(await readFile(entryPath, 'utf8'), /import wasmModule from '\.\/neotoma_agent_wasm_bg\.wasm'/);
  } finally {
    await mf.dispose();
  }
});
