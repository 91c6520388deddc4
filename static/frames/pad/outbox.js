/* The pad's IndexedDB: the outbox (events not yet stored by the server, in order), each
 * frame's snapshot, the discarded events and a little metadata (the device id). Every
 * write is one transaction; a promise resolves once its transaction has committed (so
 * "saved" means durably saved). */

export const DB_NAME = "marker-pad";

export function openDb(idb, name) {
  return new Promise((resolve, reject) => {
    const req = idb.open(name || DB_NAME, 1);
    req.onupgradeneeded = () => {
      const d = req.result;
      d.createObjectStore("outbox", { keyPath: "n", autoIncrement: true }).createIndex("frame", "frame");
      d.createObjectStore("frames", { keyPath: "frame" });
      d.createObjectStore("meta", { keyPath: "key" });
      d.createObjectStore("discarded", { keyPath: "event_id" }).createIndex("frame", "frame");
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function got(request, sink) {
  request.onsuccess = () => sink(request.result);
}

// The store on `idb` (the browser's indexedDB, or a fake one in tests), opened lazily.
export function createOutbox(idb, name) {
  let dbPromise = null;
  const db = () => (dbPromise = dbPromise || openDb(idb || globalThis.indexedDB, name));

  // Run `body(t)` in one transaction; it returns a function that reads the result once
  // the transaction has committed.
  function tx(stores, mode, body) {
    return db().then((d) => new Promise((resolve, reject) => {
      const t = d.transaction(stores, mode);
      const result = body(t);
      t.oncomplete = () => resolve(typeof result === "function" ? result() : result);
      t.onerror = t.onabort = () => reject(t.error || new Error("IndexedDB transaction failed"));
    }));
  }

  return {
    // The new item's key (its place in the queue).
    add(item) {
      let key;
      return tx("outbox", "readwrite", (t) => {
        got(t.objectStore("outbox").add(item), (k) => { key = k; });
        return () => key;
      });
    },
    // A frame's queued items, oldest first.
    items(frame) {
      let rows = [];
      return tx("outbox", "readonly", (t) => {
        got(t.objectStore("outbox").index("frame").getAll(frame), (r) => { rows = r.sort((a, b) => a.n - b.n); });
        return () => rows;
      });
    },
    put(item) {
      return tx("outbox", "readwrite", (t) => { t.objectStore("outbox").put(item); });
    },
    // The phone's engine refused a queued item: mark it, unless it has left the outbox
    // (or the referee sent it anyway).
    refuse(n, error) {
      return tx("outbox", "readwrite", (t) => {
        const os = t.objectStore("outbox");
        got(os.get(n), (row) => {
          if (row && row.state === "queued" && !row.forced) {
            row.state = "rejected";
            row.error = error;
            os.put(row);
          }
        });
      });
    },
    remove(keys) {
      return tx("outbox", "readwrite", (t) => { for (const k of keys) t.objectStore("outbox").delete(k); });
    },
    // Out of the outbox and into the discarded store, with the reason, in one transaction.
    discard(list, reason) {
      const at = new Date().toISOString();
      return tx(["outbox", "discarded"], "readwrite", (t) => {
        for (const it of list) {
          t.objectStore("discarded").put(Object.assign({}, it, { reason: reason, discarded_at: at }));
          t.objectStore("outbox").delete(it.n);
        }
      });
    },
    discarded() {
      let rows = [];
      return tx("discarded", "readonly", (t) => {
        got(t.objectStore("discarded").getAll(), (r) => { rows = r; });
        return () => rows;
      });
    },
    snap(frame) {
      let row;
      return tx("frames", "readonly", (t) => {
        got(t.objectStore("frames").get(frame), (r) => { row = r; });
        return () => row;
      });
    },
    putSnap(s) {
      return tx("frames", "readwrite", (t) => { t.objectStore("frames").put(s); });
    },
    // Read-modify-write of the frame's snapshot in one transaction (the poll, the drain
    // and other tabs all update it); `change` is synchronous.
    updateSnap(frame, fallback, change) {
      let row;
      return tx("frames", "readwrite", (t) => {
        const os = t.objectStore("frames");
        got(os.get(frame), (current) => {
          row = current || fallback;
          change(row);
          os.put(row);
        });
        return () => row;
      });
    },
    meta(key) {
      let row;
      return tx("meta", "readonly", (t) => {
        got(t.objectStore("meta").get(key), (r) => { row = r; });
        return () => row && row.value;
      });
    },
    putMeta(key, value) {
      return tx("meta", "readwrite", (t) => { t.objectStore("meta").put({ key: key, value: value }); });
    },
  };
}
