// Two builds of the package side by side on one host: 1 MiB of the bench's chat text through
// each build's extractIdentifiers, alternating, 15 runs, medians. Runs on one VM differ by up to
// 2x from day to day; this compares versions where `make bench` rows cannot.
//
//   node scripts/bench/compare-extraction.mjs <pkg dir A> <pkg dir B>
//   (e.g. a worktree of an older commit built with `make pkg`, and ./pkg)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dirs = process.argv.slice(2, 4);
if (dirs.length !== 2) {
  console.error('usage: node scripts/bench/compare-extraction.mjs <pkg dir A> <pkg dir B>');
  process.exit(2);
}
const chat = readFileSync(new URL('../../tests/fixtures/bench-chat.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
// The same text as scripts/bench/extraction.mjs: chat lines in a fixed shuffled order.
const parts = [];
for (let k = 0, bytes = 0; bytes < 1 << 20; k++) {
  const line = `${chat[(k * 7) % chat.length]}\n`;
  parts.push(line);
  bytes += Buffer.byteLength(line);
}
const text = parts.join('');
const builds = await Promise.all(
  dirs.map((d) => import(pathToFileURL(resolve(d, 'node.mjs')).href)),
);
const runs = builds.map(() => []);
for (let i = 0; i < 15; i++) {
  builds.forEach((b, k) => {
    const t = performance.now();
    b.extractIdentifiers(text);
    runs[k].push(performance.now() - t);
  });
}
const median = (r) => [...r].sort((x, y) => x - y)[r.length >> 1];
dirs.forEach((d, k) => console.log(`${d}: 1 MiB of chat in ${median(runs[k]).toFixed(1)} ms (median of 15)`));
