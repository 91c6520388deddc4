// "Copy" on the calendar card of /me/data/: copies the address it names (data-copy) to the
// clipboard, or selects it where the clipboard is not allowed, and says which it did.
"use strict";

(function () {
  function say(button, text) {
    const status = button.closest("section").querySelector(".calendar-status");
    if (status) status.textContent = text;
  }

  document.querySelectorAll("button[data-copy]").forEach((button) => {
    button.addEventListener("click", () => {
      const field = document.getElementById(button.dataset.copy);
      if (!field) return;
      const selectIt = () => {
        field.focus();
        field.select();
        say(button, "Selected: copy it with your device's Copy.");
      };
      if (!navigator.clipboard || !window.isSecureContext) {
        selectIt();
        return;
      }
      navigator.clipboard.writeText(field.value).then(
        () => {
          button.textContent = button.dataset.copied || "Copied";
          say(button, "The address is copied: paste it into your calendar app.");
        },
        selectIt,
      );
    });
  });
})();
