// calijack: the live lesson's page (lite/play/index.html), opened by the book's "Play live"
// (book/_live/calijack-live.js) in a frame, with the lesson's code cells as ?code=… parameters.
//
// It is the least that runs a lesson: a worker with Python in it (lite/kernel/start.mjs, which
// starts Python at once or restores the copy this browser keeps, and runs the cells through
// lite/kernel/live.py, with no Jupyter kernel), and the lesson's widgets drawn by the book's own
// widget manager (@jupyter-widgets/html-manager in the book's _static/, which every chapter
// uses for its demos and the book's service worker keeps), with the widgets' messages carried
// both ways. No JupyterLab and no kernel around it: nothing to boot, no shortcuts, no editor.
//
// The page runs the cells in order and shows the last one's output (the lesson's widget), as
// Voilà shows a lesson, the other cells hidden. Its state is on <main id="cj-play">:
//   data-state="loading" | "ready" | "error" (data-error: the error's last line, in words);
//   each cell <div class="cj-play-cell"> gets data-done once Python has run it;
//   data-python="started" | "restored": Python started afresh, or from the copy this browser keeps.
const DIGEST = new URL(import.meta.url).searchParams.get("_") || "";
const LITE = new URL("../", import.meta.url);
const BOOK_STATIC = new URL("../../_static/", import.meta.url);
const WIDGET_VIEW = "application/vnd.jupyter.widget-view+json";
// The book's widget loader (book/_widgets_js/cj-widget-loader.js), loaded deferred by
// index.html just before this module: it maps the widget manager's modules to the book's
// files; anywidget's front end (its wheel's nbextension, copied here by lite/build_lite.py)
// is the one module the live page adds.
const LOADER = window.calijackWidgetLoader;
const PATHS = { anywidget: new URL("static/calijack/anywidget", LITE).href };
const SESSION = crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2);

const main = document.getElementById("cj-play");
// The worker first: Python starts (or is restored) at once. The widget code (the widget manager,
// about half a megabyte) is asked for only once Python has its packages, or at once when it is
// restored from the copy this browser keeps (the worker says which, lite/kernel/python.mjs), so
// on a first visit it does not share the link with the interpreter and the wheels: it comes
// while Python imports what it got.
const worker = new Worker(new URL(`static/calijack/start.mjs?_=${DIGEST}`, LITE), { type: "module" });
const asked = new Map(); // request number -> {resolve, reject}: the worker answers each in turn
let requests = 0;
const cells = new Map(); // execute request's msg_id -> {el, renders: [promises]}
const comms = new Map(); // comm_id -> Comm
let manager = null;
let managerMade = null;  // the promise of the manager, once asked for
const early = [];  // Python's messages that came before the manager: handled once it is made
let lastCell = null;

/** Ask the worker (start.mjs): "execute" a cell, or pass a widget's message ("comm"). */
function ask(op, fields) {
  const call = ++requests;
  return new Promise((resolve, reject) => {
    asked.set(call, { resolve, reject });
    worker.postMessage({ call, op, ...fields });
  });
}

// A worker whose script cannot load or run: every request waiting fails, in words.
worker.addEventListener("error", (event) => {
  const error = new Error("Python's worker could not start" + (event.message ? ": " + event.message : ""));
  for (const { reject } of asked.values()) reject(error);
  asked.clear();
  fail(error.message);
});

worker.addEventListener("message", (event) => {
  const data = event.data || {};
  if (typeof data.reply === "number") {
    const waiting = asked.get(data.reply);
    asked.delete(data.reply);
    if (waiting && "error" in data) waiting.reject(new Error(data.error));
    else if (waiting) waiting.resolve(data.result);
    return;
  }
  if (data.calijackPython) {
    // "restoring", then "restored"; or "packages": started afresh (then a copy is to be made).
    main.dataset.python = data.calijackPython === "packages" ? "started" : "restored";
    widgets().catch(() => {});  // a failure is run()'s to report, when it waits for them
    return;
  }
  const message = data.pythonMessage;
  if (!message) return;
  if (manager) onKernelMessage(jsonClean(message));
  else early.push(jsonClean(message));
});

/** The widget manager, asked for once (when Python has its packages, or when run() needs it);
    Python's messages that came before it are handled, in order, as soon as it is made. */
function widgets() {
  managerMade = managerMade || widgetManager().then((made) => {
    manager = made;
    for (const m of early.splice(0)) onKernelMessage(m);
    return made;
  });
  return managerMade;
}

// Python's message as a Jupyter kernel would send it, in JSON: the worker converts Python's
// None to undefined, which the Jupyter protocol has as null (a selection cleared, a value
// unset); binary buffers stay as they are.
function jsonClean(m) {
  const { buffers, ...rest } = m;
  const clean = JSON.parse(JSON.stringify(rest, (key, value) => (value === undefined ? null : value)));
  if (buffers) clean.buffers = buffers;
  return clean;
}

function uuid() {
  return crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now();
}

function header(type) {
  return { msg_id: uuid(), msg_type: type, session: SESSION, username: "reader",
           date: new Date().toISOString(), version: "5.3" };
}

function message(type, content, metadata, buffers) {
  return { header: header(type), parent_header: {}, metadata: metadata || {}, content,
           buffers: buffers || [], channel: "shell" };
}

// A widget's comm: the classic interface @jupyter-widgets/base expects (IClassicComm). Each
// message to Python resolves the widget's "idle" callback once Python has handled it, as a
// kernel's status message would: the model sends its next change only then.
class Comm {
  constructor(id, target) {
    this.comm_id = id;
    this.target_name = target;
    this._onMsg = null;
    this._onClose = null;
    this._early = [];  // messages that came before the model listened (it loads its class first)
  }
  _send(type, data, callbacks, metadata, buffers) {
    const content = { comm_id: this.comm_id, data: data || {} };
    if (type === "comm_open") content.target_name = this.target_name;
    const msg = message(type, content, metadata, buffers);
    ask("comm", { message: msg }).catch((error) => console.error("calijack: a widget message failed:", error.message))
      .finally(() => idle(callbacks, msg));
    return msg.header.msg_id;
  }
  open(data, callbacks, metadata, buffers) {
    return this._send("comm_open", data, callbacks, metadata, buffers);
  }
  send(data, callbacks, metadata, buffers) {
    return this._send("comm_msg", data, callbacks, metadata, buffers);
  }
  close(data, callbacks, metadata, buffers) {
    comms.delete(this.comm_id);
    return this._send("comm_close", data, callbacks, metadata, buffers);
  }
  on_msg(callback) {
    this._onMsg = callback;
    const early = this._early.splice(0);
    for (const msg of early) callback(msg);
  }
  on_close(callback) { this._onClose = callback; }
  handle(msg) {
    if (this._onMsg) this._onMsg(msg);
    else this._early.push(msg);
  }
  handleClose(msg) { comms.delete(this.comm_id); if (this._onClose) this._onClose(msg); }
}

function idle(callbacks, parent) {
  const status = callbacks && callbacks.iopub && callbacks.iopub.status;
  if (status) {
    status({ header: header("status"), parent_header: parent.header, metadata: {},
             content: { execution_state: "idle" }, channel: "iopub" });
  }
}

function asMessage(m) {
  return { header: header(m.type), parent_header: m.parentHeader || {}, metadata: m.metadata || {},
           content: m.content || {}, buffers: m.buffers || [], channel: "iopub" };
}

function cellOf(m) {
  const id = m.parentHeader && m.parentHeader.msg_id;
  return (id && cells.get(id)) || lastCell;
}

function onKernelMessage(m) {
  switch (m.type) {
    case "comm_open": {
      const comm = new Comm(m.content.comm_id, m.content.target_name);
      comms.set(comm.comm_id, comm);
      if (m.content.target_name === "jupyter.widget" && manager) {
        manager.handle_comm_open(comm, asMessage(m)).catch((error) => fail("A widget could not be made: " + error.message));
      }
      return;
    }
    case "comm_msg": {
      const comm = comms.get(m.content.comm_id);
      if (comm) comm.handle(asMessage(m));
      return;
    }
    case "comm_close": {
      const comm = comms.get(m.content.comm_id);
      if (comm) comm.handleClose(asMessage(m));
      return;
    }
  }
  const cell = cellOf(m);
  if (!cell) return;
  const bundle = m.bundle || {};
  switch (m.type) {
    case "stream":
      // What a lesson prints is the learner's to read; what Python writes on stderr (a
      // traceback from a widget's callback, a warning) is the book's authors': the console's.
      if (bundle.name === "stderr") console.error("calijack: Python wrote on stderr:\n" + plain(bundle.text || ""));
      else text(cell.el, "cj-play-stream", bundle.text || "");
      break;
    case "display_data":
    case "execute_result":
      cell.renders.push(show(cell.el, bundle.data || {}));
      break;
    case "clear_output":
      cell.el.replaceChildren();
      break;
    case "execute_error":
      text(cell.el, "cj-play-error", plain((bundle.traceback || []).join("\n")) || `${bundle.ename}: ${bundle.evalue}`);
      break;
  }
}

function text(el, cls, value) {
  let pre = el.lastElementChild;
  if (!pre || !pre.classList.contains(cls)) {
    pre = document.createElement("pre");
    pre.className = cls;
    el.append(pre);
  }
  pre.textContent += value;
}

// A traceback as words: IPython colours it with terminal escapes.
function plain(value) {
  return value.replace(/\u001b\[[0-9;]*[A-Za-z]/g, "");
}

async function show(el, data) {
  const area = document.createElement("div");
  area.className = "cj-play-output";
  el.append(area);
  if (data[WIDGET_VIEW] && manager) {
    const model = await manager.get_model(data[WIDGET_VIEW].model_id);
    const view = await manager.create_view(model);
    await manager.display_view(view, area);
    await LOADER.settled(view);
  } else if (data["text/html"]) {
    area.innerHTML = data["text/html"];  // the lesson's own output, from the book's own code
  } else if (data["text/plain"]) {
    text(area, "cj-play-stream", data["text/plain"]);
  }
}

async function widgetManager() {
  if (!LOADER) throw new Error("the widget loader (cj-widget-loader.js) did not load");
  // anywidget's front end is asked for with the manager's modules, not one round trip after
  // them (the card table, the review board and the lessons' progress are anywidgets).
  const { HTMLManager } = await LOADER.htmlManager({ base: BOOK_STATIC.href, paths: PATHS, preload: ["anywidget"] });
  // The manager of the book's static demos, with Python behind it: models the page makes
  // open a comm to Python (the lessons' models all come from Python, by comm_open).
  class LiveManager extends HTMLManager {
    async _create_comm(target, modelId, data, metadata, buffers) {
      const comm = new Comm(modelId || uuid(), target);
      comms.set(comm.comm_id, comm);
      if (data || metadata) comm.open(data, {}, metadata, buffers);
      return comm;
    }
    _get_comm_info() {
      return Promise.resolve({});
    }
  }
  return new LiveManager({ loader: LOADER.requireModule });
}

function fail(text) {
  if (main.dataset.state === "error") return;
  main.dataset.error = text;
  main.dataset.state = "error";
}

async function run() {
  // Python to run before the lesson's own cells, if the page was given any: the browser tests
  // set window.calijackLiveSetup (an init script, as window.calijackClock sets their clock) to
  // the lessons' test settings, fewer guesses and shorter pauses. Nothing in the book sets it.
  const setup = Array.isArray(globalThis.calijackLiveSetup) ? globalThis.calijackLiveSetup : [];
  const code = [...setup.filter((source) => typeof source === "string"),
                ...new URLSearchParams(location.search).getAll("code")];
  for (const source of code) {
    const el = document.createElement("div");
    el.className = "cj-play-cell";
    main.append(el);
    const msgId = uuid();
    const cell = { el, renders: [] };
    cells.set(msgId, cell);
    lastCell = cell;
    const reply = await ask("execute", { code: source, msgId });
    await widgets();  // the cell's outputs are drawn once the manager is there
    await Promise.all(cell.renders);
    el.dataset.done = "";
    if (reply.status !== "ok") {
      fail(`${reply.ename}: ${reply.evalue}`);
      return;
    }
  }
  main.dataset.state = "ready";
  if (main.dataset.python !== "restored") keepPythonLater();
}

// Once the lesson is up: a worker of its own keeps a started Python in this browser for the
// next start (lite/kernel/keep.mjs; it does nothing if one is kept already), when the page is
// idle, so the learner's first moves do not wait for it. It ends once it has answered.
const KEEP_AFTER_MS = 1000;
function keepPythonLater() {
  const begin = () => {
    const keeper = new Worker(new URL(`static/calijack/keep.mjs?_=${DIGEST}`, LITE), { type: "module" });
    keeper.addEventListener("message", () => keeper.terminate());
    keeper.addEventListener("error", (event) => {
      console.warn("calijack: could not keep a started Python in this browser:", event.message || "its worker failed");
      keeper.terminate();
    });
  };
  setTimeout(() => (window.requestIdleCallback ? requestIdleCallback(begin, { timeout: 5000 }) : begin()), KEEP_AFTER_MS);
}

run().catch((error) => fail(String((error && error.message) || error)));
