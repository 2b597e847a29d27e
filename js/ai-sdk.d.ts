// Types of `neotoma-agent-wasm/ai-sdk`: Neotoma memory for the AI SDK (`ai` 7, LanguageModelV4).

import type { LanguageModelMiddleware, Tool } from 'ai';
import type { AgentOptions, CloseTurnResult, NeotomaAgent, TurnContext, TurnResult } from './neotoma_agent_wasm.js';

/** The parameters of a model call as a middleware gets them (the provider's call options). */
export type ModelCallParams = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];

/** What `conversationId` and `turnId` functions are given about a model call. */
export interface NeotomaCallInfo {
  /** The call's parameters as the AI SDK passes them to the model (`prompt`, `headers`, …). */
  params: ModelCallParams;
  /** `streamText({ headers })` / `generateText({ headers })`. */
  headers: Record<string, string | undefined>;
}

/** What a `turnId` function is given. */
export interface NeotomaTurnInfo extends Pick<NeotomaCallInfo, 'params'> {
  conversationId: string;
  /** The last user message's text: the turn's user message. */
  userMessage: string;
  /** Its ordinal among the prompt's user messages (1, 2, …): the turn number. */
  turnNumber: number;
  prompt: ModelCallParams['prompt'];
}

/** Per call, as `providerOptions: { neotoma: { … } }` (removed before the provider sees them). */
export interface NeotomaCallOptions {
  conversationId?: string;
  turnId?: string;
  /** A deliberate new reply for a turn whose reply is stored (stored as its next revision). */
  regenerate?: boolean;
}

/** Where a failure the call could not be failed with happened (the reply is already the caller's). */
export interface NeotomaMiddlewareErrorInfo {
  phase: 'reply store';
  conversationId: string;
  turnId: string;
}

interface NeotomaMiddlewareCommon {
  /** The turn id of a call (default `turn-{turnNumber}-{hash of the user message}`: a retried
   *  request is the same turn, so it replays instead of storing twice; an edited message is a new turn). */
  turnId?: (info: NeotomaTurnInfo) => string | Promise<string>;
  /** How `ctx.memory` goes into the system prompt: a string whose `{memory}` is replaced, or a
   *  function. Nothing is added when nothing was retrieved. */
  memoryTemplate?: string | ((memory: string, ctx: TurnContext) => string);
  /** The tool whose calls carry entities to store with the reply (default `remember`, as `neotomaTools()` names it). */
  rememberToolName?: string;
  /** Workers: `ctx.waitUntil` (bound), so the reply's store finishes after the response. Given,
   *  `generateText` also returns before the store; not given, it waits for it. */
  waitUntil?: (promise: Promise<unknown>) => void;
  /** Each reply once it is stored (a `TurnResult`; a continuation that completes a reply gives the
   *  `CloseTurnResult` of its revision), and a replay answered with the stored reply. */
  onTurn?: (result: TurnResult | CloseTurnResult) => void;
  /** A reply store that failed after the call was answered (default: one `console.error` line). */
  onError?: (error: unknown, info: NeotomaMiddlewareErrorInfo) => void;
}

/** The middleware over an agent it makes per conversation from these options. */
export interface NeotomaMiddlewareAgentOptions extends NeotomaMiddlewareCommon, Omit<AgentOptions, 'conversationId'> {
  conversationId: string | ((call: NeotomaCallInfo) => string | Promise<string>);
  agent?: undefined;
}

/** The middleware over an existing agent (one conversation). */
export interface NeotomaMiddlewareExistingAgent extends NeotomaMiddlewareCommon {
  agent: NeotomaAgent;
}

export type NeotomaMiddlewareOptions = NeotomaMiddlewareAgentOptions | NeotomaMiddlewareExistingAgent;

/** `providerMetadata.neotoma` of a result (and of the stream's `finish` part). */
export interface NeotomaProviderMetadata {
  conversationId: string;
  turnId: string;
  turnNumber: number;
  retrievedEntityIds?: string[];
  /** The stored reply was answered; the model was not called. */
  replayed?: boolean;
  /** A tool-result continuation: nothing was stored. */
  continuation?: boolean;
}

/** For `wrapLanguageModel({ model, middleware: neotomaMiddleware({ … }) })`. */
export function neotomaMiddleware(options: NeotomaMiddlewareOptions): LanguageModelMiddleware;

/** The input of the `remember` tool. */
export interface RememberToolInput {
  entities: Array<{ entity_type: string; [field: string]: unknown }>;
}

/** The opt-in tools: `remember`, whose entities the middleware stores with the reply. */
export function neotomaTools(): { remember: Tool<RememberToolInput, { remembered: string[]; note: string }> };
