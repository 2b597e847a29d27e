// The bench's Worker (run in workerd by Miniflare 3, scripts/bench/workerd.mjs): one request runs
// a batch of turns in this isolate, `inflight` conversations at a time, on the isolate's own
// embedded store or over HTTP to the local Neotoma-shaped server; the bench times the request
// from outside (workerd's clocks stand still while a request computes).
//   GET /turns?mode=embedded|http&inflight=N&turns=T[&fresh=1][&url=U&token=K]   -> { turns, retrieved }
//   (fresh=1: a new embedded store; url/token: the server for mode=http, else env.NEOTOMA_URL/TOKEN)
//   GET /ping                                          -> "ok" (no turn)
import { NeotomaAgent, EmbeddedStore } from 'neotoma-agent-wasm';

const NAMES = [
  ['person', 'Sarah Chen'],
  ['company', 'Acme Corp'],
  ['project', 'Project Falcon'],
];
const MESSAGE = 'What did Sarah Chen say about Acme Corp and "Project Falcon" last week?';
let store; // created in a handler: Workers give no random values at global scope
let batch = 0;

async function embeddedStore() {
  if (!store) {
    store = new EmbeddedStore();
    for (const [entity_type, name] of NAMES) await store.store({ entities: [{ entity_type, name }], idempotency_key: `seed-${name}` });
  }
  return store;
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/ping') return new Response('ok');
    const mode = url.searchParams.get('mode');
    const inflight = Number(url.searchParams.get('inflight'));
    const turns = Number(url.searchParams.get('turns'));
    if (url.searchParams.get('fresh') === '1') store = undefined;
    const transport =
      mode === 'http'
        ? { baseUrl: url.searchParams.get('url') ?? env.NEOTOMA_URL, token: url.searchParams.get('token') ?? env.NEOTOMA_TOKEN }
        : await embeddedStore();
    const b = ++batch;
    let done = 0;
    let retrieved = 0;
    const llm = (_m, ctx) => `Noted: ${ctx.retrieved.map((e) => e.snapshot.name).join(', ')}`;
    await Promise.all(
      Array.from({ length: inflight }, async (_, i) => {
        const agent = new NeotomaAgent({ conversationId: `wb-${mode}-${inflight}-${b}-${i}`, transport });
        for (let n = i; n < turns; n += inflight) {
          const r = await agent.turn(MESSAGE, llm);
          retrieved += r.retrieved.length;
          done++;
        }
      }),
    );
    return Response.json({ turns: done, retrieved });
  },
};
