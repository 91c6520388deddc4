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

// Mississippi's ball (the shape of its describe()): the played ball's own fields, then the
// other balls it moved; "to" may be left out when the arch is given (the game's hint).
const BALL_VOCAB = {
  fouls: [],
  events: [
    {
      type: "ball", doc: "", fields: [
        field("to", "union", { nullable: true, variants: [
          field("number", "int", { choices_from: "numbers" }),
          field("word", "str", { choices: ["table", "back", "off"] }),
        ] }),
        field("arch", "int", { nullable: true, choices_from: "arches" }),
        field("first_hit", "str", { nullable: true, choices: ["white"] }),
        field("cushion", "bool", { default: false }),
        field("others", "list", { default: [], item: field("other", "object", { fields: [
          field("ball", "str", { required: true, choices: ["white"] }),
          field("arch", "int", { nullable: true, choices_from: "arches" }),
        ] }) }),
        field("king_struck", "bool", { default: false }),
      ],
    },
  ],
  pad: { over: "Game over", fields: { ball: { to: { needed_unless: "arch" } } } },
};

test("the played ball's own fields come first, up front; others after; later fields behind More", () => {
  ({ document } = parseHTML('<!doctype html><html><body><section id="controls"></section></body></html>'));
  globalThis.document = document;
  root = document.getElementById("controls");
  sent = [];
  createControls(root, BALL_VOCAB, { choices: { numbers: [1, 2], arches: [1, 2, 3] }, partyLabel: (p) => p, enqueue: (k, p) => sent.push([k, p]), entered: () => {} })
    .update({ over: false }, { numbers: [1, 2], arches: [1, 2, 3] }, false);
  const panel = q('.event-panel[data-type="ball"]');
  const upFront = [...panel.children].filter((n) => n.dataset.field).map((n) => n.dataset.field);
  assert.deepEqual(upFront, ["to", "arch", "first_hit", "cushion", "others"]);
  assert.deepEqual([...panel.querySelectorAll("details.more [data-field]")].map((n) => n.dataset.field), ["king_struck"]);
  // Enter waits for where the ball went or its arch; a first hit alone is not a ball
  const enter = panel.querySelector('button[data-enter="ball"]');
  assert.equal(enter.disabled, true);
  assert.equal(enter.textContent, "Choose to or arch");
  click(panel.querySelector('[data-field="first_hit"] button.pick[data-value="white"]'));
  assert.equal(enter.disabled, true);
  click(panel.querySelector('[data-field="arch"] button.pick[data-value="3"]'));
  assert.equal(enter.disabled, false);
  click(enter);
  assert.deepEqual(sent, [["event", { type: "ball", arch: 3, first_hit: "white" }]]);
  click(panel.querySelector('[data-field="to"] button.pick[data-value="table"]'));
  assert.equal(enter.disabled, false);
});

// Bouillotte's moves (the shape of its describe()): every event names who acts (optional:
// the player at the table); open and raise take chips; the hints say which phase offers each.
const who = () => field("player", "str", { choices_from: "players" });
const DEAL_VOCAB = {
  fouls: [],
  events: [
    { type: "straddle", doc: "", fields: [who()] },
    { type: "decline", doc: "", fields: [who()] },
    { type: "pass", doc: "", fields: [who()] },
    { type: "open", doc: "", fields: [field("chips", "int", { required: true, minimum: 1 }), who()] },
    { type: "call", doc: "", fields: [who()] },
    { type: "raise", doc: "", fields: [field("chips", "int", { required: true, minimum: 1 }), who()] },
    { type: "fold", doc: "", fields: [who()] },
  ],
  pad: {
    over: "Game over",
    events: {
      straddle: { when: { phase: ["straddle"] } },
      decline: { when: { phase: ["straddle", "buy_back"] } },
      pass: { when: { phase: ["open", "reraise"] } },
      open: { when: { phase: ["open"] } },
      call: { when: { phase: ["bet"] } },
      raise: { when: { phase: ["bet", "reraise"] } },
      fold: { when: { phase: ["bet"] } },
    },
  },
};

test("moves that only say who acts are one tap each, only those the phase offers; one bet form", () => {
  ({ document } = parseHTML('<!doctype html><html><body><section id="controls"></section></body></html>'));
  globalThis.document = document;
  root = document.getElementById("controls");
  sent = [];
  const players = { players: ["A", "B", "C"] };
  const deal = createControls(root, DEAL_VOCAB, { choices: players, partyLabel: (p) => p, enqueue: (k, p) => sent.push([k, p]), entered: () => {} });
  const shown = (sel) => qa(sel).filter((b) => !b.hidden).map((b) => b.dataset.action || b.dataset.type);
  const panelShown = () => qa(".event-panel").filter((p) => !p.hidden).map((p) => p.dataset.type);
  deal.update({ over: false, phase: "straddle" }, players, false);
  assert.deepEqual(shown(".moves-row button.move"), ["straddle", "decline"]);
  assert.deepEqual(panelShown(), []);
  assert.equal(q("#event-tabs").hidden, true);
  click(q("#decline"));
  assert.deepEqual(sent, [["event", { type: "decline" }]]);
  deal.update({ over: false, phase: "open" }, players, false);
  assert.deepEqual(shown(".moves-row button.move"), ["pass"]);
  assert.deepEqual(panelShown(), ["open"]);
  assert.equal(q("#event-tabs").hidden, true); // one form: no tabs
  const open = q('.event-panel[data-type="open"]');
  assert.ok(open.querySelector('details.more [data-field="player"]')); // who acts: behind More
  click(open.querySelector('button.key[data-key="3"]'));
  click(open.querySelector('button[data-enter="open"]'));
  assert.deepEqual(sent[1], ["event", { type: "open", chips: 3 }]);
  deal.update({ over: false, phase: "bet" }, players, false);
  assert.deepEqual(shown(".moves-row button.move"), ["call", "fold"]);
  assert.deepEqual(panelShown(), ["raise"]);
  assert.equal(q('.event-panel[data-type="raise"] .panel-title').hidden, false); // its name, no tab
  deal.update({ over: true, phase: "over" }, players, false); // over: one form says so, no tabs
  assert.deepEqual(panelShown(), ["raise"]);
  assert.equal(q("#event-tabs").hidden, true);
  assert.equal(q('button[data-enter="raise"]').textContent, "Game over");
  assert.deepEqual(shown(".moves-row button.move"), []);
});
