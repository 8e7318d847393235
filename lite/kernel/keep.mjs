// calijack: the worker that keeps a started Python in this browser for the next "Play live"
// (python.mjs's keepPython: a Python of its own, its memory snapshot and its packages' files in
// Cache Storage). The live page (lite/play/play.mjs) starts it once the lesson is up and the
// page is idle, and ends it when it answers {kept: true | false}. lite/build_lite.py fills in
// the build's digest.
import { keepPython } from "./python.mjs?_=__DIGEST__";

keepPython().then((kept) => self.postMessage({ kept }));
