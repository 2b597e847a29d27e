// Helpers for the packaging tests (tests/node/packaging*.test.mjs): pack the built `pkg/` with npm,
// install the tarball into a temp copy of a fixture project, run child processes with a bound, and
// check what a fixture's two-turn conversation stored on the local Neotoma-shaped server.
// Everything happens offline (the tarball has no dependencies) under one temp dir per test run.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { entitySnapshot, related, rowsByKey, turnIndex } from '../server/harness.mjs';

export const FIXTURES_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_DIR = path.resolve(FIXTURES_DIR, '..', '..');
export const PKG_DIR = path.join(REPO_DIR, 'pkg');
export const PACKAGE_NAME = 'neotoma-agent-wasm';
export const DENO_BIN = path.join(REPO_DIR, 'node_modules', '.bin', 'deno');

/** Run a command; resolves `{ code, signal, stdout, stderr, ms }`, killing it (SIGKILL) after `timeoutMs`. */
export function run(cmd, args, { cwd, env = process.env, timeoutMs = 30_000 } = {}) {
  const t0 = performance.now();
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { cwd, env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        resolve({
          code: err ? (typeof err.code === 'number' ? err.code : null) : 0,
          signal: err?.signal ?? null,
          timedOut: Boolean(err?.killed),
          error: err && typeof err.code !== 'number' ? String(err.message) : null,
          stdout,
          stderr,
          ms: Math.round(performance.now() - t0),
        });
      },
    );
  });
}

/** The environment of a child Node: no test-runner or colour settings leak into what it prints. */
export function childEnv(extra = {}) {
  const env = { ...process.env, NO_COLOR: '1', ...extra };
  for (const k of ['NODE_TEST_CONTEXT', 'NODE_OPTIONS', 'FORCE_COLOR']) delete env[k];
  return env;
}

/** `node --input-type=module -e source` from the repo root, where 'neotoma-agent-wasm' resolves to pkg/. */
export function runNode(source, { timeoutMs } = {}) {
  return run(process.execPath, ['--input-type=module', '-e', source], { cwd: REPO_DIR, env: childEnv(), timeoutMs });
}

/** A failure message with everything a child printed. */
export function describeRun(what, r) {
  return (
    `${what}: exit ${r.code}${r.signal ? ` signal ${r.signal}` : ''}${r.timedOut ? ' (timed out)' : ''}` +
    `${r.error ? `\n${r.error}` : ''}\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}`
  );
}

/** npm with a private cache and no network chatter. */
function npmEnv(cacheDir) {
  return {
    ...process.env,
    npm_config_cache: cacheDir,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_loglevel: 'error',
  };
}

/** A temp workspace: `{ dir, npmCache, tarball?, close() }`. */
export async function makeWorkspace(prefix = 'neotoma-packaging-') {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return {
    dir,
    npmCache: path.join(dir, '.npm-cache'),
    async close() {
      await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

/** `npm pack` the built pkg/ into the workspace; returns the tarball's absolute path. */
export async function packTarball(ws) {
  const r = await run('npm', ['pack', PKG_DIR, '--pack-destination', ws.dir, '--json', '--ignore-scripts'], {
    cwd: ws.dir,
    env: npmEnv(ws.npmCache),
    timeoutMs: 60_000,
  });
  if (r.code !== 0) throw new Error(describeRun('npm pack', r));
  const [info] = JSON.parse(r.stdout);
  return path.join(ws.dir, info.filename);
}

/**
 * Copy tests/packaging/<fixture>/ into the workspace and `npm install` the tarball into it (offline,
 * no scripts, nothing saved). Returns the fixture copy's directory.
 */
export async function installFixture(ws, fixture, tarball) {
  const dir = path.join(ws.dir, fixture);
  await cp(path.join(FIXTURES_DIR, fixture), dir, { recursive: true });
  const r = await run(
    'npm',
    ['install', tarball, '--offline', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts'],
    { cwd: dir, env: npmEnv(ws.npmCache), timeoutMs: 60_000 },
  );
  if (r.code !== 0) throw new Error(describeRun(`npm install into ${fixture}`, r));
  return dir;
}

/** The installed package's directory and package.json inside a fixture copy. */
export async function installedPackage(fixtureDir) {
  const dir = path.join(fixtureDir, 'node_modules', PACKAGE_NAME);
  const json = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
  return { dir, json };
}

/** The last non-empty stdout line of a fixture run, parsed as JSON. */
export function lastJsonLine(stdout) {
  const lines = stdout.split('\n').filter((l) => l.trim() !== '');
  return JSON.parse(lines[lines.length - 1]);
}

// Every fixture runs the same conversation: these two messages under these turn ids, with a model
// that answers `Turn <n>: <names of the retrieved entities>, noted.`, so every reply names the one
// seeded entity (Acme Corp) and the assistant message refers to it.
export const MESSAGES = ['Tell me about Acme Corp', 'Is Acme Corp still a customer?'];
export const TURN_IDS = ['turn-1', 'turn-2'];
export const REPLIES = ['Turn 1: Acme Corp, noted.', 'Turn 2: Acme Corp, noted.'];

/**
 * The two TurnResults a fixture returned, and what the server stored for the conversation: exactly
 * two user and two assistant `conversation_message`s (turn-index rows and every PART_OF edge into
 * the conversation), each with its turn key, turn number, role and content, PART_OF the
 * conversation and REFERS_TO `entityId` (the seeded entity both messages name) and nothing else.
 */
export async function assertTwoTurnConversationStored(server, { conversationId, turns, entityId }) {
  assert.equal(turns.length, 2, JSON.stringify(turns));
  for (const [i, r] of turns.entries()) {
    assert.equal(r.turnId, TURN_IDS[i]);
    assert.equal(r.turnNumber, i + 1);
    assert.equal(r.assistantMessage, REPLIES[i]);
    assert.deepEqual(r.replayed, { user: false, assistant: false });
    assert.deepEqual(r.retrievedEntityIds, [entityId]);
    assert.deepEqual(r.refersTo, [entityId]);
    assert.ok(Array.isArray(r.storeWarnings));
  }
  const conversationEntityId = turns[0].conversationEntityId;
  assert.equal(turns[1].conversationEntityId, conversationEntityId);

  const index = await turnIndex(server, conversationId);
  assert.equal(index.conversation_id, conversationId);
  assert.equal(index.conversation_entity_id, conversationEntityId);
  const conversation = await entitySnapshot(server, conversationEntityId);
  assert.equal(conversation.entity_type, 'conversation');
  assert.equal(conversation.snapshot.conversation_id, conversationId);

  const rows = rowsByKey(index);
  const expected = turns.flatMap((r, i) => {
    const userKey = `${conversationId}:${TURN_IDS[i]}`;
    return [
      { key: userKey, role: 'user', content: MESSAGES[i], n: i + 1, id: r.userMessageEntityId },
      { key: `${userKey}:assistant`, role: 'assistant', content: REPLIES[i], n: i + 1, id: r.assistantMessageEntityId },
    ];
  });
  assert.equal(index.turns.length, 4, JSON.stringify(index.turns, null, 1));
  assert.deepEqual(Object.keys(rows).sort(), expected.map((m) => m.key).sort());
  for (const m of expected) {
    const row = rows[m.key];
    assert.equal(row.role, m.role, m.key);
    assert.equal(row.turn_number, m.n, m.key);
    assert.equal(row.message_entity_id, m.id, m.key);

    const message = await entitySnapshot(server, m.id);
    assert.equal(message.entity_type, 'conversation_message', m.key);
    assert.deepEqual(
      { content: message.snapshot.content, role: message.snapshot.role, turn_key: message.snapshot.turn_key, turn_number: message.snapshot.turn_number },
      { content: m.content, role: m.role, turn_key: m.key, turn_number: m.n },
      m.key,
    );
    const edges = (await related(server, m.id, 'outbound')).relationships
      .filter((e) => e.source_entity_id === m.id)
      .map((e) => `${e.relationship_type} ${e.target_entity_id}`)
      .sort();
    assert.deepEqual(edges, [`PART_OF ${conversationEntityId}`, `REFERS_TO ${entityId}`].sort(), m.key);
  }
  // nothing else is PART_OF the conversation: the four messages are all it holds
  const members = (await related(server, conversationEntityId, 'inbound', ['PART_OF'])).relationships
    .filter((e) => e.relationship_type === 'PART_OF' && e.target_entity_id === conversationEntityId)
    .map((e) => e.source_entity_id)
    .sort();
  assert.deepEqual(members, expected.map((m) => m.id).sort());
}

/**
 * `file` and every file it imports by relative path, transitively (static `import`/`export … from`),
 * as absolute paths: the modules a Worker built from that entry is made of.
 */
export async function relativeImports(file, seen = new Set()) {
  seen.add(file);
  if (!file.endsWith('.wasm')) {
    const source = await readFile(file, 'utf8');
    // Statements only (the glue holds other './…' strings, e.g. its `"./neotoma_agent_wasm_bg.js"` import key).
    const statement = /(?:^|[;\n])\s*(?:import|export)\s*(?:[\w$*{},\s]+from\s*)?['"](\.\.?\/[^'"]+)['"]/g;
    for (const [, spec] of source.matchAll(statement)) {
      const target = path.resolve(path.dirname(file), spec);
      if (!seen.has(target)) await relativeImports(target, seen);
    }
  }
  return [...seen];
}
