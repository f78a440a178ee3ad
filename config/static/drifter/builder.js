// The deck builder: a card's full-size picture on hover (a mouse) or tap (a phone), and the
// search results' copy buttons kept in step with the deck after each edit.
(function () {
  "use strict";
  var dialog = document.getElementById("card-preview");
  var hover = document.getElementById("hover-preview");
  var fineHover = window.matchMedia("(hover: hover) and (pointer: fine)");

  function previewOf(target) {
    return target && target.closest ? target.closest("[data-preview]") : null;
  }

  function show(img, source) {
    img.src = source.dataset.preview;
    img.alt = source.dataset.name || "";
  }

  // A card name or thumbnail opens the picture in a dialog (never a new tab).
  document.addEventListener("click", function (event) {
    var source = previewOf(event.target);
    if (!source || !dialog) return;
    event.preventDefault();
    hover.hidden = true;
    show(dialog.querySelector("img"), source);
    dialog.showModal();
  });
  if (dialog) {
    // a click on the backdrop closes it too
    dialog.addEventListener("click", function (event) {
      if (event.target === dialog) dialog.close();
    });
  }

  // With a mouse, hovering shows it beside the pointer, inside the window.
  function place(event) {
    var width = hover.offsetWidth || 260;
    var height = hover.offsetHeight || 363;
    var x = event.clientX + 24;
    if (x + width > window.innerWidth - 8) x = event.clientX - width - 24;
    var y = Math.min(Math.max(8, event.clientY - height / 2), window.innerHeight - height - 8);
    hover.style.left = Math.max(8, x) + "px";
    hover.style.top = Math.max(8, y) + "px";
  }
  document.addEventListener("mouseover", function (event) {
    if (!hover || !fineHover.matches) return;
    var source = previewOf(event.target);
    if (!source) return;
    show(hover.querySelector("img"), source);
    hover.hidden = false;
    place(event);
  });
  document.addEventListener("mousemove", function (event) {
    if (hover && !hover.hidden) place(event);
  });
  document.addEventListener("mouseout", function (event) {
    var source = previewOf(event.target);
    if (hover && source && !source.contains(event.relatedTarget)) hover.hidden = true;
  });

  // The server says which card's copies changed (HX-Trigger: deckChanged).
  document.body.addEventListener("deckChanged", function (event) {
    var detail = event.detail || {};
    var row = document.querySelector(
      '#card-results [data-code="' + CSS.escape(String(detail.card)) + '"]'
    );
    if (!row) return;
    row.querySelectorAll(".copies button[data-qty]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(Number(button.dataset.qty) === detail.qty));
    });
  });
})();
