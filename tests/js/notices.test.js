// The site notices (static/frames/pad/notices.js): dismissed per browser, warnings first,
// and the pad's header polled only while online.
import { test } from "node:test";
import assert from "node:assert/strict";

import { DISMISSED_KEY, createPadNotices, dismiss, dismissedIds, visibleNotices } from "../../static/frames/pad/notices.js";

function memoryStorage(initial = {}) {
  const data = { ...initial };
  return {
    getItem: (k) => (k in data ? data[k] : null),
    setItem: (k, v) => { data[k] = String(v); },
    data,
  };
}

// Just enough of the DOM for the pad's header: elements with children, text, listeners.
function fakeDocument() {
  const make = (tag) => {
    const node = {
      tag, children: [], dataset: {}, attrs: {}, hidden: false, className: "", textContent: "", listeners: {},
      append(...kids) { node.children.push(...kids); },
      replaceChildren() { node.children = []; },
      setAttribute(k, v) { node.attrs[k] = v; },
      addEventListener(ev, fn) { node.listeners[ev] = fn; },
    };
    return node;
  };
  return { createElement: make };
}

const NOTICES = [
  { id: 1, title: "Site maintenance", body: "Down at 23:00", level: "info" },
  { id: 2, title: "Norwich AGM", body: "", level: "warning" },
];

test("dismissed ids survive, are strings, and a broken store reads as none", () => {
  const storage = memoryStorage();
  assert.deepEqual(dismissedIds(storage), []);
  dismiss(storage, 7);
  dismiss(storage, "7");
  dismiss(storage, 9);
  assert.deepEqual(dismissedIds(storage), ["7", "9"]);
  assert.deepEqual(dismissedIds(memoryStorage({ [DISMISSED_KEY]: "{not json" })), []);
  assert.deepEqual(dismissedIds(null), []);
  assert.doesNotThrow(() => dismiss(null, 3));
});

test("warnings first, dismissed ones hidden", () => {
  assert.deepEqual(visibleNotices(NOTICES, []).map((n) => n.id), [2, 1]);
  assert.deepEqual(visibleNotices(NOTICES, ["2"]).map((n) => n.id), [1]);
  assert.deepEqual(visibleNotices(null, []), []);
});

test("the pad asks the server only when online, draws the notices, and a tap dismisses one", async () => {
  const doc = fakeDocument();
  const root = doc.createElement("div");
  const storage = memoryStorage();
  let online = false;
  let down = false;
  const asked = [];
  const fetch = async (url) => {
    asked.push(url);
    if (down) throw new Error("no signal after all");
    return { ok: true, json: async () => NOTICES };
  };
  const notices = createPadNotices(root, { url: "/api/notices/?league=norwich", fetch, storage, online: () => online, doc });

  await notices.poll();
  assert.deepEqual(asked, []);

  online = true;
  const shown = await notices.poll();
  assert.deepEqual(asked, ["/api/notices/?league=norwich"]);
  assert.deepEqual(shown.map((n) => n.id), [2, 1]);
  assert.equal(root.hidden, false);
  assert.equal(root.children.length, 2);
  const [warning] = root.children;
  assert.equal(warning.className, "site-notice notice-warning");
  assert.equal(warning.children[0].children[0].textContent, "Norwich AGM");

  warning.children.at(-1).listeners.click();
  assert.deepEqual(dismissedIds(storage), ["2"]);
  assert.equal(root.children.length, 1);

  // The next ask fails: what was shown stays.
  down = true;
  await notices.poll();
  assert.equal(asked.length, 2);
  assert.equal(root.children.length, 1);
  assert.equal(root.children[0].children[0].children[0].textContent, "Site maintenance");
});
