// The HTTP transport from a browser page (headless Chromium) to the local Neotoma-shaped server:
// CORS preflights for the allowed origin, a full turn, and what a blocked origin / wrong token
// look like to the caller.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { pageAndServer } from '../server/page-harness.mjs';
import { startTestServer, refersTo, randomId, randomToken, nonZero } from '../server/harness.mjs';


let server;
let ids;
let page;

const env = pageAndServer();
before(async () => {
  await env.ready;
  ({ server, ids, page } = env);
});

/** Runs one turn in the page; resolves with the result or with the error's public fields. */
function turnInPage({ baseUrl, token, conversationId, message, reply, options = {} }) {
  return page.evaluate(
    async ({ baseUrl, token, conversationId, message, reply, options }) => {
      const m = await import('/pkg/browser.mjs');
      const agent = new m.NeotomaAgent({ conversationId, transport: { baseUrl, token, timeoutMs: 5000 }, ...options });
      try {
        const r = await agent.turn(message, () => reply);
        return { ok: true, result: JSON.parse(JSON.stringify(r)) };
      } catch (err) {
        return {
          ok: false,
          error: {
            isError: err instanceof Error,
            code: err.code,
            status: err.status ?? null,
            body: err.body === undefined ? null : err.body,
            text: String(err),
            message: err.message,
            stack: String(err.stack),
          },
        };
      }
    },
    { baseUrl, token, conversationId, message, reply, options },
  );
}

test('a turn from a browser page over HTTP, with CORS preflights for the allowed origin', { timeout: 30_000 }, async () => {
  const cid = randomId('browser');
  const out = await turnInPage({ baseUrl: server.url, token: server.token, conversationId: cid, message: 'Tell me about Acme Corp and "Project Falcon"', reply: 'Acme Corp is doing well.' });
  assert.equal(out.ok, true, JSON.stringify(out.error));
  const r = out.result;
  assert.deepEqual([...r.retrievedEntityIds].sort(), [ids.acme, ids.falcon].sort());
  assert.deepEqual(r.refersTo, [ids.acme]);
  assert.deepEqual(nonZero(server.counts()), { '/retrieve_entity_by_identifier': 2, '/store': 2 });
  assert.ok(server.requests.some((x) => x.preflight), 'the browser sent CORS preflights');
  assert.deepEqual(await refersTo(server, r.assistantMessageEntityId), [ids.acme]);
});

test('from the browser, a wrong token is NEOTOMA_HTTP 401 without the token in the error', { timeout: 30_000 }, async () => {
  const wrong = randomToken();
  const out = await turnInPage({ baseUrl: server.url, token: wrong, conversationId: randomId('browser-auth'), message: 'hello', reply: 'x' });
  assert.equal(out.ok, false);
  assert.equal(out.error.isError, true);
  assert.equal(out.error.code, 'NEOTOMA_HTTP');
  assert.equal(out.error.status, 401);
  assert.equal(out.error.body?.error_code, 'AUTH_INVALID');
  for (const [k, v] of Object.entries(out.error)) assert.ok(!JSON.stringify(v).includes(wrong), `token in error.${k}`);
});

test('from an origin the server does not allow (no retry, no outbox), the turn fails with NEOTOMA_NETWORK and nothing is stored', { timeout: 30_000 }, async () => {
  const other = await startTestServer({ allowOrigin: 'http://127.0.0.1:9' });
  try {
    const options = { retry: false, outbox: false };
    const out = await turnInPage({ baseUrl: other.url, token: other.token, conversationId: randomId('browser-cors'), message: 'Tell me about Acme Corp', reply: 'x', options });
    assert.equal(out.ok, false);
    assert.equal(out.error.code, 'NEOTOMA_NETWORK', out.error.text);
    for (const [k, v] of Object.entries(out.error)) assert.ok(!JSON.stringify(v).includes(other.token), `token in error.${k}`);
    assert.equal(other.counts()['/store'] ?? 0, 0, 'the browser never sent the POST');
  } finally {
    await other.close();
  }
});

test('turnStream in the page: tokens render as the model yields them; the reply is stored once', { timeout: 30_000 }, async () => {
  const cid = randomId('browser-stream');
  const out = await page.evaluate(
    async ({ baseUrl, token, cid }) => {
      const m = await import('/pkg/browser.mjs');
      const agent = new m.NeotomaAgent({ conversationId: cid, transport: { baseUrl, token } });
      async function* model() {
        for (const t of ['Acme ', 'Corp ', 'is ', 'fine ', '🚀']) yield t;
      }
      const { textStream, done } = agent.turnStream('Tell me about Acme Corp', model);
      const tokens = [];
      for await (const t of textStream) tokens.push(t);
      const r = await done;
      return { tokens, reply: r.assistantMessage, assistantId: r.assistantMessageEntityId };
    },
    { baseUrl: server.url, token: server.token, cid },
  );
  assert.deepEqual(out.tokens, ['Acme ', 'Corp ', 'is ', 'fine ', '🚀']);
  assert.equal(out.reply, 'Acme Corp is fine 🚀');
  assert.deepEqual(await refersTo(server, out.assistantId), [ids.acme]);
  assert.equal(server.counts()['/store'], 2);
});
