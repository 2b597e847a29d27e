// Cloudflare Worker: `POST /chat` runs one Neotoma turn at the edge and streams the reply.
//
//   POST /chat {"conversationId", "message", "turnId"?, "turnNumber"?}
//   200 text/plain: the reply, streamed as the LLM writes it; headers x-turn-id (URI-encoded),
//       x-turn-number. The body ends once the reply is stored (ctx.waitUntil finishes the store
//       even if the client leaves). If the LLM's stream breaks off (or the store fails) after the
//       first chunk, the body ends with "\n\n[reply interrupted: CODE]" and nothing is stored
//       for the assistant.
//   {"error": {"code", "message"}} if the turn fails before the first chunk: 400 INVALID_JSON /
//       INVALID_INPUT, 409 IDEMPOTENCY_MISMATCH, 502 NEOTOMA_* / LLM_*; 404 / 405 otherwise.
//
// The agent is made per request (Workers give no random values at global scope), so send
// turnNumber: a fresh agent numbers its first turn 1.
import { EmbeddedStore, NeotomaAgent } from 'neotoma-agent-wasm';
import { errorFor, errorResponse, readJsonObject, replyResponse } from './http.mjs';
import { localResponder } from './local-responder.mjs';
import { openAIChat } from './openai.mjs';

let isolateStore; // without NEOTOMA_URL: one in-memory store per isolate (a demo: not durable)

export default {
  async fetch(request, env, ctx) {
    if (new URL(request.url).pathname !== '/chat') return errorResponse(404, 'NOT_FOUND', 'the route is POST /chat');
    if (request.method !== 'POST') return errorResponse(405, 'METHOD_NOT_ALLOWED', 'use POST', { allow: 'POST' });
    try {
      const { conversationId, message, turnId, turnNumber } = await readJsonObject(request);
      const agent = new NeotomaAgent({
        conversationId,
        platform: 'cloudflare-worker',
        transport: env.NEOTOMA_URL ? { baseUrl: env.NEOTOMA_URL, token: env.NEOTOMA_TOKEN } : (isolateStore ??= new EmbeddedStore()),
      });
      const llm = env.OPENAI_BASE_URL ? openAIChat(env) : localResponder;
      let turn; // the LLM's ctx (turnId, turnNumber, retrieved), once the LLM starts
      const runLlm = (text, turnCtx) => {
        turn = turnCtx;
        return llm(text, turnCtx);
      };
      const { stream, textStream, done } = agent.turnStream(message, runLlm, { turnId, turnNumber });
      ctx.waitUntil(
        done.then(
          (result) => console.log(`neotoma turn ${result.turnId} #${result.turnNumber} stored`),
          (err) => console.error(`neotoma turn ${turn?.turnId ?? turnId} failed: ${err?.code ?? err?.name}: ${err?.message}`),
        ),
      );
      // Answer at the first chunk: a turn failing before it (Neotoma or the LLM down) gets an error status.
      const firstChunk = textStream.getReader();
      await Promise.race([firstChunk.read(), done]);
      void firstChunk.cancel(); // the reply is sent from `stream`
      return replyResponse(stream, turn ?? (await done));
    } catch (err) {
      return errorFor(err);
    }
  },
};
