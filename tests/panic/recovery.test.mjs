// A Rust panic is logged with its message, and the module recovers: the next call runs on a
// fresh wasm instance (src/bindings/panic.rs). Runs against the test build with the `test-panic`
// feature (`make test-panic` builds it into target/pkg-test-panic); the published package has no
// way to panic on purpose, which the last test checks.

import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const testBuild = new URL('../../target/pkg-test-panic/', import.meta.url);
const { NeotomaAgent, extractIdentifiers, panicForTest } = await import(new URL('node.mjs', testBuild));

function panicLogged(message) {
  const logged = [];
  const consoleError = console.error;
  console.error = (...args) => logged.push(args.join(' '));
  try {
    assert.throws(() => panicForTest(message), WebAssembly.RuntimeError);
  } finally {
    console.error = consoleError;
  }
  return logged.join('\n');
}

test('a panic logs its message and the call fails; a new agent works after it', async () => {
  const before = new NeotomaAgent({ conversationId: 'before-the-panic' });
  await before.turn('Tell me about Acme Corp', () => 'Noted.', { turnId: 't1' });

  const logged = panicLogged('boom from the test build');
  assert.match(logged, /panicked at .*boom from the test build/s);

  assert.deepEqual(extractIdentifiers('Ask Acme Corp about INV-2041'), ['Acme Corp', 'INV-2041']);
  const agent = new NeotomaAgent({ conversationId: 'after-the-panic' });
  const result = await agent.turn('Tell me about Acme Corp', () => 'Noted again.', { turnId: 't1' });
  assert.equal(result.assistantMessage, 'Noted again.');
  assert.equal(result.turnNumber, 1);
  // The agent made before the panic belonged to the old instance.
  assert.throws(() => before.pendingWrites(), /stale object from previous Wasm instance/);
});

test('the module recovers from every panic, not only the first', () => {
  for (const n of [1, 2, 3]) {
    assert.match(panicLogged(`panic number ${n}`), new RegExp(`panic number ${n}`));
    assert.deepEqual(extractIdentifiers(`Call Priya about ticket JIRA-${4500 + n}`), ['Priya', `JIRA-${4500 + n}`]);
  }
});

test('the published package cannot panic on purpose', () => {
  const types = readFileSync(new URL('../../pkg/neotoma_agent_wasm.d.ts', import.meta.url), 'utf8');
  assert.doesNotMatch(types, /panicForTest/);
  assert.match(readFileSync(new URL('neotoma_agent_wasm.d.ts', testBuild), 'utf8'), /panicForTest/);
});
