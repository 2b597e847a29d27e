// Strings cross into the wasm byte for byte, whatever their length and content: build-pkg.mjs
// sends strings of 64+ characters with one TextEncoder.encodeInto instead of wasm-bindgen's
// charCodeAt loop, and falls back to wasm-bindgen's path for what does not fit. textHash hashes
// the UTF-8 bytes the wasm received; the same FNV-1a over TextEncoder's bytes must agree, in
// Node and in headless Chromium (Blink's TextEncoder, the browser entry).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { textHash, extractIdentifiers, EmbeddedStore } from 'neotoma-agent-wasm';
import { startStaticServer, launchChromium, repoRoot } from '../server/static-server.mjs';

function fnv1a(text) {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(text)) {
    h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

const ascii = (n) => 'abcdefghij'.repeat(Math.ceil(n / 10)).slice(0, n);
const cases = {
  empty: '',
  'short ascii': 'hi Joe',
  '63 ascii': ascii(63),
  '64 ascii': ascii(64),
  '1 MiB ascii': ascii(1 << 20),
  'accent at 10 of 100': ascii(10) + 'é' + ascii(89),
  'accent at the end of 64': ascii(63) + 'é',
  // The emoji's 4 bytes do not fit in the 2 left of the first 65-byte buffer.
  'emoji astride the first buffer': ascii(63) + '🙂',
  'emoji after 200 ascii': ascii(200) + '🙂' + ascii(20),
  'all CJK (3 bytes each)': '名前'.repeat(100),
  'all emoji (2 units, 4 bytes each)': '🙂'.repeat(100),
  'mixed scripts': 'Zoë Ødegaard → 東京 · Алексей · محمد · 🙂 '.repeat(20),
};

for (const [name, text] of Object.entries(cases)) {
  test(`textHash sees the UTF-8 bytes of: ${name}`, () => {
    assert.equal(textHash(text), fnv1a(text));
  });
}

test('a lone surrogate is refused in short and long strings alike (it would be stored changed)', () => {
  for (const text of ['a\ud800b', ascii(80) + '\ud800' + ascii(80), ascii(63) + '\udc00']) {
    assert.throws(() => textHash(text), { name: 'NeotomaError', code: 'INVALID_INPUT' });
  }
});

// The package asks String.prototype.isWellFormed (2023); before it, a lone surrogate is found by
// the U+FFFD that TextEncoder leaves in its place, then checked unit by unit. A child process
// with isWellFormed deleted before the package loads takes that path.
test('without String.prototype.isWellFormed a lone surrogate is still refused, and U+FFFD itself passes', () => {
  const script = `
    delete String.prototype.isWellFormed;
    const { textHash, extractIdentifiers } = await import('neotoma-agent-wasm');
    const refused = ['a\\ud800b', 'x'.repeat(80) + '\\udc00', 'Acme \\ud83d'].map((t) => {
      try { textHash(t); return 'accepted'; } catch (e) { return e.code; }
    });
    console.log(JSON.stringify({ refused, kept: extractIdentifiers('Alice \\ufffd met Bob') }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), { refused: ['INVALID_INPUT', 'INVALID_INPUT', 'INVALID_INPUT'], kept: ['Alice', 'Bob'] });
});

test('identifiers past a long ASCII prefix come back exactly as written', () => {
  const text = `${ascii(100)} then ask "Zoë 🙂 名前" about Ødegaard and 東京タワー`;
  assert.deepEqual(extractIdentifiers(text).slice(-3), ['Zoë 🙂 名前', 'Ødegaard', '東京タワー']);
});

test('a long mixed message is stored and exported exactly as sent', async () => {
  const store = new EmbeddedStore();
  const content = cases['mixed scripts'] + cases['emoji astride the first buffer'];
  const res = store.handleRaw(
    'POST',
    '/store',
    JSON.stringify({
      idempotency_key: 'strings-test-1',
      entities: [{ entity_type: 'conversation_message', role: 'user', sender_kind: 'user', content, turn_key: 'c1:t1' }],
    }),
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const stored = JSON.stringify(store.export());
  assert.ok(stored.includes(JSON.stringify(content)), 'the exported store holds the content byte for byte');
});

test('the patched glue is what ships', () => {
  const require = createRequire(import.meta.url);
  const pkgDir = dirname(require.resolve('neotoma-agent-wasm/package.json'));
  const glue = readFileSync(join(pkgDir, 'neotoma_agent_wasm.js'), 'utf8');
  assert.match(glue, /if \(len >= 64\) \{\n\s+let \{ read, written \} = cachedTextEncoder\.encodeInto/);
});

test('in Chromium the same bytes arrive, through the browser entry', { timeout: 60_000 }, async () => {
  const blank = mkdtempSync(join(tmpdir(), 'strings-page-'));
  writeFileSync(join(blank, 'index.html'), '<!doctype html><title>strings</title>');
  const web = await startStaticServer({ mounts: [['/pkg/', join(repoRoot, 'pkg')], ['/', blank]] });
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(web.url + '/');
    const hashes = await page.evaluate(async (texts) => {
      const m = await import('/pkg/browser.mjs');
      return Object.fromEntries(Object.entries(texts).map(([name, text]) => [name, m.textHash(text)]));
    }, cases);
    for (const [name, text] of Object.entries(cases)) {
      assert.equal(hashes[name], fnv1a(text), name);
    }
  } finally {
    await browser.close();
    await web.close();
    rmSync(blank, { recursive: true, force: true });
  }
});
