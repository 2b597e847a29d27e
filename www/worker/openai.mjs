// The Worker's LLM: an OpenAI-compatible chat-completions endpoint, called with `stream: true`.
// Its Server-Sent Events (`data: {json}` lines, `choices[0].delta.content`, `data: [DONE]`) are
// read into an AsyncIterable of the reply's text chunks, which is what the agent's LLM callback
// may return. Failures are Errors with a `code` (LLM_HTTP, LLM_NETWORK, LLM_STREAM); neither they
// nor anything else here carries the API key.

const DEFAULT_MODEL = 'gpt-4o-mini';

/** The LLM callback `(message, ctx) => AsyncIterable<string>` for the endpoint in `env`. */
export function openAIChat({ OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL }) {
  const url = `${OPENAI_BASE_URL.replace(/\/+$/, '')}/chat/completions`;
  const model = OPENAI_MODEL || DEFAULT_MODEL;
  const headers = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (OPENAI_API_KEY) headers.authorization = `Bearer ${OPENAI_API_KEY}`;

  return async function* chat(message, ctx) {
    const messages = [
      { role: 'system', content: systemPrompt(ctx.memory) },
      { role: 'user', content: message },
    ];
    let response;
    try {
      // called on globalThis: Workers reject a fetch called with any other `this`
      response = await globalThis.fetch(url, { method: 'POST', headers, body: JSON.stringify({ model, stream: true, messages }) });
    } catch (cause) {
      throw llmError('LLM_NETWORK', 'the LLM endpoint could not be reached', cause);
    }
    if (!response.ok) {
      // the body is not passed on: providers echo (parts of) a rejected key in it
      await response.body?.cancel();
      throw Object.assign(llmError('LLM_HTTP', `the LLM endpoint answered ${response.status}`), { status: response.status });
    }
    try {
      yield* replyChunks(response.body);
    } catch (err) {
      throw err?.code ? err : llmError('LLM_NETWORK', 'the LLM stream broke off', err);
    }
  };
}

/** The system prompt: the agent's memory block (`ctx.memory`: the retrieved entities, one
 *  compact line each, bounded by the agent's `memoryChars`). */
export function systemPrompt(memory) {
  const intro = 'You are a helpful assistant with a long-term memory (Neotoma).';
  if (!memory) return `${intro}\nNo remembered entity matches the user's message.`;
  return `${intro}\nName the remembered entities when you use them.\n${memory}`;
}

/** The text deltas of a chat-completions SSE stream; throws unless it ends with `data: [DONE]`. */
export async function* replyChunks(body) {
  for await (const data of sseData(body)) {
    if (data === '[DONE]') return;
    let event;
    try {
      event = JSON.parse(data);
    } catch {
      throw llmError('LLM_STREAM', 'the LLM stream sent an event that is not JSON');
    }
    if (event?.error) throw llmError('LLM_STREAM', 'the LLM stream reported an error');
    const delta = event?.choices?.[0]?.delta?.content;
    if (typeof delta === 'string' && delta !== '') yield delta;
  }
  throw llmError('LLM_STREAM', 'the LLM stream ended before [DONE]');
}

/**
 * The `data` of each Server-Sent Event in a byte stream (its `data:` lines joined by "\n"), per
 * the WHATWG EventSource parsing rules: lines end in CRLF, LF or CR, a blank line ends an event,
 * `:` lines are comments, other fields are ignored, an unfinished event at the end is dropped.
 */
export async function* sseData(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = ''; // text after the last complete line
  let data = null; // the current event's data, null until it has a data line
  try {
    for (;;) {
      const { value, done } = await reader.read();
      pending += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // a CR at the very end may be half of a CRLF: it waits for the next chunk
      const lines = pending.split(/\r\n|\r(?!$)|\n/);
      pending = lines.pop();
      for (const line of lines) {
        if (line === '') {
          if (data !== null) yield data;
          data = null;
          continue;
        }
        const colon = line.indexOf(':');
        if (colon === 0) continue;
        const field = colon < 0 ? line : line.slice(0, colon);
        if (field !== 'data') continue;
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        data = data === null ? value : `${data}\n${value}`;
      }
      if (done) return;
    }
  } finally {
    // stops the download when the reader quits early (after [DONE], or on a bad event)
    reader.cancel().catch(() => {});
  }
}

function llmError(code, message, cause) {
  return Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { name: 'LlmError', code });
}
