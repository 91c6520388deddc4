// The pad's words (static/frames/pad/view.js createText): from describe()["pad"] and the
// frame's parties, never from a game's name.
import { test } from "node:test";
import assert from "node:assert/strict";

import { createText } from "../../static/frames/pad/view.js";

const PARTIES = { home: { label: "Red Lion", players: ["Ann"] }, away: { label: "Crown", players: ["Bob"] } };
const HINTS = {
  over: "Frame over",
  values: { next: { play_red: "Play the red" } },
  last: [["points", "+{}"], ["lost", "lost {}"], ["banked", "banked {}"]],
};

test("a state's values in the game's words, else plain words", () => {
  const t = createText({ pad: HINTS }, PARTIES);
  assert.equal(t.over, "Frame over");
  assert.equal(t.formatValue("next", "play_red"), "Play the red");
  assert.equal(t.formatValue("next", "break_off"), "Break off");
  assert.equal(t.formatValue("at_table", "home"), "Red Lion");
  assert.equal(t.formatValue("scores", { home: 50, away: 0 }), "Red Lion 50 · Crown 0");
  assert.equal(t.formatValue("cutoff", null), "–");
  assert.equal(createText({}, PARTIES).over, "Game over");
});

test("an event as a line: who, what, and what the game's last-event hints say it did", () => {
  const t = createText({ pad: HINTS }, PARTIES);
  const payload = { type: "shot", pots: [{ ball: "white", hole: 200 }, { ball: "red", hole: 50 }], fouls: ["pin_50"] };
  assert.equal(t.describeEvent("event", payload, null), "Shot: pots White 200, Red 50; foul: pin 50");
  assert.equal(t.describeEvent("event", { type: "shot" }, { player: "Ann", points: 0, lost: 150, banked: 0 }), "Ann: Shot (lost 150)");
  assert.equal(t.describeEvent("event", { type: "bar_down" }, { side: "away", points: 20 }), "Crown: Bar down (+20)");
  assert.equal(t.describeEvent("undo", {}, null), "Undo");
});

test("a list of objects (Bouillotte's pots) reads as words, not a dump of its keys", () => {
  const t = createText({ pad: {} }, { A: { label: "Ann" }, B: { label: "Bob" } });
  assert.equal(
    t.formatValue("pots", [{ chips: 5, players: ["A", "B"], winner: null, by: null }]),
    "5 chips, players A, B",
  );
  assert.equal(
    t.formatValue("pots", [{ chips: 4, players: ["A", "B"], winner: "A", by: "brelan" }, { chips: 2, players: ["B"], winner: "B", by: "fold" }]),
    "4 chips, players A, B, winner Ann, by brelan; 2 chips, players B, winner Bob, by fold",
  );
  assert.equal(t.formatValue("pots", []), "none");
});
