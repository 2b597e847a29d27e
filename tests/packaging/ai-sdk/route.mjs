// README's "AI SDK" route (the block between the markers is the README's snippet, verbatim): what
// useChat posts to, in Node (tests/node/ai-sdk.test.mjs; main.mjs from the packed tarball) and
// in workerd (worker.mjs, bundled with rolldown).
// --- snippet ---
import { convertToModelMessages, stepCountIs, streamText, wrapLanguageModel } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { neotomaMiddleware, neotomaTools } from 'neotoma-agent-wasm/ai-sdk';

// POST /api/chat, as useChat sends it: { id, messages }. In a Worker, pass ctx.waitUntil.
export async function chatRoute(request, env, waitUntil) {
  const { id, messages } = await request.json();
  const llm = createOpenAICompatible({ name: 'llm', baseURL: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY });
  const model = wrapLanguageModel({
    model: llm.chatModel(env.LLM_MODEL),
    middleware: neotomaMiddleware({
      conversationId: id, // useChat's chat id
      transport: { baseUrl: env.NEOTOMA_URL, token: env.NEOTOMA_TOKEN },
      waitUntil, // the reply's store outlives the response
    }),
  });
  const result = streamText({
    model,
    system: 'You are a helpful assistant.',
    messages: await convertToModelMessages(messages),
    tools: neotomaTools(), // opt-in: the model's `remember` calls are stored with its reply
    stopWhen: stepCountIs(3),
    abortSignal: request.signal, // a closed connection stops the model: no reply is stored
  });
  return result.toUIMessageStreamResponse();
}
// --- end ---
