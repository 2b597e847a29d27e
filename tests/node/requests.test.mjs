// Requests per turn: one retrieval wave (one lookup per identifier, at most retrievalLimit, all in
// flight together, all before the first /store), then exactly two /store, whatever the number of
// identifiers. Retrieval failures and hangs never fail a turn.

import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';

import { NeotomaAgent } from 'neotoma-agent-wasm';
import { startTestServer, seedStandard, seed, refersTo, randomId, nonZero } from '../server/harness.mjs';

const RETRIEVE = '/retrieve_entity_by_identifier';

let server;
let ids;
const extra = {}; // name -> id for the ten-identifier case

before(async () => {
  server = await startTestServer();
  ids = await seedStandard(server);
  const names = ['Globex', 'Initech', 'Umbrella', 'Hooli', 'Wayne Enterprises', 'Stark Industries', 'Cyberdyne'];
  const got = await seed(server, names.map((name) => ({ entity_type: 'company', name })), 'seed-ten');
  names.forEach((n, i) => (extra[n] = got[i]));
});

after(async () => {
  await server?.close();
});

beforeEach(() => {
  server.clearFaults();
  server.resetCounts();
});

function agentWith(identifiers, options = {}) {
  return new NeotomaAgent({
    conversationId: randomId('req'),
    transport: { baseUrl: server.url, token: server.token, timeoutMs: 5000 },
    identifierExtractor: () => identifiers,
    retrievalTimeoutMs: 5000,
    ...options,
  });
}

/** Checks the request log of one turn: retrievals first (all of them), then /store, llm, /store. */
function checkOrdering(llmAt) {
  const log = server.requests.filter((r) => !r.preflight);
  const retrieves = log.filter((r) => r.path === RETRIEVE);
  const stores = log.filter((r) => r.path === '/store');
  assert.equal(stores.length, 2);
  assert.deepEqual(
    log.map((r) => r.path).filter((p) => p === RETRIEVE || p === '/store'),
    [...retrieves.map(() => RETRIEVE), '/store', '/store'],
    'every retrieval is issued before the first /store',
  );
  for (const r of retrieves) assert.ok(r.respondedAt <= stores[0].receivedAt, 'retrieval answered before the user /store');
  if (llmAt !== undefined) {
    assert.ok(stores[0].respondedAt <= llmAt, 'the llm runs after the user message is stored');
    assert.ok(llmAt <= stores[1].receivedAt, 'the assistant message is stored after the llm');
  }
  return { retrieves, stores };
}

const TEN = ['Acme Corp', 'Project Falcon', 'Sarah Chen', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Wayne Enterprises', 'Stark Industries', 'Cyberdyne'];

for (const [label, identifiers, expectedLookups] of [
  ['0 identifiers', [], 0],
  ['1 identifier', ['Acme Corp'], 1],
  ['10 identifiers, retrievalLimit 8', TEN, 8],
]) {
  test(`${label}: ${expectedLookups} retrievals in one wave, then exactly 2 /store`, { timeout: 10_000 }, async () => {
    const agent = agentWith(identifiers, { retrievalLimit: 8 });
    let llmAt;
    const r = await agent.turn('whatever the extractor says', () => {
      llmAt = performance.now();
      return 'ok';
    });
    const expected = { '/store': 2 };
    if (expectedLookups) expected[RETRIEVE] = expectedLookups;
    assert.deepEqual(nonZero(server.counts()), expected);
    const { retrieves } = checkOrdering(llmAt);
    assert.deepEqual(
      retrieves.map((x) => x.body.identifier).sort(),
      identifiers.slice(0, expectedLookups).sort(),
      'one lookup per extracted identifier, the first retrievalLimit ones',
    );
    assert.equal(r.retrieved.length, expectedLookups);
    assert.ok(r.retrieved.length <= 8);
  });
}

test('the default retrievalLimit is 8', { timeout: 10_000 }, async () => {
  const agent = agentWith(TEN, { retrievalLimit: undefined });
  const r = await agent.turn('x', () => 'ok');
  assert.deepEqual(nonZero(server.counts()), { [RETRIEVE]: 8, '/store': 2 });
  assert.ok(r.retrieved.length <= 8);
});

test('retrievalLimit bounds the number of lookups (3 of 10)', { timeout: 10_000 }, async () => {
  const r = await agentWith(TEN, { retrievalLimit: 3 }).turn('x', () => 'ok');
  assert.deepEqual(nonZero(server.counts()), { [RETRIEVE]: 3, '/store': 2 });
  assert.ok(r.retrieved.length <= 3);
});

test('the default extractor drives the same single wave', { timeout: 10_000 }, async () => {
  const agent = new NeotomaAgent({
    conversationId: randomId('req'),
    transport: { baseUrl: server.url, token: server.token },
  });
  const r = await agent.turn('Tell me about Acme Corp and "Project Falcon"', () => 'ok');
  assert.deepEqual(nonZero(server.counts()), { [RETRIEVE]: 2, '/store': 2 });
  assert.deepEqual(server.requests.filter((x) => x.path === RETRIEVE).map((x) => x.body.identifier).sort(), ['Acme Corp', 'Project Falcon']);
  assert.deepEqual([...r.retrievedEntityIds].sort(), [ids.acme, ids.falcon].sort());
});

test('the lookups run in parallel: 8 lookups delayed 400 ms each are all in flight at once', { timeout: 15_000 }, async () => {
  const DELAY = 400;
  server.delay(RETRIEVE, DELAY);
  const agent = agentWith(TEN, { retrievalLimit: 8 });
  const t0 = performance.now();
  const r = await agent.turn('x', () => 'ok');
  const elapsed = performance.now() - t0;
  assert.ok(elapsed >= DELAY, `elapsed ${elapsed} ms`);
  const { retrieves } = checkOrdering();
  assert.equal(retrieves.length, 8);
  // all 8 were received before the first of them was answered
  const lastReceived = Math.max(...retrieves.map((x) => x.receivedAt));
  const firstAnswered = Math.min(...retrieves.map((x) => x.respondedAt));
  assert.ok(lastReceived < firstAnswered, 'all lookups overlap in time');
  assert.equal(r.retrieved.length, 8);
});

test('a lookup answered 500 is skipped; the turn completes with the other hits', { timeout: 10_000 }, async () => {
  server.failNext(RETRIEVE, 500, undefined, { match: (b) => b.identifier === 'Acme Corp' });
  const r = await agentWith(['Acme Corp', 'Project Falcon', 'Sarah Chen']).turn('x', () => 'Project Falcon is fine.');
  assert.deepEqual([...r.retrievedEntityIds].sort(), [ids.falcon, ids.sarah].sort());
  assert.deepEqual(r.refersTo, [ids.falcon]);
  assert.deepEqual(nonZero(server.counts()), { [RETRIEVE]: 3, '/store': 2 });
  assert.deepEqual(await refersTo(server, r.userMessageEntityId), [ids.falcon, ids.sarah].sort());
});

test('every lookup failing (500, HTML 404, garbage) still completes the turn with nothing retrieved', { timeout: 10_000 }, async () => {
  server.failNext(RETRIEVE, 500, undefined, { match: (b) => b.identifier === 'Acme Corp' });
  server.failNext(RETRIEVE, 404, '<!DOCTYPE html><html><body><pre>Cannot POST</pre></body></html>', { match: (b) => b.identifier === 'Project Falcon' });
  server.failNext(RETRIEVE, 200, { entities: 'not-an-array' }, { match: (b) => b.identifier === 'Sarah Chen' });
  const r = await agentWith(['Acme Corp', 'Project Falcon', 'Sarah Chen']).turn('x', () => 'ok');
  assert.deepEqual(r.retrieved, []);
  assert.deepEqual(r.retrievedEntityIds, []);
  assert.ok(r.userMessageEntityId && r.assistantMessageEntityId);
  assert.equal(server.counts()['/store'], 2);
});

test('a lookup hanging past retrievalTimeoutMs is abandoned; the turn completes in bounded time', { timeout: 15_000 }, async () => {
  server.delay(RETRIEVE, 4000, { match: (b) => b.identifier === 'Sarah Chen' });
  const agent = agentWith(['Acme Corp', 'Sarah Chen'], { retrievalTimeoutMs: 300 });
  const t0 = performance.now();
  const r = await agent.turn('x', () => 'ok');
  const elapsed = performance.now() - t0;
  assert.ok(elapsed < 2000, `turn took ${elapsed.toFixed(0)} ms with a 300 ms retrieval timeout`);
  assert.deepEqual(r.retrievedEntityIds, [ids.acme]);
  assert.equal(server.counts()['/store'], 2);
});

test('all lookups hanging: the turn still completes after about retrievalTimeoutMs', { timeout: 15_000 }, async () => {
  server.delay(RETRIEVE, 4000);
  const agent = agentWith(['Acme Corp', 'Project Falcon', 'Sarah Chen'], { retrievalTimeoutMs: 250 });
  const t0 = performance.now();
  const r = await agent.turn('x', () => 'ok');
  const elapsed = performance.now() - t0;
  assert.ok(elapsed >= 200 && elapsed < 2000, `turn took ${elapsed.toFixed(0)} ms`);
  assert.deepEqual(r.retrieved, []);
  assert.equal(server.counts()['/store'], 2);
});
