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
await server.close();

const big = ('Ask Acme Corp about INV-2041 and "Project Falcon". ').repeat(21000).slice(0, 1 << 20);
const ex = [];
for (let i = 0; i < 10; i++) {
  const t0 = performance.now();
  extractIdentifiers(big);
  ex.push(performance.now() - t0);
}
console.log(`extractIdentifiers on a 1 MiB message: ${stats(ex)}`);
