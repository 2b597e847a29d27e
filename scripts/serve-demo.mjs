#!/usr/bin/env node
// Static server for the demo (run by `make demo`): www/ at /, pkg/ at /pkg/.
// Loopback only, node:http only.
//
//   node scripts/serve-demo.mjs [--port 8080] [--host 127.0.0.1]     (env PORT / HOST too)
//
// With NEOTOMA_URL and NEOTOMA_TOKEN set, it also forwards /neotoma/* to that Neotoma through the
// package's same-origin proxy (conversations under "demo-" only), so the page can switch from its
// embedded store to the real one; the token stays in this process. GET /demo-config.json tells
// the page whether the switch is there: `{ "neotoma": { "baseUrl": "/neotoma" } }` or
// `{ "neotoma": null }`.

import http from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const port = Number(arg('port', process.env.PORT ?? 8080));
const host = arg('host', process.env.HOST ?? '127.0.0.1');

/** The real Neotoma behind /neotoma, when the environment names one. */
const PROXY_BASE = '/neotoma';
const { NEOTOMA_URL, NEOTOMA_TOKEN } = process.env;
let proxy = null;
if (NEOTOMA_URL && NEOTOMA_TOKEN) {
  const { createNeotomaProxy, toNodeHandler } = await import(join(root, 'pkg', 'proxy.mjs'));
  proxy = toNodeHandler(
    createNeotomaProxy({ upstream: NEOTOMA_URL, token: NEOTOMA_TOKEN, basePath: PROXY_BASE, conversationPrefix: 'demo-' }),
  );
}
const demoConfig = JSON.stringify({ neotoma: proxy ? { baseUrl: PROXY_BASE } : null });

// Longest prefix first.
const mounts = [
  ['/pkg/', join(root, 'pkg')],
  ['/', join(root, 'www')],
];

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.ts': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
};

function resolvePath(urlPath) {
  for (const [prefix, dir] of mounts) {
    if (urlPath === prefix.slice(0, -1) && prefix !== '/') return { redirect: prefix };
    if (!urlPath.startsWith(prefix)) continue;
    const rel = urlPath.slice(prefix.length);
    const file = resolve(dir, '.' + sep + rel);
    if (file !== dir && !file.startsWith(dir + sep)) return null; // traversal
    return { file };
  }
  return null;
}

function send(res, status, body, type = 'text/plain; charset=utf-8') {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

const server = http.createServer((req, res) => {
  if (proxy && (req.url === PROXY_BASE || req.url.startsWith(`${PROXY_BASE}/`))) return proxy(req, res);
  if (req.url === '/demo-config.json') return send(res, 200, demoConfig, MIME['.json']);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return send(res, 405, 'method not allowed\n');
  }
  let urlPath;
  try {
    urlPath = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
  } catch {
    return send(res, 400, 'bad request\n');
  }
  const hit = resolvePath(urlPath);
  if (!hit) return send(res, 404, 'not found\n');
  if (hit.redirect) {
    res.writeHead(301, { location: hit.redirect });
    return res.end();
  }
  let file = hit.file;
  let st;
  try {
    st = statSync(file);
    if (st.isDirectory()) {
      file = join(file, 'index.html');
      st = statSync(file);
    }
  } catch {
    // Browsers ask for /favicon.ico on their own: answer "no content" rather than a 404 that
    // shows up as a console error.
    if (urlPath === '/favicon.ico') {
      res.writeHead(204, { 'cache-control': 'no-store' });
      return res.end();
    }
    return send(res, 404, 'not found\n');
  }
  res.writeHead(200, {
    'content-type': MIME[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': st.size,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  if (req.method === 'HEAD') return res.end();
  createReadStream(file).pipe(res);
});

server.listen(port, host, () => {
  const { port: p } = server.address();
  const real = proxy ? `; ${PROXY_BASE}/ -> ${new URL(NEOTOMA_URL).origin} (token kept here)` : '';
  console.log(`demo: http://${host}:${p}/   (www/ at /, pkg/ at /pkg/${real}; Ctrl-C to stop)`);
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(0));
