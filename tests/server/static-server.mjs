// A tiny static server for browser tests: www/ at /, pkg/ at /pkg/ (like `make demo`), on
// 127.0.0.1 and a random port. GET/HEAD only, no directory listing, no path traversal.

import http from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.map': 'application/json; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** @returns {Promise<{url: string, served: string[], close(): Promise<void>}>} */
export async function startStaticServer({ port = 0, mounts } = {}) {
  mounts ??= [
    ['/pkg/', join(repoRoot, 'pkg')],
    ['/', join(repoRoot, 'www')],
  ];
  const served = [];
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { 'content-type': 'text/plain' });
      res.end('method not allowed');
      return;
    }
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('bad request');
      return;
    }
    served.push(path);
    for (const [prefix, dir] of mounts) {
      if (!path.startsWith(prefix)) continue;
      let file = resolve(dir, '.' + sep + path.slice(prefix.length));
      if (file !== dir && !file.startsWith(dir + sep)) break;
      try {
        if (statSync(file).isDirectory()) file = join(file, 'index.html');
        const body = readFileSync(file);
        res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
        return;
      } catch {
        break;
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    served,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** Chromium flags for headless runs here. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Launches headless Debian Chromium through playwright-core. `make test` installs both, so a
 * missing one is a failure, not a skip: a browser test that silently does not run proves nothing.
 */
export async function launchChromium() {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const { chromium } = createRequire(import.meta.url)('playwright-core');
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}
