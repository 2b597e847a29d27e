// The embedded store in a real browser (headless Chromium): opened on IndexedDB, a conversation
// and everything remembered are there again after a page reload; export/import round-trips.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startStaticServer, launchChromium, repoRoot } from '../server/static-server.mjs';

let web;
let browser;
let page;
let blank;

before(async () => {
  // A blank page on the origin that serves pkg/ (nothing else on it touches IndexedDB).
  blank = mkdtempSync(join(tmpdir(), 'store-page-'));
  writeFileSync(join(blank, 'index.html'), '<!doctype html><title>store</title>');
  web = await startStaticServer({ mounts: [['/pkg/', join(repoRoot, 'pkg')], ['/', blank]] });
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
  await page.goto(web.url + '/');
});

after(async () => {
  await browser?.close();
  await web?.close();
  rmSync(blank, { recursive: true, force: true });
});

/** The conversation's turn-index and what a lookup finds, read in the page. */
const readMemory = `async (m, store, cid) => {
  const index = store.handle('GET', '/conversations/' + encodeURIComponent(cid) + '/turn-index').body;
  const dana = await store.retrieveEntityByIdentifier({ identifier: 'Dana Whitfield' });
  return { index, dana, exported: store.export() };
}`;

test('a store on IndexedDB survives a page reload', { timeout: 60_000 }, async () => {
  const cid = 'browser-persist-1';
  const before = await page.evaluate(
    async ({ cid, readMemory }) => {
      const m = await import('/pkg/browser.mjs');
      const store = await m.EmbeddedStore.open(m.indexedDbStoreStorage());
      const agent = new m.NeotomaAgent({ conversationId: cid, transport: store });
      await agent.turn('My colleague Dana Whitfield leads Project Kestrel', () => ({
        text: "I'll remember Dana Whitfield and Project Kestrel.",
        entities: [
          { entity_type: 'person', name: 'Dana Whitfield' },
          { entity_type: 'project', name: 'Project Kestrel', status: 'active' },
        ],
      }), { turnId: 't1' });
      await agent.turn('Who leads Project Kestrel?', () => 'Dana Whitfield does.', { turnId: 't2' });
      return (0, eval)(readMemory)(m, store, cid);
    },
    { cid, readMemory },
  );
  assert.equal(before.index.turns.length, 4);
  assert.equal(before.dana.entities.length, 1);

  // A closed tab, a new page: nothing in memory survives, IndexedDB does.
  await page.reload();
  const after = await page.evaluate(
    async ({ cid, readMemory }) => {
      const m = await import('/pkg/browser.mjs');
      const store = await m.EmbeddedStore.open(m.indexedDbStoreStorage());
      const memory = await (0, eval)(readMemory)(m, store, cid);
      // The next turn goes on in the same conversation.
      const agent = new m.NeotomaAgent({ conversationId: cid, transport: store });
      const next = await agent.turn('And Dana Whitfield?', (msg, ctx) => `I know ${ctx.retrieved.length} of them.`, { turnId: 't3', turnNumber: 3 });
      const text = JSON.stringify(store.export());
      const imported = m.EmbeddedStore.import(JSON.parse(text));
      return { ...memory, next, roundTrip: JSON.stringify(imported.export()) === text };
    },
    { cid, readMemory },
  );
  assert.deepEqual(after.index, before.index);
  assert.deepEqual(after.dana, before.dana);
  // Every record but the state (the clock of the reads above: stored with the next write).
  const withoutState = (document) => document.records.filter((r) => r.kind !== 'state');
  assert.deepEqual(withoutState(after.exported), withoutState(before.exported));
  assert.equal(after.next.conversationEntityId, before.index.conversation_entity_id);
  assert.equal(after.next.retrievedEntityIds.length, 1, 'Dana found after the reload');
  assert.ok(after.roundTrip, 'export -> JSON -> import -> export is exact in the browser');

  // What is in IndexedDB: one record per key, in the store's own database.
  const keys = await page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('neotoma-agent-wasm-store', 1);
        open.onsuccess = () => {
          const request = open.result.transaction('records', 'readonly').objectStore('records').getAllKeys();
          request.onsuccess = () => {
            open.result.close();
            resolve(request.result);
          };
          request.onerror = () => reject(request.error);
        };
        open.onerror = () => reject(open.error);
      }),
  );
  assert.ok(keys.includes('meta') && keys.includes('state'), keys.join(', '));
  assert.ok(keys.some((k) => k.startsWith('entity/')) && keys.some((k) => k.startsWith('idempotency/')));
});

test('a second tab cannot open the same IndexedDB store while the first has it open', { timeout: 60_000 }, async () => {
  const open = (p) =>
    p.evaluate(async () => {
      const m = await import('/pkg/browser.mjs');
      try {
        const store = await m.EmbeddedStore.open(m.indexedDbStoreStorage({ databaseName: 'two-tabs' }));
        await store.store({ entities: [{ entity_type: 'note', content: 'hi', title: 'one' }], idempotency_key: 'once' });
        return { ok: true, entities: store.entityCount };
      } catch (e) {
        return { code: e.code, message: e.message };
      }
    });
  const context = page.context();
  const first = await context.newPage();
  await first.goto(web.url + '/');
  assert.deepEqual(await open(first), { ok: true, entities: 1 });

  const second = await context.newPage();
  await second.goto(web.url + '/');
  const refused = await open(second);
  assert.equal(refused.code, 'STORE_STORAGE');
  assert.match(refused.message, /two-tabs\/records is open in another tab or window/);

  // Once the first tab is gone (its lock goes a moment later: open waits), the second opens
  // the same memory.
  await first.close();
  assert.deepEqual(await open(second), { ok: true, entities: 1 });
  await second.close();
});
