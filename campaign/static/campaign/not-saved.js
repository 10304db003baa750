// A form sent with htmx (an order, "Take back", "ready", "unready") whose answer is an
// error the page does not swap in (htmx: responseError), or that got no answer at all
// (sendError: the network, the server down), saved nothing, and the page said nothing:
// the card still read "no order given" while its list showed the new choice as if given.
// Here the form says so in place: "Not saved", the choice not given, and why, in the
// server's words when it sent a sentence (text/plain: a CSRF token no longer good, config.views.csrf_failure), else in
// general words, with a link that reloads the page; its list and tick box go back to what
// is saved, the words naming the choice that was not given. Polls (GET) are left alone: they ask again by themselves.
// Before a form is put back, "korona:not-saved" goes up from it with the choice, so the
// orders page can offer it again after a reload (orders.js).
(function () {
  "use strict";

  function reasonOf(xhr) {
    const type = xhr ? xhr.getResponseHeader("Content-Type") || "" : "";
    if (xhr && type.indexOf("text/plain") === 0 && xhr.responseText) return xhr.responseText;
    if (!xhr || !xhr.status) {
      return "Korona could not be reached. Check your connection, then send it again.";
    }
    return "Korona could not take it just now (error " + xhr.status + "). " +
      "Reload the page, then send it again.";
  }

  function savedIndex(select) {
    const given = Array.from(select.options).findIndex(function (o) { return o.defaultSelected; });
    return given < 0 ? 0 : given;
  }

  function putBack(form) {
    const select = form.querySelector("select");
    const box = form.querySelector("input[type=checkbox]");
    const choice = {};
    if (select && select.selectedIndex !== savedIndex(select)) {
      choice.order = select.value;
      choice.words = select.options[select.selectedIndex].text;
    }
    if (box && box.checked !== box.defaultChecked) choice.sniper = box.checked;
    if (choice.order === undefined && choice.sniper === undefined) return ". ";
    form.dispatchEvent(new CustomEvent("korona:not-saved", { bubbles: true, detail: choice }));
    if (select) select.selectedIndex = savedIndex(select);
    if (box) box.checked = box.defaultChecked;
    if (choice.words) return ": your choice \u201c" + choice.words + "\u201d was not given. ";
    return ": your choice of the sniper was not given. ";
  }

  function say(form, text) {
    let words = form.parentNode.querySelector(".not-saved");
    if (!words) {
      words = document.createElement("p");
      words.className = "error not-saved";
      words.setAttribute("role", "alert");
      form.parentNode.insertBefore(words, form);
    }
    words.textContent = text + " ";
    const again = document.createElement("a");
    again.href = location.pathname + location.search;
    again.textContent = "Reload the page";
    words.appendChild(again);
  }

  function notSaved(event, xhr) {
    const detail = event.detail;
    const verb = detail.requestConfig ? detail.requestConfig.verb : "get";
    if (verb === "get") return;
    const form = detail.elt && detail.elt.closest ? detail.elt.closest("form") : null;
    if (!form || !form.isConnected) return;
    say(form, "Not saved" + putBack(form) + reasonOf(xhr));
  }

  document.addEventListener("htmx:responseError", function (event) {
    notSaved(event, event.detail.xhr);
  });
  document.addEventListener("htmx:sendError", function (event) {
    notSaved(event, null);
  });
})();
