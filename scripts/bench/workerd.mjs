// The built package in workerd (Miniflare 3 from node_modules), laid out as the edge test does
// (tests/node/edge-worker.test.mjs): the bench Worker, a module named 'neotoma-agent-wasm'
// re-exporting the package's workerd entry (exports["."].workerd), and the files it imports,
// the .wasm as a compiled module.

import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { Miniflare } from 'miniflare';
import { relativeImports } from '../../tests/packaging/helpers.mjs';
import { PKG_DIR, REPO_DIR } from './lib.mjs';

const WORKER_DIR = path.join(REPO_DIR, 'scripts', 'bench', 'worker');
const PACKAGE_NAME = 'neotoma-agent-wasm';
export const COMPATIBILITY_DATE = '2024-09-23';

/** The modules of the bench Worker with the package (`withPackage`), or of a Worker that only answers "ok". */
export async function benchModules({ withPackage = true } = {}) {
  if (!withPackage) {
    return [{ type: 'ESModule', path: path.join(WORKER_DIR, 'empty.mjs'), contents: "export default { fetch() { return new Response('ok'); } };\n" }];
  }
  const pkgJson = JSON.parse(await readFile(path.join(PKG_DIR, 'package.json'), 'utf8'));
  const entry = pkgJson.exports['.'].workerd;
  const installedDir = path.join(WORKER_DIR, 'node_modules', PACKAGE_NAME);
  const entryName = path.posix.join('node_modules', PACKAGE_NAME, entry);
  const pkgFiles = await relativeImports(path.join(PKG_DIR, entry));
  return [
    { type: 'ESModule', path: path.join(WORKER_DIR, 'bench-worker.mjs') },
    { type: 'ESModule', path: path.join(WORKER_DIR, PACKAGE_NAME), contents: `export * from './${entryName}';\nexport { default } from './${entryName}';\n` },
    ...(await Promise.all(
      pkgFiles.map(async (p) => ({
        type: p.endsWith('.wasm') ? 'CompiledWasm' : 'ESModule',
        path: path.join(installedDir, path.relative(PKG_DIR, p)),
        contents: await readFile(p),
      })),
    )),
  ];
}

/** A started Miniflare (workerd) running the bench Worker: `{ mf, get(path) -> {status, text}, dispose() }`. */
export async function startWorkerd({ withPackage = true, bindings = {} } = {}) {
  let logs = '';
  const mf = new Miniflare({
    modulesRoot: WORKER_DIR,
    modules: await benchModules({ withPackage }),
    compatibilityDate: COMPATIBILITY_DATE,
    bindings,
    handleRuntimeStdio(stdout, stderr) {
      stdout.on('data', (d) => (logs += d));
      stderr.on('data', (d) => (logs += d));
    },
  });
  try {
    await mf.ready;
  } catch (e) {
    throw new Error(`workerd did not start: ${e.message}\n${logs}`);
  }
  return {
    mf,
    logs: () => logs,
    async get(p) {
      const res = await mf.dispatchFetch(`http://localhost${p}`, { headers: { 'accept-encoding': 'identity' } });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`workerd ${p} -> ${res.status}: ${text.slice(0, 300)}\n${logs.slice(-2000)}`);
      return text;
    },
    dispose: () => mf.dispose(),
  };
}
