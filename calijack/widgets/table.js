// calijack's live card table: an anywidget ES module (the same file in JupyterLab, Voilà and
// JupyterLite). Python draws the table (calijack.render.table_html, the learner's cards as
// <button class="cj-play" data-card="JH">) and decides everything; this module only shows the
// HTML, sends back which card or action was chosen, and keeps the keyboard where it was. A
// button drawn in the table HTML with data-action="NAME" sends {action: NAME}; one with
// data-focus takes the keyboard when it arrives (pass-and-play's "show my cards").
//
// Traits: table_html, message_html, sheet_html (HTML strings), actions ({hint, undo, next, review,
// drill, drill_next, drill_stop}:
// which buttons are offered), busy, status (markers for tests), offer ({text, yes, no}: a choice
// shown in place of the table, "Continue your game" or "New deal"). Messages in: {announce: text}
// (read out by the polite live region), {store: '{"store": "game" | "finished", …}'} (JSON text:
// kept in the progress store). Messages out: {action: "play", card: "JH"}, {action: "hint" | "undo" | "next" | "review" |
// "continue" | "fresh" | "drill" | "drill_next" | "drill_stop" | "compare"}, and once, {action: "stored", json:
// '{"game": …, "review": …, "drills": …}'}: what the store holds (drills: the queued mistakes due
// today, when the page was asked to practise them).
//
// The progress store (globalThis.calijackProgress, calijack/widgets/progress.js) is prepended to
// this module by calijack/widgets/table.py: the same store as the book's pages.

const ACTIONS = [
  ["hint", "Hint", "cj-hint"],
  ["undo", "Undo", "cj-undo"],
  ["next", "Next deal", "cj-next-deal cj-primary"],
  ["review", "Review this deal", "cj-review-deal"],
  ["compare", "Same cards, played by the computer", "cj-compare"],
  ["drill", "Try your mistakes again", "cj-drill-start cj-primary"],
  ["drill_next", "Next mistake", "cj-drill-next cj-primary"],
  ["drill_stop", "Back to your deal", "cj-drill-stop"],
];

function render({ model, el }) {
  el.classList.add("cj-live");
  const felt = document.createElement("div");
  felt.className = "cj-felt";
  const panel = document.createElement("div");
  panel.className = "cj-panel";
  const buttons = {};
  for (const [action, label, cls] of ACTIONS) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `cj-action ${cls}`;
    button.textContent = label;
    button.addEventListener("click", () => model.send({ action }));
    buttons[action] = button;
    panel.append(button);
  }
  const message = document.createElement("div");
  message.className = "cj-message";
  panel.append(message);
  const region = document.createElement("div");
  region.className = "cj-sr-only cj-announce";
  region.setAttribute("aria-live", "polite");
  region.setAttribute("aria-atomic", "true");
  const sheet = document.createElement("div");
  sheet.className = "cj-sheet-slot";
  sheet.tabIndex = -1;
  const status = document.createElement("span");
  status.className = "cj-status";
  status.hidden = true;
  // The choice offered when a saved game is found, in place of the table.
  const offer = document.createElement("div");
  offer.className = "cj-offer";
  offer.setAttribute("role", "group");
  offer.hidden = true;
  const offerText = document.createElement("p");
  const offerButtons = document.createElement("div");
  offerButtons.className = "cj-offer-buttons";
  const makeChoice = (action, cls) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `cj-action ${cls}`;
    button.addEventListener("click", () => model.send({ action }));
    offerButtons.append(button);
    return button;
  };
  const keepGoing = makeChoice("continue", "cj-continue cj-primary");
  const fresh = makeChoice("fresh", "cj-fresh");
  offer.append(offerText, offerButtons);
  // The one-line note: where progress is kept (this browser only, away from a class's hub), or
  // why it cannot be (storage blocked or full, or unreadable).
  const note = document.createElement("p");
  note.className = "cj-progress-note";
  note.setAttribute("role", "status");
  el.replaceChildren(offer, felt, region, sheet, note, status);
  const store0 = globalThis.calijackProgress;
  if (model.get("class_url") && store0 && store0.meLine) {  // on the class's hub: the learner's own page
    el.insertBefore(store0.meLine(model.get("class_url")), status);
  }

  let rover = null; // the card code that holds the hand's one tab stop
  let drawn = { table: null, sheet: "", lastSheet: "" };  // what is shown; lastSheet: the last sheet shown

  const hand = () => Array.from(felt.querySelectorAll(".cj-play"));
  // Focus ``button`` now, or, drawn in a frame not shown yet (the live book shows its frame
  // once the lesson is ready), as soon as it can be seen, if nothing else took the focus.
  const focusOnSight = (button) => {
    button.focus({ preventScroll: true });
    if (document.activeElement === button || typeof IntersectionObserver !== "function") return;
    const sight = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      sight.disconnect();
      const idle = !document.activeElement || document.activeElement === document.body;
      if (idle && !button.closest("[hidden]")) button.focus({ preventScroll: true });
    });
    sight.observe(button);
  };
  // Nobody holds the keyboard: the page itself, or a control no longer drawn (hidden, removed).
  const idleFocus = () => {
    const active = document.activeElement;
    return !active || active === document.body || !active.isConnected || active.getClientRects().length === 0;
  };
  const focusInHand = () => {
    const active = document.activeElement;
    return active && active.classList && active.classList.contains("cj-play") && felt.contains(active)
      ? active : null;
  };

  function setRover(cards, target) {
    for (const card of cards) card.tabIndex = card === target ? 0 : -1;
    rover = target ? target.dataset.card : rover;
  }

  function show() {
    const table = model.get("table_html");
    if (table !== drawn.table) {
      const focused = focusInHand();
      const panelFocus = panel.contains(document.activeElement) ? document.activeElement : null;
      // A control drawn in the table itself (the pass-and-play screen's button) that had the focus.
      const called = felt.contains(document.activeElement) && document.activeElement.matches("[data-action]");
      const before = hand();
      const index = focused ? before.indexOf(focused) : -1;
      felt.innerHTML = table;
      drawn.table = table;
      // The panel sits just under the learner's hand (the table's ".cj-you" row).
      const you = felt.querySelector(".cj-you");
      if (you) you.after(panel); else felt.append(panel);
      if (panelFocus && panelFocus.isConnected) panelFocus.focus({ preventScroll: true });
      const cards = hand();
      const target = cards.find((c) => c.dataset.card === (focused ? focused.dataset.card : rover))
        || (index >= 0 ? cards[Math.min(index, cards.length - 1)] : null)
        || cards.find((c) => c.classList.contains("cj-can")) || cards[0] || null;
      setRover(cards, target);
      // A table that asks for one control first (data-focus: the screen between two players'
      // turns) takes the keyboard from the hand; after it, the hand takes it back.
      const call = felt.querySelector("[data-focus]");
      if (call && (focused || called || idleFocus())) {
        focusOnSight(call);
        call.scrollIntoView({ block: "nearest" });
      } else if (call) {
        // The focus is elsewhere as the screen comes: on the form's Start button, say, which
        // another widget's message hides a moment later (under load, after this one). If the
        // focus falls back to the page while the screen shows, its control takes it.
        const until = performance.now() + 10000;
        const watch = () => {
          if (!call.isConnected || document.activeElement === call) return;
          if (idleFocus()) { focusOnSight(call); return; }
          if (performance.now() < until) requestAnimationFrame(watch);
        };
        requestAnimationFrame(watch);
      } else if (called && target) {
        // The hand just shown: in view, with the keyboard on it.
        target.focus({ preventScroll: true });
        felt.querySelector(".cj-you").scrollIntoView({ block: "nearest" });
      }
      // A play keeps the keyboard in the hand: the next card takes the focus.
      else if (focused && target) target.focus({ preventScroll: true });
      else if (focused && !target) el.dataset.handLeft = "1";
    }
    message.innerHTML = model.get("message_html");
    const actions = model.get("actions") || {};
    for (const [action] of ACTIONS) {
      const offered = actions[action];
      buttons[action].hidden = offered === undefined || offered === null;
      buttons[action].disabled = !offered;
    }
    el.classList.toggle("cj-busy", !!model.get("busy"));
    const choice = model.get("offer") || {};
    const offered = !!choice.text;
    if (offered !== !offer.hidden || offerText.textContent !== (choice.text || "")) {
      offerText.textContent = choice.text || "";
      keepGoing.textContent = choice.yes || "";
      fresh.textContent = choice.no || "";
      offer.setAttribute("aria-label", choice.yes || "");
      offer.hidden = !offered;
      felt.hidden = offered;
      const idle = !document.activeElement || document.activeElement === document.body;
      if (offered && idle) focusOnSight(keepGoing);
    }
    const sheetHtml = model.get("sheet_html");
    if (sheetHtml !== drawn.sheet) {
      // A sheet not shown before: the same one back (a drill ended, "Back to your deal") comes
      // in place, and the page stays by the buttons the learner is using.
      const arriving = sheetHtml && !drawn.sheet && sheetHtml !== drawn.lastSheet;
      sheet.innerHTML = sheetHtml;
      drawn.sheet = sheetHtml;
      if (sheetHtml) drawn.lastSheet = sheetHtml;
      if (arriving) {
        // The deal is over: bring the score sheet into view (and the keyboard, if it was in
        // the hand that is now empty).
        const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        sheet.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
        if (el.dataset.handLeft === "1" || focusInHand()) sheet.focus({ preventScroll: true });
      }
    }
    delete el.dataset.handLeft;
    // Last: the markers say that everything above is shown.
    const marks = model.get("status") || {};
    for (const [key, value] of Object.entries(marks)) status.dataset[key] = String(value);
  }

  let queued = false;
  const schedule = () => {
    // Several traits change in one update: draw once.
    if (queued) return;
    queued = true;
    queueMicrotask(() => { queued = false; show(); });
  };
  const traits = ["table_html", "message_html", "sheet_html", "actions", "busy", "status", "offer"];
  for (const name of traits) model.on(`change:${name}`, schedule);

  felt.addEventListener("click", (event) => {
    const control = event.target.closest("[data-action]");
    if (control && felt.contains(control)) {
      model.send({ action: control.dataset.action });
      return;
    }
    const card = event.target.closest(".cj-play");
    if (!card || !felt.contains(card)) return;
    setRover(hand(), card);
    model.send({ action: "play", card: card.dataset.card });
  });

  felt.addEventListener("keydown", (event) => {
    const card = event.target.closest(".cj-play");
    if (!card) return;
    const cards = hand();
    const target = cjArrowTarget(event.key, cards.indexOf(card), cards.length);  // keys.js
    if (target === null) return;
    event.preventDefault();
    const next = cards[target];
    setRover(cards, next);
    next.focus();
  });

  const store = globalThis.calijackProgress;
  const showNote = () => {
    const problem = store ? store.status().note : "";
    note.textContent = problem || (store && !model.get("class_url") ? store.say("note_local", {}) : "");
    note.hidden = !note.textContent;
  };
  const keep = (text) => {
    if (!store) return;
    let content;
    try { content = JSON.parse(text); } catch (e) { return; }
    if (content.store === "game") store.saveGame(content.game || null);
    else if (content.store === "finished" && content.entry) store.finishDeal(content.entry, content.game || null);
    else if (content.store === "drill" && content.entry) store.queueDrill(content.entry);
    else if (content.store === "drill_answer") store.drillAnswer(content.id, content.step);
    showNote();
  };

  const onMessage = (content) => {
    if (content && typeof content.store === "string") keep(content.store);
    if (content && typeof content.announce === "string") {
      // Emptied first, so the same sentence twice is read twice.
      region.textContent = "";
      setTimeout(() => { region.textContent = content.announce; }, 60);
    }
  };
  model.on("msg:custom", onMessage);

  show();
  // Tell Python what the store holds: the unfinished game, and a deal the page was asked to
  // review (?review=ID). Python checks both before using them.
  const tellStored = () => {
    const kept = store.read();
    const wanted = store.reviewRequest();
    const review = wanted === null ? null
      : kept.deals.find((deal) => deal.id === wanted) || { missing: String(wanted).slice(0, 80) };
    // The queued mistakes due today, when the page was asked to practise them (?drills=due).
    const drills = store.drillsRequest() ? store.dueDrills() : null;
    // As JSON text: every kernel reads text alike (Pyodide's gives JavaScript's null as its own
    // object, not None).
    model.send({ action: "stored", json: JSON.stringify({ game: kept.game, review, drills }) });
    showNote();
  };
  if (store) {
    // On the class's hub, the server's copy is merged in first (seconds on a busy hub), so a
    // game left on another device is offered here too.
    const url = model.get("class_url");
    if (url && store.startSync) {
      let told = false;
      const once = () => { if (!told) { told = true; tellStored(); } };
      store.startSync(url).then(once, once);
      setTimeout(once, 15000);  // a sync that hangs: the page goes on with what this browser holds
      globalThis.addEventListener("calijack-progress", showNote);
    } else {
      tellStored();
    }
  }
  return () => {
    for (const name of traits) model.off(`change:${name}`, schedule);
    model.off("msg:custom", onMessage);
    globalThis.removeEventListener("calijack-progress", showNote);
  };
}

export default { render };
