// Packaging fixture (Deno): `deno run ... main.mjs <neotomaUrl> <token> <conversationId>`.
// Imports the installed tarball by its package name (the `deno` export condition), runs two turns
// over HTTP against the given Neotoma server and prints, as one JSON line, the file the package name
// resolved to and the two TurnResults.
import { NeotomaAgent } from 'neotoma-agent-wasm';

const [baseUrl, token, conversationId] = Deno.args;
if (!baseUrl || !token || !conversationId) {
  console.error('usage: deno run --allow-net=127.0.0.1 --allow-read=. main.mjs <neotomaUrl> <token> <conversationId>');
  Deno.exit(2);
}

const agent = new NeotomaAgent({
  conversationId,
  platform: 'packaging-deno',
  transport: { baseUrl, token, timeoutMs: 5000 },
});
const llm = (msg, ctx) => `Turn ${ctx.turnNumber}: Acme Corp, noted.`;
const r1 = await agent.turn('Tell me about Acme Corp', llm, { turnId: 'turn-1' });
const r2 = await agent.turn('Is Acme Corp still a customer?', llm, { turnId: 'turn-2' });
const resolved = import.meta.resolve('neotoma-agent-wasm');
console.log(JSON.stringify({ runtime: 'deno', resolved, turns: [r1, r2] }));
