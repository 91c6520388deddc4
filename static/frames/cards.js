/* The card photo's upload form (templates/frames/_card_photos.html): a photo over the
 * limit is refused on the phone, before minutes of uploading on a pub's signal. The server
 * checks again (frames/matchnight/card_photos.py). Removing a photo asks first. */
(function () {
  "use strict";
  document.querySelectorAll("form.card-remove").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm("Remove this photo of the signed card?")) event.preventDefault();
    });
  });
  document.querySelectorAll("form.card-upload").forEach(function (form) {
    var input = form.querySelector("input[type=file]");
    var error = form.querySelector(".card-upload-error");
    var button = form.querySelector("button");
    var max = Number(form.dataset.maxBytes || 0);
    if (!input || !error || !max) return;
    function check() {
      var file = input.files && input.files[0];
      var tooBig = Boolean(file && file.size > max);
      error.hidden = !tooBig;
      error.textContent = tooBig
        ? "The photo is " + (file.size / 1048576).toFixed(1) + " MB: at most " + Math.round(max / 1048576) + " MB. Take it again at a lower resolution."
        : "";
      if (button) button.disabled = tooBig;
    }
    input.addEventListener("change", check);
    form.addEventListener("submit", function (event) {
      check();
      if (!error.hidden) event.preventDefault();
      else if (button) button.textContent = "Sending the photo…";
    });
  });
})();
