"""Where the live book's start goes: the milestones of "Play live", and Python's own phases.

Used by ``bench/live.py``. Two views of one start:

- *milestones* of the real start, from the page, the live lesson's frame (``lite/play/``) and
  its worker (each clock turned into wall time): the click; the live page begins; the worker is
  made (by the live page as it opens), and what its Python says of its start (kept for the
  next start, or restored from the kept copy); the worker has the runtime
  (``pyodide.asm.wasm``) and the stdlib; each lesson cell is done (the page runs them once
  Python is up, so the first cell's end follows Python's start); the widget is drawn; the
  first legal card can be clicked. Recorded by :data:`RECORDER_JS`, which the bench puts in
  every frame.
- *Python's phases*, timed in a bare worker that loads the site's own Pyodide as the live
  worker does (no snapshot): the runtime's start (WebAssembly, stdlib), installing the wheels,
  the lesson's imports, ``Sandbox()``.

Also the processor time the browser spent (all its processes), which tells a slow start from a
busy machine.
"""

from __future__ import annotations

import psutil

# In every frame, from its first script: wall-clock marks of the start.
RECORDER_JS = """(() => {
  const now = () => performance.timeOrigin + performance.now();
  const cj = window.__cjStart = {origin: performance.timeOrigin, worker: null, cells: [], widget: null};
  const W = window.Worker;
  if (W) window.Worker = new Proxy(W, {construct(target, args) { cj.worker = cj.worker || now(); return new target(...args); }});
  if (!location.pathname.includes("/lite/play/")) return;
  const look = () => {
    document.querySelectorAll("#cj-play > .cj-play-cell").forEach((cell, i) => {
      const c = cj.cells[i] = cj.cells[i] || {added: now(), done: null};
      if (!c.done && cell.hasAttribute("data-done")) c.done = now();
    });
    if (!cj.widget && document.querySelector("#cj-play .jupyter-widgets")) cj.widget = now();
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true, characterData: true,
                                                attributes: true, attributeFilter: ["data-done"]});
})();"""

# The live worker: when it was made, and when it had each runtime file.
WORKER_JS = """() => ({origin: performance.timeOrigin, files: performance.getEntriesByType("resource")
  .filter(e => e.name.includes("/static/pyodide/"))
  .map(e => [e.name.split("/").pop(), performance.timeOrigin + e.responseEnd])})"""

PROBE_PATH = "/__bench/python.html"
PROBE_HTML = """<!doctype html><meta charset="utf-8"><title>Python's phases</title>
<script type="module">
const worker = new Worker("/__bench/python-worker.mjs", {type: "module"});
worker.onmessage = (event) => { window.__phases = event.data; };
worker.postMessage(new URLSearchParams(location.search).get("runtime"));
</script>"""
# The live worker's start (loadPyodide, then every package), then the sandbox lesson's own
# code, each step timed.
PROBE_WORKER = """onmessage = async (event) => {
  const runtime = event.data, phases = [];
  let t = performance.now();
  const lap = (name) => { const n = performance.now(); phases.push([name, Math.round(n - t)]); t = n; };
  try {
    const {loadPyodide} = await import(runtime + "pyodide.mjs");
    const lock = await (await fetch(runtime + "pyodide-lock.json")).json();
    const py = await loadPyodide({indexURL: runtime, stdout: () => {}, stderr: () => {}});
    lap("runtime start (wasm, stdlib)");
    await py.loadPackage(Object.keys(lock.packages), {messageCallback: () => {}});
    lap("install the wheels");
    await py.runPythonAsync("import IPython");
    lap("IPython (ipywidgets imports it)");
    await py.runPythonAsync("import calijack");
    lap("lesson: import calijack");
    await py.runPythonAsync("from calijack.widgets.sandbox import Sandbox");
    lap("lesson: ipywidgets, anywidget, sandbox");
    await py.runPythonAsync("Sandbox(seed=7)");
    lap("lesson: Sandbox(seed=7)");
  } catch (error) { phases.push(["error", String(error).slice(-300)]); }
  postMessage(phases);
};"""


def with_probe(app):
    """The WSGI ``app`` (a static site), which also serves the Python-phases probe under ``/__bench/``."""
    pages = {PROBE_PATH: (PROBE_HTML, "text/html"), "/__bench/python-worker.mjs": (PROBE_WORKER, "text/javascript")}

    def probe(environ, start_response):
        page = pages.get(environ.get("PATH_INFO", ""))
        if page is None:
            return app(environ, start_response)
        body = page[0].encode()
        start_response("200 OK", [("Content-Type", page[1]), ("Content-Length", str(len(body)))])
        return [body]

    return probe


def browser_cpu_seconds() -> float:
    """Processor seconds used so far by the browser processes this benchmark started."""
    total = 0.0
    for proc in psutil.Process().children(recursive=True):
        try:
            if "chrom" in proc.name():
                times = proc.cpu_times()
                total += times.user + times.system
        except psutil.Error:
            pass
    return total


def milestones(page, clicked_at: float) -> list[tuple[str, float]]:
    """Seconds from the click to each milestone of the start just made (see the module doc)."""
    frame = page.locator("iframe.cj-live-frame").element_handle().content_frame()
    live = frame.evaluate("() => window.__cjStart")
    marks = [("live page begins", live["origin"]), ("kernel worker made", live["worker"])]
    workers = [w for w in page.workers if "worker" in w.url or "/calijack/start.mjs" in w.url]
    if workers:
        files = dict(workers[-1].evaluate(WORKER_JS)["files"])
        marks += [("worker has the runtime (wasm)", files.get("pyodide.asm.wasm")),
                  ("worker has the stdlib", files.get("python_stdlib.zip"))]
    for number, cell in enumerate(live["cells"], 1):
        marks.append((f"lesson cell {number} done (kernel up before)", cell["done"]))
    marks.append(("widget drawn", live["widget"]))
    return [(name, round((at / 1000) - clicked_at, 2)) for name, at in marks if at]


def python_phases(context, url: str) -> list:
    """Python's phases (ms) in a bare worker of ``context`` with the site's own runtime."""
    page = context.new_page()
    page.goto(url.rstrip("/") + PROBE_PATH + "?runtime=/lite/static/pyodide/")
    page.wait_for_function("() => window.__phases", timeout=300_000)
    phases = page.evaluate("() => window.__phases")
    page.close()
    return phases


def render(report: dict) -> list[str]:
    """Lines of text for the breakdown in ``report`` (as ``bench/live.py`` stores it)."""
    lines = []
    for visit in ("cold", "warm", "offline"):
        start = report.get(f"{visit}_breakdown")
        if not start:
            continue
        lines.append(f"{visit} start, milestones (s after the click; browser CPU "
                     f"{start['browser_cpu_s']} s; load average {start['load_average']}):")
        lines += [f"  {at:6.2f}  {name}" for name, at in start["milestones"]]
        lines += [f"          {text}" for text in start.get("python_says", [])]
        if "python_ms" in start:
            lines.append(f"{visit} start, Python's phases in a bare worker (ms):")
        lines += [f"  {ms:>6}  {name}" for name, ms in start.get("python_ms", [])]
    return lines

