// Packaging fixture (Node ESM): `node main.mjs <neotomaUrl> <token> <conversationId>`.
// Imports the installed tarball by its package name (the `node` export condition), runs two turns
// over HTTP against the given Neotoma server and prints, as one JSON line, the file the package name
// resolved to and the two TurnResults.
import { NeotomaAgent } from 'neotoma-agent-wasm';

const [baseUrl, token, conversationId] = process.argv.slice(2);
if (!baseUrl || !token || !conversationId) {
  console.error('usage: node main.mjs <neotomaUrl> <token> <conversationId>');
  process.exit(2);
}

const agent = new NeotomaAgent({
  conversationId,
  platform: 'packaging-node-esm',
  transport: { baseUrl, token, timeoutMs: 5000 },
});
const llm = (msg, ctx) => `Turn ${ctx.turnNumber}: Acme Corp, noted.`;
const r1 = await agent.turn('Tell me about Acme Corp', llm, { turnId: 'turn-1' });
const r2 = await agent.turn('Is Acme Corp still a customer?', llm, { turnId: 'turn-2' });
const resolved = import.meta.resolve('neotoma-agent-wasm');
console.log(JSON.stringify({ runtime: 'node', resolved, turns: [r1, r2] }));
