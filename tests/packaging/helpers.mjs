// Helpers for the packaging tests (tests/node/packaging.test.mjs): pack the built `pkg/` with npm,
// install the tarball into a temp copy of a fixture project, run child processes with a bound.
// Everything happens offline (the tarball has no dependencies) under one temp dir per test run.

import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
