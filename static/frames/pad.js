/* Marker referee pad. Vanilla JS, no build step; CSP-clean (no inline code or styles).
 *
 * Offline first: every event is written to an IndexedDB outbox BEFORE any network call,
 * then sent strictly in order (one at a time) with the sequence number it expects to take.
 * The server is authoritative: the pad shows the engine's answers. Events still on the
 * phone are listed as pending, and (where Pyodide is installed) the rules engine itself,
 * running in a worker, shows what they would do (static/frames/engine/worker.js).
 *
 * The controls are built from the game's describe(): one control per field type (see
 * "controls" below), so any registered game gets a pad.
 *
 *   201/200  stored (200: a retry of a stored event): drop it from the outbox
 *   409      someone else moved the frame on: show both versions; the referee decides
 *   400/422  refused: keep it, show why; only the referee can discard it
 *   403      signed out / stale CSRF token: keep everything, ask to log in again
 *   network error, 5xx, 429: keep it, retry with exponential back-off and jitter
 *
 * Drains on load, on `online`, on `visibilitychange` and on a timer. The CSRF token is
 * read from the cookie at send time (it rotates at login).
 */
(function () {
  "use strict";

  // ------------------------------------------------------------- service worker
  function registerWorker(url) {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker
      .register(url, { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then((reg) => {
        if (reg.active) reg.active.postMessage({ type: "cache-page", url: location.pathname + location.search });
      })
      .catch(() => {});
    if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
  }

  const contextNode = document.getElementById("pad-context");
  if (!contextNode) {
    registerWorker("/sw.js"); // the pad's start page
    return;
  }
  const vocab = JSON.parse(document.getElementById("vocab").textContent);
  const ctx = JSON.parse(contextNode.textContent);
  const FRAME = ctx.frame;
  const BAR_BILLIARDS = vocab.family === "bar_billiards";
  const PARTIES = ctx.parties || {};
  registerWorker(ctx.urls.sw);

  // --------------------------------------------------------------- DOM helpers
  const $ = (sel, root) => (root || document).querySelector(sel);
  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "on") for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
      else if (k === "class") node.className = v;
      else if (k === "data") for (const [dk, dv] of Object.entries(v)) node.dataset[dk] = dv;
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
    return node;
  }
  const words = (code) => String(code).replace(/_/g, " ");
  const uuid = () =>
    crypto.randomUUID
      ? crypto.randomUUID()
      : "10000000-1000-4000-8000-100000000000".replace(/[018]/g, (c) =>
          (c ^ (crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> (c / 4)))).toString(16));

  // ------------------------------------------------------------------ IndexedDB
  let dbPromise = null;
  function db() {
    if (!dbPromise) {
      dbPromise = new Promise((resolve, reject) => {
        const req = indexedDB.open("marker-pad", 1);
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
    return dbPromise;
  }
  // Run `body(tx)` in one transaction; it returns a function that reads the result once
  // the transaction has committed (so "saved" means durably saved).
  function tx(stores, mode, body) {
    return db().then((d) => new Promise((resolve, reject) => {
      const t = d.transaction(stores, mode);
      const result = body(t);
      t.oncomplete = () => resolve(typeof result === "function" ? result() : result);
      t.onerror = t.onabort = () => reject(t.error || new Error("IndexedDB transaction failed"));
    }));
  }
  function got(request, sink) { request.onsuccess = () => sink(request.result); }
  const store = {
    add(item) {
      let key;
      return tx("outbox", "readwrite", (t) => { got(t.objectStore("outbox").add(item), (k) => { key = k; }); return () => key; });
    },
    items(frame) {
      let rows = [];
      return tx("outbox", "readonly", (t) => {
        got(t.objectStore("outbox").index("frame").getAll(frame), (r) => { rows = r.sort((a, b) => a.n - b.n); });
        return () => rows;
      });
    },
    put(item) { return tx("outbox", "readwrite", (t) => { t.objectStore("outbox").put(item); }); },
    // The phone's engine refused a queued item: mark it, unless it has left the outbox.
    refuse(n, error) {
      return tx("outbox", "readwrite", (t) => {
        const os = t.objectStore("outbox");
        got(os.get(n), (row) => {
          if (row && row.state === "queued" && !row.forced) { row.state = "rejected"; row.error = error; os.put(row); }
        });
      });
    },
    remove(keys) { return tx("outbox", "readwrite", (t) => { for (const k of keys) t.objectStore("outbox").delete(k); }); },
    discard(list, reason) {
      const at = new Date().toISOString();
      return tx(["outbox", "discarded"], "readwrite", (t) => {
        for (const it of list) {
          t.objectStore("discarded").put(Object.assign({}, it, { reason: reason, discarded_at: at }));
          t.objectStore("outbox").delete(it.n);
        }
      });
    },
    snap(frame) {
      let row;
      return tx("frames", "readonly", (t) => { got(t.objectStore("frames").get(frame), (r) => { row = r; }); return () => row; });
    },
    putSnap(s) { return tx("frames", "readwrite", (t) => { t.objectStore("frames").put(s); }); },
    // Read-modify-write of the frame's snapshot in one transaction (the poll, the drain
    // and other tabs all update it); `change` is synchronous.
    updateSnap(frame, fallback, change) {
      let row;
      return tx("frames", "readwrite", (t) => {
        const os = t.objectStore("frames");
        got(os.get(frame), (current) => { row = current || fallback; change(row); os.put(row); });
        return () => row;
      });
    },
    meta(key) {
      let row;
      return tx("meta", "readonly", (t) => { got(t.objectStore("meta").get(key), (r) => { row = r; }); return () => row && row.value; });
    },
    putMeta(key, value) { return tx("meta", "readwrite", (t) => { t.objectStore("meta").put({ key: key, value: value }); }); },
  };

  // -------------------------------------------------------------------- state
  // snap: {frame, base, server: {last_seq, top_seq, status, view, recent, confirmed}, conflict}
  //  base: the server seq the outbox is built on; the head item is sent as base + 1.
  let snap = null;
  let items = [];
  let deviceId = "";
  let sending = false;
  let netDown = !navigator.onLine;
  let loginNeeded = false;
  let backoff = 1000;
  let retryTimer = null;
  let pollTimer = null;
  let pollEtag = null;
  let sessionToken = null;
  let confirming = false;
  let inFlight = null; // the event id being sent
  let entered = 0; // events entered from the panels (MarkerPad.entered: tests wait on it)

  async function updateSnap(change) {
    snap = await store.updateSnap(FRAME, snap, change);
    return snap;
  }

  // A state read (the page, the poll) carries the engine's own state (`dump`, at last_seq),
  // the setup and the current choice sets; an event's answer carries only the view, so
  // `dump_seq` says which event the dump is for.
  function serverPart(state) {
    return {
      last_seq: state.last_seq, top_seq: state.top_seq, status: state.status, view: state.view,
      recent: state.recent || [], confirmed: !!state.confirmed,
      setup: state.setup || {}, dump: state.dump === undefined ? null : state.dump,
      dump_seq: state.last_seq, choices: state.choices || {},
    };
  }

  async function init() {
    deviceId = await store.meta("device");
    if (!deviceId) {
      deviceId = uuid();
      await store.putMeta("device", deviceId);
    }
    const page = serverPart(ctx.state);
    snap = (await store.snap(FRAME)) || { frame: FRAME, base: page.last_seq, server: page, conflict: null };
    if (page.last_seq >= snap.server.last_seq) snap.server = page; // a cached page may be older
    if (snap.server.dump_seq === undefined) snap.server = Object.assign(page, { recent: snap.server.recent }); // older phone copy
    items = await store.items(FRAME);
    if (!items.length && !snap.conflict) snap.base = snap.server.last_seq;
    await store.putSnap(snap);
    liveChoices = snap.server.choices || {};
    if (ctx.can_enter) buildControls();
    render();
    document.getElementById("pad").dataset.ready = "1";
    // The offline engine comes later, in the background: the pad is usable at once.
    const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 1200));
    if (ctx.can_enter) idle(() => startEngine(), { timeout: 3000 });
    window.addEventListener("online", () => { netDown = false; backoff = 1000; drain(); poll(); });
    window.addEventListener("offline", () => { netDown = true; render(); });
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) { if (loginNeeded) checkSession(); else drain(); poll(); }
      keepAwake();
    });
    window.addEventListener("focus", () => { if (loginNeeded) checkSession(); });
    drain();
    schedulePoll(1500);
  }

  // ------------------------------------------------------------------ sending
  function csrfToken() {
    const name = ctx.csrf_cookie + "=";
    const cookie = document.cookie.split(";").map((c) => c.trim()).find((c) => c.startsWith(name));
    return cookie ? decodeURIComponent(cookie.slice(name.length)) : sessionToken || "";
  }
  function postJson(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      cache: "no-store",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(body),
    });
  }

  async function enqueue(kind, payload) {
    wakeRefused = false; // a tap is a user gesture: ask for the wake lock again
    const item = {
      frame: FRAME, event_id: uuid(), kind: kind, payload: payload,
      created_at: new Date().toISOString(), state: "queued", error: null,
    };
    item.n = await store.add(item); // on the phone before anything goes out
    items.push(item);
    render();
    drain();
  }

  function drain() {
    if (!ctx.can_enter || sending) return Promise.resolve();
    if (navigator.locks && navigator.locks.request) {
      // Two tabs on one phone share the outbox: one drains at a time.
      return navigator.locks.request("marker-pad-drain-" + FRAME, { ifAvailable: true }, (lock) => (lock ? drainNow() : null));
    }
    return drainNow();
  }

  async function drainNow() {
    if (sending) return;
    sending = true;
    let csrfRetried = false;
    try {
      for (;;) {
        items = await store.items(FRAME);
        snap = (await store.snap(FRAME)) || snap;
        const head = items[0];
        if (!head || snap.conflict || head.state !== "queued" || loginNeeded) break;
        render();
        inFlight = head.event_id;
        let response;
        try {
          response = await postJson(ctx.urls.events, {
            event_id: head.event_id, expected_seq: snap.base + 1, kind: head.kind,
            payload: head.payload, device_id: deviceId,
          });
        } catch (err) {
          inFlight = null;
          netDown = true;
          scheduleRetry();
          break;
        } finally {
          inFlight = null;
        }
        netDown = false;
        let body = {};
        try { body = await response.json(); } catch (err) { body = {}; }
        const status = response.status;
        if (status === 201 || status === 200) {
          await store.remove([head.n]);
          await updateSnap((s) => absorbAnswer(s, body));
          backoff = 1000;
          continue;
        }
        if (status === 409) {
          await onConflict(body);
          if (snap.conflict) break;
          continue;
        }
        if (status === 403 || status === 401) {
          const csrfFailure = /csrf/i.test(body.message || "");
          if (csrfFailure && !csrfRetried) {
            csrfRetried = true;
            await checkSession();
            continue;
          }
          if (body.error === "not_authenticated" || csrfFailure) loginNeeded = true;
          else showNotAllowed(body.message || "You may not score this frame.");
          break;
        }
        if (status === 400 || status === 404 || status === 422) {
          head.state = "rejected";
          head.error = { status: status, error: body.error || "error", message: body.message || "" };
          await store.put(head);
          break;
        }
        scheduleRetry(response.headers.get("Retry-After")); // 5xx, 429, anything else
        break;
      }
    } finally {
      sending = false;
      inFlight = null;
      items = await store.items(FRAME);
      render();
    }
  }

  function scheduleRetry(retryAfter) {
    clearTimeout(retryTimer);
    const seconds = Number(retryAfter);
    const delay = seconds > 0 ? seconds * 1000 : backoff * (0.5 + Math.random());
    backoff = Math.min(backoff * 2, 30000);
    retryTimer = setTimeout(drain, delay);
    render();
  }

  function remember(s, event) {
    const recent = s.server.recent.filter((e) => e.seq !== event.seq);
    recent.push(event);
    recent.sort((a, b) => a.seq - b.seq);
    s.server.recent = recent.slice(-12);
  }

  function absorbAnswer(s, answer) {
    if (answer.seq >= s.server.last_seq) {
      s.server.last_seq = answer.seq;
      s.server.top_seq = answer.top_seq;
      s.server.view = answer.view;
      if (s.server.status === "scheduled") s.server.status = "in_play";
    }
    remember(s, {
      seq: answer.seq, event_id: answer.event_id, kind: answer.kind, payload: answer.payload,
      last: answer.view ? answer.view.last : null, entered_by: answer.entered_by,
    });
    s.sent = (s.sent || []).concat([answer.event_id]).slice(-200); // ids this phone got stored
    s.base = Math.max(s.base, answer.seq);
  }

  async function onConflict(body) {
    const mine = new Map(items.map((it) => [it.event_id, it]));
    const serverEvents = body.events || [];
    const ownStored = serverEvents.filter((e) => mine.has(e.event_id));
    if (ownStored.length) await store.remove(ownStored.map((e) => mine.get(e.event_id).n)); // stored: done
    await updateSnap((s) => {
      const sent = new Set(s.sent || []);
      const foreign = serverEvents.filter((e) => !mine.has(e.event_id) && !sent.has(e.event_id));
      if (body.last_seq >= s.server.last_seq) {
        Object.assign(s.server, { last_seq: body.last_seq, top_seq: body.top_seq, status: body.status, view: body.view });
      }
      serverEvents.forEach((e) => remember(s, e));
      s.sent = (s.sent || []).concat(ownStored.map((e) => e.event_id)).slice(-200);
      if (!foreign.length && body.last_seq >= s.base) {
        s.base = body.last_seq; // only this phone's own events were in between (another tab)
      } else {
        s.conflict = { events: foreign, last_seq: body.last_seq, base: s.base, at: new Date().toISOString() };
      }
    });
  }

  async function resolveConflict(keepMine) {
    items = await store.items(FRAME);
    if (!keepMine) await store.discard(items, "discarded by the referee after a conflict");
    await updateSnap((s) => {
      s.base = s.conflict ? s.conflict.last_seq : s.server.last_seq;
      s.conflict = null;
    });
    items = await store.items(FRAME);
    render();
    drain();
  }

  async function discardRejected(item) {
    await store.discard([item], "refused by the server: " + (item.error ? item.error.message : ""));
    items = await store.items(FRAME);
    render();
    drain();
  }

  async function retryRejected(item) {
    item.state = "queued";
    item.forced = !!(item.error && item.error.local); // the referee overrules the phone's engine
    item.error = null;
    await store.put(item);
    items = await store.items(FRAME);
    render();
    drain();
  }

  async function checkSession() {
    try {
      const r = await fetch(ctx.urls.session, { credentials: "same-origin", cache: "no-store" });
      const body = await r.json();
      sessionToken = body.csrf_token;
      const wasNeeded = loginNeeded;
      loginNeeded = !body.authenticated;
      render();
      if (wasNeeded && !loginNeeded) drain();
    } catch (err) {
      netDown = true;
    }
  }

  function showNotAllowed(message) {
    const box = $("#not-allowed");
    box.textContent = message + " Your shots stay on this phone.";
    box.hidden = false;
  }

  // ------------------------------------------------------------------ polling
  function schedulePoll(delay) {
    clearTimeout(pollTimer);
    pollTimer = setTimeout(poll, delay || (ctx.can_enter ? 3000 : 2000));
  }
  async function poll() {
    clearTimeout(pollTimer);
    if (document.hidden) return schedulePoll(5000);
    try {
      const headers = pollEtag ? { "If-None-Match": pollEtag } : {};
      const r = await fetch(ctx.urls.state, { credentials: "same-origin", cache: "no-store", headers: headers });
      netDown = false;
      if (r.status === 200) {
        pollEtag = r.headers.get("ETag");
        const state = await r.json();
        items = await store.items(FRAME);
        const empty = !items.length;
        await updateSnap((s) => {
          if (state.last_seq < s.server.last_seq) return;
          s.server = serverPart(state);
          if (empty && !s.conflict) s.base = state.last_seq;
        });
      }
    } catch (err) {
      netDown = true;
    }
    render();
    if (items.length && !sending && !snap.conflict) drain();
    schedulePoll();
  }

  // ------------------------------------------------------------ offline engine
  // The rules engine itself (the server's Python source, as a zip) on Pyodide, in a worker.
  // Loaded after the pad is interactive (or on the first shot while offline); when it is
  // missing or fails, the pad shows the last stored state and the waiting shots.
  const engine = { worker: null, state: "off", calls: new Map(), next: 1, key: null, asked: null, result: null };

  function startEngine() {
    if (!ctx.engine || engine.state !== "off" || !window.Worker) return;
    engine.state = "loading";
    try {
      engine.worker = new Worker(ctx.engine.worker);
    } catch (err) {
      engine.state = "failed";
      return;
    }
    engine.worker.onmessage = (event) => {
      const msg = event.data || {};
      if (msg.type === "ready") {
        engine.state = "ready";
        $("#pad").dataset.engine = "ready";
        keepEngineFiles();
        render();
      } else if (msg.type === "failed") {
        engine.state = "failed";
        $("#pad").dataset.engine = "failed";
        render();
      } else if (msg.type === "result") {
        const done = engine.calls.get(msg.id);
        engine.calls.delete(msg.id);
        if (done) done(msg);
      }
    };
    engine.worker.onerror = () => { engine.state = "failed"; render(); };
    engine.worker.postMessage({ type: "init", pyodide: ctx.engine.pyodide, zip: ctx.engine.zip });
  }

  // Ask the service worker to keep Pyodide and this engine for the next offline visit.
  function keepEngineFiles() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.ready.then((reg) => {
      if (reg.active) reg.active.postMessage({ type: "cache-engine", urls: ctx.engine.files.concat([ctx.engine.zip]) });
    }).catch(() => {});
  }

  function engineCall(body) {
    return new Promise((resolve) => {
      const id = engine.next++;
      engine.calls.set(id, resolve);
      engine.worker.postMessage(Object.assign({ type: "compute", id: id }, body));
    });
  }

  // The events the engine must apply on top of the server's dump: the stored ones after
  // the dump (from the answers this phone saw) and then the queued ones, up to the first
  // refused one. null when the stored ones are not all known.
  function engineInput(server, queued) {
    const tail = [];
    for (let seq = server.dump_seq + 1; seq <= server.last_seq; seq++) {
      const e = server.recent.find((r) => r.seq === seq);
      if (!e) return null;
      tail.push({ kind: e.kind, payload: e.payload || {} });
    }
    return { tail: tail, queued: queued };
  }

  function engineKey(server, queued) {
    return JSON.stringify([server.last_seq, server.dump_seq, server.top_seq, snap.base, queued.map((it) => it.event_id + (it.forced ? "!" : ""))]);
  }

  // The engine's view of the queued shots, when it is known for exactly these shots;
  // otherwise asks for it (render() runs again with the answer).
  function engineView(server, allQueued) {
    // A queued shot the server already holds (its answer not yet in: a poll or another
    // tab got there first) is in the dump or the stored events, not applied twice.
    const stored = new Set(server.recent.map((e) => e.event_id).concat(snap.sent || []));
    const queued = allQueued.filter((it) => !stored.has(it.event_id));
    // Only a queue built on exactly this server state may be judged (refused) here.
    const judge = snap.base === server.last_seq && queued.length === allQueued.length;
    if (!queued.length || engine.state !== "ready" || snap.conflict) return null;
    const key = engineKey(server, queued);
    if (engine.key === key) return engine.result;
    if (engine.asked !== key) {
      engine.asked = key;
      const input = engineInput(server, queued);
      if (!input) { engine.key = key; engine.result = null; return null; }
      engineCall({
        game_id: ctx.game_id, setup: server.setup, dump: server.dump,
        events: input.tail.concat(input.queued.map((it) => ({ kind: it.kind, payload: it.payload }))),
      }).then(async (answer) => {
        if (engine.asked !== key) return;
        engine.key = key;
        engine.result = answer.ok ? answer : null;
        if (answer.ok && answer.refused && judge) {
          const at = answer.refused.index - input.tail.length;
          const item = input.queued[at];
          if (at >= 0 && item && item.event_id !== inFlight && !item.forced) {
            await store.refuse(item.n, { status: 0, local: true, error: answer.refused.code, message: answer.refused.message });
            items = await store.items(FRAME);
          }
        }
        render();
      });
    }
    return null;
  }

  // ------------------------------------------------------------ screen awake
  // While a frame is in play on a scorer's phone; the browser drops the lock when the
  // page is hidden, so it is asked for again on visibilitychange.
  let wakeLock = null;
  let wakeBusy = false;
  let wakeRefused = false;
  function wakeWanted() {
    const server = snap && snap.server;
    return !!(ctx.can_enter && server && !document.hidden && !server.confirmed &&
      ["scheduled", "in_play"].includes(server.status) && !(server.view && server.view.over && !items.length));
  }
  async function keepAwake() {
    if (!("wakeLock" in navigator) || wakeBusy) return;
    const want = wakeWanted();
    if (want && !wakeLock && !(wakeRefused && document.hidden)) {
      wakeBusy = true;
      try {
        wakeLock = await navigator.wakeLock.request("screen");
        wakeRefused = false;
        wakeLock.addEventListener("release", () => { wakeLock = null; });
      } catch (err) {
        wakeLock = null;
        wakeRefused = true; // not allowed now (e.g. no user gesture yet): tried again on the next change
      } finally {
        wakeBusy = false;
      }
    } else if (!want && wakeLock) {
      const lock = wakeLock;
      wakeLock = null;
      lock.release().catch(() => {});
    }
  }

  // ------------------------------------------------------------------ display
  const Words = (code) => { const w = words(code); return w.charAt(0).toUpperCase() + w.slice(1); };
  const FOUL_CODES = new Set(vocab.fouls.map((f) => f.code));
  const partyLabel = (p) => (PARTIES[p] && PARTIES[p].label) || (p === null || p === undefined ? "" : String(p));
  const sideName = partyLabel;

  // Presentation presets by family: words and layout only, never rules.
  const PRESETS = {
    bar_billiards: {
      next: {
        break_off: "Break-off", play: "Play on", play_red: "Play the red",
        endgame: "Endgame: cushion first, 100 or 200 only", none: "Frame over",
      },
      // the pot's ball defaults to white; holes are the big buttons
      enterLabel(type, payload) {
        if (type !== "shot") return null;
        if ((payload.fouls || []).length) return "Enter foul";
        const pots = payload.pots || [];
        if (!pots.length) return "No score";
        return "Enter shot +" + pots.reduce((s, p) => s + p.hole * (p.ball === "red" ? 2 : 1), 0);
      },
      promote: { cushion: (view) => view.phase === "endgame" },
      demote: ["to_trough"], // the referee's tidying, rarely needed
      disabledValue(path, value, view) {
        return path === "shot.pots.hole" && view.phase === "endgame" && value !== 100 && value !== 200;
      },
      describe(p, last) {
        if (p.type === "bar_down") return "Bar down";
        if (p.type === "invoke_endgame") return "Endgame invoked";
        const parts = (p.pots || []).map((pot) => (pot.ball === "red" ? "Red " : "White ") + pot.hole);
        (p.fouls || []).forEach((f) => parts.push("foul: " + words(f)));
        (p.to_trough || []).forEach((b) => parts.push(b + " to trough"));
        if (p.cushion === false && (p.pots || []).length) parts.push("no cushion");
        let text = parts.join(", ") || "No score";
        if (last) {
          if (last.penalty) text += " (lost " + last.lost + (last.wiped ? ", wiped " + last.wiped : "") + ")";
          else if (last.points) text += " (+" + last.points + ")";
          if (last.banked) text += " · banked " + last.banked;
        }
        return text;
      },
    },
  };
  const PRESET = PRESETS[vocab.family] || {};

  function formatValue(key, v) {
    if (v === null || v === undefined) return "–";
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (key === "next" && PRESET.next && PRESET.next[v]) return PRESET.next[v];
    if (key === "at_table" || key === "winner") return partyLabel(v);
    if (Array.isArray(v)) return v.length ? v.map((x) => formatValue("", x)).join(", ") : "none";
    if (typeof v === "object") {
      const parts = Object.entries(v).map(([k, x]) => partyLabel(k) + " " + formatValue("", x));
      return parts.length ? parts.join(" · ") : "–";
    }
    if (typeof v === "string") return key === "next" || key === "on" || key === "phase" ? Words(v) : words(v);
    return String(v);
  }

  function describeValue(v) {
    if (Array.isArray(v)) return v.map(describeValue).join(" → ");
    if (v && typeof v === "object") return Object.values(v).map(describeValue).join(" ");
    if (typeof v === "boolean") return v ? "yes" : "no";
    return v === null ? "none" : words(v);
  }

  function describe(kind, payload, last) {
    if (kind === "undo") return "Undo";
    const p = payload || {};
    let text;
    if (PRESET.describe) text = PRESET.describe(p, last);
    else {
      const rest = Object.entries(p).filter(([k]) => k !== "type")
        .map(([k, v]) => (k === "fouls" ? "foul: " + v.map(words).join(", ")
          : v && typeof v === "object" && !Array.isArray(v) // keyed by a choice set: say the keys
            ? words(k) + " " + Object.entries(v).map(([key, x]) => partyLabel(key) + " " + describeValue(x)).join(", ")
            : words(k) + " " + describeValue(v)));
      text = Words(p.type || "event") + (rest.length ? ": " + rest.join("; ") : "");
    }
    const who = last && (last.player || partyLabel(last.side));
    return who ? who + ": " + text : text;
  }

  function statusText() {
    const waiting = items.length;
    if (snap.conflict) return ["conflict", "conflict"];
    if (items.some((it) => it.state === "rejected")) return ["refused", "refused"];
    if (sending) return ["syncing", "syncing"];
    if (waiting || netDown || loginNeeded) return ["saved", "saved on phone (" + waiting + " waiting)"];
    return ["online", "online"];
  }

  function render() {
    if (!snap) return;
    const [state, text] = statusText();
    const badge = $("#sync-status");
    badge.dataset.state = state;
    badge.dataset.waiting = String(items.length);
    badge.textContent = text;
    $("#login-needed").hidden = !loginNeeded;

    const server = snap.server;
    const firstRefused = items.findIndex((it) => it.state === "rejected");
    const queued = (firstRefused < 0 ? items : items.slice(0, firstRefused)).filter((it) => it.state === "queued");
    if (queued.length && netDown && engine.state === "off") startEngine(); // the first offline shot
    const computed = engineView(server, queued);
    const view = computed ? computed.view : server.view;
    const choices = computed ? computed.choices : server.choices || {};
    const note = $("#estimate");
    const n = items.filter((it) => it.state === "queued").length;
    note.hidden = !n;
    note.dataset.source = computed ? "engine" : "server";
    const shots = n + " shot" + (n === 1 ? "" : "s") + " not yet stored by the server";
    note.textContent = !n ? "" : computed
      ? "Worked out on this phone by the rules engine: " + shots + "."
      : "Showing the last stored state: " + shots + (engine.state === "loading" ? " (the engine is loading)." : ".");
    renderBoard(view);
    renderConflict();
    renderRejected();
    renderResult(server);
    renderHistory(server, items);
    updateControls(view, server, choices);
    if (wakeWanted() !== !!wakeLock && !wakeRefused) keepAwake();
  }

  function partiesOf(view) {
    if (view.scores && typeof view.scores === "object") return Object.keys(view.scores);
    const setup = snap.server.setup || {};
    if (Array.isArray(setup.players)) return setup.players.filter(Boolean);
    return Object.keys(PARTIES).filter((p) => !PARTIES[p].team);
  }

  function renderBoard(view) {
    const scores = view.scores || {};
    const board = $("#board");
    const parties = partiesOf(view);
    const key = parties.join("\u0001");
    if (board.dataset.parties !== key) {
      board.dataset.parties = key;
      board.classList.toggle("many", parties.length > 2);
      // A side: its team's name, then its players; a player: his team (if any), his name.
      board.replaceChildren(...parties.map((p) => h("div", { class: "side", data: { side: p, party: p } },
        h("span", { class: "team" }, PARTIES[p] && PARTIES[p].team ? PARTIES[p].team : partyLabel(p)),
        h("span", { class: "who" }), h("span", { class: "banked" }, "–"))));
    }
    for (const slot of board.querySelectorAll(".side")) {
      const party = slot.dataset.party;
      const atTable = view.at_table === party && !view.over;
      slot.classList.toggle("at-table", atTable);
      slot.classList.toggle("winner", !!view.over && view.winner === party);
      slot.querySelector(".banked").textContent = party in scores ? formatValue("", scores[party]) : "–";
      const info = PARTIES[party] || {};
      const players = info.players || [];
      const shown = info.team ? partyLabel(party) : players.length === 1 && players[0] === party ? "" : players.join(" & ");
      slot.querySelector(".who").textContent = atTable && view.player && view.player !== party ? view.player : shown;
    }
    // The game's own list of what a pad shows, with its labels.
    const display = (vocab.display || []).filter((d) => d.key !== "scores");
    const facts = $("#facts");
    if (facts.dataset.keys !== display.map((d) => d.key).join(",")) {
      facts.dataset.keys = display.map((d) => d.key).join(",");
      facts.replaceChildren(...display.map((d) => h("div", { data: { key: d.key } },
        h("dt", {}, d.label), h("dd", { id: "fact-" + d.key, data: { key: d.key } }, "–"))));
    }
    for (const d of display) {
      const row = facts.querySelector('div[data-key="' + d.key + '"]');
      const value = view[d.key];
      row.hidden = value === undefined || value === null;
      const dd = row.querySelector("dd");
      dd.textContent = view.over && d.key === "next" ? (PRESET.next && PRESET.next.none) || "Game over" : formatValue(d.key, value);
      dd.dataset.value = JSON.stringify(value === undefined ? null : value);
    }
  }

  function eventList(list, pending) {
    return h("ol", { class: "shots" }, list.map((e) =>
      h("li", { class: pending ? "pending" : "" }, describe(e.kind, e.payload, pending ? null : e.last))));
  }

  function renderConflict() {
    const box = $("#conflict");
    if (!snap.conflict) { box.hidden = true; box.replaceChildren(); return; }
    const queued = items.filter((it) => it.state === "queued");
    box.hidden = false;
    const discard = h("button", { class: "danger secondary", type: "button", id: "conflict-discard" }, "Discard my " + queued.length + " shot(s)");
    discard.addEventListener("click", () => {
      if (discard.dataset.armed) return resolveConflict(false);
      discard.dataset.armed = "1";
      discard.textContent = "Really discard " + queued.length + " shot(s)? Tap again";
    });
    box.replaceChildren(
      h("h2", {}, "Conflict: another device scored this frame"),
      h("p", {}, "The server took " + snap.conflict.events.length + " event(s) from another device while this phone held " + queued.length + ". Nothing has been dropped: choose what happens to this phone's shots."),
      h("div", { class: "versions" },
        h("div", { class: "version", id: "conflict-server" }, h("h3", {}, "On the server"), eventList(snap.conflict.events, false)),
        h("div", { class: "version", id: "conflict-local" }, h("h3", {}, "On this phone, not sent"), eventList(queued, true))),
      h("div", { class: "actions" },
        h("button", { type: "button", id: "conflict-keep", on: { click: () => resolveConflict(true) } }, "Add my shots after theirs"),
        discard));
  }

  function plainMessage(error) {
    if (!error) return "";
    const m = String(error.message || "").trim();
    if (!m) return Words(error.error || "refused");
    return m.charAt(0).toUpperCase() + m.slice(1) + (/[.!?]$/.test(m) ? "" : ".");
  }

  function renderRejected() {
    const box = $("#rejected");
    const bad = items.find((it) => it.state === "rejected");
    if (!bad) { box.hidden = true; box.replaceChildren(); return; }
    box.hidden = false;
    const local = bad.error && bad.error.local;
    const behind = items.filter((it) => it.n > bad.n).length;
    box.replaceChildren(
      h("h2", { id: "rejected-title" }, "Refused"),
      h("p", { class: "refused-shot" }, describe(bad.kind, bad.payload, null)),
      h("p", { class: "refused-why", id: "rejected-message" }, plainMessage(bad.error)),
      h("p", { class: "helptext" }, (local ? "The rules engine on this phone refused it; it has not been sent. "
        : "The server refused it. ") + (behind ? behind + " later shot(s) wait behind it. " : "") + "Discard it and enter what happened, or send it anyway."),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "danger secondary", id: "rejected-discard", on: { click: () => discardRejected(bad) } }, "Discard this shot"),
        h("button", { type: "button", class: "secondary", id: "rejected-retry", on: { click: () => retryRejected(bad) } }, local ? "Send it anyway" : "Try again")));
  }

  function renderResult(server) {
    const box = $("#result");
    const view = server.view;
    const pending = items.length > 0;
    if (!view.over || pending) { box.hidden = true; box.replaceChildren(); return; }
    box.hidden = false;
    const scores = view.scores || {};
    const line = Object.keys(scores).map((s) => partyLabel(s) + " " + formatValue("", scores[s])).join(" – ");
    const outcome = view.shared ? "Shared." : view.winner ? partyLabel(view.winner) + " wins." : "Over.";
    const parts = [h("h2", {}, vocab.family === "bar_billiards" ? "Frame over" : "Game over"), h("p", { class: "result", id: "result-line" }, line), h("p", {}, outcome)];
    if (server.status === "complete" || server.confirmed) {
      parts.push(h("p", {}, "Confirmed. "), h("a", { class: "button", href: ctx.urls.scorecard, id: "to-scorecard" }, ctx.match ? "Go to the scorecard" : "Back to the game"));
    } else if (ctx.can_enter) {
      parts.push(h("p", { class: "helptext" }, "Check the result with the players, then confirm. Undo if the last shot was wrong."));
      parts.push(h("button", { type: "button", id: "confirm-result", class: "big", disabled: confirming, on: { click: confirmResult } }, "Confirm result"));
    }
    box.replaceChildren(...parts);
  }

  async function confirmResult() {
    if (confirming) return;
    confirming = true;
    render();
    try {
      const r = await postJson(ctx.urls.confirm, { seq: snap.server.last_seq });
      const body = await r.json().catch(() => ({}));
      if (r.ok) {
        await updateSnap((s) => { s.server.status = "complete"; s.server.confirmed = true; });
        location.assign(ctx.urls.scorecard);
        return;
      }
      if (r.status === 403) loginNeeded = body.error === "not_authenticated" || loginNeeded;
      alertBox(body.message || "Could not confirm the result.");
      poll();
    } catch (err) {
      alertBox("Confirming needs the network. Your shots are safe on this phone.");
    } finally {
      confirming = false;
      render();
    }
  }

  function alertBox(message) {
    const box = $("#not-allowed");
    box.textContent = message;
    box.hidden = false;
    setTimeout(() => { box.hidden = true; }, 6000);
  }

  function renderHistory(server, outbox) {
    const list = $("#shots");
    const stored = server.recent.slice(-8).map((e) =>
      h("li", { data: { seq: String(e.seq) } }, h("span", { class: "seq" }, "#" + e.seq), " ", describe(e.kind, e.payload, e.last)));
    const pending = outbox.map((it) =>
      h("li", { class: it.state === "rejected" ? "pending refused" : "pending", data: { eventId: it.event_id } },
        h("span", { class: "seq" }, it.state === "rejected" ? "Refused" : "pending"), " ", describe(it.kind, it.payload, null)));
    list.replaceChildren(...pending.reverse(), ...stored.reverse());
  }

  // ----------------------------------------------------------------- controls
  // One control per field type, each {node, get() -> value | undefined, reset(),
  // refresh(view, choices), missing() -> label | null}:
  //   choices (str/int/number/bool/choices_from) -> a row of chips, one pressed
  //   union of choice-only variants              -> one row of all their values
  //   other unions                              -> a switch of the variants' controls
  //   int / number                              -> a number pad (minimum/maximum kept)
  //   list of choices                           -> tap in order (undo last, clear), or
  //                                                toggles when the order does not matter
  //   list of fouls                             -> the Foul group
  //   list of objects                           -> the item's pickers; tapping a value of its
  //                                                last required choice field adds the item
  //   object with fields                        -> its fields' controls
  //   str                                       -> a text box; anything else: JSON
  const controls = { panels: [], update: () => {} };
  let liveChoices = {};
  let liveView = {};

  const valueKey = (v) => (v === null ? "" : String(v));
  // A whole number in a short range (a ball 1 to 15) is a row of chips, not a number pad.
  const SHORT_RANGE = 16;
  function scalarChoices(f) {
    if (f.type === "bool") return [true, false];
    if (f.choices && f.choices.length) return f.choices;
    if (f.type === "int" && f.minimum !== null && f.maximum !== null && f.maximum - f.minimum < SHORT_RANGE) {
      return Array.from({ length: f.maximum - f.minimum + 1 }, (_, i) => f.minimum + i);
    }
    return null;
  }
  function choiceValues(f) {
    if (f.choices_from) return liveChoices[f.choices_from] || [];
    return scalarChoices(f);
  }
  function flatUnion(f) {
    if (f.type !== "union" || !f.variants.length) return null;
    const all = [];
    for (const v of f.variants) {
      if (v.type === "list" || v.type === "object") return null;
      const values = v.choices_from ? liveChoices[v.choices_from] || [] : scalarChoices(v);
      if (!values) return null;
      all.push(...values);
    }
    return all;
  }
  const isChoice = (f) => !!(f.choices_from || scalarChoices(f) || flatUnion(f));
  const isFouls = (f) => f.type === "list" && f.item && f.item.choices && f.item.choices.length &&
    f.item.choices.every((c) => FOUL_CODES.has(c)) && vocab.fouls.length > 0;
  const label = (f) => Words(f.name);

  function chipsControl(f, path, opts) {
    const o = opts || {};
    let picked; // undefined: nothing; null: "none"
    const row = h("div", { class: "chips-row" + (o.big ? " big-grid" : ""), role: "group", "aria-label": label(f) });
    const valuesOf = () => (o.values ? o.values() : flatUnion(f) || choiceValues(f) || []);
    let shownKey = null;
    function build() {
      const values = valuesOf();
      const key = JSON.stringify(values);
      if (key === shownKey) return;
      shownKey = key;
      const buttons = values.map((v) => h("button", {
        type: "button", class: "pick" + (o.big ? " big-pick" : "") + (o.ballClass ? " ball ball-" + valueKey(v) : ""),
        "aria-pressed": "false", data: { value: valueKey(v), type: typeof v },
        on: { click: () => { if (o.onPick) return o.onPick(v); picked = picked === v ? undefined : v; sync(); } },
      }, typeof v === "boolean" ? (v ? "Yes" : "No") : o.labelOf ? o.labelOf(v) : partyOrWord(f, v)));
      if (f.nullable && !o.onPick && f.type !== "bool" && (f.required || /\bnull\b/.test(f.doc || ""))) {
        buttons.push(h("button", {
          type: "button", class: "pick none", "aria-pressed": "false", data: { value: "", null: "1" },
          on: { click: () => { picked = picked === null ? undefined : null; sync(); } },
        }, "None"));
      }
      row.replaceChildren(...buttons);
      if (picked !== undefined && picked !== null && !values.includes(picked)) picked = undefined;
    }
    function sync() {
      row.querySelectorAll("button.pick").forEach((b) => {
        const on = picked === null ? b.dataset.null === "1" : picked !== undefined && !b.dataset.null && b.dataset.value === valueKey(picked);
        b.setAttribute("aria-pressed", String(!!on));
      });
      if (o.onChange) o.onChange();
      changed();
    }
    build();
    return {
      node: row,
      get: () => picked,
      set: (v) => { picked = v; sync(); },
      reset: () => { picked = o.initial !== undefined ? o.initial : undefined; sync(); },
      refresh: (view) => {
        build();
        sync();
        if (PRESET.disabledValue) row.querySelectorAll("button.pick").forEach((b) => {
          const v = valuesOf().find((x) => valueKey(x) === b.dataset.value);
          b.disabled = v !== undefined && PRESET.disabledValue(path, v, view);
        });
      },
      missing: () => (f.required && picked === undefined ? label(f) : null),
    };
  }
  function partyOrWord(f, v) {
    if (f.choices_from) return partyLabel(v);
    return words(v);
  }

  function numberPad(f) {
    let text = "";
    const out = h("output", { class: "number-value", "aria-live": "polite" }, "–");
    const hint = [f.minimum !== null ? "from " + f.minimum : null, f.maximum !== null ? "up to " + f.maximum : null].filter(Boolean).join(", ");
    const key = (k, text_, fn) => h("button", {
      type: "button", class: "key", data: { key: k }, "aria-label": k === "back" ? "Delete" : k, on: { click: fn },
    }, text_);
    const value = () => (text === "" || text === "-" ? undefined : Number(text));
    function press(k) {
      let next = text;
      if (k === "back") next = text.slice(0, -1);
      else if (k === "clear") next = "";
      else if (k === "-") next = text.startsWith("-") ? text.slice(1) : "-" + text;
      else if (k === ".") next = text.includes(".") ? text : (text || "0") + ".";
      else next = text === "0" ? k : text + k;
      const n = Number(next);
      if (next !== "" && next !== "-" && f.maximum !== null && n > f.maximum) return;
      text = next;
      sync();
    }
    const keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"];
    const pad = h("div", { class: "numpad" },
      keys.map((k) => key(k, k, () => press(k))),
      f.type === "number" ? key(".", ".", () => press(".")) : null,
      f.minimum === null || f.minimum < 0 ? key("-", "±", () => press("-")) : null,
      key("back", "⌫", () => press("back")));
    function sync() {
      const v = value();
      out.textContent = text === "" ? "–" : text;
      out.classList.toggle("bad", v !== undefined && f.minimum !== null && v < f.minimum);
      changed();
    }
    return {
      node: h("div", { class: "number" }, h("div", { class: "number-top" }, out, hint ? h("span", { class: "helptext" }, hint) : null), pad),
      get: value,
      reset: () => { text = ""; sync(); },
      refresh: () => {},
      missing: () => {
        const v = value();
        if (v !== undefined && f.minimum !== null && v < f.minimum) return label(f) + " " + hint;
        return f.required && v === undefined ? label(f) : null;
      },
    };
  }

  function foulGroup(f) {
    let picked = [];
    const button = (foul) => h("button", {
      type: "button", class: "foul", title: foul.doc, "aria-pressed": "false", data: { foul: foul.code, value: foul.code },
      on: { click: () => { const i = picked.indexOf(foul.code); if (i >= 0) picked.splice(i, 1); else picked.push(foul.code); sync(); } },
    }, words(foul.code));
    const codes = new Set(f.item.choices);
    const fouls = vocab.fouls.filter((x) => codes.has(x.code));
    const common = fouls.filter((x) => x.common);
    const rest = fouls.filter((x) => !x.common);
    const node = h("section", { class: "foul-group", role: "group", "aria-labelledby": "foul-heading-" + f.name },
      h("h3", { class: "foul-heading" }, "Foul"),
      h("div", { class: "fouls common" }, (common.length ? common : fouls.slice(0, 4)).map(button)),
      (common.length ? rest : fouls.slice(4)).length
        ? h("details", { class: "more-fouls" }, h("summary", {}, "Other fouls"), h("div", { class: "fouls" }, (common.length ? rest : fouls.slice(4)).map(button)))
        : null);
    function sync() {
      node.querySelectorAll("button.foul").forEach((b) => b.setAttribute("aria-pressed", String(picked.includes(b.dataset.foul))));
      node.classList.toggle("active", picked.length > 0);
      changed();
    }
    return {
      node: node, foul: true,
      get: () => (picked.length ? picked.slice() : undefined),
      reset: () => { picked = []; sync(); },
      refresh: () => {},
      missing: () => null,
    };
  }

  // A list of choices: in order (each tap appends; undo last, clear) or a set (toggles).
  function choiceList(f, path) {
    const item = f.item;
    const doc = (f.doc || "") + " " + (item.doc || "");
    const ordered = /order|sequence|once per|per ball/i.test(doc);
    let picked = [];
    const values = () => flatUnion(item) || choiceValues(item) || [];
    const chips = chipsControl(item, path, {
      values: values,
      onPick: (v) => {
        if (ordered) picked.push(v);
        else { const i = picked.indexOf(v); if (i >= 0) picked.splice(i, 1); else picked.push(v); }
        sync();
      },
      labelOf: (v) => (item.choices_from ? partyLabel(v) : words(v)),
    });
    const seq = h("div", { class: "sequence", "aria-live": "polite" });
    const undo = h("button", { type: "button", class: "small secondary", data: { act: "undo-last" }, on: { click: () => { picked.pop(); sync(); } } }, "Undo last");
    const clear = h("button", { type: "button", class: "small secondary", data: { act: "clear" }, on: { click: () => { picked = []; sync(); } } }, "Clear");
    function sync() {
      chips.node.querySelectorAll("button.pick").forEach((b) => {
        const count = picked.filter((v) => valueKey(v) === b.dataset.value).length;
        b.setAttribute("aria-pressed", String(count > 0));
        b.dataset.count = count > 1 ? String(count) : "";
      });
      seq.textContent = picked.length ? picked.map((v) => (item.choices_from ? partyLabel(v) : words(v))).join(ordered ? " → " : ", ") : "";
      undo.hidden = clear.hidden = !picked.length || !ordered;
      changed();
    }
    return {
      node: h("div", { class: "choice-list" + (ordered ? " ordered" : "") }, chips.node, h("div", { class: "sequence-row" }, seq, undo, clear)),
      get: () => (picked.length ? picked.slice() : undefined),
      reset: () => { picked = []; sync(); },
      refresh: (view) => { chips.refresh(view); sync(); },
      missing: () => (f.required && !picked.length ? label(f) : null),
    };
  }

  // A list of objects: the item's fields; a tap on a value of its last required choice
  // field adds the item (bar billiards: pick the ball, tap the hole).
  function objectList(f, path) {
    const item = f.item;
    let list = [];
    const fields = item.fields;
    const commitField = [...fields].reverse().find((x) => x.required && x.type !== "union" && (scalarChoices(x) || x.choices_from)) ||
      [...fields].reverse().find((x) => x.required && isChoice(x));
    const others = fields.filter((x) => x !== commitField);
    const subs = others.map((x) => {
      const values = flatUnion(x) || choiceValues(x);
      const first = x.required && values && values.length && x.type !== "union" ? values[0] : undefined;
      const c = fieldControl(x, path + "." + x.name, { initial: first });
      c.node.dataset.sub = x.name;
      return { field: x, c: c };
    });
    const chips = h("div", { class: "chips", "aria-live": "polite" });
    function add(extra) {
      const obj = {};
      for (const s of subs) { const v = s.c.get(); if (v !== undefined) obj[s.field.name] = v; }
      Object.assign(obj, extra);
      const need = fields.filter((x) => x.required && !(x.name in obj));
      if (need.length) { chips.dataset.need = need.map((x) => x.name).join(","); return; }
      list.push(obj);
      subs.forEach((s) => s.c.reset());
      sync();
    }
    let commit;
    if (commitField) {
      commit = chipsControl(commitField, path + "." + commitField.name, {
        big: true, onPick: (v) => add({ [commitField.name]: v }),
        ballClass: false,
      });
      commit.node.dataset.sub = commitField.name;
      commit.node.classList.add("commit");
    }
    const addButton = commitField ? null : h("button", { type: "button", class: "secondary", data: { act: "add" }, on: { click: () => add({}) } }, "Add " + words(item.name));
    function sync() {
      chips.replaceChildren(...list.map((obj, i) => h("button", {
        type: "button", class: "chip", "aria-label": "Remove " + describeValue(obj),
        on: { click: () => { list.splice(i, 1); sync(); } },
      }, fields.map((x) => (x.name in obj ? describeValue(obj[x.name]) : null)).filter(Boolean).join(" ") + " ×")));
      changed();
    }
    const node = h("div", { class: "object-list" },
      subs.map((s) => wrap(s.field, s.c.node, true)),
      commit ? h("span", { class: "field-label sub-label" }, Words(commitField.name) + (subs.length ? " (a tap adds the " + words(item.name) + ")" : "")) : null,
      commit ? commit.node : null, addButton, chips);
    subs.forEach((s) => s.c.reset());
    return {
      node: node,
      get: () => (list.length ? list.map((o) => Object.assign({}, o)) : undefined),
      reset: () => { list = []; subs.forEach((s) => s.c.reset()); sync(); },
      refresh: (view) => { subs.forEach((s) => s.c.refresh(view)); if (commit) commit.refresh(view); },
      missing: () => (f.required && !list.length ? label(f) : null),
    };
  }

  function unionSwitch(f, path) {
    let active = 0;
    const parts = f.variants.map((v) => fieldControl(v, path));
    const tabs = f.variants.map((v, i) => h("button", {
      type: "button", class: "variant", "aria-pressed": String(i === 0), data: { variant: v.name },
      on: { click: () => { active = i; sync(); } },
    }, words(v.name)));
    function sync() {
      tabs.forEach((t, i) => t.setAttribute("aria-pressed", String(i === active)));
      parts.forEach((p, i) => { p.node.hidden = i !== active; });
      changed();
    }
    sync();
    return {
      node: h("div", { class: "union" }, h("div", { class: "variants", role: "group" }, tabs), parts.map((p) => p.node)),
      get: () => parts[active].get(),
      reset: () => { parts.forEach((p) => p.reset()); active = 0; sync(); },
      refresh: (view) => parts.forEach((p) => p.refresh(view)),
      missing: () => (f.required && parts[active].get() === undefined ? label(f) : null),
    };
  }

  function objectFields(f, path) {
    const subs = f.fields.map((x) => ({ field: x, c: fieldControl(x, path + "." + x.name) }));
    subs.forEach((s) => { s.c.node.dataset.sub = s.field.name; });
    return {
      node: h("div", { class: "object" }, subs.map((s) => wrap(s.field, s.c.node, true))),
      get: () => {
        const obj = {};
        for (const s of subs) { const v = s.c.get(); if (v !== undefined) obj[s.field.name] = v; }
        return Object.keys(obj).length ? obj : undefined;
      },
      reset: () => subs.forEach((s) => s.c.reset()),
      refresh: (view) => subs.forEach((s) => s.c.refresh(view)),
      // An optional object left empty is left out; once begun, its required fields count.
      missing: () => {
        const begun = subs.some((s) => s.c.get() !== undefined);
        if (!begun && !f.required) return null;
        for (const s of subs) { const m = s.c.missing(); if (m) return label(f) + ": " + m.toLowerCase(); }
        return null;
      },
    };
  }

  // An object with free keys from a choice set (pins down by compartment): one stepper a
  // key, counted from nothing (the key left out) up; other item types get their control.
  function keyedObject(f, path) {
    let values = {};
    const rows = h("div", { class: "keyed" });
    let shownKey = null;
    const stepper = f.item.type === "int" || f.item.type === "number";
    function build() {
      const keys = liveChoices[f.choices_from] || [];
      const key = JSON.stringify(keys);
      if (key === shownKey) return;
      shownKey = key;
      rows.replaceChildren(...keys.map((k) => {
        const out = h("output", { class: "count" }, "–");
        const step = (d) => {
          const lo = f.item.minimum !== null ? f.item.minimum : 0;
          const cur = values[k];
          let next = cur === undefined ? (d > 0 ? Math.max(lo, 1) : undefined) : cur + d;
          if (next !== undefined && next < lo) next = undefined;
          if (next !== undefined && f.item.maximum !== null && next > f.item.maximum) return;
          if (next === undefined) delete values[k]; else values[k] = next;
          sync();
        };
        return h("div", { class: "keyed-row", data: { key: String(k) } },
          h("span", { class: "keyed-label" }, partyOrWord(f, k)),
          h("button", { type: "button", class: "secondary step", data: { step: "-" }, "aria-label": "less " + k, on: { click: () => step(-1) } }, "−"),
          out,
          h("button", { type: "button", class: "secondary step", data: { step: "+" }, "aria-label": "more " + k, on: { click: () => step(1) } }, "+"));
      }));
      sync();
    }
    function sync() {
      rows.querySelectorAll(".keyed-row").forEach((r) => {
        const v = values[r.dataset.key];
        r.querySelector("output").textContent = v === undefined ? "–" : String(v);
      });
      changed();
    }
    if (!stepper) return textControl(f, true);
    build();
    return {
      node: rows,
      get: () => (Object.keys(values).length ? Object.assign({}, values) : f.required ? {} : undefined),
      reset: () => { values = {}; sync(); },
      refresh: () => build(),
      missing: () => null,
    };
  }

  function textControl(f, json) {
    const input = json
      ? h("textarea", { rows: "2", placeholder: f.type === "list" ? "[ ]" : "{ }" })
      : h("input", { type: "text" });
    input.addEventListener("input", () => changed());
    return {
      node: input,
      get: () => {
        if (!input.value.trim()) return undefined;
        if (!json) return input.value;
        try { return JSON.parse(input.value); } catch (err) { return input.value; }
      },
      reset: () => { input.value = ""; },
      refresh: () => {},
      missing: () => (f.required && !input.value.trim() ? label(f) : null),
    };
  }

  function fieldControl(f, path, opts) {
    if (isFouls(f)) return foulGroup(f);
    if (f.type === "object" && !f.fields.length && f.item && f.choices_from) return keyedObject(f, path);
    if (f.type === "list" && f.item && isChoice(f.item)) return choiceList(f, path);
    if (f.type === "list" && f.item && f.item.type === "object" && f.item.fields.length) return objectList(f, path);
    if (isChoice(f)) return chipsControl(f, path, opts);
    if (f.type === "union") return unionSwitch(f, path);
    if (f.type === "int" || f.type === "number") return numberPad(f);
    if (f.type === "object" && f.fields.length) return objectFields(f, path);
    if (f.type === "str") return textControl(f, false);
    return textControl(f, true);
  }

  function wrap(f, node, sub) {
    return h("div", { class: "field", title: f.doc, data: sub ? { sub: f.name } : { field: f.name } },
      h("span", { class: "field-label" }, label(f) + (f.required ? "" : "")), node);
  }

  let changed = () => {};

  function primaryEvent() {
    const withFields = vocab.events.filter((e) => e.fields.length);
    for (const name of ["stroke", "shot", "ball", "throw", "turn", "visit", "roll"]) {
      const ev = withFields.find((e) => e.type === name);
      if (ev) return ev;
    }
    return withFields[0] || null;
  }

  function buildControls() {
    const root = $("#controls");
    if (!root) return;
    const primary = primaryEvent();
    const formEvents = vocab.events.filter((e) => e.fields.length);
    const actions = vocab.events.filter((e) => !e.fields.length);
    const tabs = h("div", { class: "event-tabs", id: "event-tabs", role: "tablist", hidden: formEvents.length < 2 });
    let current = primary;

    const panels = formEvents.map((ev) => {
      const fouls = ev.fields.filter(isFouls);
      const rest = ev.fields.filter((f) => !isFouls(f));
      const many = ev.fields.length > 3;
      const lists = rest.filter((f) => f.type === "list").slice(0, 2); // what was hit, what went down
      const primaryField = (f) => !(PRESET.demote || []).includes(f.name) &&
        (!many || f.required || lists.includes(f) || (PRESET.promote && f.name in PRESET.promote));
      const entries = rest.map((f) => ({ field: f, c: fieldControl(f, ev.type + "." + f.name) }));
      const shown = entries.filter((e) => primaryField(e.field));
      const more = entries.filter((e) => !primaryField(e.field));
      const foulControls = fouls.map((f) => ({ field: f, c: fieldControl(f, ev.type + "." + f.name) }));
      foulControls.forEach((e) => { e.c.node.dataset.field = e.field.name; });
      const enter = h("button", { type: "button", class: "enter big", data: { enter: ev.type }, on: { click: () => send() } }, "Enter " + words(ev.type));
      const moreBox = more.length ? h("details", { class: "more", data: { more: ev.type } },
        h("summary", {}, "More: " + more.map((e) => words(e.field.name)).join(", ")), more.map((e) => wrap(e.field, e.c.node))) : null;
      const promoted = new Map();
      const panel = h("div", { class: "event-panel", role: "tabpanel", data: { type: ev.type }, title: ev.doc },
        shown.map((e) => { const w = wrap(e.field, e.c.node); promoted.set(e.field.name, w); return w; }),
        moreBox, foulControls.map((e) => e.c.node), enter);
      const all = entries.concat(foulControls);
      function payload() {
        const p = { type: ev.type };
        for (const e of all) { const v = e.c.get(); if (v !== undefined) p[e.field.name] = v; }
        return p;
      }
      function missing() { for (const e of all) { const m = e.c.missing(); if (m) return m; } return null; }
      function send() {
        if (enter.disabled || missing()) return;
        const p = payload();
        entered += 1;
        all.forEach((e) => e.c.reset());
        enqueue("event", p);
        if (ev !== primary) select(primary);
      }
      function label_() {
        const need = missing();
        enter.disabled = !!need || panelDisabled;
        const preset = PRESET.enterLabel ? PRESET.enterLabel(ev.type, payload()) : null;
        enter.textContent = panelDisabled ? (vocab.family === "bar_billiards" ? "Frame over" : "Game over")
          : need ? "Choose " + need.toLowerCase() : preset || "Enter " + words(ev.type);
      }
      let panelDisabled = false;
      return {
        ev: ev, panel: panel, all: all, label: label_,
        refresh(view, over) {
          panelDisabled = over;
          panel.classList.toggle("closed", over);
          panel.querySelectorAll("button, input, textarea").forEach((b) => {
            if (b === enter) return;
            if (over) { b.dataset.wasDisabled = b.disabled ? "1" : ""; b.disabled = true; } else if (b.dataset.wasDisabled !== undefined) { b.disabled = b.dataset.wasDisabled === "1"; delete b.dataset.wasDisabled; }
          });
          if (!over) all.forEach((e) => e.c.refresh(view));
          if (PRESET.promote) for (const [name, when] of Object.entries(PRESET.promote)) {
            const entry = entries.find((e) => e.field.name === name);
            if (!entry) continue;
            const w = promoted.get(name);
            if (w) w.hidden = !when(view);
          }
          label_();
        },
      };
    });

    function select(ev) {
      current = ev;
      for (const p of panels) p.panel.hidden = p.ev !== ev;
      tabs.querySelectorAll("button").forEach((b) => b.setAttribute("aria-selected", String(b.dataset.type === ev.type)));
    }
    formEvents.forEach((ev) => tabs.append(h("button", {
      type: "button", role: "tab", class: "event-tab", data: { type: ev.type }, title: ev.doc,
      on: { click: () => select(ev) },
    }, Words(ev.type))));

    const undo = h("button", { type: "button", class: "secondary", id: "undo", on: { click: () => enqueue("undo", {}) } }, "Undo");
    const actionButtons = actions.map((ev) => h("button", {
      type: "button", class: "secondary action", id: ev.type.replace(/_/g, "-"), data: { action: ev.type }, title: ev.doc,
      on: { click: () => enqueue("event", { type: ev.type }) },
    }, Words(ev.type)));
    root.append(tabs, ...panels.map((p) => p.panel), h("div", { class: "row actions-row" }, undo, actionButtons));
    changed = () => panels.forEach((p) => p.label());
    if (primary) select(primary);
    controls.panels = panels;
    controls.update = (view, server, closedNow) => {
      const over = !!view.over || closedNow;
      panels.forEach((p) => p.refresh(view, over));
      actionButtons.forEach((b) => {
        const type = b.dataset.action;
        const can = view["can_" + type];
        const done = view[type] === true;
        b.hidden = (can === false) || done || (over && can !== true);
        b.disabled = false;
      });
      undo.disabled = closedNow;
    };
  }

  function updateControls(view, server, choices) {
    const root = $("#controls");
    if (!root) return;
    const closed = server.status === "complete" || server.status === "conceded" || server.confirmed;
    root.hidden = closed;
    liveChoices = choices || {};
    liveView = view;
    controls.update(view, server, closed);
  }

  // A small handle for people debugging on a phone, and for the browser tests.
  window.MarkerPad = {
    outbox: () => store.items(FRAME),
    discarded: () => tx("discarded", "readonly", (t) => { let rows = []; got(t.objectStore("discarded").getAll(), (r) => { rows = r; }); return () => rows; }),
    drain: drain,
    engine: () => engine.state,
    // Pyodide and the engine zip are all in the service worker's caches (offline-ready).
    engineCached: () => (!ctx.engine || !window.caches ? Promise.resolve(false)
      : Promise.all(ctx.engine.files.concat([ctx.engine.zip]).map((u) => caches.match(u)))
        .then((found) => found.every(Boolean))),
    startEngine: startEngine,
    // Events entered from the panels on this page (the controls have taken the tap).
    entered: () => entered,
    shownView: () => {
      const facts = {};
      document.querySelectorAll("#facts dd").forEach((dd) => { if (!dd.parentElement.hidden) facts[dd.dataset.key] = JSON.parse(dd.dataset.value); });
      const scores = {};
      document.querySelectorAll("#board .side").forEach((s) => { scores[s.dataset.party] = s.querySelector(".banked").textContent; });
      return { facts: facts, scores: scores, source: $("#estimate").dataset.source || "server" };
    },
  };

  init();
})();
