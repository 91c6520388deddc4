/* Marker's offline engine: the rules engine itself (Python, the same source as the
 * server's) running on Pyodide in a worker, so the pad can show what the engine would say
 * about shots that are still on the phone.
 *
 * Messages in:
 *   {type: "init", pyodide: "<Pyodide's directory URL>", zip: "<the engine zip URL>"}
 *   {type: "compute", id, game_id, rules_version, setup, dump, events: [{kind, payload}, ...]}
 * Messages out:
 *   {type: "ready"} | {type: "failed", message}
 *   {type: "result", id, ok: true, view, choices, applied, refused: null | {index, code, message}}
 *   {type: "result", id, ok: false, message}   (the engine could not tell: e.g. an undo of
 *                                               an event it has no state before)
 *
 * Runs in a worker (not the page) so loading and compiling Pyodide never blocks the pad.
 */
"use strict";

let ready = null;

const PY = `
import json
import rules
from rules.vocabulary import RuleError


def _compute(game_id, setup_json, dump_json, events_json, version=0):
    game = rules.get(game_id, int(version) or None)  # the frame's own rules version
    dump = json.loads(dump_json)
    state = game.load(dump) if dump is not None else game.initial(json.loads(setup_json))
    stack = []
    refused = None
    applied = 0
    for index, event in enumerate(json.loads(events_json)):
        if event["kind"] == "undo":
            if not stack:
                return json.dumps({"ok": False, "message": "undo of an event this phone has no state before"})
            state = stack.pop()
        else:
            try:
                after = game.apply(state, event["payload"])
            except RuleError as error:
                refused = {"index": index, "code": error.code, "message": error.message}
                break
            stack.append(state)
            state = after
        applied += 1
    return json.dumps(
        {
            "ok": True,
            "view": game.view(state),
            "choices": game.choice_sets(state),
            "applied": applied,
            "refused": refused,
        },
        default=list,
    )
`;

async function start(config) {
  importScripts(config.pyodide + "pyodide.js");
  const pyodide = await self.loadPyodide({ indexURL: config.pyodide, fullStdLib: false });
  const response = await fetch(config.zip);
  if (!response.ok) throw new Error("the engine zip answered " + response.status);
  pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/engine" });
  pyodide.runPython("import sys\nif '/engine' not in sys.path: sys.path.insert(0, '/engine')");
  pyodide.runPython(PY);
  return pyodide.globals.get("_compute");
}

self.onmessage = async (event) => {
  const msg = event.data || {};
  if (msg.type === "init") {
    if (!ready) ready = start(msg);
    try {
      await ready;
      self.postMessage({ type: "ready" });
    } catch (err) {
      self.postMessage({ type: "failed", message: String(err && err.message ? err.message : err) });
    }
    return;
  }
  if (msg.type === "compute") {
    try {
      const compute = await ready;
      const answer = JSON.parse(compute(
        msg.game_id, JSON.stringify(msg.setup || {}), JSON.stringify(msg.dump === undefined ? null : msg.dump),
        JSON.stringify(msg.events || []), Number(msg.rules_version) || 0));
      self.postMessage(Object.assign({ type: "result", id: msg.id }, answer));
    } catch (err) {
      self.postMessage({ type: "result", id: msg.id, ok: false, message: String(err && err.message ? err.message : err) });
    }
  }
};
