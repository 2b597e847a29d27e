// The demo's OpenAI-compatible LLM (www/openai-llm.mjs) against the local OpenAI-format server the
// edge worker tests use: ctx.memory in the system prompt, the `remember` tool offered, the reply
// streamed, and the entities the model reports (a tool call, or a closing JSON block) stored with
// the reply by a real agent on the embedded store. The key stays in the Authorization header.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { NeotomaAgent } from 'neotoma-agent-wasm';
import { openAIChatWithMemory, entitiesFromText, cleanEntities } from '../../www/openai-llm.mjs';
import { startOpenAIServer } from '../packaging/edge/openai-sse-server.mjs';

let llmServer;

before(async () => {
  llmServer = await startOpenAIServer();
});

after(async () => {
  await llmServer?.close();
});

const toolCall = (args) => ({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'remember', arguments: args } }] });

test('the model is told the memory, reports entities with the remember tool, and they are stored with the reply', { timeout: 20_000 }, async () => {
  const agent = new NeotomaAgent({ conversationId: 'openai-llm' });
  const key = 'sk-test-not-a-real-key';
  const llm = openAIChatWithMemory({ baseUrl: `${llmServer.url}/v1/`, model: 'test-model', apiKey: key });

  const args = JSON.stringify({ entities: [{ entity_type: 'person', name: 'Dana Whitfield', organization: 'Orbital Labs' }] });
  llmServer.planReply(["I'll remember ", 'Dana.', toolCall(args.slice(0, 20)), toolCall(args.slice(20))]);
  const told = await agent.turn('My colleague Dana Whitfield at Orbital Labs', llm);
  assert.equal(told.assistantMessage, "I'll remember Dana.");
  assert.deepEqual(told.produced.map((p) => [p.canonical_name, p.action]), [['person:Dana Whitfield', 'created']]);
  const first = llmServer.requests.at(-1);
  assert.equal(first.path, '/v1/chat/completions');
  assert.equal(first.headers.authorization, `Bearer ${key}`);
  assert.equal(first.body.model, 'test-model');
  assert.equal(first.body.stream, true);
  assert.equal(first.body.tools[0].function.name, 'remember');
  assert.match(first.body.messages[0].content, /Nothing in memory matches/);

  // next turn: the memory block is in the system prompt; a model without tools ends with JSON
  llmServer.planReply(['Dana Whitfield is at Orbital Labs.\n', '```json\n{"entities":[{"entity_type":"company","name":"Orbital Labs"}]}\n```']);
  const asked = await agent.turn('What do you know about Dana Whitfield?', llm);
  const system = llmServer.requests.at(-1).body.messages[0].content;
  assert.ok(system.includes(`- person "Dana Whitfield" (${told.produced[0].id}): organization: Orbital Labs`), system);
  assert.deepEqual(asked.produced.map((p) => p.entity_type), ['company']);
  assert.ok(asked.refersTo.includes(told.produced[0].id));

  // a model that only calls the tool still gives a readable reply
  llmServer.planReply([toolCall(JSON.stringify({ entities: [{ entity_type: 'project', name: 'Project Kestrel', status: 'active' }] }))]);
  const quiet = await agent.turn('Dana leads Project Kestrel', llm);
  assert.equal(quiet.assistantMessage, "I'll remember that.");
  assert.equal(quiet.produced[0].canonical_name, 'project:Project Kestrel');

  // the endpoint's errors carry a code, never the key
  llmServer.planStatus(401, { error: { message: `bad key ${key}` } });
  const err = await agent.turn('hello', llm).then(() => assert.fail('expected a rejection'), (e) => e);
  assert.equal(err.code, 'LLM_HTTP');
  assert.ok(!JSON.stringify({ m: err.message, s: err.stack }).includes(key));
});

test('a closing JSON block: parsed when well-formed, ignored otherwise', () => {
  assert.deepEqual(entitiesFromText('Ok.\n```json\n{"entities":[{"entity_type":"note","content":"x"}]}\n```'), [{ entity_type: 'note', content: 'x' }]);
  assert.deepEqual(entitiesFromText('Ok.\n```json\n{"entities": [\n```'), []);
  assert.deepEqual(entitiesFromText('No block here.'), []);
});

test("a model's slips are cleaned up rather than refusing the whole reply", () => {
  assert.deepEqual(
    cleanEntities([
      { entity_type: 'Person', name: 'Dana Whitfield', entity_id: 'ent_x', conversation_id: 'c1' },
      'Dana',
      null,
      { entity_type: 'agent_grant', capability: 'admin' },
      { name: 'no type' },
    ]),
    [{ entity_type: 'person', name: 'Dana Whitfield' }],
  );
  assert.equal(cleanEntities(Array.from({ length: 20 }, (_, i) => ({ entity_type: 'note', content: `n${i}` }))).length, 16);
  assert.deepEqual(cleanEntities('not a list'), []);
});
