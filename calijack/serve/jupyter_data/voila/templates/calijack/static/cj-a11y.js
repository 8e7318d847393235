// calijack: give each widget slider's handle an accessible name (its description, else "Step").
//
// ipywidgets 8 draws IntSlider with noUiSlider, whose handle (role="slider") has no name, so
// screen readers say only "slider" and axe-core reports a serious aria-input-field-name
// violation. The description label sits beside the handle, unconnected; this copies its text.
// Loaded by the Voilà template (static/cj-a11y.js) and, in the book, by the widget loader
// (book/_widgets_js/cj-widget-loader.js) with the widget code.
(function () {
  var queued = false;
  function nameHandles() {
    queued = false;
    var handles = document.querySelectorAll('.widget-slider [role="slider"]:not([aria-label])');
    for (var k = 0; k < handles.length; k++) {
      var box = handles[k].closest(".widget-slider");
      var label = box && box.querySelector(".widget-label");
      var text = label && label.textContent.trim();
      handles[k].setAttribute("aria-label", text || "Step");
    }
  }
  function start() {
    nameHandles();
    new MutationObserver(function () {
      if (!queued) {
        queued = true;
        window.requestAnimationFrame(nameHandles);
      }
    }).observe(document.body, { childList: true, subtree: true });
  }
  if (document.body) start();
  else document.addEventListener("DOMContentLoaded", start);
})();
