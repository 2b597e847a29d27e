// README's "Memory that grows" snippet, run by tests/node/readme-memory.test.mjs on the embedded
// store (no server). The block between the markers is copied into README verbatim.

// --- README ---
import { NeotomaAgent, renderTurnReport } from 'neotoma-agent-wasm';

const agent = new NeotomaAgent({ conversationId: 'demo-1' });

// The reply says what it learnt: those entities are stored with it, in its one /store.
const told = await agent.turn('My colleague Dana Whitfield at Orbital Labs is leading Project Kestrel', () => ({
  text: "I'll remember Dana, Orbital Labs and Project Kestrel.",
  entities: [
    { entity_type: 'person', name: 'Dana Whitfield', organization: 'Orbital Labs' },
    { entity_type: 'company', name: 'Orbital Labs' },
    { entity_type: 'project', name: 'Project Kestrel', status: 'active', owner: 'Dana Whitfield' },
  ],
}));
// told.produced: [{ id, entity_type: 'person', canonical_name: 'person:Dana Whitfield', action: 'created', warnings: [] }, …]

// The next turn finds them; ctx.memory is the same as text for a system prompt.
const asked = await agent.turn('What do you know about Dana Whitfield?', (message, ctx) =>
  callYourModel([{ role: 'system', content: ctx.memory }, { role: 'user', content: message }]));

// Entities stored on purpose: looked up by name first, the others stored once.
const [company, task] = await agent.remember([
  { entity_type: 'company', name: 'Orbital Labs' },
  { entity_type: 'task', title: 'Send Dana the Kestrel budget', status: 'open' },
]);

// Read the turn back from the store, and repair whatever is missing (idempotent).
const diagnoses = await agent.verifyTurn(told.turnId);
const { repairs } = await agent.repairTurn(told.turnId);

// The markdown report to show under a reply.
const report = renderTurnReport(asked, { inspectorBaseUrl: 'http://localhost:3080' });
// --- end ---

/** A stand-in model: answers from the system prompt's first remembered entity. */
function callYourModel(messages) {
  const line = messages[0].content.split('\n')[1] ?? '';
  return `From memory: ${line.replace(/^- /, '')}`;
}

export { told, asked, company, task, diagnoses, repairs, report };
