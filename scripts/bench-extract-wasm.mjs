// Times the default extractor of the built package (`make pkg` first) in Node, on the inputs
// of examples/bench_extract.rs (1 KB, 100 KB and 1 MiB of typical chat text and of each
// adversarial kind; the generators are mirrored from there: keep them in step).
//
//   node scripts/bench-extract-wasm.mjs            a table
//   node scripts/bench-extract-wasm.mjs --json     one JSON object
//   node scripts/bench-extract-wasm.mjs --only chat
//
// Each row is the best of several runs after a warm-up run; the time includes passing the
// string into wasm memory and the array of identifiers back, as a caller pays it.

import { performance } from 'node:perf_hooks';
import { extractIdentifiers } from 'neotoma-agent-wasm';

const SIZES = [
  ['1 KB', 1_000],
  ['100 KB', 100_000],
  ['1 MiB', 1 << 20],
];

const CHAT = [
  'Hi! Can you remind me what Sarah Chen said about the Globex renewal last week?',
  '## Next steps\n- Call Priya about INV-2041\n- **Owner:** Dana Whitfield\n',
  'Send the NDA to Bank of America and cc jane.doe@acme.com before Friday.',
  'can u check if the vpn at 10.8.0.1 is still up? lol',
  "Lunch at Trader Joe's with Kenji 🍣, then the Stratford-upon-Avon trip.",
  '```\nTraceback (most recent call last):\n  File "/app/main.py", line 12\nKeyError: \'user_id\'\n```',
  '2024-05-01T12:03:44Z ERROR [payments] timeout contacting api.stripe.com (req_8f2k3)',
  'My IBAN is DE89 3704 0044 0532 0130 00, booking ref QX7P2M, ticket JIRA-4512.',
  'Meeting with 王小明 tomorrow in 東京, then dinner with 김민준.',
  "I'm halfway through The Three-Body Problem, recommended by @lena_k.",
  'Open C:\\Users\\maria\\Documents\\budget.xlsx and ~/notes/2024/plan.md please.',
  "Running late, tell Olivia I'll be there at 10. Thanks!",
  'See https://docs.example.com/guide/setup?x=1 and ping 2001:db8::1 from prod-db-03.',
  'What did we decide about the offsite in Dar es Salaam? NASA and CERN replied.',
  'Link ent_01HZX3 to 550e8400-e29b-41d4-a716-446655440000 and "Project Falcon".',
  "ok thanks, that's all for now",
];

// Sizes are in UTF-8 bytes, as in Rust.
const utf8 = (s) => Buffer.byteLength(s);

function fill(unit, size) {
  const n = Math.max(1, Math.ceil(size / utf8(unit)));
  return unit.repeat(n);
}

function chat(size) {
  let s = '';
  let bytes = 0;
  for (let k = 0; bytes < size; k++) {
    const line = CHAT[(k * 7) % CHAT.length] + '\n';
    s += line;
    bytes += utf8(line);
  }
  return s;
}

const KINDS = [
  ['typical chat', chat],
  ['capitalised words', (n) => fill('Alpha Beta ', n)],
  ['capitals run', (n) => fill('ABCDEFGH ', n)],
  ['connector chains', (n) => fill('Bank of ', n)],
  ['unclosed double quotes', (n) => fill('"a ', n)],
  ['unclosed single quotes', (n) => fill("'a ", n)],
  ['unclosed curly quotes', (n) => fill('“a ', n)],
  ['unclosed backticks', (n) => fill('`a ', n)],
  ['quote characters', (n) => '"'.repeat(n)],
  ['separators', (n) => fill('a-b.c/d:e_', n)],
  ['digit groups', (n) => fill('1234 ', n)],
  ['possessives', (n) => fill("Joe's ", n)],
  ['one long token', (n) => 'x'.repeat(n)],
  ['long mixed tokens', (n) => fill('a1B-'.repeat(60) + ' ', n)],
  ['one long URL', (n) => 'https://' + 'a'.repeat(n)],
  ['caseless script', (n) => fill('東京 ', n)],
];

function time(text) {
  const count = extractIdentifiers(text).length;
  const runs = Math.min(2000, Math.max(15, Math.floor(2_000_000 / Math.max(1, text.length))));
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    extractIdentifiers(text);
    best = Math.min(best, performance.now() - t);
  }
  return [best, count];
}

const args = process.argv.slice(2);
const json = args.includes('--json');
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args[onlyAt + 1] : undefined;

const rows = [];
for (const [name, make] of KINDS) {
  if (only && !name.includes(only)) continue;
  for (const [size, bytes] of SIZES) {
    const text = make(bytes);
    const [ms, identifiers] = time(text);
    rows.push({ input: name, size, bytes: utf8(text), ms: Number(ms.toFixed(4)), identifiers });
  }
}

if (json) {
  console.log(JSON.stringify({ bench: 'extract_identifiers', build: 'wasm', node: process.version, rows }));
} else {
  console.log(`${'input'.padEnd(24)} ${'size'.padStart(7)} ${'bytes'.padStart(9)} ${'ms'.padStart(10)} ${'ids'.padStart(4)}`);
  for (const r of rows) {
    console.log(
      `${r.input.padEnd(24)} ${r.size.padStart(7)} ${String(r.bytes).padStart(9)} ${r.ms.toFixed(4).padStart(10)} ${String(r.identifiers).padStart(4)}`,
    );
  }
}
