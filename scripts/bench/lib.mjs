// Shared helpers of the bench parts (scripts/bench/*.mjs): statistics, formatting, the machine,
// the local Neotoma-shaped server in a child process, seeding.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BENCH_DIR = path.join(REPO_DIR, 'target', 'bench');
export const PKG_DIR = path.join(REPO_DIR, 'pkg');

/** `{ n, median, p90, min, max, mean }` of a list of numbers (nearest-rank quantiles). */
export function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  if (s.length === 0) return { n: 0, median: NaN, p90: NaN, min: NaN, max: NaN, mean: NaN };
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, median: at(0.5), p90: at(0.9), min: s[0], max: s.at(-1), mean: s.reduce((a, b) => a + b, 0) / s.length };
}

/** A duration in ms, with precision that suits its size. */
export function ms(v) {
  if (!Number.isFinite(v)) return 'n/a';
  if (v >= 100) return `${v.toFixed(0)} ms`;
  if (v >= 10) return `${v.toFixed(1)} ms`;
  if (v >= 1) return `${v.toFixed(2)} ms`;
  return `${(v * 1000).toFixed(0)} µs`;
}

/** "median X, p90 Y (n=N)". */
export function medP90(st) {
  return `median ${ms(st.median)}, p90 ${ms(st.p90)} (n=${st.n})`;
}

export function bytes(n) {
  if (!Number.isFinite(n)) return 'n/a';
  return `${Math.round(n).toLocaleString('en-US')} B`;
}

export function mib(n) {
  return `${(n / (1 << 20)).toFixed(2)} MiB`;
}

export function num(n, digits = 0) {
  return Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** The machine the figures come from. */
export function machine() {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) cpu = m[1].trim();
  } catch {
    /* not Linux */
  }
  return {
    cpu,
    cores: os.availableParallelism?.() ?? os.cpus().length,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}

/**
 * The local Neotoma-shaped server (tests/server/neotoma-server.mjs) in a child Node process, so
 * that its work (and its embedded store's wasm memory) is not counted in this process:
 * `{ url, token, close() }`.
 */
export async function childServer() {
  const token = `bench-${randomBytes(12).toString('hex')}`;
  const script = path.join(REPO_DIR, 'tests', 'server', 'neotoma-server.mjs');
  const child = spawn(process.execPath, [script, '--port', '0', '--token', token], { stdio: ['ignore', 'pipe', 'pipe'], cwd: REPO_DIR });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 15_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^(http:\/\/\S+)\n/m.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
  return {
    url,
    token,
    pid: child.pid,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One authorised JSON call to a server `{ url, token }`; resolves the parsed body (throws unless 2xx). */
export async function post(server, p, body) {
  const res = await fetch(server.url + p, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${p} -> ${res.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

/** The eight entities the round-trip messages name, in the order the messages name them. */
export const NAMED = [
  { entity_type: 'person', name: 'Sarah Chen' },
  { entity_type: 'company', name: 'Acme Corp' },
  { entity_type: 'project', name: 'Project Falcon' },
  { entity_type: 'company', name: 'Globex' },
  { entity_type: 'company', name: 'Initech' },
  { entity_type: 'company', name: 'Umbrella Health' },
  { entity_type: 'company', name: 'Hooli' },
  { entity_type: 'company', name: 'Vandelay Industries' },
];

/** A message naming the first `k` of NAMED (0, 1, 4 or 8). */
export function messageNaming(k) {
  if (k === 0) return 'what should we do next about the rollout?';
  const names = NAMED.slice(0, k).map((e) => e.name);
  if (k === 1) return `What did ${names[0]} say about the rollout?`;
  return `Ask ${names.slice(0, -1).join(', ')} and ${names.at(-1)} about the rollout.`;
}

/** Entities named like people and companies, deterministic, for a store of `count` entities. */
export function* syntheticEntities(count, start = 0) {
  const first = ['Ada', 'Bo', 'Cyra', 'Dario', 'Elif', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kemal', 'Lena', 'Mateo', 'Nia', 'Oskar', 'Priya'];
  const syl = ['var', 'lin', 'dor', 'mek', 'sa', 'tor', 'qui', 'ben', 'ra', 'vo', 'zel', 'han', 'pe', 'lu', 'gor', 'fin'];
  const kinds = ['Labs', 'Corp', 'Systems', 'Partners', 'Foods', 'Health', 'Logistics', 'Media'];
  for (let i = start; i < start + count; i++) {
    let x = i * 2654435761 >>> 0;
    const word = () => {
      const a = syl[x & 15];
      const b = syl[(x >>> 4) & 15];
      const c = syl[(x >>> 8) & 15];
      x = Math.imul(x ^ (x >>> 13), 0x5bd1e995) >>> 0;
      return a[0].toUpperCase() + a.slice(1) + b + c;
    };
    if (i % 2 === 0) yield { entity_type: 'person', name: `${first[i % 16]} ${word()} ${i}` };
    else yield { entity_type: 'company', name: `${word()} ${kinds[(i >>> 1) % 8]} ${i}` };
  }
}

/** Puts `count` synthetic entities into an EmbeddedStore (or anything with `store(body)`), 1,000 per call. */
export async function seedSynthetic(store, count, start = 0) {
  let batch = [];
  for (const e of syntheticEntities(count, start)) {
    batch.push(e);
    if (batch.length === 1000) {
      await store.store({ entities: batch, idempotency_key: `synthetic-${start}-${e.name}` });
      batch = [];
    }
  }
  if (batch.length) await store.store({ entities: batch, idempotency_key: `synthetic-${start}-${batch[0].name}` });
}

/** The trivial LLM callback the turn benches use. */
export const llm = (_m, ctx) => `Noted: ${ctx.retrieved.map((e) => e.snapshot.name).join(', ')}`;
