/* Marker referee pad. Vanilla JS, no build step; CSP-clean (no inline code or styles).
 *
 * Offline first: every event is written to an IndexedDB outbox BEFORE any network call,
 * then sent strictly in order (one at a time) with the sequence number it expects to take.
 * The server is authoritative: the pad shows the engine's answers; events still on the
 * phone are listed as pending (for bar billiards with a clearly marked estimate).
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

  async function updateSnap(change) {
    snap = await store.updateSnap(FRAME, snap, change);
    return snap;
  }

  function serverPart(state) {
    return {
      last_seq: state.last_seq, top_seq: state.top_seq, status: state.status, view: state.view,
      recent: state.recent || [], confirmed: !!state.confirmed,
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
    items = await store.items(FRAME);
    if (!items.length && !snap.conflict) snap.base = snap.server.last_seq;
    await store.putSnap(snap);
    if (ctx.can_enter) buildControls();
    render();
    document.getElementById("pad").dataset.ready = "1";
    window.addEventListener("online", () => { netDown = false; backoff = 1000; drain(); poll(); });
    window.addEventListener("offline", () => { netDown = true; render(); });
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) { if (loginNeeded) checkSession(); else drain(); poll(); }
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
        let response;
        try {
          response = await postJson(ctx.urls.events, {
            event_id: head.event_id, expected_seq: snap.base + 1, kind: head.kind,
            payload: head.payload, device_id: deviceId,
          });
        } catch (err) {
          netDown = true;
          scheduleRetry();
          break;
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

  // ---------------------------------------------------------- pending estimate
  // Bar billiards only, and only for display: what the queued shots would do to the
  // score (pots build the break, a clean miss banks it, a foul loses it). The server's
  // answer replaces it as soon as the shots are stored.
  const PENALTY = Object.fromEntries(vocab.fouls.map((f) => [f.code, f.penalty]));
  function estimate(view, pending) {
    if (!BAR_BILLIARDS) return null;
    let v = JSON.parse(JSON.stringify(view));
    const stack = [];
    for (const it of pending) {
      if (it.kind === "undo") {
        if (!stack.length) return null; // undoing a stored shot: wait for the server
        v = stack.pop();
        continue;
      }
      stack.push(JSON.parse(JSON.stringify(v)));
      const p = it.payload;
      if (p.type === "bar_down") { v.bar_down = true; continue; }
      if (p.type !== "shot" || v.over) return null;
      const sides = Object.keys(v.scores);
      const at = v.at_table;
      const other = sides.find((s) => s !== at);
      const fouls = p.fouls || [];
      const pots = p.pots || [];
      const noCushion = v.phase === "endgame" && pots.length && p.cushion === false;
      if (fouls.length || noCushion) {
        if (noCushion || fouls.some((f) => PENALTY[f] === "entire_score")) v.scores[at] = 0;
        v.break = 0;
        v.at_table = other;
        v.player = null;
      } else if (pots.length) {
        v.break += pots.reduce((sum, pot) => sum + pot.hole * (pot.ball === "red" ? 2 : 1), 0);
        if (v.phase === "endgame") return null; // an endgame pot ends the frame
      } else {
        v.scores[at] += v.break;
        v.break = 0;
        v.at_table = other;
        v.player = null;
      }
      v.next = "unknown";
    }
    return v;
  }

  // ------------------------------------------------------------------ display
  const NEXT = {
    break_off: "Break-off", play: "Play on", play_red: "Play the red",
    endgame: "Endgame: cushion first, 100 or 200 only", none: "Frame over", unknown: "…",
  };
  const sides = ctx.state.sides || {};
  const sideName = (side) => (sides[side] && sides[side].team) || side || "";

  function describe(kind, payload, last) {
    if (kind === "undo") return "Undo";
    const p = payload || {};
    let text;
    if (BAR_BILLIARDS) {
      if (p.type === "bar_down") return "Bar down";
      if (p.type === "invoke_endgame") return "Endgame invoked";
      const parts = (p.pots || []).map((pot) => (pot.ball === "red" ? "Red " : "White ") + pot.hole);
      (p.fouls || []).forEach((f) => parts.push("foul: " + words(f)));
      (p.to_trough || []).forEach((b) => parts.push(b + " to trough"));
      if (p.cushion === false && (p.pots || []).length) parts.push("no cushion");
      text = parts.join(", ") || "No score";
      if (last) {
        if (last.penalty) text += " (lost " + last.lost + (last.wiped ? ", wiped " + last.wiped : "") + ")";
        else if (last.points) text += " (+" + last.points + ")";
        if (last.banked) text += " · banked " + last.banked;
      }
    } else {
      const rest = Object.entries(p).filter(([k]) => k !== "type").map(([k, v]) => k + " " + JSON.stringify(v));
      text = words(p.type || "event") + (rest.length ? ": " + rest.join(", ") : "");
    }
    const who = last && (last.player || sideName(last.side));
    return who ? who + ": " + text : text;
  }

  function statusText() {
    const waiting = items.length;
    if (snap.conflict || items.some((it) => it.state === "rejected")) return ["conflict", "conflict"];
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
    const queued = items.filter((it) => it.state === "queued");
    const est = queued.length && !snap.conflict ? estimate(server.view, queued) : null;
    const view = est || server.view;
    const note = $("#estimate");
    note.hidden = !queued.length;
    note.textContent = queued.length
      ? (est ? "Estimate: " : "Showing the last stored state: ") + queued.length + " shot" + (queued.length === 1 ? "" : "s") + " not yet stored by the server."
      : "";
    renderBoard(view);
    renderConflict();
    renderRejected();
    renderResult(server);
    renderHistory(server, items);
    updateControls(view, server);
  }

  function renderBoard(view) {
    const scores = view.scores || {};
    const board = $("#board");
    const parties = Object.keys(scores);
    let slots = Array.from(board.querySelectorAll(".side"));
    if (!BAR_BILLIARDS && parties.length && !parties.every((p) => board.querySelector('[data-side="' + p + '"]'))) {
      board.replaceChildren(...parties.map((p) => h("div", { class: "side", data: { side: p } },
        h("span", { class: "team" }, sideName(p)), h("span", { class: "who" }), h("span", { class: "banked" }))));
      slots = Array.from(board.querySelectorAll(".side"));
    }
    for (const slot of slots) {
      const side = slot.dataset.side;
      const atTable = view.at_table === side && !view.over;
      slot.classList.toggle("at-table", atTable);
      slot.querySelector(".banked").textContent = side in scores ? String(scores[side]) : "–";
      const players = (sides[side] && sides[side].players) || [];
      slot.querySelector(".who").textContent = atTable && view.player ? view.player : players.join(" & ");
    }
    const running = view.break !== undefined ? view.break : view.run;
    $("#break").textContent = running !== undefined ? String(running) : "–";
    $("#next").textContent = view.over ? NEXT.none : NEXT[view.next] || words(view.next || view.on || "–");
    if (!BAR_BILLIARDS) {
      // Any other game: its other simple facts, as the engine names them.
      const shown = new Set(["game", "over", "winner", "shared", "scores", "at_table", "player", "events", "last", "next", "break", "run", "on"]);
      const extra = Object.entries(view).filter(([k, v]) => !shown.has(k) && v !== null && typeof v !== "object");
      $("#more-facts").replaceChildren(...extra.map(([k, v]) => h("div", {}, h("dt", {}, words(k)), h("dd", {}, String(v)))));
    }
    const balls = $("#balls-row");
    balls.hidden = !BAR_BILLIARDS || !view.bar_down;
    if (view.bar_down) $("#balls").textContent = view.balls_in_play + " (" + view.on_table + " on the table, " + view.trough + " in the trough)";
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

  function renderRejected() {
    const box = $("#rejected");
    const bad = items.find((it) => it.state === "rejected");
    if (!bad) { box.hidden = true; box.replaceChildren(); return; }
    box.hidden = false;
    box.replaceChildren(
      h("h2", {}, "The server refused a shot from this phone"),
      h("p", {}, describe(bad.kind, bad.payload, null) + ": " + (bad.error ? bad.error.message + " (" + bad.error.error + ")" : "")),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "secondary", on: { click: () => retryRejected(bad) } }, "Try again"),
        h("button", { type: "button", class: "danger secondary", id: "rejected-discard", on: { click: () => discardRejected(bad) } }, "Discard this shot")));
  }

  function renderResult(server) {
    const box = $("#result");
    const view = server.view;
    const pending = items.length > 0;
    if (!view.over || pending) { box.hidden = true; box.replaceChildren(); return; }
    box.hidden = false;
    const scores = view.scores || {};
    const line = Object.keys(scores).map((s) => sideName(s) + " " + scores[s]).join(" – ");
    const outcome = view.shared ? "Shared frame." : sideName(view.winner) + " win" + (view.winner ? "s" : "") + " the frame.";
    const parts = [h("h2", {}, "Frame over"), h("p", { class: "result", id: "result-line" }, line), h("p", {}, outcome)];
    if (server.status === "complete" || server.confirmed) {
      parts.push(h("p", {}, "Confirmed. "), h("a", { class: "button", href: ctx.urls.scorecard, id: "to-scorecard" }, "Go to the scorecard"));
    } else if (ctx.can_enter) {
      parts.push(h("p", { class: "helptext" }, "Check the result with both players, then confirm. Undo if the last shot was wrong."));
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
      h("li", { class: "pending", data: { eventId: it.event_id } }, h("span", { class: "seq" }, it.state === "rejected" ? "refused" : "pending"), " ", describe(it.kind, it.payload, null)));
    list.replaceChildren(...pending.reverse(), ...stored.reverse());
  }

  // ----------------------------------------------------------------- controls
  const findField = (event, name) => (event ? event.fields.find((f) => f.name === name) : null);
  const eventType = (type) => vocab.events.find((e) => e.type === type);
  const controls = { update: () => {} };

  function buildControls() {
    const root = $("#controls");
    if (!root) return;
    const undo = h("button", { type: "button", class: "secondary", id: "undo", on: { click: () => enqueue("undo", {}) } }, "Undo");
    const tailored = BAR_BILLIARDS && eventType("shot") && findField(eventType("shot"), "pots");
    const built = tailored ? buildBarBilliards(root, undo) : buildGeneric(root, undo);
    controls.update = built.update;
  }

  function foulButtons(onToggle) {
    const common = vocab.fouls.filter((f) => f.common);
    const rest = vocab.fouls.filter((f) => !f.common);
    const button = (f) => h("button", {
      type: "button", class: "foul", title: f.doc, "aria-pressed": "false", data: { foul: f.code },
      on: { click: (e) => onToggle(f.code, e.currentTarget) },
    }, words(f.code));
    return [
      h("div", { class: "fouls common", role: "group", "aria-label": "Fouls" }, common.map(button)),
      rest.length ? h("details", { class: "more-fouls" }, h("summary", {}, "Other fouls"), h("div", { class: "fouls" }, rest.map(button))) : null,
    ];
  }

  // Bar billiards: pick the ball (white by default), tap holes to add pots, add fouls,
  // then one big button sends the shot ("No score" when nothing is picked).
  function buildBarBilliards(root, undo) {
    const shot = eventType("shot");
    const potFields = findField(shot, "pots").item.fields;
    const balls = potFields.find((f) => f.name === "ball").choices;
    const holes = potFields.find((f) => f.name === "hole").choices;
    const trough = findField(shot, "to_trough");
    const draft = { ball: balls[0], pots: [], fouls: [], to_trough: [], cushion: true };
    let view = {};

    const ballButtons = balls.map((b) => h("button", {
      type: "button", class: "ball ball-" + b, "aria-pressed": String(b === draft.ball), data: { ball: b },
      on: { click: () => { draft.ball = b; sync(); } },
    }, words(b)));
    const holeButtons = holes.map((hole) => h("button", {
      type: "button", class: "hole", data: { hole: String(hole) }, "aria-label": "Hole " + hole,
      on: { click: () => { draft.pots.push({ ball: draft.ball, hole: hole }); draft.ball = balls[0]; sync(); } },
    }, String(hole)));
    const chips = h("div", { class: "chips", id: "draft", "aria-live": "polite" });
    const cushion = h("button", {
      type: "button", class: "toggle", id: "cushion", "aria-pressed": "true",
      on: { click: () => { draft.cushion = !draft.cushion; sync(); } },
    }, "Cushion first");
    const cushionRow = h("div", { class: "row cushion-row", hidden: true }, cushion);
    const enter = h("button", { type: "button", class: "enter big", id: "enter-shot", on: { click: submit } }, "No score");
    const barDown = eventType("bar_down")
      ? h("button", { type: "button", class: "secondary", id: "bar-down", on: { click: () => enqueue("event", { type: "bar_down" }) } }, "Bar down")
      : null;
    const invoke = eventType("invoke_endgame")
      ? h("button", { type: "button", class: "secondary", id: "invoke-endgame", hidden: true, on: { click: () => enqueue("event", { type: "invoke_endgame" }) } }, "Invoke endgame")
      : null;
    const troughBox = trough ? h("details", { class: "trough" }, h("summary", {}, "Returned to the trough"),
      h("div", { class: "row" }, trough.item.choices.map((b) => h("button", {
        type: "button", class: "secondary", data: { trough: b },
        on: { click: () => { draft.to_trough.push(b); sync(); } },
      }, words(b))))) : null;

    root.append(
      h("div", { class: "balls", role: "group", "aria-label": "Ball" }, ballButtons),
      h("div", { class: "holes", role: "group", "aria-label": "Holes" }, holeButtons),
      chips,
      cushionRow,
      enter,
      h("div", { class: "row" }, undo, barDown, invoke),
      ...foulButtons((code) => {
        const i = draft.fouls.indexOf(code);
        if (i >= 0) draft.fouls.splice(i, 1); else draft.fouls.push(code);
        sync();
      }),
      troughBox,
    );

    function chip(label, remove) {
      return h("button", { type: "button", class: "chip", "aria-label": "Remove " + label, on: { click: () => { remove(); sync(); } } }, label + " ×");
    }
    function sync() {
      ballButtons.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.ball === draft.ball)));
      root.querySelectorAll("button.foul").forEach((b) => b.setAttribute("aria-pressed", String(draft.fouls.includes(b.dataset.foul))));
      cushion.setAttribute("aria-pressed", String(draft.cushion));
      cushion.textContent = draft.cushion ? "Cushion first: yes" : "Cushion first: no";
      chips.replaceChildren(
        ...draft.pots.map((p, i) => chip(words(p.ball) + " " + p.hole, () => draft.pots.splice(i, 1))),
        ...draft.fouls.map((f) => chip("foul: " + words(f), () => draft.fouls.splice(draft.fouls.indexOf(f), 1))),
        ...draft.to_trough.map((b, i) => chip(b + " to trough", () => draft.to_trough.splice(i, 1))));
      const points = draft.pots.reduce((s, p) => s + p.hole * (p.ball === "red" ? 2 : 1), 0);
      enter.textContent = draft.fouls.length ? "Enter foul" : draft.pots.length ? "Enter shot +" + points : "No score";
    }
    function submit() {
      const payload = { type: "shot" };
      if (draft.pots.length) payload.pots = draft.pots.slice();
      if (draft.fouls.length) payload.fouls = draft.fouls.slice();
      if (draft.to_trough.length) payload.to_trough = draft.to_trough.slice();
      if (view.phase === "endgame") payload.cushion = draft.cushion;
      Object.assign(draft, { ball: balls[0], pots: [], fouls: [], to_trough: [], cushion: true });
      sync();
      enqueue("event", payload);
    }
    sync();
    return {
      update(v, server) {
        view = v;
        const endgame = v.phase === "endgame";
        cushionRow.hidden = !endgame;
        holeButtons.forEach((b) => { b.disabled = endgame && !["100", "200"].includes(b.dataset.hole); });
        if (barDown) barDown.hidden = !!v.bar_down;
        if (invoke) invoke.hidden = !(server.view && server.view.can_invoke_endgame);
      },
    };
  }

  // Any other game: one form per event type, built from its declared fields.
  function buildGeneric(root, undo) {
    for (const ev of vocab.events) {
      const inputs = ev.fields.map((f) => fieldControl(f, ev));
      const send = () => {
        const payload = { type: ev.type };
        for (const c of inputs) {
          const value = c.value();
          if (value !== undefined) payload[c.name] = value;
        }
        inputs.forEach((c) => c.reset());
        enqueue("event", payload);
      };
      root.append(h("fieldset", { class: "event-form", data: { type: ev.type } },
        h("legend", { title: ev.doc }, words(ev.type)),
        inputs.map((c) => c.node),
        h("button", { type: "button", class: "enter", data: { enter: ev.type }, on: { click: send } }, "Enter " + words(ev.type))));
    }
    root.append(h("div", { class: "row" }, undo));
    return { update() {} };
  }

  function fieldControl(f, ev) {
    const label = (child) => h("label", { class: "field", title: f.doc, data: { field: f.name } }, h("span", {}, words(f.name) + (f.required ? " *" : "")), child);
    const isFouls = f.type === "list" && f.item && f.item.name === "foul";
    if (isFouls || (f.type === "list" && f.item && f.item.choices)) {
      let picked = [];
      const chips = h("div", { class: "chips" });
      const redraw = () => chips.replaceChildren(...picked.map((v, i) => h("button", {
        type: "button", class: "chip", on: { click: () => { picked.splice(i, 1); redraw(); } },
      }, words(v) + " ×")));
      const add = (v) => { picked.push(v); redraw(); };
      const node = isFouls
        ? h("div", { class: "field", data: { field: f.name } }, h("span", {}, words(f.name)), ...foulButtons((code) => add(code)), chips)
        : h("div", { class: "field", data: { field: f.name } }, h("span", { title: f.doc }, words(f.name)),
          h("div", { class: "row" }, f.item.choices.map((c) => h("button", {
            type: "button", class: "secondary", data: { value: String(c) }, on: { click: () => add(c) },
          }, words(c)))), chips);
      return { name: f.name, node: node, value: () => (picked.length ? picked.slice() : undefined), reset: () => { picked = []; redraw(); } };
    }
    if (f.choices && f.choices.length) {
      const select = h("select", { name: ev.type + "." + f.name },
        f.required ? null : h("option", { value: "" }, "—"),
        f.choices.map((c) => h("option", { value: JSON.stringify(c) }, words(c))));
      return { name: f.name, node: label(select), value: () => (select.value ? JSON.parse(select.value) : undefined), reset: () => { select.selectedIndex = 0; } };
    }
    if (f.type === "bool") {
      const select = h("select", { name: ev.type + "." + f.name },
        h("option", { value: "" }, "—"), h("option", { value: "true" }, "yes"), h("option", { value: "false" }, "no"));
      return { name: f.name, node: label(select), value: () => (select.value ? select.value === "true" : undefined), reset: () => { select.selectedIndex = 0; } };
    }
    if (f.type === "int" || f.type === "number") {
      const input = h("input", { type: "number", inputmode: "numeric", step: f.type === "int" ? "1" : "any", name: ev.type + "." + f.name });
      return { name: f.name, node: label(input), value: () => (input.value === "" ? undefined : Number(input.value)), reset: () => { input.value = ""; } };
    }
    if (f.type === "str") {
      const input = h("input", { type: "text", name: ev.type + "." + f.name });
      return { name: f.name, node: label(input), value: () => (input.value === "" ? undefined : input.value), reset: () => { input.value = ""; } };
    }
    // lists of objects, free objects: JSON, checked by the server
    const area = h("textarea", { rows: "2", name: ev.type + "." + f.name, placeholder: f.type === "list" ? "[ ]" : "{ }" });
    return {
      name: f.name, node: label(area),
      value: () => { if (!area.value.trim()) return undefined; try { return JSON.parse(area.value); } catch (err) { return area.value; } },
      reset: () => { area.value = ""; },
    };
  }

  function updateControls(view, server) {
    const root = $("#controls");
    if (!root) return;
    const closed = server.status === "complete" || server.confirmed;
    root.hidden = closed;
    controls.update(view, server);
  }

  // A small handle for people debugging on a phone, and for the browser tests.
  window.MarkerPad = {
    outbox: () => store.items(FRAME),
    discarded: () => tx("discarded", "readonly", (t) => { let rows = []; got(t.objectStore("discarded").getAll(), (r) => { rows = r; }); return () => rows; }),
    drain: drain,
  };

  init();
})();
