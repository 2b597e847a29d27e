import { NeotomaAgent } from 'neotoma-agent-wasm'; // the `deno` entry (npm: specifier or node_modules)

const agent = new NeotomaAgent({
  conversationId: Deno.env.get('CONVERSATION_ID'),
  transport: { baseUrl: Deno.env.get('NEOTOMA_URL'), token: Deno.env.get('NEOTOMA_TOKEN') },
});
const llm = (message, ctx) => callYourModel(message, ctx);
const first = await agent.turn('Tell me about Acme Corp', llm, { turnId: 'turn-1' });
const second = await agent.turn('Is Acme Corp still a customer?', llm, { turnId: 'turn-2' });

// --- Test plumbing (tests/node/packaging.test.mjs), not part of the example ------------------------
// Packaging fixture (Deno): `deno run --allow-net=127.0.0.1 --allow-read=. --allow-env=… main.mjs`
// with NEOTOMA_URL, NEOTOMA_TOKEN, CONVERSATION_ID set; prints, as one JSON line, the file the
// package name resolved to and the two TurnResults.
function callYourModel(message, ctx) {
  return `Turn ${ctx.turnNumber}: ${ctx.retrieved.map((e) => e.snapshot.name).join(', ')}, noted.`;
}
const resolved = import.meta.resolve('neotoma-agent-wasm');
console.log(JSON.stringify({ runtime: 'deno', resolved, turns: [first, second] }));
