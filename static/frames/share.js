// The Share button of a result's page (templates/frames/cards/_share.html): the phone's
// share sheet (the Web Share API) where there is one; elsewhere the link is copied to the
// clipboard and a note says so. Loaded as a module from a static file (the CSP forbids
// inline scripts).

/**
 * Share `data` ({title, text, url}) with what the browser offers; answers what happened:
 * "shared", "cancelled" (the share sheet closed), "copied", or "failed" (nothing to
 * share with: the note then shows the link to copy by hand).
 */
export async function shareResult(data, nav = globalThis.navigator) {
  if (nav && typeof nav.share === "function" && (!nav.canShare || nav.canShare(data))) {
    try {
      await nav.share(data);
      return "shared";
    } catch (error) {
      if (error && error.name === "AbortError") return "cancelled";
      // Refused (no user gesture, a policy): fall back to the clipboard.
    }
  }
  if (nav && nav.clipboard && typeof nav.clipboard.writeText === "function") {
    try {
      await nav.clipboard.writeText(data.url);
      return "copied";
    } catch {
      return "failed";
    }
  }
  return "failed";
}

/** What the note says after `outcome` ("" for nothing to say). */
export function noteFor(outcome, url) {
  if (outcome === "copied") return "Link copied";
  if (outcome === "failed") return `Copy this link: ${url}`;
  return "";
}

/** Wire every [data-share] button under `root`. */
export function wireShareButtons(root = globalThis.document, nav = globalThis.navigator) {
  for (const button of root.querySelectorAll("[data-share]")) {
    if (button.dataset.shareWired) continue;
    button.dataset.shareWired = "1";
    const note = button.parentElement && button.parentElement.querySelector("[data-share-note]");
    button.addEventListener("click", async () => {
      const data = {
        title: button.dataset.shareTitle || "",
        text: button.dataset.shareText || "",
        url: button.dataset.shareUrl || globalThis.location.href,
      };
      const outcome = await shareResult(data, nav);
      if (note) note.textContent = noteFor(outcome, data.url);
    });
  }
}

if (globalThis.document) {
  wireShareButtons();
}
