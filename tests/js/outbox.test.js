// The outbox (static/frames/pad/outbox.js) against fake-indexeddb: order, per-frame
// lists, refusals, discards and the snapshot's read-modify-write.
import { test } from "node:test";
import assert from "node:assert/strict";
import { IDBFactory } from "fake-indexeddb";

import { createOutbox } from "../../static/frames/pad/outbox.js";

const fresh = () => createOutbox(new IDBFactory());
const item = (frame, id, extra) => Object.assign({ frame, event_id: id, kind: "event", payload: {}, state: "queued", error: null }, extra);

test("items are kept per frame in the order they were added", async () => {
  const store = fresh();
  const a = await store.add(item(1, "a"));
  await store.add(item(2, "x"));
  const b = await store.add(item(1, "b"));
  assert.ok(b > a);
  assert.deepEqual((await store.items(1)).map((it) => it.event_id), ["a", "b"]);
  assert.deepEqual((await store.items(2)).map((it) => it.event_id), ["x"]);
  assert.deepEqual(await store.items(3), []);
});

test("remove and put change only the rows named", async () => {
  const store = fresh();
  const a = await store.add(item(1, "a"));
  const b = await store.add(item(1, "b"));
  const [first] = await store.items(1);
  first.state = "rejected";
  await store.put(first);
  await store.remove([b]);
  const rows = await store.items(1);
  assert.deepEqual(rows.map((it) => [it.n, it.state]), [[a, "rejected"]]);
});

test("the phone's engine refuses only a queued item the referee has not forced", async () => {
  const store = fresh();
  const a = await store.add(item(1, "a"));
  const b = await store.add(item(1, "b", { forced: true }));
  const c = await store.add(item(1, "c", { state: "rejected", error: { message: "server" } }));
  const why = { status: 0, local: true, error: "bad", message: "no" };
  await store.refuse(a, why);
  await store.refuse(b, why);
  await store.refuse(c, why);
  await store.refuse(999, why); // gone from the outbox: nothing happens
  const rows = await store.items(1);
  assert.deepEqual(rows.map((it) => it.state), ["rejected", "queued", "rejected"]);
  assert.deepEqual(rows[0].error, why);
  assert.deepEqual(rows[2].error, { message: "server" });
});

test("discarding moves items to the discarded store with the reason, in one go", async () => {
  const store = fresh();
  await store.add(item(1, "a"));
  await store.add(item(1, "b"));
  await store.discard(await store.items(1), "refused by the server: no");
  assert.deepEqual(await store.items(1), []);
  const gone = await store.discarded();
  assert.deepEqual(gone.map((it) => [it.event_id, it.reason]).sort(), [["a", "refused by the server: no"], ["b", "refused by the server: no"]]);
  assert.ok(gone.every((it) => typeof it.discarded_at === "string"));
});

test("the snapshot: a fallback when there is none, then read-modify-write", async () => {
  const store = fresh();
  assert.equal(await store.snap(1), undefined);
  const first = await store.updateSnap(1, { frame: 1, base: 0 }, (s) => { s.base += 1; });
  assert.deepEqual(first, { frame: 1, base: 1 });
  const second = await store.updateSnap(1, { frame: 1, base: 0 }, (s) => { s.base += 1; });
  assert.equal(second.base, 2);
  await store.putSnap({ frame: 1, base: 7 });
  assert.equal((await store.snap(1)).base, 7);
});

test("metadata: the device id survives", async () => {
  const store = fresh();
  assert.equal(await store.meta("device"), undefined);
  await store.putMeta("device", "d-1");
  assert.equal(await store.meta("device"), "d-1");
});

test("a failed write rejects (a key already taken)", async () => {
  const store = fresh();
  await store.add(item(1, "a", { n: 5 }));
  await assert.rejects(store.add(item(1, "b", { n: 5 })));
  assert.deepEqual((await store.items(1)).map((it) => it.event_id), ["a"]);
});
