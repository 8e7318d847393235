// calijack: start the kernel's worker as soon as the REPL page opens.
//
// JupyterLite makes the Pyodide kernel's worker only once its app has booted (about a second
// of the page's one thread). This script, first in the REPL page's <head>, makes that worker
// at once (start.mjs: the kernel's own worker code, and Python starting in python.mjs), so
// Python loads on another core while the app boots. When the app asks for the kernel's
// worker, it gets this one. lite/build_lite.py adds the script and fills in its data-*:
//   data-start          the worker module to start (start.mjs), from this script
//   data-kernel-worker  the kernel worker file the app will ask for, from this script
// Where the app would make another worker (a cross-origin isolated page takes another
// kernel worker), nothing is started early and Python starts as before.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || typeof Worker !== "function" || self.crossOriginIsolated) return;
  var kernelWorker = new URL(script.dataset.kernelWorker, script.src).href;
  var Native = window.Worker;
  var early;
  try {
    early = new Native(new URL(script.dataset.start, script.src), { type: "module" });
  } catch (error) {
    return;  // the app makes its worker itself
  }
  // An early worker nobody asked for (a page that never starts this kernel) stops after 10
  // minutes: long enough for the app to boot over a slow connection.
  var unclaimed = setTimeout(function () { if (early) early.terminate(); early = null; }, 600000);

  function KernelWorker(url, options) {
    if (early && String(url) === kernelWorker) {
      var worker = early;
      early = null;
      clearTimeout(unclaimed);
      return worker;
    }
    return new Native(url, options);
  }
  KernelWorker.prototype = Native.prototype;
  window.Worker = KernelWorker;
})();
