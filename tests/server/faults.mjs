// A seeded fault plan for the test server (tests/server/neotoma-server.mjs `setFaults`): which
// request gets which fault, decided by a small PRNG so a failing run can be replayed by its seed.
//
// Each decision is drawn from a generator seeded by (seed, path, the request's identity, how many
// times that identity was seen): the idempotency key of a /store, the identifier of a lookup, the
// body otherwise. So the same seed gives the same faults to the same requests (the 1st, 2nd, …
// attempt of a store) however concurrent requests interleave. Bursts (`unavailable` with
// `burst` > 1) also hit the next requests to the path, whichever they are.
//
// Rule: { path, p, kind, match?, ...kind options }
//   path   '/store', an array of paths, a RegExp, or '*' (every API path)
//   p      probability in [0, 1] that a matching request gets this fault (rules are tried in
//          order with independent draws; the first that fires wins)
//   match  optional (body) => boolean, to aim at some requests only
// Kinds:
//   drop-request    the connection is destroyed before the store sees the request
//   drop-response   the store handles the request (the write happens), then the connection is
//                   destroyed: the answer is lost
//   delay           { ms: n | [min, max] } wait, then handle and answer (the store handles the
//                   request after the wait even if the client gave up meanwhile)
//   hang            no answer until the client gives up (closes the connection); never handled.
//                   { maxMs = 60000 }: the connection is dropped after that at the latest
//   unavailable     503 HTML page; { burst = 1 }: this and the next burst-1 requests to the path;
//                   { retryAfter } seconds, optional
//   rate-limit      429 'Write rate limit exceeded' text with Retry-After and ratelimit-* headers
//                   (as transcript 09c); { retryAfter = 1 } seconds: a number or a list to pick from
//   truncated       the store handles the request; 200 with the JSON answer cut short:
//                   { cut: 'connection' } (default) declares the full length and closes the
//                   connection mid-body; { cut: 'length' } sends a complete message whose body is
//                   the cut JSON. { fraction = [0.1, 0.9] } of the body is sent
//   html-error      500 or 502 with the real server's HTML error page; { status = [500, 502] }
// `handled: true` on unavailable / rate-limit / html-error: the store handles the request before
// the error answer (a gateway that gave up after the backend wrote).

export const FAULT_KINDS = Object.freeze([
  'drop-request',
  'drop-response',
  'delay',
  'hang',
  'unavailable',
  'rate-limit',
  'truncated',
  'html-error',
]);

/** mulberry32: a tiny seeded PRNG, uniform in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over the UTF-8 bytes of `text`, as an unsigned 32-bit number. */
export function hash32(text) {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(String(text), 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A seed from a number or a string (e.g. an env variable): the number itself, else its hash. */
export function parseSeed(value) {
  if (typeof value === 'number' && Number.isInteger(value)) return value >>> 0;
  const text = String(value ?? '').trim();
  if (/^\d+$/.test(text)) return Number(text) >>> 0;
  if (/^0x[0-9a-f]+$/i.test(text)) return Number.parseInt(text, 16) >>> 0;
  if (text === '') throw new Error('fault seed must be a number or a non-empty string');
  return hash32(text);
}

function pathMatcher(path) {
  if (path === '*') return () => true;
  if (typeof path === 'string') return (p) => p === path;
  if (Array.isArray(path) && path.every((x) => typeof x === 'string')) return (p) => path.includes(p);
  if (path instanceof RegExp) return (p) => path.test(p);
  throw new Error(`fault rule path must be a path, an array of paths, a RegExp or '*' (got ${String(path)})`);
}

function checkRange(name, value) {
  const ok = (n) => Number.isFinite(n) && n >= 0;
  if (ok(value)) return;
  if (Array.isArray(value) && value.length === 2 && value.every(ok) && value[0] <= value[1]) return;
  throw new Error(`fault rule ${name} must be a non-negative number or [min, max]`);
}

function checkRule(rule, i) {
  if (!rule || typeof rule !== 'object') throw new Error(`fault rule ${i} must be an object`);
  if (!FAULT_KINDS.includes(rule.kind)) {
    throw new Error(`fault rule ${i}: unknown kind ${JSON.stringify(rule.kind)} (kinds: ${FAULT_KINDS.join(', ')})`);
  }
  if (!(typeof rule.p === 'number' && rule.p >= 0 && rule.p <= 1)) throw new Error(`fault rule ${i}: p must be in [0, 1]`);
  if (rule.match !== undefined && typeof rule.match !== 'function') throw new Error(`fault rule ${i}: match must be a function`);
  if (rule.kind === 'delay') checkRange('ms', rule.ms);
  if (rule.kind === 'truncated') {
    if (rule.cut !== undefined && rule.cut !== 'connection' && rule.cut !== 'length') {
      throw new Error(`fault rule ${i}: cut must be 'connection' or 'length'`);
    }
    if (rule.fraction !== undefined) checkRange('fraction', rule.fraction);
  }
  if (rule.burst !== undefined && !(Number.isInteger(rule.burst) && rule.burst >= 1)) {
    throw new Error(`fault rule ${i}: burst must be a positive integer`);
  }
  return { ...rule, matchesPath: pathMatcher(rule.path) };
}

const between = (rand, v) => (Array.isArray(v) ? v[0] + (v[1] - v[0]) * rand() : v);
const pick = (rand, v) => (Array.isArray(v) ? v[Math.floor(rand() * v.length) % v.length] : v);

/** The identity a request's decisions are keyed by (see the top of the file). */
function requestIdentity(body) {
  if (body && typeof body === 'object') {
    if (typeof body.idempotency_key === 'string') return `key:${body.idempotency_key}`;
    if (typeof body.identifier === 'string') return `id:${body.identifier}|${body.entity_type ?? ''}|${body.by ?? ''}`;
  }
  return `body:${hash32(JSON.stringify(body ?? null))}`;
}

/**
 * The faults of one `setFaults` call. `decide(path, body)` returns null (no fault) or
 * `{ kind, rule, ms?, status?, retryAfter?, fraction?, cut?, handled }`, and counts what it returns.
 */
export function createFaultPlan({ seed, rules }) {
  if (seed === undefined) throw new Error('setFaults needs a seed (print it: a failing run is replayed with it)');
  const seedValue = parseSeed(seed);
  if (!Array.isArray(rules)) throw new Error('setFaults needs rules: [{ path, p, kind, ... }]');
  const checked = rules.map(checkRule);
  const seen = new Map(); // `${path}\0${identity}` -> requests so far
  const bursts = new Map(); // path -> { left, fault }
  const counts = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0]));
  const log = [];

  function record(path, identity, fault) {
    counts[fault.kind] += 1;
    log.push({ path, identity, kind: fault.kind, status: fault.status, ms: fault.ms, retryAfter: fault.retryAfter, cut: fault.cut });
    return fault;
  }

  function draw(rand, rule) {
    const fault = { kind: rule.kind, rule, handled: Boolean(rule.handled) };
    switch (rule.kind) {
      case 'delay':
        fault.ms = Math.round(between(rand, rule.ms));
        break;
      case 'hang':
        fault.ms = rule.maxMs ?? 60_000;
        break;
      case 'unavailable':
        fault.status = rule.status ?? 503;
        if (rule.retryAfter !== undefined) fault.retryAfter = pick(rand, rule.retryAfter);
        break;
      case 'rate-limit':
        fault.status = 429;
        fault.retryAfter = pick(rand, rule.retryAfter ?? 1);
        break;
      case 'truncated':
        fault.handled = true;
        fault.cut = rule.cut ?? 'connection';
        fault.fraction = between(rand, rule.fraction ?? [0.1, 0.9]);
        break;
      case 'html-error':
        fault.status = pick(rand, rule.status ?? [500, 502]);
        break;
      case 'drop-response':
        fault.handled = true;
        break;
      default:
        break;
    }
    return fault;
  }

  return {
    seed: seedValue,
    counts,
    log,
    decide(path, body) {
      const identity = requestIdentity(body);
      const burst = bursts.get(path);
      if (burst && burst.left > 0) {
        burst.left -= 1;
        return record(path, identity, { ...burst.fault, burstContinued: true });
      }
      const slot = `${path}\0${identity}`;
      const n = (seen.get(slot) ?? 0) + 1;
      seen.set(slot, n);
      const rand = mulberry32(hash32(`${seedValue}|${path}|${identity}|${n}`));
      for (const rule of checked) {
        const u = rand(); // drawn for every rule, so one rule's outcome does not shift the others'
        if (!rule.matchesPath(path) || u >= rule.p) continue;
        if (rule.match) {
          let hit = false;
          try {
            hit = Boolean(rule.match(body));
          } catch {
            hit = false;
          }
          if (!hit) continue;
        }
        const fault = draw(rand, rule);
        if (rule.kind === 'unavailable' && (rule.burst ?? 1) > 1) bursts.set(path, { left: rule.burst - 1, fault });
        return record(path, identity, fault);
      }
      return null;
    },
  };
}
