// The Share button (static/frames/share.js): the share sheet where the browser has one,
// the clipboard where it has not (with "Link copied"), the link shown when neither works,
// and a closed share sheet is not an error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";

import { noteFor, shareResult, wireShareButtons } from "../../static/frames/share.js";

const DATA = { title: "A 5–4 B", text: "A beat B 5–4", url: "https://league.example/matches/1/" };

test("the share sheet gets the title, the words and the link", async () => {
  const shared = [];
  const nav = { share: async (d) => shared.push(d), clipboard: { writeText: async () => assert.fail("copied") } };
  assert.equal(await shareResult(DATA, nav), "shared");
  assert.deepEqual(shared, [DATA]);
});

test("a closed share sheet is not copied instead", async () => {
  const abort = Object.assign(new Error("closed"), { name: "AbortError" });
  const nav = { share: async () => { throw abort; }, clipboard: { writeText: async () => assert.fail("copied") } };
  assert.equal(await shareResult(DATA, nav), "cancelled");
  assert.equal(noteFor("cancelled", DATA.url), "");
});

test("without a share sheet (or refused), the link is copied and the note says so", async () => {
  const copied = [];
  const clipboard = { writeText: async (t) => copied.push(t) };
  assert.equal(await shareResult(DATA, { clipboard }), "copied");
  const refused = { share: async () => { throw new Error("NotAllowedError"); }, clipboard };
  assert.equal(await shareResult(DATA, refused), "copied");
  assert.deepEqual(copied, [DATA.url, DATA.url]);
  assert.equal(noteFor("copied", DATA.url), "Link copied");
});

test("with neither, the note shows the link to copy by hand", async () => {
  const broken = { clipboard: { writeText: async () => { throw new Error("denied"); } } };
  assert.equal(await shareResult(DATA, broken), "failed");
  assert.equal(await shareResult(DATA, {}), "failed");
  assert.equal(noteFor("failed", DATA.url), `Copy this link: ${DATA.url}`);
});

test("a tap on the page's button shares its data and writes the note", async () => {
  const { document } = parseHTML(`<!doctype html><html><body><div class="share">
    <button data-share data-share-title="${DATA.title}" data-share-text="${DATA.text}" data-share-url="${DATA.url}">Share</button>
    <p data-share-note></p></div></body></html>`);
  const copied = [];
  wireShareButtons(document, { clipboard: { writeText: async (t) => copied.push(t) } });
  wireShareButtons(document, { clipboard: { writeText: async (t) => copied.push(`again ${t}`) } });
  document.querySelector("[data-share]").dispatchEvent(new document.defaultView.Event("click"));
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(copied, [DATA.url]);
  assert.equal(document.querySelector("[data-share-note]").textContent, "Link copied");
});
