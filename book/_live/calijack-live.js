// calijack: "Play live" on a lesson page (added by book/_ext/calijack_live.py).
//
// The page's demo is static (precomputed frames). Pressing "Play live" starts Python in the
// reader's browser: JupyterLite's REPL with the Pyodide kernel (the site's lite/ folder, built
// by lite/build_lite.py) runs the lesson's code cells, the same cells Voila runs, and its
// last output, the live widget, replaces the static demo in place. Nothing of lite/ is
// fetched before the press.
//
// Steps, each said in words in the status line:
//   1. check that the browser has WebAssembly;
//   2. fetch the Python runtime and the packages (static/pyodide/), two at a time, the
//      interpreter first, counting bytes to say how many megabytes are done of how many, and
//      the time left at the rate measured so far (the kernel then finds them in the browser's
//      caches), unless this browser keeps a started Python from an earlier start
//      (lite/kernel/python.mjs): then there is nothing to download;
//   3. once the interpreter is here (or at once, with a kept Python), open the REPL in a
//      hidden frame with the lesson's code (lessons.json), code input hidden, and show only
//      the last cell's output: no prompt, no toolbar, no code;
//   4. when the widget is drawn, hide the static demo and show the frame, sized to its content;
//   5. ask the book's service worker (book/_offline) to keep the few files of the live app that
//      another lesson may need and this one did not fetch (lessons.json "offline"), so that
//      every lesson plays live with no network after this.
// On any failure the static demo stays, and the status line says what went wrong.
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
  // Hides the REPL's own chrome inside the frame: the app view is the widget alone.
  var FRAME_CSS = [
    // Lumino lays the REPL out in absolute boxes as tall as the window, the prompt cell
    // taking half: let the console flow instead, so the frame can take the widget's height.
    "html, body { background: transparent !important; height: auto !important; overflow: hidden !important; }",
    "body > .jp-ThemedContainer, .jp-ConsolePanel, .jp-ConsolePanel .lm-Panel, .jp-CodeConsole,",
    ".jp-CodeConsole-split, .jp-CodeConsole-content, .jp-CodeConsole-content > .jp-Cell {",
    "  position: static !important; width: auto !important; height: auto !important;",
    "  min-height: 0 !important; overflow: visible !important; contain: none !important;",
    "  padding: 0 !important; margin: 0 !important; }",
    ".jp-Toolbar, .jp-CodeConsole-banner, .jp-CodeConsole-input, .lm-SplitPanel-handle,",
    ".jp-Notification-Status, .jp-InputArea, .jp-InputPrompt, .jp-OutputPrompt,",
    ".jp-Cell-inputWrapper, .jp-Collapser, .jp-Placeholder { display: none !important; }",
    // The lesson's earlier cells set it up; the book page already shows what they print.
    ".jp-CodeConsole-content > .jp-Cell:not(:last-child) { display: none !important; }",
    // No scroll box inside the frame: focusing a card would scroll it between the press and
    // the release of the mouse button, and the click would be lost.
    ".jp-Cell-outputWrapper, .jp-OutputArea, .jp-OutputArea-child, .jp-OutputArea-output {",
    "  padding: 0 !important; margin: 0 !important; overflow: visible !important; }",
  ].join("\n");

  function say(panel, text, failed) {
    var status = panel.querySelector(".cj-live-status");
    status.textContent = text;
    status.classList.toggle("cj-live-failed", !!failed);
  }

  function fail(panel, button, text) {
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
  // Two at a time, in the order Python needs them (lessons.json lists them so: the interpreter,
  // the standard library, then the wheels): on HTTP/1.1 a browser opens six connections to a
  // host, and a download on each of them would hold back the frame's own page and scripts
  // (the kernel's worker among them), while the interpreter, shared six ways, came last.
  var LANES = 2;
  function fetchRuntime(files, onBytes, signal) {
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
    var lanes = [];
    for (var i = 0; i < LANES; i++) lanes.push(lane());
    return Promise.all(lanes);
  }

  // Whether this browser keeps the started Python of this build (Cache Storage ``name``).
  function keptPython(name) {
    if (!name || !window.caches) return Promise.resolve(false);
    return caches.has(name).catch(function () { return false; });
  }

  // The book's service worker keeps each file of the live app as it is fetched; these files
  // (lessons.json "offline": the app's fonts) another lesson may fetch where this one did not.
  // Asked for a little after the start, when the reader's network has nothing else to do.
  function keepForOffline(paths) {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!worker || !paths.length) return;
    setTimeout(function () {
      worker.postMessage({ type: "CALIJACK_KEEP_LIVE", urls: paths.map(function (p) { return LITE + p; }) });
    }, KEEP_AFTER_MS);
  }

  function replUrl(cells) {
    var query = new URLSearchParams([["kernel", "python"], ["toolbar", "0"], ["showBanner", "0"],
                                     ["hideCodeInput", "1"]]);
    cells.forEach(function (code) { query.append("code", code); });
    return LITE + "repl/index.html?" + query.toString();
  }

  // The state of the lesson inside the frame: "loading", "ready" or an error text.
  function frameState(frame, cellCount) {
    var doc = frame.contentDocument;
    if (!doc || !doc.head) return "loading";
    if (doc.URL.indexOf("/repl/") < 0) return "loading";  // still the frame's first, blank page
    if (!doc.getElementById("cj-live-css")) {
      var style = doc.createElement("style");
      style.id = "cj-live-css";
      style.textContent = FRAME_CSS;
      doc.head.appendChild(style);
      // JupyterLab focuses its panel when a card is pressed; focus scrolls the book page to
      // that panel between the press and the release, and the click is lost. Focus without
      // scrolling: the frame is as tall as its content, so nothing in it needs scrolling to.
      var proto = frame.contentWindow.HTMLElement.prototype;
      var focus = proto.focus;
      proto.focus = function (options) {
        return focus.call(this, Object.assign({}, options, { preventScroll: true }));
      };
      frame.contentWindow.addEventListener("keydown", pressOnEnter);
    }
    var cells = doc.querySelectorAll(".jp-CodeConsole-content > .jp-Cell");
    if (cells.length < cellCount) {
      var errors = doc.querySelectorAll('.jp-CodeConsole-content [data-mime-type="application/vnd.jupyter.stderr"]');
      return errors.length ? lastLine(errors[errors.length - 1].textContent) : "loading";
    }
    var last = cells[cells.length - 1];
    if (last.querySelector(".jupyter-widgets, .widget-box, .lm-Widget.jupyter-widgets")) return "ready";
    var error = last.querySelector('[data-mime-type="application/vnd.jupyter.stderr"]');
    return error ? lastLine(error.textContent) : "loading";
  }

  // Enter on a button of the lesson (the card table's Hint, the review board's Next, an
  // ipywidgets button such as New deal): JupyterLab's keyboard shortcuts take Enter first in
  // the REPL and cancel its default, so the browser never presses the button. Press it here,
  // once JupyterLab is done with the key (a listener on the frame's window hears it last),
  // and only then: Voila and the static book press it themselves.
  function pressOnEnter(event) {
    if (event.key !== "Enter" || !event.defaultPrevented || event.repeat) return;
    var target = event.target;
    var button = target && target.closest && target.closest('button, [role="button"]');
    if (!button || !button.closest(".jp-OutputArea") || button.disabled ||
        button.getAttribute("aria-disabled") === "true") return;
    button.click();
  }

  function lastLine(text) {
    var lines = text.trim().split("\n").filter(function (l) { return l.trim(); });
    return "The lesson stopped with an error: " + (lines.length ? lines[lines.length - 1] : "unknown") + ".";
  }

  function fitFrame(frame) {
    var doc = frame.contentDocument;
    var cells = doc.querySelectorAll(".jp-CodeConsole-content > .jp-Cell");
    var last = cells[cells.length - 1];
    var resize = function () {
      frame.style.height = Math.ceil(last.getBoundingClientRect().bottom + 4) + "px";
    };
    resize();
    new frame.contentWindow.ResizeObserver(resize).observe(last);
  }

  function start(panel, button, demo) {
    if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
      fail(panel, button, "Your browser cannot run Python here: it has no WebAssembly (it may be switched off).");
      return;
    }
    button.disabled = true;
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
        frame.src = replUrl(cells);
        demo.parentNode.insertBefore(frame, demo.nextSibling);
        return frame;
      }
      function counted(bytes) {
        loaded = Math.min(total, loaded + bytes);
        if (!downloads.signal.aborted) say(panel, progressText(loaded, total, (Date.now() - began) / 1000));
      }
      // A browser that keeps a started Python (lite/kernel/python.mjs) has nothing to download:
      // reading the runtime again for the count would only slow the start, and the frame opens
      // at once. Otherwise the interpreter comes first, with the whole network to itself: the
      // frame (its app, and the kernel's worker, which starts Python) opens once it is here,
      // and Python starts while the standard library, the wheels and the app download.
      return keptPython(lessons.python_cache).then(function (kept) {
        if (kept) return openFrame();
        var first = files.filter(function (f) { return f.interpreter; });
        var then = files.filter(function (f) { return !f.interpreter; });
        return fetchRuntime(first, counted, downloads.signal).then(function () {
          openFrame();
          return fetchRuntime(then, counted, downloads.signal);
        }).then(function () { return frame; });
      });
    }).then(function (frame) {
      say(panel, "Starting Python and the lesson…");
      var began = Date.now();
      return new Promise(function (resolve, reject) {
        (function poll() {
          var state;
          try { state = frameState(frame, cells.length); } catch (e) { state = "loading"; }
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
