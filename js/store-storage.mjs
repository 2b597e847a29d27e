// Storages for an opened embedded store (`await EmbeddedStore.open(storage)`): its records, one
// JSON object per key. IndexedDB for browsers (a reload finds the memory again), a Map for the
// rest and for tests. Both list `[key, record]` pairs and apply a write call's changes at once.

import { objectStoreRunner } from './indexeddb.mjs';

// The Web Locks this page holds (or is waiting for), by name (see `holdLock`).
const held = new Map();

// How long opening waits for another page to let go: a reloaded tab's old page releases its
// lock a moment after the new one asks.
const LOCK_WAIT_MS = 3000;

// One page at a time per database: two tabs' stores would interleave their writes into records
// neither can load. The first `list()` (opening a store) takes the lock for the page's lifetime;
// in another tab it fails, after `LOCK_WAIT_MS`. Hosts without Web Locks are not guarded.
function holdLock(name) {
  if (typeof navigator === 'undefined' || !navigator.locks) return undefined;
  if (!held.has(name)) {
    const taking = new Promise((resolve, reject) => {
      navigator.locks
        .request(name, { signal: AbortSignal.timeout(LOCK_WAIT_MS) }, () => {
          resolve();
          return new Promise(() => {}); // never released: held until the page goes
        })
        .catch((error) => {
          held.delete(name);
          reject(error?.name === 'TimeoutError' ? new Error(`${name} is open in another tab or window`) : error);
        });
    });
    held.set(name, taking);
  }
  return held.get(name);
}

/**
 * The store's records in IndexedDB: one object store, one record per key. It opens the
 * database on first use, never at import. A write call's changes are one transaction,
 * committed with `durability: "strict"` (on disk, not just queued) before the call settles.
 * One tab at a time: opening the store in a second tab fails (after 3 s) while the first has it.
 * @param {{ databaseName?: string, storeName?: string }} [options]
 */
export function indexedDbStoreStorage({ databaseName = 'neotoma-agent-wasm-store', storeName = 'records' } = {}) {
  const run = objectStoreRunner(databaseName, storeName);

  return {
    get: (key) => run('readonly', (store) => store.get(key)).then((request) => request.result),
    put: (key, record) => run('readwrite', (store) => void store.put(record, key)),
    delete: (key) => run('readwrite', (store) => void store.delete(key)),
    // Keys and values in key order, from one transaction.
    list: async () => {
      await holdLock(`IndexedDB ${databaseName}/${storeName}`);
      const [keys, values] = await run('readonly', (store) => [store.getAllKeys(), store.getAll()]);
      return keys.result.map((key, i) => [key, values.result[i]]);
    },
    apply: (changes) =>
      run('readwrite', (store) => {
        for (const [key, record] of changes) {
          if (record === undefined) store.delete(key);
          else store.put(record, key);
        }
      }),
  };
}

/**
 * The store's records in a `Map` (yours, to look into or to share between stores opened one
 * after the other). Records are kept as given: the store never changes one it handed over.
 * @param {Map<string, unknown>} [map]
 */
export function memoryStoreStorage(map = new Map()) {
  return {
    get: (key) => map.get(key),
    put: (key, record) => void map.set(key, record),
    delete: (key) => void map.delete(key),
    list: () => [...map],
    apply: (changes) => {
      for (const [key, record] of changes) {
        if (record === undefined) map.delete(key);
        else map.set(key, record);
      }
    },
  };
}
