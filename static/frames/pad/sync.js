/* Sending the outbox to the server, strictly in order (one at a time), each event with the
 * sequence number it expects to take; and the poll that keeps the frame's state fresh.
 *
 *   201/200  stored (200: a retry of a stored event): drop it from the outbox
 *   409      someone else moved the frame on: show both versions; the referee decides
 *   400/422  refused: keep it, show why; only the referee can discard it
 *   403      signed out / stale CSRF token: keep everything, ask to log in again
 *   network error, 5xx, 429: keep it, retry with exponential back-off and jitter
 *
 * The CSRF token is read from the cookie at send time (it rotates at login). */

import { uuid } from "./dom.js";

export const FIRST_BACKOFF = 1000;
export const MAX_BACKOFF = 30000;

// A state read (the page, the poll) carries the engine's own state (`dump`, at last_seq),
// the setup and the current choice sets; an event's answer carries only the view, so
// `dump_seq` says which event the dump is for.
export function serverPart(state) {
  return {
    last_seq: state.last_seq, top_seq: state.top_seq, status: state.status, view: state.view,
    recent: state.recent || [], confirmed: !!state.confirmed,
    setup: state.setup || {}, dump: state.dump === undefined ? null : state.dump,
    dump_seq: state.last_seq, choices: state.choices || {},
  };
}

// Keep a stored event among the last twelve the phone knows, in seq order.
export function remember(s, event) {
  const recent = s.server.recent.filter((e) => e.seq !== event.seq);
  recent.push(event);
  recent.sort((a, b) => a.seq - b.seq);
  s.server.recent = recent.slice(-12);
}

// The server stored an event of this phone's: move the snapshot on.
export function absorbAnswer(s, answer) {
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

// The delay before the next try: Retry-After when the server gave one, else the back-off
// with jitter (half to one and a half times it).
export function retryDelay(retryAfter, backoff, random) {
  const seconds = Number(retryAfter);
  return seconds > 0 ? seconds * 1000 : backoff * (0.5 + random());
}

/* The sync loop over `pad` (the page's shared state: snap, items, netDown, loginNeeded,
 * sending, inFlight, deviceId, confirming). `env` holds what it needs from the page, so
 * tests can give fakes: fetch, setTimeout, clearTimeout, random, locks, cookie(),
 * hidden(), navigate(url), alert(message), notAllowed(message), tapped(). */
export function createSync(ctx, store, pad, render, env) {
  const e = Object.assign({
    fetch: (...a) => globalThis.fetch(...a),
    setTimeout: (...a) => globalThis.setTimeout(...a),
    clearTimeout: (...a) => globalThis.clearTimeout(...a),
    random: Math.random,
    locks: null,
    cookie: () => "",
    hidden: () => false,
    navigate: () => {},
    alert: () => {},
    notAllowed: () => {},
    tapped: () => {},
  }, env || {});
  const FRAME = ctx.frame;
  let backoff = FIRST_BACKOFF;
  let retryTimer = null;
  let pollTimer = null;
  let pollEtag = null;
  let sessionToken = null;

  async function updateSnap(change) {
    pad.snap = await store.updateSnap(FRAME, pad.snap, change);
    return pad.snap;
  }

  function csrfToken() {
    const name = ctx.csrf_cookie + "=";
    const cookie = e.cookie().split(";").map((c) => c.trim()).find((c) => c.startsWith(name));
    return cookie ? decodeURIComponent(cookie.slice(name.length)) : sessionToken || "";
  }

  function postJson(url, body) {
    return e.fetch(url, {
      method: "POST",
      credentials: "same-origin",
      cache: "no-store",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(body),
    });
  }

  async function enqueue(kind, payload) {
    e.tapped();
    const item = {
      frame: FRAME, event_id: uuid(), kind: kind, payload: payload,
      created_at: new Date().toISOString(), state: "queued", error: null,
    };
    item.n = await store.add(item); // on the phone before anything goes out
    pad.items.push(item);
    render();
    return drain();
  }

  function drain() {
    if (!ctx.can_enter || pad.sending) return Promise.resolve();
    if (e.locks && e.locks.request) {
      // Two tabs on one phone share the outbox: one drains at a time.
      return e.locks.request("marker-pad-drain-" + FRAME, { ifAvailable: true }, (lock) => (lock ? drainNow() : null));
    }
    return drainNow();
  }

  async function drainNow() {
    if (pad.sending) return;
    pad.sending = true;
    let csrfRetried = false;
    try {
      for (;;) {
        pad.items = await store.items(FRAME);
        pad.snap = (await store.snap(FRAME)) || pad.snap;
        const head = pad.items[0];
        if (!head || pad.snap.conflict || head.state !== "queued" || pad.loginNeeded) break;
        render();
        pad.inFlight = head.event_id;
        let response;
        try {
          response = await postJson(ctx.urls.events, {
            event_id: head.event_id, expected_seq: pad.snap.base + 1, kind: head.kind,
            payload: head.payload, device_id: pad.deviceId,
          });
        } catch {
          pad.netDown = true;
          scheduleRetry();
          break;
        } finally {
          pad.inFlight = null;
        }
        pad.netDown = false;
        let body = {};
        try { body = await response.json(); } catch { body = {}; }
        const status = response.status;
        if (status === 201 || status === 200) {
          await store.remove([head.n]);
          await updateSnap((s) => absorbAnswer(s, body));
          backoff = FIRST_BACKOFF;
          continue;
        }
        if (status === 409) {
          await onConflict(body);
          if (pad.snap.conflict) break;
          continue;
        }
        if (status === 403 || status === 401) {
          const csrfFailure = /csrf/i.test(body.message || "");
          if (csrfFailure && !csrfRetried) {
            csrfRetried = true;
            await checkSession();
            continue;
          }
          if (body.error === "not_authenticated" || csrfFailure) pad.loginNeeded = true;
          else e.notAllowed(body.message || "You may not score this frame.");
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
      pad.sending = false;
      pad.inFlight = null;
      pad.items = await store.items(FRAME);
      render();
    }
  }

  function scheduleRetry(retryAfter) {
    e.clearTimeout(retryTimer);
    const delay = retryDelay(retryAfter, backoff, e.random);
    backoff = Math.min(backoff * 2, MAX_BACKOFF);
    retryTimer = e.setTimeout(drain, delay);
    render();
    return delay;
  }

  // The server's answer to a stale expected_seq: the events in between. This phone's own
  // (sent from another tab, or stored before an answer was lost) are done; anyone else's
  // make a conflict the referee resolves.
  async function onConflict(body) {
    const mine = new Map(pad.items.map((it) => [it.event_id, it]));
    const serverEvents = body.events || [];
    const ownStored = serverEvents.filter((ev) => mine.has(ev.event_id));
    if (ownStored.length) await store.remove(ownStored.map((ev) => mine.get(ev.event_id).n)); // stored: done
    await updateSnap((s) => {
      const sent = new Set(s.sent || []);
      const foreign = serverEvents.filter((ev) => !mine.has(ev.event_id) && !sent.has(ev.event_id));
      if (body.last_seq >= s.server.last_seq) {
        Object.assign(s.server, { last_seq: body.last_seq, top_seq: body.top_seq, status: body.status, view: body.view });
      }
      serverEvents.forEach((ev) => remember(s, ev));
      s.sent = (s.sent || []).concat(ownStored.map((ev) => ev.event_id)).slice(-200);
      if (!foreign.length && body.last_seq >= s.base) {
        s.base = body.last_seq; // only this phone's own events were in between (another tab)
      } else {
        s.conflict = { events: foreign, last_seq: body.last_seq, base: s.base, at: new Date().toISOString() };
      }
    });
  }

  async function resolveConflict(keepMine) {
    pad.items = await store.items(FRAME);
    if (!keepMine) await store.discard(pad.items, "discarded by the referee after a conflict");
    await updateSnap((s) => {
      s.base = s.conflict ? s.conflict.last_seq : s.server.last_seq;
      s.conflict = null;
    });
    pad.items = await store.items(FRAME);
    render();
    return drain();
  }

  async function discardRejected(item) {
    await store.discard([item], "refused by the server: " + (item.error ? item.error.message : ""));
    pad.items = await store.items(FRAME);
    render();
    return drain();
  }

  async function retryRejected(item) {
    item.state = "queued";
    item.forced = !!(item.error && item.error.local); // the referee overrules the phone's engine
    item.error = null;
    await store.put(item);
    pad.items = await store.items(FRAME);
    render();
    return drain();
  }

  async function checkSession() {
    try {
      const r = await e.fetch(ctx.urls.session, { credentials: "same-origin", cache: "no-store" });
      const body = await r.json();
      sessionToken = body.csrf_token;
      const wasNeeded = pad.loginNeeded;
      pad.loginNeeded = !body.authenticated;
      render();
      if (wasNeeded && !pad.loginNeeded) drain();
    } catch {
      pad.netDown = true;
    }
  }

  function schedulePoll(delay) {
    e.clearTimeout(pollTimer);
    pollTimer = e.setTimeout(poll, delay || (ctx.can_enter ? 3000 : 2000));
  }

  async function poll() {
    e.clearTimeout(pollTimer);
    if (e.hidden()) return schedulePoll(5000);
    try {
      const headers = pollEtag ? { "If-None-Match": pollEtag } : {};
      const r = await e.fetch(ctx.urls.state, { credentials: "same-origin", cache: "no-store", headers: headers });
      pad.netDown = false;
      if (r.status === 200) {
        pollEtag = r.headers.get("ETag");
        const state = await r.json();
        pad.items = await store.items(FRAME);
        const empty = !pad.items.length;
        await updateSnap((s) => {
          if (state.last_seq < s.server.last_seq) return;
          s.server = serverPart(state);
          if (empty && !s.conflict) s.base = state.last_seq;
        });
      }
    } catch {
      pad.netDown = true;
    }
    render();
    if (pad.items.length && !pad.sending && !pad.snap.conflict) drain();
    schedulePoll();
  }

  async function confirmResult() {
    if (pad.confirming) return;
    pad.confirming = true;
    render();
    try {
      const r = await postJson(ctx.urls.confirm, { seq: pad.snap.server.last_seq });
      const body = await r.json().catch(() => ({}));
      if (r.ok) {
        await updateSnap((s) => { s.server.status = "complete"; s.server.confirmed = true; });
        e.navigate(ctx.urls.scorecard);
        return;
      }
      if (r.status === 403) pad.loginNeeded = body.error === "not_authenticated" || pad.loginNeeded;
      e.alert(body.message || "Could not confirm the result.");
      poll();
    } catch {
      e.alert("Confirming needs the network. Your shots are safe on this phone.");
    } finally {
      pad.confirming = false;
      render();
    }
  }

  // Back online: try again at once, from the first back-off.
  function online() {
    pad.netDown = false;
    backoff = FIRST_BACKOFF;
    drain();
    poll();
  }

  return {
    enqueue, drain, drainNow, poll, schedulePoll, checkSession, resolveConflict,
    discardRejected, retryRejected, confirmResult, online, updateSnap,
    backoff: () => backoff,
  };
}
