// Size: the .wasm and the glue, raw and gzip -9 (pkg/sizes.json, written by `make pkg`), and where
// the .wasm's bytes go:
//   - its sections (code, data, imports, ...), raw and each gzipped alone;
//   - the code section's function bodies grouped by crate (and this crate's by module), from a
//     names build: wasm-bindgen on the release .wasm in target/wasm32-unknown-unknown/release/,
//     then wasm-opt with the package's flags (wasm-pack.toml) plus -g, which keeps the `name`
//     section; the shipped .wasm has its names stripped. Cached under target/bench/names/ while
//     the input .wasm is unchanged. Its code section is compared with the shipped one: the input
//     may be from another build (e.g. `make test-panic`'s), which the row says.
// No twiggy: scripts/bench/wasm-sections.mjs reads the sections and the names.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync, constants as zc } from 'node:zlib';
import { parse as parseToml } from 'smol-toml';

import { BENCH_DIR, PKG_DIR, REPO_DIR, bytes, num } from './lib.mjs';
import { readWasm } from './wasm-sections.mjs';

const gz = (buf) => gzipSync(buf, { level: zc.Z_BEST_COMPRESSION }).length;
const NAMES_DIR = path.join(BENCH_DIR, 'names');
const INPUT = path.join(REPO_DIR, 'target', 'wasm32-unknown-unknown', 'release', 'neotoma_agent_wasm.wasm');

/** The names build's .wasm path (built or taken from the cache), or throws. */
function namesBuild() {
  if (!existsSync(INPUT)) throw new Error(`no ${path.relative(REPO_DIR, INPUT)} (run make pkg)`);
  const cfg = parseToml(readFileSync(path.join(REPO_DIR, 'wasm-pack.toml'), 'utf8'));
  const flags = [...cfg.wasm_opt.flags, '-g'];
  const st = statSync(INPUT);
  const key = JSON.stringify({ size: st.size, mtime: st.mtimeMs, flags });
  const out = path.join(NAMES_DIR, 'names.wasm');
  const keyFile = path.join(NAMES_DIR, 'key.json');
  if (existsSync(out) && existsSync(keyFile) && readFileSync(keyFile, 'utf8') === key) return { file: out, cached: true };
  mkdirSync(NAMES_DIR, { recursive: true });
  execFileSync('wasm-bindgen', ['--target', 'web', '--keep-debug', '--out-dir', NAMES_DIR, '--out-name', 'names', INPUT], { stdio: 'inherit' });
  execFileSync(path.join(REPO_DIR, 'node_modules', '.bin', 'wasm-opt'), [...flags, path.join(NAMES_DIR, 'names_bg.wasm'), '-o', out], { stdio: 'inherit' });
  writeFileSync(keyFile, key);
  return { file: out, cached: false };
}

/** The crate a (v0-demangled) function name belongs to, and for this crate its top module. */
export function crateOf(name) {
  if (!name) return ['(unnamed)', null];
  // the first path segment with a crate hash: `<crate[0123abcd]::path::Type as …>::f`, `crate[…]::f`
  const m = /([A-Za-z_][A-Za-z0-9_]*)\[[0-9a-f]{6,}\]((?:::[A-Za-z_][A-Za-z0-9_]*)?)/.exec(name);
  if (m) return [m[1], m[2] ? m[2].slice(2) : null];
  // legacy-mangled or plain symbols
  const plain = /^([A-Za-z_][A-Za-z0-9_]*)::/.exec(name);
  if (plain) return [plain[1], null];
  // methods of primitive types (`<str>::to_lowercase`, `<char>::is_uppercase`, `<[u8]>::starts_with`)
  if (/^<(?:str|char|bool|[iuf](?:8|16|32|64|128|size)|\[[^\]]+\])>::/.test(name)) return ['core', null];
  // wasm-bindgen's generated exports and shims (`neotomaagent_turn externref shim`, `__wbindgen_malloc`)
  if (/^(fmin|fmax|memcpy|memmove|memset|memcmp|__rustc|__rust_)/.test(name)) return ['compiler_builtins', null];
  // wasm-bindgen's exports under their JS names and its shims (`neotomaagent_turn externref shim`)
  if (/shim|^(__wbg|__wbindgen|__externref)/.test(name) || !name.includes('::')) return ['(wasm-bindgen exports and shims)', null];
  return [`(other: ${name.slice(0, 30)}…)`, null];
}

export async function run() {
  const rows = [];
  const data = {};
  const sizesFile = path.join(PKG_DIR, 'sizes.json');
  if (!existsSync(sizesFile)) return { rows: [{ what: 'package sizes', figure: 'n/a (no pkg/sizes.json: run make pkg)' }], data };
  const sizes = JSON.parse(readFileSync(sizesFile, 'utf8'));
  data.sizes = sizes;
  rows.push(
    { what: '`.wasm` (pkg/sizes.json)', figure: `${bytes(sizes.wasm.raw)} raw, **${bytes(sizes.wasm.gzip)} gzip** (${bytes(sizes.wasm.raw_before_wasm_opt)} before wasm-opt)` },
    { what: 'JS glue', figure: `${bytes(sizes.glue.raw)} raw, ${bytes(sizes.glue.gzip)} gzip` },
    { what: 'package total (wasm + glue), gzip', figure: `**${bytes(sizes.total_gzip)}** (budget ${bytes(sizes.budget_gzip)})` },
  );

  const shippedBuf = readFileSync(path.join(PKG_DIR, sizes.wasm.file));
  const shipped = readWasm(shippedBuf);
  data.sections = shipped.sections;
  // each section's bytes gzipped alone
  let pos = 8;
  const sectionGzip = [];
  for (const s of shipped.sections) {
    sectionGzip.push(gz(shippedBuf.subarray(pos, pos + s.size)));
    pos += s.size;
  }
  const big = shipped.sections.map((s, i) => ({ ...s, gzip: sectionGzip[i] })).sort((a, b) => b.size - a.size);
  const rest = big.slice(3);
  rows.push({
    what: '`.wasm` by section (raw / each gzipped alone)',
    figure:
      big
        .slice(0, 3)
        .map((s) => `${s.name} ${num(s.size)} / ${num(s.gzip)}`)
        .join(', ') + `, the ${rest.length} others ${num(rest.reduce((n, s) => n + s.size, 0))} / ${num(rest.reduce((n, s) => n + s.gzip, 0))} B`,
  });

  try {
    const t0 = performance.now();
    const { file, cached } = namesBuild();
    const names = readWasm(readFileSync(file));
    const code = (w) => w.sections.find((s) => s.name === 'code')?.size ?? 0;
    const byCrate = new Map();
    const byModule = new Map();
    let total = 0;
    for (const b of names.bodies) {
      const [crate, mod] = crateOf(names.names.get(b.index));
      byCrate.set(crate, (byCrate.get(crate) ?? 0) + b.size);
      if (crate === 'neotoma_agent_wasm') byModule.set(mod ?? '(root)', (byModule.get(mod ?? '(root)') ?? 0) + b.size);
      total += b.size;
    }
    const sorted = [...byCrate].sort((a, b) => b[1] - a[1]);
    const mods = [...byModule].sort((a, b) => b[1] - a[1]);
    const pct = (n) => `${((100 * n) / total).toFixed(1)}%`;
    const diff = code(names) - code(shipped);
    data.breakdown = { namesBuild: path.relative(REPO_DIR, file), cached, seconds: (performance.now() - t0) / 1000, codeNamesBuild: code(names), codeShipped: code(shipped), functions: names.bodies.length, shippedFunctions: shipped.bodies.length, byCrate: Object.fromEntries(sorted), ourModules: Object.fromEntries(mods) };
    const top = sorted.slice(0, 10);
    const others = sorted.slice(10);
    rows.push({
      what:
        `code by crate: function bodies of a names build (${num(names.bodies.length)} functions, code ${num(code(names))} B; shipped: ${num(shipped.bodies.length)}, ${num(code(shipped))} B` +
        (Math.abs(diff) > 0.02 * code(shipped)
          ? ': **another build than pkg/, rebuild with make pkg**)'
          : names.bodies.length !== shipped.bodies.length
            ? `: the input is another build than pkg/'s (e.g. \`make test-panic\`'s), ${Math.abs(diff)} B apart)`
            : ')'),
      figure:
        top.map(([c, n]) => `${c} ${num(n)} (${pct(n)})`).join(', ') +
        (others.length ? `, ${others.length} more ${num(others.reduce((n, [, v]) => n + v, 0))} (${pct(others.reduce((n, [, v]) => n + v, 0))})` : ''),
    });
    rows.push({
      what: 'this crate (neotoma_agent_wasm) by module, raw code bytes',
      figure: mods.map(([m, n]) => `${m} ${num(n)}`).join(', '),
    });
  } catch (e) {
    rows.push({ what: 'code by crate', figure: `n/a (${String(e.message).split('\n')[0]})` });
  }
  return { rows, data };
}
