// What a user sees when a NeotomaError is not caught: each script below runs in its own child
// process (Node from the repo root, importing the package by name; Deno on deno.mjs), and the test
// reads what the runtime printed on stderr. It must hold the message, the `code` (and `status`
// where there is one), and a stack whose frames point at readable lines of the package, with no
// line longer than LONGEST characters. Node prints the source line of the throw site above the
// stack: with a minified glue that line was the whole 15 KB glue file (issue 10).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { DENO_BIN, PKG_DIR, REPO_DIR, childEnv, describeRun, run, runNode } from '../packaging/helpers.mjs';

const LONGEST = 500;
const GLUE = path.join(PKG_DIR, 'neotoma_agent_wasm.js');

/** The `at …` frames of a printed stack that point into a file: `{ fn, file, line, column }`. */
function fileFrames(stderr) {
  const frames = [];
  // Node ends the last frame with ` {` when the error's own properties follow
  for (const m of stderr.matchAll(/^\s+at (?:(.+?) \()?(file:\/\/\/[^\s)]+?):(\d+):(\d+)\)?(?: \{)?$/gm)) {
    frames.push({ fn: m[1] ?? '', file: m[2], line: Number(m[3]), column: Number(m[4]) });
  }
  return frames;
}

/**
 * Checks what a runtime printed for an uncaught NeotomaError: the child failed, no line is longer
 * than LONGEST, the message and `printed` (e.g. `code: 'INVALID_INPUT'`) are there, a frame named
 * `frame` (a name or a RegExp) points into the glue, and every frame into the package points at a short, real line.
 * Returns the package frames.
 */
async function assertReadable(what, r, { message, printed = [], frame }) {
  const detail = describeRun(what, r);
  assert.equal(r.code, 1, `the uncaught error ends the process with exit code 1\n${detail}`);
  const long = r.stderr.split('\n').filter((l) => l.length > LONGEST);
  assert.deepEqual(long.map((l) => `${l.length} chars: ${l.slice(0, 120)}…`), [], `no stderr line over ${LONGEST} characters`);
  assert.ok(r.stderr.includes(message), `the message is printed\n${detail}`);
  for (const p of printed) assert.ok(r.stderr.includes(p), `${p} is printed\n${detail}`);

  const frames = fileFrames(r.stderr);
  const inPackage = frames.filter((f) => fileURLToPath(f.file).startsWith(PKG_DIR + path.sep));
  const named = (fn) => (typeof frame === 'string' ? fn === frame : frame.test(fn));
  assert.ok(
    inPackage.some((f) => named(f.fn) && f.file === pathToFileURL(GLUE).href),
    `a frame \`${frame}\` in the glue\n${detail}`,
  );
  for (const f of inPackage) {
    const lines = (await readFile(fileURLToPath(f.file), 'utf8')).split('\n');
    const line = lines[f.line - 1];
    assert.ok(line !== undefined && f.column <= line.length + 1, `${f.fn} at ${f.file}:${f.line}:${f.column} is a real position`);
    assert.ok(line.length <= LONGEST, `${f.fn} at ${f.file}:${f.line} points at a ${line.length}-character line`);
  }
  return inPackage;
}

/**
 * Node prints the throw site first: `file:///…:LINE`, then that source line and a caret. Checks
 * that it is a line of the package and is printed as it is in the file.
 */
async function assertThrowSite(r) {
  const [where, source, caret] = r.stderr.split('\n');
  const m = /^(file:\/\/\/\S+):(\d+)$/.exec(where);
  assert.ok(m, `stderr starts with the throw site, file:line\n${r.stderr.slice(0, 600)}`);
  assert.ok(fileURLToPath(m[1]).startsWith(PKG_DIR + path.sep), `the throw site is in the package: ${m[1]}`);
  const line = (await readFile(fileURLToPath(m[1]), 'utf8')).split('\n')[Number(m[2]) - 1];
  assert.equal(source, line, 'the printed source line is that line of the file');
  assert.match(caret, /^\s*\^+\s*$/);
}

const IMPORT_AGENT = `import { NeotomaAgent } from 'neotoma-agent-wasm';\n`;

// Each script ends on an uncaught NeotomaError. `caller`: the script's own line:column, which the
// stack shows after the package's frames (absent when the error is raised after an await).
const NODE_CASES = [
  {
    what: '`new NeotomaAgent({})` at the top of a script',
    source: `${IMPORT_AGENT}new NeotomaAgent({});\n`,
    message: 'NeotomaError]: conversationId is required',
    printed: ["code: 'INVALID_INPUT'"],
    frame: 'new NeotomaAgent',
    caller: '2:1',
  },
  {
    what: 'a rejected top-level `await agent.turn(42, …)`',
    source: `${IMPORT_AGENT}const agent = new NeotomaAgent({ conversationId: 'c' });\nawait agent.turn(42, () => 'x');\n`,
    message: 'userMessage must be a string',
    printed: ["code: 'INVALID_INPUT'"],
    frame: 'NeotomaAgent.turn',
    caller: '3:13',
  },
  {
    // a turn id reused with other content on the default embedded store: raised deep in the turn
    what: 'an embedded-store refusal in a turn (says the embedded store refused, with code and status)',
    source:
      `${IMPORT_AGENT}const agent = new NeotomaAgent({ conversationId: 'c', retry: false, outbox: false });\n` +
      `await agent.turn('one', () => 'x', { turnId: 't1' });\n` +
      `await agent.turn('two', () => 'x', { turnId: 't1' });\n`,
    message: 'NeotomaError]: the embedded store refused /store (400 ERR_IDEMPOTENCY_MISMATCH): ',
    printed: ["code: 'IDEMPOTENCY_MISMATCH'", 'status: 400'],
    frame: /^wasm_bindgen/, // after an await: the glue's callback into the wasm, no caller frame
    absent: 'Neotoma answered',
  },
  {
    what: 'EmbeddedStore.store() with a body Neotoma refuses',
    source: `import { EmbeddedStore } from 'neotoma-agent-wasm';\nawait new EmbeddedStore().store({ entities: 'x' });\n`,
    message: 'NeotomaError]: the embedded store refused /store (400 VALIDATION_INVALID_FORMAT): ',
    printed: ["code: 'NEOTOMA_HTTP'", 'status: 400', "error_code: 'VALIDATION_INVALID_FORMAT'"],
    frame: 'EmbeddedStore.store',
  },
  {
    what: 'the raw glue (`neotoma-agent-wasm/glue`, initialised by hand)',
    source:
      `import { readFileSync } from 'node:fs';\n` +
      `import { initSync, NeotomaAgent } from 'neotoma-agent-wasm/glue';\n` +
      `initSync({ module: readFileSync(new URL(import.meta.resolve('neotoma-agent-wasm/neotoma_agent_wasm_bg.wasm'))) });\n` +
      `new NeotomaAgent({ conversationId: 42 });\n`,
    message: 'conversationId must be a string',
    printed: ["code: 'INVALID_INPUT'"],
    frame: 'new NeotomaAgent',
  },
];

for (const c of NODE_CASES) {
  test(`Node: ${c.what}, uncaught, prints the message, code and a readable stack`, { timeout: 30_000 }, async () => {
    const r = await runNode(c.source);
    await assertReadable(c.what, r, { message: c.message, printed: c.printed, frame: c.frame });
    await assertThrowSite(r);
    // The caller's frame; when it is the last one printed (Node's ten frames), the error's own
    // properties follow it on that line (` {`).
    if (c.caller) assert.match(r.stderr, new RegExp(`^\\s+at file:///.*\\[eval1\\]:${c.caller}(?: \\{)?$`, 'm'), r.stderr);
    if (c.absent) assert.ok(!r.stderr.includes(c.absent), r.stderr);
  });
}

test('Deno: an uncaught NeotomaError from deno.mjs prints the message and a readable stack', { timeout: 60_000 }, async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'neotoma-uncaught-'));
  try {
    const script = path.join(dir, 'main.mjs');
    const entry = pathToFileURL(path.join(PKG_DIR, 'deno.mjs')).href;
    await writeFile(script, `import { NeotomaAgent } from '${entry}';\nnew NeotomaAgent({});\n`);
    const r = await run(DENO_BIN, ['run', '--no-config', `--allow-read=${PKG_DIR}`, script], {
      cwd: dir,
      env: childEnv({ DENO_DIR: path.join(dir, '.deno-dir') }),
      timeoutMs: 50_000,
    });
    // Deno prints the message and the stack (not the error's own properties such as `code`)
    await assertReadable('deno run', r, { message: 'NeotomaError: conversationId is required', frame: 'new NeotomaAgent' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test(`every JS file the package ships has lines of at most ${LONGEST} characters (the entries Node cannot run too)`, async () => {
  const pkg = JSON.parse(await readFile(path.join(PKG_DIR, 'package.json'), 'utf8'));
  const js = (await readdir(PKG_DIR)).filter((f) => /\.(m?js)$/.test(f));
  // the entries of every runtime (browser.mjs, workerd.mjs, deno.mjs, node.mjs), the glue, proxy.mjs…
  for (const entry of new Set([...Object.values(pkg.exports['.']), pkg.exports['./glue'].default, pkg.exports['./proxy'].default])) {
    if (/\.m?js$/.test(entry)) assert.ok(js.includes(entry.slice(2)), `${entry} is shipped`);
  }
  for (const f of js) {
    assert.ok(pkg.files.includes(f), `${f} is in package.json files`);
    const lines = (await readFile(path.join(PKG_DIR, f), 'utf8')).split('\n');
    const longest = Math.max(...lines.map((l) => l.length));
    assert.ok(longest <= LONGEST, `${f}: a line of ${longest} characters`);
  }
});
