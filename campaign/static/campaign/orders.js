// The orders page swaps a company's card, or the ready box, for the server's answer
// (htmx, outerHTML). The button pressed goes with the old one, and the focus with it to
// the top of the page: a keyboard or screen reader user lost their place at every order.
// htmx gives the focus back to an element of the same id (the card's Give/Change order
// button, the ready box's one button); when there is none (Take back leaves no Take back
// button; every side ready leaves no button), the focus goes to the card's or box's
// first control, else to the card or box itself.
(function () {
  "use strict";
  let pending = null;

  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    const active = document.activeElement;
    pending = target && target.id && active && active !== document.body && target.contains(active)
      ? target.id
      : null;
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (pending === null) return;
    const id = pending;
    pending = null;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return; // htmx kept it
    const box = document.getElementById(id);
    if (!box || box.hidden) return;
    const control = box.querySelector("select:not([disabled]), button:not([disabled])");
    if (control) {
      control.focus();
    } else {
      box.setAttribute("tabindex", "-1");
      box.focus();
    }
  });

  // The page's slow poll of the side's orders (#orders-watch) waits while an area of
  // "Planned battles" still polls its odds: that poll follows an order given elsewhere
  // itself, every half second. (A trigger filter would need eval, which the CSP forbids.)
  // Nor does it ask while an order or "ready" of this page is on its way, and one sent
  // drops its answer: swapping a card out of band under an order's request lost the
  // order's answer (its odds stopped growing on the card).
  const posting = new Set();
  document.addEventListener("htmx:beforeRequest", function (event) {
    const elt = event.detail.elt;
    const verb = event.detail.requestConfig ? event.detail.requestConfig.verb : "get";
    if (elt && elt.id === "orders-watch") {
      if (posting.size || document.querySelector(".area-odds-now.polling")) {
        event.preventDefault();
      }
    } else if (verb !== "get") {
      posting.add(event.detail.xhr);
      const watch = document.getElementById("orders-watch");
      if (watch) htmx.trigger(watch, "htmx:abort");
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    posting.delete(event.detail.xhr);
  });
})();
