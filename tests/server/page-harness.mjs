// For tests that drive the package from a real page: the demo (www/ and pkg/) served on one
// 127.0.0.1 origin, the Neotoma-shaped server allowing exactly that origin and seeded with the
// standard entities, and headless Chromium with that page loaded.

import { before, after, beforeEach } from 'node:test';

import { startStaticServer, launchChromium } from './static-server.mjs';
import { startTestServer, seedStandard } from './harness.mjs';

/**
 * Registers the node:test hooks and returns an object whose `web`, `server`, `ids`, `browser`
 * and `page` are set once `env.ready` resolves (top-level `before` hooks do not wait for each
 * other, so a caller's own hook awaits it). Counts and faults are cleared before each test.
 */
export function pageAndServer() {
  const env = {};
  let setUp;
  let failed;
  env.ready = new Promise((resolve, reject) => {
    setUp = resolve;
    failed = reject;
  });
  before(async () => {
    try {
      await start(env);
      setUp();
    } catch (error) {
      failed(error);
      throw error;
    }
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
    await env.web?.close();
  });
  beforeEach(() => {
    env.server?.resetCounts();
    env.server?.clearFaults();
  });
  return env;
}

async function start(env) {
  env.web = await startStaticServer();
  env.server = await startTestServer({ allowOrigin: env.web.url });
  env.ids = await seedStandard(env.server);
  env.browser = await launchChromium();
  env.page = await (await env.browser.newContext()).newPage();
  await env.page.goto(env.web.url + '/');
  await env.page.waitForSelector('body[data-state="ready"]', { timeout: 20_000 });
}
