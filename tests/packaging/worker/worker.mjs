import { NeotomaAgent } from 'neotoma-agent-wasm'; // the `workerd` entry: the .wasm is imported as a module

export default {
  async fetch(request, env) {
    const { conversationId, message, turnId, turnNumber } = await request.json();
    // One agent per request (Workers give no random values at global scope); a stateless Worker
    // passes the turn number with the request.
    const agent = new NeotomaAgent({
      conversationId,
      transport: { baseUrl: env.NEOTOMA_URL, token: env.NEOTOMA_TOKEN },
    });
    const result = await agent.turn(message, callYourModel, { turnId, turnNumber });
    return Response.json(result);
  },
};

// --- Test plumbing (tests/node/packaging.test.mjs), not part of the example ------------------------
// Packaging fixture (workerd, run by Miniflare): the test maps the bare specifier to the file the
// installed package's `exports["."].workerd` names and POSTs {conversationId, message, turnId,
// turnNumber}; the answer is the TurnResult.
function callYourModel(message, ctx) {
  return `Turn ${ctx.turnNumber}: ${ctx.retrieved.map((e) => e.snapshot.name).join(', ')}, noted.`;
}
