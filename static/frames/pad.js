/* Marker referee pad: the entry module. ES modules, no build step; CSP-clean (no inline
 * code or styles).
 *
 * Offline first: every event is written to an IndexedDB outbox (pad/outbox.js) BEFORE any
 * network call, then sent strictly in order (pad/sync.js). The server is authoritative:
 * the pad shows the engine's answers (pad/view.js). Events still on the phone are listed
 * as pending, and (where Pyodide is installed) the rules engine itself, running in a
 * worker, shows what they would do (pad/engine.js, engine/worker.js). The controls are
 * built from the game's describe() (pad/controls.js), so any registered game gets a pad.
 *
 * Drains on load, on `online`, on `visibilitychange` and on a timer. */

import { $, uuid } from "./pad/dom.js";
import { createOutbox } from "./pad/outbox.js";
import { createSync, serverPart } from "./pad/sync.js";
import { createEngine } from "./pad/engine.js";
import { createControls } from "./pad/controls.js";
import { createView } from "./pad/view.js";
import { createAwake } from "./pad/awake.js";
import { createPadNotices } from "./pad/notices.js";

const NOTICE_POLL_MS = 5 * 60 * 1000;

function padNotices(ctx) {
  const root = $("#pad-notices");
  if (!root || !ctx.urls.notices) return;
  let storage = null;
  try { storage = window.localStorage; } catch { /* no storage: notices cannot be dismissed */ }
  const notices = createPadNotices(root, {
    url: ctx.urls.notices, fetch: (u, o) => window.fetch(u, o), storage, online: () => navigator.onLine, doc: document,
  });
  notices.poll();
  window.addEventListener("online", () => notices.poll());
  setInterval(() => { if (!document.hidden) notices.poll(); }, NOTICE_POLL_MS);
}

function registerWorker(url, keep) {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker
    .register(url, { scope: "/" })
    .then(() => navigator.serviceWorker.ready)
    .then((reg) => {
      if (reg.active) reg.active.postMessage({ type: "cache-page", url: location.pathname + location.search });
      // The league's rule book, one tap away offline too ("what's the rule?").
      if (reg.active && keep) reg.active.postMessage({ type: "cache-page", url: keep });
    })
    .catch(() => {});
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
}

async function start(ctx, vocab) {
  const FRAME = ctx.frame;
  const store = createOutbox(window.indexedDB);
  // The page's state, shared by the modules.
  const pad = {
    snap: null, items: [], deviceId: "", sending: false, netDown: !navigator.onLine,
    loginNeeded: false, confirming: false, inFlight: null,
  };
  let entered = 0; // events entered from the panels (MarkerPad.entered: tests wait on it)
  const render = () => view.render();
  const awake = createAwake(ctx, pad);
  const engine = createEngine(ctx, store, pad, render, { mark: (state) => { $("#pad").dataset.engine = state; } });
  const sync = createSync(ctx, store, pad, render, {
    locks: navigator.locks,
    cookie: () => document.cookie,
    hidden: () => document.hidden,
    navigate: (url) => location.assign(url),
    alert: (message) => view.alertBox(message),
    notAllowed: (message) => view.showNotAllowed(message),
    tapped: () => awake.tapped(),
  });
  const deps = { engine, sync, awake, controls: null };
  const view = createView(ctx, vocab, pad, deps);

  // A small handle for people debugging on a phone, and for the browser tests.
  window.MarkerPad = {
    outbox: () => store.items(FRAME),
    discarded: () => store.discarded(),
    drain: () => sync.drain(),
    engine: () => engine.state(),
    // Pyodide and the engine zip are all in the service worker's caches (offline-ready).
    engineCached: () => (!ctx.engine || !window.caches ? Promise.resolve(false)
      : Promise.all(ctx.engine.files.concat([ctx.engine.zip]).map((u) => caches.match(u)))
        .then((found) => found.every(Boolean))),
    startEngine: () => engine.start(),
    // Events entered from the panels on this page (the controls have taken the tap).
    entered: () => entered,
    shownView: () => {
      const facts = {};
      document.querySelectorAll("#facts dd").forEach((dd) => {
        if (!dd.parentElement.hidden) facts[dd.dataset.key] = JSON.parse(dd.dataset.value);
      });
      const scores = {};
      document.querySelectorAll("#board .side").forEach((s) => { scores[s.dataset.party] = s.querySelector(".banked").textContent; });
      return { facts: facts, scores: scores, source: $("#estimate").dataset.source || "server" };
    },
  };

  pad.deviceId = await store.meta("device");
  if (!pad.deviceId) {
    pad.deviceId = uuid();
    await store.putMeta("device", pad.deviceId);
  }
  const page = serverPart(ctx.state);
  let snap = (await store.snap(FRAME)) || { frame: FRAME, base: page.last_seq, server: page, conflict: null };
  if (page.last_seq >= snap.server.last_seq) snap.server = page; // a cached page may be older
  if (snap.server.dump_seq === undefined) snap.server = Object.assign(page, { recent: snap.server.recent }); // older phone copy
  pad.snap = snap;
  pad.items = await store.items(FRAME);
  if (!pad.items.length && !snap.conflict) snap.base = snap.server.last_seq;
  await store.putSnap(snap);
  const root = $("#controls");
  if (ctx.can_enter && root) {
    deps.controls = createControls(root, vocab, {
      choices: snap.server.choices || {},
      partyLabel: view.text.partyLabel,
      enqueue: (kind, payload) => sync.enqueue(kind, payload),
      entered: () => { entered += 1; },
    });
  }
  render();
  $("#pad").dataset.ready = "1";
  // The offline engine comes later, in the background: the pad is usable at once.
  const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 1200));
  if (ctx.can_enter) idle(() => engine.start(), { timeout: 3000 });
  window.addEventListener("online", () => sync.online());
  window.addEventListener("offline", () => { pad.netDown = true; render(); });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) {
      if (pad.loginNeeded) sync.checkSession();
      else sync.drain();
      sync.poll();
    }
    awake.keep();
  });
  window.addEventListener("focus", () => { if (pad.loginNeeded) sync.checkSession(); });
  sync.drain();
  sync.schedulePoll(1500);
  padNotices(ctx);
}

const contextNode = document.getElementById("pad-context");
if (!contextNode) {
  registerWorker("/sw.js"); // the pad's start page
} else {
  const ctx = JSON.parse(contextNode.textContent);
  registerWorker(ctx.urls.sw, ctx.urls.rules);
  start(ctx, JSON.parse(document.getElementById("vocab").textContent));
}
