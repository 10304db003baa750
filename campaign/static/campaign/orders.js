// The orders page swaps a company's card, or the ready box, for the server's answer
// (htmx, outerHTML). The button pressed goes with the old one, and the focus with it to
// the top of the page: a keyboard or screen reader user lost their place at every order.
// htmx gives the focus back to an element of the same id (the card's Give/Change order
// button, the ready box's one button); when there is none (Take back leaves no Take back
// button; every side ready leaves no button), the focus goes to the card's or box's
// first control, else to the card or box itself. The same for a card or the ready box
// swapped out of band under the focus (the slow poll redraws the ready box when a
// teammate's or the enemy's "ready" changed it): every side ready leaves no button there,
// and the focus fell to the top of the page.
(function () {
  "use strict";
  // The ids of the cards or boxes that held the focus when an answer swapped them. A set,
  // not one id: another answer (an area's odds poll, every half second) can be swapped in
  // between an order's swap and its settling, and with one id it put null in its place,
  // so the focus was never given back and stayed at the top of the page.
  const pending = new Set();

  function hold(target) {
    const active = document.activeElement;
    if (target && target.id && active && active !== document.body && target.contains(active)) {
      pending.add(target.id);
    }
  }

  // Only for an answer that is swapped in. An error htmx does not swap (an order not
  // saved: not-saved.js says so in the card, whose button keeps the focus) left its card's
  // id here, and the next answer swapped in anywhere, seconds or minutes later (a
  // teammate's order brought by the slow poll), sent the focus back to that card from
  // wherever the player had gone since.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.shouldSwap) hold(event.detail.target);
  });

  // Fired after the request's own beforeSwap, as the answer's out-of-band parts go in.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    if (event.detail.shouldSwap !== false) hold(event.detail.target);
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (pending.size === 0) return;
    const ids = Array.from(pending);
    pending.clear();
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return; // htmx kept it
    for (const id of ids) {
      const box = document.getElementById(id);
      if (!box || box.hidden) continue;
      const control = box.querySelector("select:not([disabled]), button:not([disabled])");
      if (control) {
        control.focus();
      } else {
        box.setAttribute("tabindex", "-1");
        box.focus();
      }
      return;
    }
  });

  // A card brought up to date out of band (the slow poll, an area's poll, another card's
  // order: an order given elsewhere changed it) was drawn anew with the choice its
  // company's order has, and a choice the player had made in its form but not given yet
  // was silently lost. It is kept: the new card's select (and sniper box) show it again,
  // with a word that it is not given yet; or, when the new card no longer offers it, a
  // word that it was not given and why. The focus, if it was in the card, goes back to
  // the same control.
  const unsaved = new Map();  // card id: {order, words, sniper, focus}

  function saved(select) {
    const given = Array.from(select.options).findIndex(function (o) { return o.defaultSelected; });
    return given < 0 ? 0 : given;
  }

  function choiceOf(card) {
    const select = card.querySelector("select[name=order]");
    const sniper = card.querySelector("input[name=sniper]");
    const orderChanged = select && select.selectedIndex !== saved(select);
    const sniperChanged = sniper && sniper.checked !== sniper.defaultChecked;
    if (!orderChanged && !sniperChanged) return null;
    const active = document.activeElement;
    return {
      order: orderChanged ? select.value : null,
      words: orderChanged ? select.options[select.selectedIndex].text : "",
      sniper: sniperChanged ? sniper.checked : null,
      focus: active && card.contains(active) && active.id ? active.id : null,
    };
  }

  function note(form, text) {
    const words = document.createElement("p");
    words.className = "unsaved-choice";
    words.setAttribute("role", "status");
    words.textContent = text;
    form.parentNode.insertBefore(words, form);
  }

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    const card = event.detail.target;
    if (!card || !card.classList || !card.classList.contains("order-card")) return;
    const choice = choiceOf(card);
    if (choice) unsaved.set(card.id, choice);
  });

  const UPDATED = {
    kept: "Not given yet: your choice below was kept when this card was brought up " +
      "to date with an order given elsewhere. Give it with the button to keep it.",
    gone: "longer offered: an order given elsewhere changed this card.",
  };

  function restore(id, choice, words) {
    words = words || UPDATED;
    const card = document.getElementById(id);
    const form = card && card.querySelector("form");
    if (!form) return;  // orders closed: nothing to give
    const select = form.querySelector("select[name=order]");
    const sniper = form.querySelector("input[name=sniper]");
    let kept = false;
    if (choice.order !== null && select) {
      const offered = Array.from(select.options).some(function (o) { return o.value === choice.order; });
      if (offered && select.value !== choice.order) {
        select.value = choice.order;
        kept = true;
      } else if (!offered) {
        note(form, "Your choice \u201c" + choice.words + "\u201d was not given, and it is no " +
          words.gone);
      }
    }
    if (choice.sniper !== null && sniper && sniper.checked !== choice.sniper) {
      sniper.checked = choice.sniper;
      kept = true;
    }
    if (kept) note(form, words.kept);
    const focus = choice.focus && document.getElementById(choice.focus);
    if (focus && card.contains(focus)) focus.focus();
  }

  document.addEventListener("htmx:oobAfterSwap", function () {
    unsaved.forEach(function (choice, id) { restore(id, choice); });
    unsaved.clear();
  });

  // A choice sent and not saved because the player was signed out (the sign-in page is
  // opened whole: HX-Redirect) or their sign-in changed in another tab (not-saved.js says
  // so and puts the card back) is kept in the tab (sessionStorage) for this page's
  // address, for an hour, and offered again when the page is opened afresh: after
  // signing in, or reloading. It is never given by itself: the player gives it.
  //
  // It is kept for the reader the page was drawn for (the account base.html names in
  // X-Korona-Reader), and offered to that reader only: a page whose reader changed opens
  // again for the one signed in now (config/signedout.py), and a teammate signed in in
  // the same browser was offered, as their own, the choice the first player made and
  // never gave. Opened for another reader, what was kept is dropped unseen.
  const STASH = "korona-not-given:" + location.pathname + location.search;

  function reader() {
    try {
      const named = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-Korona-Reader"];
      return typeof named === "string" ? named : null;
    } catch (e) { return null; }
  }
  const NOT_GIVEN = {
    "signed-out": {
      kept: "Not given yet: you chose this when you had been signed out, so it was not " +
        "saved. Give it with the button to keep it.",
      gone: "longer offered: the orders changed since.",
    },
    "not-saved": {
      kept: "Not given yet: you chose this before, and it was not saved then. Give it with " +
        "the button to keep it.",
      gone: "longer offered: the orders changed since.",
    },
  };

  function stash(card, choice, why) {
    if (!card || !card.id || !choice) return;
    const mine = reader();
    if (mine === null) return;  // a page that names no reader: kept for nobody
    let kept = {};
    try {
      const before = JSON.parse(sessionStorage.getItem(STASH) || "{}");
      kept = before.reader === mine ? before.cards || {} : {};
    } catch (e) { kept = {}; }
    kept[card.id] = {
      order: choice.order === undefined ? null : choice.order,
      words: choice.words || "",
      sniper: choice.sniper === undefined ? null : choice.sniper,
      focus: null,
      why: why,
    };
    try {
      sessionStorage.setItem(STASH, JSON.stringify({ at: Date.now(), reader: mine, cards: kept }));
    } catch (e) { /* storage off: the choice is only lost, as before */ }
  }

  document.addEventListener("korona:not-saved", function (event) {
    stash(event.target.closest(".order-card"), event.detail, "not-saved");
  });

  // Before htmx follows HX-Redirect to the sign-in page (an order sent, or a poll, found
  // the player signed out): every card's choice made and not given, the sent one's too.
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    const xhr = event.detail.xhr;
    if (!xhr || !xhr.getResponseHeader("HX-Redirect")) return;
    document.querySelectorAll(".order-card").forEach(function (card) {
      stash(card, choiceOf(card), "signed-out");
    });
  });

  (function offerAgain() {
    let kept = null;
    try {
      kept = JSON.parse(sessionStorage.getItem(STASH) || "null");
      sessionStorage.removeItem(STASH);
    } catch (e) { return; }
    if (!kept || !kept.cards || Date.now() - kept.at > 3600 * 1000) return;
    if (typeof kept.reader !== "string" || kept.reader !== reader()) return;  // another's
    Object.keys(kept.cards).forEach(function (id) {
      const choice = kept.cards[id];
      restore(id, choice, NOT_GIVEN[choice.why] || NOT_GIVEN["not-saved"]);
    });
  })();

  // The page's slow poll of the side's orders (#orders-watch) waits while an area of
  // "Planned battles" still polls its odds: that poll follows an order given elsewhere
  // itself, every half second. (A trigger filter would need eval, which the CSP forbids.)
  // Nor does it ask while an order or "ready" of this page is on its way, and one already
  // asked for when an order is sent has its answer dropped: swapping a card out of band
  // under an order's request lost the order's answer (its odds stopped growing on the
  // card), and an answer drawn before the order would put back what the order changed.
  //
  // A poll (a GET) whose element a swap removes while its request is on its way (an
  // area's odds poll inside "Planned battles", redrawn by an order's answer) has its
  // answer dropped too: read from an element no longer on the page, it would find no
  // #planned-battles to go to (htmx: "Invalid re-target"), and the page misses nothing.
  //
  // Dropped, not aborted: htmx logs every abort as two console errors, and an answer
  // let in and then ignored (htmx:beforeOnLoad cancelled) swaps nothing and logs nothing.
  const posting = new Set();
  const stale = new WeakSet(); // requests whose answers go unread
  const guarded = new WeakSet(); // elements whose polls' answers are looked at first
  let watching = null; // the slow poll's request on its way

  // On the poll's element itself: an element taken off the page no longer passes its
  // events up to the document.
  function dropStale(event) {
    if (stale.has(event.detail.xhr) || !event.detail.elt.isConnected) event.preventDefault();
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    const elt = event.detail.elt;
    const verb = event.detail.requestConfig ? event.detail.requestConfig.verb : "get";
    if (elt && elt.id === "orders-watch") {
      if (posting.size || document.querySelector(".area-odds-now.polling")) {
        event.preventDefault();
        return;
      }
      watching = event.detail.xhr;
    } else if (verb !== "get") {
      posting.add(event.detail.xhr);
      if (watching) stale.add(watching);
      return;
    }
    if (elt && !guarded.has(elt)) {
      guarded.add(elt);
      elt.addEventListener("htmx:beforeOnLoad", dropStale);
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    posting.delete(event.detail.xhr);
    if (watching === event.detail.xhr) watching = null;
  });
})();
