// Deadlines in the reader's own time zone: every <time class="deadline" datetime="…"> the
// server wrote (in the campaign's zone) gets the same moment in the browser's zone beside
// it, unless the reader's clock reads the same there. The server never guesses the reader's
// zone, so a page cached for everyone stays true.
// Written as the server writes every moment ("Tue 8 Dec 2026, 15:17 UTC": deadlines.
// moment_words), whatever the browser's language: only the zone's name is the browser's
// own abbreviation for it ("AEDT" in Australia, "GMT+11" where it has none).
(function () {
  "use strict";
  const parts = new Intl.DateTimeFormat("en-GB", {
    weekday: "short", day: "numeric", month: "short", year: "numeric",
    hour: "2-digit", minute: "2-digit", hourCycle: "h23",
  });
  const zone = new Intl.DateTimeFormat(undefined, { timeZoneName: "short" });
  function words(when) {
    const part = {};
    parts.formatToParts(when).forEach((p) => { part[p.type] = p.value; });
    const named = zone.formatToParts(when).find((p) => p.type === "timeZoneName");
    // "Sept" in some English data: three letters, as the server's "%b".
    const month = part.month.slice(0, 3);
    const clock = `${part.weekday} ${part.day} ${month} ${part.year}, ${part.hour}:${part.minute}`;
    return named ? `${clock} ${named.value}` : clock;
  }
  // The offset from UTC, in minutes, the server wrote the moment with (the campaign's
  // clock: "2026-12-08T18:10:00+00:00", "…Z"), or null if it wrote none.
  function writtenOffset(iso) {
    if (/Z$/i.test(iso)) return 0;
    const found = /([+-])(\d\d):?(\d\d)$/.exec(iso);
    if (!found) return null;
    const minutes = Number(found[2]) * 60 + Number(found[3]);
    return found[1] === "-" ? -minutes : minutes;
  }
  function mark(root) {
    root.querySelectorAll("time.deadline[datetime]").forEach((el) => {
      if (el.dataset.localShown) return;
      const iso = el.getAttribute("datetime");
      const when = new Date(iso);
      if (Number.isNaN(when.getTime())) return;
      el.dataset.localShown = "1";
      // The reader's clock reads the campaign's at that moment (both on UTC, or Melbourne
      // beside Sydney): "18:10 UTC (your time: 18:10 UTC)" told them nothing.
      if (writtenOffset(iso) === -when.getTimezoneOffset()) return;
      const span = document.createElement("span");
      span.className = "your-time";
      span.textContent = ` (your time: ${words(when)})`;
      el.after(span);
    });
  }
  document.addEventListener("DOMContentLoaded", () => mark(document));
  document.addEventListener("htmx:afterSettle", (event) => mark(event.target));
})();
