// createNeotomaProxy: a same-origin proxy in front of a real Neotoma for browser chat widgets.
//
// Neotoma refuses cross-origin writes and a page must never hold the bearer token, so the widget's
// agent uses `transport: { baseUrl: "/neotoma" }` (no token) and this handler, served at that path
// on the page's own origin, forwards the four calls the turn protocol makes, adding the token.
// Plain JS with web-standard Request/Response/fetch only: a Worker, Deno or Node that just proxies
// loads no wasm.
//
//   Workers / Deno:  export default { fetch: createNeotomaProxy({ upstream, token, basePath: "/neotoma" }) };
//   Node 18+:        http.createServer(toNodeHandler(createNeotomaProxy({ ... }))).listen(8080);
//
// What it refuses (JSON `{ error: { code, message } }`; the token is never in a response, header,
// error or log line — this module logs nothing):
//   404 NOT_FOUND            any path but {basePath}/retrieve_entity_by_identifier, /store, /create_relationships,
//                            /retrieve_related_entities
//   405 METHOD_NOT_ALLOWED   anything but POST (and OPTIONS, the CORS preflight) on those paths
//   403 ORIGIN_NOT_ALLOWED   a cross-origin request whose Origin is not in `allowedOrigins`
//   415 UNSUPPORTED_MEDIA_TYPE  a body that is not declared application/json
//   413 BODY_TOO_LARGE       a body over `maxBodyBytes` (declared or counted while reading; the rest is not read)
//   400 INVALID_JSON         a body that is not a UTF-8 JSON object
//   400 INVALID_BODY         a /retrieve_related_entities body not of the agent's shape (checked always)
//   403 CONVERSATION_FORBIDDEN  with `conversationPrefix`: a write outside that namespace, or of an
//                               entity type neither the protocol's nor in `entityTypes`; edges read
//                               from anything but a conversation or message of that namespace
//                               (and lookups and edge reads answer only that namespace's messages
//                               and conversations)
//   502 NEOTOMA_NETWORK / 504 NEOTOMA_TIMEOUT  Neotoma could not be reached / did not answer in time

import { invalidInput, isObject } from './errors.mjs';

/** A 1 MiB message (the agent's default maxMessageBytes) whose every character JSON-escapes to
 *  two bytes (quotes, backslashes, newlines), plus room for the rest of the /store body. */
export const DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024 + 64 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;

/** The calls the turn protocol makes (src/transport/http.rs), all POST with a JSON body. */
const ENDPOINTS = ['/retrieve_entity_by_identifier', '/store', '/create_relationships', '/retrieve_related_entities'];
const OPTION_NAMES = ['upstream', 'token', 'allowedOrigins', 'conversationPrefix', 'entityTypes', 'basePath', 'maxBodyBytes', 'timeoutMs', 'allowInsecureHttp'];
/** The turn protocol's own entity types: stored only inside `conversationPrefix`, never through `entityTypes`. */
const PROTOCOL_TYPES = ['conversation', 'conversation_message'];
/** What a reply may produce and `remember()` may store next to the conversations (`entityTypes`). */
export const DEFAULT_ENTITY_TYPES = Object.freeze(['person', 'company', 'project', 'task', 'event', 'note', 'location', 'contact']);
/** Upstream headers worth passing on; everything else (cookies, server banners) stays behind. */
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'retry-after'];
/** A /create_relationships body is checked by looking up each distinct source; bound the lookups. */
const MAX_CHECKED_SOURCES = 8;
const JSON_TYPE = 'application/json; charset=utf-8';

/** Checks the options once, at creation; messages never repeat the token. */
function readOptions(options) {
  if (!isObject(options)) throw invalidInput('createNeotomaProxy: options must be an object');
  const unknown = Object.keys(options).filter((k) => !OPTION_NAMES.includes(k));
  if (unknown.length > 0) {
    // A typo (`conversationPrefx`) would silently switch a protection off.
    throw invalidInput(`createNeotomaProxy: unknown option ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
  }
  const {
    upstream, token, allowedOrigins, conversationPrefix, entityTypes, basePath = '',
    maxBodyBytes = DEFAULT_MAX_BODY_BYTES, timeoutMs = DEFAULT_TIMEOUT_MS, allowInsecureHttp = false,
  } = options;

  let upstreamUrl = null;
  try {
    if (typeof upstream === 'string' || upstream instanceof URL) upstreamUrl = new URL(upstream);
  } catch {}
  if (upstreamUrl === null) throw invalidInput('createNeotomaProxy: upstream must be an absolute http(s) URL');
  if (upstreamUrl.protocol !== 'http:' && upstreamUrl.protocol !== 'https:') {
    throw invalidInput('createNeotomaProxy: upstream must be an http: or https: URL');
  }
  if (typeof allowInsecureHttp !== 'boolean') throw invalidInput('createNeotomaProxy: allowInsecureHttp must be a boolean');
  // The token travels to upstream on every call: plain http only to this machine, as for the agent.
  if (upstreamUrl.protocol === 'http:' && !allowInsecureHttp && !isLoopbackHost(upstreamUrl.hostname)) {
    throw invalidInput(
      'createNeotomaProxy: upstream uses plain http to a host that is not this machine (the token would travel unencrypted); use https or set allowInsecureHttp: true',
    );
  }
  if (upstreamUrl.username || upstreamUrl.password) {
    throw invalidInput('createNeotomaProxy: upstream must not contain credentials; pass the token option');
  }
  if (upstreamUrl.search || upstreamUrl.hash) {
    throw invalidInput('createNeotomaProxy: upstream must not have a query or fragment');
  }

  if (typeof token !== 'string' || token.length === 0 || !/^[\x20-\x7e]+$/.test(token) || token.trim() !== token) {
    throw invalidInput('createNeotomaProxy: token must be a non-empty string of printable ASCII characters without surrounding spaces');
  }

  let origins = null;
  if (allowedOrigins !== undefined) {
    if (!Array.isArray(allowedOrigins)) throw invalidInput('createNeotomaProxy: allowedOrigins must be an array of origins');
    origins = new Set();
    for (const origin of allowedOrigins) {
      let parsed = null;
      try {
        parsed = typeof origin === 'string' ? new URL(origin).origin : null;
      } catch {}
      // An origin is scheme://host[:port] exactly as a browser sends it: no path, no trailing slash.
      if (parsed === null || parsed === 'null' || parsed !== origin) {
        throw invalidInput(`createNeotomaProxy: allowedOrigins: ${JSON.stringify(String(origin))} is not an origin like "https://example.com"`);
      }
      origins.add(origin);
    }
  }

  if (conversationPrefix !== undefined) {
    // A ':' would make turn keys ({conversationId}:{turnId}) ambiguous about where the id ends.
    if (typeof conversationPrefix !== 'string' || conversationPrefix.length === 0 || conversationPrefix.includes(':')) {
      throw invalidInput('createNeotomaProxy: conversationPrefix must be a non-empty string without ":"');
    }
  }

  let types = null;
  if (entityTypes !== undefined) {
    // The types are checked only with a namespace (without one no /store body is checked): alone
    // the option would look like a protection and be none.
    if (conversationPrefix === undefined) {
      throw invalidInput('createNeotomaProxy: entityTypes needs conversationPrefix (without it /store bodies are not checked)');
    }
    if (!Array.isArray(entityTypes)) {
      throw invalidInput('createNeotomaProxy: entityTypes must be an array of entity type names like "person"');
    }
    for (const type of entityTypes) {
      if (typeof type !== 'string' || !/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/.test(type)) {
        throw invalidInput(`createNeotomaProxy: entityTypes: ${JSON.stringify(String(type))} is not a snake_case entity type like "person"`);
      }
      if (PROTOCOL_TYPES.includes(type)) {
        throw invalidInput(`createNeotomaProxy: entityTypes: "${type}" is the turn protocol's own type (always allowed inside conversationPrefix, never outside)`);
      }
    }
  }
  if (conversationPrefix !== undefined) types = new Set(entityTypes ?? DEFAULT_ENTITY_TYPES);

  if (typeof basePath !== 'string' || !(basePath === '' || /^\/[^?#]*$/.test(basePath))) {
    throw invalidInput('createNeotomaProxy: basePath must be "" or a path starting with "/", e.g. "/neotoma"');
  }
  for (const [name, value] of [['maxBodyBytes', maxBodyBytes], ['timeoutMs', timeoutMs]]) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw invalidInput(`createNeotomaProxy: ${name} must be a positive integer`);
    }
  }

  return {
    upstream: upstreamUrl.href.replace(/\/+$/, ''),
    token,
    origins,
    conversationPrefix: conversationPrefix ?? null,
    entityTypes: types,
    basePath: basePath.replace(/\/+$/, ''),
    maxBodyBytes,
    timeoutMs,
  };
}

/**
 * Creates the proxy: `(request: Request) => Promise<Response>`, usable as a Workers/Deno `fetch`
 * handler and, through `toNodeHandler`, from node:http. Throws a NeotomaError (`code`
 * "INVALID_INPUT") on bad options.
 */
export function createNeotomaProxy(options) {
  const config = readOptions(options);
  const routes = new Map(ENDPOINTS.map((endpoint) => [config.basePath + endpoint, endpoint]));

  return async function neotomaProxy(request) {
    const url = new URL(request.url);
    const origin = request.headers.get('origin');
    const headers = new Headers({ vary: 'Origin', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });

    // Same-origin requests carry no Origin or their own; others need to be listed.
    if (origin !== null && origin !== url.origin) {
      if (!config.origins?.has(origin)) {
        return refusal(403, 'ORIGIN_NOT_ALLOWED', 'this origin may not call the Neotoma proxy', headers);
      }
      headers.set('access-control-allow-origin', origin);
      // The agent's retries read Retry-After (429/503), which CORS hides unless exposed.
      headers.set('access-control-expose-headers', 'retry-after');
    }

    const endpoint = routes.get(url.pathname);
    if (endpoint === undefined) return refusal(404, 'NOT_FOUND', `no such endpoint: ${url.pathname}`, headers);
    if (request.method === 'OPTIONS') {
      headers.set('access-control-allow-methods', 'POST');
      // Only content-type: the page sends no token (a widget configured with one fails its
      // preflight, loudly, instead of leaking it into the page).
      headers.set('access-control-allow-headers', 'content-type');
      headers.set('access-control-max-age', '600');
      headers.set('allow', 'POST, OPTIONS');
      return new Response(null, { status: 204, headers });
    }
    if (request.method !== 'POST') {
      headers.set('allow', 'POST, OPTIONS');
      return refusal(405, 'METHOD_NOT_ALLOWED', `${endpoint} takes POST`, headers);
    }
    // Requiring JSON also means a cross-origin browser request always needs a preflight.
    if (!/^application\/json\s*(;|$)/i.test(request.headers.get('content-type') ?? '')) {
      return refusal(415, 'UNSUPPORTED_MEDIA_TYPE', 'the body must be application/json', headers);
    }

    const read = await readBoundedText(request, config.maxBodyBytes);
    if (read.tooLarge) {
      return refusal(413, 'BODY_TOO_LARGE', `the body is larger than ${config.maxBodyBytes} bytes`, headers);
    }
    let body = null;
    try {
      body = read.text === null ? null : JSON.parse(read.text);
    } catch {}
    if (!isObject(body)) return refusal(400, 'INVALID_JSON', 'the body must be a UTF-8 JSON object', headers);
    if (endpoint === '/retrieve_related_entities') {
      // A read with no namespace of its own in the body: its shape is checked with or without
      // conversationPrefix (the agent sends exactly these fields; nothing else reaches Neotoma).
      const invalid = invalidRelatedBody(body);
      if (invalid !== null) return refusal(400, 'INVALID_BODY', invalid, headers);
    }

    try {
      if (config.conversationPrefix !== null) {
        const outside =
          endpoint === '/store'
            ? storeOutsideNamespace(body, config.conversationPrefix, config.entityTypes)
            : endpoint === '/create_relationships'
              ? await relationshipsOutsideNamespace(body, config)
              : endpoint === '/retrieve_related_entities'
                ? await relatedOutsideNamespace(body, config)
                : null; // a lookup carries no conversation id and writes nothing
        if (outside !== null) return refusal(403, 'CONVERSATION_FORBIDDEN', outside, headers);
      }
      const answer = await callNeotoma(config, endpoint, read.text);
      if (config.conversationPrefix !== null && answer.ok) {
        if (endpoint === '/retrieve_entity_by_identifier') return await relayLookupInNamespace(answer, config, headers);
        if (endpoint === '/retrieve_related_entities') return await relayRelatedInNamespace(answer, config, headers);
      }
      return await relay(answer, config.token, headers);
    } catch (error) {
      return upstreamFailure(error, endpoint, headers);
    }
  };
}

function refusal(status, code, message, headers) {
  headers.set('content-type', JSON_TYPE);
  return new Response(JSON.stringify({ error: { code, message } }), { status, headers });
}

/** The body as text, or `{ tooLarge }` as soon as it exceeds `max` bytes (declared or read). */
async function readBoundedText(request, max) {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > max) {
    request.body?.cancel().catch(() => {});
    return { tooLarge: true };
  }
  if (request.body === null) return { tooLarge: false, text: '' };
  const reader = request.body.getReader();
  const chunks = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        reader.cancel().catch(() => {});
        return { tooLarge: true };
      }
      chunks.push(value);
    }
  } catch {
    return { tooLarge: false, text: null }; // the client went away mid-body
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  try {
    return { tooLarge: false, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { tooLarge: false, text: null };
  }
}

/** POST to Neotoma with the token. `globalThis.fetch(...)`: Workers need `this === globalThis`. */
async function callNeotoma(config, endpoint, text) {
  const answer = await globalThis.fetch(config.upstream + endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${config.token}` },
    body: text,
    // A redirect would resend the token to wherever it points: refuse to follow.
    redirect: 'manual',
    signal: AbortSignal.timeout(config.timeoutMs),
  });
  if (answer.type === 'opaqueredirect' || (answer.status >= 300 && answer.status < 400)) {
    answer.body?.cancel().catch(() => {});
    throw new UpstreamError('NEOTOMA_NETWORK', 'Neotoma answered with a redirect; set upstream to the final URL');
  }
  return answer;
}

/** Neotoma's status and body, with its content type. Error bodies are read and scrubbed of the
 *  token (a misconfigured gateway may echo request headers); success bodies stream through. */
async function relay(answer, token, headers) {
  forwardHeaders(answer, token, headers);
  if (answer.ok) return new Response(answer.body, { status: answer.status, headers });
  const text = redact(await answer.text(), token);
  return new Response(text, { status: answer.status, headers });
}

/** A lookup's answer without other conversations' messages and conversations: the search
 *  matches by substring across everything, and a public page must read only its namespace.
 *  Other entities (people, companies, …) are shared knowledge and pass. */
function relayLookupInNamespace(answer, config, headers) {
  return relayFiltered(answer, config, headers, (body) => {
    if (!Array.isArray(body.entities)) return;
    const before = body.entities.length;
    body.entities = body.entities.filter((e) => inNamespace(e, config.conversationPrefix));
    if (typeof body.total === 'number') body.total -= before - body.entities.length;
  });
}

/** An edge read's answer without other conversations' messages and conversations, and without
 *  the edges that lead to them: the asked entity is of the namespace, but another conversation's
 *  message may cite it (REFERS_TO takes any id) or, stored around the proxy, claim to be PART_OF
 *  it. An edge whose other end is not among the answer's entities (a dangling target) keeps its
 *  bare id: every read through the proxy checks an id against the namespace before answering for it. */
function relayRelatedInNamespace(answer, config, headers) {
  return relayFiltered(answer, config, headers, (body) => {
    if (!Array.isArray(body.entities)) return;
    const dropped = new Set();
    body.entities = body.entities.filter((e) => {
      if (inNamespace(e, config.conversationPrefix)) return true;
      if (typeof e?.id === 'string') dropped.add(e.id);
      if (typeof e?.entity_id === 'string') dropped.add(e.entity_id);
      return false;
    });
    if (Array.isArray(body.relationships)) {
      body.relationships = body.relationships.filter(
        (r) => !dropped.has(r?.source_entity_id) && !dropped.has(r?.target_entity_id),
      );
    }
  });
}

/** A 2xx answer read, parsed and changed by `filter(body)` (a JSON object) before it is relayed;
 *  an answer that is not JSON goes on as it came. */
async function relayFiltered(answer, config, headers, filter) {
  const text = await answer.text();
  forwardHeaders(answer, config.token, headers);
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, { status: answer.status, headers }); // not an answer of this call: as it came
  }
  if (isObject(body)) filter(body);
  headers.set('content-type', JSON_TYPE);
  return new Response(JSON.stringify(body), { status: answer.status, headers });
}

function inNamespace(entity, prefix) {
  const type = entity?.entity_type;
  if (type !== 'conversation_message' && type !== 'conversation') return true;
  // `conversation:{id}` / `conversation_message:{turn_key}`; else the snapshot's own field (flat
  // in field matches, nested under `snapshot` in direct matches)
  const name = typeof entity.canonical_name === 'string' ? entity.canonical_name : '';
  if (name.startsWith(`${type}:`)) return name.slice(type.length + 1).startsWith(prefix);
  const snapshot = isObject(entity.snapshot?.snapshot) ? entity.snapshot.snapshot : isObject(entity.snapshot) ? entity.snapshot : {};
  const id = type === 'conversation' ? snapshot.conversation_id : snapshot.turn_key;
  return typeof id === 'string' && id.startsWith(prefix);
}

/** The few upstream headers a client may see (content type, retry-after), scrubbed of the token. */
function forwardHeaders(answer, token, headers) {
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const value = answer.headers.get(name);
    if (value !== null) headers.set(name, redact(value, token));
  }
}

function redact(text, token) {
  const escaped = JSON.stringify(token).slice(1, -1);
  return text.split(token).join('[redacted]').split(escaped).join('[redacted]');
}

class UpstreamError extends Error {
  /** `answer`: Neotoma's own answer to a check, when it had one (its status and Retry-After). */
  constructor(code, message, answer) {
    super(message);
    this.code = code;
    this.status = answer?.status;
    this.retryAfter = answer?.headers?.get('retry-after') ?? null;
  }
}

/** A check's failure Neotoma says will pass (its write limit, a restart): passed on as it is, so
 *  the agent waits Retry-After and tries again, instead of a 502 it cannot tell from an outage. */
const PASSED_ON_STATUSES = [429, 503];

/** localhost, *.localhost, 127.0.0.0/8, [::1] (WHATWG-parsed hostnames). */
function isLoopbackHost(hostname) {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** 502/504 without the upstream's own message (which may name the URL). */
function upstreamFailure(error, endpoint, headers) {
  if (error instanceof UpstreamError) {
    if (PASSED_ON_STATUSES.includes(error.status)) {
      if (error.retryAfter !== null) headers.set('retry-after', error.retryAfter);
      return refusal(error.status, error.code, `${endpoint}: ${error.message}`, headers);
    }
    return refusal(502, error.code, `${endpoint}: ${error.message}`, headers);
  }
  if (error?.name === 'TimeoutError') {
    return refusal(504, 'NEOTOMA_TIMEOUT', `${endpoint}: Neotoma did not answer in time`, headers);
  }
  const cause = typeof error?.cause?.code === 'string' && /^[A-Z_]+$/.test(error.cause.code) ? ` (${error.cause.code})` : '';
  return refusal(502, 'NEOTOMA_NETWORK', `${endpoint}: Neotoma could not be reached${cause}`, headers);
}

// --- conversationPrefix: what a widget may write ------------------------------------------------

const STORE_FIELDS = ['entities', 'relationships', 'idempotency_key'];
/** Edges one produced entity may start to another of the same body. CORRECTS, SUPERSEDES and
 *  DUPLICATE_OF are left out: they declare one entity a replacement of another (a shared one). */
const PRODUCED_EDGE_TYPES = ['REFERS_TO', 'PART_OF', 'DEPENDS_ON', 'EMBEDS', 'SETTLES'];
/** Fields that name a conversation or a turn: on any entity, only inside the namespace. */
const NAMESPACED_FIELDS = ['conversation_id', 'turn_key'];

/**
 * A /store body as the agent builds it (src/protocol/payload.rs), in one of two shapes:
 *  - a turn, under `conversation-{prefix}…`: a `conversation` and its `conversation_message`s, all
 *    inside the namespace, and the entities the reply produced (types in `entityTypes`);
 *  - `remember()`, under `remember-{prefix}…` (the agent's `remember-{conversationId}-{hash}`):
 *    entities of `entityTypes` alone, no conversation or message.
 * Any other type is refused (`agent_grant`, `standing_rule`… would let a page grant access or
 * instruct agents). A produced entity resolves like any other: `{entity_type: "company", name:
 * "Acme Corp", …}` adds an observation to the shared Acme Corp, by design.
 * Edges start at an entity of this body, never at an existing one: from a message, PART_OF to the
 * conversation of this body and REFERS_TO to any entity of this body or any id (what retrieval
 * found); from a produced entity, one of PRODUCED_EDGE_TYPES to another produced entity of this
 * body, by index. Returns why the body is refused, or null.
 */
function storeOutsideNamespace(body, prefix, entityTypes) {
  const inside = (v) => typeof v === 'string' && v.startsWith(prefix);
  const extra = Object.keys(body).find((k) => !STORE_FIELDS.includes(k));
  if (extra !== undefined) return `/store: unexpected field ${JSON.stringify(extra)}`;
  const { entities, relationships = [], idempotency_key: key } = body;
  if (!Array.isArray(entities) || entities.length === 0) return '/store: entities must be a non-empty array';
  let protocolEntities = 0;
  for (const [i, entity] of entities.entries()) {
    if (!isObject(entity)) return `/store: entities[${i}] must be an object`;
    const type = entity.entity_type;
    if (type === 'conversation') {
      if (!inside(entity.conversation_id)) return `/store: entities[${i}].conversation_id must start with "${prefix}"`;
      protocolEntities += 1;
    } else if (type === 'conversation_message') {
      if (!inside(entity.turn_key)) return `/store: entities[${i}].turn_key must start with "${prefix}"`;
      protocolEntities += 1;
    } else if (typeof type !== 'string' || !entityTypes.has(type)) {
      const allowed = ['conversation', 'conversation_message', ...entityTypes].join(', ');
      const what = type === undefined ? 'has no entity_type' : `has entity_type ${JSON.stringify(type)}`;
      return `/store: entities[${i}] ${what}; only ${allowed} may be stored`;
    }
    // No entity names another namespace's conversation or turn, not even in a field its type
    // does not declare (a lookup by field would find it).
    const foreign = NAMESPACED_FIELDS.find((f) => f in entity && !inside(entity[f]));
    if (foreign !== undefined) return `/store: entities[${i}].${foreign} must start with "${prefix}"`;
  }
  // Keys are global per Neotoma user: taking another conversation's key first would make its own
  // write fail later (ERR_IDEMPOTENCY_MISMATCH).
  if (typeof key !== 'string') return `/store: idempotency_key must be a string`;
  if (key.startsWith(`remember-${prefix}`)) {
    if (protocolEntities > 0) return '/store: a remember- body stores entities alone, no conversation or conversation_message';
  } else if (!key.startsWith(`conversation-${prefix}`)) {
    return `/store: idempotency_key must start with "conversation-${prefix}" (or "remember-${prefix}" for entities alone)`;
  }
  if (!Array.isArray(relationships)) return '/store: relationships must be an array';
  const typeAt = (index) => (Number.isInteger(index) ? entities[index]?.entity_type : undefined);
  const isProduced = (type) => type !== undefined && !PROTOCOL_TYPES.includes(type);
  for (const [i, rel] of relationships.entries()) {
    const where = `/store: relationships[${i}]`;
    if (!isObject(rel)) return `${where} must be an object`;
    // Edges start at an entity of this body, never at an existing one…
    const source = 'source_entity_id' in rel ? undefined : typeAt(rel.source_index);
    if (source === undefined || source === 'conversation') {
      return `${where} must start at a conversation_message or a produced entity of this body (source_index)`;
    }
    // …and name each end once (which of two the upstream would pick is not the proxy's guess).
    if ('target_index' in rel && 'target_entity_id' in rel) return `${where}: give target_index or target_entity_id, not both`;
    const type = rel.relationship_type;
    if (source === 'conversation_message') {
      if (type === 'PART_OF') {
        // A message joins the conversation of this body, never another one.
        if (typeAt(rel.target_index) !== 'conversation') {
          return `${where}: PART_OF must point at the conversation of this body (target_index)`;
        }
      } else if (type === 'REFERS_TO') {
        // A message may cite any entity (what retrieval found, what the reply produced).
        const byIndex = 'target_index' in rel;
        if (byIndex ? typeAt(rel.target_index) === undefined : typeof rel.target_entity_id !== 'string') {
          return `${where}: REFERS_TO needs a target_index of this body or a target_entity_id`;
        }
      } else {
        return `${where}: a message's edges are PART_OF and REFERS_TO only`;
      }
    } else {
      // A produced entity links only to another produced entity of this body.
      if (!PRODUCED_EDGE_TYPES.includes(type)) {
        return `${where}: a produced entity's edges are ${PRODUCED_EDGE_TYPES.join(', ')} only`;
      }
      if (!isProduced(typeAt(rel.target_index)) || rel.target_index === rel.source_index) {
        return `${where}: an edge from a produced entity must point at another produced entity of this body (target_index)`;
      }
    }
  }
  return null;
}

/**
 * A /create_relationships body as the agent sends it after a replayed store: REFERS_TO edges from
 * an already-stored message. The source ids carry no conversation id, so each distinct source is
 * looked up (POST /get_entity_snapshot, with the token) and must be a conversation_message whose
 * turn_key is inside the namespace. Returns why the body is refused, or null.
 */
async function relationshipsOutsideNamespace(body, config) {
  const prefix = config.conversationPrefix;
  const extra = Object.keys(body).find((k) => k !== 'relationships');
  if (extra !== undefined) return `/create_relationships: unexpected field ${JSON.stringify(extra)}`;
  const { relationships } = body;
  if (!Array.isArray(relationships) || relationships.length === 0) {
    return '/create_relationships: relationships must be a non-empty array';
  }
  const sources = new Set();
  for (const [i, rel] of relationships.entries()) {
    if (
      !isObject(rel) ||
      rel.relationship_type !== 'REFERS_TO' ||
      typeof rel.source_entity_id !== 'string' ||
      typeof rel.target_entity_id !== 'string' ||
      'source_index' in rel ||
      'target_index' in rel
    ) {
      return `/create_relationships: relationships[${i}] must be a REFERS_TO edge with source_entity_id and target_entity_id`;
    }
    sources.add(rel.source_entity_id);
  }
  if (sources.size > MAX_CHECKED_SOURCES) {
    return `/create_relationships: at most ${MAX_CHECKED_SOURCES} distinct source entities per call`;
  }
  for (const source of sources) {
    const record = await snapshotOf(config, source, 'source');
    if (record === null) return `/create_relationships: source ${source} does not exist`;
    if (namespacedName(record, ['conversation_message'])?.startsWith(prefix) !== true) {
      return `/create_relationships: source ${source} is not a message of a conversation starting with "${prefix}"`;
    }
  }
  return null;
}

/**
 * An entity the proxy must check before it forwards a call (POST /get_entity_snapshot, with the
 * token): its snapshot record, or null when Neotoma has no such entity. A failed check throws
 * (Neotoma's 429/503 are passed on as they are).
 */
async function snapshotOf(config, id, what) {
  const answer = await callNeotoma(config, '/get_entity_snapshot', JSON.stringify({ entity_id: id }));
  if (answer.status === 404) {
    await answer.body?.cancel();
    return null;
  }
  if (!answer.ok) {
    await answer.body?.cancel();
    throw new UpstreamError('NEOTOMA_HTTP', `checking ${what} ${id} failed: Neotoma answered ${answer.status}`, answer);
  }
  return (await answer.json().catch(() => null)) ?? {};
}

/** The name a protocol entity of one of `types` is namespaced by: a conversation's
 *  conversation_id, a message's turn_key; undefined for anything else. */
function namespacedName(record, types) {
  const type = record?.entity_type;
  if (!types.includes(type)) return undefined;
  const name = type === 'conversation' ? record.snapshot?.conversation_id : record.snapshot?.turn_key;
  return typeof name === 'string' ? name : undefined;
}

// --- /retrieve_related_entities: the agent reading a turn's edges back -------------------------

const RELATED_FIELDS = ['entity_id', 'direction', 'relationship_types'];
const RELATED_DIRECTIONS = ['inbound', 'outbound', 'both'];

/** The body `verifyTurn()`/`repairTurn()` send: `{ entity_id, direction?, relationship_types? }`
 *  and nothing else. Returns why it is refused, or null. */
function invalidRelatedBody(body) {
  const extra = Object.keys(body).find((k) => !RELATED_FIELDS.includes(k));
  if (extra !== undefined) return `/retrieve_related_entities: unexpected field ${JSON.stringify(extra)}`;
  if (typeof body.entity_id !== 'string' || body.entity_id.length === 0) {
    return '/retrieve_related_entities: entity_id must be a non-empty string';
  }
  if ('direction' in body && !RELATED_DIRECTIONS.includes(body.direction)) {
    return `/retrieve_related_entities: direction must be one of ${RELATED_DIRECTIONS.map((d) => `"${d}"`).join(', ')}`;
  }
  if ('relationship_types' in body && (!Array.isArray(body.relationship_types) || !body.relationship_types.every((t) => typeof t === 'string'))) {
    return '/retrieve_related_entities: relationship_types must be an array of strings';
  }
  return null;
}

/**
 * The edges of a conversation or a message are read only for one of the namespace: the entity id
 * carries no conversation id, so it is looked up (POST /get_entity_snapshot, with the token) and
 * must be a `conversation` whose conversation_id, or a `conversation_message` whose turn_key, starts
 * with the prefix. Anything else (a shared entity, another namespace's message) is refused: its
 * edges would list the messages of every conversation citing it. Returns why, or null.
 */
async function relatedOutsideNamespace(body, config) {
  const prefix = config.conversationPrefix;
  const id = body.entity_id;
  const record = await snapshotOf(config, id, 'entity');
  if (record === null) return `/retrieve_related_entities: entity ${id} does not exist`;
  if (namespacedName(record, ['conversation', 'conversation_message'])?.startsWith(prefix) !== true) {
    return `/retrieve_related_entities: entity ${id} is not a conversation or a message of a conversation starting with "${prefix}"`;
  }
  return null;
}

// --- node:http ----------------------------------------------------------------------------------

/** After answering early (413, 403…), read at most this much of an unread body before closing. */
const LINGER_BYTES = 1024 * 1024;

/**
 * Adapts a `(Request) => Promise<Response>` handler to node:http's `(req, res)`:
 * `http.createServer(toNodeHandler(proxy))`, or `app.use("/neotoma", …)`-style mounting when the
 * framework leaves `req.url` whole and the body unread (mount it before any body parser). The URL
 * is built from the Host header (http:, or https: on a TLS socket); behind a TLS-terminating
 * reverse proxy list the public origin in `allowedOrigins`.
 */
export function toNodeHandler(handler) {
  return function nodeHandler(req, res) {
    serveNode(handler, req, res).catch(() => {
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader('connection', 'close');
        res.end();
      } else {
        res.destroy();
      }
    });
  };
}

async function serveNode(handler, req, res) {
  const requestBody = nodeBodyStream(req);
  let request;
  try {
    if (!req.url?.startsWith('/') || !req.headers.host) throw new Error('not an origin-form request with a Host');
    const scheme = req.socket?.encrypted ? 'https' : 'http';
    const url = new URL(req.url, `${scheme}://${req.headers.host}`);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (name.startsWith(':') || value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    request = new Request(url, {
      method: req.method,
      headers,
      body: hasBody ? requestBody.stream : undefined,
      duplex: 'half',
    });
  } catch {
    requestBody.discard();
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
    res.end('bad request');
    return;
  }

  const response = await handler(request);
  // A body the handler left unread is dropped; if the client is still sending it, the connection
  // closes after this response instead of reading on for the next request.
  const stillArriving = !req.complete;
  if (!requestBody.ended()) requestBody.discard();
  const headers = {};
  for (const [name, value] of response.headers) headers[name] = value;
  if (stillArriving) headers.connection = 'close';
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  let clientGone = false;
  let wake = null; // resolves a wait for 'drain' (or for the client going away)
  res.on('close', () => {
    clientGone = true;
    wake?.();
  });
  res.on('drain', () => wake?.());
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || clientGone) break;
      if (!res.write(value) && !clientGone) await new Promise((resolve) => (wake = resolve));
      wake = null;
    }
  } finally {
    if (clientGone) reader.cancel().catch(() => {});
    res.end();
  }
}

/** req as a pull-driven ReadableStream (read only when the handler reads), plus `discard()`:
 *  drop whatever the handler left unread, up to LINGER_BYTES, then close the connection. */
function nodeBodyStream(req) {
  let ended = false;
  let discarding = false;
  let discarded = 0;
  let listening = false;
  let controller;
  const listen = () => {
    if (listening) return;
    listening = true;
    req.on('data', (chunk) => {
      if (discarding) {
        discarded += chunk.length;
        if (discarded > LINGER_BYTES) req.destroy();
        return;
      }
      controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if (controller.desiredSize <= 0) req.pause();
    });
    req.on('end', () => {
      ended = true;
      if (!discarding) controller.close();
    });
    req.on('error', (error) => {
      if (!discarding) controller.error(error);
    });
  };
  const discard = () => {
    if (discarding || ended) return;
    discarding = true;
    listen();
    req.resume();
  };
  const stream = new ReadableStream(
    {
      start(c) {
        controller = c;
      },
      pull() {
        listen();
        req.resume();
      },
      cancel() {
        discard();
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, ended: () => ended, discard };
}
