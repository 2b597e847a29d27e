// README's usage snippets are the code the fixtures run: every ```js block right after a
// `<!-- snippet: path -->` marker must appear, line for line, in that file (which a test runs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';

import { repoRoot } from '../server/static-server.mjs';

const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const snippets = [...readme.matchAll(/<!-- snippet: (\S+) -->\n```js\n([\s\S]*?)\n```/g)].map(([, file, code]) => ({ file, code }));

test('README marks its usage snippets for Node, Deno, Vite, the proxy, Workers and the edge example', () => {
  const files = snippets.map((s) => s.file);
  for (const needed of [
    'tests/packaging/node-esm/main.mjs',
    'tests/packaging/deno/main.mjs',
    'tests/packaging/vite/main.js',
    'tests/packaging/proxy-worker/worker.mjs',
    'tests/packaging/worker/worker.mjs',
    'www/worker/worker.mjs',
    'tests/widget/embed.mjs',
    'tests/snippets/memory.mjs',
  ]) {
    assert.ok(files.includes(needed), `README has a snippet of ${needed}`);
  }
  // every marker is followed by a js block (a marker without one would be skipped silently)
  assert.equal(snippets.length, [...readme.matchAll(/<!-- snippet: /g)].length);
});

for (const { file, code } of snippets) {
  test(`README snippet is verbatim in ${file}`, () => {
    const full = path.join(repoRoot, file);
    assert.ok(existsSync(full), `${file} exists`);
    const source = readFileSync(full, 'utf8');
    assert.ok(source.includes(code), `the README block is not in ${file}; copy it from the file again:\n${code}`);
  });
}
