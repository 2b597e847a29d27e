// The middleware in a browser page (tests/node/ai-sdk.test.mjs bundles this with rolldown; the
// page maps 'neotoma-agent-wasm' to the package's browser entry with an import map). On the
// embedded store: turn 1 streams, the model remembers a person through the `remember` tool; turn 2
// asks about her. The result goes to window.__result.
import { generateText, stepCountIs, streamText, wrapLanguageModel } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { neotomaMiddleware, neotomaTools } from 'neotoma-agent-wasm/ai-sdk';

async function main() {
  const params = new URLSearchParams(location.search);
  const llm = createOpenAICompatible({ name: 'llm', baseURL: params.get('llm'), apiKey: 'page-llm-key' });
  const turns = [];
  const model = wrapLanguageModel({
    model: llm.chatModel('test-model'),
    middleware: neotomaMiddleware({ conversationId: params.get('conversation'), onTurn: (t) => turns.push(t) }),
  });
  const told = streamText({
    model,
    prompt: 'My colleague Dana Whitfield at Orbital Labs is leading Project Kestrel',
    tools: neotomaTools(),
    stopWhen: stepCountIs(2),
  });
  let toldText = '';
  for await (const chunk of told.textStream) toldText += chunk;
  await told.finishReason;
  while (turns.length < 2) await new Promise((r) => setTimeout(r, 10));
  const asked = await generateText({
    model,
    messages: [
      { role: 'user', content: 'My colleague Dana Whitfield at Orbital Labs is leading Project Kestrel' },
      { role: 'assistant', content: toldText },
      { role: 'user', content: 'What do you know about Dana Whitfield?' },
    ],
  });
  return { toldText, askedText: asked.text, asked: asked.providerMetadata.neotoma, turns };
}

main().then(
  (result) => (window.__result = result),
  (err) => (window.__result = { error: `${err?.name}: ${err?.message}\n${err?.stack}` }),
);
