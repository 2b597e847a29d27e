// Two builds of the package side by side on one host: 1 MiB of the bench's chat text (and, with
// `--all`, of each adversarial text of scripts/bench/extraction.mjs) through each build's
// extractIdentifiers, alternating, 15 runs, medians. Runs on one VM differ by up to 2x from day to
// day; this compares versions where `make bench` rows cannot.
//
//   node scripts/bench/compare-extraction.mjs <pkg dir A> <pkg dir B> [--all]
//   (e.g. a worktree of an older commit built with `make pkg`, and ./pkg)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { ADVERSARIAL, chat } from './extraction.mjs';

const args = process.argv.slice(2);
const dirs = args.filter((a) => !a.startsWith('--'));
if (dirs.length !== 2) {
  console.error('usage: node scripts/bench/compare-extraction.mjs <pkg dir A> <pkg dir B> [--all]');
  process.exit(2);
}
const MiB = 1 << 20;
const inputs = [['typical chat', chat(MiB)]];
if (args.includes('--all')) {
  for (const [kind, make] of Object.entries(ADVERSARIAL)) inputs.push([kind, make(MiB)]);
}
const builds = await Promise.all(
  dirs.map((d) => import(pathToFileURL(resolve(d, 'node.mjs')).href)),
);
const median = (r) => [...r].sort((x, y) => x - y)[r.length >> 1];
console.log(`1 MiB, median of 15 (ms): ${dirs.join(' | ')}`);
for (const [kind, text] of inputs) {
  const runs = builds.map(() => []);
  for (let i = 0; i < 15; i++) {
    builds.forEach((b, k) => {
      const t = performance.now();
      b.extractIdentifiers(text);
      runs[k].push(performance.now() - t);
    });
  }
  console.log(`${kind.padEnd(28)} ${runs.map((r) => median(r).toFixed(1).padStart(7)).join(' ')}`);
}
