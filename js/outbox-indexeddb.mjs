// The outbox's default storage in browsers: IndexedDB, one record per conversation queue.
// The browser entry registers it (setDefaultOutboxStorage) when `indexedDB` exists; pass it
// yourself as `outbox: indexedDbOutboxStorage({ databaseName })` to choose the database.
// It opens the database on first use, never at import.

import { objectStoreRunner } from './indexeddb.mjs';

/**
 * @param {{ databaseName?: string, storeName?: string }} [options]
 * @returns {{ get(key: string): Promise<string | undefined>, put(key: string, value: string): Promise<void>, delete(key: string): Promise<void> }}
 */
export function indexedDbOutboxStorage({ databaseName = 'neotoma-agent-wasm', storeName = 'outbox' } = {}) {
  const run = objectStoreRunner(databaseName, storeName);

  return {
    get: (key) => run('readonly', (store) => store.get(key)).then((request) => request.result),
    put: (key, value) => run('readwrite', (store) => store.put(value, key)).then(() => undefined),
    delete: (key) => run('readwrite', (store) => store.delete(key)).then(() => undefined),
  };
}
