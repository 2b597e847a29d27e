import { NeotomaAgent } from 'neotoma-agent-wasm'; // Vite picks the package's browser entry

// The page talks to its own origin: your server forwards /neotoma/* to Neotoma and adds the
// bearer token there, so the token never reaches the browser.
function startConversation(conversationId) {
  const agent = new NeotomaAgent({ conversationId, transport: { baseUrl: '/neotoma' } });
  // callYourModel(message, ctx) returns the reply; ctx.retrieved: what Neotoma holds on the
  // entities the message names. Resending with the same turnId replays instead of storing twice.
  return (message, turnId) => agent.turn(message, callYourModel, { turnId });
}

// --- Test plumbing (tests/node/packaging-vite.test.mjs), not part of the example -----------------
// ?conversation=<id>&turn=<turnId>&message=<text>[&turn=…&message=…]; the TurnResults (or the
// error) end up in window.__result, the replies in the page's list.
function callYourModel(message, ctx) {
  return `Turn ${ctx.turnNumber}: ${ctx.retrieved.map((e) => e.snapshot.name).join(', ')}, noted.`;
}
const query = new URLSearchParams(location.search);
const send = startConversation(query.get('conversation'));
window.__result = (async () => {
  const turns = [];
  for (const [i, turnId] of query.getAll('turn').entries()) {
    const result = await send(query.getAll('message')[i], turnId);
    document.querySelector('#log').append(Object.assign(document.createElement('li'), { textContent: result.assistantMessage }));
    turns.push(result);
  }
  return { turns };
})().catch((err) => ({ error: { name: err?.name, code: err?.code, message: String(err?.message ?? err) } }));
