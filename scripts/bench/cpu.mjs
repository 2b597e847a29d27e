// CPU time per turn: process.cpuUsage() (user + system) over a batch of turns with a trivial LLM
// callback, one conversation at a time, in a child Node process; the same batch again in a child
// started with --cpu-prof, whose samples attribute the time: the share of busy samples whose frame
// is a wasm function (V8 marks them with a wasm:// URL) is the share inside the wasm module (the
// profile covers the whole child: module load and 50 warm-up turns are a small part of it). Embedded store (the store's work is
// wasm too) and HTTP (the client only: the server is another child process).

import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { BENCH_DIR, REPO_DIR, ms, num } from './lib.mjs';

const TURNS = { embedded: Number(process.env.BENCH_CPU_TURNS ?? 1000), http: Number(process.env.BENCH_CPU_TURNS ?? 300) };

/** The child: `node --cpu-prof scripts/bench/cpu.mjs --child embedded|http [url token]`. */
async function child(mode, url, token) {
  const { NeotomaAgent, EmbeddedStore } = await import('neotoma-agent-wasm');
  const { llm } = await import('./lib.mjs');
  const { MESSAGE } = await import('./throughput.mjs');
  const seed = [['person', 'Sarah Chen'], ['company', 'Acme Corp'], ['project', 'Project Falcon']];
  let transport;
  if (mode === 'embedded') {
    transport = new EmbeddedStore();
    for (const [entity_type, name] of seed) await transport.store({ entities: [{ entity_type, name }], idempotency_key: `seed-${name}` });
  } else {
    transport = { baseUrl: url, token };
  }
  const agent = new NeotomaAgent({ conversationId: `cpu-${mode}`, transport });
  for (let i = 0; i < 50; i++) await agent.turn(MESSAGE, llm);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < TURNS[mode]; i++) await agent.turn(MESSAGE, llm);
  const c = process.cpuUsage(c0);
  const wall = performance.now() - t0;
  process.stdout.write(JSON.stringify({ turns: TURNS[mode], cpuMs: (c.user + c.system) / 1000, userMs: c.user / 1000, wallMs: wall, profileFrom: t0 }) + '\n');
}

/** Self time by kind (wasm / JS / GC, program, idle) of a .cpuprofile, counting samples after `fromUs`. */
function attribute(profile) {
  const kindOf = new Map();
  for (const n of profile.nodes) {
    const cf = n.callFrame;
    let kind = 'js';
    if (cf.url?.startsWith('wasm://') || /^\$?wasm-function/.test(cf.functionName) || cf.url?.endsWith('.wasm')) kind = 'wasm';
    else if (cf.functionName === '(garbage collector)') kind = 'gc';
    else if (cf.functionName === '(idle)') kind = 'idle';
    else if (cf.functionName === '(program)') kind = 'program';
    kindOf.set(n.id, kind);
  }
  const totals = { wasm: 0, js: 0, gc: 0, idle: 0, program: 0 };
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) totals[kindOf.get(samples[i])] += (timeDeltas[i + 1] ?? 0) / 1000;
  return totals;
}

function runChild(args, profDir) {
  const prof = profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--cpu-prof-interval=250'] : [];
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...prof, fileURLToPath(import.meta.url), '--child', ...args], { cwd: REPO_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1))) : reject(new Error(`cpu child exited ${code}`))));
  });
}

export async function run() {
  const { childServer, post } = await import('./lib.mjs');
  const rows = [];
  const data = {};
  for (const mode of ['embedded', 'http']) {
    const profDir = path.join(BENCH_DIR, 'cpu-prof', mode);
    rmSync(profDir, { recursive: true, force: true });
    mkdirSync(profDir, { recursive: true });
    let server;
    const args = [mode];
    if (mode === 'http') {
      server = await childServer();
      for (const name of ['Sarah Chen', 'Acme Corp', 'Project Falcon']) await post(server, '/store', { entities: [{ entity_type: 'note', name }], idempotency_key: `seed-${name}` });
      args.push(server.url, server.token);
    }
    try {
      const r = await runChild(args);
      const profiled = await runChild(args, profDir);
      const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
      const t = attribute(JSON.parse(readFileSync(path.join(profDir, file), 'utf8')));
      const busy = t.wasm + t.js + t.gc + t.program;
      data[mode] = { ...r, profiledCpuMs: profiled.cpuMs, profileMs: t, wasmShare: t.wasm / busy };
      const perTurn = r.cpuMs / r.turns;
      rows.push({
        what: `CPU time per turn, Node, ${mode === 'embedded' ? 'embedded store (agent + store, both in wasm)' : 'HTTP client (server in another process)'}: process.cpuUsage over ${r.turns} turns; the share inside wasm from a --cpu-prof of the same batch`,
        figure: `**${ms(perTurn)}** per turn, of which **${ms(perTurn * data[mode].wasmShare)} in wasm** (${num(100 * data[mode].wasmShare)}% of the sampled busy time; JS ${num((100 * t.js) / busy)}%, GC ${num((100 * t.gc) / busy)}%, V8/other ${num((100 * t.program) / busy)}%)`,
      });
    } finally {
      await server?.close();
    }
  }
  return { rows, data };
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4], process.argv[5]);
  process.exit(0);
}
