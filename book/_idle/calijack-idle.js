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
// script runs is kept in window.calijackEarly, and the script's watch (calijack/widgets/
// progress-watch.js) takes them in order when it starts.
(function () {
  "use strict";
  var HELD = 'script[type="text/x-calijack-idle"]';
  var FIRST = ["pointerdown", "keydown", "touchstart"];
  var early = window.calijackEarly = [];
  var started = false;
  var keep = function (event) {
    if (window.calijackEarly === early) early.push({ type: event.type, target: event.target });
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
