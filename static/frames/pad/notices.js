/* Site notices (docs/paper-card.md): planned maintenance, a league's announcement.
 *
 * Every page shows them in a banner (server-rendered; static/frames/notices.js makes each
 * dismissible). The pad polls GET /api/notices/?league=<slug> while online and shows them
 * in its header. A notice dismissed on this browser stays hidden here (localStorage), on
 * the pages and on the pad alike.
 *
 * The logic takes its DOM, fetch and storage as arguments, so node tests run it as is. */

export const DISMISSED_KEY = "marker.dismissedNotices";
const KEEP = 100; // dismissed ids remembered (the oldest are forgotten)

export function dismissedIds(storage) {
  try {
    const ids = JSON.parse((storage && storage.getItem(DISMISSED_KEY)) || "[]");
    return Array.isArray(ids) ? ids.map(String) : [];
  } catch {
    return [];
  }
}

export function dismiss(storage, id) {
  const ids = dismissedIds(storage).filter((x) => x !== String(id));
  ids.push(String(id));
  try {
    storage.setItem(DISMISSED_KEY, JSON.stringify(ids.slice(-KEEP)));
  } catch {
    /* private mode or full: the notice comes back on the next page */
  }
  return ids;
}

// The notices to show: those not dismissed here, warnings first, as the server ordered them.
export function visibleNotices(notices, dismissed) {
  const hidden = new Set(dismissed.map(String));
  const list = (Array.isArray(notices) ? notices : []).filter((n) => n && !hidden.has(String(n.id)));
  return list.filter((n) => n.level === "warning").concat(list.filter((n) => n.level !== "warning"));
}

// The pad's notices: `poll()` asks the server when online and draws the answer in `root`.
export function createPadNotices(root, { url, fetch, storage, online, doc }) {
  let last = [];

  function draw() {
    const shown = visibleNotices(last, dismissedIds(storage));
    root.replaceChildren();
    for (const n of shown) {
      const box = doc.createElement("section");
      box.className = `site-notice notice-${n.level === "warning" ? "warning" : "info"}`;
      box.dataset.noticeId = String(n.id);
      box.setAttribute("aria-label", `${n.level === "warning" ? "Warning" : "Information"}: ${n.title}`);
      const title = doc.createElement("p");
      const strong = doc.createElement("strong");
      strong.textContent = n.title;
      title.append(strong);
      box.append(title);
      if (n.body) {
        const body = doc.createElement("p");
        body.className = "notice-body";
        body.textContent = n.body;
        box.append(body);
      }
      const button = doc.createElement("button");
      button.type = "button";
      button.className = "link notice-dismiss";
      button.textContent = "Dismiss";
      button.addEventListener("click", () => {
        dismiss(storage, n.id);
        draw();
      });
      box.append(button);
      root.append(box);
    }
    root.hidden = shown.length === 0;
    return shown;
  }

  async function poll() {
    if (!url || !online()) return visibleNotices(last, dismissedIds(storage));
    try {
      const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (response.ok) last = await response.json();
    } catch {
      /* offline after all: keep what was shown */
    }
    return draw();
  }

  return { poll, draw, shown: () => last };
}
