// calijack's review board: an anywidget ES module (the same file in JupyterLab, Voilà and
// JupyterLite). Python reviews the deal and draws one frame per play of the learner
// (calijack.render.review); this module only steps through them: Previous / Next, "Next
// mistake", a strip of the plays (mistakes marked) with a roving tab stop and the arrow keys.
//
// Traits: steps ([{label, short, mistake, html}]), summary (text), sheet (the shared card
// drawings, HTML), index (the step shown: set here as the learner steps, or from Python).

function render({ model, el }) {
  el.classList.add("cj-board");
  const section = document.createElement("section");
  section.setAttribute("aria-label", "Review of your plays");
  section.tabIndex = -1; // takes the focus when a review arrives, so Tab goes on to its buttons
  const defs = document.createElement("div");
  const summary = document.createElement("p");
  summary.className = "cj-board-summary";
  const nav = document.createElement("div");
  nav.className = "cj-board-nav";
  const makeButton = (label, cls, handler) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `cj-action ${cls}`;
    button.textContent = label;
    button.addEventListener("click", handler);
    nav.append(button);
    return button;
  };
  const prev = makeButton("Previous", "cj-board-prev", () => go(model.get("index") - 1));
  const next = makeButton("Next", "cj-board-next", () => go(model.get("index") + 1));
  const nextMistake = makeButton("Next mistake", "cj-board-next-mistake", () => {
    const steps = model.get("steps") || [];
    const at = model.get("index");
    for (let k = 1; k <= steps.length; k++) {
      const j = (at + k) % steps.length;
      if (steps[j].mistake) { go(j); return; }
    }
  });
  const position = document.createElement("span");
  position.className = "cj-board-pos";
  nav.append(position);
  const strip = document.createElement("ol");
  strip.className = "cj-board-strip";
  strip.setAttribute("aria-label", "Your plays (mistakes marked)");
  const frame = document.createElement("div");
  frame.className = "cj-board-frame";
  const region = document.createElement("div");
  region.className = "cj-sr-only";
  region.setAttribute("aria-live", "polite");
  section.append(summary, nav, strip, frame, region);
  el.replaceChildren(defs, section);

  let drawn = { steps: null, sheet: null };

  function go(index) {
    const steps = model.get("steps") || [];
    if (!steps.length) return;
    const clamped = Math.max(0, Math.min(steps.length - 1, index));
    if (clamped === model.get("index")) return;
    model.set("index", clamped);
    model.save_changes();
  }

  function chips() {
    return Array.from(strip.querySelectorAll(".cj-board-chip"));
  }

  function show() {
    const steps = model.get("steps") || [];
    const sheet = model.get("sheet");
    if (sheet !== drawn.sheet) { defs.innerHTML = sheet; drawn.sheet = sheet; }
    summary.textContent = model.get("summary");
    el.hidden = steps.length === 0;
    if (steps !== drawn.steps) {
      const arriving = steps.length > 0 && !(drawn.steps && drawn.steps.length);
      strip.replaceChildren(...steps.map((step, k) => {
        const item = document.createElement("li");
        const chip = document.createElement("button");
        chip.type = "button";
        chip.className = "cj-board-chip" + (step.mistake ? " cj-board-bad" : "");
        chip.textContent = step.short + (step.mistake ? " \u2717" : "");
        chip.setAttribute("aria-label", step.label);
        chip.dataset.step = String(k);
        chip.addEventListener("click", () => go(k));
        item.append(chip);
        return item;
      }));
      drawn.steps = steps;
      if (arriving) {
        // The learner asked for it: bring the review into view and the keyboard with it.
        const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        section.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
        section.focus({ preventScroll: true });
      }
    }
    const index = Math.max(0, Math.min(steps.length - 1, model.get("index")));
    const step = steps[index];
    const hadFocus = strip.contains(document.activeElement);
    for (const chip of chips()) {
      const here = chip.dataset.step === String(index);
      chip.tabIndex = here ? 0 : -1;
      if (here) chip.setAttribute("aria-current", "step"); else chip.removeAttribute("aria-current");
      if (here && hadFocus) chip.focus({ preventScroll: true });
    }
    frame.innerHTML = step ? step.html : "";
    frame.dataset.step = String(index);
    position.textContent = steps.length ? `Play ${index + 1} of ${steps.length}` : "";
    prev.disabled = index <= 0;
    next.disabled = index >= steps.length - 1;
    nextMistake.hidden = !steps.some((s) => s.mistake);
    region.textContent = step ? step.label : "";
    el.dataset.index = String(index);
    el.dataset.steps = String(steps.length);
  }

  strip.addEventListener("keydown", (event) => {
    const chip = event.target.closest(".cj-board-chip");
    if (!chip) return;
    const all = chips();
    const target = cjArrowTarget(event.key, all.indexOf(chip), all.length);  // keys.js
    if (target === null) return;
    event.preventDefault();
    go(target);
    all[target].focus();
  });

  const traits = ["steps", "summary", "sheet", "index"];
  let queued = false;
  const schedule = () => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => { queued = false; show(); });
  };
  for (const name of traits) model.on(`change:${name}`, schedule);
  show();
  return () => { for (const name of traits) model.off(`change:${name}`, schedule); };
}

export default { render };
