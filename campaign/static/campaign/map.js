// Live countdowns: every <span data-countdown="ISO time"> shows the time left until then,
// updated each second. The server writes the absolute time beside it, so the page reads
// right without this script (it writes no relative time: map pages are cached). It finds
// the elements afresh on each tick, so a map swapped in by htmx counts down too.
(function () {
  "use strict";

  function pad(n) {
    return String(n).padStart(2, "0");
  }

  function left(ms) {
    const seconds = Math.floor(ms / 1000);
    const days = Math.floor(seconds / 86400);
    const clock =
      pad(Math.floor((seconds % 86400) / 3600)) + ":" +
      pad(Math.floor((seconds % 3600) / 60)) + ":" + pad(seconds % 60);
    return days > 0 ? days + "d " + clock : clock;
  }

  function tick() {
    const now = Date.now();
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      const due = Date.parse(el.getAttribute("data-countdown"));
      if (Number.isNaN(due)) {
        return;
      }
      el.textContent = due > now ? "in " + left(due - now) : "due now: the turn is played shortly";
    });
  }

  tick();
  setInterval(tick, 1000);
})();

// On a screen narrower than the map, its frame opens where the reader's own troops
// stand (data-focus-across: their place across the map, 0 to 1; mapdraw.focus_across),
// not at the map's left edge, which is the far end of the map for one of the two sides.
// Only when the page loads: a map redrawn while it is read keeps where its reader had
// scrolled. A past turn's map opens the same way.
(function () {
  "use strict";

  function openAtHome() {
    document.querySelectorAll(".map-frame[data-focus-across]").forEach(function (frame) {
      const across = parseFloat(frame.getAttribute("data-focus-across"));
      if (Number.isNaN(across) || frame.scrollWidth <= frame.clientWidth) {
        return;
      }
      frame.scrollLeft = across * frame.scrollWidth - frame.clientWidth / 2;
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", openAtHome);
  } else {
    openAtHome();
  }
})();
