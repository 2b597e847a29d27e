// `make demo`'s server (scripts/serve-demo.mjs) with and without NEOTOMA_URL/NEOTOMA_TOKEN: the
// page's config says whether a real Neotoma is behind /neotoma, and an agent in this process
// pointed at /neotoma stores through it (the token stays in the server process: the agent has
// none, and no answer carries it).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { NeotomaAgent } from 'neotoma-agent-wasm';
import { startTestServer, seedStandard, turnIndex, randomId } from '../server/harness.mjs';
import { serveDemo } from '../server/browser-checks.mjs';

let server;
before(async () => {
  server = await startTestServer();
  await seedStandard(server);
});
after(async () => {
  await server?.close();
});

test('without NEOTOMA_URL: the page is told there is no real Neotoma, and /neotoma is not forwarded', { timeout: 20_000 }, async () => {
  const demo = await serveDemo({ NEOTOMA_URL: '', NEOTOMA_TOKEN: '' });
  try {
    assert.deepEqual(await (await fetch(`${demo.url}/demo-config.json`)).json(), { neotoma: null });
    const r = await fetch(`${demo.url}/neotoma/store`, { method: 'POST', body: '{}' });
    assert.equal(r.status, 405);
  } finally {
    await demo.close();
  }
});

test('with NEOTOMA_URL and NEOTOMA_TOKEN: an agent stores through /neotoma into the real store, under demo- only', { timeout: 20_000 }, async () => {
  const demo = await serveDemo({ NEOTOMA_URL: server.url, NEOTOMA_TOKEN: server.token });
  try {
    assert.deepEqual(await (await fetch(`${demo.url}/demo-config.json`)).json(), { neotoma: { baseUrl: '/neotoma' } });
    const cid = randomId('demo');
    const agent = new NeotomaAgent({ conversationId: cid, transport: { baseUrl: `${demo.url}/neotoma` }, outbox: false });
    const r = await agent.turn('Tell me about Acme Corp', () => 'Acme Corp, noted.', { turnId: 't1' });
    assert.equal(r.retrieved[0].snapshot.name, 'Acme Corp');
    assert.equal((await turnIndex(server, cid)).turns.length, 2, 'both messages reached the real store');
    // outside the demo's namespace: refused by the proxy
    const other = new NeotomaAgent({ conversationId: randomId('other'), transport: { baseUrl: `${demo.url}/neotoma` }, outbox: false });
    const e = await other.turn('hi', () => 'hi').then(() => assert.fail('expected a rejection'), (err) => err);
    assert.equal(e.status, 403);
    assert.ok(!demo.out().includes(server.token), 'the token is not printed');
  } finally {
    await demo.close();
  }
});
