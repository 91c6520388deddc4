/* Live match page: poll the match's JSON every 2 s with If-None-Match (304 when nothing
 * changed) and redraw each frame's players, scores and break. */
(function () {
  "use strict";
  const root = document.getElementById("live");
  if (!root) return;
  const url = root.dataset.url;
  let etag = root.dataset.etag || null;
  const side = (players) => (players && players.length ? players.join(" & ") : "–");
  const score = (s) => (s.home === null || s.home === undefined ? "–" : s.home + "–" + s.away);

  function cell(cls, text) {
    const td = document.createElement("td");
    td.className = cls;
    td.textContent = text;
    return td;
  }

  function draw(data) {
    document.getElementById("live-frames").textContent = data.frames_display;
    document.getElementById("live-status").textContent = data.status_label;
    const rows = data.frames.map((f) => {
      const tr = document.createElement("tr");
      tr.dataset.frame = String(f.id);
      tr.className = f.over ? "over" : f.status === "in_play" ? "playing" : "";
      const number = cell("num", "");
      const link = document.createElement("a");
      link.href = f.pad;
      link.className = "tap";
      link.setAttribute("aria-label", "Frame " + f.number + ": its pad");
      link.textContent = String(f.number);
      number.append(link);
      tr.append(
        number,
        cell("players" + (f.at_table === "home" && !f.over ? " at-table" : ""), side(f.players.home)),
        cell("score", score(f.scores)),
        cell("players" + (f.at_table === "away" && !f.over ? " at-table" : ""), side(f.players.away)),
        cell("num", f.break ? String(f.break) : ""),
      );
      return tr;
    });
    document.getElementById("live-rows").replaceChildren(...rows);
  }

  async function tick() {
    if (!document.hidden) {
      try {
        const r = await fetch(url, { headers: etag ? { "If-None-Match": etag } : {}, cache: "no-store", credentials: "same-origin" });
        if (r.status === 200) {
          etag = r.headers.get("ETag");
          draw(await r.json());
        }
        document.getElementById("live-updated").textContent = "live · " + new Date().toLocaleTimeString();
      } catch {
        document.getElementById("live-updated").textContent = "offline, retrying";
      }
    }
    setTimeout(tick, 2000);
  }
  setTimeout(tick, 2000);
})();
