import type { OutboxStorage } from "./neotoma_agent_wasm.js";

export interface IndexedDbOutboxOptions {
  /** Default "neotoma-agent-wasm". */
  databaseName?: string;
  /** Default "outbox". */
  storeName?: string;
}

/** The outbox on IndexedDB (the browsers' default): one record per conversation queue,
 *  committed with `durability: "strict"`. Opens the database on first use. */
export function indexedDbOutboxStorage(options?: IndexedDbOutboxOptions): OutboxStorage;
