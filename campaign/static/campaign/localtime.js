// Deadlines in the reader's own time zone: every <time class="deadline" datetime="…"> the
// server wrote (in the campaign's zone) gets the same moment in the browser's zone beside
// it. The server never guesses the reader's zone, so a page cached for everyone stays true.
(function () {
  "use strict";
  const format = new Intl.DateTimeFormat(undefined, {
    weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
    timeZoneName: "short",
  });
  function mark(root) {
    root.querySelectorAll("time.deadline[datetime]").forEach((el) => {
      if (el.dataset.localShown) return;
      const when = new Date(el.getAttribute("datetime"));
      if (Number.isNaN(when.getTime())) return;
      const span = document.createElement("span");
      span.className = "your-time";
      span.textContent = ` (your time: ${format.format(when)})`;
      el.after(span);
      el.dataset.localShown = "1";
    });
  }
  document.addEventListener("DOMContentLoaded", () => mark(document));
  document.addEventListener("htmx:afterSettle", (event) => mark(event.target));
})();
