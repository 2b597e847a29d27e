// Replaying a turn (same turnId) writes nothing new and lands on the same entities: its reply is
// produced once, and a replay answers with the stored one without calling the LLM (`regenerate`
// asks for a new one, stored as the next revision). Re-using a turnId with a different user
// message is an IDEMPOTENCY_MISMATCH that changes nothing. Conversation hits do not crowd real
// entities out of retrieval.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { NeotomaAgent, idempotencyKey } from 'neotoma-agent-wasm';
import { startTestServer, seedStandard, seed, graphState, turnIndex, entitySnapshot, refersTo, retrieve, randomId, httpAgent, recordingStorage } from '../server/harness.mjs';

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
const replyLookups = (from) => server.requests.slice(from).filter((r) => r.path === '/retrieve_entity_by_identifier' && r.body.by === 'turn_key');

/** An LLM callback that never answers the same way twice (as real models do), counting its calls. */
function freshLlm() {
  const fn = (message, ctx) => {
    fn.calls += 1;
    const names = ctx.retrieved.map((e) => e.snapshot.name ?? e.canonical_name).join(', ');
    return `About ${names || 'that'}: answer #${Math.floor(Math.random() * 1e9)}-${fn.calls}.`;
  };
  fn.calls = 0;
  return fn;
}

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
  assert.equal(again.assistantMessage, r1.assistantMessage);
  const answers = storeAnswers(from);
  assert.equal(answers.length, 1, 'the user message is stored again (a replay); the reply is found, not stored');
  for (const a of answers) assert.equal(a.replayed, true);
  assert.equal(replyLookups(from).length, 1);

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
  assert.equal(answers.length, 2, 'one store per replayed turn: the user message');
  assert.equal(replyLookups(from).length, 2, 'one reply lookup per replayed turn');
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

  // same user message: a replay, answered with the stored reply; the LLM is not asked again
  called = false;
  const replay = await agent.turn('Tell me about Acme Corp', () => {
    called = true;
    return 'A different reply';
  }, { turnId: 't1' });
  assert.equal(called, false);
  assert.equal(replay.assistantMessage, 'Acme Corp, noted.');
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

// Both ways a turn reaches the embedded store: in-process (the package's EmbeddedStore as the
// transport; here the very store the local server serves, so it is read back the same way) and
// over HTTP.
const transports = {
  embedded: (cid, options = {}) => new NeotomaAgent({ conversationId: cid, transport: server.store, ...options }),
  http: (cid, options = {}) => httpAgent(server, cid, options),
};

for (const [name, agentOf] of Object.entries(transports)) {
  test(`${name}: a replay from a fresh agent answers with the stored reply; the LLM is not called and nothing changes`, { timeout: 20_000 }, async () => {
    // the conversation id contains the message's identifier, so the replay's lookups also
    // match the messages the first run stored (a substring match, transcript 10b)
    const cid = randomId(`acme-support-${name}`);
    const llm = freshLlm();
    const first = await agentOf(cid).turn('Tell me about Acme', llm, { turnId: 't1', turnNumber: 1 });
    assert.equal(llm.calls, 1);
    assert.deepEqual(first.retrievedEntityIds, [ids.acme]);
    const before = await graphState(server, cid, seeded());

    const again = await agentOf(cid).turn('Tell me about Acme', llm, { turnId: 't1', turnNumber: 1 });
    assert.equal(llm.calls, 1, 'the LLM is not called on a replay');
    assert.equal(again.assistantMessage, first.assistantMessage);
    sameIds(again, first);
    assert.deepEqual(again.replayed, { user: true, assistant: true });
    assert.deepEqual(again.pending, { user: false, assistant: false });
    assert.deepEqual(await graphState(server, cid, seeded()), before, 'the same messages and edges');
    for (const id of [first.userMessageEntityId, first.assistantMessageEntityId]) {
      assert.equal((await entitySnapshot(server, id)).observation_count, 1, 'one observation each');
      assert.deepEqual(await refersTo(server, id), [ids.acme]);
    }
  });

  test(`${name}: a first run whose reply store failed is answered once by the replay`, { timeout: 20_000 }, async () => {
    const cid = randomId(`acme-support-${name}`);
    const llm = freshLlm();
    const replyKey = idempotencyKey(cid, 't1', 'assistant');
    let failReplies = true;
    const injected = new Error('injected: the reply store failed');
    // the fault: on the first run the assistant message's store fails (HTTP: the server answers
    // 503; in-process: the transport throws); the user message is stored
    const options =
      name === 'http'
        ? { retry: false, outbox: false }
        : {
            outbox: false,
            transport: {
              store: (body) => {
                if (failReplies && body.idempotency_key === replyKey) throw injected;
                return server.store.store(body);
              },
              retrieveEntityByIdentifier: (body) => server.store.retrieveEntityByIdentifier(body),
              createRelationships: (body) => server.store.createRelationships(body),
            },
          };
    if (name === 'http') server.setFaults({ seed: 9, rules: [{ path: '/store', p: 1, kind: 'unavailable', match: (b) => b.idempotency_key === replyKey }] });
    try {
      // the store's own failure comes out: the server's 503, or the transport's throw unchanged
      const failure = name === 'http' ? (e) => e.code === 'NEOTOMA_HTTP' && e.status === 503 : (e) => e === injected;
      await assert.rejects(agentOf(cid, options).turn('Tell me about Acme', llm, { turnId: 't1', turnNumber: 1 }), failure);
    } finally {
      server.clearFaults();
      failReplies = false;
    }
    assert.equal(llm.calls, 1);
    assert.deepEqual((await turnIndex(server, cid)).turns.map((t) => t.role), ['user']);

    const again = await agentOf(cid).turn('Tell me about Acme', llm, { turnId: 't1', turnNumber: 1 });
    assert.equal(llm.calls, 2, 'the replay asks the LLM, once');
    assert.deepEqual(again.replayed, { user: true, assistant: false });
    const rows = (await turnIndex(server, cid)).turns;
    assert.deepEqual(rows.map((t) => t.role), ['user', 'assistant']);
    const reply = await entitySnapshot(server, again.assistantMessageEntityId);
    assert.equal(reply.snapshot.content, again.assistantMessage);
    assert.equal(reply.observation_count, 1);
  });

  test(`${name}: regenerate: true asks the LLM again and stores the next revision`, { timeout: 20_000 }, async () => {
    const cid = randomId(`acme-support-${name}`);
    const llm = freshLlm();
    const first = await agentOf(cid).turn('Tell me about Acme', llm, { turnId: 't1', turnNumber: 1 });
    const from = server.requests.length;
    const second = await agentOf(cid).turn('Tell me about Acme', llm, { turnId: 't1', turnNumber: 1, regenerate: true });
    assert.equal(llm.calls, 2);
    assert.notEqual(second.assistantMessage, first.assistantMessage);
    assert.equal(second.assistantMessageEntityId, first.assistantMessageEntityId, 'the same message entity');
    const reply = await entitySnapshot(server, first.assistantMessageEntityId);
    assert.equal(reply.snapshot.content, second.assistantMessage, 'the new text replaces the old');
    assert.equal(reply.observation_count, 2, 'a second revision: a second observation');
    if (name === 'http') {
      const keys = server.requests.slice(from).filter((r) => r.path === '/store').map((r) => r.body.idempotency_key);
      assert.deepEqual(keys, [idempotencyKey(cid, 't1', 'user'), `${idempotencyKey(cid, 't1', 'assistant')}-v2`]);
    }
    // without regenerate, the replay returns the newest revision
    const third = await agentOf(cid).turn('Tell me about Acme', llm, { turnId: 't1', turnNumber: 1 });
    assert.equal(llm.calls, 2);
    assert.equal(third.assistantMessage, second.assistantMessage);
  });

  test(`${name}: a person named in the conversation id is retrieved even when 100 of its messages match too`, { timeout: 30_000 }, async () => {
    // "Thaddeus" occurs in the conversation id: every one of its messages matches the lookup,
    // and `conversation…` sorts before `person:…`, so a small limit holds only messages
    const cid = randomId(`thaddeus-${name}`);
    const [thaddeus] = await seed(server, [{ entity_type: 'person', name: 'Thaddeus' }], 'seed-thaddeus');
    const history = [{ entity_type: 'conversation', conversation_id: cid, title: `Conversation ${cid}` }];
    for (let i = 0; i < 100; i++) {
      history.push({ entity_type: 'conversation_message', role: i % 2 ? 'assistant' : 'user', sender_kind: i % 2 ? 'assistant' : 'user', content: `earlier message ${i}`, turn_key: `${cid}:old-${i}` });
    }
    await seed(server, history, randomId('history')); // one write, as a bulk import would be
    const plain = await retrieve(server, { identifier: 'Thaddeus', limit: 5 });
    assert.ok(!plain.entities.some((e) => e.entity_type === 'person'), 'a plain lookup is crowded out');

    const llm = freshLlm();
    const agent = agentOf(cid);
    const first = await agent.turn('Tell me about Thaddeus', llm, { turnId: 't1', turnNumber: 1 });
    assert.deepEqual(first.retrievedEntityIds, [thaddeus]);
    const replay = await agentOf(cid).turn('Tell me about Thaddeus', llm, { turnId: 't1', turnNumber: 1 });
    assert.deepEqual(replay.retrievedEntityIds, [thaddeus], 'found on the replay');
    const next = await agent.turn('What else about Thaddeus?', llm, { turnId: 't2' });
    assert.deepEqual(next.retrievedEntityIds, [thaddeus], 'and on a new turn');
  });
}

test('turnStream: a replay streams the stored reply in one chunk', { timeout: 20_000 }, async () => {
  const cid = randomId('acme-support-stream');
  const llm = freshLlm();
  const first = await httpAgent(server, cid).turn('Tell me about Acme', llm, { turnId: 't1', turnNumber: 1 });
  const { textStream, done } = httpAgent(server, cid).turnStream('Tell me about Acme', llm, { turnId: 't1', turnNumber: 1 });
  const chunks = [];
  for await (const chunk of textStream) chunks.push(chunk);
  const result = await done;
  assert.deepEqual(chunks, [first.assistantMessage]);
  assert.equal(llm.calls, 1);
  assert.equal(result.assistantMessage, first.assistantMessage);
  assert.deepEqual(result.replayed, { user: true, assistant: true });
});

test('a queued reply another instance superseded leaves the outbox as writeSuperseded, never retried or lost silently', { timeout: 20_000 }, async () => {
  const cid = randomId('acme-support-superseded');
  const llm = freshLlm();
  const events = [];
  const storage = recordingStorage();
  const replyKey = idempotencyKey(cid, 't1', 'assistant');
  const a = httpAgent(server, cid, { outbox: storage, retry: false, onEvent: (e) => events.push(e) });
  server.setFaults({ seed: 10, rules: [{ path: '/store', p: 1, kind: 'unavailable', match: (b) => b.idempotency_key === replyKey }] });
  let queued;
  try {
    queued = await a.turn('Tell me about Acme', llm, { turnId: 't1', turnNumber: 1 });
  } finally {
    server.clearFaults();
  }
  assert.deepEqual(queued.pending, { user: false, assistant: true });
  // another instance, with its own outbox, replays the turn: no reply is stored yet, so it asks
  // its LLM and stores that reply
  const other = await httpAgent(server, cid, { outbox: recordingStorage() }).turn('Tell me about Acme', llm, { turnId: 't1', turnNumber: 1 });
  assert.equal(llm.calls, 2);
  const flushed = await a.flush();
  assert.equal(flushed.flushed, 0);
  assert.equal(flushed.pending, 0);
  assert.deepEqual(flushed.failed, []);
  assert.deepEqual(flushed.superseded.map((w) => [w.idempotencyKey, w.role, w.code]), [[replyKey, 'assistant', 'IDEMPOTENCY_MISMATCH']]);
  assert.deepEqual(await a.pendingWrites(), []);
  assert.equal(storage.map.size, 0);
  const superseded = events.filter((e) => e.type === 'writeSuperseded');
  assert.deepEqual(superseded.map((e) => e.idempotencyKey), [replyKey]);
  assert.equal((await entitySnapshot(server, other.assistantMessageEntityId)).snapshot.content, other.assistantMessage, 'the stored reply stands');
  assert.deepEqual(await a.flush(), { flushed: 0, pending: 0, failed: [], superseded: [] }, 'not retried');
});
