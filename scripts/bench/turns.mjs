// Turn latency and throughput of the built package (`make pkg` first), in Node:
//   - on the embedded store (in-process, no network);
//   - over HTTP to the local Neotoma-shaped server on 127.0.0.1 (tests/server/neotoma-server.mjs);
//   - the default extractor on a 1 MiB message.
// Reproducible: `make bench` (or `node scripts/bench-turns.mjs [turns]`). Prints medians and p90.

import { performance } from 'node:perf_hooks';
import { NeotomaAgent, EmbeddedStore, extractIdentifiers } from 'neotoma-agent-wasm';
import { startServer } from '../tests/server/neotoma-server.mjs';

const TURNS = Number(process.argv[2] ?? 200);
const MESSAGE = 'What did Sarah Chen say about Acme Corp and "Project Falcon" last week?';
const llm = (_m, ctx) => `Noted: ${ctx.retrieved.map((e) => e.snapshot.name).join(', ')}`;

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return `median ${at(0.5).toFixed(2)} ms, p90 ${at(0.9).toFixed(2)} ms (n=${s.length})`;
}

async function seed(store) {
  for (const [t, name] of [['company', 'Acme Corp'], ['project', 'Project Falcon'], ['person', 'Sarah Chen']]) {
    await store.store({ entities: [{ entity_type: t, name }], idempotency_key: `seed-${name}` });
  }
}

async function run(label, agent) {
  const samples = [];
  for (let i = 0; i < TURNS; i++) {
    const t0 = performance.now();
    await agent.turn(MESSAGE, llm);
    samples.push(performance.now() - t0);
  }
  console.log(`${label}: turn (3 lookups + 2 stores) ${stats(samples)}`);
}

const store = new EmbeddedStore();
await seed(store);
await run('embedded store', new NeotomaAgent({ conversationId: 'bench-embedded', transport: store }));

const server = await startServer();
await seed(server.store);
await run(
  'HTTP to 127.0.0.1',
  new NeotomaAgent({ conversationId: 'bench-http', transport: { baseUrl: server.url, token: server.token } }),
);

// A replay from a fresh agent (same turn id and number): the user store answered as a replay,
// one lookup of the stored reply, its edges re-created; no LLM call, no reply store.
{
  const first = new NeotomaAgent({ conversationId: 'bench-replay', transport: { baseUrl: server.url, token: server.token } });
  const samples = [];
  for (let i = 0; i < TURNS; i++) {
    await first.turn(MESSAGE, llm, { turnId: `r${i}`, turnNumber: i + 1 });
    const again = new NeotomaAgent({ conversationId: 'bench-replay', transport: { baseUrl: server.url, token: server.token } });
    const t0 = performance.now();
    await again.turn(MESSAGE, llm, { turnId: `r${i}`, turnNumber: i + 1 });
    samples.push(performance.now() - t0);
  }
  console.log(`HTTP to 127.0.0.1: replayed turn (3 lookups + 1 store + reply lookup + 2 edge repairs) ${stats(samples)}`);
}

// Crowding: a person named in the conversation id, in a conversation of 100 messages: the first
// lookup is cut at its limit by the conversation's own messages, so one more by name.
{
  const cid = 'thaddeus-bench';
  await server.store.store({ entities: [{ entity_type: 'person', name: 'Thaddeus' }], idempotency_key: 'seed-thaddeus' });
  const history = [{ entity_type: 'conversation', conversation_id: cid }];
  for (let i = 0; i < 100; i++) {
    history.push({ entity_type: 'conversation_message', role: 'user', sender_kind: 'user', content: `message ${i}`, turn_key: `${cid}:old-${i}` });
  }
  await server.store.store({ entities: history, idempotency_key: 'seed-history' });
  for (const [label, message] of [['plain', 'What did Sarah Chen say?'], ['crowded', 'What did Thaddeus say?']]) {
    const agent = new NeotomaAgent({ conversationId: cid, transport: { baseUrl: server.url, token: server.token } });
    const samples = [];
    for (let i = 0; i < TURNS; i++) {
      const t0 = performance.now();
      await agent.turn(message, llm);
      samples.push(performance.now() - t0);
    }
    console.log(`HTTP to 127.0.0.1, a conversation of 100+ messages: turn, one ${label} identifier ${stats(samples)}`);
  }
}
await server.close();

const big = ('Ask Acme Corp about INV-2041 and "Project Falcon". ').repeat(21000).slice(0, 1 << 20);
const ex = [];
for (let i = 0; i < 10; i++) {
  const t0 = performance.now();
  extractIdentifiers(big);
  ex.push(performance.now() - t0);
}
console.log(`extractIdentifiers on a 1 MiB message: ${stats(ex)}`);
