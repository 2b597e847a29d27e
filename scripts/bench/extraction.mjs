// Extraction in the wasm build: `extractIdentifiers` from the package (Node), on 1 KB, 100 KB and
// 1 MiB of typical chat text and of adversarial text. The inputs are those of the native bench
// (examples/bench_extract.rs: the same chat lines, units and sizes, each unit repeated until the
// text reaches the size), so the native and wasm rows compare. Warm-up once, then the best of
// several runs (as the native bench reports), with the median beside it.

import { readFileSync } from 'node:fs';

import { extractIdentifiers } from 'neotoma-agent-wasm';
import { stats, ms, num } from './lib.mjs';

const SIZES = [
  ['1 KB', 1_000, 201],
  ['100 KB', 100_000, 11],
  ['1 MiB', 1 << 20, 9],
];

/** Messages as users write them (prose, markdown, code, logs, lowercase, emoji, other scripts):
 *  one JSON string a line, shared with examples/bench_extract.rs. */
const CHAT = readFileSync(new URL('../../tests/fixtures/bench-chat.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));

/** `unit` repeated until the text has at least `size` UTF-8 bytes (at least once). */
function fill(unit, size) {
  const n = Math.max(1, Math.ceil(size / Buffer.byteLength(unit)));
  return unit.repeat(n);
}

/** Chat lines, one a line, in a fixed shuffled order, up to `size` bytes. */
export function chat(size) {
  const parts = [];
  let bytes = 0;
  for (let k = 0; bytes < size; k++) {
    const line = `${CHAT[(k * 7) % CHAT.length]}\n`;
    parts.push(line);
    bytes += Buffer.byteLength(line);
  }
  return parts.join('');
}

/** `unit` with `{k}` replaced by a counter (0, 1, 2, …), repeated until the text has `size` bytes. */
function counted(unit, size) {
  const parts = [];
  let bytes = 0;
  for (let k = 0; bytes < size; k++) {
    const part = unit.replaceAll('{k}', String(k));
    parts.push(part);
    bytes += Buffer.byteLength(part);
  }
  return parts.join('');
}

/** The adversarial inputs by name, each a function of the size in bytes. */
export const ADVERSARIAL = {
  // Tokens that reach a regex and are no identifier, none twice (as examples/bench_extract.rs):
  // the extractor remembers its regexes' answers within a text, and stops at 64 identifiers.
  'distinct near-miss e-mails': (n) => counted('user{k}@host ', n),
  'capitalised words': (n) => fill('Alpha Beta ', n),
  'capitals run': (n) => fill('ABCDEFGH ', n),
  'connector chains': (n) => fill('Bank of ', n),
  'unclosed double quotes': (n) => fill('"a ', n),
  'unclosed single quotes': (n) => fill("'a ", n),
  'unclosed curly quotes': (n) => fill('“a ', n),
  'unclosed backticks': (n) => fill('`a ', n),
  'quote characters': (n) => '"'.repeat(n),
  separators: (n) => fill('a-b.c/d:e_', n),
  'digit groups': (n) => fill('1234 ', n),
  possessives: (n) => fill("Joe's ", n),
  'one long token': (n) => 'x'.repeat(n),
  'long mixed tokens': (n) => fill(`${'a1B-'.repeat(60)} `, n),
  'one long URL': (n) => `https://${'a'.repeat(n)}`,
  'caseless script': (n) => fill('東京 ', n),
  'unspaced names': (n) => fill('张伟和李娜去北京上海深圳，', n),
  'short sentences': (n) => fill('Milk. ', n),
  'lowercase names': (n) => fill('dinner at zorbaz with funmi ', n),
};

function time(text, runs) {
  extractIdentifiers(text);
  const t = [];
  let found = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    found = extractIdentifiers(text).length;
    t.push(performance.now() - t0);
  }
  return { ...stats(t), found };
}

export async function run() {
  const data = {};
  for (const [label, size, runs] of SIZES) {
    const cell = { typical: time(chat(size), runs), adversarial: {} };
    for (const [kind, make] of Object.entries(ADVERSARIAL)) cell.adversarial[kind] = time(make(size), runs);
    data[label] = cell;
  }
  // Best of runs, as the native rows: the host's slow spells move medians by up to 2x; the
  // median is given beside it.
  const rows = [];
  for (const [label] of SIZES) {
    const c = data[label];
    const [worstKind, worst] = Object.entries(c.adversarial).sort((a, b) => b[1].min - a[1].min)[0];
    rows.push({
      what: `wasm (Node), ${label}: typical chat text / the slowest adversarial text (best of runs; median)`,
      figure: `**${ms(c.typical.min)}** (${ms(c.typical.median)}; ${num(c.typical.found)} identifiers) / **${ms(worst.min)}** (${ms(worst.median)}; ${worstKind})`,
    });
  }
  const big = data['1 MiB'].adversarial;
  rows.push({
    what: 'wasm (Node), 1 MiB of each adversarial text (best of runs; median)',
    figure: Object.entries(big)
      .map(([k, v]) => `${k} ${ms(v.min)} (${ms(v.median)})`)
      .join(', '),
  });
  return { rows, data };
}
