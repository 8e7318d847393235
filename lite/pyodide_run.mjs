// Run a Python script in the site's own Pyodide, in Node: the build step behind lite/pycompile.py.
//
//   node lite/pyodide_run.mjs RUNTIME_DIR SCRIPT.py [ARG ...]
//
// RUNTIME_DIR is the site's static/pyodide folder (the npm runtime, the wheels and their
// pyodide-lock.json). Every package of the lock is installed first, as the kernel does in the
// browser. The script defines `async def main(argv)`, called with [ARG ...]. The host's file
// system is mounted at /host, so the script reads and writes host paths as "/host" + path. The
// exit code is 1 if the script raises, with the Python traceback on standard error.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [runtimeArg, scriptArg, ...args] = process.argv.slice(2);
if (!runtimeArg || !scriptArg) {
  console.error("usage: node pyodide_run.mjs RUNTIME_DIR SCRIPT.py [ARG ...]");
  process.exit(2);
}
const runtime = resolve(runtimeArg) + "/";
const script = resolve(scriptArg);
const { loadPyodide } = await import(pathToFileURL(runtime + "pyodide.mjs").href);
const lock = JSON.parse(readFileSync(runtime + "pyodide-lock.json", "utf8"));
// Compiled code without column ranges (PYTHONNODEBUGRANGES, as `python -X no_debug_ranges`):
// a traceback keeps its line numbers and loses only the ^^^ under the failing expression, and
// the start's bytecode is a third smaller as sent (lite/pycompile.py's .pyc are made here).
const pyodide = await loadPyodide({
  indexURL: runtime,
  env: { PYTHONNODEBUGRANGES: "1" },
  lockFileURL: runtime + "pyodide-lock.json",
  packageBaseUrl: runtime,
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
});
await pyodide.loadPackage(Object.keys(lock.packages), { messageCallback: () => {}, checkIntegrity: true });
pyodide.FS.mkdirTree("/host");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: "/" }, "/host");
const globals = pyodide.toPy({ __name__: "pyodide_run", __file__: script });
try {
  await pyodide.runPythonAsync(readFileSync(script, "utf8"), { globals, filename: script });
  globals.set("argv", pyodide.toPy(args));
  await pyodide.runPythonAsync("await main(argv)", { globals });
} catch (error) {
  console.error(String(error.message || error));
  process.exit(1);
}
