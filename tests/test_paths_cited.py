"""Every repository path that the code's comments and docstrings, the configuration and the
documents cite exists.

A cited path (:data:`CITED`) starts with one of the repository's top folders (``book/``,
``calijack/``, ``tests/``, …) or is one of its root files (``RULES.md``, ``Makefile``, …). It
may end in a glob (``progress*.js``) or a brace list (``{base,controls}``); a path without an
extension may name a book page (``book/intro`` for ``book/intro.md``). What is read: in Python,
comments and docstrings; in JavaScript and CSS, comments; Markdown, YAML, TOML, the Makefile,
the Dockerfile, the CI script and ``package.json`` files whole. Paths of the built site
(``BUILT``, such as ``lite/static/…``) are outputs, not files of the repository.
"""

from __future__ import annotations

import ast
import glob
import io
import itertools
import re
import subprocess
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOP = ("book", "calijack", "tests", "lite", "bench", "deploy", "notebooks", "licenses", ".ci")
ROOT_FILES = ("README.md", "RULES.md", "DESIGN.md", "RECORDS.md", "CONTRIBUTING.md", "CHANGELOG.md",
              "THIRD_PARTY.md", "PYPI.md", "LICENSE", "Makefile", "pyproject.toml", "requirements.txt",
              "requirements.in", "_config.yml", "_toc.yml")
CITED = re.compile(
    r"(?<![\w./@~$-])((?:" + "|".join(re.escape(t) for t in TOP) + r")/[\w./*{},@-]*[\w*}/]"
    r"|(?:" + "|".join(re.escape(f) for f in ROOT_FILES) + r")(?![\w-]|\.\w))")
# Files of the built site (lite/build_lite.py writes them under _build/lite, the book copies
# them in as lite/), not of the repository.
# bench/out/ is where the benchmarks write their reports (not tracked); a book page's .html is
# the built page.
BUILT = ("lite/static/", "lite/extensions/", "lite/build/", "lite/lessons.json", "lite/doc/", "bench/out")
BUILT_PAGE = re.compile(r"^(book|notebooks)/[\w-]+\.html$")
# Placeholders in instructions ("book/NAME", "notebooks/NN_name").
PLACEHOLDER = re.compile(r"NAME|NN_|/N\b|\.\.\.|…")
# Other projects' files, and data: not read.
SKIP = ("book/_widgets_js/jupyter-widgets-", "book/_widgets_js/require.js", "deploy/z2jh/chart/values",
        "tests/data/", "licenses/")
WHOLE = (".md", ".yml", ".yaml", ".toml", ".in", ".txt")
WHOLE_NAMES = ("Makefile", "Dockerfile", "run", "package.json")


def python_notes(text: str) -> str:
    """Comments and docstrings of a Python source."""
    out = [tok.string for tok in tokenize.generate_tokens(io.StringIO(text).readline)
           if tok.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                out.append(doc)
    return "\n".join(out)


def script_notes(text: str) -> str:
    """Comments of JavaScript or CSS (``//`` lines and ``/* */`` blocks)."""
    return "\n".join(m.group(0) for m in re.finditer(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", text, re.S))


def notes(path: str, text: str) -> str:
    name = path.rsplit("/", 1)[-1]
    if name.endswith(".py"):
        return python_notes(text)
    if name.endswith((".js", ".mjs", ".css")):
        return script_notes(text)
    if name.endswith(WHOLE) or name in WHOLE_NAMES:
        return text
    return ""


def expand(path: str) -> list[str]:
    """A path with brace lists, as the paths it names."""
    parts = re.split(r"\{([^{}]*)\}", path)
    choices = [[p] if i % 2 == 0 else p.split(",") for i, p in enumerate(parts)]
    return ["".join(c) for c in itertools.product(*choices)]


def exists(path: str, root: Path = ROOT) -> bool:
    path = path.rstrip("/.,")
    for one in expand(path):
        if "*" in one:
            if not glob.glob(str(root / one), recursive=True):
                return False
        elif not ((root / one).exists() or any((root / f"{one}{ext}").exists() for ext in (".md", ".ipynb"))):
            return False
    return True


def cited(text: str) -> set[str]:
    found = set()
    for m in CITED.finditer(text):
        path = m.group(1).rstrip(".,")
        if path.startswith(BUILT) or BUILT_PAGE.match(path) or PLACEHOLDER.search(path):
            continue
        found.add(path)
    return found


def sources() -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [p for p in out.stdout.splitlines() if not p.startswith(SKIP) and (ROOT / p).is_file()]


def missing_paths() -> dict[str, list[str]]:
    missing = {}
    for path in sources():
        try:
            text = (ROOT / path).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        gone = sorted(p for p in cited(notes(path, text)) if not exists(p))
        if gone:
            missing[path] = gone
    return missing


def test_every_cited_path_exists():
    missing = missing_paths()
    assert not missing, "paths cited that do not exist:\n" + "\n".join(
        f"  {where}: {', '.join(paths)}" for where, paths in sorted(missing.items()))


def test_the_check_reads_what_it_should_and_can_fail():
    code = '"""See ``book/_ext/notices.py`` and RULES.md."""\n# lite/nothing_here.py\nx = "bench/not_a_note.py"\n'
    assert cited(notes("a.py", code)) == {"book/_ext/notices.py", "RULES.md", "lite/nothing_here.py"}
    assert not exists("lite/nothing_here.py") and exists("book/_ext/notices.py") and exists("RULES.md")
    assert exists("book/intro") and exists("calijack/widgets/progress*.js")
    assert exists("book/_widgets_js/jupyter-widgets-{base,controls,html-manager}.js")
    assert not exists("book/_widgets_js/jupyter-widgets-{base,nothing}.js")
    assert cited("// see tests/test_layers.py\n") == {"tests/test_layers.py"}
    assert cited("at lite/static/pyodide/ or book/NAME, not https://x.org/book/a") == set()
    assert cited(script_notes('const u = "tests/x.js"; // tests/y.js\n')) == {"tests/y.js"}


@pytest.mark.parametrize("name", ["README.md", "CONTRIBUTING.md", "DESIGN.md", "THIRD_PARTY.md"])
def test_the_documents_cite_paths(name):
    # Sanity: the documents are read, so an empty scan cannot pass.
    assert cited((ROOT / name).read_text(encoding="utf-8"))
