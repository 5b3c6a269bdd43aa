// One IndexedDB object store, opened on first use and shared by the module that names it (the outbox of answers,
// the hand-off of refreshed tokens between tabs).

/// The store `storeName` of the database `databaseName` (version 1), made with `options` when the database is new.
/// Returns `{transact(mode, work)}`: runs `work(store)` in one transaction and resolves with what its last request
/// gave once the transaction is done.
export function objectStore(databaseName, storeName, options) {
  let database = null;

  function open() {
    database ??= new Promise((resolve, reject) => {
      const request = indexedDB.open(databaseName, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(storeName, options);
      request.onsuccess = () => {
        const db = request.result;
        // Another tab deleting or upgrading the database must not wait on this one.
        db.onversionchange = () => {
          db.close();
          database = null;
        };
        resolve(db);
      };
      request.onerror = () => reject(request.error);
    }).catch((error) => {
      database = null;
      throw error;
    });
    return database;
  }

  async function transact(mode, work) {
    const db = await open();
    return new Promise((resolve, reject) => {
      const transaction = db.transaction(storeName, mode);
      const request = work(transaction.objectStore(storeName));
      transaction.oncomplete = () => resolve(request?.result);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  }

  return { transact };
}
