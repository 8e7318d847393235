"""Sphinx extension: the learner's progress on the pages that use it, and the progress page.

- Every page that uses it (quick checks, puzzles, a lesson, the progress page; the others
  carry nothing more) gets the progress store's script, ``_static/calijack-progress.js``: the one
  store module (``calijack/widgets/progress.js``) with the document's constants and the
  learner's sentences put in, and the watch of the page's quick checks and puzzles
  (``progress-watch.js``), as :func:`calijack.progress.page_script` makes them (written once
  per build, never copied by hand). Its tag names the page (``data-cj-page``), so the page's quick
  checks and puzzles are remembered, and a lesson page asked to review a past deal
  (``?review=ID``) starts "Play live" by itself. It starts once the page is idle or at the
  reader's first touch (``calijack_idle``), except on the progress page, which needs it at once.
- The progress page (``book/progress``) also gets ``book/_progress/progress-page.js`` and its
  stylesheet, told where the book's root is and where the list of what there is to do lives:
- ``_static/calijack-progress-book.json``, written after the build from the built pages
  themselves: each page's quick checks (counted in its widget state) with its title, and
  every puzzle with its stage. So the page can say "3 of 4 answered" with no Python.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path

from calijack import progress
from calijack.puzzles import load as load_puzzles
from calijack_idle import add_idle_script  # book/_ext is on sys.path (Jupyter Book's local_extensions)
from complete_widgets import STATE_TYPE

HERE = Path(__file__).resolve().parent
PAGE_FILES = HERE.parent / "_progress"
SCRIPT = "calijack-progress.js"
MANIFEST = "calijack-progress-book.json"
PROGRESS_PAGE = "book/progress"
SANDBOX_PAGE = "notebooks/07_sandbox"
NOT_PAGES = {"search", "genindex", "py-modindex"}
LESSONS = "notebooks/"
STATE_FILE = re.compile(r'data-cj-state="([^"]+)"')
TITLE = re.compile(r"<title>(.*?)</title>", re.S)
PUZZLE_CLASS = re.compile(r"^cj-puzzle-n-(\d+)$")
DUE_BOX = re.compile(r'<div class="cj-due"( data-sandbox="[^"]*")></div>')


def _on_config_inited(app, config) -> None:
    config.html_static_path.append(str(PAGE_FILES))
    # The script's text is an "html" config value's: when the store, its schema or a sentence
    # changes, every page is written again with the new digest.
    digest = hashlib.sha256(progress.page_script().encode())
    for path in sorted(PAGE_FILES.iterdir()):
        digest.update(path.name.encode() + path.read_bytes())
    config.calijack_progress_digest = digest.hexdigest()[:16]


def _on_builder_inited(app) -> None:
    if app.builder.format != "html":
        return
    # Written before the pages, so Sphinx versions each page's link to it (?v=…).
    static = Path(app.outdir, "_static")
    static.mkdir(parents=True, exist_ok=True)
    (static / SCRIPT).write_text(progress.page_script(), encoding="utf-8")


def _needs_store(pagename: str, context: dict) -> bool:
    """The progress page, the lessons (the live frame, a deal to review), and pages whose widgets
    hold quick checks or puzzles (read in the widget state myst-nb has just put in the page)."""
    if pagename == PROGRESS_PAGE or pagename.startswith(LESSONS):
        return True
    return any(getattr(js, "attributes", {}).get("type") == STATE_TYPE
               and "cj-quiz-question" in getattr(js, "attributes", {}).get("body", "")
               for js in context.get("script_files") or [])


def due_box(body: str) -> str:
    """``body`` with each empty "Due today" box (``.cj-due``, the Practice chapter) filled as a new
    reader sees it: the store's script, starting later, changes it only for a reader with
    mistakes queued (it compares ``data-due`` and ``data-text``), so the text under it does not
    jump down as the box fills (a layout shift of 0.14 on a phone, before this)."""
    from calijack.text_progress import say

    text = say("due_none")

    def fill(match: re.Match) -> str:
        return (f'<div class="cj-due"{match.group(1)} data-due="0" data-text="{html.escape(text)}">'
                f'<p class="cj-due-count"><strong>{html.escape(say("due_today", due=0))}</strong></p>'
                f"<p>{html.escape(text)}</p></div>")

    return DUE_BOX.sub(fill, body)


def _on_page_context(app, pagename, templatename, context, doctree) -> None:
    if app.builder.format != "html" or pagename in NOT_PAGES or not _needs_store(pagename, context):
        return
    if context.get("body"):
        context["body"] = due_box(context["body"])
    if pagename != PROGRESS_PAGE:
        # Not needed for the first paint: started when the page is idle or at the first touch
        # (calijack_idle; the clicks before it are kept and counted).
        add_idle_script(app, SCRIPT, **{"data-cj-page": pagename})
    else:  # the progress page shows the store itself: its own script needs it at once
        app.add_js_file(SCRIPT, loading_method="defer", **{"data-cj-page": pagename})
        app.add_css_file("progress-page.css")
        pathto = context["pathto"]
        app.add_js_file("progress-page.js", loading_method="defer",
                        **{"data-cj-manifest": pathto(f"_static/{MANIFEST}", 1),
                           "data-cj-root": pathto("index.html", 1).rsplit("index.html", 1)[0] or "./"})


def _widget_classes(state: dict) -> list[list[str]]:
    """The ``_dom_classes`` of every model of a widget state, in order."""
    models = state.get("state", {})
    return [list(m.get("state", {}).get("_dom_classes") or []) for m in models.values()]


def _checks_of_other_pages(state: dict, page: str) -> set[str]:
    """The models of the quick checks that another page owns (a lesson showing its chapter's
    checks: their box says whose they are, :data:`calijack.widgets.quiz.OWNER_CLASS`): counted
    on that page only, as their answers are kept under its name."""
    from calijack.widgets.quiz import owner_of

    out: set[str] = set()
    for model in state.get("state", {}).values():
        fields = model.get("state", {})
        owner = owner_of(fields.get("_dom_classes") or [])
        if owner is not None and owner != page:
            out.update(str(child).removeprefix("IPY_MODEL_") for child in fields.get("children") or [])
    return out


def book_manifest(outdir: Path) -> dict:
    """What there is to do in the built book at ``outdir``: quick checks per page, and puzzles."""
    chapters, numbers = [], set()
    for page in sorted(outdir.rglob("*.html")):
        rel = page.relative_to(outdir)
        if rel.parts[0] in {"_static", "_sources", "lite"}:
            continue
        text = page.read_text(encoding="utf-8")
        found = STATE_FILE.search(text)
        if not found:
            continue
        state = json.loads((page.parent / html.unescape(found.group(1))).read_text(encoding="utf-8"))
        checks = 0
        elsewhere = _checks_of_other_pages(state, rel.with_suffix("").as_posix())
        for model_id, model in state.get("state", {}).items():
            classes = list(model.get("state", {}).get("_dom_classes") or [])
            if "cj-quiz-question" not in classes or model_id in elsewhere:
                continue
            puzzle = [int(m.group(1)) for c in classes for m in [PUZZLE_CLASS.match(c)] if m]
            if puzzle:
                numbers.update(puzzle)
            else:
                checks += 1
        if checks:
            title = html.unescape(re.sub(r"<[^>]+>", "", TITLE.search(text).group(1))).split(" \u2014 ")[0].strip()
            chapters.append({"page": rel.with_suffix("").as_posix(), "url": rel.as_posix(), "title": title,
                             "checks": checks})
    stages = {p.number: p.stage for p in load_puzzles()}
    return {"chapters": chapters,
            "puzzles": [{"number": n, "stage": stages.get(n, "")} for n in sorted(numbers)],
            "puzzles_page": "book/practice.html", "sandbox": f"{SANDBOX_PAGE}.html"}


def _on_build_finished(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    (outdir / "_static" / SCRIPT).write_text(progress.page_script(), encoding="utf-8")
    (outdir / "_static" / MANIFEST).write_text(json.dumps(book_manifest(outdir), indent=1), encoding="utf-8")


def setup(app):
    """Register the hooks (see the module docstring)."""
    app.setup_extension("calijack_idle")
    app.add_config_value("calijack_progress_digest", "", "html")
    app.connect("config-inited", _on_config_inited)
    app.connect("builder-inited", _on_builder_inited)
    # After myst-nb's own handler (priority 500), which puts the widget state in the page, and
    # before calijack_speed's (900), which takes it out again.
    app.connect("html-page-context", _on_page_context, priority=600)
    # After calijack_speed's own (priority 900), which moves each page's widget state to a file.
    app.connect("build-finished", _on_build_finished, priority=950)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
