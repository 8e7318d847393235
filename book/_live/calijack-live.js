// calijack: "Play live" on a lesson page (added by book/_ext/calijack_live.py).
//
// The page's demo is static (precomputed frames). Pressing "Play live" starts Python in the
// reader's browser: the live lesson's page (lite/play/, built by lite/build_lite.py) runs the
// Pyodide kernel in a worker and the lesson's code cells in it, the same cells Voila runs, and
// draws its last output, the live widget, with the book's own widget manager; the frame then
// replaces the static demo in place. Nothing of lite/ is fetched before the press.
//
// Steps, each said in words in the status line:
//   1. check that the browser has WebAssembly;
//   2. fetch the Python runtime and the packages (static/pyodide/), in the order the start needs
//      them: the interpreter and the standard library first, two at a time, with the link to
//      themselves; then the wheels, all at once, while the interpreter starts (the live page
//      asks for the widgets' code only after those, as Python imports what it got). Counting
//      bytes to say how many megabytes are done of how many, and the time left at the rate
//      measured so far (Python then finds them in the browser's caches), unless this
//      browser keeps a started Python from an earlier start (lite/kernel/python.mjs): then
//      there is nothing to download;
//   3. at the same time, open the lesson's page in a hidden frame with the lesson's code
//      (lessons.json); it shows the last cell's output;
//   4. when the widget is drawn, hide the static demo and show the frame, sized to its content;
//   5. ask the book's service worker (book/_offline) to keep the few files of the live app that
//      another lesson may need and this one did not fetch (lessons.json "offline"), so that
//      every lesson plays live with no network after this.
// On any failure the static demo stays, and the status line says what went wrong.
// While it starts, window.calijackLiveBusy is true, and the window event "calijack-live" says
// "starting" and then "done" (the first card can be played, or the start failed): the book's
// offline script (book/_offline) stores the book only after it, so the start has the link.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script) return;
  var LITE = new URL(script.dataset.lite || "../lite/", document.baseURI).href;
  var LESSON = script.dataset.lesson;
  // Measured by the build (book/_ext/calijack_live.py): gzip megabytes of the runtime and wheels.
  var DOWNLOAD_MB = script.dataset.downloadMb;
  var TIMEOUT_MS = 180000;
  // How often the frame is looked at while the lesson starts: cheap, and each look saved is
  // time the reader waits less once the widget is drawn.
  var POLL_MS = 40;
  var WIDGET_VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]';
  // How long after a live start the few more files for offline use are fetched.
  var KEEP_AFTER_MS = 5000;

  function say(panel, text, failed) {
    var status = panel.querySelector(".cj-live-status");
    status.textContent = text;
    status.classList.toggle("cj-live-failed", !!failed);
  }

  function liveState(state) {
    window.calijackLiveBusy = state === "starting";
    window.dispatchEvent(new CustomEvent("calijack-live", { detail: state }));
  }

  function fail(panel, button, text) {
    liveState("done");
    say(panel, text + " The demo below still works.", true);
    panel.classList.remove("cj-live-loading");
    button.disabled = false;
    button.textContent = "Try again";
    var frame = panel.parentNode.querySelector("iframe.cj-live-frame");
    if (frame) frame.remove();
  }

  // "2.1 of 6.3 MB, about 12 s left": megabytes as a compressing host sends them (the body's
  // bytes scaled by each file's gzip ratio, as the build measured it), time at the rate so far.
  function progressText(done, total, seconds) {
    var text = "Loading Python… " + (done / 1e6).toFixed(1) + " of " + (total / 1e6).toFixed(1) + " MB";
    if (seconds < 1 || done <= 0) return text;
    var left = Math.max(1, Math.round((total - done) / (done / seconds)));
    return text + ", about " + (left < 90 ? left + " s" : Math.round(left / 60) + " min") + " left";
  }

  // Download every file of the runtime folder, counting bytes, so the status can say how far.
  // First the files Python's start needs (lessons.json marks them "start": the interpreter, the
  // standard library, the list of packages), two at a time: on HTTP/1.1 a browser opens six
  // connections to a host, and a download on each of them would hold back the frame's own page
  // and scripts (Python's worker among them), while the interpreter, shared six ways, came
  // last. Only then the wheels, all at once: Python starts while they come, instead of waiting
  // for an interpreter that shared the link with them.
  var LANES = 2;
  var WHEEL_LANES = 6;
  function fetchRuntime(files, onBytes, signal) {
    var first = files.filter(function (file) { return file.start; });
    var then = files.filter(function (file) { return !file.start; });
    return fetchAll(first, LANES, onBytes, signal).then(function () {
      return fetchAll(then, WHEEL_LANES, onBytes, signal);
    });
  }

  function fetchAll(files, lanes, onBytes, signal) {
    var queue = files.slice();
    function fetchOne(file) {
      return fetch(LITE + "static/pyodide/" + file.name, { signal: signal }).then(function (response) {
        if (!response.ok) {
          throw new Error("static/pyodide/" + file.name + " (" + response.status + " " + response.statusText + ")");
        }
        var ratio = file.gzip_bytes && file.bytes ? file.gzip_bytes / file.bytes : 1;
        if (!response.body) return response.arrayBuffer().then(function (b) { onBytes(b.byteLength * ratio); });
        var reader = response.body.getReader();
        function pump() {
          return reader.read().then(function (chunk) {
            if (chunk.done) return;
            onBytes(chunk.value.byteLength * ratio);
            return pump();
          });
        }
        return pump();
      }, function (error) {
        throw new Error("static/pyodide/" + file.name + " (" + error.message + ")");
      });
    }
    function lane() {
      var file = queue.shift();
      return file ? fetchOne(file).then(lane) : Promise.resolve();
    }
    var running = [];
    for (var i = 0; i < lanes; i++) running.push(lane());
    return Promise.all(running);
  }

  // Whether this browser keeps the started Python of this build (Cache Storage ``name``).
  function keptPython(name) {
    if (!name || !window.caches) return Promise.resolve(false);
    return caches.has(name).catch(function () { return false; });
  }

  // The book's service worker keeps each file of the live app as it is fetched; these files
  // (lessons.json "offline": anywidget's front end) another lesson may fetch where this one did not.
  // Asked for a little after the start, when the reader's network has nothing else to do.
  function keepForOffline(paths) {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!worker || !paths.length) return;
    setTimeout(function () {
      worker.postMessage({ type: "CALIJACK_KEEP_LIVE", urls: paths.map(function (p) { return LITE + p; }) });
    }, KEEP_AFTER_MS);
  }

  function playUrl(cells) {
    var query = new URLSearchParams();
    cells.forEach(function (code) { query.append("code", code); });
    return LITE + "play/index.html?" + query.toString();
  }

  // The state of the lesson inside the frame (lite/play/: its <main id="cj-play">):
  // "loading", "ready" or an error, in words.
  function frameState(frame) {
    var doc = frame.contentDocument;
    var root = doc && doc.getElementById("cj-play");
    if (!root) return "loading";  // still the frame's first, blank page
    var state = root.getAttribute("data-state");
    if (state === "error") return "The lesson stopped with an error: " + (root.getAttribute("data-error") || "unknown") + ".";
    return state === "ready" ? "ready" : "loading";
  }

  function fitFrame(frame) {
    var root = frame.contentDocument.getElementById("cj-play");
    var resize = function () {
      frame.style.height = Math.ceil(root.getBoundingClientRect().bottom + 4) + "px";
    };
    resize();
    new frame.contentWindow.ResizeObserver(resize).observe(root);
  }

  function start(panel, button, demo) {
    if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
      fail(panel, button, "Your browser cannot run Python here: it has no WebAssembly (it may be switched off).");
      return;
    }
    button.disabled = true;
    liveState("starting");
    panel.classList.add("cj-live-loading");
    say(panel, "Loading Python…");
    var cells;
    var offline = [];
    // Stops the other downloads when one fails, so no late progress hides the failure.
    var downloads = new AbortController();
    fetch(LITE + "lessons.json").then(function (response) {
      if (!response.ok) throw new Error("lessons.json (" + response.status + " " + response.statusText + ")");
      return response.json();
    }).then(function (lessons) {
      cells = lessons.lessons[LESSON];
      if (!cells) throw new Error("lessons.json has no lesson " + LESSON);
      offline = lessons.offline || [];
      var files = lessons.runtime;
      var total = files.reduce(function (sum, f) { return sum + (f.gzip_bytes || f.bytes); }, 0);
      var loaded = 0;
      var began = Date.now();
      var frame = document.createElement("iframe");
      frame.className = "cj-live-frame";
      frame.title = "Live lesson: " + (document.title || LESSON);
      frame.setAttribute("hidden", "");
      function openFrame() {
        frame.src = playUrl(cells);
        demo.parentNode.insertBefore(frame, demo.nextSibling);
        return frame;
      }
      function counted(bytes) {
        loaded = Math.min(total, loaded + bytes);
        if (!downloads.signal.aborted) say(panel, progressText(loaded, total, (Date.now() - began) / 1000));
      }
      // A browser that keeps a started Python (lite/kernel/python.mjs) has nothing to download:
      // reading the runtime again for the count would only slow the start, and the frame opens
      // at once. Otherwise the frame opens at once too (its page and scripts come while the
      // interpreter downloads, and its worker waits for the same download: the browser fetches
      // a file once for both), and the page counts the runtime in the order Python needs it.
      return keptPython(lessons.python_cache).then(function (kept) {
        openFrame();
        if (kept) return frame;
        return fetchRuntime(files, counted, downloads.signal).then(function () { return frame; });
      });
    }).then(function (frame) {
      say(panel, "Starting Python and the lesson…");
      var began = Date.now();
      return new Promise(function (resolve, reject) {
        (function poll() {
          var state;
          try { state = frameState(frame); } catch (e) { state = "loading"; }
          if (state === "ready") return resolve(frame);
          if (state !== "loading") return reject(new Error(state));
          if (Date.now() - began > TIMEOUT_MS) {
            return reject(new Error("Python did not start within " + TIMEOUT_MS / 60000 + " minutes."));
          }
          setTimeout(poll, POLL_MS);
        })();
      });
    }).then(function (frame) {
      demo.setAttribute("hidden", "");
      frame.removeAttribute("hidden");
      fitFrame(frame);
      panel.classList.remove("cj-live-loading");
      panel.classList.add("cj-live-on");
      button.textContent = "Playing live";
      say(panel, "Live: Python is running in your browser. Every move is computed as you make it.");
      liveState("done");
      keepForOffline(offline);
    }).catch(function (error) {
      downloads.abort();
      var text = error.message || String(error);
      if (/^(The lesson|Python did not)/.test(text)) fail(panel, button, text);
      else fail(panel, button, "A file the live lesson needs could not be loaded: " + text + ".");
    });
  }

  function setup() {
    var views = document.querySelectorAll(WIDGET_VIEW);
    if (!views.length || !LESSON) return;
    // The page's main demo: the cell holding its last widget.
    var demo = views[views.length - 1].closest(".cell") || views[views.length - 1].parentNode;
    var panel = document.createElement("div");
    panel.className = "cj-live";
    panel.innerHTML = '<button type="button" class="cj-live-button">Play live</button>' +
      '<span class="cj-live-note">Runs Python in your browser to play it for real' +
      (DOWNLOAD_MB ? ' (Python and its packages: a one-time download of about ' + DOWNLOAD_MB + ' MB)' : '') +
      '.</span>' +
      '<p class="cj-live-status" role="status" aria-live="polite"></p>';
    var button = panel.querySelector("button");
    button.addEventListener("click", function () { start(panel, button, demo); });
    demo.parentNode.insertBefore(panel, demo);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
