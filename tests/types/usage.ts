// Compiled with `tsc --noEmit --strict` against the generated pkg/neotoma_agent_wasm.d.ts
// (make test-types): the published types must describe the API with real shapes, so misuse below
// marked @ts-expect-error must fail to compile and everything else must compile.
import {
  EmbeddedStore,
  NeotomaAgent,
  extractIdentifiers,
  idempotencyKey,
  withMemory,
  type AgentOptions,
  type LlmCallback,
  type NeotomaError,
  type RetrievedEntity,
  type TurnResult,
  type TurnStream,
  type AgentEvent,
  type FlushResult,
  type PendingWrite,
  type ProducedEntity,
  type EntityInput,
  type RememberResult,
  type Diagnosis,
  type TurnRepairs,
  type TurnRepair,
  type RenderTurnReportOptions,
  type CloseTurnResult,
  renderTurnReport,
  indexedDbStoreStorage,
  memoryStoreStorage,
  type EmbeddedStoreDocument,
  indexedDbOutboxStorage,
} from "neotoma-agent-wasm";

const options: AgentOptions = {
  conversationId: "c1",
  retrievalLimit: 4,
  assistantRefersTo: "cited",
  transport: { baseUrl: "http://127.0.0.1:3080", token: "t", timeoutMs: 1000 },
};
const agent = new NeotomaAgent(options);

const llm: LlmCallback = async (message, ctx) => {
  const names: string[] = ctx.retrieved.map((e: RetrievedEntity) => e.canonical_name ?? e.id);
  const id: string = ctx.turnId;
  return { text: `${message} ${names.join(",")} ${id}`, refersTo: ctx.retrievedEntityIds };
};

async function main(): Promise<void> {
  const result: TurnResult = await agent.turn("Tell me about Acme Corp", llm, { turnId: "t1" });
  const ids: Array<string | null> = [result.userMessageEntityId, result.assistantMessageEntityId];
  const replayed: boolean = result.replayed.user && result.replayed.assistant;
  const opened = await agent.openTurn({ userMessage: "hi", userMessageExtra: { model: "m" } });
  const closed = await agent.closeTurn({ turnId: opened.turnId, assistantMessage: "hello", refersTo: ["ent_1"] });
  const recorded = await agent.recordTurn({ userMessage: "a", assistantMessage: "b" });
  const n: number = recorded.turnNumber + opened.turnNumber;
  const store = new EmbeddedStore();
  const shared = new NeotomaAgent({ conversationId: "c2", transport: store });
  const answer = store.handle("GET", "/health", undefined);
  const status: number = answer.status;
  const wrapped = withMemory(async (m, ctx) => `${m} ${ctx.conversationId}`, { conversationId: "c3" });
  const out = await wrapped("hello");
  const reply: string = out.assistantMessage;
  const memory: NeotomaAgent = wrapped.memory;
  const found: string[] = extractIdentifiers("Acme Corp");
  const key: string = idempotencyKey("c1", "t1", "user");
  try {
    await agent.turn("x", () => "y");
  } catch (e) {
    const err = e as NeotomaError;
    const code: "INVALID_INPUT" | "NEOTOMA_HTTP" | "NEOTOMA_NETWORK" | "NEOTOMA_TIMEOUT" | "IDEMPOTENCY_MISMATCH" | "NEOTOMA_INVALID_RESPONSE" | "LLM_TIMEOUT" | "OUTBOX_STORAGE" | "STORE_STORAGE" = err.code;
    void code;
  }
  void [ids, replayed, closed.refersTo, n, shared, status, reply, memory, found, key];

  // Streaming: an async generator or a ReadableStream as the reply; bytes out, result later.
  const streamed: TurnStream = agent.turnStream("Tell me about Acme Corp", async function* (m, ctx) {
    yield `${m} `;
    yield ctx.conversationId;
  });
  const body: ReadableStream<Uint8Array> = streamed.stream;
  const tokens: ReadableStream<string> = streamed.textStream;
  const finished: TurnResult = await streamed.done;
  await agent.turn("x", () => new ReadableStream<Uint8Array>());
  void [body, tokens, finished];

  // Reliability: retry settings, a storage for the outbox, events, flush.
  const kv = new Map<string, string>();
  const reliable = new NeotomaAgent({
    conversationId: "c4",
    transport: { baseUrl: "https://neotoma.example.com", token: "t" },
    retry: { maxAttempts: 3, initialDelayMs: 100 },
    outbox: { get: (k) => kv.get(k), put: (k, v) => void kv.set(k, v), delete: (k) => kv.delete(k) },
    onEvent: (e: AgentEvent) => {
      if (e.type === "writePending") console.log(e.idempotencyKey, e.pending);
    },
    llmTimeoutMs: 60_000,
  });
  const flushed: FlushResult = await reliable.flush();
  const waiting: PendingWrite[] = await reliable.pendingWrites();
  const maybeId: string | null = finished.userMessageEntityId;
  const isPending: boolean = finished.pending.user || finished.pending.assistant;
  await reliable.turn("again", () => "regenerated", { turnId: "t1", revision: 2 });
  await reliable.turn("again", () => "regenerated", { turnId: "t1", turnNumber: 1, regenerate: true });
  const drained: FlushResult = await reliable.flush({ untilEmpty: true, timeoutMs: 5_000 });
  const superseded: string[] = drained.superseded.map((w) => w.idempotencyKey);
  new NeotomaAgent({
    conversationId: "c7",
    onEvent: (e: AgentEvent) => {
      if (e.type === "drain") console.log(e.pending, e.nextAttemptMs);
      if (e.type === "writeSuperseded") console.log(e.idempotencyKey, e.code);
    },
  });
  void superseded;
  // Overlapped turns: for the agent, or per turn (either way round).
  const quick = new NeotomaAgent({ conversationId: "c10", overlapUserStore: true });
  await quick.turn("hi", () => "hello", { turnId: "t1", overlapUserStore: false });
  const quickStream: TurnStream = reliable.turnStream("hi", () => "hello", { overlapUserStore: true });
  const quickWrapped = withMemory(async (m) => m, { conversationId: "c11", overlapUserStore: true });
  void [quickStream, quickWrapped];
  // @ts-expect-error overlapUserStore is a boolean
  new NeotomaAgent({ conversationId: "c12", overlapUserStore: "yes" });
  // @ts-expect-error overlapUserStore is a boolean, per turn too
  await quick.turn("hi", () => "hello", { overlapUserStore: 1 });
  // @ts-expect-error regenerate is a boolean
  await reliable.turn("again", () => "x", { regenerate: "yes" });
  // @ts-expect-error flush options are { untilEmpty?, timeoutMs? }
  await reliable.flush({ untilEmpty: true, timeOut: 5 });
  new NeotomaAgent({ conversationId: "c5", outbox: false, retry: false });
  new NeotomaAgent({ conversationId: "c6", outbox: indexedDbOutboxStorage({ databaseName: "chat" }) });
  void [flushed.flushed, waiting, maybeId, isPending];

  // Produced entities: with a reply, a streamed reply (worked out from the whole text), closeTurn.
  const told = await agent.turn("My colleague Dana Whitfield at Orbital Labs", () => ({
    text: "I'll remember Dana.",
    entities: [{ entity_type: "person", name: "Dana Whitfield", organization: "Orbital Labs" }],
  }), { turnId: "t9" });
  const made: ProducedEntity[] = told.produced;
  const action: "created" | "matched_existing" = made[0].action;
  const streamedWith = agent.turnStream("x", () => ({
    stream: (async function* () { yield "Noted."; })(),
    entities: (text: string): EntityInput[] => [{ entity_type: "note", content: text }],
  }));
  const closedWith = await agent.closeTurn({ turnId: "t9", assistantMessage: "x", entities: [{ entity_type: "task", title: "t", status: "open" }] });
  new NeotomaAgent({ conversationId: "c8", maxProducedEntities: 4, memoryChars: 500 });
  let ctxMemory = "";
  await agent.turn("x", (m, ctx) => { ctxMemory = ctx.memory; return "y"; });
  void [action, streamedWith, closedWith.produced[0]?.canonical_name];
  // remember(): one in, one out; an array in, an array out
  const remembered = (await agent.remember({ entity_type: "person", name: "Dana Whitfield" })) as RememberResult;
  const rememberedMany = (await agent.remember([{ entity_type: "company", name: "Orbital Labs" }])) as RememberResult[];
  const maybePending: string | null = remembered.id;
  const kind: "created" | "matched_existing" | "pending" | "unknown" = rememberedMany[0].action;
  // verifyTurn / repairTurn, by id or with the turn's texts
  const diagnoses: Diagnosis[] = await agent.verifyTurn("t9");
  const severity: "ok" | "warn" | "error" = diagnoses[0].severity;
  const repairs: TurnRepairs = await agent.repairTurn({ turnId: "t9", userMessage: "m", reply: "r" });
  const did: TurnRepair["action"] = repairs.repairs[0].action;
  // the markdown report under a reply
  const reportOptions: RenderTurnReportOptions = { inspectorBaseUrl: "https://inspector.example" };
  const closedResult: CloseTurnResult = closedWith;
  const report: string = renderTurnReport(told, reportOptions) + renderTurnReport(closedResult) + renderTurnReport({ ...told, repairs: repairs.repairs });
  void [maybePending, kind, severity, did, report, ctxMemory];
  // @ts-expect-error the result is a turn's result object, not a string
  renderTurnReport("TurnResult");
  // @ts-expect-error inspectorBaseUrl is a string
  renderTurnReport(told, { inspectorBaseUrl: 42 });
  // @ts-expect-error verifyTurn's input has turnId, userMessage and reply
  await agent.verifyTurn({ turnId: "t9", replies: "x" });
  // @ts-expect-error a produced entity needs its entity_type
  await agent.closeTurn({ turnId: "t9", assistantMessage: "x", entities: [{ name: "Dana" }] });

  // The embedded store kept in a storage, and its memory as JSON
  const kept = await EmbeddedStore.open(indexedDbStoreStorage(), { onError: (e) => console.log(e.code === "STORE_STORAGE") });
  const doc: EmbeddedStoreDocument = kept.export();
  const copy = EmbeddedStore.import(doc);
  await EmbeddedStore.open(memoryStoreStorage(), { import: doc });
  await kept.flush();
  new NeotomaAgent({ conversationId: "c9", transport: copy });
  // @ts-expect-error a storage needs list, put and delete
  await EmbeddedStore.open({ list: () => [] });

  // @ts-expect-error conversationId is required
  new NeotomaAgent({});
  // @ts-expect-error assistantRefersTo is "cited" | "retrieved"
  new NeotomaAgent({ conversationId: "c", assistantRefersTo: "all" });
  // @ts-expect-error the LLM returns a string or { text }
  await agent.turn("x", () => 42);
  // @ts-expect-error a streamed reply yields strings (or bytes from a ReadableStream)
  agent.turnStream("x", async function* () { yield 42; });
  // @ts-expect-error idempotencyKey's role is "user" | "assistant"
  idempotencyKey("c", "t", "system");
  // @ts-expect-error an entity id may be null while the message waits in the outbox
  const notNull: string = finished.userMessageEntityId;
  void notNull;
  // @ts-expect-error outbox storage needs get, put and delete
  new NeotomaAgent({ conversationId: "c", outbox: { get: () => null } });
  // @ts-expect-error closeTurn needs the turn id
  await agent.closeTurn({ assistantMessage: "x" });
}
void main;
