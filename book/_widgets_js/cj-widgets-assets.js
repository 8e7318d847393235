// calijack: make the widget bundle (embed-amd.js) find its fonts next to itself, in _static/.
//
// The bundle's modules compute their asset folder from their RequireJS module URL, which by
// default is <page folder>/@jupyter-widgets/..., so every font request 404s. Mapping the
// module ids to this folder fixes that (the modules are defined by embed-amd.js itself, so
// nothing is fetched through these paths). Must run after require.js and before
// embed-amd.js: nb_ipywidgets_js in _config.yml lists the three files in that order.
(function () {
  var script = document.currentScript;
  if (!script || !script.src || typeof window.requirejs === "undefined") {
    return;
  }
  var here = new URL(".", script.src).href;
  window.__jupyter_widgets_assets_path__ = here;
  window.requirejs.config({
    paths: {
      "@jupyter-widgets/base": here + "embed-amd",
      "@jupyter-widgets/base7": here + "embed-amd",
      "@jupyter-widgets/controls": here + "embed-amd",
      "@jupyter-widgets/controls7": here + "embed-amd",
      "@jupyter-widgets/html-manager": here + "embed-amd",
      "@jupyter-widgets/html-manager/dist/libembed-amd": here + "libembed-amd",
    },
  });
})();
