// The controls (static/frames/pad/controls.js) built from a describe() on linkedom's DOM:
// chips, a list of objects committed by its last choice, the foul group, the number pad,
// the game's layout hints (behind "More", shown only in a state, values closed in a
// state), the action buttons, and the payload a tap sends.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";

import { createControls, primaryEvent } from "../../static/frames/pad/controls.js";

const field = (name, type, extra) => Object.assign({ name, type, doc: "", required: false, nullable: false, default: null, choices: null, choices_from: null, minimum: null, maximum: null, item: null, fields: [], variants: [] }, extra);

const VOCAB = {
  fouls: [{ code: "in_off", doc: "", common: true }, { code: "push", doc: "", common: false }],
  events: [
    {
      type: "shot", doc: "", fields: [
        field("pots", "list", { item: field("pot", "object", { fields: [
          field("ball", "str", { required: true, choices: ["white", "red"] }),
          field("hole", "int", { required: true, choices: [10, 50, 100, 200] }),
        ] }) }),
        field("fouls", "list", { item: field("foul", "str", { choices: ["in_off", "push"] }) }),
        field("to_trough", "list", { item: field("ball", "str", { choices: ["white", "red"] }) }),
        field("cushion", "bool"),
      ],
    },
    { type: "rest", doc: "", fields: [field("points", "int", { required: true, minimum: 0, maximum: 500 })] },
    { type: "bar_down", doc: "", fields: [] },
    { type: "invoke_endgame", doc: "", fields: [] },
  ],
  pad: {
    over: "Frame over",
    fields: { shot: { to_trough: { more: true }, cushion: { when: { phase: "endgame" } }, "pots.hole": { when: { phase: "endgame" }, open: [100, 200] } } },
  },
};

let document;
let root;
let sent;
let entered;
let controls;
const click = (node) => node.dispatchEvent(new document.defaultView.Event("click"));
const q = (sel) => root.querySelector(sel);
const qa = (sel) => [...root.querySelectorAll(sel)];
const PLAY = { over: false, phase: "play" };

beforeEach(() => {
  ({ document } = parseHTML('<!doctype html><html><body><section id="controls"></section></body></html>'));
  globalThis.document = document;
  root = document.getElementById("controls");
  sent = [];
  entered = 0;
  controls = createControls(root, VOCAB, {
    choices: {},
    partyLabel: (p) => p,
    enqueue: (kind, payload) => sent.push([kind, payload]),
    entered: () => { entered += 1; },
  });
  controls.update(PLAY, {}, false);
});

test("the primary event opens; one tab a form event; one button an action", () => {
  assert.equal(primaryEvent(VOCAB).type, "shot");
  assert.deepEqual(qa("#event-tabs button").map((b) => b.dataset.type), ["shot", "rest"]);
  assert.equal(q('.event-panel[data-type="shot"]').hidden, false);
  assert.equal(q('.event-panel[data-type="rest"]').hidden, true);
  assert.deepEqual(qa("button.action").map((b) => b.id), ["bar-down", "invoke-endgame"]);
});

test("pick the ball, tap the hole: a pot; the fouls; then Enter sends the shot and resets", () => {
  const pots = q('[data-field="pots"]');
  click(pots.querySelector('[data-sub="ball"] button.pick[data-value="red"]'));
  click(pots.querySelector('.commit[data-sub="hole"] button.pick[data-value="50"]'));
  click(pots.querySelector('.commit[data-sub="hole"] button.pick[data-value="10"]')); // the ball is white again
  click(q('.foul-group button.foul[data-foul="in_off"]'));
  assert.equal(q(".foul-group").classList.contains("active"), true);
  const enter = q('button[data-enter="shot"]');
  assert.equal(enter.disabled, false);
  click(enter);
  assert.deepEqual(sent, [["event", { type: "shot", pots: [{ ball: "red", hole: 50 }, { ball: "white", hole: 10 }], fouls: ["in_off"] }]]);
  assert.equal(entered, 1);
  assert.equal(pots.querySelectorAll(".chips button.chip").length, 0);
  assert.equal(q('.foul-group button.foul[data-foul="in_off"]').getAttribute("aria-pressed"), "false");
});

test("the game's hints: tidying behind More, a field only in its state, values closed then", () => {
  assert.ok(q('details.more[data-more="shot"] [data-field="to_trough"]'));
  const cushion = q('.event-panel[data-type="shot"] > [data-field="cushion"]');
  assert.equal(cushion.hidden, true);
  const hole = (v) => q(`.commit[data-sub="hole"] button.pick[data-value="${v}"]`);
  assert.equal(hole(10).disabled, false);
  controls.update({ over: false, phase: "endgame" }, {}, false);
  assert.equal(cushion.hidden, false);
  assert.deepEqual([10, 50, 100, 200].map((v) => hole(v).disabled), [true, true, false, false]);
});

test("a required number: Enter waits for it and says what is missing; the maximum holds", () => {
  click(q('#event-tabs button[data-type="rest"]'));
  const panel = q('.event-panel[data-type="rest"]');
  const enter = panel.querySelector('button[data-enter="rest"]');
  assert.equal(enter.disabled, true);
  assert.equal(enter.textContent, "Choose points");
  for (const k of ["9", "9", "9"]) click(panel.querySelector(`button.key[data-key="${k}"]`));
  assert.equal(panel.querySelector("output.number-value").textContent, "99"); // 999 is over 500
  click(enter);
  assert.deepEqual(sent, [["event", { type: "rest", points: 99 }]]);
  assert.equal(q('.event-panel[data-type="shot"]').hidden, false); // back to the primary event
});

test("over: the panel says the game's word and is off; the actions follow the view", () => {
  controls.update({ over: true, phase: "over", can_invoke_endgame: true, bar_down: true }, {}, false);
  const enter = q('button[data-enter="shot"]');
  assert.equal(enter.disabled, true);
  assert.equal(enter.textContent, "Frame over");
  assert.ok(qa('.event-panel[data-type="shot"] button.pick').every((b) => b.disabled));
  assert.equal(q("#bar-down").hidden, true); // done
  assert.equal(q("#invoke-endgame").hidden, false); // can_ says yes
  controls.update(PLAY, {}, false);
  assert.equal(q('.commit[data-sub="hole"] button.pick[data-value="10"]').disabled, false);
  assert.equal(enter.textContent, "Enter shot");
  click(q("#undo"));
  assert.deepEqual(sent, [["undo", {}]]);
});

test("closed (confirmed): the controls are hidden", () => {
  controls.update(PLAY, {}, true);
  assert.equal(root.hidden, true);
  assert.equal(q("#undo").disabled, true);
});

test("a refused shot waiting: the send buttons say so and nothing else can be entered", () => {
  controls.update(PLAY, {}, false, "Refused shot: discard it or send it");
  const enter = q('button[data-enter="shot"]');
  assert.equal(enter.disabled, true);
  assert.equal(enter.textContent, "Refused shot: discard it or send it");
  assert.equal(q("#undo").disabled, true);
  assert.ok(qa("button.action").every((b) => b.disabled));
  click(enter);
  assert.deepEqual(sent, []);
  assert.ok(root.contains(controls.slot));
  controls.update(PLAY, {}, false, null);
  assert.equal(enter.disabled, false);
  assert.equal(q("#undo").disabled, false);
});
