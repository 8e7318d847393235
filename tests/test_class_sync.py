"""The lesson page's side of the class service (``calijack/widgets/progress.js``'s sync), run
under Node with a stand-in browser: storage, the hidden frame, and ``fetch`` answering as the
service would (merging with :func:`calijack.progress.merge`, here in Python beforehand) or not
at all. The learner's progress is kept in the browser whatever the service does; at most one
call per save window; an unreachable service costs one line, and the next save tries again."""

from __future__ import annotations

import json
import shutil
import subprocess

from calijack import progress
from calijack.text_progress import say

DRIVER = r"""
const store = new Map();
globalThis.localStorage = { getItem: (k) => (store.has(k) ? store.get(k) : null),
  setItem: (k, v) => store.set(k, String(v)), removeItem: (k) => store.delete(k) };
const target = new EventTarget();
globalThis.addEventListener = target.addEventListener.bind(target);
globalThis.removeEventListener = target.removeEventListener.bind(target);
globalThis.dispatchEvent = target.dispatchEvent.bind(target);
let frames = 0;
globalThis.document = {
  getElementById: () => null,
  createElement: () => {
    const listeners = {};
    const frame = { hidden: false, setAttribute() {}, remove() {},
      addEventListener: (name, fn) => { listeners[name] = fn; },
      contentDocument: { body: { dataset: { xsrf: "token-1" } } } };
    Object.defineProperty(frame, "src", { set(url) { frame.url = url; frames += 1; setTimeout(() => listeners.load(), 0); } });
    return frame;
  },
  body: { appendChild() {} },
};
const plan = JSON.parse(require("fs").readFileSync(0, "utf8"));
const calls = [];
let up = false;
globalThis.fetch = (url, options) => {
  calls.push({ url, method: options.method, xsrf: options.headers["X-XSRFToken"] });
  if (!up) return Promise.reject(new TypeError("Failed to fetch"));
  if (plan.refuse && options.method === "PUT") return Promise.resolve({ ok: false, status: 409 });
  const body = options.method === "PUT" ? JSON.stringify({ document: plan.server }) : "";
  return Promise.resolve({ ok: true, status: options.method === "DELETE" ? 204 : 200,
    json: () => Promise.resolve(JSON.parse(body)) });
};
const api = globalThis.calijackProgress;
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
(async () => {
  const out = {};
  await api.startSync("/services/calijack-class/");          // the service is out of reach
  out.kept = api.answerCheck("book/03_legal_play#1", true);    // kept in the browser all the same
  out.pausedNote = api.status().note;
  out.putsWhileAway = calls.filter((c) => c.method === "PUT").length;
  up = true;                                                   // the service is back
  api.answerCheck("book/03_legal_play#2", false);              // the next save sends
  api.answerCheck("book/03_legal_play#3", true);               // ...in the same call
  await sleep(plan.window + 400);
  out.puts = calls.filter((c) => c.method === "PUT").length;
  out.noteAfter = api.status().note;
  out.checks = Object.keys(api.read().checks).sort();          // the service's merge, kept
  out.frames = frames;
  out.refused = api.startSync("//evil.example/") === api.startSync("/services/calijack-class/");
  api.resetAll();
  await sleep(50);
  out.deleted = calls.some((c) => c.method === "DELETE" && c.xsrf === "token-1");
  out.urls = [...new Set(calls.map((c) => c.url))];
  process.stdout.write(JSON.stringify(out));
})();
"""


def test_the_page_keeps_progress_when_the_service_is_away_and_syncs_when_it_is_back(tmp_path):
    node = shutil.which("node")
    assert node, "node is missing: install Node.js (`make npm` installs Debian's npm, which brings it)"
    seconds = 1
    source = progress.script().replace('"syncSeconds":5', f'"syncSeconds":{seconds}')
    assert source != progress.script()
    local = progress.empty()
    local["checks"] = {"book/03_legal_play#1": {"first": True, "solved": True},
                       "book/03_legal_play#2": {"first": False, "solved": False},
                       "book/03_legal_play#3": {"first": True, "solved": True}}
    other_device = progress.empty()
    other_device["checks"]["book/04_drawing#1"] = {"first": True, "solved": True}
    server = progress.merge(local, other_device)
    script = tmp_path / "sync.js"
    script.write_text(source + "\n" + DRIVER, encoding="utf-8")
    done = subprocess.run([node, str(script)], input=json.dumps({"server": server, "window": seconds * 1000}),
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["kept"] is True and out["pausedNote"] == say("note_sync_paused")
    assert out["putsWhileAway"] == 1  # the call as the page opened, which failed
    assert out["puts"] - out["putsWhileAway"] == 1, out  # three saves in one window: one call
    assert out["noteAfter"] == ""
    assert out["checks"] == sorted(server["checks"])  # what the other device had is here now
    assert out["frames"] == 2  # the failed call made the next save sign in again
    assert out["refused"] is True and out["deleted"] is True
    assert out["urls"] == ["/services/calijack-class/api/progress"]


RESET_ELSEWHERE = DRIVER.split("(async () => {")[0] + r"""
(async () => {
  const out = {};
  up = true;
  await api.startSync("/services/calijack-class/");   // refused: older than a reset elsewhere
  out.refusedNote = api.status().note;
  out.kept = api.answerCheck("book/03_legal_play#1", true);
  plan.refuse = false;                                // reset here too: the service takes it again
  api.answerCheck("book/03_legal_play#2", true);
  await sleep(plan.window + 400);
  out.noteAfter = api.status().note;
  process.stdout.write(JSON.stringify(out));
})();
"""


def test_a_copy_refused_as_older_than_a_reset_says_so_and_syncs_again_once_taken(tmp_path):
    """The service answers 409 to a copy dated before the learner's reset on another device: the
    page keeps its progress, its note says why syncing stopped (not only that it is paused)."""
    node = shutil.which("node")
    assert node, "node is missing: install Node.js (`make npm` installs Debian's npm, which brings it)"
    source = progress.script().replace('"syncSeconds":5', '"syncSeconds":1')
    script = tmp_path / "reset.js"
    script.write_text(source + "\n" + RESET_ELSEWHERE, encoding="utf-8")
    done = subprocess.run([node, str(script)], input=json.dumps({"server": progress.empty(), "window": 1000,
                                                                 "refuse": True}),
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["refusedNote"] == say("note_sync_reset") != say("note_sync_paused")
    assert out["kept"] is True
    assert out["noteAfter"] == ""
