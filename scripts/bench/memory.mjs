// Memory: the wasm module's linear memory (`WebAssembly.Memory` of the instance: the package's
// default export, wasm-bindgen's init, resolves to the instance's exports, `memory` among them),
// in this Node process. Linear memory never shrinks: what is measured is its size (the high-water
// mark of the allocator's heap), so "no leak" shows as a size that stops growing.
//   - HTTP transport (the local server in a child process: its store is not in this memory):
//     the size every 100 turns over 1,000 turns after 50 warm-up turns, a new agent every 100
//     turns (the old one freed); then one agent for 1,200 turns, beyond the 1,024 turns an agent
//     remembers (REMEMBERED_TURNS in src/protocol/turn.rs: its retrieved entities, for replays
//     and verifyTurn), where its size must stop growing;
//   - embedded store: the size before and after 1,000 turns, against the growth of the store's
//     export (`JSON.stringify(store.export())`, UTF-8 bytes): what the turns stored;
//   - a turn with a 1 MiB message (HTTP), then 100 ordinary turns.
// Process figures (RSS, JS heap) are printed beside them for reference.

import init, { NeotomaAgent, EmbeddedStore } from 'neotoma-agent-wasm';
import { childServer, post, llm, mib, num } from './lib.mjs';
import { MESSAGE } from './throughput.mjs';

const TURNS = Number(process.env.BENCH_MEMORY_TURNS ?? 1000);
const LONG_AGENT_TURNS = Number(process.env.BENCH_MEMORY_LONG_TURNS ?? 1200);
const SEED = [['person', 'Sarah Chen'], ['company', 'Acme Corp'], ['project', 'Project Falcon']];

/** 1 MiB (1,048,576 bytes) of chat text naming a few stored entities. */
export function oneMiBMessage() {
  const unit = 'Sarah Chen said the Acme Corp rollout for "Project Falcon" moves to next week; the team will check the logs and report back. ';
  return unit.repeat(Math.ceil((1 << 20) / unit.length)).slice(0, 1 << 20);
}

export async function run() {
  const wasm = await init();
  const mem = () => wasm.memory.buffer.byteLength;
  const proc = () => {
    const m = process.memoryUsage();
    return { rss: m.rss, heapUsed: m.heapUsed, external: m.external };
  };
  const data = { start: { wasm: mem(), ...proc() } };

  // HTTP: 1,000 turns
  const server = await childServer();
  try {
    for (const [entity_type, name] of SEED) await post(server, '/store', { entities: [{ entity_type, name }], idempotency_key: `seed-${name}` });
    const http = { baseUrl: server.url, token: server.token };
    let agent = new NeotomaAgent({ conversationId: 'memory-http-0', transport: http });
    for (let i = 0; i < 50; i++) await agent.turn(MESSAGE, llm);
    agent.free();
    const samples = [{ turn: 0, wasm: mem(), ...proc() }];
    for (let i = 1; i <= TURNS; i++) {
      if (i % 100 === 1) agent = new NeotomaAgent({ conversationId: `memory-http-${i}`, transport: http });
      await agent.turn(MESSAGE, llm);
      if (i % 100 === 0) {
        agent.free();
        samples.push({ turn: i, wasm: mem(), ...proc() });
      }
    }
    data.http = { samples };
    agent = new NeotomaAgent({ conversationId: 'memory-http-one', transport: http });
    const one = [{ turn: 0, wasm: mem() }];
    for (let i = 1; i <= LONG_AGENT_TURNS; i++) {
      await agent.turn(MESSAGE, llm);
      if (i % 100 === 0 || i === 1024) one.push({ turn: i, wasm: mem() });
    }
    data.httpOneAgent = { samples: one };

    // a 1 MiB message, then 100 ordinary turns
    const big = oneMiBMessage();
    const before = mem();
    const r = await agent.turn(big, llm);
    const after = mem();
    for (let i = 0; i < 100; i++) await agent.turn(MESSAGE, llm);
    data.oneMiB = { bytes: Buffer.byteLength(big), before, after, after100: mem(), retrieved: r.retrieved.length, ...proc() };
  } finally {
    await server.close();
  }

  // embedded store: 1,000 turns
  {
    const store = new EmbeddedStore();
    for (const [entity_type, name] of SEED) await store.store({ entities: [{ entity_type, name }], idempotency_key: `seed-${name}` });
    const agent = new NeotomaAgent({ conversationId: 'memory-embedded', transport: store });
    const m0 = mem();
    const e0 = Buffer.byteLength(JSON.stringify(store.export()));
    for (let i = 0; i < TURNS; i++) await agent.turn(MESSAGE, llm);
    const m1 = mem();
    const e1 = Buffer.byteLength(JSON.stringify(store.export()));
    data.embedded = { before: m0, after: m1, exportBefore: e0, exportAfter: e1, entities: store.entityCount };
  }

  const h = data.http.samples;
  const e = data.embedded;
  const o = data.oneMiB;
  const grew = h.at(-1).wasm - h[0].wasm;
  const fromTurn = h.find((s) => s.wasm === h.at(-1).wasm).turn;
  const one = data.httpOneAgent.samples;
  const at = (t) => one.find((x) => x.turn === t)?.wasm ?? NaN;
  const rows = [
    {
      what: `wasm linear memory over ${num(TURNS)} turns with the HTTP transport (after 50 warm-up turns; a new agent every 100 turns, the old one freed; sampled every 100)`,
      figure:
        `${mib(h[0].wasm)} → ${mib(h.at(-1).wasm)}: ` +
        (grew === 0 ? '**back to its baseline** (no leak per turn)' : `**+${num(grew)} B** (${num(grew / TURNS)} B per turn; last growth before turn ${num(fromTurn)})`) +
        ` (process RSS ${mib(h[0].rss)} → ${mib(h.at(-1).rss)}, JS heap ${mib(h[0].heapUsed)} → ${mib(h.at(-1).heapUsed)})`,
    },
    {
      what: `the same, one agent for ${num(LONG_AGENT_TURNS)} turns (it remembers its last 1,024 turns' retrieved entities)`,
      figure: `${mib(one[0].wasm)} → ${mib(at(1024))} at turn 1,024 (${num((at(1024) - one[0].wasm) / 1024)} B per remembered turn) → ${mib(one.at(-1).wasm)} at turn ${num(one.at(-1).turn)}` + (one.at(-1).wasm === at(1024) ? ': **flat beyond the bound**' : `: **still growing** (+${num(one.at(-1).wasm - at(1024))} B after turn 1,024)`),
    },
    {
      what: `wasm linear memory after ${num(TURNS)} turns on the embedded store, against what the store holds (its export, JSON)`,
      figure: `${mib(e.before)} → ${mib(e.after)}: **+${mib(e.after - e.before)}** (${num((e.after - e.before) / TURNS)} B per turn) for ${mib(e.exportAfter - e.exportBefore)} more export (${num((e.exportAfter - e.exportBefore) / TURNS)} B per turn; ${num(e.entities)} entities): ${num((e.after - e.before) / (e.exportAfter - e.exportBefore), 2)}× the stored data`,
    },
    {
      what: 'wasm linear memory after a turn with a 1 MiB message (HTTP), then after 100 ordinary turns',
      figure: `${mib(o.before)} → **${mib(o.after)}** (+${mib(o.after - o.before)}: the high-water mark; linear memory never shrinks) → ${mib(o.after100)} after 100 more turns`,
    },
  ];
  return { rows, data };
}
