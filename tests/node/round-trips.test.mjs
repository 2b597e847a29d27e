// Round trips on a turn's critical path, counted (not timed) against the local Neotoma-shaped
// server, for messages naming 0, 1, 4 and 8 identifiers that exist in the server (so every lookup
// finds its entity). The server holds the lookups until all n have arrived (a barrier: `hold`),
// so lookups sent together overlap in its log however slow the machine; lookups sent one after
// another never fill it (the held lookup times out and the test fails). In an
// overlapped turn it holds the user /store until the callback is invoked: the callback runs
// while that store is in flight. From the log's timestamps and the moment the callback is
// invoked:
//   - before the callback: the requests it waited for (answered before it was invoked);
//   - after: the turn's other requests;
//   - round trips: the longest chain of requests each received after the previous one was
//     answered (requests in flight together count once).
// Plain turn: the lookups in one wave, then the user /store, then the callback, then the assistant
// /store: 2 round trips before the callback (1 with no identifier: no lookup is sent) and 1 after.
// Overlapped (`overlapUserStore: true`): the lookups, then the callback at once: 1 round trip
// before (0 with no identifier); the user /store runs alongside the callback and the assistant
// /store follows it: 2 after, one of them overlapping the callback.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { extractIdentifiers, idempotencyKey } from 'neotoma-agent-wasm';
import { startTestServer, seed, DISTINCT_ENTITIES, randomId, httpAgent, recordingStorage } from '../server/harness.mjs';

const RETRIEVE = '/retrieve_entity_by_identifier';
const STORE = '/store';

const ENTITIES = DISTINCT_ENTITIES.slice(0, 8);

let server;
const idOf = new Map();

before(async () => {
  server = await startTestServer();
  const got = await seed(server, ENTITIES, 'seed-round-trips');
  ENTITIES.forEach((e, i) => idOf.set(e.name, got[i]));
});

after(async () => {
  await server?.close();
});

function messageNaming(n) {
  const names = ENTITIES.slice(0, n).map((e) => e.name);
  return {
    names,
    text: n === 0 ? 'please summarise what we know so far.' : `please summarise what we know about ${names.join(', ')}.`,
  };
}

/** The longest chain of requests, each received after the previous one was answered. */
function sequentialRoundTrips(requests) {
  const sorted = [...requests].sort((a, b) => a.receivedAt - b.receivedAt);
  const chain = sorted.map(() => 1);
  for (let i = 0; i < sorted.length; i++) {
    for (let j = 0; j < i; j++) {
      if (sorted[j].respondedAt <= sorted[i].receivedAt) chain[i] = Math.max(chain[i], chain[j] + 1);
    }
  }
  return Math.max(0, ...chain);
}

/** One turn; its requests split at the callback's invocation. */
async function measure(n, overlapUserStore) {
  const { names, text } = messageNaming(n);
  assert.deepEqual(extractIdentifiers(text), names, 'the message names exactly these identifiers');
  const cid = randomId(overlapUserStore ? 'rt-overlap' : 'rt-plain');
  const agent = httpAgent(server, cid, { overlapUserStore, outbox: recordingStorage(), retrievalTimeoutMs: 10_000 });
  if (n > 0) {
    const lookupWave = server.hold(RETRIEVE, { count: n });
    lookupWave.arrived.then(lookupWave.release);
  }
  // overlapped: the user /store is answered only once the callback runs (plain: never held, the
  // callback waits for it)
  const userStore = overlapUserStore ? server.hold(STORE, { match: (b) => b?.idempotency_key === idempotencyKey(cid, 't1', 'user') }) : null;
  let invokedAt;
  const from = server.requests.length;
  let result;
  try {
    result = await agent.turn(
      text,
      () => {
        invokedAt = performance.now();
        userStore?.release();
        return 'Noted.';
      },
      { turnId: 't1' },
    );
  } finally {
    server.clearFaults(); // a hold left unfilled by a failed turn does not catch the next one's requests
  }
  await server.whenIdle();
  const requests = server.requests.slice(from);
  assert.deepEqual(
    [...result.retrievedEntityIds].sort(),
    names.map((name) => idOf.get(name)).sort(),
    'every lookup found its entity',
  );
  const waitedFor = requests.filter((r) => r.respondedAt <= invokedAt);
  const rest = requests.filter((r) => r.respondedAt > invokedAt);
  const paths = (rs) => rs.map((r) => (r.path === STORE ? `store:${r.body.entities[1].role}` : 'lookup'));
  return {
    cid,
    before: { paths: paths(waitedFor), roundTrips: sequentialRoundTrips(waitedFor) },
    after: { paths: paths(rest), roundTrips: sequentialRoundTrips(rest) },
    requests,
  };
}

const lookups = (n) => Array.from({ length: n }, () => 'lookup');

for (const n of [0, 1, 4, 8]) {
  test(`round trips, ${n} identifier(s): plain 2 before the callback (1 without lookups), 1 after; overlapped 1 before (0 without lookups)`, { timeout: 30_000 }, async () => {
    const plain = await measure(n, false);
    assert.deepEqual(plain.before.paths, [...lookups(n), 'store:user'], 'plain: the lookups and the user store before the callback');
    assert.deepEqual(plain.after.paths, ['store:assistant']);
    assert.equal(plain.before.roundTrips, n === 0 ? 1 : 2, 'plain: the lookup wave, then the user store');
    assert.equal(plain.after.roundTrips, 1);

    const overlapped = await measure(n, true);
    assert.deepEqual(overlapped.before.paths, lookups(n), 'overlapped: only the lookups before the callback');
    assert.deepEqual(overlapped.after.paths, ['store:user', 'store:assistant']);
    assert.equal(overlapped.before.roundTrips, n === 0 ? 0 : 1, 'overlapped: the lookup wave only');
    assert.equal(overlapped.after.roundTrips, 2, 'the assistant store after the user store');
    const [user, assistant] = overlapped.requests.filter((r) => r.path === STORE);
    assert.equal(user.body.idempotency_key, idempotencyKey(overlapped.cid, 't1', 'user'));
    assert.ok(user.respondedAt <= assistant.receivedAt);

    // in both, one request per identifier (no second lookup) and two stores in all
    for (const m of [plain, overlapped]) {
      assert.equal(m.requests.filter((r) => r.path === RETRIEVE).length, n);
      assert.equal(m.requests.filter((r) => r.path === STORE).length, 2);
      assert.equal(m.requests.length, n + 2);
    }
  });
}
