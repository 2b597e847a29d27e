// The Worker's LLM when no OpenAI-compatible endpoint is configured: a deterministic reply that
// names the entities Neotoma retrieved for the message, streamed in a few chunks. Naming them is
// what makes the stored reply REFERS_TO them. Not a language model: for trying the Worker out.

/** `(message, ctx) => AsyncIterable<string>`, the shape of the Worker's LLM callback. */
export async function* localResponder(message, ctx) {
  yield `Turn ${ctx.turnNumber}. `;
  if (ctx.retrieved.length === 0) {
    yield 'Nothing in memory matches your message.';
    return;
  }
  yield 'From memory: ';
  for (const [i, entity] of ctx.retrieved.entries()) {
    yield `${i === 0 ? '' : ', '}${entity.snapshot?.name ?? entity.canonical_name} (${entity.entity_type})`;
  }
  yield '.';
}
