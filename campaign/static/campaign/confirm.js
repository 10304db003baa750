// The GM's admin: a form (or button) with data-confirm asks before it is sent; so does
// the campaigns list when its chosen action has an entry in ACTIONS. A static file, no
// inline handler, so a Content-Security-Policy without 'unsafe-inline' allows it.
(function () {
  "use strict";
  var ACTIONS = {
    advance_now: "Play the next turn of every selected campaign now? Its dice are rolled at once.",
  };
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var button = event.submitter;
    var question = (button && button.getAttribute("data-confirm")) || form.getAttribute("data-confirm");
    if (!question) {
      var action = form.querySelector("select[name=action]");
      if (action && form.id === "changelist-form" && ACTIONS[action.value]) {
        question = ACTIONS[action.value];
      }
    }
    if (question && !window.confirm(question)) {
      event.preventDefault();
    }
  }, true);
})();
