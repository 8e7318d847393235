// bench/review.py inside Pyodide (WebAssembly in Node's V8, the engine of Chromium): the same
// code path as the CPython run, so the two timings compare the runtimes, nothing else.
//
//   npm install pyodide@314.0.6        (into any folder; pass it as PYODIDE_DIR)
//   PYODIDE_DIR=/path/node_modules/pyodide node bench/pyodide_review.mjs [--deals 5] [--samples 100]
//
// BENCH_SCRIPT names another bench script with a main(argv) and a --json option, run the same way:
//   BENCH_SCRIPT=level_times PYODIDE_DIR=… node bench/pyodide_review.mjs [--decisions 60]
//
// calijack is pure Python: its files are copied into Pyodide's file system and imported.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, dirname, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pyodideDir = process.env.PYODIDE_DIR;
if (!pyodideDir) {
  console.error("set PYODIDE_DIR to the folder of the npm package pyodide@314.0.6");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });

function copyTree(from, to) {
  pyodide.FS.mkdirTree(to);
  for (const name of readdirSync(from)) {
    const path = join(from, name);
    if (name === "__pycache__") continue;
    if (statSync(path).isDirectory()) copyTree(path, `${to}/${name}`);
    else if (/\.(py|css|js|json)$/.test(name)) pyodide.FS.writeFile(`${to}/${name}`, readFileSync(path));
  }
}
copyTree(join(root, "calijack"), "/home/pyodide/calijack");
pyodide.FS.mkdirTree("/home/pyodide/bench");
const script = process.env.BENCH_SCRIPT || "review";
// The script, and speed.py, whose print_report review.py prints its report with.
for (const name of new Set([`${script}.py`, "speed.py"]))
  pyodide.FS.writeFile(`/home/pyodide/bench/${name}`, readFileSync(join(root, "bench", name)));
const args = JSON.stringify(process.argv.slice(2).concat(["--json"]));
const out = await pyodide.runPythonAsync(`
import sys, io, contextlib
sys.path.insert(0, "/home/pyodide")
sys.path.insert(0, "/home/pyodide/bench")
bench = __import__("${script}")
buffer = io.StringIO()
with contextlib.redirect_stdout(buffer):
    bench.main(${args})
buffer.getvalue()
`);
process.stdout.write(out);
