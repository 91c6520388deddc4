// Match night, on the captain's phone: commit–reveal for the draw seed. Loaded as a file
// (the CSP allows no inline script). Without it, or without Web Crypto, the forms still
// work: the server makes the captain's secret instead (docs/match-night.md).
(function () {
  "use strict";
  var KEY = "marker:secret:";

  function hex(buffer) {
    return Array.prototype.map
      .call(new Uint8Array(buffer), function (b) { return ("0" + b.toString(16)).slice(-2); })
      .join("");
  }

  function canCommit() {
    try {
      return !!(window.crypto && window.crypto.subtle && window.crypto.getRandomValues &&
        window.localStorage && window.TextEncoder);
    } catch {
      return false;
    }
  }

  function remember(commitment, secret) {
    try { localStorage.setItem(KEY + commitment, secret); return true; } catch { return false; }
  }

  function recall(commitment) {
    try { return localStorage.getItem(KEY + commitment); } catch { return null; }
  }

  // Ready: make 128 random bits here, keep them on this phone, send only their SHA-256.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-commit]") || form.dataset.sealed || !canCommit()) {
      return;
    }
    event.preventDefault();
    var secret = hex(window.crypto.getRandomValues(new Uint8Array(16)));
    window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret)).then(function (digest) {
      var commitment = hex(digest);
      if (remember(commitment, secret)) {
        form.querySelector("input[name=commitment]").value = commitment;
      }
      form.dataset.sealed = "1";
      form.submit();
    });
  });

  // Reveal: once every commitment is in, this phone sends the secret it kept (once by
  // itself; after that the captain presses the button).
  function reveal(root) {
    var forms = root.querySelectorAll ? root.querySelectorAll("form[data-reveal]") : [];
    Array.prototype.forEach.call(forms, function (form) {
      var secret = recall(form.dataset.commitment);
      if (!secret) {
        var note = form.querySelector("[data-reveal-note]");
        if (note) { note.hidden = false; }
        return;
      }
      form.querySelector("input[name=secret]").value = secret;
      var tried = "marker:revealing:" + form.dataset.commitment;
      try {
        if (sessionStorage.getItem(tried)) { return; }
        sessionStorage.setItem(tried, "1");
      } catch {
        return;
      }
      form.submit();
    });
  }

  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  document.addEventListener("htmx:afterSwap", function (event) { reveal(event.target); });
})();
