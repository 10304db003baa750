// Step through a battle's replay: the frames are computed on the server and embedded as
// JSON (#replay-frames); this only moves the counters the server drew and writes the step.
(function () {
  "use strict";
  const data = document.getElementById("replay-frames");
  const figure = document.getElementById("replay");
  if (!data || !figure) return;
  const frames = JSON.parse(data.textContent);
  const svg = figure.querySelector("svg.field");
  const depth = Number(svg.dataset.depth);
  const width = Number(svg.dataset.width);
  const inset = Number(svg.dataset.inset);
  const trails = svg.querySelector("g.trails");
  const stands = svg.querySelector("g.stands");
  const labelGroup = svg.querySelector("g.square-labels");
  const slots = JSON.parse(labelGroup.dataset.slots);
  const labels = Array.from(labelGroup.querySelectorAll("text"));
  // Each tree with its box, "left top right bottom" (battleview.Table.woods_among).
  const trees = Array.from(svg.querySelectorAll("g.woods use.tree")).map((el) => ({
    el, box: el.dataset.box.split(" ").map(Number),
  }));
  const HALO = 0.2; // the names' halo, and a little room
  const counters = new Map();
  svg.querySelectorAll("g.stand").forEach((el) => counters.set(el.dataset.stand, el));
  const control = (name) => figure.querySelector(`[data-replay="${name}"]`);
  const buttons = {
    first: control("first"), prev: control("prev"), play: control("play"),
    next: control("next"), last: control("last"),
  };
  const counter = control("counter");
  const where = control("where");
  const lines = control("lines");
  const unwritten = control("unwritten");
  const SVG = "http://www.w3.org/2000/svg";
  const STEP_MS = 1400;
  let index = 0;
  let timer = null;
  let opened = false; // the page has opened: later steps scroll smoothly

  function title(frame) {
    if (frame.turn === 0) return "Set-up: " + frame.phase;
    return "Battle turn " + frame.turn + ": " + frame.phase; // the battle's own, not the campaign's
  }

  // Where a stand at an engine's position (inches from the defender's left corner) is
  // drawn: the picture's point, or as near it as keeps the whole counter on the table
  // (battleview's Table.drawn_at). The frames and the lines keep the true position.
  function drawn(pos) {
    const clamp = (v, high) => Math.min(Math.max(v, inset), high - inset);
    return [clamp(pos[0], width), clamp(depth - pos[1], depth)];
  }
  // Where a stand at ``pos`` is drawn at a step: the server's place for its counter there
  // (frame.drawn: on the table, and apart from the others: battleview's
  // Table.drawn_apart) if it stood at pos then, else as drawn() puts it.
  function placed(frame, id, pos) {
    const truth = frame && frame.positions[id];
    const at = frame && frame.drawn && frame.drawn[id];
    if (at && truth && truth[0] === pos[0] && truth[1] === pos[1]) return at;
    return drawn(pos);
  }

  function show(i) {
    index = Math.max(0, Math.min(frames.length - 1, i));
    const frame = frames[index];
    const lost = new Set(frame.lost);
    const hidden = new Set(frame.hidden);
    const struck = new Set(frame.killed);
    // A lost stand with no room clear of the other counters: its mark is left out, as
    // it ran into theirs (battleview.Table.unmarked).
    const unmarked = new Set(frame.unmarked || []);
    counters.forEach((el, id) => {
      const pos = frame.positions[id];
      el.classList.toggle("off", !pos);
      if (pos) {
        // A third number: drawn smaller, in a square too crowded for full-size counters.
        const [x, y, scale] = placed(frame, id, pos);
        el.setAttribute("transform", `translate(${x} ${y})` + (scale ? ` scale(${scale})` : ""));
      }
      const status = frame.status[id];
      el.classList.toggle("pinned", status === "pinned");
      el.classList.toggle("suppressed", status === "suppressed");
      el.classList.toggle("lost", lost.has(id));
      el.classList.toggle("hidden-stand", hidden.has(id));
      el.classList.toggle("struck", struck.has(id));
      el.classList.toggle("unmarked", unmarked.has(id));
    });
    // The squares' names where this step's counters leave room (battleview.label_slots:
    // a base-36 slot per name, "-" for none free).
    labels.forEach((el, k) => {
      const slot = frame.labels ? frame.labels[k] : "-";
      if (slot === "-" || slot === undefined) {
        el.setAttribute("visibility", "hidden");
        return;
      }
      const [dx, dy, anchor] = slots[parseInt(slot, 36)];
      el.removeAttribute("visibility");
      el.setAttribute("x", Number(el.dataset.x) + dx);
      el.setAttribute("y", Number(el.dataset.y) + dy);
      el.setAttribute("text-anchor", anchor);
    });
    // A square whose name or going has no room among the stands: said under the picture,
    // as the server says it for the first step (battleview.unwritten_words).
    const leftOut = [];
    for (let k = 0; k + 1 < labels.length; k += 2) {
      const [name, going] = [labels[k], labels[k + 1]];
      if (name.getAttribute("visibility") === "hidden"
        || going.getAttribute("visibility") === "hidden") {
        leftOut.push(`${name.textContent} – ${going.textContent}`);
      }
    }
    unwritten.hidden = leftOut.length === 0;
    unwritten.textContent = leftOut.length ? unwritten.dataset.lead + leftOut.join("; ") + "." : "";
    // No tree where a name or going is written: the name read badly over the trees and
    // hid them. A tree its square's name leaves clear at this step is drawn again.
    const written = labels.filter((el) => el.getAttribute("visibility") !== "hidden")
      .map((el) => el.getBBox());
    trees.forEach(({ el, box }) => {
      const under = written.some((b) => box[0] < b.x + b.width + HALO && b.x - HALO < box[2]
        && box[1] < b.y + b.height + HALO && b.y - HALO < box[3]);
      if (under) el.setAttribute("visibility", "hidden");
      else el.removeAttribute("visibility");
    });
    // The lost lie beneath the living: a faded counter must not veil one still fighting.
    const all = Array.from(counters.values());
    stands.append(...all.filter((el) => lost.has(el.dataset.stand)),
      ...all.filter((el) => !lost.has(el.dataset.stand)));
    trails.replaceChildren();
    frame.moves.forEach(([id, from, to]) => {
      const line = document.createElementNS(SVG, "line");
      const [x1, y1] = placed(frames[index - 1], id, from);
      const [x2, y2] = placed(frame, id, to);
      line.setAttribute("x1", x1);
      line.setAttribute("y1", y1);
      line.setAttribute("x2", x2);
      line.setAttribute("y2", y2);
      trails.appendChild(line);
    });
    counter.textContent = `Step ${index + 1} of ${frames.length}`;
    where.textContent = title(frame);
    lines.replaceChildren(...frame.lines.map((text) => {
      const li = document.createElement("li");
      li.textContent = text;
      return li;
    }));
    // The step's action: the deployment's every stand, else those it moved or struck.
    const acting = index === 0 ? Object.keys(frame.positions)
      : frame.moves.map(([id]) => id).concat(frame.killed);
    follow(acting, opened);
    buttons.first.disabled = buttons.prev.disabled = index === 0;
    buttons.next.disabled = buttons.last.disabled = index === frames.length - 1;
    if (index === frames.length - 1) pause();
  }

  // Scroll the phone's frame so the counters of ``ids`` are in view: centred on them
  // when they fit, else on their middle counter. Nothing when they are in view already,
  // or the frame does not scroll (a desk sees the whole table).
  const fieldFrame = svg.closest(".field-frame");
  function follow(ids, smooth) {
    if (!fieldFrame || fieldFrame.scrollWidth <= fieldFrame.clientWidth) return;
    const left = fieldFrame.getBoundingClientRect().left - fieldFrame.scrollLeft;
    const spans = ids.map((id) => counters.get(id))
      .filter((el) => el && !el.classList.contains("off"))
      .map((el) => el.getBoundingClientRect())
      .map((r) => [r.left - left, r.right - left])
      .sort((a, b) => a[0] + a[1] - b[0] - b[1]);
    if (!spans.length) return;
    const low = Math.min(...spans.map((r) => r[0]));
    const high = Math.max(...spans.map((r) => r[1]));
    const width = fieldFrame.clientWidth;
    if (low >= fieldFrame.scrollLeft && high <= fieldFrame.scrollLeft + width) return;
    const middle = spans[Math.floor(spans.length / 2)];
    const centre = high - low <= width ? (low + high) / 2 : (middle[0] + middle[1]) / 2;
    const calm = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    fieldFrame.scrollTo({ left: centre - width / 2, behavior: smooth && !calm ? "smooth" : "auto" });
  }

  function play() {
    if (index === frames.length - 1) show(0);
    buttons.play.textContent = "❚❚ Pause";
    buttons.play.setAttribute("aria-pressed", "true");
    timer = window.setInterval(() => show(index + 1), STEP_MS);
  }

  function pause() {
    if (timer !== null) window.clearInterval(timer);
    timer = null;
    buttons.play.textContent = "▶ Play";
    buttons.play.setAttribute("aria-pressed", "false");
  }

  function toggle() {
    if (timer === null) play(); else pause();
  }

  // A button that becomes disabled while it has the focus (First at the start, Last at
  // the end) would drop the focus to the page: the replay keeps it instead.
  function keepFocus() {
    if (document.activeElement && document.activeElement.disabled) figure.focus();
  }
  function step(go) {
    return () => { pause(); go(); keepFocus(); };
  }

  buttons.first.addEventListener("click", step(() => show(0)));
  buttons.prev.addEventListener("click", step(() => show(index - 1)));
  buttons.next.addEventListener("click", step(() => show(index + 1)));
  buttons.last.addEventListener("click", step(() => show(frames.length - 1)));
  buttons.play.addEventListener("click", toggle);

  // The keys work from the moment the page opens, wherever the focus is, except where a
  // key has its own work: typing in a field, a link or another button's space or Enter.
  const KEYS = {
    ArrowLeft: () => { pause(); show(index - 1); },
    ArrowRight: () => { pause(); show(index + 1); },
    Home: () => { pause(); show(0); },
    End: () => { pause(); show(frames.length - 1); },
    " ": toggle,
  };
  document.addEventListener("keydown", (event) => {
    const action = KEYS[event.key];
    if (!action || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    const target = event.target instanceof Element ? event.target : null;
    if (target && target.closest("input, select, textarea, [contenteditable]")) return;
    const pressable = target && target.closest("button, a, summary");
    if (pressable && (event.key === " " || event.key === "Enter")) return;
    event.preventDefault();
    action();
    keepFocus();
  });
  // On a phone the table is zoomed in a frame that scrolls sideways (follow). It opens on
  // the stands as deployed (the table's middle cut off the stands at one edge), and each
  // step brings its action into view: the stands that moved or were struck in it, when
  // any of them is out of view. A step whose action is in view leaves the frame where the
  // reader has it.
  show(0);
  opened = true;
})();
