// The README's embed snippet (tests/node/widget.test.mjs serves it through embed.html, with
// /neotoma proxied to a Neotoma-shaped server by createNeotomaProxy).
import 'neotoma-agent-wasm/widget'; // defines <neotoma-chat>

// In the page: <neotoma-chat conversation-id="support-42" base-url="/neotoma"></neotoma-chat>
// (/neotoma: your origin's proxy to Neotoma, createNeotomaProxy, which adds the token)
const chat = document.querySelector('neotoma-chat');
chat.llm = (message, ctx) => callYourModel(message, ctx); // a string, a stream, { text | stream, entities }

// A stand-in for your model: streams an answer from what Neotoma holds (ctx.retrieved), and
// produces the entities it was told about.
function callYourModel(message, ctx) {
  const known = ctx.retrieved.map((e) => `${e.snapshot.name ?? e.canonical_name} (${e.entity_type})`);
  const text = known.length ? `From memory: ${known.join(', ')}.` : `Noted: "${message}".`;
  async function* words() {
    for (const word of text.match(/\S+\s*/g)) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      yield word;
    }
  }
  const named = /\b(Dana Whitfield)\b/.exec(message);
  return { stream: words(), entities: named && !known.length ? [{ entity_type: 'person', name: named[1] }] : [] };
}
