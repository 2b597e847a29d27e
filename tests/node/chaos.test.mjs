// Chaos: 200 turns (8 conversations × 25 turns, 4 conversations at a time) over real HTTP through
// the test server's seeded fault mode (tests/server/faults.mjs): dropped connections before and
// after the write, delays across the client timeout, hangs, 503 bursts, 429 with Retry-After,
// truncated JSON, HTML error pages. Then: every turn's messages are stored or waiting in the
// outbox; after the faults stop and every agent flushes, each turn is stored exactly once with
// the right content, number and edges, the outbox is empty, and the bearer token appeared nowhere.
// It runs twice: plain turns, and overlapped turns (`overlapUserStore: true`: the user message's
// store alongside the callback), on conversations of their own. In both, when the callback runs the
// user message is already stored or kept in the outbox storage.
//
// Seed: CHAOS_SEED (a number, or any string, which is hashed) or DEFAULT_SEED below. The seed picks
// the messages and every fault decision; a failing run prints it: replay with
//   CHAOS_SEED=<seed> node --test tests/node/chaos.test.mjs
// (fault decisions are keyed by request identity, so the same requests get the same faults;
// timing, backoff jitter and retry interleaving still vary a little from run to run).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';

import { NeotomaAgent, idempotencyKey } from 'neotoma-agent-wasm';
import { startTestServer, seed, DISTINCT_ENTITIES, related, refersTo, turnIndex, entitySnapshot, retrieve, call, recordingStorage } from '../server/harness.mjs';
import { createFaultPlan, mulberry32, parseSeed } from '../server/faults.mjs';

const DEFAULT_SEED = 20261129;
const CHAOS_SEED = parseSeed(process.env.CHAOS_SEED ?? DEFAULT_SEED);

const CONVERSATIONS = 8;
const TURNS_PER_CONVERSATION = 25;
const CONCURRENT_CONVERSATIONS = 4;
/** A caller's own retries of a turn that rejected (see `runTurn`). */
const MAX_TURN_ATTEMPTS = 5;

const STORE = '/store';
const RETRIEVE = '/retrieve_entity_by_identifier';
const REPAIR = '/create_relationships';

/** Timeout 300 ms: delays above it and hangs time out; backoffs stay small. */
const AGENT_TIMING = {
  retry: { maxAttempts: 4, initialDelayMs: 5, maxDelayMs: 50, maxElapsedMs: 500 },
  timeoutMs: 300,
  retrievalTimeoutMs: 800,
};

/** Per-path faults. Retry-After is 0 or 1 s (1 s is over maxElapsedMs: the write goes to the outbox). */
const FAULT_RULES = [
  { path: '*', p: 0.03, kind: 'drop-request' },
  { path: [STORE, REPAIR], p: 0.05, kind: 'drop-response' },
  { path: RETRIEVE, p: 0.02, kind: 'drop-response' },
  { path: '*', p: 0.05, kind: 'delay', ms: [5, 450] },
  // held until the client gives up; maxMs bounds what a request the agent abandons without
  // aborting it can cost (see B96 in bad-input.test.mjs)
  { path: '*', p: 0.015, kind: 'hang', maxMs: 2000 },
  { path: STORE, p: 0.02, kind: 'unavailable', burst: 4 },
  { path: STORE, p: 0.03, kind: 'rate-limit', retryAfter: [0, 0, 0, 1] },
  { path: '*', p: 0.02, kind: 'truncated', cut: 'connection' },
  { path: STORE, p: 0.01, kind: 'truncated', cut: 'length' },
  { path: '*', p: 0.03, kind: 'html-error', status: [500, 502] },
  // the last two turns' stores fail more often (a 500 goes to the outbox at once), so writes are
  // still waiting when the turns end and the final flush has work to do
  { path: STORE, p: 0.6, kind: 'html-error', status: 500, match: (body) => /-t2[45]-/.test(body.idempotency_key ?? '') },
];


let server;
/** name -> entity id */
const entityIds = new Map();

before(async () => {
  server = await startTestServer();
  for (const [i, e] of DISTINCT_ENTITIES.entries()) {
    const [id] = await seed(server, [e], `chaos-seed-${i}`);
    entityIds.set(e.name, id);
  }
});

after(async () => {
  await server?.close();
});

const sorted = (xs) => [...xs].sort();
const isSubset = (a, b) => [...a].every((x) => b.has(x));

/** Replaces console.* with recorders until `restore()`. */
function captureConsole() {
  const lines = [];
  const methods = ['log', 'info', 'warn', 'error', 'debug', 'trace'];
  const originals = Object.fromEntries(methods.map((m) => [m, console[m]]));
  for (const m of methods) {
    console[m] = (...args) => lines.push(`${m}: ${args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 8 }))).join(' ')}`);
  }
  return {
    lines,
    restore() {
      Object.assign(console, originals);
    },
  };
}

/** The seeded script: per conversation, 25 messages naming 0, 1 or 2 seeded entities. */
function script(seedValue, prefix) {
  const rand = mulberry32(seedValue ^ 0x5eed);
  const names = DISTINCT_ENTITIES.map((e) => e.name);
  const conversations = [];
  for (let c = 0; c < CONVERSATIONS; c++) {
    const cid = `${prefix}-${seedValue}-${c}`;
    const turns = [];
    for (let j = 0; j < TURNS_PER_CONVERSATION; j++) {
      const howMany = [0, 1, 1, 2][Math.floor(rand() * 4)];
      const named = [];
      while (named.length < howMany) {
        const n = names[Math.floor(rand() * names.length)];
        if (!named.includes(n)) named.push(n);
      }
      const n = j + 1;
      const message =
        howMany === 0
          ? `turn ${n}: nothing specific — just checking in, naïve café ✓`
          : howMany === 1
            ? `turn ${n}: what do you know about ${named[0]}?`
            : `turn ${n}: remind me what ${named[0]} said about ${named[1]} — “quoted” ✓`;
      turns.push({ cid, turnId: `t${String(n).padStart(2, '0')}`, turnNumber: n, message, named });
    }
    conversations.push({ cid, turns });
  }
  return conversations;
}

/** The LLM: a fixed reply per turn that names the turn's first named entity (its subject). */
function replyFor(turn) {
  return turn.named.length === 0 ? `Noted, turn ${turn.turnNumber}.` : `Noted: ${turn.named[0]}, turn ${turn.turnNumber}.`;
}

/** REFERS_TO targets of every /store body the server received for `key`, as one set per body. */
function requestedRefersTo(key) {
  const sets = new Map();
  for (const r of server.requests) {
    if (r.path !== STORE || !r.body || r.body.idempotency_key !== key) continue;
    const targets = sorted((r.body.relationships ?? []).filter((x) => x.relationship_type === 'REFERS_TO').map((x) => x.target_entity_id));
    sets.set(targets.join(','), targets);
  }
  return [...sets.values()];
}

test('the fault mode: every kind does what it says, counted, and the store sees only what it should', { timeout: 20_000 }, async () => {
  const post = (body, timeoutMs = 1000) =>
    fetch(server.url + STORE, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    }).then(async (r) => ({ status: r.status, headers: r.headers, text: await r.text() }));
  const note = (k) => ({ entities: [{ entity_type: 'note', title: `fault-mode ${k}` }], idempotency_key: `fault-mode-${k}` });
  const stored = async (k) => (await retrieve(server, { identifier: `fault-mode ${k}`, entity_type: 'note' })).entities.length;
  const only = async (kind, extra, k, expect) => {
    server.setFaults({ seed: 1, rules: [{ path: STORE, p: 1, kind, ...extra }] });
    const from = server.requests.length;
    const outcome = await post(note(k), extra.clientTimeoutMs).then(
      (r) => r,
      (e) => ({ error: e }),
    );
    await server.whenIdle();
    server.clearFaults();
    assert.equal(server.faultCounts()[kind], 1, `${kind} counted`);
    assert.equal(server.requests[from].fault, kind);
    await expect(outcome, await stored(k), server.requests[from]);
  };
  try {
    await only('drop-request', {}, 'a', (o, n) => {
      assert.ok(o.error, 'connection dropped');
      assert.equal(n, 0, 'not handled');
    });
    await only('drop-response', {}, 'b', (o, n) => {
      assert.ok(o.error, 'connection dropped');
      assert.equal(n, 1, 'the write happened');
    });
    await only('delay', { ms: 120 }, 'c', (o, n, entry) => {
      assert.equal(o.status, 200);
      assert.equal(n, 1);
      assert.equal(entry.delayedMs, 120);
    });
    await only('delay', { ms: 200, clientTimeoutMs: 50 }, 'c2', (o, n) => {
      assert.equal(o.error?.name, 'TimeoutError', 'the client gave up');
      assert.equal(n, 1, 'the store still handled it after the delay');
    });
    await only('hang', { clientTimeoutMs: 100 }, 'd', (o, n) => {
      assert.equal(o.error?.name, 'TimeoutError');
      assert.equal(n, 0);
    });
    await only('unavailable', {}, 'e', (o, n) => {
      assert.equal(o.status, 503);
      assert.match(o.headers.get('content-type'), /text\/html/);
      assert.match(o.text, /Service Unavailable/);
      assert.equal(n, 0);
    });
    await only('rate-limit', { retryAfter: 7 }, 'f', (o, n) => {
      assert.equal(o.status, 429);
      assert.equal(o.headers.get('retry-after'), '7');
      assert.equal(o.text, 'Write rate limit exceeded, please slow down');
      assert.equal(n, 0);
    });
    await only('truncated', { cut: 'length' }, 'g', (o, n) => {
      assert.equal(o.status, 200);
      assert.throws(() => JSON.parse(o.text));
      assert.equal(n, 1);
    });
    await only('truncated', { cut: 'connection' }, 'h', (o, n) => {
      assert.ok(o.error, 'the body never completes');
      assert.equal(n, 1);
    });
    await only('html-error', { status: 502 }, 'i', (o, n) => {
      assert.equal(o.status, 502);
      assert.match(o.text, /^<!DOCTYPE html>[\s\S]*<pre>Bad Gateway<\/pre>/);
      assert.equal(n, 0);
    });
    await only('html-error', { status: 500, handled: true }, 'j', (o, n) => {
      assert.equal(o.status, 500);
      assert.equal(n, 1, 'handled: true writes before the error page');
    });

    // a burst: this and the next burst-1 requests to the path, then normal again
    server.setFaults({ seed: 1, rules: [{ path: STORE, p: 1, kind: 'unavailable', burst: 3, match: (b) => b.idempotency_key === 'fault-mode-k1' }] });
    const statuses = [];
    for (const k of ['k1', 'k2', 'k3', 'k4']) statuses.push((await post(note(k))).status);
    assert.deepEqual(statuses, [503, 503, 503, 200]);
    assert.equal(server.faultCounts().unavailable, 3);

    // other paths and unauthorized calls are not touched by a /store rule
    server.setFaults({ seed: 1, rules: [{ path: STORE, p: 1, kind: 'html-error' }] });
    assert.equal((await call(server, 'POST', RETRIEVE, { identifier: 'Acme Corp' })).status, 200);
    assert.equal((await call(server, 'POST', STORE, note('l'), { token: 'wrong' })).status, 401);
    assert.equal(server.faultCounts()['html-error'], 0);
    assert.throws(() => server.setFaults({ seed: 1, rules: [{ path: STORE, p: 1, kind: 'explode' }] }), /unknown kind/);
    assert.throws(() => server.setFaults({ rules: [] }), /seed/);
  } finally {
    server.clearFaults();
  }
});

test('the fault mode is a function of its seed and the request, not of the interleaving', () => {
  const rules = [
    { path: '*', p: 0.3, kind: 'drop-request' },
    { path: STORE, p: 0.3, kind: 'delay', ms: [0, 100] },
    { path: STORE, p: 0.3, kind: 'rate-limit', retryAfter: [0, 1] },
  ];
  const requests = [];
  for (let i = 0; i < 40; i++) {
    requests.push([STORE, { idempotency_key: `k${i % 13}` }]);
    requests.push([RETRIEVE, { identifier: `name ${i % 7}` }]);
  }
  const decisions = (seedValue, order) => {
    const plan = createFaultPlan({ seed: seedValue, rules });
    const out = new Map();
    const seen = new Map();
    for (const [path, body] of order) {
      const id = JSON.stringify([path, body]);
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      const f = plan.decide(path, body);
      out.set(`${id}#${n}`, f && JSON.stringify([f.kind, f.ms, f.retryAfter]));
    }
    return out;
  };
  const a = decisions(7, requests);
  // same seed, the two request streams interleaved differently: same decision for the n-th
  // occurrence of each request
  const reordered = [...requests.filter(([p]) => p === RETRIEVE), ...requests.filter(([p]) => p === STORE)];
  assert.deepEqual(decisions(7, reordered), a);
  assert.notDeepEqual(decisions(8, requests), a, 'another seed, other faults');
  const fired = [...a.values()].filter(Boolean).length;
  assert.ok(fired > 10 && fired < 70, `about half of 80 requests get a fault (${fired})`);
});

/**
 * One turn, as an app would run it: a rejected turn is run again with the same turn id (the
 * documented recovery: same id, same number, same body, so it replays). Every rejection is kept.
 * The callback notes turns whose user message was neither stored nor in the outbox storage when
 * it ran (`unkept`: there must be none).
 */
async function runTurn(agent, turn, rejections, storage, unkept) {
  const userKey = idempotencyKey(turn.cid, turn.turnId, 'user');
  const llm = () => {
    const queue = storage.map.get(`neotoma-agent-wasm/outbox/v1/${turn.cid}`);
    const queued = queue !== undefined && JSON.parse(queue).writes.some((w) => w.idempotencyKey === userKey);
    const index = server.store.handle('GET', `/conversations/${encodeURIComponent(turn.cid)}/turn-index`);
    const stored = index.status === 200 && index.body.turns.some((r) => r.turn_key === `${turn.cid}:${turn.turnId}`);
    if (!queued && !stored) unkept.push(`${turn.cid}:${turn.turnId}`);
    return replyFor(turn);
  };
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await agent.turn(turn.message, llm, { turnId: turn.turnId });
      return { result, attempts: attempt };
    } catch (error) {
      rejections.push({ cid: turn.cid, turnId: turn.turnId, attempt, error });
      if (attempt >= MAX_TURN_ATTEMPTS) throw error;
    }
  }
}

for (const overlapUserStore of [false, true]) {
  const mode = overlapUserStore ? 'overlapped' : 'plain';
  test(`chaos (${mode}): ${CONVERSATIONS * TURNS_PER_CONVERSATION} turns through a faulty server, then flush: nothing lost, nothing doubled, no token anywhere`, { timeout: 120_000 }, (t) =>
    chaos(t, { overlapUserStore, mode, prefix: overlapUserStore ? 'chaos-overlap' : 'chaos' }),
  );
}

async function chaos(t, { overlapUserStore, mode, prefix }) {
  const started = performance.now();
  const conversations = script(CHAOS_SEED, prefix);
  const storage = recordingStorage();
  const events = [];
  const rejections = [];
  const unkept = [];
  const outcomes = new Map(); // `${cid}:${turnId}` -> { result, attempts }
  const agents = new Map();
  for (const { cid } of conversations) {
    agents.set(
      cid,
      new NeotomaAgent({
        conversationId: cid,
        transport: { baseUrl: server.url, token: server.token, timeoutMs: AGENT_TIMING.timeoutMs },
        retry: AGENT_TIMING.retry,
        retrievalTimeoutMs: AGENT_TIMING.retrievalTimeoutMs,
        outbox: storage,
        overlapUserStore,
        onEvent: (event) => events.push({ cid, ...event }),
      }),
    );
  }
  const summary = {};
  const report = (line) => t.diagnostic(`[chaos ${mode}] ${line}`);
  const consoleCapture = captureConsole();
  try {
    server.resetCounts();
    server.setFaults({ seed: CHAOS_SEED, rules: FAULT_RULES });

    // ---- 200 turns, 4 conversations at a time, each conversation's turns in order
    const queue = [...conversations];
    const worker = async () => {
      for (let conv = queue.shift(); conv; conv = queue.shift()) {
        const agent = agents.get(conv.cid);
        for (const turn of conv.turns) outcomes.set(`${turn.cid}:${turn.turnId}`, await runTurn(agent, turn, rejections, storage, unkept));
      }
    };
    await Promise.all(Array.from({ length: CONCURRENT_CONVERSATIONS }, worker));
    const turnsDoneMs = performance.now() - started;
    assert.deepEqual(unkept, [], 'turns whose user message was neither stored nor kept when the callback ran');
    const faultCounts = server.faultCounts();
    const requestCounts = server.counts();

    // ---- while the faults are still on: every message is stored, or its write is in the outbox
    // (read straight from the server's EmbeddedStore, past the HTTP faults)
    const direct = (method, path, body) => {
      const r = server.store.handle(method, path, body);
      assert.equal(r.status, 200, `${method} ${path}`);
      return r.body;
    };
    let pendingAfterTurns = 0;
    // the outbox's own timer may send some of these before the final flush does
    const waitingKeys = new Set();
    const eventsAtSnapshot = events.length;
    for (const conv of conversations) {
      const pending = await agents.get(conv.cid).pendingWrites();
      pendingAfterTurns += pending.length;
      for (const w of pending) waitingKeys.add(w.idempotencyKey);
      const pendingKeys = pending.map((w) => w.idempotencyKey);
      assert.equal(new Set(pendingKeys).size, pendingKeys.length, 'one outbox entry per write');
      for (const w of pending) assert.ok(!JSON.stringify(w).includes(server.token), 'no token in a pending write');
      const index = direct('GET', `/conversations/${encodeURIComponent(conv.cid)}/turn-index`);
      const rows = new Map((index.turns ?? []).map((r) => [r.turn_key, r]));
      const known = new Set();
      for (const turn of conv.turns) {
        const { result } = outcomes.get(`${turn.cid}:${turn.turnId}`);
        assert.equal(result.turnNumber, turn.turnNumber);
        assert.equal(result.assistantMessage, replyFor(turn));
        for (const [role, turnKey, entityId] of [
          ['user', `${conv.cid}:${turn.turnId}`, result.userMessageEntityId],
          ['assistant', `${conv.cid}:${turn.turnId}:assistant`, result.assistantMessageEntityId],
        ]) {
          const key = idempotencyKey(conv.cid, turn.turnId, role);
          known.add(key);
          if (result.pending[role]) {
            assert.equal(entityId, null, `${turnKey}: a pending message has no entity id yet`);
            // still waiting, or sent since by a later store's pass over the outbox
            const flushedSince = events.some((e) => e.type === 'writeFlushed' && e.idempotencyKey === key);
            assert.ok(pendingKeys.includes(key) || (flushedSince && rows.has(turnKey)), `${turnKey}: pending, but neither in the outbox nor flushed and stored`);
          } else {
            assert.ok(rows.has(turnKey), `${turnKey}: not pending, so it is stored`);
            assert.equal(rows.get(turnKey).message_entity_id, entityId, `${turnKey}: the stored entity`);
          }
        }
      }
      for (const key of pendingKeys) assert.ok(known.has(key), `outbox write ${key} belongs to a turn`);
    }

    // ---- faults off, every agent flushes: everything is stored
    server.clearFaults();
    let flushedAtEnd = 0;
    for (const [cid, agent] of agents) {
      const r = await agent.flush();
      assert.equal(r.pending, 0, `${cid}: flush left writes behind`);
      assert.deepEqual(r.failed, [], `${cid}: flush dropped writes`);
      flushedAtEnd += r.flushed;
    }
    // each write waiting when the turns ended was sent exactly once since, by the final flush
    // or by the outbox's own timer just before it, and nothing else was sent
    const sentSince = events.slice(eventsAtSnapshot).filter((e) => e.type === 'writeFlushed');
    for (const key of waitingKeys) {
      assert.equal(sentSince.filter((e) => e.idempotencyKey === key).length, 1, `${key}: sent once after the turns`);
    }
    for (const e of sentSince) assert.ok(waitingKeys.has(e.idempotencyKey), `${e.idempotencyKey}: sent after the turns, but was not waiting`);
    assert.ok(flushedAtEnd <= pendingAfterTurns, 'the flush sent only what was waiting');
    assert.ok(pendingAfterTurns > 0, 'writes were waiting when the turns ended (the final flush had work)');
    await server.whenIdle(); // delayed handlers the clients gave up on are done too
    for (const [cid, agent] of agents) {
      assert.deepEqual(await agent.pendingWrites(), [], `${cid}: outbox empty`);
      assert.deepEqual(await agent.flush(), { flushed: 0, pending: 0, failed: [], superseded: [] }, `${cid}: a second flush does nothing`);
    }
    assert.equal(storage.map.size, 0, 'the outbox storage holds no key');

    // ---- exactly one user and one assistant message per turn, exact content, number and edges
    let userEdges = 0;
    let assistantEdges = 0;
    let namedRefs = 0;
    let partialRetrievals = 0;
    for (const conv of conversations) {
      const index = await turnIndex(server, conv.cid);
      const conversationEntityId = index.conversation_entity_id;
      assert.equal(index.turns.length, 2 * TURNS_PER_CONVERSATION, `${conv.cid}: one row per message`);
      const rows = new Map();
      for (const row of index.turns) {
        assert.ok(!rows.has(row.turn_key), `${row.turn_key} listed twice`);
        rows.set(row.turn_key, row);
      }
      const byTurnKey = await retrieve(server, { identifier: `${conv.cid}:`, entity_type: 'conversation_message', by: 'turn_key', limit: 1000 });
      assert.equal(byTurnKey.entities.length, 2 * TURNS_PER_CONVERSATION, `${conv.cid}: no message entity outside the index`);
      const conversationSnapshot = await entitySnapshot(server, conversationEntityId);
      assert.equal(conversationSnapshot.observation_count, 2 * TURNS_PER_CONVERSATION, `${conv.cid}: one conversation observation per message store, no more`);

      for (const turn of conv.turns) {
        const { result } = outcomes.get(`${turn.cid}:${turn.turnId}`);
        const named = new Set(turn.named.map((n) => entityIds.get(n)));
        namedRefs += named.size;
        if (result.retrievedEntityIds.length < named.size) partialRetrievals++;
        const subject = turn.named.length ? new Set([entityIds.get(turn.named[0])]) : new Set();
        for (const [role, turnKey, content, resultId, finalRefs, allowed] of [
          ['user', `${conv.cid}:${turn.turnId}`, turn.message, result.userMessageEntityId, result.retrievedEntityIds, named],
          ['assistant', `${conv.cid}:${turn.turnId}:assistant`, replyFor(turn), result.assistantMessageEntityId, result.refersTo, subject],
        ]) {
          const row = rows.get(turnKey);
          assert.ok(row, `${turnKey} stored`);
          assert.equal(row.role, role);
          assert.equal(row.turn_number, turn.turnNumber, `${turnKey} turn_number`);
          if (resultId !== null) assert.equal(row.message_entity_id, resultId, `${turnKey}: the id the turn returned`);
          const id = row.message_entity_id;
          const snap = await entitySnapshot(server, id);
          assert.equal(snap.snapshot.content, content, `${turnKey}: exact content`);
          assert.equal(snap.snapshot.turn_number, turn.turnNumber);
          assert.equal(snap.snapshot.turn_key, turnKey);
          assert.equal(snap.observation_count, 1, `${turnKey}: one observation (replays collapse)`);

          const partOf = (await related(server, id, 'outbound', ['PART_OF'])).relationships.filter((r) => r.source_entity_id === id && r.relationship_type === 'PART_OF');
          assert.deepEqual(partOf.map((r) => r.target_entity_id), [conversationEntityId], `${turnKey}: PART_OF its conversation, once`);

          // REFERS_TO: what the turn retrieved (user) or cites (assistant); never anything the
          // message does not name. A turn run again may have retrieved differently: then the edges
          // are bounded by what its stores asked for.
          const edges = new Set(await refersTo(server, id));
          if (role === 'user') userEdges += edges.size;
          else assistantEdges += edges.size;
          const key = idempotencyKey(conv.cid, turn.turnId, role);
          const asked = requestedRefersTo(key);
          const askedUnion = new Set(asked.flat());
          assert.ok(isSubset(finalRefs, edges), `${turnKey}: REFERS_TO ${sorted(edges)} lacks some of the result's ${sorted(finalRefs)}`);
          assert.ok(isSubset(edges, askedUnion), `${turnKey}: REFERS_TO ${sorted(edges)} beyond what was sent ${sorted(askedUnion)}`);
          assert.ok(isSubset(askedUnion, allowed), `${turnKey}: asked for ${sorted(askedUnion)}, only ${sorted(allowed)} are named`);
          if (asked.length === 1) assert.deepEqual(sorted(edges), asked[0], `${turnKey}: exactly the REFERS_TO that was sent`);
          if (role === 'assistant') {
            const cited = turn.named.length && result.retrievedEntityIds.includes(entityIds.get(turn.named[0]));
            assert.deepEqual(result.refersTo, cited ? [entityIds.get(turn.named[0])] : [], `${turnKey}: cites its subject iff retrieved`);
          }
        }
      }
    }
    assert.ok(userEdges > 0 && assistantEdges > 0, 'REFERS_TO edges were exercised');

    // ---- faults really fired, of every kind configured
    for (const kind of new Set(FAULT_RULES.map((r) => r.kind))) assert.ok(faultCounts[kind] > 0, `no ${kind} fault fired`);

    // ---- the token: in no rejection, event, outbox value, result or console line
    const token = server.token;
    for (const { error } of rejections) {
      for (const text of [String(error), error?.message, error?.stack, inspect(error, { depth: 8 }), JSON.stringify(error?.body ?? null)]) {
        assert.ok(!String(text).includes(token), 'token in an error');
      }
    }
    assert.ok(!JSON.stringify(events).includes(token), 'token in an event');
    for (const { key, value } of storage.puts) assert.ok(!key.includes(token) && !value.includes(token), 'token in the outbox storage');
    assert.ok(!JSON.stringify([...outcomes.values()]).includes(token), 'token in a turn result');
    assert.ok(!consoleCapture.lines.some((l) => l.includes(token)), 'token on the console');

    // ---- what a rejected turn was: only a 2xx answer the agent could not read (see the report)
    const rejectedCodes = [...new Set(rejections.map((r) => r.error?.code))];
    for (const code of rejectedCodes) assert.equal(code, 'NEOTOMA_INVALID_RESPONSE', `unexpected turn rejection ${code}`);

    const outboxKeys = new Set(events.filter((e) => e.type === 'writePending').map((e) => e.idempotencyKey));
    Object.assign(summary, {
      mode,
      seed: CHAOS_SEED,
      turns: outcomes.size,
      durationMs: Math.round(performance.now() - started),
      turnsPhaseMs: Math.round(turnsDoneMs),
      faults: faultCounts,
      requests: { store: requestCounts[STORE], retrieve: requestCounts[RETRIEVE], createRelationships: requestCounts[REPAIR] ?? 0 },
      retries: events.filter((e) => e.type === 'retry').length,
      outbox: {
        writesDeferred: outboxKeys.size,
        pendingEvents: events.filter((e) => e.type === 'writePending').length,
        flushedDuringTurns: events.filter((e) => e.type === 'writeFlushed').length - flushedAtEnd,
        waitingAfterTurns: pendingAfterTurns,
        flushedAtEnd,
        storagePuts: storage.puts.length,
      },
      turnsWithAPendingMessage: [...outcomes.values()].filter((o) => o.result.pending.user || o.result.pending.assistant).length,
      turnsWithAReplayedMessage: [...outcomes.values()].filter((o) => o.result.replayed.user || o.result.replayed.assistant).length,
      rejectedTurnAttempts: rejections.length,
      rejectionCodes: rejectedCodes,
      partialRetrievals,
      edges: { user: userEdges, assistant: assistantEdges, named: namedRefs },
      consoleLines: consoleCapture.lines.length,
    });
  } catch (e) {
    // what happened to the turn the failure names, to read along with the replay
    const named = /(chaos(?:-overlap)?-\d+-\d+):(t\d+)/.exec(String(e?.message));
    if (named) {
      const [, cid, turnId] = named;
      const keys = ['user', 'assistant'].map((role) => idempotencyKey(cid, turnId, role));
      const messageIds = new Set(
        server.requests
          .filter((q) => keys.includes(q.body?.idempotency_key))
          .flatMap((q) => q.response?.entities ?? [])
          .filter((x) => x.entity_type === 'conversation_message')
          .map((x) => x.entity_id),
      );
      const concerns = (q) => keys.includes(q.body?.idempotency_key) || (q.path === REPAIR && (q.body?.relationships ?? []).some((x) => messageIds.has(x.source_entity_id)));
      for (const r of server.requests.filter(concerns)) {
        const refs = (r.body.relationships ?? []).filter((x) => x.relationship_type === 'REFERS_TO').map((x) => `${x.source_entity_id ?? '#' + x.source_index}->${x.target_entity_id}`);
        report(`  #${r.seq} ${r.path} ${r.body.idempotency_key ?? ''} status=${r.status} fault=${r.fault ?? '-'} handled=${r.handled ?? '-'} replayed=${r.response?.replayed ?? '-'} refs=${refs.join(' ')}`);
      }
      for (const ev of events.filter((x) => x.cid === cid && x.turnId === turnId)) report(`  event ${JSON.stringify(ev)}`);
      for (const rj of rejections.filter((x) => x.cid === cid && x.turnId === turnId)) report(`  rejected attempt ${rj.attempt}: ${rj.error?.code} ${rj.error?.message}`);
      const o = outcomes.get(`${cid}:${turnId}`);
      if (o) report(`  result ${JSON.stringify({ ...o.result, retrieved: undefined })}`);
    }
    report(`FAILED with CHAOS_SEED=${CHAOS_SEED} (replay: CHAOS_SEED=${CHAOS_SEED} node --test tests/node/chaos.test.mjs); fault counts ${JSON.stringify(server.faultCounts())}`);
    throw e;
  } finally {
    consoleCapture.restore();
    server.clearFaults();
  }
  report(JSON.stringify(summary));
}

// A 200 /store answer whose body is cut short (the write happened) is retried like a lost answer:
// the second attempt, same body and key, gets a readable replay answer.
test('a 200 /store answer cut short is retried and read from the replay: one observation', { timeout: 10_000 }, async () => {
  const cid = `truncated-answer-${Date.now()}`;
  const key = idempotencyKey(cid, 't1', 'user');
  let cuts = 0;
  server.setFaults({ seed: 1, rules: [{ path: STORE, p: 1, kind: 'truncated', cut: 'length', match: (body) => body.idempotency_key === key && cuts++ === 0 }] });
  let result;
  try {
    const agent = new NeotomaAgent({
      conversationId: cid,
      transport: { baseUrl: server.url, token: server.token, timeoutMs: AGENT_TIMING.timeoutMs },
      retry: AGENT_TIMING.retry,
      outbox: recordingStorage(),
    });
    result = await agent.turn('Tell me about Acme Corp', () => 'Acme Corp, noted.', { turnId: 't1' });
    await agent.flush();
  } finally {
    server.clearFaults();
  }
  assert.ok(cuts >= 1, 'the first answer was cut (the matcher also sees the retry)');
  assert.equal(result.pending.user || result.replayed.user, true, 'retried (a replay) or kept for later');
  const index = await turnIndex(server, cid);
  assert.equal(index.turns.length, 2);
  for (const row of index.turns) assert.equal((await entitySnapshot(server, row.message_entity_id)).observation_count, 1);
});
