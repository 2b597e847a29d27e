// The demo's LLM callback for any OpenAI-compatible chat-completions endpoint (settings panel:
// base URL, model, key; the key is kept in memory only, never stored). The model gets the
// agent's memory block (`ctx.memory`) in its system prompt and a `remember` tool; what it
// reports there (or, for a model without tools, in a closing ```json block) becomes the reply's
// `entities`, stored with the reply. The reply is streamed.

import { sseData } from './worker/openai.mjs';

/** Field names the real server's schemas keep (README, "Field names that survive"). */
const FIELDS_HINT =
  'person: name, email, organization, role; company: name, industry, website; ' +
  'project: name, status, owner, description; task: title, status, assignee, due_date; ' +
  'event: title, start_time, location; note: content, title; location: name, city, country';

/** The `remember` tool: the entities the reply produces. */
export const REMEMBER_TOOL = {
  type: 'function',
  function: {
    name: 'remember',
    description: `Store people, companies, projects, tasks, events, notes or places the user tells you about. Field names: ${FIELDS_HINT}. A project needs a status.`,
    parameters: {
      type: 'object',
      properties: {
        entities: {
          type: 'array',
          items: {
            type: 'object',
            properties: { entity_type: { type: 'string', enum: ['person', 'company', 'project', 'task', 'event', 'note', 'location'] } },
            required: ['entity_type'],
            additionalProperties: true,
          },
        },
      },
      required: ['entities'],
    },
  },
};

/** The system prompt: who the model is, what it remembers, how to report new facts. */
export function systemPrompt(memory) {
  return [
    'You are a helpful assistant with a long-term memory (Neotoma).',
    memory || 'Nothing in memory matches the user\'s message.',
    'When the user tells you about people, companies, projects, tasks, events or places, call the `remember` tool with them',
    '(or, if you cannot call tools, end your reply with a ```json block {"entities": [...]}).',
    `Use these field names: ${FIELDS_HINT}.`,
  ].join('\n');
}

/** Types a model may report (the ones the `remember` tool names). */
const TYPES = REMEMBER_TOOL.function.parameters.properties.entities.items.properties.entity_type.enum;
/** Fields of the turn protocol's own entities, which the agent refuses on a produced one. */
const PROTOCOL_FIELDS = ['turn_key', 'conversation_id', 'sender_kind', 'idempotency_key', 'entity_id', 'relationships'];
/** The agent's default `maxProducedEntities`. */
const MAX_ENTITIES = 16;

/**
 * What a model reported, made acceptable to the agent: a model's slip (a `"Person"` type, a
 * string instead of an object, an `entity_id`, too many) would otherwise make the agent refuse
 * the whole reply. Unknown types and non-objects are dropped, types lowercased, protocol fields
 * removed, the list capped.
 */
export function cleanEntities(reported) {
  if (!Array.isArray(reported)) return [];
  return reported
    .filter((e) => e !== null && typeof e === 'object' && !Array.isArray(e) && typeof e.entity_type === 'string')
    .map((e) => ({ ...e, entity_type: e.entity_type.trim().toLowerCase() }))
    .filter((e) => TYPES.includes(e.entity_type))
    .map((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !PROTOCOL_FIELDS.includes(k))))
    .slice(0, MAX_ENTITIES);
}

/** The entities of a reply's closing ```json block, if it has one. */
export function entitiesFromText(text) {
  const block = text.match(/```json\s*([\s\S]*?)```\s*$/);
  if (!block) return [];
  try {
    const parsed = JSON.parse(block[1]);
    return Array.isArray(parsed?.entities) ? parsed.entities : [];
  } catch {
    return [];
  }
}

/**
 * `(message, ctx) => { stream, entities }` for the endpoint. `entities` is a function of the whole
 * reply text: the `remember` tool's arguments when the model called it, else the closing JSON
 * block. Errors are `Error`s with a `code` (LLM_HTTP, LLM_NETWORK, LLM_STREAM) that never carry
 * the key.
 */
export function openAIChatWithMemory({ baseUrl, model, apiKey }) {
  const url = `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const headers = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;

  return (message, ctx) => {
    const toolArguments = [];
    async function* stream() {
      const body = {
        model,
        stream: true,
        messages: [
          { role: 'system', content: systemPrompt(ctx.memory) },
          { role: 'user', content: message },
        ],
        tools: [REMEMBER_TOOL],
      };
      let response;
      try {
        response = await globalThis.fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
      } catch (cause) {
        throw llmError('LLM_NETWORK', 'the model endpoint could not be reached', cause);
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw Object.assign(llmError('LLM_HTTP', `the model endpoint answered ${response.status}`), { status: response.status });
      }
      let said = false;
      for await (const data of sseData(response.body)) {
        if (data === '[DONE]') {
          // a model that only called the tool still answers something the user can read
          if (!said && toolArguments.length > 0) yield "I'll remember that.";
          return;
        }
        let event;
        try {
          event = JSON.parse(data);
        } catch {
          throw llmError('LLM_STREAM', 'the model stream sent an event that is not JSON');
        }
        const delta = event?.choices?.[0]?.delta ?? {};
        for (const call of delta.tool_calls ?? []) {
          const i = call.index ?? 0;
          toolArguments[i] = (toolArguments[i] ?? '') + (call.function?.arguments ?? '');
        }
        if (typeof delta.content === 'string' && delta.content !== '') {
          said = true;
          yield delta.content;
        }
      }
      throw llmError('LLM_STREAM', 'the model stream ended before [DONE]');
    }
    const entities = (text) => {
      const called = toolArguments.flatMap((args) => {
        try {
          const parsed = JSON.parse(args);
          return Array.isArray(parsed?.entities) ? parsed.entities : [];
        } catch {
          return [];
        }
      });
      return cleanEntities(called.length > 0 ? called : entitiesFromText(text));
    };
    return { stream: stream(), entities };
  };
}

function llmError(code, message, cause) {
  return Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { name: 'LlmError', code });
}
