// neotoma-agent-wasm/ai-sdk: the real AI SDK (`ai` 7, `@ai-sdk/openai-compatible` 3 from npm)
// over real HTTP on 127.0.0.1: the provider talks to the local OpenAI-format server the edge
// Worker tests use (tests/packaging/edge/openai-sse-server.mjs), the agent to the local
// Neotoma-shaped server (tests/server/). In Node (generateText, streamText, the README route), in
// workerd (the README route as a Worker bundled with rolldown, run by Miniflare 3), in headless
// Chromium (a page bundled with rolldown, on the embedded store), and from the `npm pack` tarball
// installed into tests/packaging/ai-sdk/ (offline, beside the repo's pinned ai).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { APICallError, generateText, jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Miniflare } from 'miniflare';
import { rolldown } from 'rolldown';
import { NeotomaAgent } from 'neotoma-agent-wasm';
import { neotomaMiddleware, neotomaTools } from 'neotoma-agent-wasm/ai-sdk';

import { entitySnapshot, randomId, refersTo, rowsByKey, seed, startTestServer, turnIndex } from '../server/harness.mjs';
import { startOpenAIServer } from '../packaging/edge/openai-sse-server.mjs';
import { describeRun, makeWorkspace, packTarball, PKG_DIR, REPO_DIR, relativeImports, run, childEnv } from '../packaging/helpers.mjs';
import { chatRoute } from '../packaging/ai-sdk/route.mjs';
import { launchChromium, startStaticServer } from '../server/static-server.mjs';

const FIXTURE_DIR = path.join(REPO_DIR, 'tests', 'packaging', 'ai-sdk');
const DEFAULT_TEMPLATE_TAIL = "\nUse what is relevant to the user's message; do not assume more than it says.";
const TURN_ID_RE = /^turn-(\d+)-[0-9a-f]{16}$/;

let server;
let openai;
let acme;

before(async () => {
  server = await startTestServer();
  openai = await startOpenAIServer();
  [acme] = await seed(server, [{ entity_type: 'company', name: 'Acme Corp' }], 'seed-ai-sdk-acme');
});

after(async () => {
  await openai?.close();
  await server?.close();
});

const llm = () => createOpenAICompatible({ name: 'local', baseURL: openai.url, apiKey: 'test-llm-key' }).chatModel('test-model');
const transport = () => ({ baseUrl: server.url, token: server.token, timeoutMs: 5000 });
const wrapped = (options, inner = llm()) => wrapLanguageModel({ model: inner, middleware: neotomaMiddleware({ transport: transport(), ...options }) });

/** `{ waitUntil, settled() }`: collects what the middleware hands to waitUntil. */
function waitUntilCollector() {
  const promises = [];
  return { waitUntil: (p) => promises.push(p), settled: () => Promise.all(promises), count: () => promises.length };
}

/** The conversation's turn-index rows by turn key (none when the conversation was never stored). */
async function rows(cid) {
  try {
    return rowsByKey(await turnIndex(server, cid));
  } catch (err) {
    if (String(err.message).includes('-> 404')) return {};
    throw err;
  }
}

/** A stored message: its content and how many observations it has. */
async function stored(row) {
  const snap = await entitySnapshot(server, row.message_entity_id);
  return { content: snap.snapshot.content, role: snap.snapshot.role, turnNumber: snap.snapshot.turn_number, observations: snap.observation_count };
}

const storeCount = () => server.counts()['/store'] ?? 0;
const systemOf = (request) => request.body.messages.filter((m) => m.role === 'system').map((m) => m.content);

async function readAll(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

function toolCall(id, name, args) {
  return { tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] };
}

test('generateText: the last user message opens the turn, ctx.memory joins the system prompt, the reply is stored as returned', async () => {
  const cid = randomId('ai-gen');
  const turns = [];
  openai.planReply(['Acme Corp ', 'is a customer.']);
  const before = openai.requests.length;
  const result = await generateText({
    model: wrapped({ conversationId: cid, onTurn: (r) => turns.push(r) }),
    system: 'Be brief.',
    messages: [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi! How can I help?' },
      { role: 'user', content: 'Tell me about Acme Corp' },
    ],
  });
  assert.equal(result.text, 'Acme Corp is a customer.');
  const meta = result.providerMetadata.neotoma;
  assert.match(meta.turnId, TURN_ID_RE);
  assert.deepEqual(meta, { conversationId: cid, turnId: meta.turnId, turnNumber: 2, retrievedEntityIds: [acme] });

  // what the model was sent: the memory after the app's system prompt, the messages unchanged
  assert.equal(openai.requests.length, before + 1);
  const sent = openai.requests.at(-1).body;
  const [system] = systemOf(openai.requests.at(-1));
  assert.ok(system.startsWith('Be brief.\n\nRemembered entities (Neotoma):\n'), system);
  assert.ok(system.includes(`company "Acme Corp" (${acme})`), system);
  assert.ok(system.endsWith(DEFAULT_TEMPLATE_TAIL), system);
  assert.deepEqual(sent.messages.slice(1), [
    { role: 'user', content: 'Hello' },
    { role: 'assistant', content: 'Hi! How can I help?' },
    { role: 'user', content: 'Tell me about Acme Corp' },
  ]);

  // stored: this turn's two messages only (the earlier turn is the client's history, not re-stored)
  const byKey = await rows(cid);
  const userKey = `${cid}:${meta.turnId}`;
  assert.deepEqual(Object.keys(byKey).sort(), [userKey, `${userKey}:assistant`]);
  assert.deepEqual(await stored(byKey[userKey]), { content: 'Tell me about Acme Corp', role: 'user', turnNumber: 2, observations: 1 });
  assert.deepEqual(await stored(byKey[`${userKey}:assistant`]), { content: 'Acme Corp is a customer.', role: 'assistant', turnNumber: 2, observations: 1 });
  assert.deepEqual(await refersTo(server, byKey[`${userKey}:assistant`].message_entity_id), [acme]);
  assert.equal(turns.length, 1);
  assert.equal(turns[0].assistantMessage, 'Acme Corp is a customer.');
  assert.equal(turns[0].assistantMessageEntityId, byKey[`${userKey}:assistant`].message_entity_id);
});

test('streamText read to the end: the stored reply is exactly the text streamed (multi-byte characters split across writes)', async () => {
  const cid = randomId('ai-stream');
  const deltas = ['Acme ', 'Corp — café ', '🚀 ', 'is still ', 'a customer.'];
  openai.planReply(deltas);
  const bg = waitUntilCollector();
  const result = streamText({ model: wrapped({ conversationId: cid, waitUntil: bg.waitUntil }), prompt: 'Is Acme Corp still a customer?' });
  const chunks = await readAll(result.textStream);
  const text = chunks.join('');
  assert.equal(text, deltas.join(''));
  assert.ok(chunks.length > 1, 'the reply came in several chunks');
  const meta = (await result.providerMetadata).neotoma;
  assert.equal(meta.turnNumber, 1);
  assert.equal(bg.count(), 1, 'the reply store was handed to waitUntil');
  const [turn] = await bg.settled();
  assert.equal(turn.turnId, meta.turnId);
  const byKey = await rows(cid);
  const assistant = byKey[`${cid}:${meta.turnId}:assistant`];
  assert.equal((await stored(assistant)).content, text);
  assert.deepEqual(await refersTo(server, assistant.message_entity_id), [acme]);
});

test('streamText abandoned midway (its abortSignal): no assistant message is stored, the user message stays', async () => {
  const cid = randomId('ai-abandon');
  let open;
  const gate = new Promise((resolve) => (open = resolve));
  openai.planReply(['First part, ', 'then the rest ', 'that never arrives.'], { gate });
  const bg = waitUntilCollector();
  const errors = [];
  const abort = new AbortController();
  const result = streamText({
    model: wrapped({ conversationId: cid, waitUntil: bg.waitUntil, onError: (e) => errors.push(e) }),
    prompt: 'Tell me a long story about Acme Corp',
    abortSignal: abort.signal,
    onError: () => {},
  });
  const reader = result.textStream.getReader();
  const first = await reader.read();
  assert.equal(first.value, 'First part, ');
  abort.abort();
  open();
  let rest = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += value;
    }
  } catch {
    /* the stream errors with the abort */
  }
  assert.ok(!rest.includes('never arrives'), rest);
  assert.deepEqual(await bg.settled(), [undefined], 'nothing was stored for the reply');
  const byKey = await rows(cid);
  const keys = Object.keys(byKey);
  assert.equal(keys.length, 1, JSON.stringify(keys));
  assert.match(keys[0], new RegExp(`^${cid}:turn-1-[0-9a-f]{16}$`));
  assert.equal((await stored(byKey[keys[0]])).content, 'Tell me a long story about Acme Corp');
  assert.deepEqual(errors, [], 'an abandoned reply is not a store failure');
});

test("cancelling only streamText's textStream does not stop the model: the whole reply is stored", async () => {
  const cid = randomId('ai-cancel');
  let open;
  const gate = new Promise((resolve) => (open = resolve));
  openai.planReply(['Started, ', 'and finished anyway.'], { gate });
  const bg = waitUntilCollector();
  const result = streamText({ model: wrapped({ conversationId: cid, waitUntil: bg.waitUntil }), prompt: 'Tell me about Acme Corp' });
  const reader = result.textStream.getReader();
  assert.equal((await reader.read()).value, 'Started, ');
  await reader.cancel();
  open();
  const [turn] = await bg.settled();
  assert.equal(turn.assistantMessage, 'Started, and finished anyway.');
});

test('a retried request replays: the stored reply is answered without calling the model, one observation each', async () => {
  const cid = randomId('ai-retry');
  const messages = [{ role: 'user', content: 'Tell me about Acme Corp' }];
  openai.planReply(['Acme Corp: ', 'a customer since 2021.']);
  const first = await generateText({ model: wrapped({ conversationId: cid }), messages });
  const calls = openai.requests.length;
  const stores = storeCount();

  // a stateless server: a new middleware (and agent) per request
  const turns = [];
  const again = await generateText({ model: wrapped({ conversationId: cid, onTurn: (r) => turns.push(r) }), messages });
  assert.equal(again.text, first.text);
  assert.equal(openai.requests.length, calls, 'the model was not called again');
  assert.deepEqual(again.providerMetadata.neotoma, { ...first.providerMetadata.neotoma, replayed: true });
  assert.deepEqual(turns.map((t) => t.replayed), [{ user: true, assistant: true }]);

  const streamed = streamText({ model: wrapped({ conversationId: cid }), messages });
  assert.equal((await readAll(streamed.textStream)).join(''), first.text);
  assert.equal(openai.requests.length, calls);
  assert.equal((await streamed.providerMetadata).neotoma.replayed, true);

  assert.equal(storeCount() - stores, 2, 'each retry re-sent only the user message, answered as a replay');
  const byKey = await rows(cid);
  assert.equal(Object.keys(byKey).length, 2);
  for (const row of Object.values(byKey)) assert.equal((await stored(row)).observations, 1, row.turn_key);
});

test('a tool-result continuation is no new turn: it gets the memory again, stores no new message, and completes the reply as its next revision', async () => {
  const cid = randomId('ai-tools');
  const weather = tool({
    description: 'The weather at a place',
    inputSchema: jsonSchema({ type: 'object', properties: { place: { type: 'string' } }, required: ['place'] }),
    execute: async ({ place }) => ({ place, forecast: 'sunny' }),
  });
  openai.planReply(['Let me check. ', toolCall('call_w1', 'weather', { place: 'Acme Corp HQ' })]);
  openai.planReply(['It is sunny at Acme Corp HQ.']);
  const stores = storeCount();
  const requestsBefore = openai.requests.length;
  const bg = waitUntilCollector();
  const result = streamText({
    model: wrapped({ conversationId: cid, waitUntil: bg.waitUntil }),
    prompt: 'What is the weather at the Acme Corp office?',
    tools: { weather },
    stopWhen: stepCountIs(2),
  });
  const streamedText = (await readAll(result.textStream)).join('');
  assert.equal(streamedText, 'Let me check. It is sunny at Acme Corp HQ.');
  const steps = await result.steps;
  assert.equal(steps.length, 2);
  assert.equal(steps[1].providerMetadata.neotoma.continuation, true);
  assert.equal(steps[1].providerMetadata.neotoma.turnId, steps[0].providerMetadata.neotoma.turnId);
  await bg.settled();

  const [step1, step2] = openai.requests.slice(requestsBefore);
  assert.equal(step2.body.messages.at(-1).role, 'tool');
  assert.deepEqual(systemOf(step2), systemOf(step1), 'the continuation got the same memory');
  assert.ok(systemOf(step1)[0].includes(acme));

  // one user message and one reply; the reply holds what was streamed over both steps
  assert.equal(storeCount() - stores, 3, 'the user message, the reply, the reply completed');
  const byKey = await rows(cid);
  const keys = Object.keys(byKey).sort();
  assert.equal(keys.length, 2, JSON.stringify(keys));
  assert.deepEqual(await stored(byKey[keys[0]]), { content: 'What is the weather at the Acme Corp office?', role: 'user', turnNumber: 1, observations: 1 });
  assert.deepEqual(await stored(byKey[keys[1]]), { content: streamedText, role: 'assistant', turnNumber: 1, observations: 2 });

  // a client-side tool (no execute): its result comes back in a new request, to a fresh middleware
  const cid2 = randomId('ai-clienttool');
  const clientWeather = tool({ description: 'The weather at a place', inputSchema: jsonSchema({ type: 'object', properties: { place: { type: 'string' } } }) });
  openai.planReply([toolCall('call_c1', 'weather', { place: 'Acme Corp HQ' })]);
  const asked = await generateText({ model: wrapped({ conversationId: cid2 }), prompt: 'What is the weather at the Acme Corp office?', tools: { weather: clientWeather } });
  assert.deepEqual(asked.toolCalls.map((c) => c.toolName), ['weather']);
  const continuation = [
    { role: 'user', content: 'What is the weather at the Acme Corp office?' },
    ...asked.response.messages,
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_c1', toolName: 'weather', output: { type: 'json', value: { forecast: 'rain' } } }] },
  ];
  const storesBefore = storeCount();
  for (let attempt = 1; attempt <= 2; attempt++) {
    openai.planReply(['Rain at Acme Corp HQ.']);
    const r = await generateText({ model: wrapped({ conversationId: cid2 }), messages: continuation });
    assert.equal(r.text, 'Rain at Acme Corp HQ.');
    assert.equal(r.providerMetadata.neotoma.continuation, true);
  }
  assert.equal(storeCount() - storesBefore, 2, 'one /store per continuation: no user message; the retry is answered as a replay');
  const byKey2 = await rows(cid2);
  const keys2 = Object.keys(byKey2).sort();
  assert.equal(keys2.length, 2);
  assert.deepEqual(await stored(byKey2[keys2[1]]), { content: 'Rain at Acme Corp HQ.', role: 'assistant', turnNumber: 1, observations: 2 });
});

test('the remember tool: the entities the model gives it are stored with the reply, and the next call retrieves them', async () => {
  const cid = randomId('ai-remember');
  const dana = { entity_type: 'person', name: 'Dana Whitfield', organization: 'Orbital Labs', role: 'leading Project Kestrel' };
  openai.planReply([toolCall('call_r1', 'remember', { entities: [dana] })]);
  openai.planReply(["I'll remember Dana Whitfield."]);
  const turns = [];
  const bg = waitUntilCollector();
  const model = wrapped({ conversationId: cid, onTurn: (t) => turns.push(t), waitUntil: bg.waitUntil });
  const requestsBefore = openai.requests.length;
  const told = streamText({
    model,
    prompt: 'My colleague Dana Whitfield at Orbital Labs is leading Project Kestrel',
    tools: neotomaTools(),
    stopWhen: stepCountIs(2),
  });
  assert.equal((await readAll(told.textStream)).join(''), "I'll remember Dana Whitfield.");
  await bg.settled();
  // the tool was offered to the model, and answered it
  const [step1, step2] = openai.requests.slice(requestsBefore);
  assert.deepEqual(step1.body.tools.map((t) => t.function.name), ['remember']);
  const toolAnswer = JSON.parse(step2.body.messages.at(-1).content);
  assert.deepEqual(toolAnswer.remembered, ['Dana Whitfield']);

  // the tool-call step's reply (no text, Dana), then the whole reply once the continuation ends
  assert.equal(turns.length, 2);
  const [produced] = turns[0].produced;
  assert.deepEqual([produced.entity_type, produced.canonical_name, produced.action], ['person', 'person:Dana Whitfield', 'created']);
  assert.deepEqual(turns[1].produced.map((p) => [p.id, p.action]), [[produced.id, 'matched_existing']]);
  const reply = Object.values(await rows(cid)).find((row) => row.role === 'assistant');
  assert.equal((await stored(reply)).content, "I'll remember Dana Whitfield.");
  const snap = await entitySnapshot(server, produced.id);
  assert.deepEqual([snap.snapshot.name, snap.snapshot.organization], ['Dana Whitfield', 'Orbital Labs']);
  assert.ok((await refersTo(server, turns[0].assistantMessageEntityId)).includes(produced.id), 'the reply REFERS_TO what it produced');

  // the next turn: retrieval finds Dana, and the model is told
  openai.planReply(['Dana Whitfield is at Orbital Labs.']);
  const asked = await generateText({
    model,
    messages: [
      { role: 'user', content: 'My colleague Dana Whitfield at Orbital Labs is leading Project Kestrel' },
      { role: 'assistant', content: "I'll remember Dana Whitfield." },
      { role: 'user', content: 'What do you know about Dana Whitfield?' },
    ],
  });
  assert.deepEqual(asked.providerMetadata.neotoma.retrievedEntityIds.includes(produced.id), true);
  const [system] = systemOf(openai.requests.at(-1));
  assert.ok(system.includes(`person "Dana Whitfield" (${produced.id})`), system);
  assert.ok(system.includes('organization: Orbital Labs'), system);
});

test('retrieval that fails never fails the call: the reply is stored, with no memory in the prompt', async () => {
  const cid = randomId('ai-noretrieval');
  server.failNext('/retrieve_entity_by_identifier', 500, undefined, { times: 20 });
  openai.planReply(['I could not look that up.']);
  try {
    const r = await generateText({ model: wrapped({ conversationId: cid, retry: false }), system: 'Be brief.', prompt: 'Tell me about Acme Corp' });
    assert.equal(r.text, 'I could not look that up.');
    assert.deepEqual(r.providerMetadata.neotoma.retrievedEntityIds, []);
    assert.deepEqual(systemOf(openai.requests.at(-1)), ['Be brief.'], 'nothing retrieved: nothing added');
    const byKey = await rows(cid);
    assert.equal(Object.keys(byKey).length, 2);
  } finally {
    // use up what is left of the injected failures
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${server.url}/retrieve_entity_by_identifier`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ identifier: 'drain' }),
      });
      await res.arrayBuffer();
      if (res.status === 200) break;
    }
  }
});

test('Neotoma unreachable: both messages wait in the outbox and the call goes on', { timeout: 30_000 }, async () => {
  const closedPort = await new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
  const agent = new NeotomaAgent({ conversationId: randomId('ai-outbox'), transport: { baseUrl: `http://127.0.0.1:${closedPort}`, token: 'tok-outbox-secret', timeoutMs: 2000 }, retry: false });
  const turns = [];
  let turnSettled;
  const settled = new Promise((resolve) => (turnSettled = resolve));
  openai.planReply(['Answered ', 'anyway.']);
  const onTurn = (t) => {
    turns.push(t);
    turnSettled();
  };
  const model = wrapLanguageModel({ model: llm(), middleware: neotomaMiddleware({ agent, onTurn, onError: turnSettled }) });
  const result = streamText({ model, prompt: 'Tell me about Acme Corp' });
  assert.equal((await readAll(result.textStream)).join(''), 'Answered anyway.');
  await result.finishReason;
  await settled; // the turn's end: onTurn (or onError, which fails the check below)
  assert.deepEqual(turns.map((t) => t.pending), [{ user: true, assistant: true }]);
  const pending = await agent.pendingWrites();
  assert.deepEqual(pending.map((w) => w.role), ['user', 'assistant']);
  const reply = pending[1].body.entities.find((e) => e.entity_type === 'conversation_message');
  assert.equal(reply.content, 'Answered anyway.');
  assert.ok(!JSON.stringify(pending).includes('tok-outbox-secret'));
});

test("the model's error passes through unchanged: the same object; the user message stays, no reply is stored", { timeout: 30_000 }, async () => {
  const cid = randomId('ai-modelerr');
  let thrownByModel;
  const recorder = {
    specificationVersion: 'v4',
    wrapGenerate: async ({ doGenerate }) => doGenerate().catch((err) => { thrownByModel = err; throw err; }),
    wrapStream: async ({ doStream }) => doStream().catch((err) => { thrownByModel = err; throw err; }),
  };
  const bg = waitUntilCollector();
  const model = wrapLanguageModel({ model: llm(), middleware: [neotomaMiddleware({ conversationId: cid, transport: transport(), waitUntil: bg.waitUntil }), recorder] });
  openai.planStatus(400, { error: { message: 'model says no', type: 'invalid_request_error' } });
  const err = await generateText({ model, prompt: 'Tell me about Acme Corp', maxRetries: 0 }).then(
    () => assert.fail('resolved'),
    (e) => e,
  );
  assert.ok(APICallError.isInstance(err));
  assert.equal(err, thrownByModel, 'the very error the model call threw');
  assert.equal(err.statusCode, 400);

  openai.planStatus(400, { error: { message: 'model says no again', type: 'invalid_request_error' } });
  let streamError;
  const streamed = streamText({ model, prompt: 'And now?', maxRetries: 0, onError: ({ error }) => (streamError = error) });
  await readAll(streamed.textStream).catch(() => {});
  assert.equal(streamError, thrownByModel);
  assert.equal(streamError.statusCode, 400);

  // both turns have ended (each call's reply store was handed to waitUntil): nothing stored
  assert.deepEqual(await bg.settled(), [undefined, undefined]);
  const byKey = await rows(cid);
  const contents = await Promise.all(Object.values(byKey).map(async (row) => [(await stored(row)).role, (await stored(row)).content]));
  assert.deepEqual(contents.sort(), [['user', 'And now?'], ['user', 'Tell me about Acme Corp']]);
});

test('a call aborted before the model is called (a later middleware stops it) ends its turn at once, not at llmTimeoutMs: the user message stays, no reply', { timeout: 30_000 }, async () => {
  const cid = randomId('ai-abort-early');
  const agent = new NeotomaAgent({ conversationId: cid, transport: transport(), llmTimeoutMs: 600_000 });
  // the turn the middleware opens, watched from outside
  let turnDone;
  const turn = agent.turn.bind(agent);
  agent.turn = (...args) => (turnDone = turn(...args));
  const abort = new AbortController();
  const stopped = new Error('stopped by a later middleware');
  const stopper = {
    specificationVersion: 'v4',
    transformParams: async () => {
      abort.abort();
      throw stopped;
    },
  };
  const calls = openai.requests.length;
  const model = wrapLanguageModel({ model: llm(), middleware: [neotomaMiddleware({ agent }), stopper] });
  const err = await generateText({ model, prompt: 'Tell me about Acme Corp', abortSignal: abort.signal, maxRetries: 0 }).then(() => null, (e) => e);
  assert.ok(err, 'the call failed');
  assert.ok(turnDone, 'the turn was opened');
  const ended = await turnDone.then(() => null, (e) => e);
  assert.equal(ended?.name, 'AbortError', String(ended));
  assert.equal(openai.requests.length, calls, 'the model was not called');
  assert.deepEqual(Object.values(await rows(cid)).map((row) => row.role), ['user']);
});

test('a store Neotoma refuses before the model is called (a wrong token) rejects the call with that NeotomaError; the model is not called', async () => {
  const calls = openai.requests.length;
  const model = wrapped({ conversationId: randomId('ai-badtoken'), transport: { ...transport(), token: 'tok-wrong-secret' } });
  const err = await generateText({ model, prompt: 'Tell me about Acme Corp' }).then(() => null, (e) => e);
  assert.equal(err?.name, 'NeotomaError');
  assert.equal(err.code, 'NEOTOMA_HTTP');
  assert.equal(err.status, 401);
  assert.ok(!String(err.message).includes('tok-wrong-secret'));
  assert.equal(openai.requests.length, calls);
});

test('waitUntil: generateText returns before the reply is stored, and the store finishes inside waitUntil', { timeout: 30_000 }, async () => {
  const cid = randomId('ai-waituntil');
  // the reply's /store is held until the test releases it: generateText must return without it
  const replyStore = server.hold('/store', { match: (b) => String(b?.idempotency_key).endsWith('-assistant-turn') && String(b?.idempotency_key).includes(cid) });
  const bg = waitUntilCollector();
  openai.planReply(['Stored later.']);
  const r = await generateText({ model: wrapped({ conversationId: cid, waitUntil: bg.waitUntil }), prompt: 'Tell me about Acme Corp' });
  assert.equal(r.text, 'Stored later.');
  assert.equal(bg.count(), 1, 'the reply store was handed to waitUntil');
  const early = Object.values(await rows(cid)).map((row) => row.role);
  assert.deepEqual(early, ['user'], 'not stored yet when generateText returned');
  await replyStore.arrived; // the store was sent, and is held
  replyStore.release();
  const [turn] = await bg.settled();
  assert.equal(turn.assistantMessage, 'Stored later.');
  const byKey = await rows(cid);
  assert.equal((await stored(byKey[`${cid}:${turn.turnId}:assistant`])).content, 'Stored later.');
});

test('options and per-call options: bad ones are refused with INVALID_INPUT before anything is sent; a memory template that throws fails the call', async () => {
  const agent = new NeotomaAgent({ conversationId: 'ai-bad' });
  for (const bad of [undefined, 'c1', {}, { conversationId: 42 }, { agent: {} }, { agent, conversationId: 'c' }, { agent, retrievalLimit: 2 }, { conversationId: 'c', turnId: 't1' }, { conversationId: 'c', waitUntil: true }, { conversationId: 'c', memoryTemplate: 7 }, { conversationId: 'c', rememberToolName: '' }]) {
    assert.throws(() => neotomaMiddleware(bad), (e) => e.name === 'NeotomaError' && e.code === 'INVALID_INPUT', JSON.stringify(bad));
  }
  const requests = openai.requests.length;
  const stores = storeCount();
  const model = wrapped({ conversationId: randomId('ai-bad') });
  for (const neotoma of [{ turnid: 'x' }, 'turn-1', { regenerate: 'yes' }]) {
    const err = await generateText({ model, prompt: 'Tell me about Acme Corp', providerOptions: { neotoma } }).then(() => null, (e) => e);
    assert.equal(err?.code, 'INVALID_INPUT', String(err));
  }
  // a template that throws fails the call with its own error; the model is not called, no reply is stored
  const oops = new Error('template broke');
  const cid = randomId('ai-template');
  const thrown = await generateText({ model: wrapped({ conversationId: cid, memoryTemplate: () => { throw oops; } }), prompt: 'Tell me about Acme Corp' }).then(() => null, (e) => e);
  assert.equal(thrown, oops);
  assert.deepEqual(Object.values(await rows(cid)).map((row) => row.role), ['user']);
  // an agent's option the package refuses (B16: a typo) comes back as the package's error
  const typo = wrapped({ conversationId: 'c', retrievalLimt: 2 });
  const err = await generateText({ model: typo, prompt: 'Tell me about Acme Corp' }).then(() => null, (e) => e);
  assert.equal(err?.code, 'INVALID_INPUT');
  assert.equal(openai.requests.length, requests);
  assert.equal(storeCount(), stores + 1, 'the template case stored its user message, nothing else was sent');
});

test('per call: providerOptions.neotoma picks the conversation and turn id (the provider never sees them); a function of the headers picks the conversation', async () => {
  const cid = randomId('ai-percall');
  openai.planReply(['One.']);
  const r = await generateText({
    model: wrapped({ conversationId: ({ headers }) => headers['x-chat-id'] }),
    prompt: 'Tell me about Acme Corp',
    headers: { 'x-chat-id': cid },
  });
  assert.equal(r.providerMetadata.neotoma.conversationId, cid);
  openai.planReply(['Two.']);
  const r2 = await generateText({
    model: wrapped({ conversationId: 'unused' }),
    prompt: 'Is Acme Corp still a customer?',
    providerOptions: { neotoma: { conversationId: cid, turnId: 'my-turn-7' } },
  });
  assert.deepEqual([r2.providerMetadata.neotoma.conversationId, r2.providerMetadata.neotoma.turnId], [cid, 'my-turn-7']);
  assert.ok(!JSON.stringify(openai.requests.at(-1).body).includes('my-turn-7'));
  assert.ok(Object.keys(await rows(cid)).includes(`${cid}:my-turn-7:assistant`));
});

// --- the README route (useChat's POST, streamText, toUIMessageStreamResponse) ---

const userMessage = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const assistantMessage = (id, text) => ({ id, role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text, state: 'done' }] });

/** The UI message stream's chunks (SSE `data:` lines) and the text its text-delta chunks carry. */
function uiChunks(body) {
  const chunks = body
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
    .map((l) => JSON.parse(l.slice(6)));
  return { chunks, text: chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta).join('') };
}

const routeEnv = () => ({ LLM_BASE_URL: openai.url, LLM_API_KEY: 'test-llm-key', LLM_MODEL: 'test-model', NEOTOMA_URL: server.url, NEOTOMA_TOKEN: server.token });

test('the README route in Node: a streamed reply stored as streamed, a retried POST replayed, an abandoned one leaves the user message only', async () => {
  const chatId = randomId('ai-route');
  const post = async (messages, { signal, waitUntil } = {}) =>
    chatRoute(new Request('http://localhost/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: chatId, messages }), signal }), routeEnv(), waitUntil);

  const bg = waitUntilCollector();
  openai.planReply(['Acme Corp ', 'is a customer ', 'of ours.']);
  const first = [userMessage('u1', 'Tell me about Acme Corp')];
  const res = await post(first, bg);
  assert.equal(res.status, 200);
  const { text } = uiChunks(await res.text());
  assert.equal(text, 'Acme Corp is a customer of ours.');
  const [turn] = await bg.settled();
  const byKey = await rows(chatId);
  assert.equal((await stored(byKey[`${chatId}:${turn.turnId}:assistant`])).content, text);
  assert.ok(systemOf(openai.requests.at(-1))[0].startsWith('You are a helpful assistant.\n\nRemembered entities (Neotoma):'));

  const calls = openai.requests.length;
  const again = uiChunks(await (await post(first, bg)).text());
  assert.equal(again.text, text, 'the retried POST gets the stored reply');
  assert.equal(openai.requests.length, calls);

  // turn 2, abandoned: the client goes away after the first chunk
  let open;
  const gate = new Promise((resolve) => (open = resolve));
  openai.planReply(['Half ', 'of an answer.'], { gate });
  const abort = new AbortController();
  const bg2 = waitUntilCollector();
  const res2 = await post([...first, assistantMessage('a1', text), userMessage('u2', 'Is Acme Corp still a customer?')], { signal: abort.signal, ...bg2 });
  const reader = res2.body.getReader();
  let seen = '';
  while (!seen.includes('Half ')) seen += new TextDecoder().decode((await reader.read()).value);
  abort.abort();
  open();
  await reader.cancel().catch(() => {});
  assert.deepEqual(await bg2.settled(), [undefined]);
  const after = await rows(chatId);
  const turn2 = Object.values(after).filter((row) => row.turn_number === 2);
  assert.deepEqual(turn2.map((row) => row.role), ['user']);
  assert.equal((await stored(turn2[0])).content, 'Is Acme Corp still a customer?');
});

/** The route as a Worker (tests/packaging/ai-sdk/worker.mjs) bundled with rolldown, the package left out of the bundle. */
async function bundleWorker(input, cwd) {
  const bundle = await rolldown({
    input,
    cwd,
    platform: 'browser',
    external: ['neotoma-agent-wasm'],
    resolve: { conditionNames: ['workerd', 'worker', 'browser', 'import', 'default'] },
    logLevel: 'warn',
  });
  const { output } = await bundle.generate({ format: 'esm' });
  await bundle.close();
  assert.equal(output.length, 1);
  assert.deepEqual(output[0].imports, ['neotoma-agent-wasm'], 'only the package is left to the runtime');
  return output[0].code;
}

test('the README route in workerd (Miniflare, bundled with rolldown): streamed and stored inside waitUntil, replayed, remember, a model stream cut off midway', { timeout: 120_000 }, async () => {
  const code = await bundleWorker(path.join(FIXTURE_DIR, 'worker.mjs'), REPO_DIR);
  assert.ok(!code.includes('wasm-bindgen'), 'the package is not bundled');
  const root = path.join(REPO_DIR, 'target', 'ai-sdk-worker');
  const pkgJson = JSON.parse(await readFile(path.join(PKG_DIR, 'package.json'), 'utf8'));
  const entry = pkgJson.exports['.'].workerd;
  const installed = path.join(root, 'node_modules', 'neotoma-agent-wasm');
  const pkgFiles = await relativeImports(path.join(PKG_DIR, entry));
  let logs = '';
  let waiters = [];
  const mf = new Miniflare({
    modulesRoot: root,
    modules: [
      { type: 'ESModule', path: path.join(root, 'worker.mjs'), contents: code },
      { type: 'ESModule', path: path.join(root, 'neotoma-agent-wasm'), contents: `export * from './node_modules/neotoma-agent-wasm/${entry.replace(/^\.\//, '')}';\n` },
      ...(await Promise.all(
        pkgFiles.map(async (p) => ({ type: p.endsWith('.wasm') ? 'CompiledWasm' : 'ESModule', path: path.join(installed, path.relative(PKG_DIR, p)), contents: await readFile(p) })),
      )),
    ],
    compatibilityDate: '2025-07-18',
    bindings: routeEnv(),
    handleRuntimeStdio(stdout, stderr) {
      for (const s of [stdout, stderr]) {
        s.on('data', (d) => {
          logs += d;
          waiters = waiters.filter((w) => !w());
        });
      }
    },
  });
  // bounded: a missing line fails the test with what the Worker did log
  const waitForLogs = (text, n = 1) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the Worker never logged ${JSON.stringify(text)} x${n}:\n${logs}`)), 30_000);
      const check = () => logs.split(text).length - 1 >= n && (clearTimeout(timer), resolve(), true);
      if (!check()) waiters.push(check);
    });
  const dispatch = (chatId, messages, signal) =>
    mf.dispatchFetch('http://localhost/api/chat', {
      method: 'POST',
      // identity: Miniflare would otherwise gzip the body, holding small chunks back
      headers: { 'content-type': 'application/json', 'accept-encoding': 'identity' },
      body: JSON.stringify({ id: chatId, messages }),
      signal,
    });
  try {
    await mf.ready;
    const chatId = randomId('ai-workerd');
    // turn 1: the model remembers Dana, then answers after the tool result
    openai.planReply([toolCall('call_wd1', 'remember', { entities: [{ entity_type: 'person', name: 'Mira Okafor', organization: 'Acme Corp' }] })]);
    openai.planReply(['Noted: Mira Okafor ', 'at Acme Corp.']);
    const first = [userMessage('u1', 'My colleague Mira Okafor works at Acme Corp')];
    const res = await dispatch(chatId, first);
    assert.equal(res.status, 200);
    const { text } = uiChunks(await res.text());
    assert.equal(text, 'Noted: Mira Okafor at Acme Corp.');
    // the tool-call step's reply, then the whole reply: two stores, each inside waitUntil
    await waitForLogs('ai-sdk waitUntil settled: stored turn-1-', 2);
    const byKey = await rows(chatId);
    const keys = Object.keys(byKey).sort();
    assert.equal(keys.length, 2, JSON.stringify(keys));
    const assistantRow = byKey[keys[1]];
    const produced = (await refersTo(server, assistantRow.message_entity_id)).filter((id) => id !== acme);
    assert.equal(produced.length, 1);
    assert.equal((await entitySnapshot(server, produced[0])).snapshot.name, 'Mira Okafor');
    assert.equal((await stored(assistantRow)).content, text);

    // the same POST again: replayed with the stored reply, the model not called
    const calls = openai.requests.length;
    assert.equal(uiChunks(await (await dispatch(chatId, first)).text()).text, text);
    assert.equal(openai.requests.length, calls);

    // turn 2 retrieves what turn 1 produced
    openai.planReply(['Mira Okafor works at Acme Corp.']);
    const second = [...first, assistantMessage('a1', text), userMessage('u2', 'Where does Mira Okafor work?')];
    assert.equal(uiChunks(await (await dispatch(chatId, second)).text()).text, 'Mira Okafor works at Acme Corp.');
    assert.ok(systemOf(openai.requests.at(-1))[0].includes(`person "Mira Okafor" (${produced[0]})`));
    await waitForLogs('ai-sdk waitUntil settled: stored turn-2-');

    // turn 3: the model's stream is cut off midway (its connection closed before the end): the
    // reply is not whole, so it is not stored; the user message stays
    openai.planReply(['Half ', 'of an answer ', 'that is cut off.'], { ending: 'cut' });
    const cut = await (await dispatch(chatId, [...second, assistantMessage('a2', 'Mira Okafor works at Acme Corp.'), userMessage('u3', 'Tell me more about Acme Corp')])).text();
    assert.ok(!uiChunks(cut).chunks.some((c) => c.type === 'finish'), cut);
    await waitForLogs('ai-sdk waitUntil settled: nothing stored');
    const turn3 = Object.values(await rows(chatId)).filter((row) => row.turn_number === 3);
    assert.deepEqual(turn3.map((row) => row.role), ['user']);
    assert.ok(!logs.includes(server.token), 'no token in the Worker log');
  } finally {
    await mf.dispose();
  }
});

test('in Chromium: a page bundling the AI SDK and the middleware (the embedded store): streamed, remembered, retrieved', { timeout: 120_000 }, async () => {
  const bundle = await rolldown({
    input: path.join(FIXTURE_DIR, 'page.mjs'),
    cwd: REPO_DIR,
    platform: 'browser',
    external: ['neotoma-agent-wasm'],
    resolve: { conditionNames: ['browser', 'import', 'default'] },
    logLevel: 'warn',
  });
  const { output } = await bundle.generate({ format: 'esm' });
  await bundle.close();
  const dir = path.join(REPO_DIR, 'target', 'ai-sdk-page');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'page.js'), output[0].code);
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>ai-sdk</title>' +
      '<script type="importmap">{"imports":{"neotoma-agent-wasm":"/pkg/browser.mjs"}}</script>' +
      '<script type="module" src="/page.js"></script>',
  );
  const staticServer = await startStaticServer({ mounts: [['/pkg/', PKG_DIR], ['/', dir]] });
  const browser = await launchChromium();
  const pageErrors = [];
  try {
    const page = await browser.newPage();
    page.on('pageerror', (err) => pageErrors.push(String(err)));
    const cid = randomId('ai-browser');
    const dana = { entity_type: 'person', name: 'Dana Whitfield', organization: 'Orbital Labs' };
    openai.planReply([toolCall('call_b1', 'remember', { entities: [dana] })]);
    openai.planReply(["I'll remember ", 'Dana Whitfield.']);
    openai.planReply(['Dana Whitfield is at Orbital Labs.']);
    const requestsBefore = openai.requests.length;
    await page.goto(`${staticServer.url}/index.html?${new URLSearchParams({ llm: openai.url, conversation: cid })}`);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
    const result = await page.evaluate(() => window.__result);
    assert.equal(result.error, undefined, `${result.error}\n${pageErrors.join('\n')}`);
    assert.equal(result.toldText, "I'll remember Dana Whitfield.");
    assert.equal(result.askedText, 'Dana Whitfield is at Orbital Labs.');
    const [first, completed] = result.turns;
    assert.deepEqual(first.produced.map((p) => [p.entity_type, p.canonical_name, p.action]), [['person', 'person:Dana Whitfield', 'created']]);
    assert.equal(completed.produced[0].id, first.produced[0].id);
    assert.ok(result.asked.retrievedEntityIds.includes(first.produced[0].id));
    const [system] = systemOf(openai.requests.at(-1));
    assert.ok(system.includes(`person "Dana Whitfield" (${first.produced[0].id}): organization: Orbital Labs`), system);
    assert.equal(openai.requests.length - requestsBefore, 3);
    assert.ok(staticServer.served.includes('/pkg/neotoma_agent_wasm_bg.wasm'), staticServer.served.join(', '));
  } finally {
    await browser.close();
    await staticServer.close();
  }
});

test('the packed tarball, installed into tests/packaging/ai-sdk beside the pinned ai: the README route in Node', { timeout: 180_000 }, async () => {
  const ws = await makeWorkspace('neotoma-ai-sdk-');
  try {
    const tarball = await packTarball(ws);
    const dir = path.join(ws.dir, 'ai-sdk');
    await cp(FIXTURE_DIR, dir, { recursive: true });
    // The tarball is installed offline: tests reach no registry. The fixture's own dependencies
    // (ai, @ai-sdk/openai-compatible, at the versions its package.json pins) are the repo's
    // installed copies, linked in: an offline `npm install` of them needs their registry
    // metadata, which `npm ci` does not put in the npm cache (a fresh machine has none).
    const fixture = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
    const linked = fixture.dependencies;
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ ...fixture, dependencies: {} }, null, 2));
    const cache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
    const install = await run('npm', ['install', tarball, '--offline', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts'], {
      cwd: dir,
      env: { ...process.env, npm_config_cache: cache, npm_config_update_notifier: 'false', npm_config_loglevel: 'error' },
      timeoutMs: 120_000,
    });
    assert.equal(install.code, 0, describeRun('npm install (offline, the packed tarball)', install));
    for (const [name, version] of Object.entries(linked)) {
      const source = path.join(REPO_DIR, 'node_modules', name);
      const { version: have } = JSON.parse(await readFile(path.join(source, 'package.json'), 'utf8'));
      assert.equal(have, version, `the repo's ${name} is the fixture's pinned version`);
      await mkdir(path.dirname(path.join(dir, 'node_modules', name)), { recursive: true });
      await symlink(source, path.join(dir, 'node_modules', name), 'dir');
    }
    const installed = JSON.parse(await readFile(path.join(dir, 'node_modules', 'neotoma-agent-wasm', 'package.json'), 'utf8'));
    assert.deepEqual(installed.exports['./ai-sdk'], { types: './ai-sdk.d.ts', default: './ai-sdk.mjs' });
    assert.deepEqual(installed.peerDependenciesMeta, { ai: { optional: true } });

    const chatId = randomId('ai-pkg');
    openai.planReply(['Acme Corp ', 'is a customer.']);
    openai.planReply(['Yes, ', 'still a customer.']);
    await writeFile(path.join(dir, 'main.mjs'), MAIN_SOURCE);
    const r = await run(process.execPath, ['main.mjs'], {
      cwd: dir,
      env: childEnv({ ...routeEnv(), CHAT_ID: chatId }),
      timeoutMs: 60_000,
    });
    assert.equal(r.code, 0, describeRun('node main.mjs', r));
    const out = JSON.parse(r.stdout.trim().split('\n').at(-1));
    assert.equal(out.resolved, pathToFileURL(path.join(dir, 'node_modules', 'neotoma-agent-wasm', 'ai-sdk.mjs')).href);
    assert.deepEqual(out.texts, ['Acme Corp is a customer.', 'Yes, still a customer.', 'Yes, still a customer.']);
    const byKey = await rows(chatId);
    const messages = await Promise.all(Object.values(byKey).map(stored));
    assert.deepEqual(
      messages.map((m) => [m.turnNumber, m.role, m.content, m.observations]).sort(),
      [
        [1, 'assistant', 'Acme Corp is a customer.', 1],
        [1, 'user', 'Tell me about Acme Corp', 1],
        [2, 'assistant', 'Yes, still a customer.', 1],
        [2, 'user', 'Is Acme Corp still a customer?', 1],
      ],
    );
  } finally {
    await ws.close();
  }
});

// The fixture's driver (written next to route.mjs in the installed copy): useChat's two POSTs
// and a retry of the second, each reply read whole; waits for the stores handed to waitUntil.
const MAIN_SOURCE = `import { chatRoute } from './route.mjs';

const env = process.env;
const pending = [];
const user = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });
async function post(messages) {
  const request = new Request('http://localhost/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: env.CHAT_ID, messages }) });
  const res = await chatRoute(request, env, (p) => pending.push(p));
  const body = await res.text();
  return body.split('\\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6))).filter((c) => c.type === 'text-delta').map((c) => c.delta).join('');
}
const first = [user('u1', 'Tell me about Acme Corp')];
const t1 = await post(first);
const second = [...first, { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: t1 }] }, user('u2', 'Is Acme Corp still a customer?')];
const t2 = await post(second);
const t3 = await post(second);
await Promise.all(pending);
console.log(JSON.stringify({ resolved: import.meta.resolve('neotoma-agent-wasm/ai-sdk'), texts: [t1, t2, t3] }));
`;
