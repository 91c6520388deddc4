// The sync (static/frames/pad/sync.js): strictly in order with the expected sequence
// number, back-off with jitter (and Retry-After), 409 from another device or another tab,
// refusals kept for the referee. fetch and the timers are fakes; the outbox is the real
// one on fake-indexeddb.
import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory } from "fake-indexeddb";

import { createOutbox } from "../../static/frames/pad/outbox.js";
import { createSync, serverPart, retryDelay, FIRST_BACKOFF, MAX_BACKOFF } from "../../static/frames/pad/sync.js";

const CTX = {
  frame: 1, can_enter: true, csrf_cookie: "csrftoken",
  urls: { events: "/api/frames/1/events/", state: "/api/frames/1/state/", session: "/api/pad/session/", confirm: "/c/", scorecard: "/s/" },
};

function reply(status, body, headers) {
  return { status, ok: status >= 200 && status < 300, json: async () => body, headers: { get: (k) => (headers || {})[k] || null } };
}

function answer(seq, eventId) {
  return reply(201, { seq, top_seq: seq, event_id: eventId, kind: "event", payload: { type: "shot" }, view: { over: false, seq } });
}

// A page with `queued` shots in its outbox; `replies` answer the POSTs in turn (a function
// gets the request body).
async function setUp(queued, replies, random) {
  const store = createOutbox(new IDBFactory());
  const snap = { frame: 1, base: 3, server: serverPart({ last_seq: 3, top_seq: 3, status: "in_play", view: { over: false } }), conflict: null };
  await store.putSnap(snap);
  for (const id of queued) await store.add({ frame: 1, event_id: id, kind: "event", payload: { type: "shot" }, state: "queued", error: null });
  const pad = { snap, items: await store.items(1), deviceId: "dev", sending: false, netDown: false, loginNeeded: false, inFlight: null };
  const sent = [];
  const timers = [];
  const env = {
    fetch: async (url, init) => {
      const body = JSON.parse(init.body);
      sent.push(body);
      const next = replies.shift();
      if (next === undefined) throw new Error("no reply left");
      if (next instanceof Error) throw next;
      return typeof next === "function" ? next(body) : next;
    },
    setTimeout: (fn, delay) => { timers.push({ fn, delay }); return timers.length; },
    clearTimeout: () => {},
    random: random || (() => 0.5),
    cookie: () => "csrftoken=tok",
  };
  const sync = createSync(CTX, store, pad, () => {}, env);
  return { store, pad, sent, timers, sync };
}

test("each shot goes out in order, as the next sequence number, and leaves the outbox", async () => {
  const t = await setUp(["a", "b"], [(b) => answer(b.expected_seq, b.event_id), (b) => answer(b.expected_seq, b.event_id)]);
  await t.sync.drain();
  assert.deepEqual(t.sent.map((b) => [b.event_id, b.expected_seq, b.device_id]), [["a", 4, "dev"], ["b", 5, "dev"]]);
  assert.deepEqual(await t.store.items(1), []);
  assert.equal(t.pad.snap.base, 5);
  assert.equal(t.pad.snap.server.last_seq, 5);
  assert.deepEqual(t.pad.snap.sent, ["a", "b"]);
});

test("a server error keeps the shot and retries after the back-off, with jitter, doubling to a cap", async () => {
  const replies = Array.from({ length: 8 }, () => reply(503, {}));
  const t = await setUp(["a"], replies, () => 0.9);
  const delays = [];
  for (let i = 0; i < 7; i++) {
    await t.sync.drain();
    delays.push(t.timers.at(-1).delay);
  }
  assert.equal((await t.store.items(1)).length, 1);
  assert.equal(t.sent.length, 7);
  assert.deepEqual(delays.map((d) => Math.round(d)), [1400, 2800, 5600, 11200, 22400, 42000, 42000]);
  assert.equal(t.sync.backoff(), MAX_BACKOFF);
});

test("Retry-After wins over the back-off; a stored shot resets the back-off", async () => {
  const t = await setUp(["a", "b"], [reply(429, {}, { "Retry-After": "7" }), reply(503, {}), (b) => answer(b.expected_seq, b.event_id), reply(503, {})]);
  await t.sync.drain();
  assert.equal(t.timers.at(-1).delay, 7000);
  await t.sync.drain();
  assert.equal(t.timers.at(-1).delay, 2 * FIRST_BACKOFF); // the second try: doubled, jitter 0.5 x 1
  await t.sync.drain(); // a stored, then b refused for now
  assert.equal(t.timers.at(-1).delay, FIRST_BACKOFF);
  assert.deepEqual((await t.store.items(1)).map((it) => it.event_id), ["b"]);
});

test("no network: the shot stays, the pad says so, a retry is set", async () => {
  const t = await setUp(["a"], [new TypeError("Failed to fetch")]);
  await t.sync.drain();
  assert.equal(t.pad.netDown, true);
  assert.equal(t.timers.length, 1);
  assert.equal((await t.store.items(1)).length, 1);
  assert.equal(t.pad.sending, false);
});

test("retryDelay: seconds from Retry-After, else the back-off times 0.5 to 1.5", () => {
  assert.equal(retryDelay("3", 1000, () => 0), 3000);
  assert.equal(retryDelay(null, 1000, () => 0), 500);
  assert.equal(retryDelay("junk", 4000, () => 0.999), 5996);
});

test("409 with another device's events: a conflict; nothing is sent or dropped", async () => {
  const theirs = { seq: 4, event_id: "x", kind: "event", payload: { type: "shot" } };
  const replies = [reply(409, { events: [theirs], last_seq: 4, top_seq: 4, status: "in_play", view: { over: false } })];
  const t = await setUp(["a", "b"], replies);
  await t.sync.drain();
  assert.equal(t.sent.length, 1);
  assert.deepEqual(t.pad.snap.conflict.events.map((e) => e.event_id), ["x"]);
  assert.equal(t.pad.snap.conflict.last_seq, 4);
  assert.equal((await t.store.items(1)).length, 2);
  await t.sync.drain(); // nothing goes out while the referee has not chosen
  assert.equal(t.sent.length, 1);
  // He keeps his shots: they go after the other device's, from seq 5.
  replies.push((b) => answer(b.expected_seq, b.event_id), (b) => answer(b.expected_seq, b.event_id));
  await t.sync.resolveConflict(true);
  assert.deepEqual(t.sent.slice(1).map((b) => [b.event_id, b.expected_seq]), [["a", 5], ["b", 6]]);
  assert.equal(t.pad.snap.conflict, null);
  assert.deepEqual(await t.store.items(1), []);
});

test("409, and the referee discards his shots: they go to the discarded store, unsent", async () => {
  const theirs = { seq: 4, event_id: "x", kind: "event", payload: { type: "shot" } };
  const t = await setUp(["a"], [reply(409, { events: [theirs], last_seq: 4, top_seq: 4, status: "in_play", view: { over: false } })]);
  await t.sync.drain();
  await t.sync.resolveConflict(false);
  assert.equal(t.sent.length, 1);
  assert.deepEqual(await t.store.items(1), []);
  assert.deepEqual((await t.store.discarded()).map((it) => [it.event_id, it.reason]), [["a", "discarded by the referee after a conflict"]]);
  assert.equal(t.pad.snap.base, 4);
});

test("409 with only this phone's own events (another tab sent them): no conflict, carry on", async () => {
  const mine = { seq: 4, event_id: "a", kind: "event", payload: { type: "shot" } };
  const t = await setUp(["a", "b"], [reply(409, { events: [mine], last_seq: 4, top_seq: 4, status: "in_play", view: { over: false } }), (b) => answer(b.expected_seq, b.event_id)]);
  await t.sync.drain();
  assert.equal(t.pad.snap.conflict, null);
  assert.deepEqual(t.sent.map((b) => [b.event_id, b.expected_seq]), [["a", 4], ["b", 5]]);
  assert.deepEqual(await t.store.items(1), []);
});

test("a refusal is kept with its reason and stops the queue; discarding it lets the rest go", async () => {
  const t = await setUp(["a", "b"], [reply(422, { error: "illegal", message: "not now" }), (b) => answer(b.expected_seq, b.event_id)]);
  await t.sync.drain();
  const rows = await t.store.items(1);
  assert.deepEqual(rows.map((it) => it.state), ["rejected", "queued"]);
  assert.deepEqual(rows[0].error, { status: 422, error: "illegal", message: "not now" });
  assert.equal(t.sent.length, 1);
  await t.sync.discardRejected(rows[0]);
  assert.deepEqual(t.sent.map((b) => [b.event_id, b.expected_seq]), [["a", 4], ["b", 4]]);
  assert.deepEqual((await t.store.discarded()).map((it) => it.event_id), ["a"]);
});

test("signed out: everything is kept and the pad asks for a login", async () => {
  const t = await setUp(["a"], [reply(403, { error: "not_authenticated", message: "log in" })]);
  await t.sync.drain();
  assert.equal(t.pad.loginNeeded, true);
  assert.equal((await t.store.items(1)).length, 1);
  await t.sync.drain(); // nothing goes out while signed out
  assert.equal(t.sent.length, 1);
});
