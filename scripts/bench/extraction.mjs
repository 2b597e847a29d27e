// Extraction in the wasm build: `extractIdentifiers` from the package (Node), on 1 KB, 100 KB and
// 1 MiB of typical chat text and of adversarial text. Each input is one string of exactly that
// many UTF-8 bytes, cut from a repeated unit; warm-up once, then the median of several runs.

import { extractIdentifiers } from 'neotoma-agent-wasm';
import { stats, ms, num } from './lib.mjs';

const SIZES = [
  ['1 KB', 1024, 201],
  ['100 KB', 100 * 1024, 11],
  ['1 MiB', 1 << 20, 5],
];

const TYPICAL =
  'Hey, can you ask Sarah Chen whether Acme Corp signed the renewal? ' +
  "I think the invoice INV-2041 is still open, and \"Project Falcon\" slipped to next week.\n" +
  '## Next steps\n- **Owner:** Dana (she is out until Monday)\n- ping jane@acme.com about the NDA\n' +
  'Running the migration on staging first; logs are in /var/log/app/migrate.log and ' +
  'https://status.example.com/incidents/42 has the timeline. ok, thanks! ' +
  "we'll meet at the Berlin office with Globex and Initech on Thursday.\n";

/** The adversarial inputs: one repeated unit each (the text is the unit repeated, then cut). */
export const ADVERSARIAL = {
  'long runs of capitals': 'ALPHA BRAVO CHARLIE DELTA ECHO FOXTROT ',
  'capitals without spaces': 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  'capitalised words': 'Alpha Beta ',
  'connector chains': 'Bank of ',
  'closed quotes': '"a b" ',
  'unclosed quotes': '"a ',
  'unclosed curly quotes': '“a ',
  'quote characters only': '"',
  separators: '-- / :: | ,, ;; __ .. ',
  'one long token': 'x',
  'long capitalised tokens': 'Supercalifragilisticexpialidocious'.repeat(30) + ' ',
};

function fill(unit, size) {
  let s = unit.repeat(Math.ceil(size / unit.length) + 1);
  // cut at `size` UTF-8 bytes (the units are ASCII except curly quotes: cut by bytes)
  const b = Buffer.from(s, 'utf8').subarray(0, size);
  s = b.toString('utf8').replace(/\uFFFD+$/, '');
  return s;
}

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
    const cell = { typical: time(fill(TYPICAL, size), runs), adversarial: {} };
    for (const [kind, unit] of Object.entries(ADVERSARIAL)) cell.adversarial[kind] = time(fill(unit, size), runs);
    data[label] = cell;
  }
  const rows = [];
  for (const [label] of SIZES) {
    const c = data[label];
    const [worstKind, worst] = Object.entries(c.adversarial).sort((a, b) => b[1].median - a[1].median)[0];
    rows.push({
      what: `wasm (Node), ${label}: typical chat text / the slowest adversarial text`,
      figure: `**${ms(c.typical.median)}** (${num(c.typical.found)} identifiers) / **${ms(worst.median)}** (${worstKind})`,
    });
  }
  const big = data['1 MiB'].adversarial;
  rows.push({
    what: 'wasm (Node), 1 MiB of each adversarial text (medians)',
    figure: Object.entries(big)
      .map(([k, v]) => `${k} ${ms(v.median)}`)
      .join(', '),
  });
  return { rows, data };
}
