// Smoke test of the demo page (www/) in headless Chromium: it loads /pkg/browser.mjs, seeds the
// embedded store, answers two messages from what retrieval found, and shows the retrieved and
// stored panels and the turn-index. Serves www/ at / and pkg/ at /pkg/ itself, on 127.0.0.1:0.
// Screenshot: /tmp/demo.png (DEMO_SCREENSHOT overrides).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { startStaticServer, repoRoot as root, launchChromium } from '../server/static-server.mjs';

const SCREENSHOT = process.env.DEMO_SCREENSHOT ?? '/tmp/demo.png';


let web;
let browser;

before(async () => {
  web = await startStaticServer();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await web?.close();
});

test('demo: two messages, replies from retrieval, retrieved/stored panels and turn-index', { timeout: 60_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  const foreign = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()} ${res.url()}`);
  });
  page.on('request', (req) => {
    if (!req.url().startsWith(web.url + '/') && !req.url().startsWith('data:')) foreign.push(req.url());
  });

  await page.goto(web.url + '/', { waitUntil: 'load' });
  await page.waitForSelector('body[data-state="ready"]', { timeout: 20_000 });
  assert.match(await page.textContent('#status'), /Ready/);
  const cid = (await page.textContent('#conversation-id')).trim();
  assert.match(cid, /^demo-[0-9a-f]+$/);
  assert.equal(await page.locator('#known-entities li').count(), 3, 'three seeded entities');

  // ---- turn 1
  await page.fill('#message', 'Tell me about Acme Corp and "Project Falcon"');
  await page.press('#message', 'Enter');
  await page.waitForSelector('#messages .message.assistant', { timeout: 15_000 });
  await page.waitForSelector('body[data-state="ready"]');
  const reply1 = await page.textContent('#messages .message.assistant >> nth=0');
  const chunks = Number(await page.getAttribute('#messages .message.assistant >> nth=0', 'data-chunks'));
  assert.ok(chunks > 1, `the reply was rendered as it streamed (${chunks} chunks)`);
  assert.match(reply1, /I found Acme Corp \(company/);
  assert.match(reply1, /Project Falcon \(project/);

  const extracted1 = await page.locator('#extracted li').allTextContents();
  assert.deepEqual(extracted1, ['Acme Corp', 'Project Falcon']);
  const retrievedRows = await page.$$eval('#retrieved tr', (rows) =>
    rows.map((r) => ({ id: r.dataset.entityId, cells: [...r.cells].map((c) => c.textContent.trim()) })),
  );
  assert.equal(retrievedRows.length, 2);
  assert.deepEqual(retrievedRows.map((r) => r.cells[0]).sort(), ['Acme Corp', 'Project Falcon']);
  assert.deepEqual(retrievedRows.map((r) => r.cells[1]).sort(), ['company', 'project']);
  for (const r of retrievedRows) assert.match(r.id, /^ent_/);

  const stored1 = await page.$$eval('#stored dd', (dds) => Object.fromEntries(dds.map((d) => [d.dataset.field, d.textContent.trim()])));
  assert.match(stored1['user-message'], /^ent_/);
  assert.match(stored1['assistant-message'], /^ent_/);
  assert.notEqual(stored1['user-message'], stored1['assistant-message']);
  assert.match(stored1['user-refers-to'], /Acme Corp/);
  assert.match(stored1['user-refers-to'], /Project Falcon/);
  assert.match(stored1['assistant-refers-to'], /Acme Corp/);
  assert.match(stored1.replayed, /user no · assistant no/);
  assert.match(stored1.turn, /^#1/);

  let index = await page.$$eval('#turn-index tr', (rows) => rows.map((r) => ({ role: r.dataset.role, key: r.dataset.turnKey, cells: [...r.cells].map((c) => c.textContent.trim()) })));
  assert.equal(index.length, 2);
  assert.deepEqual(index.map((r) => r.role), ['user', 'assistant']);
  assert.ok(index.every((r) => r.key.startsWith(`${cid}:`)));
  assert.deepEqual(index.map((r) => r.cells[0]), ['1', '1']);

  // ---- turn 2 (via a suggestion chip)
  await page.click('button[data-example="What did Sarah Chen say about Acme Corp?"]');
  await page.waitForFunction(() => document.querySelectorAll('#messages .message.assistant').length === 2, null, { timeout: 15_000 });
  await page.waitForSelector('body[data-state="ready"]');
  const reply2 = await page.textContent('#messages .message.assistant >> nth=1');
  assert.match(reply2, /Sarah Chen \(person/);
  assert.match(reply2, /Acme Corp/);
  const extracted2 = await page.locator('#extracted li').allTextContents();
  assert.deepEqual(extracted2, ['Sarah Chen', 'Acme Corp']);
  assert.match(await page.textContent('#stored dd[data-field="turn"]'), /^#2/);

  index = await page.$$eval('#turn-index tr', (rows) => rows.map((r) => ({ role: r.dataset.role, cells: [...r.cells].map((c) => c.textContent.trim()) })));
  assert.equal(index.length, 4);
  assert.deepEqual(index.map((r) => r.cells[0]), ['1', '1', '2', '2']);
  // the responder cites everything it found: the user rows list their entities as stored
  assert.match(index[0].cells[3], /Acme Corp/);
  assert.match(index[0].cells[3], /Project Falcon/);
  assert.match(index[2].cells[3], /Sarah Chen/);

  // ---- a message about nothing stored
  await page.fill('#message', 'Have we met Jordan Blake?');
  await page.click('#send');
  await page.waitForFunction(() => document.querySelectorAll('#messages .message.assistant').length === 3, null, { timeout: 15_000 });
  await page.waitForSelector('body[data-state="ready"]'); // the reply has finished streaming
  assert.match(await page.textContent('#messages .message.assistant >> nth=2'), /I don't have anything stored about that yet/);
  assert.match(await page.textContent('#retrieved'), /Nothing found/);

  await page.waitForSelector('body[data-state="ready"]');
  await page.screenshot({ path: SCREENSHOT, fullPage: true });

  assert.deepEqual(problems, [], 'no console errors');
  assert.deepEqual(foreign, [], 'no request leaves the page origin');
  assert.ok(web.served.includes('/pkg/browser.mjs'));
  await context.close();
});

test('demo: an invalid message shows the error code inline', { timeout: 60_000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(web.url + '/');
  await page.waitForSelector('body[data-state="ready"]', { timeout: 20_000 });
  // the demo caps messages at 16 KB
  await page.evaluate(() => {
    document.querySelector('#message').value = 'x'.repeat(20 * 1024);
  });
  await page.click('#send');
  await page.waitForSelector('#messages .message.error', { timeout: 15_000 });
  assert.equal(await page.getAttribute('#messages .message.error', 'data-code'), 'INVALID_INPUT');
  assert.match(await page.textContent('#messages .message.error'), /INVALID_INPUT/);
  assert.equal(await page.getAttribute('#messages .message.error', 'role'), 'alert');
  await page.waitForSelector('body[data-state="ready"]');
  await context.close();
});
