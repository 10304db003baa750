// The GM's admin: a form (or button) with data-confirm asks before it is sent. A static
// file, no inline handler, so a Content-Security-Policy without 'unsafe-inline' allows it.
// (The campaigns list's "Advance turn now" asks on a page of its own, naming each campaign.)
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var button = event.submitter;
    var question = (button && button.getAttribute("data-confirm")) || form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      event.preventDefault();
    }
  }, true);
})();
