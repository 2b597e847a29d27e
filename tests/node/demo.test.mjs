// The demo (`make demo`'s own server, scripts/serve-demo.mjs) in headless Chromium, driven by
// roles and labels: told about Dana Whitfield, it says what it will remember; asked, it answers
// from memory; after a reload, the same; export, clear, import: the same again. A keyboard-only
// first turn. Screenshots at 1280 and 360 px (no horizontal scroll) under target/test-output/demo/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { launchChromium, repoRoot } from '../server/static-server.mjs';
import { imageStats, serveDemo } from '../server/browser-checks.mjs';

const OUT = join(repoRoot, 'target', 'test-output', 'demo');
const TOLD = 'My colleague Dana Whitfield at Orbital Labs is leading Project Kestrel';
const ASKED = 'What do you know about Dana Whitfield?';
const ANSWER = 'Dana Whitfield: person, at Orbital Labs, leading Project Kestrel.';

let demo;
let browser;
/** The 1280 px screenshot the first test takes, for the last one to check (not a file an
 *  earlier run may have left). */
let wideShot = null;

before(async () => {
  mkdirSync(OUT, { recursive: true });
  demo = await serveDemo({ NEOTOMA_URL: '', NEOTOMA_TOKEN: '' });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

/** A page on the demo, with what went wrong on it collected. */
async function open(contextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, ...contextOptions });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => msg.type() === 'error' && problems.push(`console: ${msg.text()}`));
  page.on('request', (req) => {
    if (!req.url().startsWith(demo.url) && !req.url().startsWith('blob:') && !req.url().startsWith('data:')) problems.push(`foreign request ${req.url()}`);
  });
  await page.goto(`${demo.url}/`);
  await page.getByRole('status').filter({ hasText: 'Ready.' }).waitFor({ timeout: 20_000 });
  return { context, page, problems };
}

const ui = (page) => ({
  box: page.getByRole('textbox', { name: 'Message' }),
  send: page.getByRole('button', { name: 'Send' }),
  log: page.getByRole('log'),
});

/** Sends `text` and waits until the reply is there and Send is enabled again. */
async function say(page, text, replyText) {
  const { box, log, send } = ui(page);
  await box.fill(text);
  await box.press('Enter');
  await log.getByText(replyText, { exact: false }).last().waitFor({ timeout: 15_000 });
  await send.waitFor({ state: 'visible' });
  await page.waitForFunction(() => !document.querySelector('neotoma-chat').hasAttribute('busy'));
}

/** Texts the last assistant message went through as it streamed. */
function watchReply(page) {
  return page.evaluate(() => {
    const root = document.querySelector('neotoma-chat').shadowRoot;
    window.replyTexts = [];
    new MutationObserver(() => {
      const all = root.querySelectorAll('[part~="message-assistant"] [part="message-text"]');
      const text = all.length ? all[all.length - 1].textContent : '';
      if (window.replyTexts.at(-1) !== text) window.replyTexts.push(text);
    }).observe(root, { subtree: true, childList: true, characterData: true });
  });
}

test('demo: it remembers what it is told, across a reload and an export, clear and import', { timeout: 90_000 }, async () => {
  const { context, page, problems } = await open();
  const { log } = ui(page);

  await watchReply(page);
  await say(page, TOLD, "I'll remember Dana Whitfield");
  const streamed = await page.evaluate(() => window.replyTexts);
  assert.ok(streamed.length > 3, `the reply streamed in (${streamed.length} states)`);
  assert.equal(streamed.at(-1), "I'll remember Dana Whitfield (person, at Orbital Labs), Orbital Labs (company) and Project Kestrel (project).");

  // what turn 1 produced, its store warnings in plain words (not the server's codes)
  await page.getByRole('button', { name: /Memory · turn 1/ }).click();
  const first = page.getByLabel(/Memory of turn 1/).first();
  await first.getByText('Orbital Labs').first().waitFor();
  const firstText = await first.textContent();
  const produced = firstText.slice(firstText.indexOf('Entities produced'), firstText.indexOf('Messages stored'));
  assert.match(produced, /company Orbital Labs · created \(written at the default trust level/);
  assert.doesNotMatch(produced, /SOURCE_PRIORITY_ESCALATION|UNKNOWN_FIELD/);
  // the requests the turn took, with their times (the element times the store it was given)
  assert.match(firstText, /\/store/);
  await page.keyboard.press('Escape');

  await say(page, ASKED, ANSWER);
  const reply = await log.getByText(ANSWER).last().textContent();
  assert.match(reply, /Orbital Labs/);
  assert.match(reply, /Project Kestrel/);
  // the memory panel of the turn lists Dana Whitfield as retrieved
  await page.getByRole('button', { name: /Memory · turn 2/ }).click();
  const panel = page.getByRole('region', { name: /Memory of turn 2/ }).or(page.getByLabel(/Memory of turn 2/));
  await panel.getByText('Dana Whitfield').first().waitFor();
  const panelText = await panel.first().textContent();
  assert.match(panelText, /retrieved/i);
  await page.keyboard.press('Escape');
  wideShot = await page.screenshot({ path: join(OUT, 'demo-1280.png'), fullPage: true });

  // reload: the conversation is still shown, and the answer is the same
  await page.reload();
  await page.getByRole('status').filter({ hasText: 'Ready.' }).waitFor({ timeout: 20_000 });
  await log.getByText(TOLD).first().waitFor();
  await log.getByText(ANSWER).first().waitFor();
  await say(page, ASKED, ANSWER);
  assert.equal(await log.getByText(ANSWER).count(), 2);

  // export, clear, import: the same memory
  await page.getByText('Memory', { exact: true }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export memory' }).click()]);
  const file = join(OUT, 'neotoma-memory.json');
  await download.saveAs(file);
  const exported = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(exported.format, 'neotoma-embedded-store');
  await page.getByRole('button', { name: 'Clear memory' }).click();
  await page.getByRole('status').filter({ hasText: 'Memory cleared' }).waitFor();
  assert.equal(await log.getByText(TOLD).count(), 0, 'the log is empty after clearing');
  await say(page, ASKED, "I don't know anything about that yet");

  await page.getByLabel('Import memory').setInputFiles(file);
  await page.getByRole('status').filter({ hasText: 'Memory imported' }).waitFor();
  await log.getByText(TOLD).first().waitFor();
  await say(page, ASKED, ANSWER);
  // what was imported is kept: a reload still has it
  await page.reload();
  await page.getByRole('status').filter({ hasText: 'Ready.' }).waitFor({ timeout: 20_000 });
  await log.getByText(TOLD).first().waitFor();

  assert.deepEqual(problems, []);
  await context.close();
});

test('demo: a first turn with the keyboard only', { timeout: 60_000 }, async () => {
  const { context, page, problems } = await open();
  const { box, log } = ui(page);
  // Tab from the top of the page reaches the message box
  let reached = false;
  for (let i = 0; i < 12 && !reached; i += 1) {
    await page.keyboard.press('Tab');
    reached = await box.evaluate((el) => el.matches(':focus'));
  }
  assert.ok(reached, 'Tab reaches the message box');
  await page.keyboard.type('My colleague Ana Ruiz at Heron Labs');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('is leading Project Heron');
  await page.keyboard.press('Enter');
  await log.getByText("I'll remember Ana Ruiz").waitFor({ timeout: 15_000 });
  assert.equal(await log.getByText('Project Heron').count() > 0, true);
  assert.deepEqual(problems, []);
  await context.close();
});

test('demo: 360 px wide, nothing cut off and no horizontal scroll; screenshots are not blank', { timeout: 60_000 }, async () => {
  const { context, page, problems } = await open({ viewport: { width: 360, height: 800 } });
  await say(page, TOLD, "I'll remember");
  const scroll = await page.evaluate(() => ({ width: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert.ok(scroll.width <= 360, `no horizontal scroll at 360 px: ${JSON.stringify(scroll)}`);
  const narrow = await page.screenshot({ path: join(OUT, 'demo-360.png'), fullPage: true });
  const stats = await imageStats(page, narrow);
  assert.ok(stats.colours > 20 && stats.commonest < 0.95, `not blank: ${JSON.stringify(stats)}`);
  assert.ok(wideShot, 'the first test took the 1280 px screenshot');
  const wideStats = await imageStats(page, wideShot);
  assert.equal(wideStats.width, 1280);
  assert.ok(wideStats.colours > 20 && wideStats.commonest < 0.95, `not blank: ${JSON.stringify(wideStats)}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('demo: an OpenAI-compatible model from the settings, and the switch to a real Neotoma behind /neotoma', { timeout: 60_000 }, async () => {
  const { startOpenAIServer } = await import('../packaging/edge/openai-sse-server.mjs');
  const { startTestServer, turnIndex } = await import('../server/harness.mjs');
  const model = await startOpenAIServer();
  const neotoma = await startTestServer();
  const withNeotoma = await serveDemo({ NEOTOMA_URL: neotoma.url, NEOTOMA_TOKEN: neotoma.token });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  try {
    await page.goto(`${withNeotoma.url}/`);
    await page.getByRole('status').filter({ hasText: 'Ready.' }).waitFor({ timeout: 20_000 });

    // the model settings: base URL, model, a key kept in memory only
    await page.locator('summary').filter({ hasText: /^Model$/ }).click();
    await page.getByLabel('Base URL').fill(`${model.url}/v1`);
    await page.getByLabel('Model', { exact: true }).fill('demo-test-model');
    await page.getByLabel('API key').fill('sk-demo-key');
    await page.getByRole('button', { name: 'Use this model' }).click();
    await page.getByText('Now: demo-test-model').waitFor();
    const args = JSON.stringify({ entities: [{ entity_type: 'person', name: 'Lee Park', organization: 'Acme Corp' }] });
    model.planReply(['Noted: ', 'Lee Park works at Acme Corp.', { tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'remember', arguments: args } }] }]);
    await say(page, 'Lee Park works at Acme Corp', 'Lee Park works at Acme Corp.');
    const request = model.requests.at(-1);
    assert.equal(request.headers.authorization, 'Bearer sk-demo-key');
    assert.equal(request.body.model, 'demo-test-model');
    assert.equal(request.body.tools[0].function.name, 'remember');
    await page.getByRole('button', { name: /Memory · turn 1/ }).click();
    await page.getByLabel(/Memory of turn 1/).first().getByText('Lee Park').first().waitFor();
    const stored = await page.evaluate(() => JSON.stringify(localStorage) + document.cookie);
    assert.ok(!stored.includes('sk-demo-key'), 'the key is not stored');

    // the memory switched to the real Neotoma: the next turn is stored there, through /neotoma
    await page.getByText('Memory', { exact: true }).click();
    await page.getByLabel('Neotoma server (through this site\'s proxy)').check();
    await page.getByText('Kept in the Neotoma server').waitFor();
    await page.getByRole('button', { name: 'Use the built-in responder' }).click();
    await say(page, 'My colleague Dana Whitfield at Orbital Labs is leading Project Kestrel', "I'll remember Dana Whitfield");
    const cid = (await page.locator('#conversation-id').textContent()).trim();
    assert.equal((await turnIndex(neotoma, cid)).turns.length, 2, 'both messages reached the real store');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await withNeotoma.close();
    await neotoma.close();
    await model.close();
  }
});
