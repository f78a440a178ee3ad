/* Drifter: small behaviours shared by the pages (no framework; htmx does the rest).
   - A button with data-copy copies its text to the clipboard and says so.
   - A button with data-zoom opens the card picture it names full size in one dialog;
     on a screen with a pointer that hovers, hovering such a picture previews it too.
   - A form sent the ordinary way asks for no more suggestions for its fields. */
(function () {
  "use strict";

  function say(button, text) {
    var status = button.parentElement.querySelector(".copied");
    if (status) status.textContent = text;
  }

  function copyBySelection(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    area.remove();
    return ok;
  }

  // A form sent the ordinary way leaves the page: a field's suggestions (hx-get on an input
  // of the form) that would start loading now are not asked for, since the browser would cut
  // the request off as the page goes and htmx reports that as an error in the console.
  document.addEventListener("submit", function (event) {
    if (!event.defaultPrevented) event.target.dataset.leaving = "1";
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt && event.detail.elt.form;
    if (form && form.dataset.leaving) event.preventDefault();
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button) return;
    var text = button.dataset.copy;
    var done = function () { say(button, "Copied."); };
    var fallback = function () {
      say(button, copyBySelection(text) ? "Copied." : "Select the link and copy it.");
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, fallback);
    } else {
      fallback();
    }
  });

  function zoomDialog() {
    var dialog = document.getElementById("zoom");
    if (dialog) return dialog;
    dialog = document.createElement("dialog");
    dialog.id = "zoom";
    dialog.className = "zoom";
    dialog.setAttribute("aria-label", "Card, full size");
    var img = document.createElement("img");
    img.width = 630;
    img.height = 880;
    img.alt = "";
    var close = document.createElement("button");
    close.type = "button";
    close.textContent = "Close";
    close.addEventListener("click", function () { dialog.close(); });
    dialog.addEventListener("click", function (e) { if (e.target === dialog) dialog.close(); });
    dialog.appendChild(img);
    dialog.appendChild(close);
    document.body.appendChild(dialog);
    return dialog;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-zoom]");
    if (!button) return;
    var dialog = zoomDialog();
    var img = dialog.querySelector("img");
    img.src = button.dataset.zoom;
    img.alt = button.dataset.zoomAlt || "";
    dialog.showModal();
  });

  var hovers = window.matchMedia && window.matchMedia("(hover: hover) and (pointer: fine)").matches;
  if (!hovers) return;
  var preview = null;
  document.addEventListener("mouseover", function (event) {
    var figure = event.target.closest("[data-zoom-preview]");
    if (!figure) return;
    if (!preview) {
      preview = document.createElement("img");
      preview.className = "zoom-preview";
      preview.alt = "";
      preview.setAttribute("aria-hidden", "true");
      document.body.appendChild(preview);
    }
    preview.src = figure.dataset.zoomPreview;
    preview.hidden = false;
  });
  document.addEventListener("mouseout", function (event) {
    var figure = event.target.closest("[data-zoom-preview]");
    if (figure && preview && !figure.contains(event.relatedTarget)) preview.hidden = true;
  });
  // A swap (a pick, say) removes the picture under the pointer without a mouseout.
  document.addEventListener("htmx:afterSwap", function () {
    if (preview) preview.hidden = true;
  });
})();
