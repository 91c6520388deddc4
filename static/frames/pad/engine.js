/* The bridge to the offline engine: the rules engine itself (the server's Python source,
 * as a zip) on Pyodide, in a worker (../engine/worker.js). Loaded after the pad is
 * interactive (or on the first shot while offline); when it is missing or fails, the pad
 * shows the last stored state and the waiting shots. */

export function createEngine(ctx, store, pad, render, env) {
  const e = Object.assign({
    Worker: globalThis.Worker,
    serviceWorker: globalThis.navigator && globalThis.navigator.serviceWorker,
    mark: () => {}, // mark(state): the page shows the engine's state (data-engine)
  }, env || {});
  const engine = { worker: null, state: "off", calls: new Map(), next: 1, key: null, asked: null, result: null };

  function start() {
    if (!ctx.engine || engine.state !== "off" || !e.Worker) return;
    engine.state = "loading";
    try {
      engine.worker = new e.Worker(ctx.engine.worker);
    } catch {
      engine.state = "failed";
      return;
    }
    engine.worker.onmessage = (event) => {
      const msg = event.data || {};
      if (msg.type === "ready") {
        engine.state = "ready";
        e.mark("ready");
        keepFiles();
        render();
      } else if (msg.type === "failed") {
        engine.state = "failed";
        e.mark("failed");
        render();
      } else if (msg.type === "result") {
        const done = engine.calls.get(msg.id);
        engine.calls.delete(msg.id);
        if (done) done(msg);
      }
    };
    engine.worker.onerror = () => {
      engine.state = "failed";
      render();
    };
    engine.worker.postMessage({ type: "init", pyodide: ctx.engine.pyodide, zip: ctx.engine.zip });
  }

  // Ask the service worker to keep Pyodide and this engine for the next offline visit.
  function keepFiles() {
    if (!e.serviceWorker) return;
    e.serviceWorker.ready.then((reg) => {
      if (reg.active) reg.active.postMessage({ type: "cache-engine", urls: ctx.engine.files.concat([ctx.engine.zip]) });
    }).catch(() => {});
  }

  function call(body) {
    return new Promise((resolve) => {
      const id = engine.next++;
      engine.calls.set(id, resolve);
      engine.worker.postMessage(Object.assign({ type: "compute", id: id }, body));
    });
  }

  // The events the engine must apply on top of the server's dump: the stored ones after
  // the dump (from the answers this phone saw) and then the queued ones. null when the
  // stored ones are not all known.
  function input(server, queued) {
    const tail = [];
    for (let seq = server.dump_seq + 1; seq <= server.last_seq; seq++) {
      const ev = server.recent.find((r) => r.seq === seq);
      if (!ev) return null;
      tail.push({ kind: ev.kind, payload: ev.payload || {} });
    }
    return { tail: tail, queued: queued };
  }

  function keyOf(server, queued) {
    return JSON.stringify([server.last_seq, server.dump_seq, server.top_seq, pad.snap.base,
      queued.map((it) => it.event_id + (it.forced ? "!" : ""))]);
  }

  // The engine's answer ({view, choices, ...}) for the queued shots, when it is known for
  // exactly these shots; otherwise asks for it (render() runs again with the answer).
  function view(server, allQueued) {
    const snap = pad.snap;
    // A queued shot the server already holds (its answer not yet in: a poll or another
    // tab got there first) is in the dump or the stored events, not applied twice.
    const stored = new Set(server.recent.map((ev) => ev.event_id).concat(snap.sent || []));
    const queued = allQueued.filter((it) => !stored.has(it.event_id));
    // Only a queue built on exactly this server state may be judged (refused) here.
    const judge = snap.base === server.last_seq && queued.length === allQueued.length;
    if (!queued.length || engine.state !== "ready" || snap.conflict) return null;
    const key = keyOf(server, queued);
    if (engine.key === key) return engine.result;
    if (engine.asked !== key) {
      engine.asked = key;
      const given = input(server, queued);
      if (!given) {
        engine.key = key;
        engine.result = null;
        return null;
      }
      call({
        game_id: ctx.game_id, rules_version: ctx.rules_version, setup: server.setup, dump: server.dump,
        events: given.tail.concat(given.queued.map((it) => ({ kind: it.kind, payload: it.payload }))),
      }).then(async (answer) => {
        if (engine.asked !== key) return;
        engine.key = key;
        engine.result = answer.ok ? answer : null;
        if (answer.ok && answer.refused && judge) {
          const at = answer.refused.index - given.tail.length;
          const item = given.queued[at];
          if (at >= 0 && item && item.event_id !== pad.inFlight && !item.forced) {
            await store.refuse(item.n, { status: 0, local: true, error: answer.refused.code, message: answer.refused.message });
            pad.items = await store.items(ctx.frame);
          }
        }
        render();
      });
    }
    return null;
  }

  return { start, view, state: () => engine.state };
}
