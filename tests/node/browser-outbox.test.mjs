// The outbox in a real browser (headless Chromium): by default unsent writes wait in IndexedDB,
// survive a page reload, and are sent by `flush()` or when the browser comes back `online`.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { pageAndServer } from '../server/page-harness.mjs';
import { startTestServer, turnIndex, entitySnapshot, refersTo, randomId } from '../server/harness.mjs';

let server;
let ids;
let page;

const env = pageAndServer();
before(async () => {
  await env.ready;
  ({ server, ids, page } = env);
});

/** Every value in the page's IndexedDB outbox database, as strings. */
function indexedDbValues() {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('neotoma-agent-wasm', 1);
        open.onsuccess = () => {
          const db = open.result;
          const all = db.transaction('outbox', 'readonly').objectStore('outbox').getAll();
          all.onsuccess = () => {
            db.close();
            resolve(all.result.map(String));
          };
          all.onerror = () => reject(all.error);
        };
        open.onerror = () => reject(open.error);
      }),
  );
}

async function storedContents(cid) {
  const index = await turnIndex(server, cid);
  const out = [];
  for (const row of index.turns) {
    const snap = await entitySnapshot(server, row.message_entity_id);
    out.push([row.role, snap.snapshot.content]);
  }
  return out;
}

test('writes that cannot be sent wait in IndexedDB across a reload; flush() sends them once', { timeout: 60_000 }, async () => {
  const cid = randomId('idb');
  const dead = await startTestServer();
  const deadUrl = dead.url;
  await dead.close();

  const first = await page.evaluate(
    async ({ deadUrl, cid }) => {
      const m = await import('/pkg/browser.mjs');
      const agent = new m.NeotomaAgent({ conversationId: cid, transport: { baseUrl: deadUrl, timeoutMs: 3000 }, retry: false });
      const r = await agent.turn('Tell me about Acme Corp', () => 'Acme Corp is fine.', { turnId: 't1' });
      return { pending: r.pending, userId: r.userMessageEntityId, keys: (await agent.pendingWrites()).map((w) => w.idempotencyKey) };
    },
    { deadUrl, cid },
  );
  assert.deepEqual(first.pending, { user: true, assistant: true });
  assert.equal(first.userId, null);
  assert.deepEqual(first.keys, [`conversation-${cid}-t1-user-turn`, `conversation-${cid}-t1-assistant-turn`]);
  const kept = await indexedDbValues();
  assert.ok(kept.some((v) => v.includes(`conversation-${cid}-t1-user-turn`)), 'the queue is in IndexedDB');

  // A closed tab, a new page: nothing in memory survives, IndexedDB does.
  await page.reload();
  await page.waitForSelector('body[data-state="ready"]', { timeout: 20_000 });
  const second = await page.evaluate(
    async ({ url, token, cid }) => {
      const m = await import('/pkg/browser.mjs');
      const agent = new m.NeotomaAgent({ conversationId: cid, transport: { baseUrl: url, token } });
      const waiting = (await agent.pendingWrites()).length;
      const flushed = await agent.flush();
      const again = await agent.flush();
      return { waiting, flushed, again, left: (await agent.pendingWrites()).length };
    },
    { url: server.url, token: server.token, cid },
  );
  assert.equal(second.waiting, 2);
  assert.deepEqual(second.flushed, { flushed: 2, pending: 0, failed: [], superseded: [] });
  assert.deepEqual(second.again, { flushed: 0, pending: 0, failed: [], superseded: [] });
  assert.equal(second.left, 0);
  assert.deepEqual(await storedContents(cid), [
    ['user', 'Tell me about Acme Corp'],
    ['assistant', 'Acme Corp is fine.'],
  ]);
  assert.equal(server.counts()['/store'], 2, 'each write sent once');
  assert.ok(!(await indexedDbValues()).some((v) => v.includes(cid)), 'the queue is gone once sent');
});

test('the browser coming back online flushes the outbox; the token is never in IndexedDB', { timeout: 60_000 }, async () => {
  const cid = randomId('online');
  server.failNext('/store', 503, { error: { code: 'UNAVAILABLE', message: 'maintenance' } }, { times: 2 });
  const first = await page.evaluate(
    async ({ url, token, cid }) => {
      const m = await import('/pkg/browser.mjs');
      window.__events = [];
      const agent = new m.NeotomaAgent({
        conversationId: cid,
        transport: { baseUrl: url, token },
        retry: false,
        onEvent: (e) => window.__events.push(e),
      });
      window.__agent = agent; // the online listener holds the agent weakly
      const r = await agent.turn('What about Sarah Chen?', () => 'Sarah Chen is a colleague.', { turnId: 't1' });
      return { pending: r.pending, waiting: (await agent.pendingWrites()).length };
    },
    { url: server.url, token: server.token, cid },
  );
  assert.deepEqual(first.pending, { user: true, assistant: true });
  assert.equal(first.waiting, 2);
  const kept = await indexedDbValues();
  assert.ok(kept.some((v) => v.includes(cid)), 'the queue is in IndexedDB');
  for (const v of kept) assert.ok(!v.includes(server.token), 'no token in IndexedDB');

  const second = await page.evaluate(async () => {
    window.dispatchEvent(new Event('online'));
    for (let i = 0; i < 200 && (await window.__agent.pendingWrites()).length > 0; i++) {
      await new Promise((res) => setTimeout(res, 25));
    }
    return { waiting: (await window.__agent.pendingWrites()).length, events: window.__events };
  });
  assert.equal(second.waiting, 0);
  assert.deepEqual(
    second.events.map((e) => e.type),
    ['writePending', 'writePending', 'writeFlushed', 'writeFlushed'],
  );
  for (const e of second.events) assert.ok(!JSON.stringify(e).includes(server.token), 'no token in events');
  assert.deepEqual(await storedContents(cid), [
    ['user', 'What about Sarah Chen?'],
    ['assistant', 'Sarah Chen is a colleague.'],
  ]);
  const index = await turnIndex(server, cid);
  assert.deepEqual(await refersTo(server, index.turns[0].message_entity_id), [ids.sarah]);
});
