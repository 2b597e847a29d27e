// A stand-in for an OpenAI-compatible chat-completions API on 127.0.0.1, for the edge Worker's
// tests (tests/node/edge-worker.test.mjs): the real API is not reachable from tests. It records
// every request and answers each with the next queued plan:
//
//   server.planReply(deltas, { gate, ending })   200 text/event-stream, OpenAI's chunk format:
//       a role event, one event per delta (a string is `{ content }`; an object is sent as the
//       delta itself, e.g. `{ tool_calls: [...] }`), a finish event, then per `ending`:
//       'done' (default) `data: [DONE]` | 'cut' the socket destroyed, no end of the chunked body |
//       'invalid' an event whose data is not JSON (then [DONE]) | 'eof' a clean end without [DONE].
//       After the first delta's event it waits for `gate` (a promise), if given; the rest is
//       written in 5-byte pieces, so lines and UTF-8 characters are split across writes.
//   server.planStatus(status, body)             a non-stream answer (e.g. 401 JSON)
//
// A request without `stream: true` (the AI SDK's generateText) gets the same plan as one
// chat.completion JSON: the string deltas joined as `content`, the tool-call deltas as `tool_calls`.
//
// No plan queued: 500. Binds 127.0.0.1 only. Answers CORS preflights and allows any origin, as
// hosted OpenAI-compatible APIs do, so a page (the demo's model settings) can call it too.

import http from 'node:http';

const PIECE_BYTES = 5;

function chunkEvent(delta, finishReason = null) {
  const chunk = {
    id: 'chatcmpl-edge-test',
    object: 'chat.completion.chunk',
    created: 1764460800,
    model: 'edge-test-model',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

const write = (res, data) => new Promise((resolve, reject) => res.write(data, (err) => (err ? reject(err) : resolve())));

const asDelta = (d) => (typeof d === 'string' ? { content: d } : d);

function completionOf(deltas) {
  const message = { role: 'assistant', content: null };
  for (const d of deltas.map(asDelta)) {
    if (typeof d.content === 'string') message.content = (message.content ?? '') + d.content;
    for (const call of d.tool_calls ?? []) (message.tool_calls ??= []).push({ id: call.id, type: 'function', function: call.function });
  }
  const finishReason = message.tool_calls ? 'tool_calls' : 'stop';
  return {
    id: 'chatcmpl-edge-test',
    object: 'chat.completion',
    created: 1764460800,
    model: 'edge-test-model',
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

async function streamReply(res, { deltas, gate, ending = 'done' }) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  await write(res, chunkEvent({ role: 'assistant', content: '' }) + chunkEvent(asDelta(deltas[0])));
  if (gate) await gate;
  let rest = deltas.slice(1).map((d) => chunkEvent(asDelta(d))).join('') + chunkEvent({}, 'stop');
  if (ending === 'invalid') rest += 'data: {"choices":[{"delta":{"content":"never parsed\n\n';
  if (ending === 'done' || ending === 'invalid') rest += 'data: [DONE]\n\n';
  const bytes = Buffer.from(rest, 'utf8');
  for (let i = 0; i < bytes.length; i += PIECE_BYTES) {
    await write(res, bytes.subarray(i, i + PIECE_BYTES));
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (ending === 'cut') res.socket.destroy();
  else res.end();
}

export async function startOpenAIServer() {
  const requests = [];
  const plans = [];
  const server = http.createServer(async (req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-headers': 'authorization, content-type, accept', 'access-control-allow-methods': 'POST' });
      res.end();
      return;
    }
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString('utf8');
    let body = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* kept as text */
    }
    requests.push({ method: req.method, path: req.url, headers: req.headers, body });
    const plan = plans.shift();
    try {
      if (!plan) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('no plan queued');
      } else if (plan.status) {
        res.writeHead(plan.status, { 'content-type': 'application/json' }).end(JSON.stringify(plan.body));
      } else if (body?.stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completionOf(plan.deltas)));
      } else {
        await streamReply(res, plan);
      }
    } catch {
      res.destroy(); // the Worker went away mid-answer
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    planReply(deltas, { gate, ending } = {}) {
      plans.push({ deltas, gate, ending });
    },
    planStatus(status, body) {
      plans.push({ status, body });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
