// widget.d.ts against a strict program (tests/node/widget.test.mjs runs tsc on it).
import 'neotoma-agent-wasm/widget';
import type { NeotomaChatElement, NeotomaChatMessage } from 'neotoma-agent-wasm/widget';
import type { NeotomaAgent, TurnResult } from 'neotoma-agent-wasm';

const chat = document.createElement('neotoma-chat');
const typed: NeotomaChatElement = chat;
chat.setAttribute('base-url', '/neotoma');
chat.agentOptions = { conversationId: 'c1', retry: { maxAttempts: 2 } };
chat.agentOptions = null;
chat.llm = (message, ctx) => `${message}: ${ctx.memory}`;
chat.llm = async (_message, ctx) => ({ text: 'ok', entities: [{ entity_type: 'person', name: ctx.turnId }] });
chat.llm = () => ({
  stream: (async function* () {
    yield 'a';
  })(),
  entities: (text: string) => [{ entity_type: 'note', content: text }],
});
chat.llm = null;
const agent: NeotomaAgent = chat.agent;
chat.agent = agent;
chat.agent = null;
const history: NeotomaChatMessage[] = chat.history;
chat.history = [{ role: 'user', content: 'hi' }];
chat.load([...history, { role: 'assistant', content: 'hello' }]);
chat.clear();
chat.addEventListener('neotoma-turn', (event) => {
  const result: TurnResult = event.detail;
  console.log(result.produced.map((p) => p.action), typed);
});
chat.addEventListener('neotoma-error', (event) => console.log(event.detail));

// @ts-expect-error an llm is a function
chat.llm = 'not a function';
// @ts-expect-error roles are user or assistant
chat.load([{ role: 'system', content: 'x' }]);
// @ts-expect-error unknown options are refused
chat.agentOptions = { conversationID: 'typo' };
