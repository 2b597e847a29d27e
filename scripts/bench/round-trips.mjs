// Round trips on the critical path: every request to the local Neotoma-shaped server (in this
// process, tests/server/neotoma-server.mjs) held for 20 ms (`server.delay('*', 20)`), messages
// naming 0, 1, 4 and 8 identifiers that exist in it. Per turn, from the agent's fetches (timed by
// a wrapper around globalThis.fetch): the requests answered before the LLM callback was invoked
// and the others (sent after it, or in flight when it was invoked), each set's round trips
// (requests whose times overlap count as one); time to first token (turn() called -> callback
// invoked); protocol time (turn() call to settle, minus the callback's own time).
//
// A strictly sequential client (one lookup after another, the user message stored, then one call
// per edge; the callback; the assistant message stored, then one call per edge: the order of the
// upstream TypeScript SDK) is costed from the same turns: the same number of lookups and edges
// as the turn sent (the edges counted in its /store bodies), each request at the median latency
// measured in these turns for a request in flight alone (fetch called -> response headers, the
// 20 ms delay included; parallel requests are left out, as they wait on each other here).
// The overlapped turn (`overlapUserStore: true`) gets the same rows, or n/a if the agent refuses it.

import { NeotomaAgent } from 'neotoma-agent-wasm';
import { startServer } from '../../tests/server/neotoma-server.mjs';
import { NAMED, messageNaming, stats, ms, llm } from './lib.mjs';

const LATENCY_MS = 20;
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const COUNTS = [0, 1, 4, 8];
const TURNS = Number(process.env.BENCH_RT_TURNS ?? 8);
const WARMUP = 2;

/** Number of sequential waves in a list of [start, end] intervals (overlapping ones run together). */
function waves(intervals) {
  const s = [...intervals].sort((a, b) => a[0] - b[0]);
  let n = 0;
  let end = -Infinity;
  for (const [a, b] of s) {
    if (a >= end) {
      n++;
      end = b;
    } else end = Math.max(end, b);
  }
  return n;
}

export async function run() {
  const server = await startServer();
  for (const e of NAMED) await server.store.store({ entities: [e], idempotency_key: `seed-${e.name}` });

  // Every fetch the agent makes, timed as the client sees it (call -> response headers).
  const fetchLog = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async function timedFetch(input, init) {
    const url = typeof input === 'string' ? input : input.url;
    const entry = { path: new URL(url).pathname, start: performance.now(), end: NaN };
    fetchLog.push(entry);
    const res = await realFetch.call(globalThis, input, init);
    entry.end = performance.now();
    return res;
  };
  server.delay('*', LATENCY_MS);

  const rows = [];
  const aloneLatencies = [];
  const data = { latencyMs: LATENCY_MS, turns: TURNS, modes: {} };
  try {
    for (const mode of ['plain', 'overlapped']) {
      const perK = {};
      data.modes[mode] = perK;
      for (const k of COUNTS) {
        const message = messageNaming(k);
        let agent;
        try {
          agent = new NeotomaAgent({
            conversationId: `rt-${mode}-${k}-${Date.now()}`,
            transport: { baseUrl: server.url, token: server.token },
            ...(mode === 'overlapped' ? { overlapUserStore: true } : {}),
          });
        } catch (e) {
          if (e?.code !== 'INVALID_INPUT') throw e;
          perK[k] = { unavailable: e.message };
          continue;
        }
        const turns = [];
        for (let i = 0; i < WARMUP + TURNS; i++) {
          server.resetCounts();
          fetchLog.length = 0;
          let cbStart = NaN;
          let cbEnd = NaN;
          const t0 = performance.now();
          const result = await agent.turn(message, (m, ctx) => {
            cbStart = performance.now();
            const reply = llm(m, ctx);
            cbEnd = performance.now();
            return reply;
          });
          const t1 = performance.now();
          await server.whenIdle();
          if (i < WARMUP) continue;
          const reqs = server.requests.filter((r) => !r.preflight);
          // before the callback: answered before it was invoked (on the time-to-first-token path);
          // after: the others (sent after it, or still in flight when it was invoked)
          const fetchesBefore = fetchLog.filter((f) => f.end <= cbStart);
          const fetchesAfter = fetchLog.filter((f) => !(f.end <= cbStart));
          const stores = reqs.filter((r) => r.path === '/store');
          const edgesOf = (role) =>
            stores
              .filter((r) => r.body?.entities?.some((e) => e.entity_type === 'conversation_message' && e.role === role))
              .reduce((n, r) => n + (r.body.relationships?.length ?? 0), 0);
          const createRel = reqs.filter((r) => r.path.startsWith('/create_relationship'));
          turns.push({
            ttft: cbStart - t0,
            protocol: t1 - t0 - (cbEnd - cbStart),
            before: fetchesBefore.length,
            after: fetchesAfter.length,
            requests: reqs.length,
            wavesBefore: waves(fetchesBefore.map((f) => [f.start, f.end])),
            wavesAfter: waves(fetchesAfter.map((f) => [f.start, f.end])),
            lookups: reqs.filter((r) => r.path === '/retrieve_entity_by_identifier').length,
            userEdges: edgesOf('user'),
            assistantEdges: edgesOf('assistant'),
            extraEdgeCalls: createRel.length,
            extraEdges: createRel.reduce((n, r) => n + (r.body?.relationships?.length ?? 1), 0),
            retrieved: result.retrieved.length,
            undelayed: reqs.filter((r) => r.delayedMs !== LATENCY_MS).length,
            // latency of each request that was in flight alone (no other request of the turn overlapping it)
            alone: fetchLog
              .filter((f) => !fetchLog.some((g) => g !== f && g.start < f.end && f.start < g.end))
              .map((f) => ({ path: f.path, ms: f.end - f.start })),
            all: fetchLog.map((f) => ({ path: f.path, ms: f.end - f.start })),
          });
        }
        if (mode === 'plain') for (const t of turns) aloneLatencies.push(...t.alone.map((a) => a.ms));
        const med = (f) => stats(turns.map(f)).median;
        const t = turns.at(-1);
        const lookups = med((x) => x.lookups);
        const userEdges = med((x) => x.userEdges);
        const asstEdges = med((x) => x.assistantEdges);
        const r = {
          message,
          ttft: stats(turns.map((x) => x.ttft)),
          protocol: stats(turns.map((x) => x.protocol)),
          requestsBefore: med((x) => x.before),
          requestsAfter: med((x) => x.after),
          roundTripsBefore: med((x) => x.wavesBefore),
          roundTripsAfter: med((x) => x.wavesAfter),
          lookups,
          userEdges,
          assistantEdges: asstEdges,
          retrieved: t.retrieved,
          undelayedRequests: turns.reduce((n, x) => n + x.undelayed, 0),
          latencyMs: stats(turns.flatMap((x) => x.all.map((a) => a.ms))).median,
          sequential: {
            requestsBefore: lookups + 1 + userEdges,
            requestsAfter: 1 + asstEdges,
          },
        };
        perK[k] = r;
      }
    }
  } finally {
    globalThis.fetch = realFetch;
    await server.close();
  }

  // the sequential client: every request at the median latency of a request in flight alone
  const L = stats(aloneLatencies).median;
  data.sequentialRequestMs = L;
  for (const r of Object.values(data.modes.plain)) {
    r.sequential.ttft = r.sequential.requestsBefore * L;
    r.sequential.protocol = (r.sequential.requestsBefore + r.sequential.requestsAfter) * L;
  }
  for (const mode of ['plain', 'overlapped']) {
    for (const k of COUNTS) {
      const r = data.modes[mode][k];
      const label = `${mode === 'plain' ? 'plain turn' : 'overlapped turn (`overlapUserStore: true`)'}, ${k} identifier${k === 1 ? '' : 's'}`;
      if (!r || r.unavailable) {
        rows.push({ what: label, figure: 'n/a (not built yet: the agent refuses `overlapUserStore`)' });
        continue;
      }
      rows.push({
        what: label,
        figure:
          `${plural(r.requestsBefore, 'request')} before the callback in **${plural(r.roundTripsBefore, 'round trip')}**, ${r.requestsAfter} after in **${r.roundTripsAfter}**; ` +
          `time to first token **${ms(r.ttft.median)}**, protocol time ${ms(r.protocol.median)} (medians of ${r.ttft.n}; ${r.retrieved} retrieved)` +
          (r.undelayedRequests ? `; ${r.undelayedRequests} requests were not delayed!` : ''),
      });
      if (mode === 'plain') {
        const s = r.sequential;
        rows.push({
          what: `sequential client, ${k} identifier${k === 1 ? '' : 's'}: ${plural(r.lookups, 'lookup')} one after another, the user message, its ${plural(r.userEdges, 'edge')} one call each; the callback; the reply, its ${plural(r.assistantEdges, 'edge')}`,
          figure: `${plural(s.requestsBefore, 'request')} before the callback, ${s.requestsAfter} after; time to first token ${ms(s.ttft)}, protocol time ${ms(s.protocol)} (computed: requests × the median latency of a request alone)`,
        });
      }
    }
  }
  rows.unshift({
    what: `per-request latency as the client sees it, the server holding each request ${LATENCY_MS} ms (fetch called -> response headers; requests in flight alone, plain turns)`,
    figure: `median ${ms(L)} (n=${aloneLatencies.length})`,
  });
  return { rows, data };
}
