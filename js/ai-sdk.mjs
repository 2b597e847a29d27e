// Neotoma memory for the AI SDK (npm `ai`, major 7: LanguageModelV4 middleware):
//
//   const model = wrapLanguageModel({ model, middleware: neotomaMiddleware({ conversationId, transport }) });
//   streamText({ model, messages, tools: neotomaTools() });
//
// Each model call that answers a new user message is one turn of the package's protocol, run by
// `agent.turn` with the model call as its LLM callback:
//   transformParams  the last user message's text opens the turn (retrieval, the user message's
//                    store); `ctx.memory` goes into the system prompt;
//   wrapGenerate /   the model is called once; its text (exactly what it returned or streamed) and
//   wrapStream       the entities of its `remember` tool calls become the turn's reply, stored
//                    when generate returns or the stream ends. An abandoned or failed stream stores
//                    no reply (the user message stays), as `turnStream` does.
// A call whose prompt has anything after its last user message (a tool-result continuation) is
// no new turn and stores no new message: it gets the turn's memory again, and when it adds text
// or entities it completes the turn's one reply (the text of every step, as streamed, and all the
// entities), stored as the next revision of the same assistant message. A retried request is the
// same turn (same default turn id): the package replays it, and the stored reply is answered without
// calling the model. Plain JS over the package's public API; `ai` is a peer dependency.

import { NeotomaAgent, textHash } from 'neotoma-agent-wasm';
import { jsonSchema, tool } from 'ai';
import { invalidInput, isObject } from './errors.mjs';

// ctx.memory starts with its own heading ("Remembered entities (Neotoma):").
const DEFAULT_MEMORY_TEMPLATE = "{memory}\nUse what is relevant to the user's message; do not assume more than it says.";
const REMEMBER_TOOL = 'remember';
// Options of the middleware itself; every other option goes to `new NeotomaAgent`.
const OWN_OPTIONS = ['agent', 'conversationId', 'turnId', 'memoryTemplate', 'rememberToolName', 'waitUntil', 'onTurn', 'onError'];
const CALL_OPTIONS = ['conversationId', 'turnId', 'regenerate'];
const AGENTS_KEPT = 64;
const MEMORIES_KEPT = 256;
// Fields the protocol sets on a stored message, never taken from a model's entity.
const PROTOCOL_FIELDS = ['turn_key', 'conversation_id', 'sender_kind', 'idempotency_key', 'entity_id', 'relationships'];

/** `reason` when it is an Error, else an AbortError saying `message` (its cause: `reason`). */
function abortError(reason, message) {
  return reason instanceof Error ? reason : Object.assign(new Error(message), { name: 'AbortError', cause: reason });
}

/** A Map that forgets its oldest entry past `max`. */
function boundedSet(map, key, value, max) {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value);
}

const textOf = (parts) =>
  (Array.isArray(parts) ? parts : [])
    .filter((p) => p?.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text)
    .join('\n');

/** The prompt with `block` added to its system prompt (the first message when it is one). */
function withSystemBlock(prompt, block) {
  if (prompt[0]?.role === 'system') {
    const head = prompt[0].content ? `${prompt[0].content}\n\n${block}` : block;
    return [{ ...prompt[0], content: head }, ...prompt.slice(1)];
  }
  return [{ role: 'system', content: block }, ...prompt];
}

/** The entities of one `remember` tool call's input (JSON text), those of a shape a store takes. */
function entitiesOfCall(input) {
  let parsed = input;
  if (typeof input === 'string') {
    try {
      parsed = JSON.parse(input);
    } catch {
      return [];
    }
  }
  const list = Array.isArray(parsed?.entities) ? parsed.entities : [];
  const out = [];
  for (const e of list) {
    if (!isObject(e) || typeof e.entity_type !== 'string' || !/^[a-z][a-z0-9_]*$/.test(e.entity_type)) continue;
    if (e.entity_type === 'conversation' || e.entity_type === 'conversation_message') continue;
    const entity = { ...e };
    for (const f of PROTOCOL_FIELDS) delete entity[f];
    out.push(entity);
  }
  return out;
}

function zeroUsage() {
  return {
    inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 0, text: 0, reasoning: undefined },
  };
}

function withNeotomaMetadata(providerMetadata, meta) {
  return { ...(providerMetadata ?? {}), neotoma: meta };
}

/**
 * The AI SDK language-model middleware that runs the Neotoma turn protocol around each model call.
 * @param {import('./ai-sdk.d.ts').NeotomaMiddlewareOptions} options
 */
export function neotomaMiddleware(options) {
  if (!isObject(options)) throw invalidInput('neotomaMiddleware(options): options must be an object');
  const {
    agent: fixedAgent,
    conversationId,
    turnId: turnIdOption,
    memoryTemplate = DEFAULT_MEMORY_TEMPLATE,
    rememberToolName = REMEMBER_TOOL,
    waitUntil,
    onTurn,
    onError,
  } = options;
  const agentOptions = Object.fromEntries(Object.entries(options).filter(([k]) => !OWN_OPTIONS.includes(k)));
  // More than the agent takes would refuse the whole reply: the first ones are kept.
  const maxEntities = Number.isInteger(agentOptions.maxProducedEntities) ? agentOptions.maxProducedEntities : 16;
  if (fixedAgent !== undefined) {
    if (!(fixedAgent instanceof NeotomaAgent)) throw invalidInput('neotomaMiddleware: agent must be a NeotomaAgent');
    if (conversationId !== undefined || Object.keys(agentOptions).length > 0) {
      throw invalidInput(`neotomaMiddleware: pass either agent or the agent's options, not both (${['conversationId', ...Object.keys(agentOptions)].filter((k) => k in options).join(', ')})`);
    }
  } else if (typeof conversationId !== 'string' && typeof conversationId !== 'function') {
    throw invalidInput('neotomaMiddleware: conversationId (a string, or a function of the call) or agent is required');
  }
  if (turnIdOption !== undefined && typeof turnIdOption !== 'function') throw invalidInput('neotomaMiddleware: turnId must be a function');
  if (typeof memoryTemplate !== 'string' && typeof memoryTemplate !== 'function') {
    throw invalidInput('neotomaMiddleware: memoryTemplate must be a string with {memory}, or a function');
  }
  if (typeof rememberToolName !== 'string' || rememberToolName === '') throw invalidInput('neotomaMiddleware: rememberToolName must be a non-empty string');
  for (const [name, fn] of Object.entries({ waitUntil, onTurn, onError })) {
    if (fn !== undefined && typeof fn !== 'function') throw invalidInput(`neotomaMiddleware: ${name} must be a function`);
  }

  // Agents by conversation (made on first use: Workers give no random values at global scope).
  const agents = new Map();
  // ctx.memory of the turns this middleware opened, for their tool-result continuations.
  const memories = new Map();
  // The last reply store of each turn this middleware made: a continuation's revision goes after it.
  const lastStores = new Map();
  // transformParams -> wrapGenerate/wrapStream: the params object it returned carries the turn.
  const turns = new WeakMap();

  /** onTurn, whose exceptions are ignored (they must not fail the call or the store). */
  const notifyTurn = (result) => {
    try {
      onTurn?.(result);
    } catch {
      /* a listener that throws is ignored */
    }
  };

  const reportError = (err, info) => {
    try {
      if (onError) onError(err, info);
      else console.error(`neotoma: the ${info.phase} of turn ${info.turnId} (conversation ${info.conversationId}) failed: ${err?.code ?? err?.name}: ${err?.message}`);
    } catch {
      /* a listener that throws is ignored */
    }
  };

  function agentFor(cid) {
    if (fixedAgent) {
      if (cid !== undefined && cid !== fixedAgent.conversationId) {
        throw invalidInput(`neotomaMiddleware: conversationId ${JSON.stringify(cid)} is not the agent's (${JSON.stringify(fixedAgent.conversationId)})`);
      }
      return fixedAgent;
    }
    let agent = agents.get(cid);
    if (!agent) {
      agent = new NeotomaAgent({ ...agentOptions, conversationId: cid });
      boundedSet(agents, cid, agent, AGENTS_KEPT);
    }
    return agent;
  }

  const renderMemory = (memory, ctx) =>
    typeof memoryTemplate === 'function' ? memoryTemplate(memory, ctx) : memoryTemplate.split('{memory}').join(memory);

  /** The system block for `memory` (none for an empty memory or template). */
  function memoryPrompt(prompt, memory, ctx) {
    if (!memory) return prompt;
    const block = renderMemory(memory, ctx);
    if (typeof block !== 'string') throw invalidInput('neotomaMiddleware: memoryTemplate must return a string');
    return block ? withSystemBlock(prompt, block) : prompt;
  }

  async function transformParams({ type, params }) {
    const neotoma = params.providerOptions?.neotoma;
    let callOptions = {};
    let providerOptions = params.providerOptions;
    if (neotoma !== undefined) {
      if (!isObject(neotoma)) throw invalidInput('providerOptions.neotoma must be an object');
      for (const k of Object.keys(neotoma)) {
        if (!CALL_OPTIONS.includes(k)) throw invalidInput(`providerOptions.neotoma: unknown option ${k}`);
      }
      if (neotoma.regenerate !== undefined && typeof neotoma.regenerate !== 'boolean') throw invalidInput('providerOptions.neotoma.regenerate must be a boolean');
      callOptions = neotoma;
      // Not the provider's: it never sees them.
      providerOptions = Object.fromEntries(Object.entries(params.providerOptions).filter(([k]) => k !== 'neotoma'));
    }
    const base = { ...params, providerOptions };
    const prompt = Array.isArray(params.prompt) ? params.prompt : [];
    let lastUser = -1;
    let userCount = 0;
    for (let i = 0; i < prompt.length; i++) {
      if (prompt[i]?.role === 'user') {
        lastUser = i;
        userCount++;
      }
    }
    const userMessage = lastUser >= 0 ? textOf(prompt[lastUser].content) : '';
    if (userMessage === '') return base; // no user text: nothing to remember

    const cid = callOptions.conversationId ?? (typeof conversationId === 'function' ? await conversationId({ params, headers: params.headers ?? {} }) : conversationId ?? fixedAgent.conversationId);
    const agent = agentFor(cid);
    const turnNumber = userCount;
    const info = { conversationId: agent.conversationId, userMessage, turnNumber, prompt, params };
    const turnId = callOptions.turnId ?? (turnIdOption ? await turnIdOption(info) : `turn-${turnNumber}-${textHash(userMessage)}`);
    const memoryKey = `${agent.conversationId}\u0000${turnId}`;
    const meta = { conversationId: agent.conversationId, turnId, turnNumber };

    // A tool-result continuation (or any call with something after the last user message): the
    // turn was opened by the call that answered the user message. Its memory again (when this
    // middleware opened it); what the turn's reply holds so far, from the prompt itself.
    if (lastUser < prompt.length - 1) {
      const after = prompt.slice(lastUser + 1).filter((m) => m?.role === 'assistant');
      const priorText = after.map((m) => (Array.isArray(m.content) ? m.content : []).filter((p) => p?.type === 'text').map((p) => p.text).join('')).join('');
      const priorEntities = after.flatMap((m) =>
        (Array.isArray(m.content) ? m.content : []).filter((p) => p?.type === 'tool-call' && p.toolName === rememberToolName).flatMap((p) => entitiesOfCall(p.input)),
      );
      const remembered = memories.get(memoryKey);
      const next = { ...base, prompt: remembered ? memoryPrompt(prompt, remembered.memory, remembered.ctx) : prompt };
      turns.set(next, {
        kind: 'continuation',
        agent,
        memoryKey,
        turnId,
        turnNumber,
        // each step of the turn so far is one assistant message: the reply's next revision
        revision: after.length + 1,
        priorText,
        priorEntities,
        meta: { ...meta, continuation: true },
      });
      return next;
    }

    // The turn, with the model call as its LLM callback: the callback hands over ctx (retrieval
    // done, user message stored or kept in the outbox) and waits for the model's reply.
    let gotCtx;
    const ctxReady = new Promise((resolve) => (gotCtx = resolve));
    const reply = {};
    const replied = new Promise((resolve, reject) => Object.assign(reply, { resolve, reject }));
    const entities = [];
    const llm = (_message, ctx) => {
      gotCtx(ctx);
      return replied.then((r) => (r.stream ? { stream: r.stream, entities: () => entities } : { text: r.text, entities }));
    };
    const turnOptions = { turnId, turnNumber };
    if (callOptions.regenerate === true) turnOptions.regenerate = true;
    const done = agent.turn(userMessage, llm, turnOptions);
    done.catch(() => {}); // handled where the reply is handed over (settle) or by the race below
    // A call aborted before wrapGenerate/wrapStream hands the reply over ends the turn now, not
    // at llmTimeoutMs (no reply stored; once handed over, rejecting is a no-op).
    const signal = params.abortSignal;
    let abortedWith;
    if (signal && typeof signal.addEventListener === 'function') {
      const onAbort = () => {
        abortedWith = abortError(signal.reason, 'the model call was aborted');
        reply.reject(abortedWith);
      };
      if (signal.aborted) onAbort();
      else {
        signal.addEventListener('abort', onAbort, { once: true });
        done.then(
          () => signal.removeEventListener('abort', onAbort),
          () => signal.removeEventListener('abort', onAbort),
        );
      }
    }
    const first = await Promise.race([ctxReady.then((ctx) => ({ ctx })), done.then((result) => ({ result }))]);
    if (first.result) {
      // A replay whose reply is stored: the package answers it without calling the LLM.
      notifyTurn(first.result);
      const next = { ...base };
      turns.set(next, { kind: 'replay', result: first.result, meta: { ...meta, replayed: true, retrievedEntityIds: first.result.retrievedEntityIds } });
      return next;
    }
    const { ctx } = first;
    boundedSet(memories, memoryKey, { memory: ctx.memory, ctx }, MEMORIES_KEPT);
    boundedSet(lastStores, memoryKey, done.catch(() => undefined), MEMORIES_KEPT);
    let withMemory;
    try {
      withMemory = memoryPrompt(prompt, ctx.memory, ctx);
    } catch (err) {
      reply.reject(err); // the turn ends now (no reply), not at llmTimeoutMs
      throw err;
    }
    const next = { ...base, prompt: withMemory };
    turns.set(next, {
      kind: 'open',
      type,
      reply,
      entities,
      done,
      abortedWith: () => abortedWith,
      meta: { ...meta, retrievedEntityIds: ctx.retrievedEntityIds },
    });
    return next;
  }

  /** After the reply is handed over: the store's outcome goes to onTurn / onError (never to the call). */
  function settle(turn, abandonedBy) {
    const stored = turn.done.then(
      (result) => {
        notifyTurn(result);
        return result;
      },
      (err) => {
        // The reply's own failure (the model's error, an abandoned stream, an aborted call) is
        // not a store failure.
        if (err !== abandonedBy() && err !== turn.abortedWith()) reportError(err, { phase: 'reply store', conversationId: turn.meta.conversationId, turnId: turn.meta.turnId });
        return undefined;
      },
    );
    if (waitUntil) waitUntil(stored);
    return stored;
  }

  /**
   * A continuation's end: when it added text or entities, the turn's whole reply (every step's
   * text, all the entities) is stored as the assistant message's next revision (`closeTurn`,
   * keyed by the revision, so a retried continuation stores nothing twice).
   */
  function complete(turn, text, found) {
    if (text === '' && found.length === 0) return Promise.resolve(undefined);
    const seen = new Set();
    const entities = [...turn.priorEntities, ...found]
      .filter((e) => {
        const key = JSON.stringify(e);
        return seen.has(key) ? false : (seen.add(key), true);
      })
      .slice(0, maxEntities);
    const stored = (lastStores.get(turn.memoryKey) ?? Promise.resolve())
      .then(() => turn.agent.closeTurn({ turnId: turn.turnId, turnNumber: turn.turnNumber, assistantMessage: turn.priorText + text, entities, revision: turn.revision }))
      .then(
        (result) => {
          notifyTurn(result);
          return result;
        },
        (err) => {
          reportError(err, { phase: 'reply store', conversationId: turn.meta.conversationId, turnId: turn.turnId });
          return undefined;
        },
      );
    boundedSet(lastStores, turn.memoryKey, stored, MEMORIES_KEPT);
    if (waitUntil) waitUntil(stored);
    return stored;
  }

  async function wrapGenerate({ doGenerate, params }) {
    const turn = turns.get(params);
    if (!turn) return doGenerate();
    if (turn.kind === 'continuation') {
      const result = await doGenerate();
      const content = Array.isArray(result.content) ? result.content : [];
      const stored = complete(
        turn,
        content.filter((p) => p?.type === 'text').map((p) => p.text).join(''),
        content.filter((p) => p?.type === 'tool-call' && p.toolName === rememberToolName).flatMap((p) => entitiesOfCall(p.input)),
      );
      if (!waitUntil) await stored;
      return { ...result, providerMetadata: withNeotomaMetadata(result.providerMetadata, turn.meta) };
    }
    if (turn.kind === 'replay') {
      return {
        content: [{ type: 'text', text: turn.result.assistantMessage }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: zeroUsage(),
        warnings: [],
        providerMetadata: { neotoma: turn.meta },
      };
    }
    let result;
    try {
      result = await doGenerate();
    } catch (err) {
      turn.reply.reject(err);
      settle(turn, () => err);
      throw err; // the model's error, unchanged
    }
    const content = Array.isArray(result.content) ? result.content : [];
    for (const part of content) {
      if (part?.type === 'tool-call' && part.toolName === rememberToolName) turn.entities.push(...entitiesOfCall(part.input));
    }
    turn.entities.splice(maxEntities);
    turn.reply.resolve({ text: content.filter((p) => p?.type === 'text').map((p) => p.text).join('') });
    const stored = settle(turn, () => undefined);
    if (!waitUntil) await stored;
    return { ...result, providerMetadata: withNeotomaMetadata(result.providerMetadata, turn.meta) };
  }

  async function wrapStream({ doStream, params }) {
    const turn = turns.get(params);
    if (!turn) return doStream();
    if (turn.kind === 'replay') {
      const text = turn.result.assistantMessage;
      const parts = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 'neotoma-replay' },
        ...(text ? [{ type: 'text-delta', id: 'neotoma-replay', delta: text }] : []),
        { type: 'text-end', id: 'neotoma-replay' },
        { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage: zeroUsage(), providerMetadata: { neotoma: turn.meta } },
      ];
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const p of parts) controller.enqueue(p);
            controller.close();
          },
        }),
      };
    }
    const markFinish = (part) =>
      part?.type === 'finish' ? { ...part, providerMetadata: withNeotomaMetadata(part.providerMetadata, turn.meta) } : part;
    if (turn.kind === 'continuation') {
      const result = await doStream();
      let text = '';
      const found = [];
      let failed = false;
      const watch = new TransformStream({
        transform(part, c) {
          if (part?.type === 'text-delta' && typeof part.delta === 'string') text += part.delta;
          else if (part?.type === 'tool-call' && part.toolName === rememberToolName) found.push(...entitiesOfCall(part.input));
          else if (part?.type === 'error') failed = true;
          c.enqueue(markFinish(part));
        },
        // only a stream read to its end completes the reply (an error or a cancel never gets here)
        flush() {
          if (!failed) complete(turn, text, found);
        },
      });
      return { ...result, stream: result.stream.pipeThrough(watch) };
    }

    // The reply as the package's LLM stream: the model's text deltas, exactly as streamed.
    let replyController;
    const replyStream = new ReadableStream({
      start(c) {
        replyController = c;
      },
    });
    let endedBy; // the error that ended the reply early, if any
    const endReply = (err) => {
      if (endedBy !== undefined || replyController === null) return;
      if (err === undefined) {
        replyController.close();
      } else {
        endedBy = err;
        replyController.error(err);
      }
      replyController = null;
    };
    turn.reply.resolve({ stream: replyStream });
    const stored = settle(turn, () => endedBy);

    let result;
    try {
      result = await doStream();
    } catch (err) {
      endReply(err);
      throw err; // the model's error, unchanged
    }
    const reader = result.stream.getReader();
    let modelError;
    const stream = new ReadableStream({
      async pull(controller) {
        let chunk;
        try {
          chunk = await reader.read();
        } catch (err) {
          endReply(err); // the model's stream failed (or was aborted) midway: no reply stored
          controller.error(err);
          return;
        }
        if (chunk.done) {
          turn.entities.splice(maxEntities);
          // An `error` part means the reply is not whole: it is not stored.
          endReply(modelError);
          controller.close();
          return;
        }
        const part = chunk.value;
        if (part?.type === 'text-delta' && typeof part.delta === 'string' && part.delta !== '' && replyController) {
          replyController.enqueue(part.delta);
        } else if (part?.type === 'tool-call' && part.toolName === rememberToolName) {
          turn.entities.push(...entitiesOfCall(part.input));
        } else if (part?.type === 'error' && modelError === undefined) {
          modelError = part.error ?? new Error('the model stream reported an error');
        }
        controller.enqueue(markFinish(part));
      },
      cancel(reason) {
        // Abandoned by the reader (a closed connection, a cancelled request): no reply stored.
        endReply(abortError(reason, 'the reply stream was abandoned'));
        return reader.cancel(reason);
      },
    });
    void stored;
    return { ...result, stream };
  }

  return { specificationVersion: 'v4', transformParams, wrapGenerate, wrapStream };
}

const REMEMBER_SCHEMA = {
  type: 'object',
  properties: {
    entities: {
      type: 'array',
      minItems: 1,
      maxItems: 16,
      description: 'The entities to remember, each with its type and its fields.',
      items: {
        type: 'object',
        properties: {
          entity_type: {
            type: 'string',
            pattern: '^[a-z][a-z0-9_]*$',
            description: 'person, company, project, task, event, note, location or contact',
          },
          name: { type: 'string', description: 'person, company, project, location: the name' },
          title: { type: 'string', description: 'task, event: the title' },
        },
        required: ['entity_type'],
        additionalProperties: true,
      },
    },
  },
  required: ['entities'],
  additionalProperties: false,
};

const REMEMBER_DESCRIPTION =
  'Remember people, companies, projects, tasks, events and notes the user tells you about, with ' +
  'their fields: person (name, email, organization, role), company (name, website, industry), ' +
  'project (name, status, owner), task (title, status, assignee, due_date), event (title, ' +
  'start_time), note (content). They are stored with your reply and found again in later turns.';

/**
 * The opt-in tools: `remember`, whose calls `neotomaMiddleware` stores with the reply as the
 * turn's produced entities. `streamText({ model, tools: { ...neotomaTools(), ...yours } })`.
 */
export function neotomaTools() {
  return {
    [REMEMBER_TOOL]: tool({
      description: REMEMBER_DESCRIPTION,
      inputSchema: jsonSchema(REMEMBER_SCHEMA),
      // The middleware takes the entities from the model's tool call itself; this answers the model.
      execute: async ({ entities }) => ({
        remembered: entities.map((e) => e.name ?? e.title ?? e.email ?? e.entity_type),
        note: 'stored with this reply',
      }),
    }),
  };
}
