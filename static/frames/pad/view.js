/* What the pad shows: the sync badge, the board and the game's facts (the server's view,
 * or the phone engine's for shots still on the phone), the conflict and refused panels,
 * the result, and the last shots. Words come from describe() (display labels, and its
 * "pad" hints: the word for a finished game, words for a state's values). */

import { $, h, words, Words, plainMessage } from "./dom.js";

// The text helpers, on describe()["pad"] and the frame's parties.
export function createText(vocab, parties) {
  const hints = vocab.pad || {};
  const valueWords = hints.values || {};
  const lastWords = hints.last || [];
  const partyLabel = (p) => (parties[p] && parties[p].label) || (p === null || p === undefined ? "" : String(p));

  function formatValue(key, v) {
    if (v === null || v === undefined) return "–";
    if (typeof v === "boolean") return v ? "yes" : "no";
    const named = valueWords[key];
    if (named && (typeof v === "string" || typeof v === "number") && Object.hasOwn(named, v)) return named[v];
    if (key === "at_table" || key === "winner") return partyLabel(v);
    if (Array.isArray(v) && v.some((x) => x && typeof x === "object" && !Array.isArray(x))) {
      return v.length ? v.map(itemText).join("; ") : "none"; // pots: 5 chips, players A, B, C
    }
    if (Array.isArray(v)) return v.length ? v.map((x) => formatValue("", x)).join(", ") : "none";
    if (typeof v === "object") {
      const parts = Object.entries(v).map(([k, x]) => partyLabel(k) + " " + formatValue("", x));
      return parts.length ? parts.join(" · ") : "–";
    }
    if (typeof v === "string") return key === "next" || key === "on" || key === "phase" ? Words(v) : words(v);
    return String(v);
  }

  // One object of a list, in words: its amounts first ("5 chips"), then what it names,
  // leaving out what is not known yet (null, nothing).
  function itemText(o) {
    if (!o || typeof o !== "object") return formatValue("", o);
    const known = Object.entries(o).filter(([, x]) => x !== null && x !== undefined && x !== false && !(Array.isArray(x) && !x.length));
    const amounts = known.filter(([, x]) => typeof x === "number").map(([k, x]) => x + " " + words(k));
    const named = known.filter(([, x]) => typeof x !== "number").map(([k, x]) => words(k) + " " + formatValue(k, x));
    return amounts.concat(named).join(", ") || "–";
  }

  function describeValue(v) {
    if (Array.isArray(v)) return v.map(describeValue).join(" → ");
    if (v && typeof v === "object") return Object.values(v).map(describeValue).join(" ");
    if (typeof v === "boolean") return v ? "yes" : "no";
    return v === null ? "none" : words(v);
  }

  function fieldText(k, v) {
    if (k === "fouls" && Array.isArray(v)) return "foul: " + v.map(words).join(", ");
    if (Array.isArray(v) && v.length && v.every((x) => x && typeof x === "object" && !Array.isArray(x))) {
      return words(k) + " " + v.map((x) => Words(describeValue(x))).join(", "); // pots: White 50, Red 100
    }
    if (v && typeof v === "object" && !Array.isArray(v)) { // keyed by a choice set: say the keys
      return words(k) + " " + Object.entries(v).map(([key, x]) => partyLabel(key) + " " + describeValue(x)).join(", ");
    }
    return words(k) + " " + describeValue(v);
  }

  // One event as a line: who, what, and what the game says it did (its "last" hints).
  function describeEvent(kind, payload, last) {
    if (kind === "undo") return "Undo";
    const p = payload || {};
    const rest = Object.entries(p).filter(([k]) => k !== "type").map(([k, v]) => fieldText(k, v));
    let text = Words(p.type || "event") + (rest.length ? ": " + rest.join("; ") : "");
    const did = last ? lastWords.filter(([k]) => last[k]).map(([k, t]) => t.replace("{}", String(last[k]))) : [];
    if (did.length) text += " (" + did.join(", ") + ")";
    const who = last && (last.player || partyLabel(last.side));
    return who ? who + ": " + text : text;
  }

  return { partyLabel, formatValue, describeEvent, over: hints.over || "Game over" };
}

// What the send buttons say while a refused shot waits for the referee.
export const REFUSED_WAITS = "Refused shot: discard it or send it";

/* The page's renderer. deps: engine ({view, state, start}), sync (the actions), controls
 * (or null), awake ({check}). */
export function createView(ctx, vocab, pad, deps) {
  const PARTIES = ctx.parties || {};
  const text = createText(vocab, PARTIES);
  const { partyLabel, formatValue, describeEvent } = text;

  function statusText() {
    const waiting = pad.items.length;
    if (pad.snap.conflict) return ["conflict", "conflict"];
    if (pad.items.some((it) => it.state === "rejected")) return ["refused", "refused"];
    if (pad.sending) return ["syncing", "syncing"];
    if (waiting || pad.netDown || pad.loginNeeded) return ["saved", "saved on phone (" + waiting + " waiting)"];
    return ["online", "online"];
  }

  function render() {
    if (!pad.snap) return;
    const [state, said] = statusText();
    const badge = $("#sync-status");
    badge.dataset.state = state;
    badge.dataset.waiting = String(pad.items.length);
    badge.textContent = said;
    $("#login-needed").hidden = !pad.loginNeeded;

    const server = pad.snap.server;
    const items = pad.items;
    const firstRefused = items.findIndex((it) => it.state === "rejected");
    const queued = (firstRefused < 0 ? items : items.slice(0, firstRefused)).filter((it) => it.state === "queued");
    if (queued.length && pad.netDown && deps.engine.state() === "off") deps.engine.start(); // the first offline shot
    const computed = deps.engine.view(server, queued);
    const view = computed ? computed.view : server.view;
    const choices = computed ? computed.choices : server.choices || {};
    const note = $("#estimate");
    const n = items.filter((it) => it.state === "queued").length;
    // Above a scorer's controls the note's place is kept, empty or not: nothing moves
    // under the thumb when it comes and goes.
    if (note.classList.contains("reserved")) note.hidden = false;
    else note.hidden = !n;
    note.dataset.source = computed ? "engine" : "server";
    const shots = n + " shot" + (n === 1 ? "" : "s") + " not yet stored by the server";
    note.textContent = !n ? "" : computed
      ? "Worked out on this phone by the rules engine: " + shots + "."
      : "Showing the last stored state: " + shots + (deps.engine.state() === "loading" ? " (the engine is loading)." : ".");
    renderBoard(view);
    renderConflict();
    renderRejected();
    renderResult(server);
    renderHistory(server, items);
    if (deps.controls) {
      const closed = server.status === "complete" || server.status === "conceded" || server.confirmed;
      deps.controls.update(view, choices, closed, firstRefused >= 0 ? REFUSED_WAITS : null);
    }
    deps.awake.check();
  }

  function partiesOf(view) {
    if (view.scores && typeof view.scores === "object") return Object.keys(view.scores);
    const setup = pad.snap.server.setup || {};
    if (Array.isArray(setup.players)) return setup.players.filter(Boolean);
    return Object.keys(PARTIES).filter((p) => !PARTIES[p].team);
  }

  function renderBoard(view) {
    const scores = view.scores || {};
    const board = $("#board");
    const parties = partiesOf(view);
    const key = parties.join("\u0001");
    if (board.dataset.parties !== key) {
      board.dataset.parties = key;
      board.classList.toggle("many", parties.length > 2);
      // A side: its team's name, then its players; a player: his team (if any), his name.
      board.replaceChildren(...parties.map((p) => h("div", { class: "side", data: { side: p, party: p } },
        h("span", { class: "team" }, PARTIES[p] && PARTIES[p].team ? PARTIES[p].team : partyLabel(p)),
        h("span", { class: "who" }), h("span", { class: "banked" }, "–"))));
    }
    for (const slot of board.querySelectorAll(".side")) {
      const party = slot.dataset.party;
      const atTable = view.at_table === party && !view.over;
      slot.classList.toggle("at-table", atTable);
      slot.classList.toggle("winner", !!view.over && view.winner === party);
      slot.querySelector(".banked").textContent = party in scores ? formatValue("", scores[party]) : "–";
      const info = PARTIES[party] || {};
      const players = info.players || [];
      const shown = info.team ? partyLabel(party) : players.length === 1 && players[0] === party ? "" : players.join(" & ");
      slot.querySelector(".who").textContent = atTable && view.player && view.player !== party ? view.player : shown;
    }
    // The game's own list of what a pad shows, with its labels.
    const display = (vocab.display || []).filter((d) => d.key !== "scores");
    const facts = $("#facts");
    if (facts.dataset.keys !== display.map((d) => d.key).join(",")) {
      facts.dataset.keys = display.map((d) => d.key).join(",");
      facts.replaceChildren(...display.map((d) => h("div", { data: { key: d.key } },
        h("dt", {}, d.label), h("dd", { id: "fact-" + d.key, data: { key: d.key } }, "–"))));
    }
    for (const d of display) {
      const row = facts.querySelector('div[data-key="' + d.key + '"]');
      const value = view[d.key];
      row.hidden = value === undefined || value === null;
      const dd = row.querySelector("dd");
      dd.textContent = view.over && d.key === "next" ? text.over : formatValue(d.key, value);
      dd.dataset.value = JSON.stringify(value === undefined ? null : value);
    }
  }

  function eventList(list, pending) {
    return h("ol", { class: "shots" }, list.map((e) =>
      h("li", { class: pending ? "pending" : "" }, describeEvent(e.kind, e.payload, pending ? null : e.last))));
  }

  // The conflict whose Discard has been tapped once: kept outside the panel, which is
  // drawn again on every render (a poll, the sync status), so the second tap still counts.
  let armedFor = null;

  function renderConflict() {
    const box = $("#conflict");
    const conflict = pad.snap.conflict;
    if (!conflict) {
      armedFor = null;
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    const queued = pad.items.filter((it) => it.state === "queued");
    box.hidden = false;
    const key = conflict.at + "|" + conflict.last_seq; // the snapshot is read again from the store
    const armedText = "Really discard " + queued.length + " shot(s)? Tap again";
    const discard = h("button", { class: "danger secondary", type: "button", id: "conflict-discard" },
      armedFor === key ? armedText : "Discard my " + queued.length + " shot(s)");
    discard.addEventListener("click", () => {
      if (armedFor === key) {
        armedFor = null;
        return deps.sync.resolveConflict(false);
      }
      armedFor = key;
      discard.textContent = armedText;
    });
    box.replaceChildren(
      h("h2", {}, "Conflict: another device scored this frame"),
      h("p", {}, "The server took " + conflict.events.length + " event(s) from another device while this phone held " + queued.length + ". Nothing has been dropped: choose what happens to this phone's shots."),
      h("div", { class: "versions" },
        h("div", { class: "version", id: "conflict-server" }, h("h3", {}, "On the server"), eventList(conflict.events, false)),
        h("div", { class: "version", id: "conflict-local" }, h("h3", {}, "On this phone, not sent"), eventList(queued, true))),
      h("div", { class: "actions" },
        h("button", { type: "button", id: "conflict-keep", on: { click: () => deps.sync.resolveConflict(true) } }, "Add my shots after theirs"),
        discard));
  }

  function renderRejected() {
    const box = $("#rejected");
    const bad = pad.items.find((it) => it.state === "rejected");
    if (!bad) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    // A scorer sees it under the send button (where his thumb is), brought into view
    // when it comes; later taps wait until he discards it or sends it anyway.
    if (deps.controls && box.parentElement !== deps.controls.slot) deps.controls.slot.append(box);
    const coming = box.hidden;
    box.hidden = false;
    const local = bad.error && bad.error.local;
    const behind = pad.items.filter((it) => it.n > bad.n).length;
    box.replaceChildren(
      h("h2", { id: "rejected-title" }, "Refused"),
      h("p", { class: "refused-shot" }, describeEvent(bad.kind, bad.payload, null)),
      h("p", { class: "refused-why", id: "rejected-message" }, plainMessage(bad.error)),
      h("p", { class: "helptext" }, (local ? "The rules engine on this phone refused it; it has not been sent. "
        : "The server refused it. ") + (behind ? behind + " later shot(s) wait behind it. " : "") + "Discard it and enter what happened, or send it anyway."),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "danger secondary", id: "rejected-discard", on: { click: () => deps.sync.discardRejected(bad) } }, "Discard this shot"),
        h("button", { type: "button", class: "secondary", id: "rejected-retry", on: { click: () => deps.sync.retryRejected(bad) } }, local ? "Send it anyway" : "Try again")));
    if (coming && box.scrollIntoView) box.scrollIntoView({ block: "nearest" });
  }

  function renderResult(server) {
    const box = $("#result");
    const view = server.view;
    const pending = pad.items.length > 0;
    if (!view.over || pending) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    box.hidden = false;
    const scores = view.scores || {};
    const line = Object.keys(scores).map((s) => partyLabel(s) + " " + formatValue("", scores[s])).join(" – ");
    const outcome = view.shared ? "Shared." : view.winner ? partyLabel(view.winner) + " wins." : "Over.";
    const parts = [h("h2", {}, text.over), h("p", { class: "result", id: "result-line" }, line), h("p", {}, outcome)];
    if (server.status === "complete" || server.confirmed) {
      parts.push(h("p", {}, "Confirmed. "), h("a", { class: "button", href: ctx.urls.scorecard, id: "to-scorecard" }, ctx.match ? "Go to the scorecard" : "Back to the game"));
    } else if (ctx.can_enter) {
      parts.push(h("p", { class: "helptext" }, "Check the result with the players, then confirm. Undo if the last shot was wrong."));
      parts.push(h("button", { type: "button", id: "confirm-result", class: "big", disabled: pad.confirming, on: { click: () => deps.sync.confirmResult() } }, "Confirm result"));
    }
    box.replaceChildren(...parts);
  }

  function renderHistory(server, outbox) {
    const list = $("#shots");
    const stored = server.recent.slice(-8).map((e) =>
      h("li", { data: { seq: String(e.seq) } }, h("span", { class: "seq" }, "#" + e.seq), " ", describeEvent(e.kind, e.payload, e.last)));
    const pending = outbox.map((it) =>
      h("li", { class: it.state === "rejected" ? "pending refused" : "pending", data: { eventId: it.event_id } },
        h("span", { class: "seq" }, it.state === "rejected" ? "Refused" : "pending"), " ", describeEvent(it.kind, it.payload, null)));
    list.replaceChildren(...pending.reverse(), ...stored.reverse());
  }

  // A message in the page's banner, gone after six seconds.
  function alertBox(message) {
    const box = $("#not-allowed");
    box.textContent = message;
    box.hidden = false;
    setTimeout(() => { box.hidden = true; }, 6000);
  }

  function showNotAllowed(message) {
    const box = $("#not-allowed");
    box.textContent = message + " Your shots stay on this phone.";
    box.hidden = false;
  }

  return { render, text, alertBox, showNotAllowed };
}
