// Test-side helpers for talking to the local Neotoma-shaped server (tests/server/neotoma-server.mjs)
// directly over HTTP: seeding, reading back the graph, comparing graph states.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { NeotomaAgent } from 'neotoma-agent-wasm';
import { startServer } from './neotoma-server.mjs';

export const SEED = {
  acme: { entity_type: 'company', name: 'Acme Corp' },
  falcon: { entity_type: 'project', name: 'Project Falcon' },
  sarah: { entity_type: 'person', name: 'Sarah Chen' },
};

/** Entities whose names are no substring of one another, so a lookup of
 *  one finds exactly that one: for tests that count lookups and edges per name. */
export const DISTINCT_ENTITIES = [
  { entity_type: 'person', name: 'Sarah Chen' },
  { entity_type: 'person', name: 'Orrin Vale' },
  { entity_type: 'person', name: 'Mirela Stanescu' },
  { entity_type: 'person', name: 'Tobias Reinholt' },
  { entity_type: 'company', name: 'Acme Corp' },
  { entity_type: 'company', name: 'Halcyon Labs' },
  { entity_type: 'company', name: 'Brightwater Dynamics' },
  { entity_type: 'company', name: 'Quillfeather Press' },
  { entity_type: 'project', name: 'Project Falcon' },
  { entity_type: 'project', name: 'Project Lodestar' },
];

export function randomToken() {
  return `tok-${randomBytes(16).toString('hex')}`;
}

export function randomId(prefix = 'c') {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}

/** Start a server on a random port with a random token. */
export async function startTestServer(options = {}) {
  return startServer({ port: 0, token: randomToken(), ...options });
}

/** One raw HTTP call to the server, with the server's token unless `token` is given (null = none). */
/**
 * An agent over HTTP to `server` with its token and a 5 s timeout; `transport` fields override
 * those, the other options go to the agent as they are.
 */
export function httpAgent(server, conversationId, { transport = {}, ...options } = {}) {
  return new NeotomaAgent({
    conversationId,
    transport: { baseUrl: server.url, token: server.token, timeoutMs: 5000, ...transport },
    ...options,
  });
}

export async function call(server, method, path, body, { token = server.token, headers = {} } = {}) {
  const h = { ...headers };
  if (token !== null) h.authorization = `Bearer ${token}`;
  let payload;
  if (body !== undefined) {
    h['content-type'] ??= 'application/json';
    payload = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const res = await fetch(server.url + path, { method, headers: h, body: payload });
  const text = await res.text();
  const ctype = res.headers.get('content-type') ?? '';
  let parsed = text;
  if (ctype.includes('application/json')) parsed = JSON.parse(text);
  return { status: res.status, body: parsed, headers: res.headers };
}

async function ok(server, method, path, body) {
  const r = await call(server, method, path, body);
  if (r.status !== 200) {
    throw new Error(`${method} ${path} -> ${r.status}: ${typeof r.body === 'string' ? r.body : JSON.stringify(r.body)}`);
  }
  return r.body;
}

/** Store entities through the server (not counted against anything the agent does: reset counts after). */
export async function seed(server, entities, idempotencyKey = randomId('seed')) {
  const body = await ok(server, 'POST', '/store', { entities, idempotency_key: idempotencyKey });
  return body.entities.map((e) => e.entity_id);
}

/** Seed Acme Corp, Project Falcon and Sarah Chen; returns `{ acme, falcon, sarah }` entity ids. */
export async function seedStandard(server) {
  const [acme] = await seed(server, [SEED.acme], 'seed-acme');
  const [falcon] = await seed(server, [SEED.falcon], 'seed-falcon');
  const [sarah] = await seed(server, [SEED.sarah], 'seed-sarah');
  return { acme, falcon, sarah };
}

export function turnIndex(server, conversationId) {
  return ok(server, 'GET', `/conversations/${encodeURIComponent(conversationId)}/turn-index`);
}

export function related(server, entityId, direction, relationshipTypes) {
  const body = { entity_id: entityId, direction };
  if (relationshipTypes) body.relationship_types = relationshipTypes;
  return ok(server, 'POST', '/retrieve_related_entities', body);
}

export function entitySnapshot(server, entityId) {
  return ok(server, 'POST', '/get_entity_snapshot', { entity_id: entityId });
}

export function retrieve(server, body) {
  return ok(server, 'POST', '/retrieve_entity_by_identifier', body);
}

/** The REFERS_TO targets of an entity (outbound), sorted. */
export async function refersTo(server, entityId) {
  const r = await related(server, entityId, 'outbound', ['REFERS_TO']);
  return r.relationships
    .filter((x) => x.relationship_type === 'REFERS_TO' && x.source_entity_id === entityId)
    .map((x) => x.target_entity_id)
    .sort();
}

/**
 * A comparable picture of everything a conversation wrote: the turn-index rows, every edge touching
 * the conversation, its messages and the given extra entities, the message snapshots, and every
 * entity whose name contains the conversation id. Equal before and after = nothing was written.
 */
export async function graphState(server, conversationId, extraEntityIds = []) {
  const index = await turnIndex(server, conversationId).catch(() => null);
  const found = await retrieve(server, { identifier: conversationId, limit: 1000 });
  const ids = new Set(extraEntityIds);
  if (index && index.conversation_entity_id) ids.add(index.conversation_entity_id);
  for (const row of index?.turns ?? []) ids.add(row.message_entity_id);
  for (const e of found.entities ?? []) ids.add(e.id);
  const edges = new Set();
  const snapshots = {};
  for (const id of [...ids].sort()) {
    const r = await related(server, id, 'both');
    for (const rel of r.relationships ?? []) {
      edges.add(`${rel.relationship_type}:${rel.source_entity_id}:${rel.target_entity_id}`);
    }
    const snap = await call(server, 'POST', '/get_entity_snapshot', { entity_id: id });
    snapshots[id] = snap.status === 200 ? snap.body.snapshot : snap.status;
  }
  return {
    turns: index?.turns ?? null,
    entityIds: [...ids].sort(),
    matchingEntities: (found.entities ?? []).map((e) => e.id).sort(),
    edges: [...edges].sort(),
    snapshots,
  };
}

/** Messages of a conversation by role and turn number, from the turn-index. */
export function rowsByKey(index) {
  const out = {};
  for (const row of index.turns) out[row.turn_key] = row;
  return out;
}

/** `{ '/store': n, ... }` without zero entries, for deepEqual. */
export function nonZero(counts) {
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * An outbox storage (`{ get, put, delete }`, async like Workers KV) over a Map that keeps every
 * value it is given in `puts`, so a test can look at what was ever stored (e.g. for a token).
 */
export function recordingStorage() {
  const map = new Map();
  const puts = [];
  return {
    map,
    puts,
    async get(key) {
      return map.has(key) ? map.get(key) : null;
    },
    async put(key, value) {
      puts.push({ key, value });
      map.set(key, value);
    },
    async delete(key) {
      map.delete(key);
    },
  };
}

/** The error `promise` rejects with (the test fails if it resolves). */
export async function rejectionOf(promise) {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  assert.fail('expected a rejection, got a result');
}
