"""Sphinx extension: the book opens fast on a phone. Text first, widgets after, less to ship.

Registered in ``_config.yml`` (``sphinx.local_extensions``). What it changes, and why:

- **Widget pages** (myst-nb embedded a widget state; ``nb_ipywidgets_js`` is left empty, so
  myst-nb adds no widget script of its own):

  - the widget state leaves the page for a JSON file of its own
    (``_static/cj-widget-state/<hash>.json``), fetched with the widget code: a page's text
    no longer arrives behind up to 1.5 MB of JSON;
  - before each widget view the page gets a picture of the demo as it first appears (the
    frame's own HTML, the control drawn inert, a "Loading the demo" note), so the demo
    reads at once and holds its room: nothing jumps when the live widget takes its place;
  - the deferred loader ``cj-widgets.js`` (a few KB) and ``cj-widgets.css``; the loader
    fetches the state and the widget code only when the reader, at work on the page, comes
    near a demo (see its header), with one version string for every widget file so hosts
    may cache them for a year.

  Pages without widgets get none of it, and no widget code.
- **Theme**: no Font Awesome script (1.4 MB; the theme's stylesheet draws the icons with the
  Font Awesome web font it already ships), no preload hints for its deferred scripts, and no
  in-page search scripts on every page while search-as-you-type is off (template overrides
  in ``book/_ext/templates`` using the Jinja filters below). The
  extensions' small scripts (copy button, toggle button, tabs, highlighting, …) are deferred
  too: each runs its work when the document is ready anyway, and deferred scripts keep
  their order. Only ``documentation_options.js`` stays, as inline scripts read it at once
  (and on search.html, whose search scripts run at once, nothing is deferred).
  The theme's stylesheet no longer ``@import``s ``basic.css`` (a request after a request):
  it is written into ``theme.css``.
- **Icons cut to the icons shown**: the theme ships Font Awesome's whole solid font (156 KB,
  about 2,000 icons), which every page with an icon fetches, and a class for each icon in the
  stylesheet every page waits for. After the build each of its fonts keeps only the glyphs
  the site can draw (those named by an ``fa-…`` class in a page or script, and those the
  theme's stylesheet draws by itself: admonitions, links, …), and the stylesheet only the
  classes of icons named somewhere.
- **No source maps** in the site: ``*.map`` files under ``_static`` are deleted after the
  build and the ``sourceMappingURL`` comments that point at them removed.
- **A meta description** on every page (its first paragraph), so search results show one.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path

from markupsafe import Markup

HERE = Path(__file__).resolve().parent
LOADER = "cj-widgets.js"
STYLES = "cj-widgets.css"
STATE_TYPE = "application/vnd.jupyter.widget-state+json"
STATE_DIR = "_static/cj-widget-state"
VIEW_TAG = re.compile(
    r'<script type="application/vnd\.jupyter\.widget-view\+json">(?P<json>.*?)</script>', re.S
)
MAP_COMMENT = re.compile(rb"\n?(?://# sourceMappingURL=[^\n]*|/\*# sourceMappingURL=[^*]*\*/)\s*$")
BOXES = {"VBoxModel": "column", "BoxModel": "row", "HBoxModel": "row", "GridBoxModel": "column"}
TEXT_MODELS = {"HTMLModel", "HTMLMathModel"}
WIDGET_FILES = ("require.js", "jupyter-widgets-*.js")
DEFERRED = {"doctools.js", "sphinx_highlight.js", "clipboard.min.js", "copybutton.js",
            "sphinx-book-theme.js", "togglebutton.js", "design-tabs.js"}
LOADING = '<span class="cj-demo-loading" role="status">Loading the demo…</span>'


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


# --------------------------------------------------------------------------------------
# The picture of a demo: static HTML from its widget state


def _control_picture(state: dict, name: str) -> str:
    """An inert drawing of a control (its description and options; no input, no focus),
    laid out like ipywidgets 8 lays out the real one, and the "Loading the demo" line."""
    description = html.escape(state.get("description") or "")
    label = f'<span class="cj-pic-label" aria-hidden="true">{description}</span>'
    if name == "ToggleButtonsModel":
        index = state.get("index")
        buttons = "".join(
            f'<span class="cj-pic-button{" cj-pic-on" if i == index else ""}">'
            f"{html.escape(option)}</span>"
            for i, option in enumerate(state.get("_options_labels") or [])
        )
        return (f'<div class="cj-pic-control cj-pic-toggles">{label}'
                f'<div class="cj-pic-buttons" aria-hidden="true">{buttons}</div>{LOADING}</div>')
    readout = ""
    if state.get("readout") and "value" in state:
        readout = f'<span class="cj-pic-readout" aria-hidden="true">{state["value"]}</span>'
    return (f'<div class="cj-pic-control cj-pic-slider">{label}'
            f'<span class="cj-pic-track" aria-hidden="true"></span>{readout}{LOADING}</div>')


def picture(state: dict, model_id: str) -> str:
    """Static HTML showing widget ``model_id`` as it first appears (a Stack shows its
    selected child, boxes their children, HTML widgets their value, controls an inert look)."""
    model = state.get(model_id)
    if model is None:
        return ""
    name, s = model.get("model_name", ""), model.get("state", {})

    def child(ref: str) -> str:
        return picture(state, ref.removeprefix("IPY_MODEL_"))

    if name == "StackModel":  # a box (a flex row) showing only its selected child
        index = s.get("selected_index")
        children = s.get("children") or []
        shown = child(children[index]) if index is not None and index < len(children) else ""
        return f'<div class="cj-pic-box cj-pic-row">{shown}</div>'

    if name in BOXES:
        inner = "".join(child(ref) for ref in s.get("children") or [])
        return f'<div class="cj-pic-box cj-pic-{BOXES[name]}">{inner}</div>'
    if name in TEXT_MODELS or name == "LabelModel":
        value = s.get("value", "")
        value = value if name in TEXT_MODELS else html.escape(value)
        return f'<div class="cj-pic-html"><div class="cj-pic-content">{value}</div></div>'
    if "description" in s:
        return _control_picture(s, name)
    return ""


def add_pictures(body: str, state: dict) -> str:
    """``body`` with each widget view wrapped in ``div.cj-demo`` after its picture."""

    def wrap(match: re.Match) -> str:
        try:
            model_id = json.loads(match.group("json"))["model_id"]
        except (ValueError, KeyError, TypeError):
            return match.group(0)
        pic = picture(state, model_id) or f'<div class="cj-pic-control">{LOADING}</div>'
        return (f'<div class="cj-demo" data-cj-model="{html.escape(model_id)}">'
                f'<div class="cj-demo-placeholder">{pic}</div>{match.group(0)}</div>')

    return VIEW_TAG.sub(wrap, body)


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
    scripts = context.get("script_files") or []
    states = [js for js in scripts if getattr(js, "attributes", {}).get("type") == STATE_TYPE]
    if not states:
        return
    for js in states:
        scripts.remove(js)
    state_json = states[0].attributes.get("body", "{}")
    state = json.loads(state_json).get("state", {})
    # The state is only needed once the widget code comes: it leaves the page for a file of
    # its own, named by its content (so a host may cache it for good).
    name = f"{STATE_DIR}/{hashlib.sha256(state_json.encode()).hexdigest()[:16]}.json"
    target = Path(app.outdir, name)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(state_json, encoding="utf-8")
    context["body"] = add_pictures(body, state)
    app.add_css_file(STYLES)
    app.add_js_file(LOADER, loading_method="defer",
                    **{"data-cj-version": app.builder.cj_widget_version,
                       "data-cj-state": context["pathto"](name, 1)})


FA_FONTS = "vendor/fontawesome/webfonts"
FA_CLASS_RULE = re.compile(r"([^{}]+)\{content:\"\\([0-9a-f]{4,5})\"\}")
FA_GLYPH = re.compile(r"\"\\([ef][0-9a-f]{3})\"")
FA_NAME = re.compile(rb"\bfa-([a-z0-9]+(?:-[a-z0-9]+)*)")
PRIVATE_USE = re.compile("[\ue000-\uf8ff]")


def icon_codepoints(css: str, texts) -> set[int]:
    """The Font Awesome code points a site can show, from the theme's stylesheet ``css`` and
    the pages and scripts ``texts`` (bytes): every ``fa-NAME`` class named in them, and every
    glyph the stylesheet draws outside the icon classes (admonitions, external links, …)."""
    return _icon_usage(css, texts)[0]


def _icon_usage(css: str, texts) -> tuple[set[int], str]:
    """(code points shown, ``css`` without the icon-class rules of icons never named)."""
    by_name: dict[str, int] = {}
    rules: list[tuple[list[str], str]] = []

    def collect(match: re.Match) -> str:
        names = [re.fullmatch(r"\s*\.fa-([a-z0-9-]+):(?::)?before\s*", selector)
                 for selector in match.group(1).split(",")]
        if not all(names):
            return match.group(0)
        for name in names:
            by_name[name.group(1)] = int(match.group(2), 16)
        rules.append(([name.group(1) for name in names], match.group(0)))
        return f"\0{len(rules) - 1}\0"

    rest = FA_CLASS_RULE.sub(collect, css)
    # The theme writes its own glyphs as escapes or as the private-use characters themselves.
    used = {int(code, 16) for code in FA_GLYPH.findall(rest)}
    used |= {ord(char) for char in PRIVATE_USE.findall(rest)}
    named = {name.decode() for text in texts for name in FA_NAME.findall(text)} & set(by_name)
    used |= {by_name[name] for name in named}

    def restore(match: re.Match) -> str:
        names, rule = rules[int(match.group(1))]
        return rule if named.intersection(names) else ""

    return used, re.sub("\0(\\d+)\0", restore, rest)


def trim_icons(static: Path) -> list[tuple[str, int, int]]:
    """Cut the theme's Font Awesome fonts, and its stylesheet's icon classes, to the icons
    the site shows; returns (file, bytes before, bytes after)."""
    from fontTools import subset

    css_path = static / "styles" / "pydata-sphinx-theme.css"
    if not css_path.is_file():
        return []
    site = static.parent
    # The widget modules name Font Awesome 5's classes, for their own font: not these.
    scripts = [p for p in static.rglob("*.js") if not p.name.startswith("jupyter-widgets-")]
    texts = [p.read_bytes() for p in [*site.rglob("*.html"), *scripts]]
    css = css_path.read_text(encoding="utf-8")
    used, trimmed = _icon_usage(css, texts)
    css_path.write_text(trimmed, encoding="utf-8")
    done = [(css_path.name, len(css.encode()), len(trimmed.encode()))]
    for font_path in sorted(static.joinpath(FA_FONTS).glob("fa-*")):
        if font_path.suffix not in {".woff2", ".ttf"}:
            continue
        options = subset.Options()
        options.flavor = "woff2" if font_path.suffix == ".woff2" else None
        options.layout_features = ["*"]
        before = font_path.stat().st_size
        font = subset.load_font(str(font_path), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=used & set(font.getBestCmap()))
        subsetter.subset(font)
        subset.save_font(font, str(font_path), options)
        done.append((font_path.name, before, font_path.stat().st_size))
    return done


def _inline_basic_css(static: Path) -> None:
    """Write basic.css into styles/theme.css in place of its ``@import`` (one request less
    on the way to the first paint); its one relative URL is rebased."""
    theme, basic = static / "styles" / "theme.css", static / "basic.css"
    if not (theme.is_file() and basic.is_file()):
        return
    text = theme.read_text(encoding="utf-8")
    rule = '@import "../basic.css";'
    if rule in text:
        css = re.sub(r"url\((?![\"']?(?:/|data:|https?:))([\"']?)", r"url(\1../", basic.read_text(encoding="utf-8"))
        theme.write_text(text.replace(rule, css), encoding="utf-8")


def _on_build_finished(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir, "_static")
    # No page loads it any more (see templates/static/webpack-macros.html).
    Path(static, "scripts", "fontawesome.js").unlink(missing_ok=True)
    trim_icons(static)
    _inline_basic_css(static)
    for path in static.rglob("*.map"):
        path.unlink()
    for path in [*static.rglob("*.js"), *static.rglob("*.css")]:
        data = path.read_bytes()
        cleaned = MAP_COMMENT.sub(b"\n", data[-1000:])
        if cleaned != data[-1000:]:
            path.write_bytes(data[:-1000] + cleaned)


def setup(app):
    """Register the hooks (see the module docstring)."""
    app.connect("config-inited", _on_config_inited)
    app.connect("builder-inited", _on_builder_inited)
    # After myst-nb's own html-page-context handler (priority 500), which adds the state.
    app.connect("html-page-context", _on_page_context, priority=900)
    app.connect("build-finished", _on_build_finished)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
