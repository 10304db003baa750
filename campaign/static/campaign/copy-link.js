// The GM's admin: an invitation's link is text to copy, not a link to follow (a GM who
// clicked one landed on "Join as the Japanese", a click from spending a player's link).
// Its field selects the whole link when touched; its Copy button, hidden without script,
// copies it. A static file, no inline handler, as the Content-Security-Policy asks.
(function () {
  "use strict";
  function field(button) {
    return button.closest(".copy-link").querySelector("textarea");
  }
  // Each button's word goes back to "Copy" two seconds after its last press: a press
  // within those two seconds starts them again (the first press's timer, left running,
  // cut the second's "Copied" short).
  var back = new WeakMap();
  function said(button, words) {
    button.textContent = words;
    window.clearTimeout(back.get(button));
    back.set(button, window.setTimeout(function () { button.textContent = "Copy"; }, 2000));
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".copy-link button[data-copy]").forEach(function (button) {
      button.hidden = false;
    });
  });
  document.addEventListener("focusin", function (event) {
    if (event.target.matches(".copy-link textarea")) {
      event.target.select();
    }
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest(".copy-link button[data-copy]");
    if (!button) {
      return;
    }
    var input = field(button);
    input.focus();
    input.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(
        function () { said(button, "Copied"); },
        function () { said(button, "Press Ctrl+C"); }
      );
    } else {
      // An http:// address other than localhost has no clipboard API: the old way.
      said(button, document.execCommand("copy") ? "Copied" : "Press Ctrl+C");
    }
  });
})();
