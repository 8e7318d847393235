// calijack: offline reading, and the word that a new version is ready (book/_ext/
// calijack_offline.py puts this script in every page of the book).
//
// Started once the page is idle, or at the reader's first touch (book/_ext/calijack_idle.py),
// it registers the book's service worker (sw.js, generated with
// Workbox when the book is built: it keeps every page and static file of this build, and the
// live runtime as the reader plays live) through Workbox's own window library, loaded then.
// A line at the foot of the window says what the reader needs to know, and only then:
// - "A new version of this book is ready. [Reload]": a newer build's worker is installed and
//   waits. "Reload" lets it take over, and the page loads again from the new build; until
//   then every page comes from the build this reader started with.
// - "Offline reading is off: …": the browser has no service worker here (an old browser, or
//   a page that is not a secure context), or refused to store the book (storage blocked or
//   full). The book works online as before.
//
// "Play live" first: while a live start is under way (calijack-live.js says so with the
// window event "calijack-live", detail "starting" or "done", and window.calijackLiveBusy), the
// book is not stored: a worker not yet registered is registered after it, and a worker that
// is storing the book is told to wait (CALIJACK_LIVE_STARTING, then CALIJACK_LIVE_DONE:
// book/_offline/sw-extra.js), so that the live start has the reader's link to itself.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script) return;
  var WORKER = new URL(script.dataset.sw, document.baseURI).href;
  var LIBRARY = new URL(script.dataset.workboxWindow, document.baseURI).href;
  var STYLE = [
    ".cj-offline-line { position: fixed; left: 0; right: 0; bottom: 0; z-index: 1000;",
    "  display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; justify-content: center;",
    "  padding: 0.5rem 1rem; background: #1b1b1b; color: #fff; font: 1rem/1.4 system-ui, sans-serif; }",
    ".cj-offline-line button { min-height: 2.5rem; min-width: 2.5rem; padding: 0 1rem; font: inherit;",
    "  border: 2px solid #fff; border-radius: 0.3rem; background: #fff; color: #1b1b1b; cursor: pointer; }",
    ".cj-offline-line button.cj-offline-dismiss { background: transparent; color: #fff; }",
    ".cj-offline-line button:focus-visible { outline: 3px solid #ffbf47; outline-offset: 2px; }",
  ].join("\n");

  // Show ``text`` in the line (one line for the page: a newer message replaces an older one),
  // with a button for ``action`` ({label, run}) or, without one, a button that hides the line.
  function line(text, action) {
    var bar = document.querySelector(".cj-offline-line");
    if (!bar) {
      var style = document.createElement("style");
      style.textContent = STYLE;
      document.head.appendChild(style);
      bar = document.createElement("div");
      bar.className = "cj-offline-line";
      bar.setAttribute("role", "status");
      document.body.appendChild(bar);
    }
    bar.textContent = "";
    var words = document.createElement("span");
    words.className = "cj-offline-text";
    words.textContent = text;
    var button = document.createElement("button");
    button.type = "button";
    if (action) {
      button.textContent = action.label;
      button.addEventListener("click", action.run);
    } else {
      button.className = "cj-offline-dismiss";
      button.textContent = "Hide";
      button.addEventListener("click", function () { bar.remove(); });
    }
    bar.append(words, button);
  }

  function off(reason) {
    line("Offline reading is off: " + reason + " The book works online as usual.");
  }

  function loadLibrary() {
    return new Promise(function (resolve, reject) {
      var tag = document.createElement("script");
      tag.src = LIBRARY;
      tag.onload = resolve;
      tag.onerror = function () { reject(new Error("its script did not load")); };
      document.head.appendChild(tag);
    });
  }

  // How long a live start may hold the registration back (a slow 4G start takes ~30 s).
  var LIVE_WAIT_MS = 120000;

  // Tell the worker that is storing the book (if any) how the live start goes.
  function tellWorker(registration, type) {
    var worker = registration && registration.installing;
    if (worker) worker.postMessage({ type: type });
  }

  function followLive(registration) {
    if (window.calijackLiveBusy) tellWorker(registration, "CALIJACK_LIVE_STARTING");
    registration.addEventListener("updatefound", function () {
      if (window.calijackLiveBusy) tellWorker(registration, "CALIJACK_LIVE_STARTING");
    });
    window.addEventListener("calijack-live", function (event) {
      tellWorker(registration, event.detail === "starting" ? "CALIJACK_LIVE_STARTING" : "CALIJACK_LIVE_DONE");
    });
  }

  // Call ``then`` once no live start is under way (at once if none is), or after LIVE_WAIT_MS.
  function afterLiveStart(then) {
    if (!window.calijackLiveBusy) { then(); return; }
    var done = false;
    var go = function () {
      if (done || window.calijackLiveBusy && !timedOut) return;
      done = true;
      window.removeEventListener("calijack-live", go);
      then();
    };
    var timedOut = false;
    window.addEventListener("calijack-live", go);
    setTimeout(function () { timedOut = true; go(); }, LIVE_WAIT_MS);
  }

  function start() {
    afterLiveStart(register);
  }

  function register() {
    if (!("serviceWorker" in navigator)) {
      off(window.isSecureContext ? "this browser cannot keep the book's pages."
        : "the book is not served over HTTPS, so the browser cannot keep its pages.");
      return;
    }
    loadLibrary().then(function () {
      var workbox = new window.workbox.Workbox(WORKER);
      workbox.addEventListener("waiting", function () {
        line("A new version of this book is ready.", { label: "Reload", run: function () {
          workbox.addEventListener("controlling", function () { window.location.reload(); });
          workbox.messageSkipWaiting();
        } });
      });
      // The worker this page installed failed (its storage refused or full) and no older
      // one keeps the book.
      workbox.addEventListener("redundant", function () {
        if (!navigator.serviceWorker.controller) {
          off("the browser did not let the book store its pages (storage full or blocked).");
        }
      });
      return workbox.register().then(function (registration) {
        if (registration) followLive(registration);
      });
    }).catch(function (error) {
      console.warn("calijack: the service worker was not registered: " + (error.message || error));
      off("the browser did not let the book store its pages.");
    });
  }

  if (document.readyState === "complete") start();
  else window.addEventListener("load", start);
})();
