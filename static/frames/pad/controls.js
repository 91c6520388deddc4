/* The pad's controls, built from the game's describe(): one control per field type, each
 * {node, get() -> value | undefined, reset(), refresh(view), missing() -> label | null}:
 *   choices (str/int/number/bool/choices_from) -> a row of chips, one pressed
 *   union of choice-only variants              -> one row of all their values
 *   other unions                               -> a switch of the variants' controls
 *   int / number                               -> a number pad (minimum/maximum kept)
 *   list of choices                            -> tap in order (undo last, clear), or
 *                                                 toggles when the order does not matter
 *   list of fouls                              -> the Foul group
 *   list of objects                            -> the item's pickers; tapping a value of its
 *                                                 last required choice field adds the item
 *   object with fields                         -> its fields' controls
 *   str                                        -> a text box; anything else: JSON
 * Layout hints (what goes behind "More", what shows only in some states, which values are
 * open when) come from describe()["pad"]["fields"]: words and layout, never rules. */

import { h, words, Words } from "./dom.js";

// A whole number in a short range (a ball 1 to 15) is a row of chips, not a number pad.
export const SHORT_RANGE = 16;

const valueKey = (v) => (v === null ? "" : String(v));
// A hint's `when`: view key -> the value it must have, or a list of the values it may have.
const matches = (when, view) => Object.entries(when || {}).every(([k, v]) =>
  view && (Array.isArray(v) ? v.includes(view[k]) : view[k] === v));

// The seating's choice sets: a field naming one of them says who.
const SEATING = new Set(["players", "parties", "sides"]);
// "Who acts", by the vocabulary's convention (a `player` or `by` field from the seating,
// optional: the player at the table by default). Rarely needed, so never up front.
export const isWho = (f) => !f.required && f.type === "str" && SEATING.has(f.choices_from) &&
  (f.name === "player" || f.name === "by");
// An event whose only fields say who acts is one tap: an action button.
export const isAction = (ev) => ev.fields.every(isWho);

export function scalarChoices(f) {
  if (f.type === "bool") return [true, false];
  if (f.choices && f.choices.length) return f.choices;
  if (f.type === "int" && f.minimum !== null && f.maximum !== null && f.maximum - f.minimum < SHORT_RANGE) {
    return Array.from({ length: f.maximum - f.minimum + 1 }, (_, i) => f.minimum + i);
  }
  return null;
}

// The event the pad opens on: the game's first with fields (describe() lists a game's
// events with its everyday one first: the shot, the stroke, the throw).
export function primaryEvent(vocab) {
  return vocab.events.find((e) => !isAction(e)) || null;
}

// Builds the controls into `root`. opts: choices (the choice sets now), partyLabel(party),
// enqueue(kind, payload), entered() (a panel has taken an event: the tests wait on it).
export function createControls(root, vocab, opts) {
  const partyLabel = opts.partyLabel || ((p) => String(p));
  const hints = (vocab.pad && vocab.pad.fields) || {};
  const overLabel = (vocab.pad && vocab.pad.over) || "Game over";
  const FOUL_CODES = new Set(vocab.fouls.map((f) => f.code));
  let liveChoices = opts.choices || {};
  let changed = () => {};
  let blocked = null; // why nothing may be entered now (a refused shot waits), or null

  const hintFor = (path) => {
    const dot = path.indexOf(".");
    return (hints[path.slice(0, dot)] || {})[path.slice(dot + 1)] || null;
  };
  // A value the game's hints close in this state (a hole closed in some phase).
  const closedValue = (path, value, view) => {
    const hint = hintFor(path);
    return !!(hint && hint.open && matches(hint.when, view) && !hint.open.includes(value));
  };

  function choiceValues(f) {
    if (f.choices_from) return liveChoices[f.choices_from] || [];
    return scalarChoices(f);
  }
  function flatUnion(f) {
    if (f.type !== "union" || !f.variants.length) return null;
    const all = [];
    for (const v of f.variants) {
      if (v.type === "list" || v.type === "object") return null;
      const values = v.choices_from ? liveChoices[v.choices_from] || [] : scalarChoices(v);
      if (!values) return null;
      all.push(...values);
    }
    return all;
  }
  const isChoice = (f) => !!(f.choices_from || scalarChoices(f) || flatUnion(f));
  const isFouls = (f) => f.type === "list" && f.item && f.item.choices && f.item.choices.length &&
    f.item.choices.every((c) => FOUL_CODES.has(c)) && vocab.fouls.length > 0;
  const label = (f) => Words(f.name);
  const partyOrWord = (f, v) => (f.choices_from ? partyLabel(v) : words(v));

  function describeValue(v) {
    if (Array.isArray(v)) return v.map(describeValue).join(" → ");
    if (v && typeof v === "object") return Object.values(v).map(describeValue).join(" ");
    if (typeof v === "boolean") return v ? "yes" : "no";
    return v === null ? "none" : words(v);
  }

  function chipsControl(f, path, o) {
    o = o || {};
    let picked; // undefined: nothing; null: "none"
    const row = h("div", { class: "chips-row" + (o.big ? " big-grid" : ""), role: "group", "aria-label": label(f) });
    const valuesOf = () => (o.values ? o.values() : flatUnion(f) || choiceValues(f) || []);
    let shownKey = null;
    function build() {
      const values = valuesOf();
      const key = JSON.stringify(values);
      if (key === shownKey) return;
      shownKey = key;
      const buttons = values.map((v) => h("button", {
        type: "button", class: "pick" + (o.big ? " big-pick" : ""),
        "aria-pressed": "false", data: { value: valueKey(v), type: typeof v },
        on: {
          click: () => {
            if (o.onPick) return o.onPick(v);
            picked = picked === v ? undefined : v;
            sync();
          },
        },
      }, typeof v === "boolean" ? (v ? "Yes" : "No") : o.labelOf ? o.labelOf(v) : partyOrWord(f, v)));
      if (f.nullable && !o.onPick && f.type !== "bool" && (f.required || /\bnull\b/.test(f.doc || ""))) {
        buttons.push(h("button", {
          type: "button", class: "pick none", "aria-pressed": "false", data: { value: "", null: "1" },
          on: { click: () => { picked = picked === null ? undefined : null; sync(); } },
        }, "None"));
      }
      row.replaceChildren(...buttons);
      if (picked !== undefined && picked !== null && !values.includes(picked)) picked = undefined;
    }
    function sync() {
      row.querySelectorAll("button.pick").forEach((b) => {
        const on = picked === null ? b.dataset.null === "1" : picked !== undefined && !b.dataset.null && b.dataset.value === valueKey(picked);
        b.setAttribute("aria-pressed", String(!!on));
      });
      changed();
    }
    build();
    return {
      node: row,
      get: () => picked,
      set: (v) => { picked = v; sync(); },
      reset: () => { picked = o.initial !== undefined ? o.initial : undefined; sync(); },
      refresh: (view) => {
        build();
        sync();
        row.querySelectorAll("button.pick").forEach((b) => {
          const v = valuesOf().find((x) => valueKey(x) === b.dataset.value);
          b.disabled = v !== undefined && closedValue(path, v, view);
        });
      },
      missing: () => (f.required && picked === undefined ? label(f) : null),
    };
  }

  function numberPad(f) {
    let text = "";
    const out = h("output", { class: "number-value", "aria-live": "polite" }, "–");
    const hint = [f.minimum !== null ? "from " + f.minimum : null, f.maximum !== null ? "up to " + f.maximum : null].filter(Boolean).join(", ");
    const key = (k, shown, fn) => h("button", {
      type: "button", class: "key", data: { key: k }, "aria-label": k === "back" ? "Delete" : k, on: { click: fn },
    }, shown);
    const value = () => (text === "" || text === "-" ? undefined : Number(text));
    function press(k) {
      let next;
      if (k === "back") next = text.slice(0, -1);
      else if (k === "clear") next = "";
      else if (k === "-") next = text.startsWith("-") ? text.slice(1) : "-" + text;
      else if (k === ".") next = text.includes(".") ? text : (text || "0") + ".";
      else next = text === "0" ? k : text + k;
      const n = Number(next);
      if (next !== "" && next !== "-" && f.maximum !== null && n > f.maximum) return;
      text = next;
      sync();
    }
    const keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"];
    const pad = h("div", { class: "numpad" },
      keys.map((k) => key(k, k, () => press(k))),
      f.type === "number" ? key(".", ".", () => press(".")) : null,
      f.minimum === null || f.minimum < 0 ? key("-", "±", () => press("-")) : null,
      key("back", "⌫", () => press("back")));
    function sync() {
      const v = value();
      out.textContent = text === "" ? "–" : text;
      out.classList.toggle("bad", v !== undefined && f.minimum !== null && v < f.minimum);
      changed();
    }
    return {
      node: h("div", { class: "number" }, h("div", { class: "number-top" }, out, hint ? h("span", { class: "helptext" }, hint) : null), pad),
      get: value,
      reset: () => { text = ""; sync(); },
      refresh: () => {},
      missing: () => {
        const v = value();
        if (v !== undefined && f.minimum !== null && v < f.minimum) return label(f) + " " + hint;
        return f.required && v === undefined ? label(f) : null;
      },
    };
  }

  function foulGroup(f) {
    let picked = [];
    const button = (foul) => h("button", {
      type: "button", class: "foul", title: foul.doc, "aria-pressed": "false", data: { foul: foul.code, value: foul.code },
      on: {
        click: () => {
          const i = picked.indexOf(foul.code);
          if (i >= 0) picked.splice(i, 1);
          else picked.push(foul.code);
          sync();
        },
      },
    }, words(foul.code));
    const codes = new Set(f.item.choices);
    const fouls = vocab.fouls.filter((x) => codes.has(x.code));
    const common = fouls.filter((x) => x.common);
    const first = common.length ? common : fouls.slice(0, 4);
    const rest = common.length ? fouls.filter((x) => !x.common) : fouls.slice(4);
    const node = h("section", { class: "foul-group", role: "group", "aria-labelledby": "foul-heading-" + f.name },
      h("h3", { class: "foul-heading" }, "Foul"),
      h("div", { class: "fouls common" }, first.map(button)),
      rest.length
        ? h("details", { class: "more-fouls" }, h("summary", {}, "Other fouls"), h("div", { class: "fouls" }, rest.map(button)))
        : null);
    function sync() {
      node.querySelectorAll("button.foul").forEach((b) => b.setAttribute("aria-pressed", String(picked.includes(b.dataset.foul))));
      node.classList.toggle("active", picked.length > 0);
      changed();
    }
    return {
      node: node, foul: true,
      get: () => (picked.length ? picked.slice() : undefined),
      reset: () => { picked = []; sync(); },
      refresh: () => {},
      missing: () => null,
    };
  }

  // A list of choices: in order (each tap appends; undo last, clear) or a set (toggles).
  function choiceList(f, path) {
    const item = f.item;
    const doc = (f.doc || "") + " " + (item.doc || "");
    const ordered = /order|sequence|once per|per ball/i.test(doc);
    let picked = [];
    const values = () => flatUnion(item) || choiceValues(item) || [];
    const chips = chipsControl(item, path, {
      values: values,
      onPick: (v) => {
        if (ordered) picked.push(v);
        else {
          const i = picked.indexOf(v);
          if (i >= 0) picked.splice(i, 1);
          else picked.push(v);
        }
        sync();
      },
      labelOf: (v) => partyOrWord(item, v),
    });
    const seq = h("div", { class: "sequence", "aria-live": "polite" });
    const undo = h("button", { type: "button", class: "small secondary", data: { act: "undo-last" }, on: { click: () => { picked.pop(); sync(); } } }, "Undo last");
    const clear = h("button", { type: "button", class: "small secondary", data: { act: "clear" }, on: { click: () => { picked = []; sync(); } } }, "Clear");
    function sync() {
      chips.node.querySelectorAll("button.pick").forEach((b) => {
        const count = picked.filter((v) => valueKey(v) === b.dataset.value).length;
        b.setAttribute("aria-pressed", String(count > 0));
        b.dataset.count = count > 1 ? String(count) : "";
      });
      seq.textContent = picked.length ? picked.map((v) => partyOrWord(item, v)).join(ordered ? " → " : ", ") : "";
      undo.hidden = clear.hidden = !picked.length || !ordered;
      changed();
    }
    return {
      node: h("div", { class: "choice-list" + (ordered ? " ordered" : "") }, chips.node, h("div", { class: "sequence-row" }, seq, undo, clear)),
      get: () => (picked.length ? picked.slice() : undefined),
      reset: () => { picked = []; sync(); },
      refresh: (view) => { chips.refresh(view); sync(); },
      missing: () => (f.required && !picked.length ? label(f) : null),
    };
  }

  // A list of objects: the item's fields; a tap on a value of its last required choice
  // field adds the item (pick the ball, tap the hole).
  function objectList(f, path) {
    const item = f.item;
    let list = [];
    const fields = item.fields;
    const commitField = [...fields].reverse().find((x) => x.required && x.type !== "union" && (scalarChoices(x) || x.choices_from)) ||
      [...fields].reverse().find((x) => x.required && isChoice(x));
    const others = fields.filter((x) => x !== commitField);
    const subs = others.map((x) => {
      const values = flatUnion(x) || choiceValues(x);
      const first = x.required && values && values.length && x.type !== "union" ? values[0] : undefined;
      const c = fieldControl(x, path + "." + x.name, { initial: first });
      c.node.dataset.sub = x.name;
      return { field: x, c: c };
    });
    const chips = h("div", { class: "chips", "aria-live": "polite" });
    function add(extra) {
      const obj = {};
      for (const s of subs) {
        const v = s.c.get();
        if (v !== undefined) obj[s.field.name] = v;
      }
      Object.assign(obj, extra);
      const need = fields.filter((x) => x.required && !(x.name in obj));
      if (need.length) {
        chips.dataset.need = need.map((x) => x.name).join(",");
        return;
      }
      list.push(obj);
      subs.forEach((s) => s.c.reset());
      sync();
    }
    let commit = null;
    if (commitField) {
      commit = chipsControl(commitField, path + "." + commitField.name, {
        big: true, onPick: (v) => add({ [commitField.name]: v }),
      });
      commit.node.dataset.sub = commitField.name;
      commit.node.classList.add("commit");
    }
    const addButton = commitField ? null : h("button", { type: "button", class: "secondary", data: { act: "add" }, on: { click: () => add({}) } }, "Add " + words(item.name));
    function sync() {
      chips.replaceChildren(...list.map((obj, i) => h("button", {
        type: "button", class: "chip", "aria-label": "Remove " + describeValue(obj),
        on: { click: () => { list.splice(i, 1); sync(); } },
      }, fields.map((x) => (x.name in obj ? describeValue(obj[x.name]) : null)).filter(Boolean).join(" ") + " ×")));
      changed();
    }
    const node = h("div", { class: "object-list" },
      subs.map((s) => wrap(s.field, s.c.node, true)),
      commit ? h("span", { class: "field-label sub-label" }, Words(commitField.name) + (subs.length ? " (a tap adds the " + words(item.name) + ")" : "")) : null,
      commit ? commit.node : null, addButton, chips);
    subs.forEach((s) => s.c.reset());
    return {
      node: node,
      get: () => (list.length ? list.map((o) => Object.assign({}, o)) : undefined),
      reset: () => { list = []; subs.forEach((s) => s.c.reset()); sync(); },
      refresh: (view) => { subs.forEach((s) => s.c.refresh(view)); if (commit) commit.refresh(view); },
      missing: () => (f.required && !list.length ? label(f) : null),
    };
  }

  function unionSwitch(f, path) {
    let active = 0;
    const parts = f.variants.map((v) => fieldControl(v, path));
    const tabs = f.variants.map((v, i) => h("button", {
      type: "button", class: "variant", "aria-pressed": String(i === 0), data: { variant: v.name },
      on: { click: () => { active = i; sync(); } },
    }, words(v.name)));
    function sync() {
      tabs.forEach((t, i) => t.setAttribute("aria-pressed", String(i === active)));
      parts.forEach((p, i) => { p.node.hidden = i !== active; });
      changed();
    }
    sync();
    return {
      node: h("div", { class: "union" }, h("div", { class: "variants", role: "group" }, tabs), parts.map((p) => p.node)),
      get: () => parts[active].get(),
      reset: () => { parts.forEach((p) => p.reset()); active = 0; sync(); },
      refresh: (view) => parts.forEach((p) => p.refresh(view)),
      missing: () => (f.required && parts[active].get() === undefined ? label(f) : null),
    };
  }

  function objectFields(f, path) {
    const subs = f.fields.map((x) => ({ field: x, c: fieldControl(x, path + "." + x.name) }));
    subs.forEach((s) => { s.c.node.dataset.sub = s.field.name; });
    return {
      node: h("div", { class: "object" }, subs.map((s) => wrap(s.field, s.c.node, true))),
      get: () => {
        const obj = {};
        for (const s of subs) {
          const v = s.c.get();
          if (v !== undefined) obj[s.field.name] = v;
        }
        return Object.keys(obj).length ? obj : undefined;
      },
      reset: () => subs.forEach((s) => s.c.reset()),
      refresh: (view) => subs.forEach((s) => s.c.refresh(view)),
      // An optional object left empty is left out; once begun, its required fields count.
      missing: () => {
        const begun = subs.some((s) => s.c.get() !== undefined);
        if (!begun && !f.required) return null;
        for (const s of subs) {
          const m = s.c.missing();
          if (m) return label(f) + ": " + m.toLowerCase();
        }
        return null;
      },
    };
  }

  // An object with free keys from a choice set (pins down by compartment): one stepper a
  // key, counted from nothing (the key left out) up; other item types get a JSON box.
  function keyedObject(f) {
    const stepper = f.item.type === "int" || f.item.type === "number";
    if (!stepper) return textControl(f, true);
    let values = {};
    const rows = h("div", { class: "keyed" });
    let shownKey = null;
    function build() {
      const keys = liveChoices[f.choices_from] || [];
      const key = JSON.stringify(keys);
      if (key === shownKey) return;
      shownKey = key;
      rows.replaceChildren(...keys.map((k) => {
        const out = h("output", { class: "count" }, "–");
        const step = (d) => {
          const lo = f.item.minimum !== null ? f.item.minimum : 0;
          const cur = values[k];
          let next = cur === undefined ? (d > 0 ? Math.max(lo, 1) : undefined) : cur + d;
          if (next !== undefined && next < lo) next = undefined;
          if (next !== undefined && f.item.maximum !== null && next > f.item.maximum) return;
          if (next === undefined) delete values[k];
          else values[k] = next;
          sync();
        };
        return h("div", { class: "keyed-row", data: { key: String(k) } },
          h("span", { class: "keyed-label" }, partyOrWord(f, k)),
          h("button", { type: "button", class: "secondary step", data: { step: "-" }, "aria-label": "less " + k, on: { click: () => step(-1) } }, "−"),
          out,
          h("button", { type: "button", class: "secondary step", data: { step: "+" }, "aria-label": "more " + k, on: { click: () => step(1) } }, "+"));
      }));
      sync();
    }
    function sync() {
      rows.querySelectorAll(".keyed-row").forEach((r) => {
        const v = values[r.dataset.key];
        r.querySelector("output").textContent = v === undefined ? "–" : String(v);
      });
      changed();
    }
    build();
    return {
      node: rows,
      get: () => (Object.keys(values).length ? Object.assign({}, values) : f.required ? {} : undefined),
      reset: () => { values = {}; sync(); },
      refresh: () => build(),
      missing: () => null,
    };
  }

  function textControl(f, json) {
    const input = json
      ? h("textarea", { rows: "2", placeholder: f.type === "list" ? "[ ]" : "{ }" })
      : h("input", { type: "text" });
    input.addEventListener("input", () => changed());
    return {
      node: input,
      get: () => {
        if (!input.value.trim()) return undefined;
        if (!json) return input.value;
        try {
          return JSON.parse(input.value);
        } catch {
          return input.value;
        }
      },
      reset: () => { input.value = ""; },
      refresh: () => {},
      missing: () => (f.required && !input.value.trim() ? label(f) : null),
    };
  }

  function fieldControl(f, path, o) {
    if (isFouls(f)) return foulGroup(f);
    if (f.type === "object" && !f.fields.length && f.item && f.choices_from) return keyedObject(f);
    if (f.type === "list" && f.item && isChoice(f.item)) return choiceList(f, path);
    if (f.type === "list" && f.item && f.item.type === "object" && f.item.fields.length) return objectList(f, path);
    if (isChoice(f)) return chipsControl(f, path, o);
    if (f.type === "union") return unionSwitch(f, path);
    if (f.type === "int" || f.type === "number") return numberPad(f);
    if (f.type === "object" && f.fields.length) return objectFields(f, path);
    if (f.type === "str") return textControl(f, false);
    return textControl(f, true);
  }

  function wrap(f, node, sub) {
    return h("div", { class: "field", title: f.doc, data: sub ? { sub: f.name } : { field: f.name } },
      h("span", { class: "field-label" }, label(f)), node);
  }

  const primary = primaryEvent(vocab);
  const formEvents = vocab.events.filter((e) => !isAction(e));
  const actions = vocab.events.filter(isAction);
  const eventHints = (vocab.pad && vocab.pad.events) || {};
  // An event the game's hints offer only in some states (a bet only in its phase).
  const offered = (ev, view) => !eventHints[ev.type] || !eventHints[ev.type].when || matches(eventHints[ev.type].when, view);
  const tabs = h("div", { class: "event-tabs", id: "event-tabs", role: "tablist", hidden: formEvents.length < 2 });

  const panels = formEvents.map((ev) => {
    const fouls = ev.fields.filter(isFouls);
    const rest = ev.fields.filter((f) => !isFouls(f));
    const many = ev.fields.length > 3;
    const lists = rest.filter((f) => f.type === "list").slice(0, 2); // what was hit, what went down
    const firstList = rest.findIndex((f) => f.type === "list");
    // The played ball's own fields: declared before the lists of what else it moved.
    const own = (f) => firstList >= 0 && rest.indexOf(f) < firstList;
    const hint = (f) => (hints[ev.type] || {})[f.name] || {};
    // Up front, in the declaration's order: all of a short event; of a long one its
    // required fields, its own fields (declared before its lists), its first two lists and
    // the fields shown only in some states. Behind "More": the rest, a field the hints put
    // there, and who acts (the player at the table unless said).
    const upFront = (f) => !hint(f).more && !isWho(f) &&
      (!many || f.required || own(f) || lists.includes(f) || !!hint(f).when);
    const entries = rest.map((f) => ({ field: f, c: fieldControl(f, ev.type + "." + f.name) }));
    const shown = entries.filter((e) => upFront(e.field));
    const more = entries.filter((e) => !upFront(e.field));
    const foulControls = fouls.map((f) => ({ field: f, c: fieldControl(f, ev.type + "." + f.name) }));
    foulControls.forEach((e) => { e.c.node.dataset.field = e.field.name; });
    const enter = h("button", { type: "button", class: "enter big", data: { enter: ev.type }, on: { click: () => send() } }, "Enter " + words(ev.type));
    const moreBox = more.length ? h("details", { class: "more", data: { more: ev.type } },
      h("summary", {}, "More: " + more.map((e) => words(e.field.name)).join(", ")), more.map((e) => wrap(e.field, e.c.node))) : null;
    const wrapped = new Map();
    // The event's name over its form when no tab says it (the one form open now).
    const heading = h("h3", { class: "panel-title", hidden: true }, Words(ev.type));
    const panel = h("div", { class: "event-panel", role: "tabpanel", data: { type: ev.type }, title: ev.doc },
      heading,
      shown.map((e) => {
        const w = wrap(e.field, e.c.node);
        wrapped.set(e.field, w);
        return w;
      }),
      moreBox, foulControls.map((e) => e.c.node), enter);
    const all = entries.concat(foulControls);
    let panelDisabled = false;
    function payload() {
      const p = { type: ev.type };
      for (const e of all) {
        const v = e.c.get();
        if (v !== undefined) p[e.field.name] = v;
      }
      return p;
    }
    const named = (name) => all.find((e) => e.field.name === name);
    function missing() {
      for (const e of all) {
        const m = e.c.missing();
        if (m) return m;
        // needed unless another field is given (to, or the arch it went through)
        const other = hint(e.field).needed_unless && named(hint(e.field).needed_unless);
        if (other && e.c.get() === undefined && other.c.get() === undefined) {
          return label(e.field) + " or " + label(other.field).toLowerCase();
        }
      }
      return null;
    }
    function send() {
      if (enter.disabled || missing()) return;
      const p = payload();
      opts.entered();
      all.forEach((e) => e.c.reset());
      opts.enqueue("event", p);
      if (ev !== primary) select(primary);
    }
    function relabel() {
      const need = missing();
      enter.disabled = !!need || panelDisabled || !!blocked;
      enter.textContent = panelDisabled ? overLabel : blocked ? blocked
        : need ? "Choose " + need.toLowerCase() : "Enter " + words(ev.type);
    }
    return {
      ev: ev, panel: panel, all: all, label: relabel, heading: heading,
      refresh(view, over) {
        panelDisabled = over;
        panel.classList.toggle("closed", over);
        panel.querySelectorAll("button, input, textarea").forEach((b) => {
          if (b === enter) return;
          if (over) {
            b.dataset.wasDisabled = b.disabled ? "1" : "";
            b.disabled = true;
          } else if (b.dataset.wasDisabled !== undefined) {
            b.disabled = b.dataset.wasDisabled === "1";
            delete b.dataset.wasDisabled;
          }
        });
        if (!over) all.forEach((e) => e.c.refresh(view));
        for (const [field, w] of wrapped) if (hint(field).when) w.hidden = !matches(hint(field).when, view);
        relabel();
      },
    };
  });

  let shownPanel = primary; // the form event shown
  function select(ev) {
    shownPanel = ev;
    for (const p of panels) p.panel.hidden = p.ev !== ev;
    tabs.querySelectorAll("button").forEach((b) => b.setAttribute("aria-selected", String(b.dataset.type === ev.type)));
  }
  formEvents.forEach((ev) => tabs.append(h("button", {
    type: "button", role: "tab", class: "event-tab", data: { type: ev.type }, title: ev.doc,
    on: { click: () => select(ev) },
  }, Words(ev.type))));

  const undo = h("button", { type: "button", class: "secondary", id: "undo", on: { click: () => opts.enqueue("undo", {}) } }, "Undo");
  // A move (an event whose fields only say who acts: pass, call, fold) is one big tap,
  // above the refusal slot; an event with no fields (the bar came down) sits by Undo.
  const actionButtons = actions.map((ev) => h("button", {
    type: "button", class: "action" + (ev.fields.length ? " move" : " secondary"), id: ev.type.replace(/_/g, "-"),
    data: { action: ev.type }, title: ev.doc,
    on: {
      click: () => {
        if (opts.entered) opts.entered();
        opts.enqueue("event", { type: ev.type });
      },
    },
  }, Words(ev.type)));
  const moves = actionButtons.filter((b, i) => actions[i].fields.length);
  const others = actionButtons.filter((b, i) => !actions[i].fields.length);
  const movesRow = h("div", { class: "row moves-row", role: "group", "aria-label": "Moves", hidden: !moves.length }, moves);
  // Where a refused shot is shown: under the send button, where the thumb is.
  const slot = h("div", { class: "refusal-slot" });
  root.append(tabs, ...panels.map((p) => p.panel), movesRow, slot, h("div", { class: "row actions-row" }, undo, others));
  changed = () => panels.forEach((p) => p.label());
  if (primary) select(primary);

  return {
    panels,
    slot,
    // The view shown (the server's, or the phone engine's), its choice sets, whether the
    // frame is closed (confirmed, complete or conceded), and why nothing may be entered
    // now (the send buttons say it), or null.
    update(view, choices, closed, why) {
      liveChoices = choices || {};
      blocked = why || null;
      root.hidden = closed;
      const over = !!view.over || closed;
      panels.forEach((p) => p.refresh(view, over));
      // The form events open now (once the game is over, the one shown, which says so);
      // the tabs only when more than one is.
      const open = over ? panels.filter((p) => p.ev === (shownPanel || primary))
        : panels.filter((p) => offered(p.ev, view));
      tabs.hidden = open.length < 2;
      panels.forEach((p) => { p.heading.hidden = !tabs.hidden || panels.length < 2; });
      tabs.querySelectorAll("button").forEach((b) => { b.hidden = !open.some((p) => p.ev.type === b.dataset.type); });
      if (!open.some((p) => p.ev === shownPanel)) shownPanel = open.length ? open[0].ev : null;
      if (shownPanel) select(shownPanel);
      else panels.forEach((p) => { p.panel.hidden = true; });
      actionButtons.forEach((b, i) => {
        const type = b.dataset.action;
        const can = view["can_" + type];
        const done = view[type] === true;
        b.hidden = (can === false) || done || (over && can !== true) || (!over && !offered(actions[i], view));
        b.disabled = !!blocked;
      });
      movesRow.hidden = moves.every((b) => b.hidden);
      undo.disabled = closed || !!blocked;
    },
  };
}
