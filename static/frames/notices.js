/* Every page's notice banner (templates/leagues/_notices.html): each notice can be
 * dismissed on this browser (localStorage); dismissed ones stay hidden on later pages. */

import { dismiss, dismissedIds } from "./pad/notices.js";

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const store = storage();
const dismissed = new Set(dismissedIds(store));
document.querySelectorAll("[data-notice-id]").forEach((box) => {
  if (dismissed.has(box.dataset.noticeId)) {
    box.hidden = true;
    return;
  }
  const button = box.querySelector("[data-notice-dismiss]");
  if (!button || !store) return;
  button.hidden = false;
  button.addEventListener("click", () => {
    dismiss(store, box.dataset.noticeId);
    box.hidden = true;
  });
});
