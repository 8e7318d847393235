// calijack: the live lesson's worker, made by the live page as it opens (lite/play/play.mjs).
// Python starts at once (python.mjs: afresh, or restored from the copy this browser keeps), and
// the lesson runs through lite/kernel/live.py: no Jupyter kernel in between.
//
// The page asks, the worker answers, one request after another, in the order asked (as a
// kernel handles its requests):
//   {call: n, op: "execute", code, msgId}   run a cell; answer {reply: n, result: {status, ...}}
//   {call: n, op: "comm", message}          a widget's message (comm_open, comm_msg, comm_close)
//                                           to Python; answer {reply: n, result: null}
// A request that fails is answered {reply: n, error: "..."} (words, for the console).
// Unasked, the worker sends {pythonMessage: ...} (what Python printed or showed, and the
// widgets' messages) and, from python.mjs, {calijackPython: stage}: how Python's start goes.
// lite/build_lite.py fills in the build's digest.
import { live } from "./python.mjs?_=__DIGEST__";

const runner = live((message) => self.postMessage({ pythonMessage: message }));
runner.catch(() => {});  // a Python that cannot start is each request's error, in words
let queue = Promise.resolve();

async function answer(request) {
  const py = await runner;
  if (request.op === "execute") {
    const reply = await py.execute(String(request.code), String(request.msgId));
    try {
      return reply.toJs({ dict_converter: Object.fromEntries });
    } finally {
      reply.destroy();
    }
  }
  if (request.op === "comm") {
    py.receive(request.message);
    return null;
  }
  throw new Error(`the live page asked for an unknown operation: ${request.op}`);
}

self.addEventListener("message", (event) => {
  const request = event.data;
  if (!request || typeof request.call !== "number") return;
  queue = queue.then(() => answer(request)).then(
    (result) => self.postMessage({ reply: request.call, result }),
    (error) => self.postMessage({ reply: request.call, error: String((error && error.message) || error) }));
});
