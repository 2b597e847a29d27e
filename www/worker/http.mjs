// How the Worker's /chat route reads requests and answers: the JSON body, the streamed reply with
// its turn headers, and `{ error: { code, message } }` answers.

const STATUS_BY_CODE = { INVALID_JSON: 400, INVALID_INPUT: 400, IDEMPOTENCY_MISMATCH: 409 };

/** The request's JSON object; its fields are the agent's to check (it throws INVALID_INPUT). */
export async function readJsonObject(request) {
  let body;
  try {
    body = await request.json();
  } catch {
    throw Object.assign(new Error('the request body is not JSON'), { code: 'INVALID_JSON' });
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw Object.assign(new Error('the request body must be a JSON object'), { code: 'INVALID_INPUT' });
  }
  return body;
}

/** 200 text/plain streaming the reply's bytes, with the turn's id (URI-encoded) and number. */
export function replyResponse(reply, { turnId, turnNumber }) {
  return new Response(withInterruptionMarker(reply), {
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      'x-turn-id': encodeURIComponent(turnId),
      'x-turn-number': String(turnNumber),
    },
  });
}

/**
 * The reply's bytes, ending with "\n\n[reply interrupted: CODE]" if the reply stream errors:
 * workerd ends a response whose body errored exactly like a complete one, so without this line
 * a client could not tell a cut-off reply from a whole one.
 */
function withInterruptionMarker(reply) {
  const reader = reply.getReader();
  return new ReadableStream({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (err) {
        controller.enqueue(new TextEncoder().encode(`\n\n[reply interrupted: ${err?.code ?? 'ERROR'}]`));
        controller.close();
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** A coded error (the package's NeotomaError, the LLM client's) as its answer; anything else is a 500. */
export function errorFor(err) {
  if (typeof err?.code !== 'string') {
    console.error(`chat failed: ${err?.name}: ${err?.message}`);
    return errorResponse(500, 'INTERNAL', 'the turn failed');
  }
  return errorResponse(STATUS_BY_CODE[err.code] ?? 502, err.code, err.message);
}

export function errorResponse(status, code, message, headers = {}) {
  return Response.json({ error: { code, message } }, { status, headers });
}
