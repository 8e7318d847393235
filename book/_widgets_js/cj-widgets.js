/* calijack: the book's demos. Text first, widgets after.
 *
 * A page with demos carries, built into it, a picture of each demo as it first appears
 * (its first frame, the control drawn inert, a "Loading the demo" note), and points this
 * script at the page's widget state, a JSON file beside the widget code (both written by
 * book/_ext/calijack_speed.py; an inline widget-state script works too). This small
 * deferred script fetches the state and the widget code only once the reader is engaged
 * with the page (wheels, touches, points, types) while a demo is near the viewport, or
 * touches a demo, or something asks for it; then it renders every demo of the page with the
 * official @jupyter-widgets/html-manager, through RequireJS, and swaps each picture for its
 * live widget in place: the picture already holds the demo's room, so nothing jumps. A tap
 * on a pictured option button is replayed on the real one once it is there.
 *
 * So the text, and the picture of every demo, never wait for widget code: a page's first
 * load fetches none of it, and a demo scrolled to is live about one screen early.
 *
 * Only the modules a page needs are fetched (book/_ext/vendor_widgets.py split the bundle):
 * require.js, then the manager with ipywidgets 8's base and controls, and cj-a11y.js (the
 * sliders' handles named). Any other module a widget names is looked up beside them on this
 * host, never on a CDN. The fetching is the widget loader's (cj-widget-loader.js, loaded
 * deferred just before this script, and by the live lesson's page too).
 *
 * The hook for other code (for example a "Play live" button replacing a static demo):
 *
 *   calijackWidgets.demos()          the page's demos: one element (.cj-demo) per widget view
 *   calijackWidgets.load()           fetch the code and render every demo now; a Promise
 *                                    that resolves when all are rendered
 *   calijackWidgets.replace(demo, node)
 *                                    put `node` in place of the demo's static content (its
 *                                    picture or rendered widget), keeping its room until
 *                                    `node` has a height; the static demo is not rendered
 *                                    while replaced. Returns a function that puts the static
 *                                    demo back (and renders it if the code came meanwhile)
 *   document event "cj-widgets-rendered"  fired once every demo is rendered
 *
 * Nothing heavy (and never Pyodide) is fetched before the reader moves towards a demo.
 */
(function () {
  "use strict";
  var script = document.currentScript;
  var here = new URL(".", script.src).href; // the book's _static/ folder
  var version = script.getAttribute("data-cj-version") || "";
  var stateUrl = script.getAttribute("data-cj-state");
  var VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]';
  var STATE = 'script[type="application/vnd.jupyter.widget-state+json"]';
  // Input only a reader makes. Not "scroll": the theme scrolls its sidebar by itself.
  var ENGAGEMENT = ["wheel", "touchstart", "pointerdown", "pointermove", "keydown"];
  var FOCUSABLE = 'button, input, select, textarea, a[href], [role="slider"], [tabindex="0"]';
  var loader = window.calijackWidgetLoader; // cj-widget-loader.js
  var loading = null;
  var live = null; // {manager, models} once the widget code and the state are in
  var tapped = []; // [demo, option index] tapped on a picture, replayed once live

  function demos() {
    return Array.prototype.map.call(document.querySelectorAll(VIEW), function (tag) {
      return tag.closest(".cj-demo") || tag.parentElement;
    });
  }

  function setStatus(text) {
    document.querySelectorAll(".cj-demo-loading").forEach(function (line) {
      line.textContent = text;
    });
  }

  function showWidget(demo) {
    var picture = demo.querySelector(".cj-demo-placeholder");
    // The reader was on the picture's "Start this demo" button: the focus goes on into the
    // live demo's first control, not back to the top of the page.
    var focused = picture && picture.contains(document.activeElement);
    if (picture) {
      picture.remove();
    }
    if (focused) {
      var first = demo.querySelector(FOCUSABLE);
      if (first) {
        first.focus();
      }
    }
    demo.classList.add("cj-demo-ready");
    tapped.forEach(function (tap) {
      var button = tap[0] === demo && demo.querySelectorAll(".widget-toggle-button")[tap[1]];
      if (button) {
        button.click();
      }
    });
  }

  function readState() {
    var tag = document.querySelector(STATE);
    if (tag) {
      return Promise.resolve(JSON.parse(tag.textContent));
    }
    if (!stateUrl) {
      return Promise.reject(new Error("no widget state on this page"));
    }
    return fetch(stateUrl).then(function (response) {
      if (!response.ok) {
        throw new Error("could not load " + stateUrl + " (" + response.status + ")");
      }
      return response.json();
    });
  }

  // One demo: its live widget in a subarea just before the view tag (where html-manager's
  // own renderer puts it), then the swap. Demos handed to other code are left alone.
  function renderDemo(tag) {
    var demo = tag.closest(".cj-demo") || tag.parentElement;
    var id = JSON.parse(tag.textContent).model_id;
    var model = live && live.models.find(function (m) {
      return m.model_id === id;
    });
    if (!model || demo.hasAttribute("data-cj-replaced") || demo.querySelector(".widget-subarea")) {
      return Promise.resolve();
    }
    var area = document.createElement("div");
    area.className = "widget-subarea";
    tag.parentElement.insertBefore(area, tag);
    return live.manager
      .create_view(model)
      .then(function (view) {
        return live.manager.display_view(view, area).then(function () {
          return loader.settled(view);
        });
      })
      .then(function () {
        return new Promise(requestAnimationFrame);
      })
      .then(function () {
        showWidget(demo);
      });
  }

  function render(htmlManager, state) {
    var manager = new htmlManager.HTMLManager({ loader: loader.requireModule });
    return manager.set_state(state).then(function (models) {
      live = { manager: manager, models: models };
      return Promise.all(Array.prototype.map.call(document.querySelectorAll(VIEW), renderDemo));
    });
  }

  function load() {
    if (!loading) {
      var state = readState();
      state.catch(function () {}); // handled below, once the code is in too
      loading = (loader ? loader.htmlManager({ base: here, version: version })
                        : Promise.reject(new Error("cj-widget-loader.js did not load")))
        .then(function (htmlManager) {
          return Promise.all([htmlManager, state]);
        })
        .then(function (loaded) {
          return render(loaded[0], loaded[1]);
        })
        .then(function () {
          document.dispatchEvent(new CustomEvent("cj-widgets-rendered"));
        })
        .catch(function (error) {
          setStatus("The demo could not load. Reload the page to try again.");
          loading = null;
          throw error;
        });
    }
    return loading;
  }

  function replace(demo, node) {
    var tag = demo.querySelector(VIEW);
    var kept = Array.prototype.slice.call(demo.childNodes);
    demo.style.minHeight = demo.getBoundingClientRect().height + "px";
    demo.setAttribute("data-cj-replaced", "");
    kept.forEach(function (child) {
      if (child !== tag) {
        child.remove(); // the view tag stays: it is how the demo is found again
      }
    });
    demo.insertBefore(node, demo.firstChild);
    var release = function () {
      if (!node.isConnected || node.getBoundingClientRect().height > 0) {
        demo.style.minHeight = "";
      } else {
        requestAnimationFrame(release);
      }
    };
    requestAnimationFrame(release);
    return function restore() {
      node.remove();
      demo.style.minHeight = "";
      demo.removeAttribute("data-cj-replaced");
      kept.forEach(function (child) {
        if (!child.parentNode) {
          demo.insertBefore(child, tag);
        }
      });
      if (live && tag) {
        renderDemo(tag); // the widget code came meanwhile: the picture goes live now
      }
    };
  }

  function watch() {
    var targets = demos();
    if (!targets.length) {
      return;
    }
    var near = new Set();
    var engaged = false;
    var start = function () {
      load().catch(function (error) {
        console.warn("calijack: widgets not rendered:", error);
      });
    };
    var maybeStart = function () {
      if (engaged && near.size) {
        start();
      }
    };
    if ("IntersectionObserver" in window) {
      // "Near" starts one screen below the viewport, so a demo scrolled to is live in time.
      var observer = new IntersectionObserver(
        function (entries) {
          entries.forEach(function (entry) {
            if (entry.isIntersecting) {
              near.add(entry.target);
            } else {
              near.delete(entry.target);
            }
          });
          maybeStart();
        },
        { rootMargin: "0px 0px 100% 0px" }
      );
      targets.forEach(function (demo) {
        observer.observe(demo);
      });
    } else {
      targets.forEach(function (demo) {
        near.add(demo);
      });
    }
    // The first sign of a reader at work: a page that is only being looked at (or measured)
    // fetches no widget code, even with a demo in view; its picture is already there.
    var engage = function (event) {
      if (!event.isTrusted) {
        return;
      }
      // Reaching for "Play live" is not a sign to fetch the static demo's code: the live demo
      // is about to replace it, and both would share the page's one thread while Python starts.
      if (event.target && event.target.closest && event.target.closest(".cj-live")) {
        return;
      }
      engaged = true;
      ENGAGEMENT.forEach(function (type) {
        window.removeEventListener(type, engage, true);
      });
      maybeStart();
    };
    ENGAGEMENT.forEach(function (type) {
      window.addEventListener(type, engage, { capture: true, passive: true });
    });
    targets.forEach(function (demo) {
      demo.addEventListener("pointerdown", function (event) {
        var button = event.target.closest && event.target.closest(".cj-pic-button");
        if (button) {
          tapped.push([demo, Array.prototype.indexOf.call(button.parentNode.children, button)]);
        }
        start();
      }, { passive: true });
      // "Start this demo" (the picture's button for a reader the page cannot otherwise see).
      demo.addEventListener("click", function (event) {
        if (event.target.closest && event.target.closest(".cj-demo-start")) {
          start();
        }
      });
    });
  }

  window.calijackWidgets = { demos: demos, load: load, replace: replace };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", watch);
  } else {
    watch();
  }
})();
