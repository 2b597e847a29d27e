import { NeotomaAgent } from 'neotoma-agent-wasm'; // the `node` entry: ready to use, no init call

const agent = new NeotomaAgent({
  conversationId: process.env.CONVERSATION_ID,
  transport: { baseUrl: process.env.NEOTOMA_URL, token: process.env.NEOTOMA_TOKEN },
});
// ctx.retrieved: the entities the message names, as Neotoma holds them
const llm = (message, ctx) => callYourModel(message, ctx);
const first = await agent.turn('Tell me about Acme Corp', llm, { turnId: 'turn-1' });
const second = await agent.turn('Is Acme Corp still a customer?', llm, { turnId: 'turn-2' });

// --- Test plumbing (tests/node/packaging.test.mjs), not part of the example ------------------------
// Packaging fixture (Node ESM): NEOTOMA_URL, NEOTOMA_TOKEN, CONVERSATION_ID from the environment;
// prints, as one JSON line, the file the package name resolved to and the two TurnResults.
function callYourModel(message, ctx) {
  return `Turn ${ctx.turnNumber}: ${ctx.retrieved.map((e) => e.snapshot.name).join(', ')}, noted.`;
}
const resolved = import.meta.resolve('neotoma-agent-wasm');
console.log(JSON.stringify({ runtime: 'node', resolved, turns: [first, second] }));
