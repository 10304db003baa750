// Step through a campaign's past maps: every frame is drawn on the server; this shows one
// at a time. Without a script every frame is shown, one below the other.
(function () {
  "use strict";
  const box = document.getElementById("timelapse");
  if (!box) return;
  const frames = Array.from(box.querySelectorAll(".frame"));
  const controls = box.querySelector(".timelapse-controls");
  if (!frames.length || !controls) return;
  const button = (name) => controls.querySelector(`[data-step="${name}"]`);
  const counter = button("counter");
  const play = button("play");
  const STEP_MS = 1600;
  let index = 0;
  let timer = null;

  // On a screen narrower than the map: the first frame opens where the reader's troops
  // stood (data-focus-across, as map.js), and each next frame keeps the place the
  // reader was looking at, so that the maps step in place.
  const mapOf = (n) => frames[n].querySelector(".map-frame");
  let share = null; // the shown map's scroll, as a share of its width
  function place() {
    const shown = mapOf(index);
    if (!shown || shown.scrollWidth <= shown.clientWidth) return;
    const across = parseFloat(shown.getAttribute("data-focus-across"));
    if (share !== null) {
      shown.scrollLeft = share * shown.scrollWidth;
    } else if (!Number.isNaN(across)) {
      shown.scrollLeft = across * shown.scrollWidth - shown.clientWidth / 2;
    }
  }

  function show(i) {
    const before = frames.some((frame) => frame.classList.contains("current")) ? mapOf(index) : null;
    share = before && before.scrollWidth > 0 ? before.scrollLeft / before.scrollWidth : null;
    index = Math.max(0, Math.min(frames.length - 1, i));
    frames.forEach((frame, n) => frame.classList.toggle("current", n === index));
    place();
    counter.textContent = `Step ${index + 1} of ${frames.length}: ${frames[index].dataset.label}`;
    button("first").disabled = button("prev").disabled = index === 0;
    button("next").disabled = button("last").disabled = index === frames.length - 1;
    if (index === frames.length - 1) pause();
  }
  function pause() {
    if (timer !== null) window.clearInterval(timer);
    timer = null;
    play.textContent = "▶ Play";
    play.setAttribute("aria-pressed", "false");
  }
  function start() {
    if (index === frames.length - 1) show(0);
    play.textContent = "❚❚ Pause";
    play.setAttribute("aria-pressed", "true");
    timer = window.setInterval(() => show(index + 1), STEP_MS);
  }
  const toggle = () => (timer === null ? start() : pause());

  button("first").addEventListener("click", () => { pause(); show(0); });
  button("prev").addEventListener("click", () => { pause(); show(index - 1); });
  button("next").addEventListener("click", () => { pause(); show(index + 1); });
  button("last").addEventListener("click", () => { pause(); show(frames.length - 1); });
  play.addEventListener("click", toggle);
  box.addEventListener("keydown", (event) => {
    if (event.target.closest("button") && (event.key === " " || event.key === "Enter")) return;
    const keys = {
      ArrowLeft: () => { pause(); show(index - 1); },
      ArrowRight: () => { pause(); show(index + 1); },
      Home: () => { pause(); show(0); },
      End: () => { pause(); show(frames.length - 1); },
      " ": toggle,
    };
    if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
  });
  controls.hidden = false;
  box.classList.add("stepping");
  show(0);
})();
