/* Small DOM and text helpers shared by the pad's modules. */

export const $ = (sel, root) => (root || document).querySelector(sel);

// h("button", {class, data: {...}, on: {click}}, ...children): an element.
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "on") for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
    else if (k === "class") node.className = v;
    else if (k === "data") for (const [dk, dv] of Object.entries(v)) node.dataset[dk] = dv;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

export const words = (code) => String(code).replace(/_/g, " ");
export const Words = (code) => {
  const w = words(code);
  return w.charAt(0).toUpperCase() + w.slice(1);
};

export const uuid = () =>
  crypto.randomUUID
    ? crypto.randomUUID()
    : "10000000-1000-4000-8000-100000000000".replace(/[018]/g, (c) =>
        (c ^ (crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> (c / 4)))).toString(16));

// A refusal's message as a sentence.
export function plainMessage(error) {
  if (!error) return "";
  const m = String(error.message || "").trim();
  if (!m) return Words(error.error || "refused");
  return m.charAt(0).toUpperCase() + m.slice(1) + (/[.!?]$/.test(m) ? "" : ".");
}
