// Start-up, cold.
// Node: fresh child processes (median of many); each times, with performance.now():
//   - `await import('neotoma-agent-wasm')` (the Node entry: read the .wasm, compile, instantiate,
//     run the glue), then the first turn after it (new EmbeddedStore, new agent, a turn naming
//     one stored entity) and a second one;
//   - in other children, the same steps one by one through the raw glue ('neotoma-agent-wasm/glue'):
//     import the glue, read the .wasm, `new WebAssembly.Module`, `initSync` (instantiate + start).
// workerd: fresh Miniflare instances (a fresh workerd process each), alternately the bench Worker
// (which imports the package: workerd compiles the .wasm and runs the module's top level at
// start-up) and a Worker that only answers "ok": `new Miniflare` to `ready`, the difference being
// the package's cost; then the first request (one turn on a new embedded store) and a second one,
// timed from Node around dispatchFetch.

import { spawn } from 'node:child_process';
import { REPO_DIR, stats, ms, medP90 } from './lib.mjs';
import { startWorkerd } from './workerd.mjs';

const N_NODE = Number(process.env.BENCH_STARTUP_N ?? 15);
const N_WORKERD = Number(process.env.BENCH_STARTUP_WORKERD_N ?? 7);

const ENTRY_CHILD = `
const t0 = performance.now();
const { NeotomaAgent, EmbeddedStore } = await import('neotoma-agent-wasm');
const t1 = performance.now();
const store = new EmbeddedStore();
await store.store({ entities: [{ entity_type: 'person', name: 'Sarah Chen' }], idempotency_key: 'seed' });
const agent = new NeotomaAgent({ conversationId: 'startup', transport: store });
const t2 = performance.now();
await agent.turn('What did Sarah Chen say?', () => 'ok');
const t3 = performance.now();
await agent.turn('What did Sarah Chen say then?', () => 'ok');
const t4 = performance.now();
console.log(JSON.stringify({ import: t1 - t0, firstTurn: t3 - t2, secondTurn: t4 - t3 }));
`;

const STEPS_CHILD = `
import { readFileSync } from 'node:fs';
const t0 = performance.now();
const glue = await import('neotoma-agent-wasm/glue');
const t1 = performance.now();
const wasmPath = new URL('neotoma_agent_wasm_bg.wasm', import.meta.resolve('neotoma-agent-wasm/glue'));
const bytes = readFileSync(wasmPath);
const t2 = performance.now();
const module = new WebAssembly.Module(bytes);
const t3 = performance.now();
glue.initSync({ module });
const t4 = performance.now();
console.log(JSON.stringify({ glue: t1 - t0, read: t2 - t1, compile: t3 - t2, instantiate: t4 - t3 }));
`;

function child(source) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--input-type=module', '-e', source], { cwd: REPO_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1))) : reject(new Error(`child exited ${code}: ${err}`))));
  });
}

export async function run() {
  const entry = [];
  const steps = [];
  for (let i = 0; i < N_NODE; i++) {
    entry.push(await child(ENTRY_CHILD));
    steps.push(await child(STEPS_CHILD));
  }
  const col = (list, k) => stats(list.map((x) => x[k]));
  const data = {
    node: {
      import: col(entry, 'import'),
      firstTurn: col(entry, 'firstTurn'),
      secondTurn: col(entry, 'secondTurn'),
      glue: col(steps, 'glue'),
      read: col(steps, 'read'),
      compile: col(steps, 'compile'),
      instantiate: col(steps, 'instantiate'),
    },
  };
  const rows = [
    {
      what: `Node: \`import 'neotoma-agent-wasm'\` in a fresh process (read + compile + instantiate + glue), ${N_NODE} processes`,
      figure: `**${medP90(data.node.import)}**; step by step (medians): glue import ${ms(data.node.glue.median)}, read ${ms(data.node.read.median)}, \`new WebAssembly.Module\` ${ms(data.node.compile.median)}, instantiate + start ${ms(data.node.instantiate.median)}`,
    },
    {
      what: 'Node: the first turn after it (embedded store, one identifier), then the second',
      figure: `first **${ms(data.node.firstTurn.median)}**, second ${ms(data.node.secondTurn.median)} (medians)`,
    },
  ];

  const ready = { pkg: [], empty: [] };
  const first = [];
  const second = [];
  const ping = [];
  try {
    for (let i = 0; i < N_WORKERD; i++) {
      for (const withPackage of [true, false]) {
        const t0 = performance.now();
        const w = await startWorkerd({ withPackage });
        ready[withPackage ? 'pkg' : 'empty'].push(performance.now() - t0);
        try {
          if (withPackage) {
            let t = performance.now();
            await w.get('/turns?mode=embedded&inflight=1&turns=1');
            first.push(performance.now() - t);
            t = performance.now();
            await w.get('/turns?mode=embedded&inflight=1&turns=1');
            second.push(performance.now() - t);
          } else {
            const t = performance.now();
            await w.get('/');
            ping.push(performance.now() - t);
          }
        } finally {
          await w.dispose();
        }
      }
    }
    data.workerd = { readyWithPackage: stats(ready.pkg), readyEmpty: stats(ready.empty), firstRequest: stats(first), secondRequest: stats(second), emptyFirstRequest: stats(ping) };
    const w = data.workerd;
    rows.push(
      {
        what: `workerd: a fresh Miniflare instance to ready, the bench Worker (imports the package) vs a Worker that imports nothing, ${N_WORKERD} each`,
        figure: `${ms(w.readyWithPackage.median)} vs ${ms(w.readyEmpty.median)}: the package adds **${ms(w.readyWithPackage.median - w.readyEmpty.median)}** (compile + instantiate at start-up; medians)`,
      },
      {
        what: 'workerd: the first request after it (one turn on a new embedded store, seeded with 3 entities), then the second',
        figure: `first **${ms(w.firstRequest.median)}**, second ${ms(w.secondRequest.median)}; a request to the empty Worker ${ms(w.emptyFirstRequest.median)} (medians, dispatchFetch from Node)`,
      },
    );
  } catch (e) {
    rows.push({ what: 'workerd start-up', figure: `n/a (${String(e.message).split('\n')[0]})` });
  }
  return { rows, data };
}
