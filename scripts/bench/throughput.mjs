// Throughput: turns per second with 1, 10 and 100 conversations in flight (one agent each, each
// running its turns one after another), in this Node process and in one workerd isolate, on an
// embedded store holding 3 named entities and over HTTP to the local Neotoma-shaped server with
// no injected latency (a child Node process: its work is not on this process's thread). Each
// cell starts on a fresh store (a fresh server), so no cell runs on the turns of another. The message names the 3 entities: 3 lookups + 2 stores per turn.
// workerd: one request runs the whole batch in the isolate (scripts/bench/worker/bench-worker.mjs),
// timed from Node around dispatchFetch (workerd's clocks stand still while a request computes).

import { NeotomaAgent, EmbeddedStore } from 'neotoma-agent-wasm';
import { childServer, post, llm, num } from './lib.mjs';
import { startWorkerd } from './workerd.mjs';

export const MESSAGE = 'What did Sarah Chen say about Acme Corp and "Project Falcon" last week?';
const SEED = [
  { entity_type: 'person', name: 'Sarah Chen' },
  { entity_type: 'company', name: 'Acme Corp' },
  { entity_type: 'project', name: 'Project Falcon' },
];
const INFLIGHT = [1, 10, 100];
const scale = Number(process.env.BENCH_SCALE ?? 1);
const turnsFor = (mode, inflight) => Math.max(Math.round((mode === 'embedded' ? 600 : 300) * scale), 3 * inflight);

let batchNo = 0;
async function nodeBatch(transport, mode, inflight, turns) {
  const b = ++batchNo;
  let done = 0;
  let retrieved = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inflight }, async (_, i) => {
      const agent = new NeotomaAgent({ conversationId: `tp-${mode}-${inflight}-${b}-${i}`, transport });
      for (let n = i; n < turns; n += inflight) {
        const r = await agent.turn(MESSAGE, llm);
        retrieved += r.retrieved.length;
        done++;
      }
    }),
  );
  return { turns: done, seconds: (performance.now() - t0) / 1000, retrieved };
}

async function seededServer() {
  const server = await childServer();
  for (const e of SEED) await post(server, '/store', { entities: [e], idempotency_key: `seed-${e.name}` });
  return server;
}

async function seededStore() {
  const store = new EmbeddedStore();
  for (const e of SEED) await store.store({ entities: [e], idempotency_key: `seed-${e.name}` });
  return store;
}

export async function run() {
  const data = { node: {}, workerd: {} };
  const rows = [];
  for (const mode of ['embedded', 'http']) {
    for (const inflight of [10, ...INFLIGHT]) {
      const warmup = inflight === 10 && !data.node[`${mode}/warm`];
      const server = mode === 'http' ? await seededServer() : null;
      try {
        const transport = server ? { baseUrl: server.url, token: server.token } : await seededStore();
        const r = await nodeBatch(transport, mode, inflight, warmup ? 50 : turnsFor(mode, inflight));
        data.node[warmup ? `${mode}/warm` : `${mode}/${inflight}`] = { ...r, perSecond: r.turns / r.seconds };
      } finally {
        await server?.close();
      }
    }
  }
  let w;
  try {
    w = await startWorkerd();
    for (const mode of ['embedded', 'http']) {
      for (const inflight of [10, ...INFLIGHT]) {
        const warmup = inflight === 10 && !data.workerd[`${mode}/warm`];
        const turns = warmup ? 50 : turnsFor(mode, inflight);
        const server = mode === 'http' ? await seededServer() : null;
        try {
          const q = server ? `&url=${encodeURIComponent(server.url)}&token=${server.token}` : '&fresh=1';
          const t0 = performance.now();
          const r = JSON.parse(await w.get(`/turns?mode=${mode}&inflight=${inflight}&turns=${turns}${q}`));
          const seconds = (performance.now() - t0) / 1000;
          data.workerd[warmup ? `${mode}/warm` : `${mode}/${inflight}`] = { ...r, seconds, perSecond: r.turns / seconds };
        } finally {
          await server?.close();
        }
      }
    }
  } catch (e) {
    data.workerdError = String(e.message ?? e).split('\n')[0];
  } finally {
    await w?.dispose();
  }
  for (const rt of ['node', 'workerd']) {
    for (const mode of ['embedded', 'http']) {
      const cells = INFLIGHT.map((n) => data[rt][`${mode}/${n}`]);
      const where = mode === 'embedded' ? 'embedded store' : 'local server over HTTP, no injected latency';
      rows.push({
        what: `turns per second, ${rt === 'node' ? 'one Node process' : 'one workerd isolate'}, ${where} (1 / 10 / 100 conversations in flight)`,
        figure: cells.every(Boolean)
          ? cells.map((c) => `**${num(c.perSecond)}**`).join(' / ') + ` (${cells.map((c) => c.turns).join(' / ')} turns, ${num(cells.reduce((n, c) => n + c.retrieved, 0) / cells.reduce((n, c) => n + c.turns, 0), 1)} retrieved per turn)`
          : `n/a (${data.workerdError ?? 'failed'})`,
      });
    }
  }
  return { rows, data };
}
