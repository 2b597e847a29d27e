// Turn latency in Node, one turn at a time (the rows README carried before `make bench` grew):
//   - on the embedded store (in-process, no network);
//   - over HTTP to the local Neotoma-shaped server on 127.0.0.1 (tests/server/neotoma-server.mjs,
//     in this process), no injected latency;
//   - a replayed turn from a fresh agent (same turn id and number);
//   - crowding: a conversation of 100+ messages whose id holds a person's name.

import { NeotomaAgent, EmbeddedStore } from 'neotoma-agent-wasm';
import { startServer } from '../../tests/server/neotoma-server.mjs';
import { stats, medP90, llm } from './lib.mjs';
import { MESSAGE } from './throughput.mjs';

const TURNS = Number(process.env.BENCH_TURNS ?? 150);

async function seed(store) {
  for (const [t, name] of [['company', 'Acme Corp'], ['project', 'Project Falcon'], ['person', 'Sarah Chen']]) {
    await store.store({ entities: [{ entity_type: t, name }], idempotency_key: `seed-${name}` });
  }
}

async function timed(agent, message = MESSAGE) {
  const samples = [];
  for (let i = 0; i < TURNS; i++) {
    const t0 = performance.now();
    await agent.turn(message, llm);
    samples.push(performance.now() - t0);
  }
  return stats(samples);
}

export async function run() {
  const rows = [];
  const data = {};
  const store = new EmbeddedStore();
  await seed(store);
  data.embedded = await timed(new NeotomaAgent({ conversationId: 'bench-embedded', transport: store }));
  rows.push({ what: 'one turn on the embedded store (3 lookups + 2 stores)', figure: medP90(data.embedded) });

  const server = await startServer();
  try {
    await seed(server.store);
    const http = { baseUrl: server.url, token: server.token };
    data.http = await timed(new NeotomaAgent({ conversationId: 'bench-http', transport: http }));
    rows.push({ what: 'one turn over HTTP to the local server on 127.0.0.1 (same process), no injected latency', figure: medP90(data.http) });

    // A replay from a fresh agent (same turn id and number): the user store answered as a replay,
    // one lookup of the stored reply, its edges re-created; no LLM call, no reply store.
    const first = new NeotomaAgent({ conversationId: 'bench-replay', transport: http });
    const replay = [];
    for (let i = 0; i < TURNS; i++) {
      await first.turn(MESSAGE, llm, { turnId: `r${i}`, turnNumber: i + 1 });
      const again = new NeotomaAgent({ conversationId: 'bench-replay', transport: http });
      const t0 = performance.now();
      await again.turn(MESSAGE, llm, { turnId: `r${i}`, turnNumber: i + 1 });
      replay.push(performance.now() - t0);
      again.free();
    }
    data.replay = stats(replay);
    rows.push({ what: 'a replayed turn from a fresh agent, HTTP (3 lookups, the store answered as a replay, a lookup of the stored reply, edge repairs)', figure: medP90(data.replay) });

    // Crowding: a person named in the conversation id, in a conversation of 100 messages: the first
    // lookup is cut at its limit by the conversation's own messages, so one more by name.
    const cid = 'thaddeus-bench';
    await server.store.store({ entities: [{ entity_type: 'person', name: 'Thaddeus' }], idempotency_key: 'seed-thaddeus' });
    const history = [{ entity_type: 'conversation', conversation_id: cid }];
    for (let i = 0; i < 100; i++) {
      history.push({ entity_type: 'conversation_message', role: 'user', sender_kind: 'user', content: `message ${i}`, turn_key: `${cid}:old-${i}` });
    }
    await server.store.store({ entities: history, idempotency_key: 'seed-history' });
    for (const [label, message] of [['plain', 'What did Sarah Chen say?'], ['crowded', 'What did Thaddeus say?']]) {
      data[`crowding-${label}`] = await timed(new NeotomaAgent({ conversationId: cid, transport: http }), message);
    }
    rows.push({
      what: 'crowding, HTTP: a turn in a conversation of 100+ messages naming a plain name / one that occurs in the conversation id (one more lookup)',
      figure: `${medP90(data['crowding-plain'])} / ${medP90(data['crowding-crowded'])}`,
    });
  } finally {
    await server.close();
  }
  return { rows, data };
}
