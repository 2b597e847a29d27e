// <neotoma-chat> (js/widget.mjs, `neotoma-agent-wasm/widget`) in headless Chromium, driven by
// roles and labels only: the textbox "Message", the button "Send", the log, the memory panels'
// buttons and regions. Pages: tests/widget/minimal.html (the widget alone, the model set as a
// property, on the embedded store) and tests/widget/embed.html + embed.mjs (the README's embed
// snippet, through createNeotomaProxy to the Neotoma-shaped test server). Needs the built
// package (`PKG_SIZE_BUDGET=warn node scripts/build-pkg.mjs`). Screenshots:
// target/test-output/widget/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

import { imageStats } from '../server/browser-checks.mjs';
import { startStaticServer, repoRoot, launchChromium } from '../server/static-server.mjs';
import { startTestServer, seedStandard, turnIndex } from '../server/harness.mjs';

const OUT = join(repoRoot, 'target', 'test-output', 'widget');
const MOUNTS = [
  ['/pkg/', join(repoRoot, 'pkg')],
  ['/', join(repoRoot, 'tests', 'widget')],
];

let web;
let browser;

before(async () => {
  mkdirSync(OUT, { recursive: true });
  web = await startStaticServer({ mounts: MOUNTS });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await web?.close();
});

/** A fresh context on `path`, with the element defined; console errors and page errors collected. */
async function open(path, { base = web.url, ...contextOptions } = {}) {
  const context = await browser.newContext(contextOptions);
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  await page.goto(base + path);
  await page.evaluate(async () => {
    await customElements.whenDefined('neotoma-chat');
    // Every neotoma-turn / neotoma-error reaching the document (they bubble out of the shadow root).
    window.turns = [];
    window.errors = [];
    document.addEventListener('neotoma-turn', (e) => turns.push({ ...e.detail, bubbles: e.bubbles, composed: e.composed }));
    document.addEventListener('neotoma-error', (e) =>
      errors.push({ name: e.detail?.name, code: e.detail?.code, message: e.detail?.message, bubbles: e.bubbles, composed: e.composed }),
    );
  });
  const ui = {
    box: page.getByRole('textbox', { name: 'Message' }),
    send: page.getByRole('button', { name: 'Send' }),
    log: page.getByRole('log'),
  };
  return { context, page, problems, ui };
}

/** Polls `fn` (async) until it returns a truthy value. */
async function until(fn, what, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const count = (page, what) => page.evaluate((w) => window[w].length, what);

/** Waits for the n-th neotoma-turn (1-based) or neotoma-error, then for Send to be enabled again. */
async function settled(page, ui, { turns = 0, errors = 0 } = {}) {
  await until(async () => (await count(page, 'turns')) >= turns && (await count(page, 'errors')) >= errors, `${turns} turns, ${errors} errors`);
  await until(() => ui.send.isEnabled(), 'Send enabled again');
}

/** Texts the last assistant message went through while it streamed. */
function watchAssistantText(page) {
  return page.evaluate(() => {
    const root = document.querySelector('neotoma-chat').shadowRoot;
    window.assistantTexts = [];
    const seen = () => {
      const all = root.querySelectorAll('[part~="message-assistant"] [part="message-text"]');
      const text = all.length ? all[all.length - 1].textContent : '';
      if (window.assistantTexts.at(-1) !== text) window.assistantTexts.push(text);
    };
    new MutationObserver(seen).observe(root, { subtree: true, childList: true, characterData: true });
  });
}

/** The focused element inside the widget: its role-ish description. */
function focused(page) {
  return page.evaluate(() => {
    const el = document.querySelector('neotoma-chat').shadowRoot.activeElement;
    if (!el) return null;
    const style = getComputedStyle(el);
    return {
      tag: el.tagName.toLowerCase(),
      part: el.getAttribute('part'),
      expanded: el.getAttribute('aria-expanded'),
      focusVisible: el.matches(':focus-visible'),
      outline: `${style.outlineStyle} ${style.outlineWidth}`,
    };
  });
}

test('a turn streams, the memory panel shows what it produced and stored, a second turn retrieves it', { timeout: 30_000 }, async () => {
  const { context, page, problems, ui } = await open('/minimal.html');
  await watchAssistantText(page);

  await ui.box.fill('My colleague Dana Whitfield works at Orbital Labs');
  await ui.box.press('Enter');
  await settled(page, ui, { turns: 1 });

  const reply = 'Noted: I will remember Dana Whitfield from Orbital Labs.';
  const log = await ui.log.innerText();
  assert.match(log, /My colleague Dana Whitfield works at Orbital Labs/);
  assert.ok(log.includes(reply), log);
  const texts = await page.evaluate(() => window.assistantTexts.filter((t) => t !== ''));
  assert.ok(texts.length >= 4, `the reply was shown as it streamed: ${JSON.stringify(texts)}`);
  assert.equal(texts.at(-1), reply);
  for (const t of texts) assert.ok(reply.startsWith(t), `a prefix of the reply: ${t}`);

  const [turn] = await page.evaluate(() => window.turns);
  assert.equal(turn.bubbles, true);
  assert.equal(turn.composed, true);
  assert.equal(turn.turnNumber, 1);
  assert.equal(turn.assistantMessage, reply);
  assert.equal(turn.produced.length, 1);
  const dana = turn.produced[0];
  assert.equal(dana.entity_type, 'person');
  assert.equal(dana.action, 'created');
  assert.match(turn.userMessageEntityId, /^ent_/);
  assert.match(turn.assistantMessageEntityId, /^ent_/);

  // The panel is closed until asked for.
  const toggle1 = page.getByRole('button', { name: /^Memory · turn 1/ });
  assert.equal(await toggle1.getAttribute('aria-expanded'), 'false');
  assert.equal(await page.getByRole('region', { name: 'Memory of turn 1' }).count(), 0, 'hidden panels are not in the accessibility tree');
  await toggle1.click();
  assert.equal(await toggle1.getAttribute('aria-expanded'), 'true');
  const panel1 = await page.getByRole('region', { name: 'Memory of turn 1' }).innerText();
  const section = (text, from, to) => text.slice(text.indexOf(from), to ? text.indexOf(to) : undefined);
  assert.match(section(panel1, 'Identifiers extracted', 'Entities retrieved'), /Dana Whitfield[\s\S]*Orbital Labs/);
  assert.match(section(panel1, 'Entities retrieved', 'Entities produced'), /none/);
  const produced = section(panel1, 'Entities produced', 'Messages stored');
  assert.match(produced, /person\s+Dana Whitfield · created/);
  assert.ok(produced.includes(dana.id));
  const stored = section(panel1, 'Messages stored', 'Edges');
  assert.ok(stored.includes(turn.userMessageEntityId), stored);
  assert.ok(stored.includes(turn.assistantMessageEntityId), stored);
  assert.ok(stored.includes(turn.conversationEntityId), stored);
  const edges = section(panel1, 'Edges', 'Requests');
  assert.match(edges, /The reply REFERS_TO \(1\)[\s\S]*Dana Whitfield/);
  assert.ok(edges.includes(dana.id));
  const requests = section(panel1, 'Requests', 'Report');
  assert.match(requests, /turn \d+ ms · first words after \d+ ms · 4 requests · 0 retries/);
  assert.match(requests, /POST \/retrieve_entity_by_identifier “Dana Whitfield” · 200 · \d+ ms/);
  assert.equal(requests.match(/POST \/store · 200/g)?.length, 2, requests);

  // Turn 2 names the entity turn 1 produced: retrieval finds it.
  await ui.box.fill('What do you know about Dana Whitfield?');
  await ui.box.press('Enter');
  await settled(page, ui, { turns: 2 });
  const turn2 = (await page.evaluate(() => window.turns))[1];
  assert.equal(turn2.turnNumber, 2);
  assert.deepEqual(turn2.retrievedEntityIds, [dana.id]);
  assert.ok((await ui.log.innerText()).includes('I remember Dana Whitfield (person).'));
  await page.getByRole('button', { name: /^Memory · turn 2/ }).click();
  const panel2 = await page.getByRole('region', { name: 'Memory of turn 2' }).innerText();
  const retrieved2 = section(panel2, 'Entities retrieved', 'Entities produced');
  assert.match(retrieved2, /person\s+Dana Whitfield · found by “Dana Whitfield”/);
  assert.ok(retrieved2.includes(dana.id));
  assert.match(section(panel2, 'Edges', 'Requests'), /Your message REFERS_TO \(1\)[\s\S]*Dana Whitfield/);

  assert.deepEqual(
    await page.evaluate(() => document.querySelector('neotoma-chat').history),
    [
      { role: 'user', content: 'My colleague Dana Whitfield works at Orbital Labs' },
      { role: 'assistant', content: reply },
      { role: 'user', content: 'What do you know about Dana Whitfield?' },
      { role: 'assistant', content: 'I remember Dana Whitfield (person).' },
    ],
  );
  assert.deepEqual(await page.evaluate(() => window.errors), []);
  assert.deepEqual(problems, []);
  await context.close();
});

test('failures are shown in place in plain words, the text stays in the box, Send comes back', { timeout: 30_000 }, async () => {
  const { context, page, problems, ui } = await open('/minimal.html');
  const alerts = page.getByRole('alert');
  const lastAlert = () => alerts.last().innerText();

  // 1. The model's callback throws: the user message was stored and stays; no reply is shown.
  await page.evaluate(() => {
    document.querySelector('neotoma-chat').llm = () => {
      throw new Error('model is down');
    };
  });
  await ui.box.fill('Hello there');
  await ui.box.press('Enter');
  await settled(page, ui, { errors: 1 });
  assert.match(await lastAlert(), /The model could not answer: its callback failed/);
  assert.doesNotMatch(await lastAlert(), /model is down/, 'the raw error stays under "Technical details"');
  assert.equal(await ui.box.inputValue(), 'Hello there');
  assert.ok(await ui.send.isEnabled());
  let errors = await page.evaluate(() => window.errors);
  assert.deepEqual(errors[0], { name: 'Error', code: undefined, message: 'model is down', bubbles: true, composed: true });
  assert.deepEqual(await page.evaluate(() => document.querySelector('neotoma-chat').history), [{ role: 'user', content: 'Hello there' }]);

  // 2. A stream that breaks midway: the partial reply is taken back.
  await page.evaluate(() => {
    document.querySelector('neotoma-chat').llm = () =>
      (async function* () {
        yield 'Half a ';
        await new Promise((r) => setTimeout(r, 30));
        throw new Error('stream broke');
      })();
  });
  await ui.send.click();
  await settled(page, ui, { errors: 2 });
  assert.match(await lastAlert(), /The model could not answer/);
  assert.doesNotMatch(await ui.log.innerText(), /Half a/);
  assert.equal(await ui.box.inputValue(), 'Hello there');
  // the resend is the same turn: the stored message is not stored, nor shown, a second time
  assert.deepEqual(await page.evaluate(() => document.querySelector('neotoma-chat').history), [{ role: 'user', content: 'Hello there' }]);
  await page.evaluate(() => {
    document.querySelector('neotoma-chat').llm = () => 'Hello to you.';
  });
  await ui.send.click();
  await settled(page, ui, { turns: 1 });
  const [resent] = await page.evaluate(() => window.turns);
  assert.equal(resent.replayed.user, true, 'the user message was a replay of the stored one');
  assert.equal(resent.turnNumber, 1);
  assert.deepEqual(await page.evaluate(() => document.querySelector('neotoma-chat').history), [
    { role: 'user', content: 'Hello there' },
    { role: 'assistant', content: 'Hello to you.' },
  ]);
  await page.evaluate(() => {
    window.turns.length = 0;
  });

  // 3. Bad input (INVALID_INPUT): nothing was sent, so nothing is shown as sent.
  await page.evaluate(() => {
    const chat = document.querySelector('neotoma-chat');
    chat.agentOptions = { maxMessageBytes: 64 };
    chat.llm = () => 'fine';
  });
  const long = 'This message is far longer than the sixty-four bytes this chat accepts today.';
  await ui.box.fill(long);
  await ui.box.press('Enter');
  await settled(page, ui, { errors: 3 });
  assert.match(await lastAlert(), /Your message is too long to send \(the limit is 64 bytes\)/);
  assert.equal(await alerts.last().getAttribute('data-code'), 'INVALID_INPUT');
  assert.doesNotMatch(await lastAlert(), /INVALID_INPUT|maxMessageBytes/);
  assert.equal(await ui.box.inputValue(), long);
  assert.ok(!(await ui.log.innerText()).includes(long), 'a message that was not sent is not in the log');
  errors = await page.evaluate(() => window.errors);
  assert.equal(errors[2].code, 'INVALID_INPUT');

  // 4. No llm: the widget says so, sends nothing, and does not break.
  await page.evaluate(() => {
    document.querySelector('neotoma-chat').llm = null;
  });
  assert.match(await page.getByRole('status').innerText(), /needs a model/);
  await ui.box.fill('Anyone there?');
  await ui.box.press('Enter');
  await settled(page, ui, { errors: 4 });
  assert.match(await lastAlert(), /not connected to a model/);
  assert.equal(await ui.box.inputValue(), 'Anyone there?');
  assert.equal((await page.evaluate(() => window.errors))[3].code, 'NO_LLM');

  // And it still works once it has one.
  await page.evaluate(() => {
    document.querySelector('neotoma-chat').llm = () => 'Here now.';
  });
  assert.equal(await page.getByRole('status').count(), 0, 'the setup notice is gone');
  await ui.box.fill('Short one');
  await ui.box.press('Enter');
  await settled(page, ui, { turns: 1 });
  assert.match(await ui.log.innerText(), /Here now\./);
  // Turn 1 stored its user message before the model failed, and was completed by its resend;
  // the agent made anew for the new agentOptions numbers on from it.
  assert.equal((await page.evaluate(() => window.turns))[0].turnNumber, 2);
  // clearing the log keeps the conversation's count: the next turn is 3, not 1 again
  await page.evaluate(() => document.querySelector('neotoma-chat').clear());
  await ui.box.fill('After clearing');
  await ui.box.press('Enter');
  await settled(page, ui, { turns: 2 });
  assert.equal((await page.evaluate(() => window.turns))[1].turnNumber, 3);
  assert.deepEqual(problems, []);
  await context.close();
});

test('store unreachable: the turn is kept in the outbox, said in place; requests and retries listed', { timeout: 30_000 }, async () => {
  const dead = http.createServer();
  await new Promise((r) => dead.listen(0, '127.0.0.1', r));
  const deadUrl = `http://127.0.0.1:${dead.address().port}`;
  await new Promise((r) => dead.close(r));

  const { context, page, ui } = await open('/minimal.html');
  await page.evaluate((url) => {
    const chat = document.querySelector('neotoma-chat');
    chat.setAttribute('conversation-id', `widget-dead-${Date.now()}`);
    chat.setAttribute('base-url', url);
    chat.agentOptions = { retry: { maxAttempts: 2, initialDelayMs: 5, maxDelayMs: 10 } };
  }, deadUrl);
  await ui.box.fill('Tell me about Acme Corp');
  await ui.box.press('Enter');
  await settled(page, ui, { turns: 1 });
  const [turn] = await page.evaluate(() => window.turns);
  assert.deepEqual(turn.pending, { user: true, assistant: true });
  assert.match(await ui.log.innerText(), /could not be reached: this turn is kept in this browser and will be saved when the store is back/);
  await page.getByRole('button', { name: /^Memory · turn 1/ }).click();
  const panel = await page.getByRole('region', { name: 'Memory of turn 1' }).innerText();
  assert.match(panel, /Your message: waiting in the outbox/);
  assert.match(panel, /The reply: waiting in the outbox/);
  assert.match(panel, /POST \/retrieve_entity_by_identifier · no answer · \d+ ms/);
  assert.match(panel, /POST \/store · no answer/);
  assert.match(panel, /[1-9]\d* retr(y|ies)/);
  assert.match(panel, /Retries:[\s\S]*\/store: attempt 1 failed \(no answer\), tried again after \d+ ms/);
  assert.equal(await page.evaluate(() => window.errors.length), 0, 'a pending turn is not an error');
  await context.close();
});

test('keyboard only: Tab to the box, Shift+Enter new line, Enter sends, Escape closes the panel; focus is visible', { timeout: 30_000 }, async () => {
  const { context, page, problems, ui } = await open('/minimal.html');
  await page.keyboard.press('Tab');
  let f = await focused(page);
  assert.equal(f?.part, 'input', 'the first Tab reaches the message box');
  assert.ok(f.focusVisible);
  assert.match(f.outline, /^solid [1-9]/);

  await page.keyboard.type('Line one about Dana Whitfield');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('line two');
  assert.equal(await ui.box.inputValue(), 'Line one about Dana Whitfield\nline two', 'Shift+Enter adds a line, sends nothing');
  assert.equal(await count(page, 'turns'), 0);
  await page.keyboard.press('Enter');
  await settled(page, ui, { turns: 1 });
  assert.equal((await page.evaluate(() => window.turns))[0].assistantMessage.length > 0, true);
  assert.deepEqual((await page.evaluate(() => document.querySelector('neotoma-chat').history))[0], {
    role: 'user',
    content: 'Line one about Dana Whitfield\nline two',
  });
  assert.equal((await focused(page))?.part, 'input', 'the focus stays in the box');
  assert.equal(await ui.box.inputValue(), '');

  // Back to the turn's memory button, open it, into the panel, Escape.
  await page.keyboard.press('Shift+Tab');
  f = await focused(page);
  assert.equal(f?.part, 'panel-toggle');
  assert.ok(f.focusVisible);
  assert.match(f.outline, /^solid [1-9]/);
  await page.keyboard.press('Enter');
  const region = page.getByRole('region', { name: 'Memory of turn 1' });
  assert.ok(await region.isVisible());
  await page.keyboard.press('Tab'); // the report's <summary>, inside the panel
  assert.equal((await focused(page))?.tag, 'summary');
  await page.keyboard.press('Escape');
  assert.equal(await region.count(), 0, 'Escape closed the panel');
  f = await focused(page);
  assert.equal(f?.part, 'panel-toggle', 'the focus went back to its button');
  assert.equal(f.expanded, 'false');

  // Escape from the box closes the panel opened last, and the focus stays in the box.
  await page.keyboard.press('Space');
  assert.ok(await region.isVisible());
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.equal((await focused(page))?.part, 'input', 'Tab goes on through the panel to the box');
  await page.keyboard.press('Escape');
  assert.equal(await region.count(), 0);
  assert.equal((await focused(page))?.part, 'input');

  // Tab from the box reaches Send.
  await page.keyboard.press('Tab');
  assert.equal((await focused(page))?.part, 'send');
  assert.deepEqual(problems, []);
  await context.close();
});

test('360 px wide: nothing cut off, no horizontal scroll, light and dark; screenshots are not blank', { timeout: 30_000 }, async () => {
  const { context, page, problems, ui } = await open('/minimal.html', { viewport: { width: 360, height: 760 }, colorScheme: 'light' });
  await ui.box.fill(`Dana Whitfield sent ${'a-very-long-unbroken-token-'.repeat(8)}end`);
  await ui.box.press('Enter');
  await settled(page, ui, { turns: 1 });
  await page.getByRole('button', { name: /^Memory · turn 1/ }).click();
  await page.getByRole('region', { name: 'Memory of turn 1' }).waitFor();

  const fits = () =>
    page.evaluate(() => {
      const chat = document.querySelector('neotoma-chat');
      const root = chat.shadowRoot;
      const overflowing = [...root.querySelectorAll('*')]
        .filter((el) => el.getClientRects().length > 0)
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return r.left < -0.5 || r.right > document.documentElement.clientWidth + 0.5;
        })
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
      const log = root.querySelector('[role="log"]');
      return {
        scrollWidth: document.documentElement.scrollWidth,
        logOverflow: log.scrollWidth - log.clientWidth,
        overflowing,
      };
    });
  let layout = await fits();
  assert.ok(layout.scrollWidth <= 360, `no horizontal scroll (scrollWidth ${layout.scrollWidth})`);
  assert.equal(layout.logOverflow, 0, 'nothing overflows the log sideways');
  assert.deepEqual(layout.overflowing, [], 'no element of the widget is cut off at the edges');

  const hostColours = () =>
    page.evaluate(() => {
      const s = getComputedStyle(document.querySelector('neotoma-chat'));
      return `${s.backgroundColor} / ${s.color}`;
    });
  const light = await hostColours();
  const lightPng = await page.screenshot({ path: join(OUT, 'minimal-360-light.png'), fullPage: true });
  let stats = await imageStats(page, lightPng);
  assert.equal(stats.width, 360);
  assert.ok(stats.colours > 20 && stats.commonest < 0.95, `the light screenshot is not blank: ${JSON.stringify(stats)}`);

  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await hostColours();
  assert.notEqual(dark, light, 'prefers-color-scheme: dark changes the colours');
  layout = await fits();
  assert.ok(layout.scrollWidth <= 360);
  const darkPng = await page.screenshot({ path: join(OUT, 'minimal-360-dark.png'), fullPage: true });
  stats = await imageStats(page, darkPng);
  assert.ok(stats.colours > 20 && stats.commonest < 0.95, `the dark screenshot is not blank: ${JSON.stringify(stats)}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('load() shows earlier messages as text, numbers the next turn after them; clear() empties; styleable from outside; el.agent', { timeout: 30_000 }, async () => {
  const { context, page, problems, ui } = await open('/minimal.html');
  const earlier = [
    { role: 'user', content: '<img src=x onerror="window.pwned = 1">' },
    { role: 'assistant', content: '<b>not bold</b> & <script>window.pwned = 2</script>' },
  ];
  await page.evaluate((messages) => document.querySelector('neotoma-chat').load(messages), earlier);
  const log = await ui.log.innerText();
  assert.ok(log.includes(earlier[0].content) && log.includes(earlier[1].content), log);
  assert.deepEqual(await page.evaluate(() => document.querySelector('neotoma-chat').history), earlier);

  // A model reply with markup is text too.
  await page.evaluate(() => {
    document.querySelector('neotoma-chat').llm = () => '<img src=y onerror="window.pwned = 3"> done';
  });
  await ui.box.fill('Go on');
  await ui.box.press('Enter');
  await settled(page, ui, { turns: 1 });
  assert.equal((await page.evaluate(() => window.turns))[0].turnNumber, 2, 'numbered after the loaded user message');
  assert.ok((await ui.log.innerText()).includes('<img src=y onerror="window.pwned = 3"> done'));
  assert.equal(
    await page.evaluate(() => document.querySelector('neotoma-chat').shadowRoot.querySelectorAll('[role="log"] img, [role="log"] b, [role="log"] script').length),
    0,
    'no element was made from message text',
  );
  assert.equal(await page.evaluate(() => window.pwned), undefined);

  // A bad item is refused before anything changes.
  const refused = await page.evaluate(() => {
    try {
      document.querySelector('neotoma-chat').load([{ role: 'user', content: 'ok' }, { role: 'system', content: 'x' }]);
      return null;
    } catch (e) {
      return `${e.name}: ${e.message}`;
    }
  });
  assert.match(refused, /^TypeError: .*messages\[1\]/);
  assert.equal((await page.evaluate(() => document.querySelector('neotoma-chat').history)).length, 4);

  // Custom properties and ::part() reach inside.
  await page.addStyleTag({
    content: 'neotoma-chat { --neotoma-chat-accent: rgb(200, 0, 100); --neotoma-chat-radius: 3px; } neotoma-chat::part(message-user) { background: rgb(1, 2, 3); }',
  });
  const styled = await page.evaluate(() => {
    const root = document.querySelector('neotoma-chat').shadowRoot;
    return {
      send: getComputedStyle(root.querySelector('[part="send"]')).backgroundColor,
      user: getComputedStyle(root.querySelector('[part~="message-user"]')).backgroundColor,
      radius: getComputedStyle(root.querySelector('[part~="message-assistant"]')).borderTopLeftRadius,
    };
  });
  assert.deepEqual(styled, { send: 'rgb(200, 0, 100)', user: 'rgb(1, 2, 3)', radius: '3px' });

  await page.evaluate(() => document.querySelector('neotoma-chat').clear());
  assert.deepEqual(await page.evaluate(() => document.querySelector('neotoma-chat').history), []);
  assert.match(await ui.log.innerText(), /No messages yet/);

  // el.agent: the one the element made (from its attributes), or one set from outside.
  const agents = await page.evaluate(async () => {
    const chat = document.querySelector('neotoma-chat');
    const made = chat.agent.conversationId;
    const { NeotomaAgent } = await import('/pkg/browser.mjs');
    chat.agent = new NeotomaAgent({ conversationId: 'set-from-outside' });
    chat.llm = () => 'From the outside agent.';
    return { made, set: chat.agent.conversationId };
  });
  assert.deepEqual(agents, { made: 'widget-minimal', set: 'set-from-outside' });
  await ui.box.fill('Hello outside');
  await ui.box.press('Enter');
  await settled(page, ui, { turns: 2 });
  assert.match(await ui.log.innerText(), /From the outside agent\./);
  await page.getByRole('button', { name: /^Memory · turn 1/ }).click();
  const panel = await page.getByRole('region', { name: 'Memory of turn 1' }).innerText();
  assert.match(panel, /turn \d+ ms · first words after \d+ ms\n/);
  assert.match(panel, /Requests are not listed for an agent set from outside the element/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the README embed (tests/widget/embed.mjs) through createNeotomaProxy to a Neotoma-shaped server', { timeout: 30_000 }, async () => {
  const embed = readFileSync(join(repoRoot, 'tests/widget/embed.mjs'), 'utf8');
  const markup = /^\/\/ In the page: (<neotoma-chat .*<\/neotoma-chat>)$/m.exec(embed)?.[1];
  assert.ok(markup && readFileSync(join(repoRoot, 'tests/widget/embed.html'), 'utf8').includes(markup), 'embed.html holds the element the snippet describes');

  const neotoma = await startTestServer();
  const ids = await seedStandard(neotoma);
  const { createNeotomaProxy, toNodeHandler } = await import('neotoma-agent-wasm/proxy');
  const proxy = toNodeHandler(createNeotomaProxy({ upstream: neotoma.url, token: neotoma.token, basePath: '/neotoma' }));
  // One origin: /neotoma/* to the proxy, the rest to the static server.
  const site = http.createServer(async (req, res) => {
    if (req.url.startsWith('/neotoma/')) return proxy(req, res);
    const answer = await fetch(web.url + req.url);
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise((r) => site.listen(0, '127.0.0.1', r));
  try {
    neotoma.failNext('/store', 503, undefined, { times: 1 });
    const { context, page, problems, ui } = await open('/embed.html', { base: `http://127.0.0.1:${site.address().port}` });
    await ui.box.fill('Tell me about Acme Corp');
    await ui.box.press('Enter');
    await settled(page, ui, { turns: 1 });
    const [turn] = await page.evaluate(() => window.turns);
    assert.deepEqual(turn.retrievedEntityIds, [ids.acme]);
    assert.deepEqual(turn.pending, { user: false, assistant: false });
    assert.match(await ui.log.innerText(), /From memory: Acme Corp \(company\)\./);

    await page.getByRole('button', { name: /^Memory · turn 1/ }).click();
    const panel = await page.getByRole('region', { name: 'Memory of turn 1' }).innerText();
    assert.match(panel, /company\s+Acme Corp · found by “Acme Corp”/);
    assert.match(panel, /POST \/retrieve_entity_by_identifier · 200 · \d+ ms/);
    assert.match(panel, /POST \/store · 503 · \d+ ms/);
    assert.equal(panel.match(/POST \/store · 200/g)?.length, 2, panel);
    assert.match(panel, /1 retry/);
    assert.match(panel, /Retries:\s+\/store: attempt 1 failed \(HTTP 503\), tried again after \d+ ms/);
    assert.ok(panel.includes(turn.userMessageEntityId) && panel.includes(turn.assistantMessageEntityId));

    // What the panel says was stored is what the server holds.
    const index = await turnIndex(neotoma, 'support-42');
    assert.deepEqual(index.turns.map((t) => [t.role, t.message_entity_id]), [
      ['user', turn.userMessageEntityId],
      ['assistant', turn.assistantMessageEntityId],
    ]);
    assert.ok(!problems.some((p) => !/status of 503/.test(p)), problems.join('\n'));
    await context.close();
  } finally {
    await new Promise((r) => {
      site.close(() => r());
      site.closeAllConnections();
    });
    await neotoma.close();
  }
});

test('widget.d.ts type-checks a strict program using the element', { timeout: 60_000 }, () => {
  execFileSync(join(repoRoot, 'node_modules/.bin/tsc'), ['-p', join(repoRoot, 'tests/widget/tsconfig.json')], { stdio: 'pipe' });
});
