// Entities a reply produces: stored in the assistant message's one /store, referred to by it,
// resolved by the store (created, then matched), found by the next turn's retrieval; on the
// embedded store and over real HTTP to the local Neotoma-shaped server. Bad entities are refused
// before the reply is written; a callback's own errors come back unchanged.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { NeotomaAgent, EmbeddedStore } from 'neotoma-agent-wasm';
import { startTestServer, turnIndex, retrieve, randomId, httpAgent, rejectionOf } from '../server/harness.mjs';

let server;

before(async () => {
  server = await startTestServer();
});

after(async () => {
  await server?.close();
});

const TOLD = 'My colleague Dana Whitfield at Orbital Labs is leading Project Kestrel';
const ASKED = 'What do you know about Dana Whitfield?';
const PRODUCED = [
  { entity_type: 'person', name: 'Dana Whitfield', organization: 'Orbital Labs', role: 'lead' },
  { entity_type: 'company', name: 'Orbital Labs' },
  { entity_type: 'project', name: 'Project Kestrel', status: 'active', owner: 'Dana Whitfield' },
];

/** The two places an agent can store: an EmbeddedStore (inspected through handle) and HTTP. */
const stores = {
  embedded: () => {
    const store = new EmbeddedStore();
    // the store itself as the transport, with its /store bodies counted
    const stored = [];
    const transport = {
      store: (body) => (stored.push(body), store.store(body)),
      retrieveEntityByIdentifier: (body) => store.retrieveEntityByIdentifier(body),
      createRelationships: (body) => store.createRelationships(body),
      retrieveRelatedEntities: (body) => store.retrieveRelatedEntities(body),
    };
    return {
      agent: (cid, options = {}) => new NeotomaAgent({ conversationId: cid, transport, ...options }),
      turnIndex: async (cid) => store.handle('GET', `/conversations/${encodeURIComponent(cid)}/turn-index`).body,
      retrieve: async (body) => store.handle('POST', '/retrieve_entity_by_identifier', body).body,
      stores: () => stored,
    };
  },
  http: () => ({
    agent: (cid, options = {}) => httpAgent(server, cid, options),
    turnIndex: (cid) => turnIndex(server, cid),
    retrieve: (body) => retrieve(server, body),
    stores: () => server.requests.filter((r) => r.path === '/store').map((r) => r.body),
  }),
};

for (const [where, make] of Object.entries(stores)) {
  test(`${where}: a person, a company and a project told in one turn are found the next`, { timeout: 20_000 }, async () => {
    const s = make();
    const cid = randomId('produced');
    const agent = s.agent(cid);
    const stores0 = s.stores().length;
    const first = await agent.turn(TOLD, () => ({ text: "I'll remember Dana, Orbital Labs and Project Kestrel.", entities: PRODUCED }), { turnId: 't1' });
    assert.equal(s.stores().length - stores0, 2, 'one store per message');

    assert.deepEqual(first.produced.map((p) => [p.entity_type, p.action]), [['person', 'created'], ['company', 'created'], ['project', 'created']]);
    assert.equal(first.produced[0].canonical_name, 'person:Dana Whitfield');
    for (const p of first.produced) assert.match(p.id, /^ent_/);

    // the turn-index shows the first assistant message referring to all three
    const index = await s.turnIndex(cid);
    const row = index.turns.find((t) => t.message_entity_id === first.assistantMessageEntityId);
    assert.ok(row, 'a turn-index row for the reply');
    const stored = row.stored.map((x) => (typeof x === 'string' ? x : x.entity_id ?? x.id));
    for (const p of first.produced) assert.ok(stored.includes(p.id), `${p.entity_type} ${p.id} in ${JSON.stringify(row.stored)}`);

    // the next turn retrieves the person with the fields produced, and hands it to the model
    let seen;
    let memory;
    const second = await agent.turn(ASKED, (m, ctx) => {
      seen = ctx.retrieved;
      memory = ctx.memory;
      const dana = ctx.retrieved.find((e) => e.entity_type === 'person');
      return `${dana.snapshot.name}: person, at ${dana.snapshot.organization}.`;
    }, { turnId: 't2' });
    const dana = second.retrieved.find((e) => e.entity_type === 'person');
    assert.ok(dana, `the person is retrieved: ${JSON.stringify(second.retrieved)}`);
    assert.equal(dana.id, first.produced[0].id);
    assert.equal(dana.snapshot.organization, 'Orbital Labs');
    assert.equal(seen.find((e) => e.entity_type === 'person').id, dana.id);
    assert.equal(second.assistantMessage, 'Dana Whitfield: person, at Orbital Labs.');
    // ctx.memory: the same entity as one line for a system prompt
    assert.match(memory, /^Remembered entities \(Neotoma\):\n/);
    assert.ok(memory.includes(`- person "Dana Whitfield" (${dana.id}): organization: Orbital Labs; role: lead`), memory);
    assert.deepEqual(second.produced, []);

    // named again by another turn: matched, not duplicated
    const third = await agent.turn('Dana again', () => ({ text: 'Yes.', entities: [{ entity_type: 'person', name: 'dana whitfield' }] }), { turnId: 't3' });
    assert.equal(third.produced[0].id, first.produced[0].id);
    assert.equal(third.produced[0].action, 'matched_existing');
    const people = await s.retrieve({ identifier: 'Dana Whitfield', entity_type: 'person' });
    assert.equal(people.entities.length, 1);
  });
}

test('a streamed reply takes its entities from a function of the whole text, after the stream', { timeout: 20_000 }, async () => {
  const cid = randomId('produced-stream');
  const agent = httpAgent(server, cid);
  const chunks = ['Noted: ', 'Lee Park', ' runs ', 'Project Heron.\n', '```json\n{"entities":[{"entity_type":"person","name":"Lee Park"},{"entity_type":"project","name":"Project Heron","status":"planned"}]}\n```'];
  let textSeen;
  const turn = agent.turnStream('Lee Park runs Project Heron', () => ({
    stream: (async function* () { for (const c of chunks) yield c; })(),
    entities: async (text) => {
      textSeen = text;
      return JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)).entities;
    },
  }), { turnId: 't1' });
  let streamed = '';
  for await (const piece of turn.textStream) streamed += piece;
  const result = await turn.done;
  assert.equal(streamed, chunks.join(''));
  assert.equal(textSeen, chunks.join(''));
  assert.equal(result.assistantMessage, chunks.join(''));
  assert.deepEqual(result.produced.map((p) => p.canonical_name), ['person:Lee Park', 'project:Project Heron']);

  // a promise works too, and so does a plain array with a stream
  const r2 = await agent.turn('x', () => ({ text: 'ok', entities: Promise.resolve([{ entity_type: 'note', content: 'remember the milk' }]) }), { turnId: 't2' });
  assert.equal(r2.produced.length, 1);
  assert.equal(r2.produced[0].entity_type, 'note');
});

test('closeTurn and recordTurn take entities; a replay with the same entities writes nothing, other entities mismatch', { timeout: 20_000 }, async () => {
  const cid = randomId('produced-close');
  const agent = httpAgent(server, cid);
  const opened = await agent.openTurn({ turnId: 't1', userMessage: TOLD });
  const first = await agent.closeTurn({ turnId: opened.turnId, assistantMessage: 'Noted.', entities: PRODUCED });
  const from = server.requests.length;
  const again = await agent.closeTurn({ turnId: opened.turnId, assistantMessage: 'Noted.', entities: PRODUCED });
  assert.equal(again.replayed, true);
  assert.deepEqual(again.produced.map((p) => p.id), first.produced.map((p) => p.id));
  assert.ok(server.requests.slice(from).every((r) => r.path !== '/store' || r.response.replayed === true));

  const e = await rejectionOf(agent.closeTurn({ turnId: opened.turnId, assistantMessage: 'Noted.', entities: [{ entity_type: 'person', name: 'Someone Else' }] }));
  assert.equal(e.code, 'IDEMPOTENCY_MISMATCH');

  const recorded = await agent.recordTurn({ turnId: 't2', userMessage: 'I met Ana Ruiz', assistantMessage: 'Noted.', entities: [{ entity_type: 'person', name: 'Ana Ruiz' }] });
  assert.equal(recorded.produced[0].canonical_name, 'person:Ana Ruiz');
});

test('bad entities are refused with INVALID_INPUT naming the index and field, before the reply is written', { timeout: 20_000 }, async () => {
  const cid = randomId('produced-bad');
  const agent = httpAgent(server, cid, { maxProducedEntities: 2 });
  const cases = [
    [[{ name: 'No Type' }], /^entities\[0\]\.entity_type is required/],
    [[{ entity_type: 'person', name: 'A' }, { entity_type: 'Person' }], /^entities\[1\]\.entity_type must be snake_case/],
    [[{ entity_type: 'conversation', conversation_id: cid }], /^entities\[0\]\.entity_type may not be "conversation"/],
    [[{ entity_type: 'note', content: 'x', turn_key: `${cid}:t9` }], /^entities\[0\]\.turn_key is a field of the turn protocol/],
    [[{ entity_type: 'task' }, { entity_type: 'task' }, { entity_type: 'task' }], /the limit is 2 \(option maxProducedEntities\)/],
    [[{ entity_type: 'event', title: 'x', start_time: new Date() }], /llm reply entities\[0\]\.start_time is not a JSON value/],
    [[{ entity_type: 'event', title: 'x', score: NaN }], /llm reply entities\[0\]\.score is NaN or Infinity/],
    ['person', /llm reply entities must be an array/],
    [['person'], /llm reply entities\[0\] must be an object/],
  ];
  for (const [i, [entities, message]] of cases.entries()) {
    const before = server.requests.filter((r) => r.path === '/store').length;
    const e = await rejectionOf(agent.turn(TOLD, () => ({ text: 'ok', entities }), { turnId: `b${i}` }));
    assert.equal(e.code, 'INVALID_INPUT', `${i}: ${e.message}`);
    assert.match(e.message, message);
    const sent = server.requests.filter((r) => r.path === '/store').slice(before);
    assert.deepEqual(sent.map((r) => r.body.entities[1].role), ['user'], `${i}: only the user message was stored`);
  }
  // closeTurn refuses before sending anything
  const before = server.requests.length;
  const e = await rejectionOf(agent.closeTurn({ turnId: 'b0', assistantMessage: 'x', entities: [{ entity_type: 'conversation_message' }] }));
  assert.equal(e.code, 'INVALID_INPUT');
  assert.equal(server.requests.length, before);

  // what the entities function throws comes back unchanged
  const boom = new TypeError('the model returned no JSON block');
  const thrown = await rejectionOf(agent.turn(TOLD, () => ({ text: 'ok', entities: () => { throw boom; } }), { turnId: 'b-throw' }));
  assert.equal(thrown, boom);
});

test('ctx.memory is bounded by memoryChars, cutting whole entities', { timeout: 20_000 }, async () => {
  const store = new EmbeddedStore();
  const names = ['Ada Quist', 'Bo Rinne', 'Cy Tamm'];
  const seedAgent = new NeotomaAgent({ conversationId: randomId('memory-seed'), transport: store });
  await seedAgent.turn('seed', () => ({ text: 'ok', entities: names.map((name) => ({ entity_type: 'person', name, role: 'engineer at a company with a long name'.repeat(2) })) }));
  const memories = [];
  for (const memoryChars of [2000, 200, 10]) {
    const agent = new NeotomaAgent({ conversationId: randomId('memory'), transport: store, memoryChars });
    await agent.turn(`What about ${names.join(', ')}?`, (m, ctx) => {
      memories.push([memoryChars, ctx.memory, ctx.retrieved.length]);
      return 'ok';
    });
  }
  const [[, full, n], [, bounded], [, none]] = memories;
  assert.equal(n, 3);
  assert.equal(full.split('\n').length, 4);
  assert.ok(bounded.length <= 200 && bounded.length > 0, bounded);
  const lines = bounded.split('\n');
  assert.ok(full.startsWith(lines.slice(0, -1).join('\n')), 'whole lines of the full block');
  assert.match(lines.at(-1), /^\(and \d more not shown\)$/);
  assert.equal(none, '');
});

for (const [where, make] of Object.entries(stores)) {
  test(`${where}: remember() looks up first, stores the rest in one request, and writes once when called twice`, { timeout: 20_000 }, async () => {
    const s = make();
    const cid = randomId('remember');
    const agent = s.agent(cid);
    // names of this run only: the HTTP server is shared by every test of the file
    const tag = cid.slice(-6).replace(/\d/g, (d) => 'abcdefghij'[d]);
    const person = `Dana Whitfield ${tag}`;
    const company = `Orbital Labs ${tag}`;
    await agent.turn(TOLD, () => ({ text: 'Noted.', entities: [{ entity_type: 'person', name: person }] }), { turnId: 't1' });
    const stores0 = s.stores().length;

    // one entity in, one result out
    const one = await agent.remember({ entity_type: 'person', name: person });
    assert.equal(one.action, 'matched_existing');
    assert.match(one.id, /^ent_/);
    assert.equal(s.stores().length, stores0, 'found: nothing stored');

    // an array in, an array out, in order
    const many = await agent.remember([
      { entity_type: 'company', name: company, industry: 'aerospace' },
      { entity_type: 'person', name: person.toLowerCase() },
      { entity_type: 'task', title: 'Send Dana the Kestrel budget', status: 'open' },
    ]);
    assert.deepEqual(many.map((r) => [r.entity_type, r.action]), [['company', 'created'], ['person', 'matched_existing'], ['task', 'created']]);
    assert.equal(many[1].id, one.id);
    {
      assert.equal(s.stores().length, stores0 + 1, 'one store for the two not found');
      const body = s.stores().at(-1);
      assert.deepEqual(body.entities.map((e) => e.entity_type), ['company', 'task']);
      assert.match(body.idempotency_key, new RegExp(`^remember-${cid}-[0-9a-f]{16}$`));
    }
    const again = await agent.remember([{ entity_type: 'company', name: company, industry: 'aerospace' }]);
    assert.equal(again[0].id, many[0].id);
    assert.equal(again[0].action, 'matched_existing');
    assert.equal(s.stores().length, stores0 + 1, 'twice writes once');

    // the next turn finds what was remembered
    const next = await agent.turn(`What is ${company}?`, () => 'A company.', { turnId: 't2' });
    assert.ok(next.retrieved.some((e) => e.id === many[0].id));

    const e = await rejectionOf(agent.remember([{ entity_type: 'conversation', conversation_id: cid }]));
    assert.equal(e.code, 'INVALID_INPUT');
    assert.match(e.message, /entities\[0\]\.entity_type may not be "conversation"/);
  });
}

test('remember() whose store the server cannot take now waits in the outbox and lands on flush', { timeout: 20_000 }, async () => {
  const cid = randomId('remember-outbox');
  const agent = httpAgent(server, cid, { retry: false });
  server.failNext('/store', 503);
  const content = `pending note ${cid}`;
  const [kept] = await agent.remember([{ entity_type: 'note', content }]);
  assert.deepEqual([kept.action, kept.id, kept.entity_type], ['pending', null, 'note']);
  const waiting = await agent.pendingWrites();
  assert.equal(waiting.length, 1);
  assert.equal(waiting[0].role, 'remember');
  assert.match(waiting[0].idempotencyKey, /^remember-/);
  const flushed = await agent.flush();
  assert.equal(flushed.flushed, 1);
  assert.deepEqual(await agent.pendingWrites(), []);
  // the same content again: the key is the same, so the store replays onto the flushed note
  const [again] = await agent.remember([{ entity_type: 'note', content }]);
  assert.equal(again.action, 'matched_existing');
});
