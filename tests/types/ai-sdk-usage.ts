// neotoma-agent-wasm/ai-sdk (issue 14) in a strict program, against ai 7's own types. ai's .d.ts
// imports node:http and Buffer, so a program that type-checks it (skipLibCheck off) needs Node's types.
/// <reference types="node" />
import { streamText, wrapLanguageModel, type LanguageModel } from "ai";
import { NeotomaAgent } from "neotoma-agent-wasm";
import { neotomaMiddleware, neotomaTools, type NeotomaProviderMetadata } from "neotoma-agent-wasm/ai-sdk";

export function aiSdkUsage(baseModel: Exclude<LanguageModel, string>, waitUntil: (p: Promise<unknown>) => void) {
  const model = wrapLanguageModel({
    model: baseModel,
    middleware: neotomaMiddleware({
      conversationId: ({ headers }) => headers["x-conversation-id"] ?? "anonymous",
      transport: { baseUrl: "https://neotoma.example", token: "tok" },
      retrievalLimit: 4,
      turnId: ({ turnNumber, userMessage }) => `t${turnNumber}-${userMessage.length}`,
      memoryTemplate: (memory, ctx) => `${memory}\n(turn ${ctx.turnNumber})`,
      waitUntil,
      onTurn: (result) => console.log(result.produced.length, result.turnId, result.pending),
      onError: (err, info) => console.log(err, info.phase, info.turnId),
    }),
  });
  const agent = new NeotomaAgent({ conversationId: "c1" });
  wrapLanguageModel({ model: baseModel, middleware: neotomaMiddleware({ agent, memoryTemplate: "Known: {memory}" }) });
  const result = streamText({
    model,
    prompt: "Tell me about Acme Corp",
    tools: { ...neotomaTools() },
    providerOptions: { neotoma: { regenerate: true } },
  });
  const meta = (m: NeotomaProviderMetadata) => [m.turnId, m.turnNumber, m.replayed ?? false] as const;
  void meta;
  // @ts-expect-error conversationId (or agent) is required
  neotomaMiddleware({ transport: { baseUrl: "https://neotoma.example" } });
  // @ts-expect-error an existing agent takes no agent options
  neotomaMiddleware({ agent, conversationId: "c" });
  // @ts-expect-error turnId is a function of the call
  neotomaMiddleware({ conversationId: "c", turnId: "t1" });
  return result;
}
