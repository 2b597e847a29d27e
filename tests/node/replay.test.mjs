// Replaying a turn (same turnId) writes nothing new and lands on the same entities; re-using a
// turnId with different content is an IDEMPOTENCY_MISMATCH that changes nothing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { startTestServer, seedStandard, seed, graphState, turnIndex, entitySnapshot, refersTo, randomId, httpAgent } from '../server/harness.mjs';

let server;
let ids;

before(async () => {
  server = await startTestServer();
  ids = await seedStandard(server);
});

after(async () => {
  await server?.close();
});

const llm = (msg, ctx) => (ctx.turnNumber === 1 ? 'Acme Corp is a company you have stored.' : 'Sarah Chen is someone you know.');
const M1 = 'Tell me about Acme Corp and "Project Falcon"';
const M2 = 'What did Sarah Chen say about Acme Corp?';
const seeded = () => [ids.acme, ids.falcon, ids.sarah];

const storeAnswers = (from) => server.requests.slice(from).filter((r) => r.path === '/store').map((r) => r.response);

const sameIds = (a, b) => {
  for (const k of ['turnId', 'turnNumber', 'conversationEntityId', 'userMessageEntityId', 'assistantMessageEntityId']) {
    assert.equal(a[k], b[k], k);
  }
  assert.deepEqual([...a.retrievedEntityIds].sort(), [...b.retrievedEntityIds].sort());
  assert.deepEqual([...a.refersTo].sort(), [...b.refersTo].sort());
};

test('replaying a turn on the same agent writes nothing and returns the same ids', { timeout: 20_000 }, async () => {
  const cid = randomId('replay-same');
  const agent = httpAgent(server, cid);
  const r1 = await agent.turn(M1, llm, { turnId: 't1' });
  const r2 = await agent.turn(M2, llm, { turnId: 't2' });
  const before = await graphState(server, cid, seeded());
  assert.equal(before.turns.length, 4);

  const from = server.requests.length;
  const again = await agent.turn(M1, llm, { turnId: 't1' });
  sameIds(again, r1);
  assert.equal(again.turnNumber, 1, 'a replayed turnId keeps its turn number');
  assert.deepEqual(again.replayed, { user: true, assistant: true });
  const answers = storeAnswers(from);
  assert.equal(answers.length, 2);
  for (const a of answers) assert.equal(a.replayed, true);

  const again2 = await agent.turn(M2, llm, { turnId: 't2' });
  sameIds(again2, r2);
  assert.deepEqual(again2.replayed, { user: true, assistant: true });

  const afterState = await graphState(server, cid, seeded());
  assert.deepEqual(afterState, before);
});

test('a new agent replaying with the same turnId and turnNumber writes nothing and returns the same ids', { timeout: 20_000 }, async () => {
  const cid = randomId('replay-new');
  const first = httpAgent(server, cid);
  const r1 = await first.turn(M1, llm, { turnId: 't1', turnNumber: 1 });
  const r2 = await first.turn(M2, llm, { turnId: 't2', turnNumber: 2 });
  const before = await graphState(server, cid, seeded());

  const second = httpAgent(server, cid);
  const from = server.requests.length;
  const again1 = await second.turn(M1, llm, { turnId: 't1', turnNumber: 1 });
  const again2 = await second.turn(M2, llm, { turnId: 't2', turnNumber: 2 });
  sameIds(again1, r1);
  sameIds(again2, r2);
  assert.deepEqual(again1.replayed, { user: true, assistant: true });
  assert.deepEqual(again2.replayed, { user: true, assistant: true });
  const answers = storeAnswers(from);
  assert.equal(answers.length, 4);
  for (const a of answers) {
    assert.equal(a.replayed, true);
    assert.equal(a.entities_created, 0);
  }
  assert.deepEqual(await graphState(server, cid, seeded()), before);
});

test('recordTurn replays too', { timeout: 10_000 }, async () => {
  const cid = randomId('replay-record');
  const agent = httpAgent(server, cid);
  const a = await agent.recordTurn({ turnId: 'x', turnNumber: 1, userMessage: 'About Acme Corp', assistantMessage: 'Acme Corp: noted.' });
  const before = await graphState(server, cid, seeded());
  const b = await httpAgent(server, cid).recordTurn({ turnId: 'x', turnNumber: 1, userMessage: 'About Acme Corp', assistantMessage: 'Acme Corp: noted.' });
  sameIds(b, a);
  assert.deepEqual(b.replayed, { user: true, assistant: true });
  assert.deepEqual(await graphState(server, cid, seeded()), before);
});

test('re-using a turnId with different content is IDEMPOTENCY_MISMATCH and changes nothing', { timeout: 10_000 }, async () => {
  const cid = randomId('mismatch');
  const agent = httpAgent(server, cid);
  const r1 = await agent.turn('Tell me about Acme Corp', () => 'Acme Corp, noted.', { turnId: 't1' });
  const before = await graphState(server, cid, seeded());

  let called = false;
  await assert.rejects(
    agent.turn('Something else entirely about Sarah Chen', () => {
      called = true;
      return 'nope';
    }, { turnId: 't1' }),
    (err) => {
      assert.ok(err instanceof Error);
      assert.equal(err.code, 'IDEMPOTENCY_MISMATCH');
      assert.equal(err.status, 400);
      return true;
    },
  );
  assert.equal(called, false, 'the llm is not called when the user message cannot be stored');
  assert.deepEqual(await graphState(server, cid, seeded()), before);
  assert.equal((await entitySnapshot(server, r1.userMessageEntityId)).snapshot.content, 'Tell me about Acme Corp');

  // same user message but a different reply: the user side replays, the assistant side mismatches
  await assert.rejects(
    agent.turn('Tell me about Acme Corp', () => 'A different reply', { turnId: 't1' }),
    (err) => err.code === 'IDEMPOTENCY_MISMATCH',
  );
  assert.deepEqual(await graphState(server, cid, seeded()), before);
  const index = await turnIndex(server, cid);
  assert.equal(index.turns.find((t) => t.role === 'assistant').content_preview, 'Acme Corp, noted.');
});

test('a replay after a new entity appeared restores the REFERS_TO edge a replayed /store silently drops', { timeout: 10_000 }, async () => {
  const cid = randomId('repair');
  const msg = 'Tell me about Acme Corp and Zorblax Industries';
  const reply = 'Acme Corp and Zorblax Industries, noted.';
  const r1 = await httpAgent(server, cid).turn(msg, () => reply, { turnId: 't1', turnNumber: 1 });
  assert.deepEqual(r1.retrievedEntityIds, [ids.acme]);

  const [zorblax] = await seed(server, [{ entity_type: 'company', name: 'Zorblax Industries' }], 'seed-zorblax');
  const from = server.requests.length;
  const again = await httpAgent(server, cid).turn(msg, () => reply, { turnId: 't1', turnNumber: 1 });
  assert.deepEqual(again.replayed, { user: true, assistant: true });
  assert.equal(again.userMessageEntityId, r1.userMessageEntityId);
  assert.deepEqual([...again.retrievedEntityIds].sort(), [ids.acme, zorblax].sort());
  // the server answered replayed:true and skipped the new REFERS_TO; the agent re-created it
  assert.ok(server.requests.slice(from).some((r) => r.path === '/create_relationships'), 'edges repaired with /create_relationships');
  assert.deepEqual(await refersTo(server, r1.userMessageEntityId), [ids.acme, zorblax].sort());
  assert.deepEqual(await refersTo(server, r1.assistantMessageEntityId), [ids.acme, zorblax].sort());
  assert.equal((await turnIndex(server, cid)).turns.length, 2, 'still one turn');
});
