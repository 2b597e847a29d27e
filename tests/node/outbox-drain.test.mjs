// The outbox drains by itself: while an agent lives, writes it could not send are sent again on
// its own timer, no sooner than the server's Retry-After and never in a busy loop, and the timer
// stops when the outbox is empty. `flush({ untilEmpty: true, timeoutMs })` waits for the drain.
// The timer does not hold a finished Node script open.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { startTestServer, seedStandard, turnIndex, randomId, httpAgent, recordingStorage, sleep } from '../server/harness.mjs';
import { describeRun, runNode } from '../packaging/helpers.mjs';

let server;

before(async () => {
  server = await startTestServer();
  await seedStandard(server);
});

after(async () => {
  await server?.close();
});

const llm = () => 'Acme Corp, noted.';

/** Every /store of `cid` answered 429 with `Retry-After: 2` (as the real server's write limit). */
function limitWrites(cid, seed) {
  server.setFaults({ seed, rules: [{ path: '/store', p: 1, kind: 'rate-limit', retryAfter: 2, match: (b) => b.idempotency_key.includes(cid) }] });
}

const storesOf = (cid) => server.requests.filter((r) => r.path === '/store' && r.body?.idempotency_key?.includes(cid));

test('queued writes are sent on their own within a second or two of the limit lifting, not before', { timeout: 30_000 }, async () => {
  const cid = randomId('drain-timer');
  const events = [];
  const agent = httpAgent(server, cid, { outbox: recordingStorage(), retry: false, onEvent: (e) => events.push(e) });
  limitWrites(cid, 21);
  const limitedFor = 4_500;
  let liftedAt;
  let duringTurn;
  try {
    const r = await agent.turn('Tell me about Acme Corp', llm, { turnId: 't1' });
    assert.deepEqual(r.pending, { user: true, assistant: true });
    duringTurn = storesOf(cid).length; // the turn's own attempts (the reply's store tried the user's first)
    await sleep(limitedFor);
  } finally {
    server.clearFaults();
    liftedAt = performance.now();
  }
  // no call to the agent from here on: only the server is watched
  const deadline = liftedAt + 6_000;
  while (performance.now() < deadline && (await turnIndex(server, cid).catch(() => ({ turns: [] }))).turns.length < 2) await sleep(50);
  const stores = storesOf(cid);
  const stored = stores.filter((r) => r.status === 200);
  assert.equal(stored.length, 2, 'both messages sent by the timer');
  const firstStored = stored[0].receivedAt - liftedAt;
  assert.ok(firstStored >= 0, 'nothing got through before the limit lifted');
  assert.ok(firstStored < 2_500, `sent ${Math.round(firstStored)} ms after the limit lifted (Retry-After 2 s)`);
  // while limited, the timer tried once per Retry-After: never a busy loop
  const limited = stores.slice(duringTurn).filter((r) => r.status === 429);
  assert.ok(limited.length >= 2 && limited.length <= 4, `${limited.length} attempts in ${limitedFor} ms`);
  for (let i = 1; i < limited.length; i++) {
    assert.ok(limited[i].receivedAt - limited[i - 1].receivedAt >= 1_950, 'no sooner than Retry-After');
  }
  const drains = events.filter((e) => e.type === 'drain');
  assert.ok(drains.length >= 2);
  assert.deepEqual(drains.at(-1), { type: 'drain', flushed: 2, failed: 0, superseded: 0, pending: 0 });
  assert.ok(drains.slice(0, -1).every((e) => e.pending === 2 && e.nextAttemptMs >= 2_000));
  // empty: the timer has stopped, nothing more is sent
  const count = storesOf(cid).length;
  await sleep(2_500);
  assert.equal(storesOf(cid).length, count, 'the timer stops once the outbox is empty');
  assert.deepEqual(await agent.pendingWrites(), []);
});

test('flush({ untilEmpty: true }) resolves once the writes are sent; with a timeout it says what is left', { timeout: 30_000 }, async () => {
  const cid = randomId('drain-flush');
  const events = [];
  const agent = httpAgent(server, cid, { outbox: recordingStorage(), retry: false, onEvent: (e) => events.push(e) });
  limitWrites(cid, 22);
  let liftedAt = Infinity;
  try {
    await agent.turn('Tell me about Acme Corp', llm, { turnId: 't1' });
    const t0 = performance.now();
    const short = await agent.flush({ untilEmpty: true, timeoutMs: 500 });
    assert.equal(short.pending, 2, 'still limited: both left');
    assert.equal(short.flushed, 0);
    assert.ok(performance.now() - t0 >= 450, 'it waited for its timeout');
    setTimeout(() => {
      server.clearFaults();
      liftedAt = performance.now();
    }, 2_500);
    const drained = await agent.flush({ untilEmpty: true, timeoutMs: 15_000 });
    assert.ok(performance.now() >= liftedAt, 'resolved only after the limit lifted');
    assert.equal(drained.pending, 0);
    // the outbox's own timer may have sent some of them meanwhile: together, each write once
    const byTimer = events.filter((e) => e.type === 'drain').reduce((n, e) => n + e.flushed, 0);
    assert.equal(drained.flushed + byTimer, 2);
    assert.deepEqual(drained.failed, []);
  } finally {
    server.clearFaults();
  }
  assert.equal((await turnIndex(server, cid)).turns.length, 2);
  assert.deepEqual(await agent.pendingWrites(), []);
});

test('the timer does not hold a finished Node script open', { timeout: 30_000 }, async () => {
  // a script whose turn leaves both messages in the outbox (nothing listens on the port), then
  // ends: it must exit at once, not keep retrying in the background
  const script = `
    import { NeotomaAgent } from 'neotoma-agent-wasm';
    const agent = new NeotomaAgent({ conversationId: 'exit-check', retry: false,
      transport: { baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000 } });
    const r = await agent.turn('hello', () => 'hi', { turnId: 't1' });
    console.log(JSON.stringify(r.pending));
  `;
  const r = await runNode(script, { timeoutMs: 20_000 });
  assert.equal(r.code, 0, describeRun('exit-check', r));
  assert.equal(r.stdout.trim(), '{"user":true,"assistant":true}', describeRun('exit-check', r));
  assert.ok(r.ms < 5_000, `exited without waiting for the outbox timer (${r.ms} ms)`);
});
