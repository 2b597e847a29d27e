// A conversation over real HTTP against the local Neotoma-shaped server: what gets stored, with
// which fields and edges, and how the turn-index reads it back.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import {
  startTestServer,
  seedStandard,
  turnIndex,
  related,
  refersTo,
  entitySnapshot,
  randomId,
  rowsByKey,
  httpAgent,
} from '../server/harness.mjs';

let server;
let ids; // { acme, falcon, sarah }

before(async () => {
  server = await startTestServer();
  ids = await seedStandard(server);
});

after(async () => {
  await server?.close();
});

const sorted = (xs) => [...xs].sort();

test('two turns: 4 messages with the right fields, PART_OF and REFERS_TO edges, turn-index', { timeout: 20_000 }, async () => {
  const cid = randomId('conv');
  const agent = httpAgent(server, cid);
  const m1 = 'Tell me about Acme Corp and "Project Falcon"';
  const m2 = 'What did Sarah Chen say about Acme Corp?';
  const seen = [];
  const llm = (msg, ctx) => {
    seen.push({ msg, ctx });
    if (ctx.turnNumber === 1) return 'Acme Corp is a company you have stored.';
    return 'Sarah Chen is someone you know.';
  };

  const r1 = await agent.turn(m1, llm);
  const r2 = await agent.turn(m2, llm);

  // --- what the turns returned ---
  assert.equal(r1.assistantMessage, 'Acme Corp is a company you have stored.');
  assert.equal(r2.assistantMessage, 'Sarah Chen is someone you know.');
  assert.equal(r1.turnNumber, 1);
  assert.equal(r2.turnNumber, 2);
  assert.equal(typeof r1.turnId, 'string');
  assert.ok(r1.turnId.length > 0);
  assert.notEqual(r1.turnId, r2.turnId);
  assert.equal(r1.conversationEntityId, r2.conversationEntityId);
  assert.deepEqual(r1.replayed, { user: false, assistant: false });
  assert.deepEqual(r2.replayed, { user: false, assistant: false });
  assert.deepEqual(sorted(r1.retrievedEntityIds), sorted([ids.acme, ids.falcon]));
  assert.deepEqual(sorted(r2.retrievedEntityIds), sorted([ids.sarah, ids.acme]));
  assert.deepEqual(r1.refersTo, [ids.acme]);
  assert.deepEqual(r2.refersTo, [ids.sarah]);
  assert.ok(Array.isArray(r1.storeWarnings));

  const acmeHit = r1.retrieved.find((e) => e.id === ids.acme);
  assert.ok(acmeHit, 'Acme Corp retrieved in turn 1');
  assert.equal(acmeHit.entity_type, 'company');
  assert.equal(acmeHit.identifier, 'Acme Corp');
  assert.equal(acmeHit.snapshot.name, 'Acme Corp');
  assert.ok('canonical_name' in acmeHit);
  const falconHit = r1.retrieved.find((e) => e.id === ids.falcon);
  assert.equal(falconHit.entity_type, 'project');
  assert.equal(falconHit.identifier, 'Project Falcon');
  for (const e of [...r1.retrieved, ...r2.retrieved]) {
    assert.ok(!['conversation', 'conversation_message'].includes(e.entity_type), `bookkeeping hit retrieved: ${JSON.stringify(e)}`);
  }

  // --- what the llm callback saw ---
  assert.equal(seen.length, 2);
  assert.equal(seen[0].msg, m1);
  assert.equal(seen[0].ctx.conversationId, cid);
  assert.equal(seen[0].ctx.turnId, r1.turnId);
  assert.equal(seen[0].ctx.turnNumber, 1);
  assert.deepEqual(sorted(seen[0].ctx.retrievedEntityIds), sorted([ids.acme, ids.falcon]));
  assert.deepEqual(sorted(seen[0].ctx.retrieved.map((e) => e.id)), sorted([ids.acme, ids.falcon]));
  assert.equal(seen[1].ctx.turnNumber, 2);

  // --- the turn-index: exactly 4 messages, numbered by turn ---
  const index = await turnIndex(server, cid);
  assert.equal(index.conversation_id, cid);
  assert.equal(index.conversation_entity_id, r1.conversationEntityId);
  assert.equal(index.turns.length, 4, JSON.stringify(index.turns, null, 1));
  const rows = rowsByKey(index);
  const k1 = `${cid}:${r1.turnId}`;
  const k2 = `${cid}:${r2.turnId}`;
  assert.deepEqual(sorted(Object.keys(rows)), sorted([k1, `${k1}:assistant`, k2, `${k2}:assistant`]));
  assert.equal(rows[k1].message_entity_id, r1.userMessageEntityId);
  assert.equal(rows[`${k1}:assistant`].message_entity_id, r1.assistantMessageEntityId);
  assert.equal(rows[k2].message_entity_id, r2.userMessageEntityId);
  assert.equal(rows[`${k2}:assistant`].message_entity_id, r2.assistantMessageEntityId);
  assert.equal(rows[k1].role, 'user');
  assert.equal(rows[`${k1}:assistant`].role, 'assistant');
  assert.equal(rows[k1].turn_number, 1);
  assert.equal(rows[`${k1}:assistant`].turn_number, 1);
  assert.equal(rows[k2].turn_number, 2);
  assert.equal(rows[`${k2}:assistant`].turn_number, 2);

  // cited entities are `stored`, only-named ones `retrieved`
  const idsOf = (xs) => sorted(xs.map((x) => x.entity_id));
  assert.deepEqual(idsOf(rows[k1].stored), [ids.acme]);
  assert.deepEqual(idsOf(rows[k1].retrieved), [ids.falcon]);
  assert.deepEqual(idsOf(rows[`${k1}:assistant`].stored), [ids.acme]);
  assert.deepEqual(idsOf(rows[`${k1}:assistant`].retrieved), []);
  assert.deepEqual(idsOf(rows[k2].stored), [ids.sarah]);
  assert.deepEqual(idsOf(rows[k2].retrieved), [ids.acme]);
  assert.deepEqual(idsOf(rows[`${k2}:assistant`].stored), [ids.sarah]);

  // --- message snapshots: exact fields ---
  const expect = [
    [r1.userMessageEntityId, { role: 'user', sender_kind: 'user', content: m1, turn_key: k1, turn_number: 1 }],
    [r1.assistantMessageEntityId, { role: 'assistant', sender_kind: 'assistant', content: r1.assistantMessage, turn_key: `${k1}:assistant`, turn_number: 1 }],
    [r2.userMessageEntityId, { role: 'user', sender_kind: 'user', content: m2, turn_key: k2, turn_number: 2 }],
    [r2.assistantMessageEntityId, { role: 'assistant', sender_kind: 'assistant', content: r2.assistantMessage, turn_key: `${k2}:assistant`, turn_number: 2 }],
  ];
  for (const [id, fields] of expect) {
    const snap = await entitySnapshot(server, id);
    assert.equal(snap.entity_type, 'conversation_message');
    for (const [k, v] of Object.entries(fields)) assert.deepEqual(snap.snapshot[k], v, `${id}.${k}`);
  }
  const conv = await entitySnapshot(server, r1.conversationEntityId);
  assert.equal(conv.entity_type, 'conversation');
  assert.equal(conv.snapshot.conversation_id, cid);

  // --- PART_OF: the conversation has exactly the 4 messages inbound ---
  const inbound = await related(server, r1.conversationEntityId, 'inbound');
  const partOf = inbound.relationships.filter((r) => r.relationship_type === 'PART_OF');
  assert.deepEqual(
    sorted(partOf.map((r) => r.source_entity_id)),
    sorted([r1.userMessageEntityId, r1.assistantMessageEntityId, r2.userMessageEntityId, r2.assistantMessageEntityId]),
  );
  for (const r of partOf) assert.equal(r.target_entity_id, r1.conversationEntityId);
  const messages = inbound.entities.filter((e) => e.entity_type === 'conversation_message');
  assert.equal(messages.length, 4);

  // --- REFERS_TO: user messages -> what they name, assistant messages -> what they cite ---
  assert.deepEqual(await refersTo(server, r1.userMessageEntityId), sorted([ids.acme, ids.falcon]));
  assert.deepEqual(await refersTo(server, r1.assistantMessageEntityId), [ids.acme]);
  assert.deepEqual(await refersTo(server, r2.userMessageEntityId), sorted([ids.sarah, ids.acme]));
  assert.deepEqual(await refersTo(server, r2.assistantMessageEntityId), [ids.sarah]);
});

test('the /store bodies on the wire have the protocol shape', { timeout: 10_000 }, async () => {
  const cid = randomId('wire');
  const agent = httpAgent(server, cid, { conversationTitle: 'Wire check', platform: 'node-test' });
  server.resetCounts();
  const msg = 'Tell me about Acme Corp';
  const r = await agent.turn(msg, () => 'Acme Corp, noted.', { turnId: 'turn-1' });
  const stores = server.requests.filter((x) => x.path === '/store');
  assert.equal(stores.length, 2);
  const [user, assistant] = stores.map((x) => x.body);

  assert.equal(user.idempotency_key, `conversation-${cid}-turn-1-user-turn`);
  assert.equal(assistant.idempotency_key, `conversation-${cid}-turn-1-assistant-turn`);
  for (const body of [user, assistant]) {
    assert.deepEqual(sorted(Object.keys(body)), ['entities', 'idempotency_key', 'relationships']);
    assert.equal(body.entities.length, 2);
    assert.equal(body.entities[0].entity_type, 'conversation');
    assert.equal(body.entities[0].conversation_id, cid);
    assert.equal(body.entities[0].title, 'Wire check');
    // the `platform` option goes where the conversation schema takes it
    assert.equal(body.entities[0].client_name, 'node-test');
    assert.equal(body.entities[0].platform, undefined);
    assert.equal(body.entities[1].entity_type, 'conversation_message');
    assert.deepEqual(body.relationships[0], { relationship_type: 'PART_OF', source_index: 1, target_index: 0 });
  }
  assert.deepEqual(
    { ...user.entities[1] },
    { entity_type: 'conversation_message', role: 'user', sender_kind: 'user', content: msg, turn_key: `${cid}:turn-1`, turn_number: 1 },
  );
  assert.equal(assistant.entities[1].role, 'assistant');
  assert.equal(assistant.entities[1].turn_key, `${cid}:turn-1:assistant`);
  assert.equal(assistant.entities[1].content, 'Acme Corp, noted.');
  assert.deepEqual(user.relationships.slice(1), [{ relationship_type: 'REFERS_TO', source_index: 1, target_entity_id: ids.acme }]);
  assert.deepEqual(assistant.relationships.slice(1), [{ relationship_type: 'REFERS_TO', source_index: 1, target_entity_id: ids.acme }]);
  assert.equal(r.turnId, 'turn-1');
  // every field the agent writes is one the schemas keep: no UNKNOWN_FIELD (a title at the
  // default priority is the real server's SOURCE_PRIORITY_ESCALATION advisory, transcript 01)
  assert.deepEqual(r.storeWarnings.map((w) => w.code).filter((c) => c !== 'SOURCE_PRIORITY_ESCALATION'), []);
  assert.ok(r.storeWarnings.length > 0, 'the advisory is passed on');
});

test('the reply may cite an entity by id, and the callback may add refersTo targets', { timeout: 10_000 }, async () => {
  const cid = randomId('cite');
  const agent = httpAgent(server, cid);
  const r = await agent.turn('Compare Acme Corp with "Project Falcon"', (msg, ctx) => ({
    text: `The project ${ctx.retrievedEntityIds.find((id) => id === ids.falcon)} is on track.`,
    refersTo: [ids.sarah],
  }));
  assert.deepEqual(sorted(r.refersTo), sorted([ids.falcon, ids.sarah]));
  assert.deepEqual(await refersTo(server, r.assistantMessageEntityId), sorted([ids.falcon, ids.sarah]));
  assert.deepEqual(await refersTo(server, r.userMessageEntityId), sorted([ids.acme, ids.falcon]));
});

test('a reply citing nothing refers to nothing; assistantRefersTo "retrieved" refers to everything retrieved', { timeout: 10_000 }, async () => {
  const cited = httpAgent(server, randomId('none'));
  const r1 = await cited.turn('How is Acme Corp doing?', () => 'I cannot say.');
  assert.deepEqual(r1.retrievedEntityIds, [ids.acme]);
  assert.deepEqual(r1.refersTo, []);
  assert.deepEqual(await refersTo(server, r1.assistantMessageEntityId), []);

  const all = httpAgent(server, randomId('all'), { assistantRefersTo: 'retrieved' });
  const r2 = await all.turn('How are Acme Corp and Sarah Chen doing?', () => 'I cannot say.');
  assert.deepEqual(sorted(r2.refersTo), sorted([ids.acme, ids.sarah]));
  assert.deepEqual(await refersTo(server, r2.assistantMessageEntityId), sorted([ids.acme, ids.sarah]));
});

test('an async llm callback and a callback returning a Promise<string> both work', { timeout: 10_000 }, async () => {
  const agent = httpAgent(server, randomId('async'));
  const a = await agent.turn('Hello there', async () => {
    await new Promise((r) => setTimeout(r, 20));
    return 'async reply';
  });
  assert.equal(a.assistantMessage, 'async reply');
  const b = await agent.turn('Hello again', () => Promise.resolve({ text: 'object reply' }));
  assert.equal(b.assistantMessage, 'object reply');
  assert.equal(b.turnNumber, 2);
});

test('openTurn / closeTurn and recordTurn store the same shapes as turn()', { timeout: 10_000 }, async () => {
  const cid = randomId('lifecycle');
  const agent = httpAgent(server, cid);
  server.resetCounts();
  const opened = await agent.openTurn({ turnId: 'a', userMessage: 'What about Sarah Chen?' });
  assert.deepEqual(opened.retrievedEntityIds, [ids.sarah]);
  assert.equal(opened.turnId, 'a');
  assert.equal(opened.turnNumber, 1);
  assert.ok(opened.userMessageEntityId);
  assert.equal(server.counts()['/store'], 1);
  const retrievals = server.counts()['/retrieve_entity_by_identifier'];

  const closed = await agent.closeTurn({ turnId: 'a', assistantMessage: 'Sarah Chen leads Project Falcon.', refersTo: [ids.falcon] });
  assert.ok(closed.assistantMessageEntityId);
  assert.deepEqual(sorted(closed.refersTo), sorted([ids.sarah, ids.falcon]));
  assert.equal(server.counts()['/store'], 2);
  assert.equal(server.counts()['/retrieve_entity_by_identifier'], retrievals, 'closeTurn retrieves nothing');

  const recorded = await agent.recordTurn({ turnId: 'b', userMessage: 'Thanks!', assistantMessage: 'You are welcome.' });
  assert.equal(recorded.turnNumber, 2);
  assert.ok(recorded.userMessageEntityId && recorded.assistantMessageEntityId);

  const index = await turnIndex(server, cid);
  const rows = rowsByKey(index);
  assert.equal(index.turns.length, 4);
  assert.equal(rows[`${cid}:a`].turn_number, 1);
  assert.equal(rows[`${cid}:a:assistant`].turn_number, 1);
  assert.equal(rows[`${cid}:b`].turn_number, 2);
  assert.equal(rows[`${cid}:b:assistant`].turn_number, 2);
  assert.equal(rows[`${cid}:b:assistant`].content_preview, 'You are welcome.');
  assert.deepEqual(await refersTo(server, closed.assistantMessageEntityId), sorted([ids.sarah, ids.falcon]));
});

test('content round-trips byte-exact (emoji, CRLF, BOM, U+2028, quotes)', { timeout: 10_000 }, async () => {
  const agent = httpAgent(server, randomId('bytes'));
  const msg = '\uFEFFHi 👋🏽 "Acme Corp"\r\nline\u2028two \\ end';
  const reply = 'Réponse ✓\r\nnext\ttab — “quoted” ∑';
  const r = await agent.turn(msg, () => reply);
  assert.equal((await entitySnapshot(server, r.userMessageEntityId)).snapshot.content, msg);
  assert.equal((await entitySnapshot(server, r.assistantMessageEntityId)).snapshot.content, reply);
});
