// verifyTurn / repairTurn read a turn back from the store (messages by turn key, their text and
// turn number, their edges) instead of trusting what the agent thinks happened; repairs are
// idempotent. On the embedded store and over real HTTP with faults between the two stores.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { NeotomaAgent, EmbeddedStore } from 'neotoma-agent-wasm';
import { startTestServer, seedStandard, randomId, httpAgent, refersTo, rejectionOf } from '../server/harness.mjs';

let server;
let ids;

before(async () => {
  server = await startTestServer();
  ids = await seedStandard(server);
});

after(async () => {
  await server?.close();
});

const MESSAGE = 'Tell me about Acme Corp';
const REPLY = 'Acme Corp is a customer.';
const problems = (diagnoses) => diagnoses.filter((d) => d.severity !== 'ok').map((d) => `${d.id}:${d.severity}`);

test('embedded: a whole turn verifies clean; a turn never closed is found and repaired with its reply', { timeout: 20_000 }, async () => {
  const store = new EmbeddedStore();
  await store.store({ entities: [{ entity_type: 'company', name: 'Acme Corp' }], idempotency_key: 'seed-acme' });
  const agent = new NeotomaAgent({ conversationId: randomId('verify'), transport: store });
  await agent.turn(MESSAGE, () => REPLY, { turnId: 't1' });
  const clean = await agent.verifyTurn('t1');
  assert.deepEqual(problems(clean), []);
  for (const d of clean) {
    assert.deepEqual(Object.keys(d).sort(), ['id', 'message', 'severity']);
  }
  assert.ok(clean.some((d) => d.id === 'assistant_message.refers_to'));

  await agent.openTurn({ turnId: 't2', userMessage: 'And Project Falcon?' });
  const open = await agent.verifyTurn({ turnId: 't2' });
  assert.deepEqual(problems(open), ['assistant_message.stored:error']);
  assert.equal(open.find((d) => d.id === 'assistant_message.stored').suggestedRepair, 'store the assistant_message again under its original key');

  const skipped = await agent.repairTurn('t2');
  assert.deepEqual(skipped.repairs.map((r) => r.action), ['skipped']);
  const repaired = await agent.repairTurn({ turnId: 't2', reply: 'Falcon is on track.' });
  assert.deepEqual(repaired.repairs.map((r) => [r.id, r.action]), [['assistant_message.stored', 'stored_message']]);
  assert.deepEqual(problems(repaired.diagnoses), []);
  assert.deepEqual((await agent.repairTurn({ turnId: 't2', reply: 'Falcon is on track.' })).repairs, []);
});

test('http: a reply store that failed between the two stores is a warning; repairTurn flushes it and the turn is whole', { timeout: 20_000 }, async () => {
  const cid = randomId('verify-http');
  const agent = httpAgent(server, cid, { retry: false });
  const opened = await agent.openTurn({ turnId: 't1', userMessage: MESSAGE });
  server.failNext('/store', 503);
  const closed = await agent.closeTurn({ turnId: opened.turnId, assistantMessage: REPLY });
  assert.equal(closed.pending, true);

  const diagnoses = await agent.verifyTurn('t1');
  assert.deepEqual(problems(diagnoses), ['assistant_message.stored:warn', 'outbox.pending:warn']);
  const repaired = await agent.repairTurn('t1');
  assert.deepEqual(repaired.repairs.map((r) => r.action), ['flushed']);
  assert.deepEqual(problems(repaired.diagnoses), []);
  // the reply refers to what it cites, once
  const reply = repaired.diagnoses.find((d) => d.id === 'assistant_message.refers_to');
  assert.equal(reply.severity, 'ok');
  const index = await (await fetch(`${server.url}/conversations/${cid}/turn-index`, { headers: { authorization: `Bearer ${server.token}` } })).json();
  const row = index.turns.find((t) => t.turn_key === `${cid}:t1:assistant`);
  assert.deepEqual(await refersTo(server, row.message_entity_id), [ids.acme]);
  assert.deepEqual((await agent.repairTurn('t1')).repairs, []);
});

test('http: a turn another client stored without edges is diagnosed from the store, and its edges re-created once', { timeout: 20_000 }, async () => {
  // both messages stored as the protocol would, but with no relationships at all
  const cid = randomId('verify-raw');
  for (const [i, [role, key, content]] of [['user', `${cid}:t1`, MESSAGE], ['assistant', `${cid}:t1:assistant`, REPLY]].entries()) {
    const body = {
      entities: [{ entity_type: 'conversation', conversation_id: cid }, { entity_type: 'conversation_message', role, sender_kind: role, content, turn_key: key, turn_number: 1 }],
      idempotency_key: `raw-${cid}-${i}`,
    };
    const r = await fetch(`${server.url}/store`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(r.status, 200);
  }
  const agent = httpAgent(server, cid);
  const given = { turnId: 't1', userMessage: MESSAGE, reply: REPLY };
  assert.deepEqual(problems(await agent.verifyTurn(given)), ['user_message.part_of:error', 'assistant_message.part_of:error']);
  const repaired = await agent.repairTurn(given);
  assert.deepEqual(repaired.repairs.map((r) => [r.id, r.action]), [['user_message.edges', 'created_relationships'], ['assistant_message.edges', 'created_relationships']]);
  assert.deepEqual(problems(repaired.diagnoses), []);
  assert.deepEqual((await agent.repairTurn(given)).repairs, []);
  // a text that differs is an error no repair can make right
  const wrong = await agent.verifyTurn({ ...given, reply: 'Acme Corp is a supplier.' });
  assert.deepEqual(problems(wrong), ['assistant_message.content:error']);
});

test('verifyTurn refuses bad input with INVALID_INPUT', { timeout: 10_000 }, async () => {
  const agent = new NeotomaAgent({ conversationId: randomId('verify-bad') });
  for (const [arg, message] of [
    [undefined, /verifyTurn input must be an object/],
    [{}, /turnId is required/],
    [{ turnId: 't1', replies: 'x' }, /unknown option "replies"/],
    ['a:b', /turnId must not contain ':'/],
  ]) {
    const e = await rejectionOf(agent.verifyTurn(arg));
    assert.equal(e.code, 'INVALID_INPUT', String(e));
    assert.match(e.message, message);
  }
});
