// Packaging fixture (workerd, run by Miniflare): a Worker that imports the installed package by name.
// The test maps the bare specifier 'neotoma-agent-wasm' to the file the installed package's
// `exports["."].workerd` names (workerd.mjs, which imports the .wasm as a compiled module).
//
// POST /chat {conversationId, message, turnId, turnNumber} -> the TurnResult as JSON (500 {error} on
// failure). The turn number comes with the request since each request has a fresh agent.
// The agent is created inside the handler (Workers forbid random values at global scope).
import { NeotomaAgent } from 'neotoma-agent-wasm';

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (request.method !== 'POST' || url.pathname !== '/chat') {
      return new Response('not found', { status: 404 });
    }
    try {
      const { conversationId, message, turnId, turnNumber } = await request.json();
      const agent = new NeotomaAgent({
        conversationId,
        platform: 'packaging-workerd',
        transport: { baseUrl: env.NEOTOMA_URL, token: env.NEOTOMA_TOKEN, timeoutMs: 5000 },
      });
      const result = await agent.turn(message, (msg, ctx) => `Turn ${ctx.turnNumber}: Acme Corp, noted.`, { turnId, turnNumber });
      return Response.json(result);
    } catch (err) {
      return Response.json(
        { error: { name: err?.name, code: err?.code, message: String(err?.message ?? err), stack: err?.stack } },
        { status: 500 },
      );
    }
  },
};
