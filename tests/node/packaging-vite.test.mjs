// Packaging test for bundlers and browsers: `npm pack` the built pkg/, install the tarball into a temp
// copy of tests/packaging/vite, `vite build` it (the root's pinned Vite, run with the fixture as its
// root, so 'neotoma-agent-wasm' resolves from the fixture's own node_modules through the package's
// `browser` export condition), serve dist/ on 127.0.0.1 and open it in headless Chromium. The page
// runs a two-turn conversation over HTTP and the test checks on the local Neotoma-shaped server what
// it stored (assertTwoTurnConversationStored, shared with tests/node/packaging.test.mjs).
//
// The page holds no token: it sends its Neotoma calls to /neotoma/* on its own origin, where the
// installed package's createNeotomaProxy (neotoma-agent-wasm/proxy, through its toNodeHandler)
// forwards them to the Neotoma server with the bearer token (Neotoma refuses cross-origin writes,
// and a token in a page is a leaked token).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { startTestServer, seed, randomId } from '../server/harness.mjs';
import { launchChromium, startStaticServer } from '../server/static-server.mjs';
import {
  assertTwoTurnConversationStored,
  describeRun,
  installFixture,
  installedPackage,
  makeWorkspace,
  MESSAGES,
  packTarball,
  PACKAGE_NAME,
  REPLIES,
  REPO_DIR,
  run,
  TURN_IDS,
} from '../packaging/helpers.mjs';

const VITE_BIN = path.join(REPO_DIR, 'node_modules', 'vite', 'bin', 'vite.js');
const WASM_FILE = 'neotoma_agent_wasm_bg.wasm';

let server;
let acme;
let ws;
let tarball;

before(async () => {
  server = await startTestServer();
  [acme] = await seed(server, [{ entity_type: 'company', name: 'Acme Corp' }], 'seed-packaging-vite-acme');
  ws = await makeWorkspace('neotoma-packaging-vite-');
  tarball = await packTarball(ws);
});

after(async () => {
  await server?.close();
  await ws?.close();
});

/**
 * The page's origin on 127.0.0.1: `/neotoma/*` goes to `neotoma` (node:http's `(req, res)`), every
 * other path is passed on to `staticUrl` as it is.
 */
async function startFrontServer({ neotoma, staticUrl }) {
  const front = http.createServer((req, res) => {
    if (req.url.startsWith('/neotoma/')) {
      neotoma(req, res);
      return;
    }
    const upstream = http.request(staticUrl + req.url, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (err) => res.writeHead(502, { 'content-type': 'text/plain' }).end(String(err.message)));
    req.pipe(upstream);
  });
  await new Promise((r) => front.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${front.address().port}`,
    close: () =>
      new Promise((r) => {
        front.close(() => r());
        front.closeAllConnections();
      }),
  };
}

test('Vite + Chromium: a page bundling the packed package runs two turns through its own origin', { timeout: 180_000 }, async () => {
  const t0 = performance.now();
  const dir = await installFixture(ws, 'vite', tarball);
  const { dir: pkgDir, json: pkgJson } = await installedPackage(dir);
  const t1 = performance.now();

  // --manifest: dist/.vite/manifest.json names the source file of every chunk and asset
  const build = await run(process.execPath, [VITE_BIN, 'build', '--manifest'], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    timeoutMs: 120_000,
  });
  assert.equal(build.code, 0, describeRun('vite build', build));
  const t2 = performance.now();

  // The .wasm is an emitted asset, byte for byte the installed package's, resolved from the
  // fixture's own node_modules (the tarball), and no bundle inlines it as base64.
  const distDir = path.join(dir, 'dist');
  const manifest = JSON.parse(await readFile(path.join(distDir, '.vite', 'manifest.json'), 'utf8'));
  const wasmSource = `node_modules/${PACKAGE_NAME}/${WASM_FILE}`;
  assert.ok(manifest[wasmSource], `manifest has ${wasmSource}: ${JSON.stringify(Object.keys(manifest))}`);
  const wasmAsset = manifest[wasmSource].file;
  assert.match(wasmAsset, /^assets\/neotoma_agent_wasm_bg-[\w-]+\.wasm$/);
  assert.deepEqual(await readFile(path.join(distDir, wasmAsset)), await readFile(path.join(pkgDir, WASM_FILE)));
  const assets = await readdir(path.join(distDir, 'assets'));
  assert.deepEqual(assets.filter((f) => f.endsWith('.wasm')), [path.basename(wasmAsset)]);
  const scripts = assets.filter((f) => f.endsWith('.js'));
  assert.ok(scripts.length > 0, `scripts in dist/assets: ${assets}`);
  let referencesAsset = false;
  for (const f of scripts) {
    const js = await readFile(path.join(distDir, 'assets', f), 'utf8');
    assert.doesNotMatch(js, /data:application\/wasm|AGFzbQ/, `${f} inlines the wasm`); // AGFzbQ = base64 "\0asm"
    referencesAsset ||= js.includes(`/${wasmAsset}`);
  }
  assert.ok(referencesAsset, `a script in dist/assets references /${wasmAsset}`);

  // dist/ on a static server, behind the page's origin, which also serves /neotoma/* with the
  // installed package's own proxy (exports["./proxy"]), the token added server-side
  const { createNeotomaProxy, toNodeHandler } = await import(pathToFileURL(path.join(pkgDir, pkgJson.exports['./proxy'].default)).href);
  const proxy = createNeotomaProxy({ upstream: server.url, token: server.token, basePath: '/neotoma' });
  const neotomaCalls = [];
  const staticServer = await startStaticServer({ mounts: [['/', distDir]] });
  const front = await startFrontServer({
    staticUrl: staticServer.url,
    neotoma: toNodeHandler(async (request) => {
      const response = await proxy(request);
      const call = { method: request.method, path: new URL(request.url).pathname, status: response.status };
      neotomaCalls.push({ ...call, authorization: request.headers.get('authorization') });
      return response;
    }),
  });
  const browser = await launchChromium();
  const pageErrors = [];
  try {
    const page = await browser.newPage();
    page.on('pageerror', (err) => pageErrors.push(String(err)));
    page.on('console', (msg) => msg.type() === 'error' && pageErrors.push(msg.text()));
    const cid = randomId('pkg-vite');
    const query = new URLSearchParams({ conversation: cid });
    for (const [i, turnId] of TURN_IDS.entries()) {
      query.append('turn', turnId);
      query.append('message', MESSAGES[i]);
    }
    await page.goto(`${front.url}/?${query}`);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
    const result = await page.evaluate(() => window.__result);
    const t3 = performance.now();
    assert.equal(result.error, undefined, `page: ${JSON.stringify(result.error)}; page errors: ${pageErrors.join('\n')}`);
    await assertTwoTurnConversationStored(server, { conversationId: cid, turns: result.turns, entityId: acme });
    assert.deepEqual(await page.locator('#log li').allTextContents(), REPLIES);

    // the browser loaded the emitted asset, and its Neotoma calls went through the page's origin
    // without a token (the proxy added it)
    assert.ok(staticServer.served.includes(`/${wasmAsset}`), `served: ${staticServer.served}`);
    const paths = new Set(neotomaCalls.map((c) => `${c.method} ${c.path} ${c.status}`));
    assert.ok(paths.has('POST /neotoma/store 200') && paths.has('POST /neotoma/retrieve_entity_by_identifier 200'), [...paths].join(', '));
    assert.deepEqual(neotomaCalls.filter((c) => c.authorization !== null), []);
    assert.ok(!(await page.content()).includes(server.token));
    if (process.env.PACKAGING_TIMINGS) {
      const ms = { install: t1 - t0, build: t2 - t1, page: t3 - t2 };
      console.error('packaging-vite timings (ms):', JSON.stringify(ms, (k, v) => (k ? Math.round(v) : v)));
    }
  } finally {
    await browser.close();
    await front.close();
    await staticServer.close();
  }
});
