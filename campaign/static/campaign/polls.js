// A page's polls (the map's, the orders page's watches and odds, the messages box) that
// get no answer (the network, the server down or restarting: htmx sendError), an error
// (a 500, a 502 or 503 of a proxy or a busy database: responseError) or nothing in time
// (timeout) left the page showing what it last had as if it were live, and said nothing:
// a player watching a deadline or the odds could not tell. Here the page says so in its
// one place for it, #poll-note (base.html, role=status, at the top of the screen on a
// phone and a desktop), with the time it was last brought up to date, and the note goes
// away by itself at the next poll answered. Forms sent (POST) are left to not-saved.js,
// which says so at the form; a poll answered with HX-Redirect (signed out) or
// HX-Refresh (signed in as someone else) is an answer.
(function () {
  "use strict";

  const clock = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  let upToDate = new Date(); // the page was drawn: as of now
  let leaving = false; // requests cut short as the page is left are no failure
  window.addEventListener("beforeunload", function () { leaving = true; });
  window.addEventListener("pagehide", function () { leaving = true; });
  window.addEventListener("pageshow", function () { leaving = false; });

  function isPoll(detail) {
    const verb = detail && detail.requestConfig ? detail.requestConfig.verb : "get";
    return verb === "get";
  }

  function place() {
    return document.getElementById("poll-note");
  }

  function say(text, reload) {
    const note = place();
    if (!note) return;
    let words = note.querySelector("p");
    // Said again only when it changes: a screen reader hears it once, not at every poll.
    if (words && words.dataset.said === text) return;
    if (!words) {
      words = document.createElement("p");
      note.appendChild(words);
    }
    words.dataset.said = text;
    words.textContent = text;
    if (reload) {
      const again = document.createElement("a");
      again.href = location.pathname + location.search;
      again.textContent = "Reload the page";
      words.appendChild(document.createTextNode(" "));
      words.appendChild(again);
    }
  }

  function lost(event) {
    if (leaving || !isPoll(event.detail)) return;
    const xhr = event.detail.xhr;
    const status = xhr && event.type === "htmx:responseError" ? xhr.status : 0;
    const asOf = "what it shows is as of " + clock.format(upToDate) + " and may be out of date.";
    if (status >= 400 && status < 500) {
      // Asking again will not help: the page itself is out of date.
      say("This page could not be brought up to date (Korona answered with error " +
        status + "): " + asOf, true);
      return;
    }
    say("This page has lost touch with Korona: " + asOf +
      " It keeps trying, and catches up by itself when Korona answers again.", false);
  }

  function answered(event) {
    if (!isPoll(event.detail)) return;
    const xhr = event.detail.xhr;
    if (!xhr || xhr.status < 200 || xhr.status >= 400) return;
    upToDate = new Date();
    const note = place();
    if (note) note.replaceChildren();
  }

  // A poll that hangs (a phone between networks, a server that stopped answering) would
  // hold back the element's next polls with no error at all: it gives up after
  // #poll-note's data-timeout seconds, and the note says so.
  document.addEventListener("htmx:configRequest", function (event) {
    const note = place();
    const seconds = note ? Number(note.dataset.timeout) : 0;
    if (isPoll(event.detail) && !event.detail.timeout && seconds > 0) {
      event.detail.timeout = seconds * 1000;
    }
  });
  document.addEventListener("htmx:sendError", lost);
  document.addEventListener("htmx:responseError", lost);
  document.addEventListener("htmx:timeout", lost);
  document.addEventListener("htmx:afterRequest", answered);
})();
