"""Sphinx extension: the book opens fast on a phone. Text first, widgets after, less to ship.

Registered in ``_config.yml`` (``sphinx.local_extensions``). What it changes, and why:

- **Widget pages** (myst-nb embedded a widget state; ``nb_ipywidgets_js`` is left empty, so
  myst-nb adds no widget script of its own):

  - the widget state leaves the page for a JSON file of its own
    (``_static/cj-widget-state/<hash>.json``), fetched with the widget code: a page's text
    no longer arrives behind up to 1.5 MB of JSON;
  - before each widget view the page gets a picture of the demo as it first appears
    (``demo_pictures.py``: the frame's own HTML, the control drawn inert, a "Loading the
    demo" note), so the demo reads at once and holds its room: nothing jumps when the live
    widget takes its place; with scripts off the picture is all there is, and a
    ``<noscript>`` style hides the loading note and the start button;
  - the deferred loader ``cj-widgets.js`` (a few KB), after the widget manager's loader
    ``cj-widget-loader.js`` that it shares with the live page, and ``cj-widgets.css``; the
    loader fetches the state and the widget code only when the reader, at work on the page,
    comes near a demo (see its header), with one version string for every widget file so
    hosts may cache them for a year;
  - a puzzle's picture (the Practice pages show 24, each a whole card table) is laid out
    only when the reader comes near it (``content-visibility: auto`` in ``cj-widgets.css``,
    holding about a puzzle's room until then).

  Pages without widgets get none of it, and no widget code.
- **Theme** (template overrides in ``book/_ext/templates``, with the Jinja filters below):
  no Font Awesome script (1.4 MB; the theme's stylesheet already draws the icons with the
  Font Awesome web font it ships), no preload hints for its deferred scripts, and no
  in-page search scripts on every page while search-as-you-type is off.
- **Scripts deferred**: the extensions' small scripts (copy button, toggle button, tabs,
  highlighting, …) each run their work when the document is ready anyway, and deferred
  scripts keep their order. ``documentation_options.js`` stays, as inline scripts read it at
  once; on search.html, whose search scripts run at once, nothing is deferred.
- **After the build** (``site_trim.py``): Font Awesome's fonts cut to the glyphs the site
  shows (the solid one from 156 KB to 3 KB) and the theme's stylesheet to the icon classes
  it names; ``basic.css`` written into ``theme.css`` instead of ``@import``ed; no source
  maps (``*.map`` deleted, their comments removed; in the live site ``lite/`` too, so this
  hook runs after calijack_live's copy). (Not ``content-visibility: auto`` on later
  sections: the theme's script measures every code block at load, which lays them all out
  anyway, in a long task after the first paint. The puzzle pictures hold no code block.)
- **Each card drawn once a page** (``calijack.render.compact.share_page``): the cards of a
  chapter's outputs and demo pictures point (``<use>``) at one hidden sheet at the top of the
  page, which also holds the only copy of the cards' stylesheet; the sheets the pictures bring
  are merged into it, with only the drawings the page shows. Chapter 3 had 89 cards drawn in
  full (1,400 elements) and 24 copies of the stylesheet.
- **Pictures when the reader comes to them**: every ``<img>`` of a page (the charts of a
  chapter's outputs, far below its title) is ``loading="lazy"``, ``decoding="async"``, with
  its width and height (from the PNG itself), so it neither shares the link with what the
  first screen needs nor moves the text when it comes. (The Strategy chapter's three charts,
  68 KB, came with its first screen: Lighthouse's LCP 2.5 s there, 2.0-2.1 s elsewhere.)
- **A meta description** on every page (its first paragraph), so search results show one.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path

from markupsafe import Markup
from sphinx.errors import ExtensionError

import site_trim  # noqa: I001 - book/_ext is on sys.path (Jupyter Book's local_extensions)
from complete_widgets import STATE_TYPE, describe, missing_models
from demo_pictures import VIEW_TAG, add_pictures

from calijack.render.compact import share_page

HERE = Path(__file__).resolve().parent
LOADER = "cj-widgets.js"
MANAGER_LOADER = "cj-widget-loader.js"  # defines what LOADER uses: deferred, just before it
STYLES = "cj-widgets.css"
STATE_DIR = "_static/cj-widget-state"
WIDGET_FILES = ("require.js", "jupyter-widgets-*.js")
NO_SCRIPT = "\n<noscript><style>.cj-demo-loading,.cj-demo-start{display:none}</style></noscript>"
DEFERRED = {"doctools.js", "sphinx_highlight.js", "clipboard.min.js", "copybutton.js",
            "sphinx-book-theme.js", "togglebutton.js", "design-tabs.js"}


# --------------------------------------------------------------------------------------
# Jinja filters for the template overrides


def drop_scripts(markup: str, *names: str) -> Markup:
    """``markup`` without the ``<script>`` tags whose ``src`` names one of ``names``."""
    out = str(markup)
    for name in names:
        out = re.sub(r'\s*<script[^>]*\ssrc="[^"]*/' + re.escape(name) + r'[?"][^>]*></script>',
                     "", out)
    return Markup(out)


def drop_preloads(markup: str) -> Markup:
    """``markup`` without its ``<link rel="preload" as="script">`` hints."""
    return Markup(re.sub(r'\s*<link rel="preload" as="script"[^>]*>', "", str(markup)))


def defer_scripts(markup: str, *names: str) -> Markup:
    """``markup`` with ``defer`` added to the ``<script src>`` tags naming one of ``names``."""
    out = str(markup)
    for name in names:
        out = re.sub(r'<script (src="[^"]*' + re.escape(name) + r'[?"])', r"<script defer \1", out)
    return Markup(out)


IMG = re.compile(r"<img\b(?![^>]*\bloading=)(?P<attrs>[^>]*?)\s*/?>")
SRC = re.compile(r'\ssrc="(?P<src>[^"]+)"')


def png_size(path: Path) -> tuple[int, int] | None:
    """A PNG's width and height, from its header; ``None`` for any other file."""
    try:
        with path.open("rb") as file:
            head = file.read(24)
    except OSError:
        return None
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def lazy_images(body: str, sizes: dict[str, tuple[int, int]]) -> str:
    """``body`` with each ``<img>`` that has no ``loading`` made lazy and asynchronous, and given
    its ``width`` and ``height`` when it has none and ``sizes`` knows its file (by the name the
    ``src`` ends with)."""
    def lazy(match: re.Match) -> str:
        attrs = match.group("attrs")
        src = SRC.search(attrs)
        size = sizes.get(src.group("src").rsplit("/", 1)[-1]) if src else None
        extra = ' loading="lazy" decoding="async"'
        if size and not re.search(r"\s(width|height)=", attrs):
            extra += f' width="{size[0]}" height="{size[1]}"'
        return f"<img{attrs}{extra} />"
    return IMG.sub(lazy, body)


def _image_sizes(app, body: str) -> dict[str, tuple[int, int]]:
    """``{name in _images: (width, height)}`` of the PNGs the builder copies that ``body`` shows
    (read from their sources: each page reads only its own pictures' headers)."""
    shown = {match.group("src").rsplit("/", 1)[-1] for match in SRC.finditer(body)}
    sizes = {}
    for source, name in getattr(app.builder, "images", {}).items():
        if name not in shown:
            continue
        size = png_size(Path(app.srcdir, source))
        if size:
            sizes[name] = size
    return sizes


# --------------------------------------------------------------------------------------
# Sphinx hooks


def _widgets_folder(app) -> Path:
    for entry in app.config.html_static_path:
        folder = Path(app.confdir, entry)
        if (folder / LOADER).is_file():
            return folder
    raise RuntimeError(f"calijack_speed: no folder in html_static_path holds {LOADER}")


def widget_version(folder: Path) -> str:
    """A short hash of every widget code file: the cache key of the lazily fetched modules."""
    digest = hashlib.sha256()
    for pattern in WIDGET_FILES:
        for path in sorted(folder.glob(pattern)):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _on_config_inited(app, config) -> None:
    config.templates_path = [str(HERE / "templates"), *config.templates_path]
    if config.nb_ipywidgets_js:
        raise RuntimeError("calijack_speed loads the widget code itself: set "
                           "`nb_ipywidgets_js: {}` in _config.yml")


def _on_builder_inited(app) -> None:
    if app.builder.format != "html":
        return
    env = app.builder.templates.environment
    env.filters["cj_drop_scripts"] = drop_scripts
    env.filters["cj_defer_scripts"] = defer_scripts
    env.filters["cj_drop_preloads"] = drop_preloads
    app.builder.cj_widget_version = widget_version(_widgets_folder(app))


def _first_paragraph(body: str, limit: int = 160) -> str:
    match = re.search(r"<p>(.*?)</p>", body, re.S)
    if not match:
        return ""
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", match.group(1))).split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def _defer_scripts(scripts: list) -> None:
    """Give ``defer`` to the scripts named in DEFERRED (in place, order kept)."""
    for i, js in enumerate(scripts):
        name = Path(str(getattr(js, "filename", "") or "")).name
        attrs = getattr(js, "attributes", {})
        if name in DEFERRED and "defer" not in attrs and "async" not in attrs:
            scripts[i] = type(js)(js.filename, priority=js.priority, **attrs, defer="defer")


def _on_page_context(app, pagename, templatename, context, doctree) -> None:
    body = context.get("body") or ""
    if pagename != "search":  # search.html's own scripts run at once and need doctools.js
        _defer_scripts(context.get("script_files") or [])
    if body and 'name="description"' not in context.get("metatags", ""):
        description = _first_paragraph(body)
        if description:
            context["metatags"] = (context.get("metatags", "")
                                   + f'\n<meta name="description" content="{html.escape(description)}" />')
    if "<img" in body:
        body = context["body"] = lazy_images(body, _image_sizes(app, body))
    scripts = context.get("script_files") or []
    states = [js for js in scripts if getattr(js, "attributes", {}).get("type") == STATE_TYPE]
    if not states:
        if body:
            context["body"] = share_page(body)
        return
    for js in states:
        scripts.remove(js)
    state_json = states[0].attributes.get("body", "{}")
    state = json.loads(state_json).get("state", {})
    views = [json.loads(match.group("json")).get("model_id") for match in VIEW_TAG.finditer(body)]
    missing = missing_models(state, views)
    if missing:  # the page would show an error box where a demo should be (complete_widgets.py)
        raise ExtensionError(f"{pagename}: its widget state lacks {describe(missing)} that its widgets "
                             "name; drop its cached run (rm -r _build/.jupyter_cache) and run `make book` again")
    # The state is only needed once the widget code comes: it leaves the page for a file of
    # its own, named by its content (so a host may cache it for good).
    name = f"{STATE_DIR}/{hashlib.sha256(state_json.encode()).hexdigest()[:16]}.json"
    target = Path(app.outdir, name)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(state_json, encoding="utf-8")
    context["body"] = share_page(add_pictures(body, state))
    # With scripts off the pictures are all there is: no "Loading the demo" that never ends,
    # no "Start this demo" that cannot start (a quick check's answers are in its own box).
    context["metatags"] = context.get("metatags", "") + NO_SCRIPT
    app.add_css_file(STYLES)
    app.add_js_file(MANAGER_LOADER, loading_method="defer")
    app.add_js_file(LOADER, loading_method="defer",
                    **{"data-cj-version": app.builder.cj_widget_version,
                       "data-cj-state": context["pathto"](name, 1)})


def _drop_unused_states(outdir: Path) -> None:
    """Delete the state files no page names any more (a page's demo changed since a former
    build wrote it): an incremental build otherwise leaves every old state in the site."""
    folder = outdir / STATE_DIR
    if not folder.is_dir():
        return
    named = set()
    for page in outdir.rglob("*.html"):
        if page.relative_to(outdir).parts[0] == "lite":  # the live site is not a page of the book
            continue
        named.update(re.findall(r"cj-widget-state/([0-9a-f]{16}\.json)", page.read_text(encoding="utf-8")))
    for state in folder.glob("*.json"):
        if state.name not in named:
            state.unlink()


def _on_build_finished(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir, "_static")
    # No page loads it any more (see templates/static/webpack-macros.html).
    Path(static, "scripts", "fontawesome.js").unlink(missing_ok=True)
    site_trim.trim_icons(static)
    site_trim.inline_basic_css(static)
    site_trim.lazy_back_to_top(static)
    site_trim.drop_source_maps(static)
    # The live site too, once calijack_live has copied it in (this hook runs after its own).
    site_trim.drop_source_maps(Path(app.outdir, "lite"))
    _drop_unused_states(Path(app.outdir))
    site_trim.revise_digests(Path(app.outdir), ["styles/theme.css", "styles/pydata-sphinx-theme.css",
                                                "scripts/bootstrap.js"])


def setup(app):
    """Register the hooks (see the module docstring)."""
    app.connect("config-inited", _on_config_inited)
    app.connect("builder-inited", _on_builder_inited)
    # After myst-nb's own html-page-context handler (priority 500), which adds the state.
    app.connect("html-page-context", _on_page_context, priority=900)
    app.connect("build-finished", _on_build_finished, priority=900)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
