// calijack: Python for the live lesson's worker (start.mjs), started at once and, from the
// second start on, restored from a copy this browser keeps.
//
// start() starts Python once per worker, for the lesson:
//
// - If this browser keeps a started Python of this build (Cache Storage
//   "calijack-python-<build digest>"): Pyodide starts from its memory snapshot (no unpacking of
//   wheels, no imports to run), the packages' files are put back, and Python's random numbers
//   are seeded afresh (the snapshot holds the first start's generator).
// - Else (a first visit): Pyodide loads, then every wheel, and the lesson imports what it needs.
//
// keepPython() makes that copy, in a worker of its own (keep.mjs), which the live page starts
// once the lesson is up and the page idle: a Python of its own loads, imports what the lessons
// import (IPython, ipywidgets, calijack and the lessons' modules), takes a memory snapshot of
// itself and a copy of its installed packages' files, and keeps both. Making it in the
// lesson's own start held the first card back (Pyodide's start in snapshot mode, the imports of
// every lesson, the copy) by about half a second on a first visit.
//
// A snapshot that cannot be made, kept or read (no Cache Storage on a page that is not a
// secure context, a full disk, another build): Python starts the first way, and says why in
// the console, as a warning, never an error. The snapshot is Pyodide's own
// (makeMemorySnapshot, _loadSnapshot); a new build of the site uses a new cache name and
// deletes the old ones.
//
// live() then gives the lesson's runner (lite/kernel/live.py, as the module _calijack_live),
// connected to the page: what Python prints and the widgets' messages go to it.
//
// lite/build_lite.py fills in CONFIG: the wheels to load, the modules to import before the
// snapshot (none may hold a JavaScript object: the snapshot refuses them), the runner's source
// (imported after it: it sends through JavaScript), the cache's name.
import { loadPyodide } from "../pyodide/pyodide.mjs";

const CONFIG = __CONFIG__;
const INDEX = new URL("../pyodide/", import.meta.url).href;
// What every start gives Pyodide. JavaScript's null reaches Python as None, as it does through
// a Jupyter kernel's JSON: widget messages from the page carry null for a cleared choice (a
// quick check's Stack with no frame shown), and traitlets refuse Pyodide's own jsnull.
const RUNTIME = { indexURL: INDEX, convertNullToNone: true };
const CACHE_PREFIX = "calijack-python-";
const MEMORY = new URL("python-memory.bin", import.meta.url).href;
const FILES = new URL("python-files.bin", import.meta.url).href;
// The modules the start does not import, fetched on a first import (lite/kernel/rest_import.py).
const REST = new URL("rest/", import.meta.url).href;
// Where the wheels are installed, asked of Python itself (Pyodide's own copy is private).
const SITE_PACKAGES = "import site\nsite.getsitepackages()[0]";
const FIND_REST = `import _calijack_rest\n_calijack_rest.install(${JSON.stringify(REST)})`;
const say = (text) => console.info("calijack: " + text);
// Tells the live page (lite/play/play.mjs) how Python's start goes: "restoring" (from the copy
// this browser keeps; the page asks for the widgets' code at once), then "restored", or
// "packages" (started afresh, its packages in; on a first visit the widgets' code so far left
// the link to the interpreter and the wheels). The last one says whether a copy is to be made.
const announce = (stage) => self.postMessage({ calijackPython: stage });
const warn = (text, error) => console.warn("calijack: " + text + (error ? ": " + (error.message || error) : ""));

// Pyodide asks for its interpreter and standard library as it begins and waits for them only
// later: if the network goes in between (a phone that loses its signal, a host that stops),
// the failure is the worker's unhandled rejection, and Pyodide then waits forever (its own
// catch only warns). Every start races this promise, which fails in words instead; the
// browser's report of the rejection is replaced by it. A failed download is a TypeError in
// every browser ("Failed to fetch", "NetworkError when attempting to fetch resource.", "Load
// failed"); Python's own downloads in this worker are all Pyodide's.
class LostDownload extends Error {}
const LOST = new Promise((resolve, reject) => {
  self.addEventListener("unhandledrejection", (event) => {
    const reason = event.reason;
    if (!(reason instanceof TypeError) || !/fetch|network|load failed/i.test(reason.message)) return;
    event.preventDefault();
    reject(new LostDownload(`a file Python needs could not be downloaded (${reason.message})`));
  });
});
LOST.catch(() => {});  // a loss after the start is nobody's to hear
const loadRuntime = (options) => Promise.race([loadPyodide(options), LOST]);

/** Start Python in this worker (once); resolves to the Pyodide instance, never rejects
    unless Pyodide itself cannot start or a file it needs cannot be downloaded (LOST). */
export function start() {
  self.calijackPython = self.calijackPython || startRuntime();
  return self.calijackPython;
}

/** The lesson's runner (lite/kernel/live.py) in the started Python, once, connected: each of its
    messages goes to the page with ``send``, as do the lines Python prints. */
export function live(send) {
  self.calijackLive = self.calijackLive || start().then((py) => {
    py.setStdout({ batched: (text) => send(stream("stdout", text)) });
    py.setStderr({ batched: (text) => send(stream("stderr", text)) });
    const runner = py.runPython(`import sys, types
runner = sys.modules["_calijack_live"] = types.ModuleType("_calijack_live")
runner`);
    py.runPython(CONFIG.live, { globals: runner.__dict__, filename: "_calijack_live.py" });
    runner.connect((message) => send(message.toJs({ dict_converter: Object.fromEntries })));
    return runner;
  });
  return self.calijackLive;
}

// A line Python printed, as the page takes it (lite/play/play.mjs).
function stream(name, text) {
  return { type: "stream", content: {}, metadata: {}, buffers: [], parentHeader: {},
           bundle: { name, text: text + "\n" } };
}

async function startRuntime() {
  let store = null;
  try {
    store = self.caches ? await caches.open(CONFIG.cache) : null;
  } catch {
    store = null;  // keepPython() says why, when it runs
  }
  if (store) {
    try {
      const py = await restore(store);
      if (py) return py;
    } catch (error) {
      if (error instanceof LostDownload) throw error;  // the copy is sound: the network went
      warn("the copy of Python kept in this browser could not be used; starting afresh", error);
      await caches.delete(CONFIG.cache).catch(() => {});
    }
  }
  const py = await loadWithPackages({});
  announce("packages");
  return py;
}

// The runtime first, then the wheels: given with the runtime (its "packages" option), Pyodide
// asks for them at once, and they share the link with the interpreter, which then comes last
// and holds everything up. Asked for after it, they come while the interpreter starts (on a
// first visit the book's page has asked for them as soon as the interpreter was in).
async function loadWithPackages(options) {
  const py = await loadRuntime({ ...RUNTIME, ...options });
  await py.loadPackage(CONFIG.packages, { messageCallback: () => {} });
  py.runPython(FIND_REST);
  return py;
}

/** Make and keep a started Python for the next starts (see above), in a worker of its own;
    resolves to whether it kept one (false: one is kept already, or there is no Cache Storage),
    never rejects: what fails is said in the console. */
export async function keepPython() {
  let store;
  try {
    store = self.caches ? await caches.open(CONFIG.cache) : null;
  } catch (error) {
    warn("no Cache Storage here, so Python is not kept for the next start", error);
    return false;
  }
  if (!store) {
    warn("no Cache Storage here (a page that is not a secure context?), so Python is not kept for the next start");
    return false;
  }
  const [memory, files] = await keptCopy(store);
  if (memory && files) return false;
  const began = performance.now();
  try {
    const py = await loadWithPackages({ _makeSnapshot: true });
    await py.runPythonAsync(CONFIG.preload.map((name) => "import " + name).join("\n"));
    const loaded = { ...py.loadedPackages };
    // Pyodide checks that its table of packages is as a new start has it (empty); the
    // restored Python is told of them again (restore).
    for (const name of Object.keys(loaded)) delete py.loadedPackages[name];
    let image;
    const snapshotBegan = performance.now();
    try {
      image = py.makeMemorySnapshot();
    } finally {
      Object.assign(py.loadedPackages, loaded);
    }
    const kept = packFiles(py.FS, py.runPython(SITE_PACKAGES), loaded);
    const now = performance.now();
    const [ms, snapshotMs] = [now - began, now - snapshotBegan].map(Math.round);
    await keep(store, image, kept);
    say(`kept a started Python in this browser for the next start (${mb(image.length + kept.length)} MB; ` +
        `made in ${ms} ms, ${snapshotMs} ms of it to copy Python)`);
    return true;
  } catch (error) {
    warn("could not keep a started Python in this browser for the next start", error);
    return false;
  }
}

// The two files of the copy this browser keeps (each undefined if missing).
const keptCopy = (store) => Promise.all([store.match(MEMORY), store.match(FILES)]);

async function restore(store) {
  const [memory, files] = await keptCopy(store);
  if (!memory || !files) return null;
  announce("restoring");
  const began = performance.now();
  const [image, blob] = (await Promise.all([memory.arrayBuffer(), files.arrayBuffer()]))
    .map((buffer) => new Uint8Array(buffer));
  const { entries, loaded, start } = readIndex(blob);
  // The runtime's memory begins at the size its binary declares; the snapshot is of a memory
  // that grew while the packages were imported, so grow it first (Pyodide copies it in whole).
  const { instantiate, instantiateStreaming } = WebAssembly;
  const grown = (result) => {
    const memory = result.instance.exports.memory;
    const short = image.length - memory.buffer.byteLength;
    if (short > 0) memory.grow(Math.ceil(short / 65536));
    return result;
  };
  WebAssembly.instantiateStreaming = (...args) => instantiateStreaming.apply(WebAssembly, args).then(grown);
  WebAssembly.instantiate = (...args) => instantiate.apply(WebAssembly, args).then(
    (result) => (result.instance ? grown(result) : result));
  let py;
  try {
    py = await loadRuntime({
      ...RUNTIME, _loadSnapshot: image,
      fsInit: (FS) => writeFiles(FS, blob, entries, start),
    });
  } finally {
    WebAssembly.instantiate = instantiate;
    WebAssembly.instantiateStreaming = instantiateStreaming;
  }
  Object.assign(py.loadedPackages, loaded);
  announce("restored");
  py.runPython(FIND_REST);
  // The snapshot holds the first start's random generator: every start would deal the same.
  py.runPython("import random\nrandom.seed()");
  say(`Python restored from this browser's copy in ${Math.round(performance.now() - began)} ms`);
  return py;
}

async function keep(store, image, files) {
  // Files first: a start uses the snapshot only when both are there.
  await store.put(FILES, new Response(files));
  await store.put(MEMORY, new Response(image));
  for (const name of await caches.keys()) {
    if (name.startsWith(CACHE_PREFIX) && name !== CONFIG.cache) await caches.delete(name);
  }
}

// The installed packages' files, in one buffer: a 4-byte length, a JSON index
// ({entries: [[path, offset, length]] with length -1 for a folder, loaded}), then the bytes.
function packFiles(FS, root, loaded) {
  const entries = [];
  const chunks = [];
  let offset = 0;
  (function walk(folder) {
    for (const name of FS.readdir(folder)) {
      if (name === "." || name === "..") continue;
      const path = folder + "/" + name;
      if (FS.isDir(FS.stat(path).mode)) {
        entries.push([path, 0, -1]);
        walk(path);
      } else {
        const data = FS.readFile(path);
        entries.push([path, offset, data.length]);
        chunks.push(data);
        offset += data.length;
      }
    }
  })(root);
  const index = new TextEncoder().encode(JSON.stringify({ entries, loaded }));
  const out = new Uint8Array(4 + index.length + offset);
  new DataView(out.buffer).setUint32(0, index.length, true);
  out.set(index, 4);
  let at = 4 + index.length;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function readIndex(blob) {
  const length = new DataView(blob.buffer, blob.byteOffset).getUint32(0, true);
  const index = JSON.parse(new TextDecoder().decode(blob.subarray(4, 4 + length)));
  return { ...index, start: 4 + length };
}

function writeFiles(FS, blob, entries, start) {
  for (const [path, offset, length] of entries) {
    if (length < 0) FS.mkdirTree(path);
    else FS.writeFile(path, blob.subarray(start + offset, start + offset + length));
  }
}

const mb = (bytes) => Math.round(bytes / 1e6);
