// The start page's card picker (static/frames/friendly.js) on linkedom: a hand of cards a
// player, the names from the Players box, a card held by one player off for the others,
// and the textarea (the form's value) written as "name: card card card" lines.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";

import { cardLabel, createPicker, keysFrom, parseLines } from "../../static/frames/friendly.js";

test("the keys come from the Players box: each player, or each line's side", () => {
  assert.deepEqual(keysFrom("Ann\n  Bob & Cat \n\nDan", "players"), ["Ann", "Bob", "Cat", "Dan"]);
  assert.deepEqual(keysFrom("Ann & Cat\nBob,Dan", "sides"), ["Ann & Cat", "Bob & Dan"]);
  assert.deepEqual(parseLines("A: AS KH\nB:9D\nnot a line"), { A: ["AS", "KH"], B: ["9D"] });
  assert.equal(cardLabel("AS"), "A♠");
  assert.equal(cardLabel("9H"), "9♥");
});

test("a hand is picked by taps; a card held is off for the others; the lines are written", () => {
  const { document } = parseHTML(`<!doctype html><html><body>
    <textarea id="id_players">A
B</textarea>
    <textarea id="id_opt_hands" data-picker='["AS","KS","9H"]' data-keys="players"></textarea></body></html>`);
  globalThis.document = document;
  const players = document.getElementById("id_players");
  const hands = document.getElementById("id_opt_hands");
  createPicker(hands, players);
  const click = (n) => n.dispatchEvent(new document.defaultView.Event("click"));
  const card = (who, c) => document.querySelector(`.picker-row[data-key="${who}"] button[data-value="${c}"]`);
  assert.equal(document.querySelectorAll(".picker-row").length, 2);
  click(card("A", "AS"));
  click(card("A", "9H"));
  assert.equal(hands.value, "A: AS 9H\nB: ");
  assert.equal(card("B", "AS").disabled, true);
  assert.equal(card("A", "AS").getAttribute("aria-pressed"), "true");
  click(card("A", "AS")); // taken back
  click(card("B", "AS"));
  assert.equal(hands.value, "A: 9H\nB: AS");
  players.value = "A\nB\nC";
  players.dispatchEvent(new document.defaultView.Event("input"));
  assert.equal(document.querySelectorAll(".picker-row").length, 3);
});
