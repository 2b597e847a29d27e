#!/usr/bin/env node
// Builds the npm package `neotoma-agent-wasm` into pkg/ (run by `make pkg`).
//
//   1. wasm-pack build --release --target web --mode no-install  (or, with BUILD_WITH=cargo or when
//      wasm-pack is not installed: cargo build --target wasm32-unknown-unknown + wasm-bindgen CLI;
//      both give the same files)
//   2. node_modules/.bin/wasm-opt <flags from wasm-pack.toml> on the .wasm, in place; the
//      wasm-bindgen glue left as it is (minified with rolldown's oxc minifier only with
//      `[glue] minify = true`, which makes Node's uncaught-error output unreadable)
//   3. per-runtime entry files (node/browser/workerd/deno .mjs) + pkg/package.json with `exports`;
//      js/proxy.mjs + js/proxy.d.ts copied in (`exports["./proxy"]`, re-exported by every entry),
//      js/report.mjs + js/report.d.ts likewise (`exports["./report"]`), and the <neotoma-chat>
//      custom element, js/widget.mjs + js/widget.d.ts (`exports["./widget"]`, browser only; it
//      imports ./browser.mjs, the browser entry next to it); js/ai-sdk.mjs + js/ai-sdk.d.ts
//      (`exports["./ai-sdk"]`: the AI SDK middleware; `ai` an optional peer dependency)
//   4. sizes (raw and gzip -9) -> stdout and pkg/sizes.json; fails above the gzip budget
//      (only warns with PKG_SIZE_BUDGET=warn, as `make demo` does)
//   5. node_modules/neotoma-agent-wasm -> ../pkg, so Node tests import('neotoma-agent-wasm')
//
// A test build (`make test-panic`): PKG_FEATURES=<cargo features> PKG_OUT_DIR=<dir> builds the
// same package with those features into <dir>, with no size budget and no node_modules link.
//
// Config: wasm-pack.toml. The package's README is the repository's README.md (npm users get the
// whole documentation), written into pkg/ after wasm-pack.

import { execFileSync } from 'node:child_process';
import {
  copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync,
  statSync, symlinkSync, writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync, constants as zc } from 'node:zlib';
import { parse as parseToml } from 'smol-toml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const cfg = parseToml(readFileSync('wasm-pack.toml', 'utf8'));
const cargo = parseToml(readFileSync('Cargo.toml', 'utf8'));
const { target = 'web', out_name: outName, profile = 'release' } = cfg.build;
const testBuild = Boolean(process.env.PKG_OUT_DIR);
const outDir = process.env.PKG_OUT_DIR || cfg.build.out_dir || 'pkg';
const featureArgs = process.env.PKG_FEATURES ? ['--features', process.env.PKG_FEATURES] : [];
// std rebuilt for size (wasm-pack.toml [std]): the release wasm's std, alloc and core compiled
// with this crate's profile (opt-level "z") and std's `optimize_for_size` feature, instead of the
// prebuilt std (compiled for speed). `-Z build-std` is unstable: on the stable toolchain it needs
// RUSTC_BOOTSTRAP=1, set for this one cargo run only. PKG_BUILD_STD=0 uses the prebuilt std.
const buildStd = cfg.std?.build_std === true && process.env.PKG_BUILD_STD !== '0';
// cargo's `-Z build-std` flags as its config environment variables (wasm-pack would take a `-Z`
// after `--` for the crate path).
const stdEnv = buildStd
  ? {
      env: {
        ...process.env,
        RUSTC_BOOTSTRAP: '1',
        CARGO_UNSTABLE_BUILD_STD: cfg.std.crates.join(','),
        CARGO_UNSTABLE_BUILD_STD_FEATURES: cfg.std.features.join(','),
      },
    }
  : {};
if (!outName) throw new Error('wasm-pack.toml: build.out_name is required');
const crateName = cargo.package.name;
const wasmFile = join(outDir, `${outName}_bg.wasm`);
const glueFile = join(outDir, `${outName}.js`);

const t0 = Date.now();
let tStep = t0;
function step(msg) {
  const now = Date.now();
  console.log(`[build-pkg] ${msg} (${((now - tStep) / 1000).toFixed(1)} s)`);
  tStep = now;
}
function run(cmd, args, opts = {}) {
  console.log(`[build-pkg] $ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { stdio: 'inherit', ...opts });
}
function have(cmd) {
  try {
    execFileSync(cmd, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// --- 0. clear stale output ---------------------------------------------------------------------
const readmePath = join(outDir, 'README.md');
mkdirSync(outDir, { recursive: true });
for (const f of readdirSync(outDir)) rmSync(join(outDir, f), { recursive: true, force: true });

// --- 1. compile + wasm-bindgen ----------------------------------------------------------------
const useCargo = process.env.BUILD_WITH === 'cargo' || !have('wasm-pack');
try {
  if (!useCargo) {
    run('wasm-pack', [
      'build', `--${profile}`, '--target', target, '--mode', 'no-install',
      '--out-dir', outDir, '--out-name', outName, '--', ...featureArgs,
    ], stdEnv);
  } else {
    console.log('[build-pkg] building with cargo + wasm-bindgen (BUILD_WITH=cargo or no wasm-pack)');
    const profArgs = profile === 'dev' ? [] : ['--profile', profile];
    run('cargo', ['build', '--lib', '--target', 'wasm32-unknown-unknown', ...profArgs, ...featureArgs], stdEnv);
    const targetDir = process.env.CARGO_TARGET_DIR || 'target';
    const profDir = profile === 'dev' ? 'debug' : profile;
    const input = join(targetDir, 'wasm32-unknown-unknown', profDir, `${crateName.replaceAll('-', '_')}.wasm`);
    run('wasm-bindgen', ['--target', target, '--out-dir', outDir, '--out-name', outName, input]);
  }
} finally {
  copyFileSync('README.md', readmePath);
}
step(useCargo ? 'cargo build + wasm-bindgen done' : 'wasm-pack build done');

// --- 2. wasm-opt --------------------------------------------------------------------------------
const rawBeforeOpt = statSync(wasmFile).size;
if (cfg.wasm_opt?.enabled !== false) {
  const wasmOpt = join('node_modules', '.bin', 'wasm-opt');
  if (!existsSync(wasmOpt)) {
    throw new Error(`${wasmOpt} not found: run \`make setup\` (npm ci installs the npm binaryen)`);
  }
  run(wasmOpt, [...(cfg.wasm_opt.flags ?? []), wasmFile, '-o', wasmFile]);
  step(`wasm-opt done (${rawBeforeOpt} -> ${statSync(wasmFile).size} bytes)`);
}

// --- 2b. long strings cross into the wasm with one encodeInto -----------------------------------
// wasm-bindgen copies a string's ASCII prefix one charCodeAt at a time before it hands the rest
// to TextEncoder.encodeInto (wasm-bindgen#1470; #1776 asks to re-evaluate it). That loop wins on
// short strings, but a pasted 1 MiB ASCII log spends 1.9 ms in it against 0.05 ms in encodeInto
// (Node 22, V8; the two cross at about 32 characters). From 64 characters on, one encodeInto
// fills the buffer the loop would have, and what did not fit (non-ASCII) goes as wasm-bindgen
// sends it. The patch is matched exactly: a wasm-bindgen whose glue differs fails the build here.
{
  const glueText = readFileSync(glueFile, 'utf8');
  const anchor = '    let len = arg.length;\n    let ptr = malloc(len, 1) >>> 0;\n';
  const fast = `${anchor}
    if (len >= 64) {
        let { read, written } = cachedTextEncoder.encodeInto(arg, getUint8ArrayMemory0().subarray(ptr, ptr + len));
        if (read !== len) {
            arg = arg.slice(read);
            ptr = realloc(ptr, len, len = written + arg.length * 3, 1) >>> 0;
            written += cachedTextEncoder.encodeInto(arg, getUint8ArrayMemory0().subarray(ptr + written, ptr + len)).written;
            ptr = realloc(ptr, len, written, 1) >>> 0;
        }
        WASM_VECTOR_LEN = written;
        return ptr;
    }
`;
  if (glueText.split(anchor).length !== 2) {
    throw new Error(`${glueFile}: passStringToWasm0 is not the one build-pkg.mjs patches (wasm-bindgen changed?)`);
  }
  writeFileSync(glueFile, glueText.replace(anchor, fast));
  step('glue: strings of 64+ characters cross with one encodeInto');
}

// The glue is the one JS file every runtime loads before the wasm. It ships as wasm-bindgen
// writes it (`[glue] minify = false`): an uncaught NeotomaError must print a readable source line
// and stack in Node (see wasm-pack.toml). `minify = true` minifies it (about 35% of its gzip
// size): whitespace, local names and dead code only; export names, the `imports.wbg` keys the
// .wasm links against and class names stay as they are.
if (cfg.glue?.minify === true) {
  const { minifySync } = await import('rolldown/experimental');
  const before = statSync(glueFile).size;
  const { code, errors } = minifySync(`${outName}.js`, readFileSync(glueFile, 'utf8'), {
    module: true,
    compress: true,
    mangle: true,
  });
  if (errors?.length) throw new Error(`minifying ${glueFile}: ${errors.map((e) => e.message).join('; ')}`);
  writeFileSync(glueFile, code);
  step(`glue minified (${before} -> ${code.length} bytes)`);
}

// --- 3. entry files + package.json ------------------------------------------------------------
const glue = `./${outName}.js`;
const wasmRel = `./${outName}_bg.wasm`;
const header = (what) =>
  `// ${what}\n// Generated by scripts/build-pkg.mjs. Importing this module yields ready-to-use exports.\n`;
// The same-origin proxy (js/proxy.mjs, plain JS) ships next to the entries: every entry
// re-exports it, and `neotoma-agent-wasm/proxy` loads it alone, without the wasm.
const proxyFiles = ['proxy.mjs', 'proxy.d.ts'];
const proxyExports = 'createNeotomaProxy, toNodeHandler';
// The turn report (js/report.mjs, plain JS): likewise re-exported by every entry, and
// `neotoma-agent-wasm/report` alone formats a result without loading the wasm.
const reportFiles = ['report.mjs', 'report.d.ts'];
// The IndexedDB outbox storage (js/outbox-indexeddb.mjs): the browser entry makes it the default.
const idbFiles = ['outbox-indexeddb.mjs', 'outbox-indexeddb.d.ts', 'indexeddb.mjs'];
// The chat element (js/widget.mjs, plain JS): `import 'neotoma-agent-wasm/widget'` defines
// <neotoma-chat>; it loads the browser entry (`./browser.mjs`) itself. Not re-exported by the
// entries (it needs a DOM).
const widgetFiles = ['widget.mjs', 'widget.d.ts'];
// The AI SDK middleware (js/ai-sdk.mjs, plain JS): `neotoma-agent-wasm/ai-sdk`. It imports the
// package itself (the runtime's entry) and `ai`, a peer dependency never bundled here.
const aiSdkFiles = ['ai-sdk.mjs', 'ai-sdk.d.ts'];
// What the proxy, the report and the middleware share (js/errors.mjs: the typed input error).
const sharedFiles = ['errors.mjs'];
// The embedded store's storages (js/store-storage.mjs, plain JS): re-exported by every entry,
// for `await EmbeddedStore.open(indexedDbStoreStorage())`.
const storeStorageFiles = ['store-storage.mjs', 'store-storage.d.ts'];
const storeStorageExports = 'indexedDbStoreStorage, memoryStoreStorage';
const reexport =
  `export * from '${glue}';\nexport { default } from '${glue}';\n` +
  `export { ${proxyExports} } from './proxy.mjs';\n` +
  `export { renderTurnReport } from './report.mjs';\n` +
  `export { indexedDbOutboxStorage } from './outbox-indexeddb.mjs';\n` +
  `export { ${storeStorageExports} } from './store-storage.mjs';\n`;
const entrySources = {
  'node.mjs':
    header('Node entry: reads the .wasm next to this file and instantiates it synchronously.') +
    `import { readFileSync } from 'node:fs';\n` +
    `import { initSync } from '${glue}';\n\n` +
    `initSync({ module: readFileSync(new URL('${wasmRel}', import.meta.url)) });\n\n` +
    reexport,
  'browser.mjs':
    header('Browser / generic ESM entry: fetches the .wasm next to this file (bundlers follow new URL(..., import.meta.url)).') +
    `import init, { setDefaultOutboxStorage } from '${glue}';\n` +
    `import { indexedDbOutboxStorage } from './outbox-indexeddb.mjs';\n\n` +
    `await init({ module_or_path: new URL('${wasmRel}', import.meta.url) });\n` +
    `// Pending writes survive a closed tab where IndexedDB exists (opened on first use).\n` +
    `if (typeof indexedDB !== 'undefined') setDefaultOutboxStorage(indexedDbOutboxStorage());\n\n` +
    reexport,
  'workerd.mjs':
    header('Cloudflare Workers (workerd) entry: the .wasm is imported as a compiled WebAssembly.Module (Workers forbid compiling from bytes at run time).') +
    `import wasmModule from '${wasmRel}';\n` +
    `import { initSync } from '${glue}';\n\n` +
    `initSync({ module: wasmModule });\n\n` +
    reexport,
  'deno.mjs':
    header('Deno entry: reads the .wasm with Deno.readFile when installed locally (needs --allow-read of the package dir), fetches it otherwise.') +
    `import init from '${glue}';\n\n` +
    `const wasmUrl = new URL('${wasmRel}', import.meta.url);\n` +
    `await init({\n` +
    `  module_or_path: wasmUrl.protocol === 'file:' ? await Deno.readFile(wasmUrl) : wasmUrl,\n` +
    `});\n\n` +
    reexport,
};
for (const [name, src] of Object.entries(entrySources)) writeFileSync(join(outDir, name), src);
for (const f of storeStorageFiles) copyFileSync(join('js', f), join(outDir, f));
for (const f of [...sharedFiles, ...proxyFiles, ...reportFiles, ...idbFiles, ...widgetFiles, ...aiSdkFiles]) copyFileSync(join('js', f), join(outDir, f));
// The main types re-export the proxy's and the report's, so `import { createNeotomaProxy } from
// "neotoma-agent-wasm"` type-checks ("./proxy.js" resolves to proxy.d.ts; report.d.ts imports the
// result types back from the main .d.ts, a type-only cycle TypeScript resolves).
{
  // Rewritten, not appended: a second build over an unchanged d.ts must not repeat the lines.
  const marker = `\n// The same-origin proxy (neotoma-agent-wasm/proxy), re-exported by every entry.\n`;
  const dts = join(outDir, `${outName}.d.ts`);
  const generated = readFileSync(dts, 'utf8').split(marker)[0];
  // `./glue` is the raw wasm-bindgen module: its types are the generated ones alone (it does
  // not re-export the proxy, the report or the IndexedDB storage).
  writeFileSync(join(outDir, 'glue.d.ts'), generated);
  writeFileSync(
    dts,
    generated +
      marker +
      `export { ${proxyExports} } from './proxy.js';\n` +
      `export type { NeotomaProxyOptions, NeotomaProxyHandler, NodeProxyRequest, NodeProxyResponse } from './proxy.js';\n` +
      `export { renderTurnReport } from './report.js';\n` +
      `export type { RenderTurnReportOptions } from './report.js';\n` +
      `export { indexedDbOutboxStorage } from './outbox-indexeddb.js';\n` +
      `export type { IndexedDbOutboxOptions } from './outbox-indexeddb.js';\n` +
      `export { ${storeStorageExports} } from './store-storage.js';\n` +
      `export type { IndexedDbStoreOptions } from './store-storage.js';\n`,
  );
}

// wasm-pack writes a `.gitignore` containing `*` into the out dir: it would hide the files from
// git-based tooling (and from `npm pack` when there is no `files` list). Drop it.
rmSync(join(outDir, '.gitignore'), { force: true });

const pkgCfg = cfg.package ?? {};
const entries = pkgCfg.entries ?? {};
const conditionOrder = ['types', 'workerd', 'deno', 'browser', 'node', 'import', 'default'];
const dot = {};
for (const cond of conditionOrder) {
  const value = cond === 'types' ? pkgCfg.types : entries[cond];
  if (value) dot[cond] = value;
}
for (const cond of Object.keys(entries)) {
  if (!conditionOrder.includes(cond)) throw new Error(`wasm-pack.toml: unknown entry condition ${cond}`);
}
for (const f of new Set(Object.values(dot))) {
  if (!existsSync(join(outDir, f))) throw new Error(`pkg entry ${f} was not generated`);
}

const outFiles = readdirSync(outDir).filter((f) => !['package.json', 'sizes.json'].includes(f)).sort();
const hasSnippets = outFiles.includes('snippets');
const repo = cargo.package.repository;
const pkgJson = {
  name: pkgCfg.name ?? crateName,
  version: cargo.package.version,
  description: cargo.package.description,
  license: cargo.package.license,
  ...(repo ? { repository: { type: 'git', url: `git+${repo}.git` } } : {}),
  type: 'module',
  files: outFiles,
  main: entries.node ?? entries.default,
  module: entries.browser ?? entries.default,
  types: pkgCfg.types,
  sideEffects: [
    ...new Set(Object.values(entries)),
    // Importing it defines the element: a bundler must not drop `import '…/widget'`.
    './widget.mjs',
    ...(hasSnippets ? ['./snippets/*'] : []),
  ],
  exports: {
    '.': dot,
    // The raw wasm-bindgen glue (call its default `init` yourself) and the .wasm file, for
    // custom loaders and bundlers.
    './glue': { types: './glue.d.ts', default: glue },
    // The proxy alone: no wasm is loaded (a Worker that only proxies stays small).
    './proxy': { types: './proxy.d.ts', default: './proxy.mjs' },
    // The turn report alone: plain JS, no wasm is loaded.
    './report': { types: './report.d.ts', default: './report.mjs' },
    // The <neotoma-chat> custom element (browsers): defines it and loads the browser entry.
    './widget': { types: './widget.d.ts', default: './widget.mjs' },
    // The AI SDK language-model middleware (needs the peer dependency `ai`).
    './ai-sdk': { types: './ai-sdk.d.ts', default: './ai-sdk.mjs' },
    [`./${outName}_bg.wasm`]: wasmRel,
    './package.json': './package.json',
  },
  // Only `neotoma-agent-wasm/ai-sdk` uses it: optional, so no other user installs it.
  peerDependencies: { ai: '^7.0.0' },
  peerDependenciesMeta: { ai: { optional: true } },
  keywords: ['neotoma', 'agent', 'wasm', 'webassembly', 'cloudflare-workers', 'deno', 'ai-sdk'],
};
writeFileSync(join(outDir, 'package.json'), JSON.stringify(pkgJson, null, 2) + '\n');
step('entries + package.json written');

// --- 4. sizes -----------------------------------------------------------------------------------
const gz = (buf) => gzipSync(buf, { level: zc.Z_BEST_COMPRESSION }).length;
const wasmBuf = readFileSync(wasmFile);
const glueBuf = readFileSync(glueFile);
const sizes = {
  wasm: { file: relative(outDir, wasmFile), raw: wasmBuf.length, gzip: gz(wasmBuf), raw_before_wasm_opt: rawBeforeOpt },
  glue: { file: relative(outDir, glueFile), raw: glueBuf.length, gzip: gz(glueBuf) },
};
sizes.total_gzip = sizes.wasm.gzip + sizes.glue.gzip;
sizes.budget_gzip = testBuild ? null : (cfg.size?.gzip_budget_bytes ?? null);
writeFileSync(join(outDir, 'sizes.json'), JSON.stringify(sizes, null, 2) + '\n');
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log('[build-pkg] sizes (gzip = node:zlib level 9):');
console.log(`  ${sizes.wasm.file.padEnd(28)} raw ${String(sizes.wasm.raw).padStart(8)}  gzip ${String(sizes.wasm.gzip).padStart(7)}`);
console.log(`  ${sizes.glue.file.padEnd(28)} raw ${String(sizes.glue.raw).padStart(8)}  gzip ${String(sizes.glue.gzip).padStart(7)}`);
console.log(`  total gzip ${sizes.total_gzip} bytes (${kb(sizes.total_gzip)}), budget ${sizes.budget_gzip ?? 'none'}`);

// --- 5. node_modules/neotoma-agent-wasm -> ../pkg ---------------------------------------------
if (!testBuild) {
  const link = join('node_modules', pkgJson.name);
  mkdirSync('node_modules', { recursive: true });
  let linkOk = false;
  try {
    linkOk = lstatSync(link).isSymbolicLink() && readFileSync(join(link, 'package.json'), 'utf8').includes(`"name": "${pkgJson.name}"`);
  } catch {}
  if (!linkOk) {
    rmSync(link, { recursive: true, force: true });
    symlinkSync(join('..', outDir), link, 'dir');
  }
  console.log(`[build-pkg] ${link} -> ../${outDir}`);
}
console.log(`[build-pkg] done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

if (sizes.budget_gzip != null && sizes.total_gzip > sizes.budget_gzip) {
  const msg = `gzip total ${sizes.total_gzip} bytes exceeds the budget of ${sizes.budget_gzip} bytes (wasm-pack.toml [size])`;
  // `make demo` sets PKG_SIZE_BUDGET=warn: an over-budget package is still worth looking at.
  if (process.env.PKG_SIZE_BUDGET === 'warn') {
    console.warn(`[build-pkg] WARNING: ${msg}`);
  } else {
    console.error(`[build-pkg] FAIL: ${msg}`);
    process.exit(1);
  }
}
