// calijack: the kernel's worker, made by the live page as it opens (lite/play/play.mjs). It
// runs the Pyodide kernel's own worker code (JupyterLite's, unchanged) and starts Python at
// once; the kernel's loadPyodide (python.mjs, its "pyodideUrl") then takes that Python.
// lite/build_lite.py fills in the two addresses below.
import { start } from "./python.mjs?_=__DIGEST__";
import "__KERNEL_WORKER__";

start();
