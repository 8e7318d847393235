// calijack: the book's own scripts that the first paint does not need start once the page is
// idle, or at the reader's first touch, click or key, whichever comes first (book/_ext/
// calijack_idle.py puts this script, inline, in every page).
//
// Such a script is in the page as <script type="text/x-calijack-idle" src=… data-…>: a type
// the browser does not run, so nothing of it is fetched or run before the page has painted.
// At the start, each becomes a real script with the same src and data (document.currentScript
// still names it, with its data-… attributes).
//
// Nothing is lost meanwhile: a click or an opened answer ("toggle") before the progress
// script runs is kept in window.calijackEarly (with an answer's verdict, right or not, as
// drawn), and the script's watch (calijack/widgets/progress-watch.js) takes them in order when
// it starts.
(function () {
  "use strict";
  var HELD = 'script[type="text/x-calijack-idle"]';
  var FIRST = ["pointerdown", "keydown", "touchstart"];
  var early = window.calijackEarly = [];
  var started = false;
  var keep = function (event) {
    if (window.calijackEarly !== early) return;
    var record = { type: event.type, target: event.target };
    early.push(record);
    // A quick check's or puzzle's answer: its verdict, read as it is drawn a moment later (a
    // next answer would replace it before the progress script could read it).
    var target = event.target;
    var button = event.type === "click" && target && target.closest && target.closest(".cj-quiz-control button");
    var question = button && button.closest(".cj-quiz-question");
    if (!question) return;
    var index = Array.prototype.indexOf.call(button.closest(".cj-quiz-control").querySelectorAll("button"), button);
    var look = function () {
      var shown = question.querySelector('.cj-frame[data-frame="' + index + '"] .cj-quiz-feedback');
      if (shown) record.right = shown.getAttribute("data-right") === "true";
      return !!shown;
    };
    if (look()) return;
    var watcher = new MutationObserver(function () { if (look()) watcher.disconnect(); });
    watcher.observe(question, { childList: true, subtree: true });
    setTimeout(function () { watcher.disconnect(); }, 10000);
  };
  document.addEventListener("click", keep, true);
  document.addEventListener("toggle", keep, true);

  function run() {
    document.querySelectorAll(HELD).forEach(function (held) {
      var tag = document.createElement("script");
      Array.prototype.forEach.call(held.attributes, function (attr) {
        if (attr.name !== "type") tag.setAttribute(attr.name, attr.value);
      });
      held.parentNode.replaceChild(tag, held);
    });
  }

  function start() {
    if (started) return;
    started = true;
    FIRST.forEach(function (name) { window.removeEventListener(name, start, true); });
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
    else run();
  }

  FIRST.forEach(function (name) { window.addEventListener(name, start, { capture: true, passive: true }); });
  function idle() {
    if (window.requestIdleCallback) window.requestIdleCallback(start, { timeout: 3000 });
    else setTimeout(start, 300);
  }
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle);
})();
