/* calijack: the one loader of the widget manager, for the book's pages and the live page.
 *
 * A plain script defining one global, window.calijackWidgetLoader. The book's pages load it
 * deferred, just before their own loader cj-widgets.js (book/_ext/calijack_speed.py adds
 * both); the live lesson's page (lite/play/index.html) loads it deferred before play.mjs.
 * Both then get the official @jupyter-widgets/html-manager through RequireJS, from the
 * book's own _static/ folder, never from a CDN.
 *
 *   calijackWidgetLoader.htmlManager({base, version, paths, preload})
 *       load require.js from `base` (a URL ending in "/", the book's _static/), map the
 *       widget manager's modules (MODULES) to their files there (preloaded all at once, not
 *       one after another as RequireJS finds them), and any `paths` besides
 *       (module id -> URL without ".js"; those named in `preload`, a list of ids, are
 *       preloaded with the manager's); with a `version`, every module's URL carries
 *       "?v=<version>" so hosts may cache them for long. Also fetches cj-a11y.js (names for
 *       the sliders' handles, shared with the Voilà template; it watches the page, so it
 *       may arrive before or after the widgets). Resolves with the html-manager module.
 *   calijackWidgetLoader.requireModule(name)   one AMD module, as a Promise (the manager's
 *                                              `loader` option)
 *   calijackWidgetLoader.addScript(src)        a <script> added to the head, as a Promise
 *   calijackWidgetLoader.settled(view)         resolves once a view and all the views inside
 *                                              it exist (boxes create their children later)
 *   calijackWidgetLoader.MODULES               the module map below
 */
(function () {
  "use strict";

  // The widget manager's AMD modules: module id -> file in the book's _static/, without
  // ".js". The one list: book/_ext/vendor_widgets.py reads it to split the npm bundle into
  // these files (keep one entry a line, in this form).
  var MODULES = {
    "@jupyter-widgets/base": "jupyter-widgets-base",
    "@jupyter-widgets/controls": "jupyter-widgets-controls",
    "@jupyter-widgets/html-manager": "jupyter-widgets-html-manager",
  };

  function addScript(src) {
    return new Promise(function (resolve, reject) {
      var tag = document.createElement("script");
      tag.src = src;
      tag.onload = resolve;
      tag.onerror = function () {
        reject(new Error("could not load " + src));
      };
      document.head.appendChild(tag);
    });
  }

  function requireModule(name) {
    return new Promise(function (resolve, reject) {
      window.requirejs([name], resolve, reject);
    });
  }

  function settled(view) {
    var list = view && view.children_views;
    if (!list || !list.views) {
      return Promise.resolve();
    }
    return Promise.all(list.views).then(function (children) {
      return Promise.all(children.map(settled));
    });
  }

  // Ask for a script the page will run soon, without running it: RequireJS finds a module's
  // dependencies only once the module has come (html-manager, then base and controls), one
  // round trip after another; preloaded, all of them come at once.
  function preload(src) {
    var link = document.createElement("link");
    link.rel = "preload";
    link.as = "script";
    link.href = src;
    document.head.appendChild(link);
  }

  function htmlManager(options) {
    var base = options.base;
    var version = options.version || "";
    var query = version ? "?v=" + version : "";
    Object.keys(MODULES).forEach(function (id) {
      preload(base + MODULES[id] + ".js" + query);
    });
    (options.preload || []).forEach(function (id) {
      if (options.paths && options.paths[id]) {
        preload(options.paths[id] + ".js" + query);
      }
    });
    addScript(base + "cj-a11y.js").catch(function () {});
    return addScript(base + "require.js" + (version ? "?v=" + version : "")).then(function () {
      var paths = {};
      Object.keys(MODULES).forEach(function (id) {
        paths[id] = base + MODULES[id];
      });
      Object.keys(options.paths || {}).forEach(function (id) {
        paths[id] = options.paths[id];
      });
      var config = { paths: paths };
      if (version) {
        config.urlArgs = "v=" + version;
      }
      window.requirejs.config(config);
      return requireModule("@jupyter-widgets/html-manager");
    });
  }

  window.calijackWidgetLoader = {
    MODULES: MODULES,
    addScript: addScript,
    requireModule: requireModule,
    settled: settled,
    htmlManager: htmlManager,
  };
})();
