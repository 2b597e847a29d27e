// Scaling on the embedded store (the wasm build, in Node): it is filled with synthetic people and
// companies (1,000 per /store call) to 100, 10,000 and 100,000 entities (plus the 3 named ones
// and the conversations' own messages). At each size:
//   - a turn naming 3 stored entities (3 lookups + 2 stores) in a conversation of 10 messages (a
//     new conversation, 5 turns in, then timed) and in one of 1,000+ messages (500 turns run when
//     the store held 100 entities, growing by the timed turns);
//   - a lookup (`retrieveEntityByIdentifier`, limit 8): a name that exists, and one that does not;
//   - the time to store the last 1,000 entities (a /store call should not grow with the store).

import { NeotomaAgent, EmbeddedStore } from 'neotoma-agent-wasm';
import { seedSynthetic, syntheticEntities, stats, ms, num, llm } from './lib.mjs';
import { MESSAGE } from './throughput.mjs';

const SIZES = (process.env.BENCH_SCALING_SIZES ?? '100,10000,100000').split(',').map(Number);
const LONG = 1000;

async function timeTurns(agent, n) {
  const t = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await agent.turn(MESSAGE, llm);
    t.push(performance.now() - t0);
  }
  return stats(t);
}

async function timeLookups(store, identifier, n = 20) {
  const t = [];
  let found = 0;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await store.retrieveEntityByIdentifier({ identifier, limit: 8 });
    t.push(performance.now() - t0);
    found = r.entities.length;
  }
  return { ...stats(t), found };
}

export async function run() {
  const store = new EmbeddedStore();
  for (const [entity_type, name] of [['person', 'Sarah Chen'], ['company', 'Acme Corp'], ['project', 'Project Falcon']]) {
    await store.store({ entities: [{ entity_type, name }], idempotency_key: `seed-${name}` });
  }
  const long = new NeotomaAgent({ conversationId: 'scaling-long', transport: store });
  let seeded = 0;
  const data = { sizes: {} };
  for (const size of SIZES) {
    // the last 1,000 (or fewer) of this step timed on their own
    const lastBatch = Math.min(1000, size - seeded);
    if (size - seeded - lastBatch > 0) await seedSynthetic(store, size - seeded - lastBatch, seeded);
    const tb = performance.now();
    await store.store({ entities: [...syntheticEntities(lastBatch, size - lastBatch)], idempotency_key: `scaling-last-${size}` });
    const lastBatchMs = performance.now() - tb;
    seeded = size;
    if (size === SIZES[0]) for (let i = 0; i < LONG / 2; i++) await long.turn(MESSAGE, llm);
    const short = new NeotomaAgent({ conversationId: `scaling-short-${size}`, transport: store });
    for (let i = 0; i < 5; i++) await short.turn(MESSAGE, llm);
    const n = size >= 100000 ? 5 : 10;
    const shortTurn = await timeTurns(short, n);
    const longTurn = await timeTurns(long, n);
    const middle = [...syntheticEntities(1, Math.floor(size / 2))][0].name;
    const hit = await timeLookups(store, middle);
    const miss = await timeLookups(store, 'Nobody Byname');
    data.sizes[size] = { entityCount: store.entityCount, lastBatch, lastBatchMs, shortTurn, longTurn, hit, miss, hitName: middle };
  }
  const rows = [];
  const cells = SIZES.map((s) => data.sizes[s]);
  const sizes = SIZES.map((s) => num(s)).join(' / ');
  rows.push(
    {
      what: `a turn (3 lookups + 2 stores), conversation of 10 messages, store of ${sizes} entities`,
      figure: cells.map((c) => `**${ms(c.shortTurn.median)}**`).join(' / ') + ' (medians)',
    },
    {
      what: `the same in a conversation of 1,000 messages`,
      figure: cells.map((c) => `**${ms(c.longTurn.median)}**`).join(' / ') + ` (medians; the store then held ${cells.map((c) => num(c.entityCount)).join(' / ')} entities in all)`,
    },
    {
      what: `a lookup (\`retrieveEntityByIdentifier\`, limit 8) in the wasm build: a name that exists / one that does not, ${sizes} entities`,
      figure: cells.map((c) => `${ms(c.hit.median)} / ${ms(c.miss.median)}`).join('; ') + ` (medians of ${cells[0].hit.n})`,
    },
    {
      what: `storing 1,000 entities in one /store call, at ${sizes} entities`,
      figure: cells.map((c) => `${ms(c.lastBatchMs)}${c.lastBatch !== 1000 ? ` (${c.lastBatch} entities)` : ''}`).join(' / '),
    },
  );
  return { rows, data };
}
