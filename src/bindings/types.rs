//! TypeScript shapes of the duck-typed options and results (wasm-bindgen emits them into the
//! generated `.d.ts`).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Stable `code` of every error this package throws. */
export type NeotomaErrorCode =
  | "INVALID_INPUT"
  | "NEOTOMA_HTTP"
  | "NEOTOMA_NETWORK"
  | "NEOTOMA_TIMEOUT"
  | "IDEMPOTENCY_MISMATCH"
  | "NEOTOMA_INVALID_RESPONSE"
  | "LLM_TIMEOUT"
  | "OUTBOX_STORAGE"
  | "STORE_STORAGE";

/** Errors raised by the package (errors thrown by your callbacks come back unchanged). */
export interface NeotomaError extends Error {
  name: "NeotomaError";
  code: NeotomaErrorCode;
  /** HTTP status, when Neotoma (or the embedded store) answered. */
  status?: number;
  /** Parsed answer body (a string for HTML/text answers). */
  body?: unknown;
}

/** `fetch` to a Neotoma server, or a same-origin proxy (`baseUrl: "/neotoma"`). */
export interface HttpTransportOptions {
  baseUrl: string;
  /** Bearer token; never echoed in errors. Leave it out in browsers (use a proxy). */
  token?: string;
  /** Per-request timeout (default 30000). */
  timeoutMs?: number;
  /** Plain `http://` to a host that is not this machine is refused unless this is true. */
  allowInsecureHttp?: boolean;
}

/** Retries of a request that failed in a way another attempt may cure (no answer, timeout,
 *  429, 502/503/504, `retryable: true`): exponential backoff with full jitter, `Retry-After`
 *  honoured. Every attempt sends the same body and idempotency key. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 4). */
  maxAttempts?: number;
  /** Backoff ceiling before the 2nd attempt, doubling after (default 250). */
  initialDelayMs?: number;
  /** Cap on one backoff (default 4000). */
  maxDelayMs?: number;
  /** No attempt starts later than this after the first (default 15000). */
  maxElapsedMs?: number;
}

/** Durable string storage for the outbox: Workers KV, Durable Object storage, or your own. */
export interface OutboxStorage {
  get(key: string): Promise<string | null | undefined> | string | null | undefined;
  put(key: string, value: string): Promise<unknown> | unknown;
  delete(key: string): Promise<unknown> | unknown;
}

/** What a write in the outbox is: a message (`user`, `assistant`), entities stored by
 *  `remember()` (`remember`: no turn, `turnId` ""), or a stored message's missing REFERS_TO edges
 *  (`edges`: a `/create_relationships` body). */
export type WriteRole = "user" | "assistant" | "remember" | "edges";

/** A write waiting in the outbox: the exact body and its idempotency key (never the token). */
export interface PendingWrite {
  idempotencyKey: string;
  turnId: string;
  role: WriteRole;
  /** The message's turn key ("" for `remember` and `edges`). */
  turnKey: string;
  refersTo: string[];
  body: StoreRequest | { relationships: RelationshipById[] };
  queuedAtMs: number;
}

export interface FlushResult {
  /** Writes stored by this flush. */
  flushed: number;
  /** Still waiting (the server is still unreachable). */
  pending: number;
  /** Refused on their merits (e.g. a 400) and dropped from the outbox. */
  failed: Array<{ idempotencyKey: string; turnId: string; role: WriteRole; code: NeotomaErrorCode; message: string }>;
  /** Met `IDEMPOTENCY_MISMATCH` when sent: another instance stored a different text under the
   *  key meanwhile, and that one stands. Dropped from the outbox. */
  superseded: Array<{ idempotencyKey: string; turnId: string; role: WriteRole; code: "IDEMPOTENCY_MISMATCH"; message: string }>;
}

export interface FlushOptions {
  /** Keep flushing (waiting as the outbox's own timer does: `Retry-After`, else a growing
   *  backoff) until the outbox is empty or `timeoutMs` has passed. */
  untilEmpty?: boolean;
  /** With `untilEmpty`: how long to keep trying (default 60000). `pending` says what is left. */
  timeoutMs?: number;
}

/** What `onEvent` receives. */
export type AgentEvent =
  | { type: "retry"; path: string; attempt: number; delayMs: number; code: NeotomaErrorCode; status?: number }
  | { type: "writePending"; turnId: string; role: WriteRole; idempotencyKey: string; code: NeotomaErrorCode; message: string; pending: number }
  | { type: "writeFlushed"; turnId: string; role: WriteRole; idempotencyKey: string; replayed: boolean; pending: number }
  | { type: "writeFailed"; turnId: string; role: WriteRole; idempotencyKey: string; code: NeotomaErrorCode; message: string; status?: number }
  | { type: "writeSuperseded"; turnId: string; role: WriteRole; idempotencyKey: string; code: "IDEMPOTENCY_MISMATCH"; message: string }
  /** One pass of the outbox's own timer; `nextAttemptMs` when writes still wait. */
  | { type: "drain"; flushed: number; failed: number; superseded: number; pending: number; nextAttemptMs?: number };

/** Any object answering with the real server's response bodies. `EmbeddedStore` is one. */
export interface NeotomaTransport {
  store(body: StoreRequest): Promise<StoreResponse> | StoreResponse;
  retrieveEntityByIdentifier(body: RetrieveRequest): Promise<RetrieveResponse> | RetrieveResponse;
  createRelationships(body: { relationships: RelationshipById[] }): Promise<unknown> | unknown;
  /** Optional: `verifyTurn` and `repairTurn` read a turn's edges back with it. */
  retrieveRelatedEntities?(body: RelatedRequest): Promise<RelatedResponse> | RelatedResponse;
}

export interface AgentOptions {
  conversationId: string;
  conversationTitle?: string;
  /** What writes the conversation (an app's name): stored as the conversation's `client_name`. */
  platform?: string;
  /** Entities kept (and lookups made) per turn; default 8. */
  retrievalLimit?: number;
  /** Bound on the whole retrieval phase; default 2500. */
  retrievalTimeoutMs?: number;
  /** Replaces the default extractor (`extractIdentifiers`). */
  identifierExtractor?: (text: string) => string[];
  /** "cited" (default): the assistant message refers to the retrieved entities its text names;
   *  "retrieved": to all of them, like the upstream SDK. */
  assistantRefersTo?: "cited" | "retrieved";
  /** Largest message accepted, in UTF-8 bytes; default 1 MiB. Also bounds a reply's produced
   *  entities, as JSON. */
  maxMessageBytes?: number;
  /** The most entities one reply may produce; default 16. */
  maxProducedEntities?: number;
  /** Bound on `ctx.memory`, in characters; default 2000. */
  memoryChars?: number;
  /** Omit for the embedded store. */
  transport?: HttpTransportOptions | NeotomaTransport;
  /** Retry settings, or `false` for a single attempt. */
  retry?: RetryOptions | false;
  /** Where message stores that could not be sent wait: omitted = IndexedDB in browsers,
   *  memory elsewhere; `false` = no outbox (a failed store rejects the turn). */
  outbox?: OutboxStorage | false;
  /** Retries, pending writes and flushes, for a UI. Exceptions it throws are ignored. */
  onEvent?: (event: AgentEvent) => void;
  /** Bound on the LLM callback, its whole stream included; default 300000. */
  llmTimeoutMs?: number;
  /** Overlapped turns (default false): right after retrieval, the user message's `/store` is
   *  sent and the LLM callback invoked at once, so the callback starts one round trip sooner.
   *  The message is kept in the outbox while the callback runs (removed once stored; with
   *  `outbox: false` it is kept nowhere meanwhile, and a store that fails rejects the turn); the
   *  assistant message still waits for the user message's store; a store that fails for good
   *  still rejects the turn, after the callback, with the store's error. On a replayed turn the
   *  callback has run before the store says so: its reply is discarded and the stored reply
   *  returned (in `turnStream`, the streams carried the discarded reply). Per turn:
   *  `TurnOptions.overlapUserStore`. */
  overlapUserStore?: boolean;
}

export interface WithMemoryOptions extends AgentOptions {
  /** Turn id source; default a random UUID per call. */
  nextTurnId?: () => string;
}

/** An entity found by bounded retrieval. */
export interface RetrievedEntity {
  id: string;
  entity_type: string;
  canonical_name: string | null;
  /** The entity's fields (name, title, …). */
  snapshot: Record<string, unknown>;
  /** The identifier from the message that found it. */
  identifier: string;
}

export interface TurnContext {
  retrieved: RetrievedEntity[];
  /** The retrieved entities as a compact text block for a model's system prompt: one line per
   *  entity (type, name, id, its most useful fields), at most `memoryChars` characters, cut by
   *  whole entities; "" when nothing was retrieved. */
  memory: string;
  retrievedEntityIds: string[];
  turnId: string;
  turnNumber: number;
  conversationId: string;
}

/**
 * An entity a reply produces: its snake_case `entity_type` and flat fields, as Neotoma's
 * `/store` takes them. Field names the built-in schemas know survive in the snapshot (a
 * `person`'s `organization`, not `organisation`; a `project` needs `status`): see README,
 * "Produced entities". Not `conversation` or `conversation_message`, and none of the protocol's
 * fields (`turn_key`, `conversation_id`, `sender_kind`, `idempotency_key`, `entity_id`).
 */
export interface EntityInput {
  entity_type: string;
  [field: string]: unknown;
}

/** A reply's entities: an array, a promise of one, or a function called with the whole reply
 *  text once it is known (parse a tool call or a closing JSON block there). */
export type ProducedEntities =
  | EntityInput[]
  | Promise<EntityInput[]>
  | ((replyText: string) => EntityInput[] | Promise<EntityInput[]>);

/** What one produced entity became in the store. */
export interface ProducedEntity {
  id: string;
  entity_type: string;
  canonical_name: string | null;
  /** `created`, or `matched_existing` when the store resolved it to an entity it had (a
   *  person named again); a replayed store reports `matched_existing`. */
  action: "created" | "matched_existing";
  /** Store warnings about this entity (`UNKNOWN_FIELD` for a field its schema lacks,
   *  `MISSING_REQUIRED_FIELD`, …). */
  warnings: StoreWarning[];
}

/** What `agent.remember()` made of one entity. */
export interface RememberResult {
  /** `null` while its store waits in the outbox (`action: "pending"`). */
  id: string | null;
  entity_type: string;
  canonical_name: string | null;
  /** `created`; `matched_existing` when the store already had it (found by its name, title or
   *  email, or resolved to it by the store): it is then left as it is; `pending` while the
   *  store waits in the outbox; `unknown` (with `id: null`) for an entity the store's answer
   *  did not account for. */
  action: "created" | "matched_existing" | "pending" | "unknown";
  warnings: StoreWarning[];
}

/** `verifyTurn`/`repairTurn` for a turn another agent (or process) made: its texts are then
 *  checked byte for byte, and `repairTurn` can store a missing message again. */
export interface VerifyTurnInput {
  turnId: string;
  userMessage?: string;
  reply?: string;
}

/** One check of a turn read back from the store (the upstream SDK's `Diagnosis` shape). */
export interface Diagnosis {
  /** Stable: `user_message.stored`, `user_message.content`, `user_message.turn_number`,
   *  `user_message.part_of`, `user_message.refers_to` (and `user_message.edges` when the edges
   *  could not be read), the same for `assistant_message.*`, and `outbox.pending`. */
  id: string;
  severity: "ok" | "warn" | "error";
  message: string;
  /** What `repairTurn` would do about it. */
  suggestedRepair?: string;
}

export interface TurnRepair {
  /** The diagnosis it answers (`assistant_message.stored`, `user_message.edges`, …). */
  id: string;
  action: "flushed" | "stored_message" | "created_relationships" | "skipped";
  message: string;
}

export interface TurnRepairs {
  repairs: TurnRepair[];
  /** The turn read back after the repairs. */
  diagnoses: Diagnosis[];
}

export interface LlmReply {
  text: string;
  /** Entity ids (or entities) the reply refers to beyond those it names. */
  refersTo?: Array<string | { id: string }>;
  /** Entities the reply produces: stored with it, in its one `/store`, and referred to by it. */
  entities?: ProducedEntities;
}

/** A streamed reply with entities (known, or worked out from the whole text at the end). */
export interface LlmStreamReply {
  stream: LlmReplyStream;
  refersTo?: Array<string | { id: string }>;
  entities?: ProducedEntities;
}

/**
 * A streamed reply: chunks as the model produces them. Strings are taken as they are; bytes are
 * decoded as UTF-8 (invalid bytes are refused, never replaced). The stored reply is exactly the
 * chunks concatenated.
 */
export type LlmReplyStream = AsyncIterable<string> | ReadableStream<string | Uint8Array>;

export type LlmCallback = (
  userMessage: string,
  ctx: TurnContext,
) =>
  | string
  | LlmReply
  | LlmStreamReply
  | LlmReplyStream
  | Promise<string | LlmReply | LlmStreamReply | LlmReplyStream>;

/** What `agent.turnStream` returns, at once. */
export interface TurnStream {
  /** The reply's UTF-8 bytes as they come: `new Response(stream)` works. */
  stream: ReadableStream<Uint8Array>;
  /** The same reply as string chunks, for rendering tokens. */
  textStream: ReadableStream<string>;
  /** The `TurnResult`, once the whole reply is stored (`ctx.waitUntil(done)`). Rejects with the
   *  error the streams error with (the LLM's own, unchanged, if its stream failed). */
  done: Promise<TurnResult>;
}

export interface TurnOptions {
  turnId?: string;
  turnNumber?: number;
  /** A deliberate regeneration of this turn's reply (2, 3, …): stored under its own key,
   *  replacing the stored text instead of failing with IDEMPOTENCY_MISMATCH. */
  revision?: number;
  /** A replayed turn normally returns the reply it already stored, without calling the LLM.
   *  `true` asks the LLM for a new reply, stored as the next revision. Not with `revision`. */
  regenerate?: boolean;
  /** This turn overlapped (`true`) or in the protocol's order (`false`), whatever
   *  `AgentOptions.overlapUserStore` says. */
  overlapUserStore?: boolean;
}

export interface StoreWarning {
  code: string;
  message?: string;
  [field: string]: unknown;
}

export interface OpenTurnInput {
  turnId?: string;
  turnNumber?: number;
  userMessage: string;
  userMessageExtra?: Record<string, unknown>;
}

export interface OpenTurnResult {
  turnId: string;
  turnNumber: number;
  /** `null` while the message waits in the outbox (`pending`). */
  conversationEntityId: string | null;
  userMessageEntityId: string | null;
  retrieved: RetrievedEntity[];
  retrievedEntityIds: string[];
  replayed: boolean;
  /** The message is in the outbox, not stored yet. */
  pending: boolean;
  storeWarnings: StoreWarning[];
}

export interface CloseTurnInput {
  turnId: string;
  turnNumber?: number;
  assistantMessage: string;
  refersTo?: Array<string | { id: string }>;
  /** Entities the reply produced, stored with it (see `LlmReply.entities`). */
  entities?: EntityInput[];
  assistantMessageExtra?: Record<string, unknown>;
  /** See `TurnOptions.revision`. */
  revision?: number;
}

export interface CloseTurnResult {
  turnId: string;
  turnNumber?: number;
  conversationEntityId: string | null;
  assistantMessageEntityId: string | null;
  refersTo: string[];
  /** What the produced entities became; empty while the message waits in the outbox. */
  produced: ProducedEntity[];
  replayed: boolean;
  pending: boolean;
  storeWarnings: StoreWarning[];
}

export interface RecordTurnInput {
  turnId?: string;
  turnNumber?: number;
  userMessage: string;
  assistantMessage: string;
  refersTo?: Array<string | { id: string }>;
  entities?: EntityInput[];
}

export interface TurnResult {
  assistantMessage: string;
  turnId: string;
  turnNumber: number;
  /** `null` for a message waiting in the outbox (see `pending`). */
  conversationEntityId: string | null;
  userMessageEntityId: string | null;
  assistantMessageEntityId: string | null;
  retrieved: RetrievedEntity[];
  retrievedEntityIds: string[];
  /** The assistant message's REFERS_TO targets by id (the retrieved entities it cites, and
   *  `refersTo`); it also refers to every entity in `produced`. */
  refersTo: string[];
  /** The entities the reply produced, as stored: empty when the reply waits in the outbox, and
   *  for a replayed turn answered with its stored reply. */
  produced: ProducedEntity[];
  /** Whether Neotoma answered each store as a replay of an earlier identical one. */
  replayed: { user: boolean; assistant: boolean };
  /** Messages kept in the outbox because Neotoma could not take them; `agent.flush()`, the
   *  next store and the browser's `online` event send them. */
  pending: { user: boolean; assistant: boolean };
  storeWarnings: StoreWarning[];
}

export interface WrappedAgent {
  (userMessage: string): Promise<{ assistantMessage: string; ctx: TurnContext; result: TurnResult }>;
  memory: NeotomaAgent;
}

export interface RelationshipById {
  relationship_type: string;
  source_entity_id: string;
  target_entity_id: string;
}

export interface StoreRequest {
  entities: Array<{ entity_type: string; [field: string]: unknown }>;
  relationships?: Array<{
    relationship_type: string;
    source_index?: number;
    source_entity_id?: string;
    target_index?: number;
    target_entity_id?: string;
  }>;
  idempotency_key: string;
}

export interface StoreResponse {
  success: boolean;
  replayed: boolean;
  entities: Array<{
    entity_id: string;
    entity_type: string;
    entity_snapshot_after?: Record<string, unknown>;
    [field: string]: unknown;
  }>;
  store_warnings?: StoreWarning[];
  [field: string]: unknown;
}

export interface RetrieveRequest {
  identifier: string;
  entity_type?: string;
  limit?: number;
  by?: string;
}

export interface RetrieveResponse {
  entities: Array<{ id: string; entity_type: string; canonical_name?: string | null; snapshot?: Record<string, unknown> }>;
  total: number;
  match_mode: "direct" | "snapshot_field" | "semantic" | "none";
  hint?: string;
}

export interface RelatedRequest {
  entity_id: string;
  direction?: "inbound" | "outbound" | "both";
  relationship_types?: string[];
}

export interface RelatedResponse {
  relationships: Array<{ relationship_type: string; source_entity_id: string; target_entity_id: string; [field: string]: unknown }>;
  entities?: Array<{ id?: string; entity_id?: string; entity_type: string; [field: string]: unknown }>;
  [field: string]: unknown;
}

/** One REST answer of the embedded store. A string body is a non-JSON (HTML/text) answer. */
export interface EmbeddedResponse {
  status: number;
  body: unknown;
}
"#;
