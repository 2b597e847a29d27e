// A local, Neotoma-shaped HTTP server for tests and development.
//
// It serves the package's embedded store (`EmbeddedStore` from 'neotoma-agent-wasm') over the real
// Neotoma REST paths, with the real server's answers for the edges a client must handle:
// bearer-token auth (401 AUTH_INVALID JSON), invalid JSON (400 HTML page), oversized body
// (413 HTML page), unknown route (404 HTML page), CORS for one configured origin.
// No framework: node:http only. Binds to the loopback interface only.
//
// Test hooks: per-path request counts and a request log, injected failures (`failNext`),
// injected latency (`delay`), requests held until the test releases them (`hold`), and a
// seeded fault mode (`setFaults`, rules and kinds in tests/server/faults.mjs): dropped
// connections before or after the write, delays, hangs, 503 bursts, 429 with Retry-After,
// truncated JSON, HTML error pages.
//
// API:
//   const server = await startServer({ port = 0, host = '127.0.0.1', token, allowOrigin,
//                                      maxBodyBytes = 10 MB, store = new EmbeddedStore() });
//   (no token: a random one is generated, see server.token)
//   server.url / server.port / server.token / server.store
//   server.counts()          -> { '/store': 2, ... }   (every request but CORS preflights)
//   server.resetCounts()     -> clears the counts and the request log
//   server.requests          -> [{ seq, method, path, body, status, authorized, receivedAt, respondedAt,
//                                  response?, delayedMs?, injected? }]   (times: performance.now())
//   server.failNext(path, status = 500, body?, { times = 1, headers, match } = {})
//   server.delay(path, ms, { times = Infinity, match } = {})   (ms <= 0 or null clears the path;
//                            path '*': every request whose path has no delay of its own)
//   server.hold(path, { count = 1, match } = {}) -> { arrived, held(), release() }
//                            (the next `count` requests to path held until release(); `arrived`
//                             resolves once all `count` are held; a barrier: arrived.then(release))
//   server.setFaults({ seed, rules: [{ path, p, kind, ... }] })   (replaces the rules, resets the counts)
//   server.faultCounts()     -> { 'drop-request': n, 'drop-response': n, delay: n, hang: n, unavailable: n,
//                                 'rate-limit': n, truncated: n, 'html-error': n }   (since setFaults)
//   server.faultLog          -> [{ path, identity, kind, status?, ms?, retryAfter?, cut? }]
//   server.faultSeed         -> the seed in use (a number), or null
//   server.clearFaults()     -> removes failNext, delay, hold and setFaults faults, releasing held
//                               requests (counts and log are kept)
//   request log entries also have `handled` (the store saw the request) and, under setFaults, `fault` (the kind)
//   await server.whenIdle()  -> resolves when no request is in flight
//   await server.close()
//
// CLI:
//   node tests/server/neotoma-server.mjs --port 8181 --token dev-local [--allow-origin http://127.0.0.1:8080]
//                                        [--max-body-bytes N]
//   prints the URL on stdout and serves until SIGINT/SIGTERM.

import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import process from 'node:process';

import { EmbeddedStore } from 'neotoma-agent-wasm';
import { createFaultPlan } from './faults.mjs';

export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
export const SERVER_VERSION = '0.22.0';

/** The routes the real server exposes that this server serves, as `METHOD path`. */
const POST_ROUTES = new Set([
  '/store',
  '/retrieve_entity_by_identifier',
  '/create_relationships',
  '/create_relationship',
  '/retrieve_related_entities',
  '/get_entity_snapshot',
]);
const TURN_INDEX_RE = /^\/conversations\/[^/]+\/turn-index$/;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

function escapeHtml(s) {
  return String(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The HTML error page express' finalhandler writes (the real server's 400/404/413 bodies). */
export function htmlErrorPage(text) {
  return (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n' +
    `</head>\n<body>\n<pre>${escapeHtml(text)}</pre>\n</body>\n</html>\n`
  );
}

function routeKind(method, rawPath) {
  // like express: letter case and one trailing slash do not matter
  const path = (rawPath.length > 1 ? rawPath.replace(/\/$/, '') : rawPath).toLowerCase();
  if (path === '/health') return method === 'GET' ? 'health' : null;
  if (POST_ROUTES.has(path)) return method === 'POST' ? 'api' : null;
  if (TURN_INDEX_RE.test(path)) return method === 'GET' ? 'api' : null;
  return null;
}

/** Constant-time-ish comparison of the presented bearer token with the expected one. */
function tokenMatches(header, token) {
  if (typeof header !== 'string') return false;
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!m) return false;
  const a = Buffer.from(m[1]);
  const b = Buffer.from(token);
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/**
 * Start the server.
 * @param {{port?: number, host?: string, token?: string, allowOrigin?: string,
 *          maxBodyBytes?: number, store?: {handle(method: string, path: string, body?: any): {status: number, body: any}}}} [options]
 *   `store` defaults to a new `EmbeddedStore`; pass one to share it (any object with `handle` works).
 */
export async function startServer({
  port = 0,
  host = '127.0.0.1',
  token,
  allowOrigin,
  maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
  store,
} = {}) {
  if (!LOOPBACK_HOSTS.has(host)) {
    throw new Error(`neotoma test server binds the loopback interface only (got host ${host})`);
  }
  if (token === undefined || token === null) token = randomBytes(18).toString('base64url');
  if (typeof token !== 'string' || token.length === 0) throw new Error('token must be a non-empty string');
  if (!Number.isFinite(maxBodyBytes) || maxBodyBytes <= 0) throw new Error('maxBodyBytes must be a positive number');
  // One embedded store per server unless the caller shares one (e.g. with an in-process agent).
  if (!store) store = new EmbeddedStore();
  if (typeof store.handle !== 'function') throw new Error('store must have a handle(method, path, body) method');

  const countsByPath = new Map();
  const requests = [];
  let seq = 0;
  /** path -> [{status, body, headers, times, match}], first matching entry wins */
  const failures = new Map();
  /** path -> [{ms, times, match}], first matching entry wins */
  const delays = new Map();
  const pendingTimers = new Set();
  /** path -> [hold], first matching entry wins; a hold leaves it once `count` requests arrived */
  const holds = new Map();
  /** Holds not released yet (with requests waiting or still to come), released on close. */
  const unreleased = new Set();
  /** The seeded fault mode (`setFaults`), or null. */
  let faultPlan = null;
  /** Hung requests, released when the server closes. */
  const closeWaiters = new Set();
  /** Counts and log of the last plan, kept after clearFaults. */
  let lastFaultPlan = null;
  let closed = false;

  const sleep = (ms) =>
    new Promise((resolve) => {
      const t = setTimeout(() => {
        pendingTimers.delete(t);
        resolve();
      }, ms);
      pendingTimers.add(t);
    });

  function corsHeaders(req, preflight) {
    const h = { vary: 'Origin' };
    const origin = req.headers.origin;
    if (allowOrigin && origin === allowOrigin) {
      h['access-control-allow-origin'] = allowOrigin;
      h['access-control-allow-credentials'] = 'true';
      h['access-control-allow-methods'] = 'GET,POST,OPTIONS';
      h['access-control-allow-headers'] = 'Content-Type,Authorization';
      h['access-control-expose-headers'] = 'Content-Type';
      if (preflight) h['access-control-max-age'] = '600';
    }
    return h;
  }

  function send(res, status, body, extraHeaders = {}) {
    if (res.headersSent || res.destroyed) return;
    let payload;
    const headers = { ...extraHeaders };
    if (body === undefined || body === null) {
      payload = '';
    } else if (typeof body === 'string') {
      payload = body;
      if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) {
        headers['content-type'] = HTML_TYPE;
      }
      headers['content-security-policy'] ??= "default-src 'none'";
    } else {
      payload = JSON.stringify(body);
      if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) {
        headers['content-type'] = JSON_TYPE;
      }
    }
    const buf = Buffer.from(payload, 'utf8');
    headers['content-length'] = String(buf.length);
    headers['x-content-type-options'] = 'nosniff';
    res.writeHead(status, headers);
    res.end(buf);
  }

  /** Read the body, up to maxBodyBytes; beyond that keep draining and report `tooLarge`. */
  function readBody(req) {
    return new Promise((resolve, reject) => {
      const declared = Number(req.headers['content-length']);
      const chunks = [];
      let size = 0;
      let tooLarge = Number.isFinite(declared) && declared > maxBodyBytes;
      req.on('data', (chunk) => {
        size += chunk.length;
        if (size > maxBodyBytes) tooLarge = true;
        if (!tooLarge) chunks.push(chunk);
      });
      req.on('end', () => resolve({ tooLarge, buffer: tooLarge ? null : Buffer.concat(chunks) }));
      req.on('error', reject);
      req.on('aborted', () => reject(new Error('request aborted')));
    });
  }

  async function handleRequest(req, res) {
    const receivedAt = performance.now();
    const url = new URL(req.url, 'http://127.0.0.1');
    const path = url.pathname;
    const method = req.method;

    if (method === 'OPTIONS') {
      // CORS preflight: no auth, no body, not counted (the app did not make this request).
      requests.push({ seq: ++seq, method, path, body: undefined, status: 200, authorized: false, receivedAt, respondedAt: performance.now(), preflight: true });
      req.resume();
      send(res, 200, null, corsHeaders(req, true));
      return;
    }

    countsByPath.set(path, (countsByPath.get(path) ?? 0) + 1);
    const entry = { seq: ++seq, method, path, body: undefined, status: 0, authorized: false, receivedAt, respondedAt: 0 };
    requests.push(entry);
    const cors = corsHeaders(req, false);
    const reply = (status, body, headers = {}) => {
      entry.status = status;
      entry.respondedAt = performance.now();
      send(res, status, body, { ...cors, ...headers });
    };

    let raw;
    try {
      raw = await readBody(req);
    } catch {
      entry.status = -1; // client went away mid-body
      return;
    }
    if (raw.tooLarge) {
      reply(413, htmlErrorPage('PayloadTooLargeError: request entity too large'));
      return;
    }

    // body-parser's json(): parses only JSON content types; an empty body is {}; strict mode
    // accepts only objects and arrays.
    let body;
    const ctype = String(req.headers['content-type'] ?? '').toLowerCase();
    const text = raw.buffer.toString('utf8');
    if (/^application\/([\w.+-]*\+)?json\b/.test(ctype) && text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch (e) {
        entry.body = text;
        reply(400, htmlErrorPage(`SyntaxError: ${e.message}`));
        return;
      }
      if (body === null || typeof body !== 'object') {
        entry.body = text;
        reply(400, htmlErrorPage(`SyntaxError: Unexpected token in JSON at position 0`));
        return;
      }
    } else {
      body = method === 'GET' || method === 'HEAD' ? undefined : {};
    }
    entry.body = body;

    const kind = routeKind(method, path);
    if (!kind) {
      reply(404, htmlErrorPage(`Cannot ${method} ${path}`));
      return;
    }

    if (kind !== 'health') {
      entry.authorized = tokenMatches(req.headers.authorization, token);
      if (!entry.authorized) {
        reply(401, {
          error_code: 'AUTH_INVALID',
          message: 'Unauthorized - invalid authentication token',
          timestamp: new Date().toISOString(),
        });
        return;
      }
    }

    const matches = (fault) => {
      if (!fault.match) return true;
      try {
        return Boolean(fault.match(body, entry));
      } catch {
        return false;
      }
    };

    const hq = holds.get(path);
    const h = hq && hq.find(matches);
    if (h) {
      if (++h.arrivedCount === h.count) {
        hq.splice(hq.indexOf(h), 1);
        if (hq.length === 0) holds.delete(path);
        h.allArrived();
      }
      if (!h.released) {
        entry.held = true;
        await new Promise((resolve) => h.waiting.push(resolve));
        if (closed) return;
      }
    }

    const delayKey = delays.has(path) ? path : '*';
    const dq = delays.get(delayKey);
    const d = dq && dq.find(matches);
    if (d) {
      if (--d.times <= 0) dq.splice(dq.indexOf(d), 1);
      if (dq.length === 0) delays.delete(delayKey);
      entry.delayedMs = d.ms;
      await sleep(d.ms);
      if (closed) return;
    }

    const queue = failures.get(path);
    const f = queue && queue.find(matches);
    if (f) {
      if (--f.times <= 0) queue.splice(queue.indexOf(f), 1);
      if (queue.length === 0) failures.delete(path);
      entry.injected = true;
      reply(f.status, f.body, f.headers);
      return;
    }

    /** The store's answer as `{status, body}` (a store that throws is a 500 JSON answer). */
    const runStore = async () => {
      entry.handled = true;
      let result;
      try {
        result = store.handle(method, path + url.search, body);
        if (result && typeof result.then === 'function') result = await result;
      } catch (e) {
        return {
          status: 500,
          body: {
            error_code: 'INTERNAL_ERROR',
            message: `store.handle threw: ${e && e.message ? e.message : String(e)}`,
            timestamp: new Date().toISOString(),
          },
        };
      }
      if (kind === 'health' && (!result || result.status !== 200)) {
        result = { status: 200, body: { ok: true, version: SERVER_VERSION } };
      }
      if (!result || typeof result.status !== 'number') {
        return { status: 500, body: { error_code: 'INTERNAL_ERROR', message: 'store.handle returned no {status, body}', timestamp: new Date().toISOString() } };
      }
      entry.response = result.body;
      return result;
    };

    const fault = faultPlan && kind === 'api' ? faultPlan.decide(path, body) : null;
    if (fault) {
      entry.fault = fault.kind;
      entry.handled = false;
      const answered = await injectFault(fault, { req, res, entry, cors, reply, runStore });
      if (answered || closed) return;
    }

    const result = await runStore();
    reply(result.status, result.body);
  }

  /** Ends the request without an answer: the client sees a reset connection. */
  function dropConnection(req, entry) {
    entry.status = 0;
    entry.respondedAt = performance.now();
    req.socket.destroy();
  }

  /** Forgets every hold and lets what they hold go on. */
  function releaseHolds() {
    holds.clear();
    for (const h of [...unreleased]) h.release();
  }

  /** Resolves when the client closes the connection (gives up), the server closes, or after `ms`. */
  function untilClientGone(res, ms) {
    return new Promise((resolve) => {
      if (res.destroyed || closed) return resolve();
      const t = setTimeout(done, ms);
      pendingTimers.add(t);
      function done() {
        clearTimeout(t);
        pendingTimers.delete(t);
        res.off('close', done);
        closeWaiters.delete(done);
        resolve();
      }
      res.once('close', done);
      closeWaiters.add(done);
    });
  }

  /**
   * Applies one seeded fault. Returns true when the request is finished (answered or dropped),
   * false when it goes on to the store as usual (after a delay).
   */
  async function injectFault(fault, { req, res, entry, cors, reply, runStore }) {
    switch (fault.kind) {
      case 'drop-request':
        dropConnection(req, entry);
        return true;
      case 'drop-response':
        await runStore();
        dropConnection(req, entry);
        return true;
      case 'delay':
        entry.delayedMs = fault.ms;
        await sleep(fault.ms);
        return false;
      case 'hang':
        await untilClientGone(res, fault.ms);
        if (!res.destroyed) dropConnection(req, entry);
        return true;
      case 'unavailable':
      case 'html-error': {
        if (fault.handled) await runStore();
        const headers = fault.retryAfter === undefined ? {} : { 'retry-after': String(fault.retryAfter) };
        reply(fault.status, htmlErrorPage(http.STATUS_CODES[fault.status] ?? 'Error'), headers);
        return true;
      }
      case 'rate-limit': {
        if (fault.handled) await runStore();
        // transcript 09c: plain text served as text/html, Retry-After and ratelimit-* headers
        reply(429, 'Write rate limit exceeded, please slow down', {
          'retry-after': String(fault.retryAfter),
          'ratelimit-limit': '120',
          'ratelimit-remaining': '0',
          'ratelimit-reset': String(fault.retryAfter),
          'ratelimit-policy': '120;w=60',
        });
        return true;
      }
      case 'truncated': {
        const result = await runStore();
        if (res.destroyed) return true;
        const full = Buffer.from(typeof result.body === 'string' ? result.body : JSON.stringify(result.body), 'utf8');
        const cutAt = Math.max(1, Math.min(full.length - 1, Math.floor(full.length * fault.fraction)));
        const part = full.subarray(0, cutAt);
        entry.status = result.status;
        entry.respondedAt = performance.now();
        const headers = { ...cors, 'content-type': JSON_TYPE, 'x-content-type-options': 'nosniff' };
        if (fault.cut === 'length') {
          // a complete HTTP message whose body is cut JSON
          res.writeHead(result.status, { ...headers, 'content-length': String(part.length) });
          res.end(part);
        } else {
          // the full length declared, the connection closed mid-body
          res.writeHead(result.status, { ...headers, 'content-length': String(full.length) });
          res.write(part, () => req.socket.destroy());
        }
        return true;
      }
      default:
        throw new Error(`unknown fault kind ${fault.kind}`);
    }
  }

  let inflight = 0;
  let idleWaiters = [];
  const server = http.createServer((req, res) => {
    inflight++;
    handleRequest(req, res)
      .catch((e) => {
        try {
          send(res, 500, htmlErrorPage(`Error: ${e && e.message}`));
        } catch {
          /* ignore */
        }
      })
      .finally(() => {
        if (--inflight === 0) {
          const waiters = idleWaiters;
          idleWaiters = [];
          for (const w of waiters) w();
        }
      });
  });
  server.keepAliveTimeout = 5000;

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address();
  const urlHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;

  return {
    url: `http://${urlHost}:${addr.port}`,
    port: addr.port,
    token,
    store,
    requests,
    counts() {
      return Object.fromEntries(countsByPath);
    },
    resetCounts() {
      countsByPath.clear();
      requests.length = 0;
    },
    /**
     * Answer the next `times` requests to `path` (after auth) with `status` and `body`
     * (object = JSON, string = HTML page; `headers` may override the content type). With `match`,
     * only requests whose parsed body satisfies `match(body)` are affected.
     */
    failNext(path, status = 500, body, { times = 1, headers = {}, match } = {}) {
      if (body === undefined) {
        body = { error_code: 'INJECTED_FAILURE', message: `injected ${status} for ${path}`, timestamp: new Date().toISOString() };
      }
      if (!failures.has(path)) failures.set(path, []);
      failures.get(path).push({ status, body, headers, times, match });
    },
    /**
     * Hold the next `times` requests to `path` (optionally only those matching `match(body)`) for
     * `ms` before handling them. The store still handles a delayed request after the delay even
     * if the client gave up (as a real server would). `ms` <= 0 / null clears the path's delays.
     * Path `'*'` delays every request (health included) whose path has no delay of its own: a
     * per-request latency, as a distant server adds.
     */
    delay(path, ms, { times = Infinity, match } = {}) {
      if (ms === null || ms === undefined || ms <= 0) {
        delays.delete(path);
        return;
      }
      if (!delays.has(path)) delays.set(path, []);
      delays.get(path).push({ ms, times, match });
    },
    /**
     * Hold the next `count` requests to `path` (optionally only those matching `match(body)`),
     * after auth and before any delay or failure, until `release()`: held ones are marked `held`
     * in the log, held() counts those that arrived, `arrived` resolves once all `count` have. The
     * test orders what happens next by events, not by time. A barrier (no request answered until
     * all have arrived): `const h = server.hold(path, { count: 4 }); h.arrived.then(h.release)`.
     * After release() the hold's later requests go through at once. close() and clearFaults()
     * release every hold.
     */
    hold(path, { count = 1, match } = {}) {
      if (!Number.isInteger(count) || count < 1) throw new Error('hold: count must be a positive integer');
      let allArrived;
      const arrived = new Promise((resolve) => (allArrived = resolve));
      const h = {
        count,
        match,
        arrivedCount: 0,
        waiting: [],
        released: false,
        allArrived,
        release() {
          h.released = true;
          unreleased.delete(h);
          for (const go of h.waiting.splice(0)) go();
        },
      };
      if (!holds.has(path)) holds.set(path, []);
      holds.get(path).push(h);
      unreleased.add(h);
      return { arrived, held: () => h.arrivedCount, release: h.release };
    },
    /** Resolves once no request is being handled (e.g. a delayed one a client timed out on). */
    whenIdle() {
      return inflight === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve));
    },
    /**
     * The seeded fault mode: `{ seed, rules: [{ path, p, kind, ... }] }` (see tests/server/faults.mjs).
     * Replaces earlier rules and resets the counts. Faults apply to authorized API calls only.
     */
    setFaults(config) {
      faultPlan = createFaultPlan(config);
      lastFaultPlan = faultPlan;
    },
    /** Faults injected by kind since the last setFaults (kept after clearFaults). */
    faultCounts() {
      return { ...(lastFaultPlan?.counts ?? {}) };
    },
    get faultLog() {
      return lastFaultPlan ? lastFaultPlan.log : [];
    },
    get faultSeed() {
      return lastFaultPlan ? lastFaultPlan.seed : null;
    },
    clearFaults() {
      failures.clear();
      delays.clear();
      releaseHolds();
      faultPlan = null;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const t of pendingTimers) clearTimeout(t);
      pendingTimers.clear();
      for (const w of idleWaiters.splice(0)) w();
      for (const w of [...closeWaiters]) w();
      closeWaiters.clear();
      releaseHolds();
      await new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--port') out.port = Number(next());
    else if (a === '--token') out.token = next();
    else if (a === '--allow-origin') out.allowOrigin = next();
    else if (a === '--max-body-bytes') out.maxBodyBytes = Number(next());
    else if (a === '--host') out.host = next();
    else if (a === '-h' || a === '--help') out.help = true;
    else throw new Error(`unknown argument ${a}`);
  }
  return out;
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(
      'usage: node tests/server/neotoma-server.mjs --port 8181 --token dev-local [--allow-origin ORIGIN] [--max-body-bytes N]\n',
    );
    return;
  }
  const generated = args.token === undefined;
  const server = await startServer(args);
  process.stdout.write(`${server.url}\n`);
  if (generated) process.stderr.write(`token (generated): ${server.token}\n`);
  if (args.allowOrigin) process.stderr.write(`CORS origin: ${args.allowOrigin}\n`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e) => {
    process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
    process.exit(1);
  });
}
