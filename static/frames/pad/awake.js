/* The screen stays awake while a frame is in play on a scorer's phone; the browser drops
 * the lock when the page is hidden, so it is asked for again on visibilitychange. */

export function createAwake(ctx, pad) {
  let wakeLock = null;
  let busy = false;
  let refused = false;

  function wanted() {
    const server = pad.snap && pad.snap.server;
    return !!(ctx.can_enter && server && !document.hidden && !server.confirmed &&
      ["scheduled", "in_play"].includes(server.status) && !(server.view && server.view.over && !pad.items.length));
  }

  async function keep() {
    if (!("wakeLock" in navigator) || busy) return;
    const want = wanted();
    if (want && !wakeLock && !(refused && document.hidden)) {
      busy = true;
      try {
        wakeLock = await navigator.wakeLock.request("screen");
        refused = false;
        wakeLock.addEventListener("release", () => { wakeLock = null; });
      } catch {
        wakeLock = null;
        refused = true; // not allowed now (e.g. no user gesture yet): tried again on the next change
      } finally {
        busy = false;
      }
    } else if (!want && wakeLock) {
      const lock = wakeLock;
      wakeLock = null;
      lock.release().catch(() => {});
    }
  }

  return {
    keep,
    // After a render: ask or let go when that changed.
    check() {
      if (wanted() !== !!wakeLock && !refused) keep();
    },
    // A tap is a user gesture: ask for the wake lock again.
    tapped() {
      refused = false;
    },
  };
}
