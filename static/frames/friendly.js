/* Starting a friendly game: the card picker. A keyed option whose values are lists of
 * choices (Bouillotte's hands: name -> cards) is a textarea of "name: card card card"
 * lines marked data-picker (the choices, from the game's declaration) and data-keys (the
 * choice set its keys come from); here it gets one row of chips a player, the names read
 * from the Players box. The textarea stays the form's value (and works without script):
 * the picker writes it. A card taken by one player is off for the others. */

import { h } from "./pad/dom.js";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = /[HD]$/;

// The names the Players box gives, as the option's keys: each player ("players"), or
// each line's side ("sides": "Ann & Cat").
export function keysFrom(text, keys) {
  const lines = text.split("\n").map((l) => l.split(/[&,]/).map((n) => n.trim().replace(/\s+/g, " ")).filter(Boolean)).filter((l) => l.length);
  if (keys === "sides") return lines.map((l) => l.join(" & "));
  return lines.flat();
}

// "name: a b c" lines -> {name: [a, b, c]}
export function parseLines(text) {
  const out = {};
  for (const line of text.split("\n")) {
    const at = line.lastIndexOf(":");
    if (at < 0) continue;
    const name = line.slice(0, at).trim().replace(/\s+/g, " ");
    if (name) out[name] = line.slice(at + 1).split(/[\s,;]+/).filter(Boolean);
  }
  return out;
}

export const writeLines = (names, picked) => names.map((n) => n + ": " + (picked[n] || []).join(" ")).join("\n");

// A card's label: its rank and its suit's sign ("A♠"); other choices as they are.
export const cardLabel = (c) => (c.length === 2 && SUITS[c[1]] ? c[0] + SUITS[c[1]] : c);

export function createPicker(textarea, playersBox) {
  const choices = JSON.parse(textarea.dataset.picker);
  const node = h("div", { class: "picker", role: "group", "aria-label": textarea.labels && textarea.labels[0] ? textarea.labels[0].textContent : "Picker" });
  textarea.before(node);
  textarea.rows = 2;
  function render() {
    const names = keysFrom(playersBox.value, textarea.dataset.keys);
    const picked = parseLines(textarea.value);
    const taken = new Map();
    for (const n of names) for (const c of picked[n] || []) taken.set(c, n);
    if (!names.length) {
      node.replaceChildren(h("p", { class: "picker-empty" }, "Name the players above to pick their cards."));
      return;
    }
    node.replaceChildren(...names.map((name) => {
      const mine = picked[name] || [];
      return h("div", { class: "picker-row", data: { key: name } },
        h("div", { class: "picker-name" }, h("span", {}, name), h("output", {}, mine.map(cardLabel).join(" ") || "–")),
        h("div", { class: "picker-cards" }, choices.map((c) => h("button", {
          type: "button", class: RED.test(c) ? "red" : "", "aria-pressed": String(mine.includes(c)),
          "aria-label": name + ": " + c, data: { value: c },
          disabled: taken.has(c) && taken.get(c) !== name,
          on: {
            click: () => {
              const now = parseLines(textarea.value);
              const list = now[name] || [];
              now[name] = list.includes(c) ? list.filter((x) => x !== c) : list.concat([c]);
              textarea.value = writeLines(names, now);
              render();
            },
          },
        }, cardLabel(c)))));
    }));
  }
  playersBox.addEventListener("input", render);
  textarea.addEventListener("input", render);
  render();
  return { render };
}

function enhance() {
  const players = document.getElementById("id_players");
  if (!players) return;
  document.querySelectorAll("textarea[data-picker]").forEach((t) => {
    if (t.dataset.enhanced) return;
    t.dataset.enhanced = "1";
    createPicker(t, players);
  });
}

if (typeof document !== "undefined" && document.getElementById) {
  enhance();
  document.addEventListener("htmx:afterSettle", enhance); // another game's options came in
}
