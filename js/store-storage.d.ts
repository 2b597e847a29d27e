import type { StoreRecord, StoreStorage } from "./neotoma_agent_wasm.js";

export interface IndexedDbStoreOptions {
  /** Default "neotoma-agent-wasm-store" (not the outbox's database). */
  databaseName?: string;
  /** Default "records". */
  storeName?: string;
}

/** The embedded store's records in IndexedDB, for `EmbeddedStore.open`: a reload finds the
 *  memory again. Each write call's changes are one transaction, committed with
 *  `durability: "strict"`. Opens the database on first use. One tab at a time (a Web Lock):
 *  `EmbeddedStore.open` in a second tab rejects (`STORE_STORAGE`, after waiting 3 s) while the
 *  first has the store open. */
export function indexedDbStoreStorage(options?: IndexedDbStoreOptions): Required<StoreStorage>;

/** The embedded store's records in a `Map` (a new one, or yours), for `EmbeddedStore.open`. */
export function memoryStoreStorage(map?: Map<string, StoreRecord>): Required<StoreStorage>;
