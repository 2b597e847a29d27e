// One IndexedDB object store, opened on first use (never at import), for the package's two
// browser storages: the outbox's (outbox-indexeddb.mjs) and the embedded store's
// (store-storage.mjs).

/**
 * `run(mode, work)`: calls `work(objectStore)` inside one transaction and resolves with what it
 * returned once the transaction has completed; a `readwrite` one is committed with `durability:
 * "strict"` (on disk, not just queued), so a write reported as kept survives a closed tab. The
 * database is opened on the first `run`; a failed open is tried again by the next one.
 * @param {string} databaseName
 * @param {string} storeName
 */
export function objectStoreRunner(databaseName, storeName) {
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

  return async function run(mode, work) {
    const db = await open();
    return new Promise((resolve, reject) => {
      const tx = db.transaction(storeName, mode, mode === 'readwrite' ? { durability: 'strict' } : undefined);
      const result = work(tx.objectStore(storeName));
      tx.oncomplete = () => resolve(result);
      tx.onerror = tx.onabort = () => reject(tx.error ?? result?.error ?? new Error('IndexedDB transaction failed'));
    });
  };
}
