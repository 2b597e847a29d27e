// The outbox's default storage in browsers: IndexedDB, one record per conversation queue.
// The browser entry registers it (setDefaultOutboxStorage) when `indexedDB` exists; pass it
// yourself as `outbox: indexedDbOutboxStorage({ databaseName })` to choose the database.
// It opens the database on first use, never at import.

/**
 * @param {{ databaseName?: string, storeName?: string }} [options]
 * @returns {{ get(key: string): Promise<string | undefined>, put(key: string, value: string): Promise<void>, delete(key: string): Promise<void> }}
 */
export function indexedDbOutboxStorage({ databaseName = 'neotoma-agent-wasm', storeName = 'outbox' } = {}) {
  let opening = null;
  const open = () =>
    (opening ??= new Promise((resolve, reject) => {
      const request = indexedDB.open(databaseName, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(storeName);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error(`IndexedDB ${databaseName} is blocked by another tab`));
    }).catch((error) => {
      opening = null; // a later call tries again
      throw error;
    }));

  // Resolves when the transaction is committed ("strict": on disk, not just queued), so a
  // write the agent reports as kept survives a closed tab.
  async function run(mode, work) {
    const db = await open();
    return new Promise((resolve, reject) => {
      const tx = db.transaction(storeName, mode, mode === 'readwrite' ? { durability: 'strict' } : undefined);
      const request = work(tx.objectStore(storeName));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = tx.onabort = () => reject(tx.error ?? request.error ?? new Error('IndexedDB transaction failed'));
    });
  }

  return {
    get: (key) => run('readonly', (store) => store.get(key)),
    put: (key, value) => run('readwrite', (store) => store.put(value, key)).then(() => undefined),
    delete: (key) => run('readwrite', (store) => store.delete(key)).then(() => undefined),
  };
}
