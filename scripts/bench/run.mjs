#!/usr/bin/env node
// `make bench`: every figure of README's "Measured" table in one run, printed as one table and
// written to target/bench/latest.json (and latest.md, the same table as markdown).
//
//   node scripts/bench/run.mjs [--only part,part,...] [--readme]
//   (--only: those parts, written to target/bench/partial.json and partial.md instead;
//    --readme: also puts the table into README.md, between its bench-table markers)
//
// Parts (scripts/bench/<part>.mjs, each run in a fresh Node process by scripts/bench/part.mjs):
//   round-trips  requests and round trips before/after the LLM callback, 20 ms per request
//   throughput   turns per second, 1/10/100 conversations in flight, Node and workerd
//   cpu          CPU time per turn and its share inside the wasm module
//   startup      module instantiation and the first turn, Node and workerd, cold
//   scaling      turn and lookup time on an embedded store of 100 to 100,000 entities
//   memory       wasm linear memory over 1,000 turns, embedded and HTTP, and a 1 MiB message
//   extraction   extractIdentifiers in wasm on 1 KB / 100 KB / 1 MiB, typical and adversarial
//   size         .wasm and glue sizes and where the bytes go
//   turns        turn latency one at a time (embedded, HTTP, replay, crowding)
// and the other benches when they exist (their rows say n/a otherwise):
//   cargo run --release --example bench_extract -- --json   (native extraction)
//   cargo run --release --example bench_store -- --json     (native embedded-store scaling)
//   node scripts/bench/store-wasm.mjs --json                 (embedded-store scaling in wasm)
// (`--only ext` runs just those; they run with `--only extraction` or `--only scaling` too.)
// Needs the built package (pkg/: `make pkg`); `make bench` builds it when it is missing.

import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { BENCH_DIR, REPO_DIR, machine } from './lib.mjs';
import { externalRows, renderTable } from './table.mjs';

// Each of the other benches gets this long (the whole of `make bench` should stay under 5 minutes
// on the 2-core machine).
const EXTERNAL_TIMEOUT_MS = Number(process.env.BENCH_EXTERNAL_TIMEOUT_S ?? 120) * 1000;
const PARTS = ['round-trips', 'throughput', 'cpu', 'startup', 'scaling', 'memory', 'extraction', 'size', 'turns'];
const argOnly = process.argv.indexOf('--only');
const only = argOnly > 0 ? process.argv[argOnly + 1].split(',') : null;
const wanted = (p) => !only || only.includes(p);

const SECTIONS = [
  ['Round trips on the critical path (every request held 20 ms by the server)', ['round-trips']],
  ['Throughput', ['throughput', 'cpu']],
  ['Start-up (cold)', ['startup']],
  ['Scaling (embedded store)', ['scaling', 'ext:bench_store', 'ext:bench-store-wasm']],
  ['Memory', ['memory']],
  ['Extraction', ['ext:bench_extract', 'extraction']],
  ['Size', ['size']],
  ['Turn latency, one at a time', ['turns']],
];

function sh(cmd, args, { timeoutMs = 180_000 } = {}) {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: REPO_DIR, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 << 20, encoding: 'utf8' }, (err, stdout, stderr) =>
      resolve({
        ok: !err,
        why: !err ? null : err.killed ? `timed out after ${timeoutMs / 1000} s` : typeof err.code === 'number' ? `exit ${err.code}` : String(err.message).split('\n')[0],
        stdout,
        stderr,
      }),
    );
  });
}

/** The first JSON value in a command's output (the whole output, or its last line that parses). */
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    for (const line of text.trim().split('\n').reverse()) {
      try {
        const v = JSON.parse(line);
        if (v && typeof v === 'object') return v;
      } catch {
        /* not this line */
      }
    }
  }
  return null;
}

async function externalBenches() {
  const out = {};
  const examples = ['bench_extract', 'bench_store'].filter((e) => existsSync(path.join(REPO_DIR, 'examples', `${e}.rs`)));
  const wantExt = wanted('ext') || wanted('extraction') || wanted('scaling');
  if (!wantExt) return out;
  // each example on its own: one that does not build leaves the other's rows
  const built = {};
  const t0 = performance.now();
  for (const e of examples) {
    process.stderr.write(`[bench] cargo build --release --example ${e}\n`);
    built[e] = await sh('cargo', ['build', '--release', '--quiet', '--example', e], { timeoutMs: 240_000 });
    if (!built[e].ok) process.stderr.write(built[e].stderr.slice(-3000));
  }
  out.cargoBuildSeconds = (performance.now() - t0) / 1000;
  for (const [key, label, file, cmd] of [
    ['ext:bench_extract', 'native (`cargo run --release --example bench_extract -- --json`)', 'examples/bench_extract.rs', () => [path.join(REPO_DIR, 'target', 'release', 'examples', 'bench_extract'), ['--json']]],
    ['ext:bench_store', 'native (`cargo run --release --example bench_store -- --json`)', 'examples/bench_store.rs', () => [path.join(REPO_DIR, 'target', 'release', 'examples', 'bench_store'), ['--json']]],
    ['ext:bench-store-wasm', 'wasm (`node scripts/bench/store-wasm.mjs --json --open-max 10000`)', 'scripts/bench/store-wasm.mjs', () => [process.execPath, [path.join(REPO_DIR, 'scripts', 'bench', 'store-wasm.mjs'), '--json', '--open-max', '10000']]],
  ]) {
    if (!existsSync(path.join(REPO_DIR, file))) {
      out[key] = { rows: [{ what: label, figure: `n/a (not built yet: no ${file})` }] };
      continue;
    }
    if (file.endsWith('.rs') && !built[path.basename(file, '.rs')]?.ok) {
      out[key] = { rows: [{ what: label, figure: 'n/a (cargo build failed)' }] };
      continue;
    }
    const [c, a] = cmd();
    process.stderr.write(`[bench] ${path.relative(REPO_DIR, c) || c} ${a.map((x) => path.relative(REPO_DIR, x) || x).join(' ')}\n`);
    const t0 = performance.now();
    const r = await sh(c, a, { timeoutMs: EXTERNAL_TIMEOUT_MS });
    const json = r.ok ? parseJson(r.stdout) : null;
    const seconds = (performance.now() - t0) / 1000;
    if (!json) {
      out[key] = { seconds, rows: [{ what: label, figure: r.ok ? 'n/a (not built yet: no JSON output for --json)' : `n/a (${r.why})` }] };
      continue;
    }
    const rows = externalRows(json, label);
    out[key] = { seconds, data: json, rows: rows.length ? rows : [{ what: label, figure: 'n/a (empty JSON)' }] };
  }
  return out;
}

function runPart(name) {
  const file = path.join(BENCH_DIR, 'parts', `${name}.json`);
  rmSync(file, { force: true });
  process.stderr.write(`[bench] ${name}\n`);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(REPO_DIR, 'scripts', 'bench', 'part.mjs'), name, file], { cwd: REPO_DIR, stdio: ['ignore', 'inherit', 'inherit'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0 && existsSync(file)) return resolve(JSON.parse(readFileSync(file, 'utf8')));
      const why = signal ? `killed (${signal})` : `exit ${code}`;
      resolve({ seconds: (performance.now() - t0) / 1000, rows: [{ what: name, figure: `n/a (the part failed: ${why}; run node scripts/bench/part.mjs ${name})` }] });
    });
  });
}

async function main() {
  const t0 = performance.now();
  mkdirSync(path.join(BENCH_DIR, 'parts'), { recursive: true });
  if (!existsSync(path.join(REPO_DIR, 'pkg', 'package.json'))) throw new Error('no pkg/: run make pkg (make bench does)');
  const m = machine();
  const results = await externalBenches();
  for (const p of PARTS) if (wanted(p)) results[p] = await runPart(p);
  const sections = SECTIONS.map(([title, keys]) => ({
    title,
    rows: keys.flatMap((k) => results[k]?.rows ?? []),
  })).filter((s) => s.rows.length);
  const seconds = (performance.now() - t0) / 1000;
  const table = renderTable(m, sections);
  const doc = {
    machine: m,
    seconds,
    command: 'make bench',
    sections,
    parts: Object.fromEntries(Object.entries(results).map(([k, v]) => [k, typeof v === 'object' ? { seconds: v.seconds, data: v.data } : v])),
  };
  // a run of some parts does not replace the last whole run
  const name = only ? 'partial' : 'latest';
  writeFileSync(path.join(BENCH_DIR, `${name}.json`), JSON.stringify(doc, null, 2));
  writeFileSync(path.join(BENCH_DIR, `${name}.md`), `${table}\n`);
  console.log(`\n${table}\n`);
  if (process.argv.includes('--readme')) {
    if (only) throw new Error('--readme takes the whole run, not --only');
    // README's "Measured" section carries the table between these markers
    const readme = path.join(REPO_DIR, 'README.md');
    const text = readFileSync(readme, 'utf8');
    const start = '<!-- bench-table:start -->';
    const end = '<!-- bench-table:end -->';
    const a = text.indexOf(start);
    const b = text.indexOf(end);
    if (a < 0 || b < a) throw new Error(`README.md has no ${start} ... ${end} markers`);
    writeFileSync(readme, `${text.slice(0, a + start.length)}\n${table}\n${text.slice(b)}`);
    console.log('README.md: the table between the bench-table markers replaced');
  }
  const perPart = Object.entries(results)
    .filter(([, v]) => v && typeof v === 'object' && Number.isFinite(v.seconds))
    .map(([k, v]) => `${k} ${v.seconds.toFixed(0)} s`);
  if (Number.isFinite(results.cargoBuildSeconds)) perPart.unshift(`cargo build ${results.cargoBuildSeconds.toFixed(0)} s`);
  console.log(`make bench: ${seconds.toFixed(0)} s (${perPart.join(', ')}); written to target/bench/${name}.json and target/bench/${name}.md`);
}

main().catch((e) => {
  console.error(e?.stack ?? e);
  process.exit(1);
});
