"""After the build: the site's theme assets cut to what the pages use, no source maps.

Used by calijack_speed.py (``build-finished``). Every step runs on the output folder, so a
rebuild (Sphinx copies the theme's files again) gives the same result.

- :func:`trim_icons`: Font Awesome's fonts keep only the glyphs the site can show, and the
  theme's stylesheet only the classes of icons named somewhere.
- :func:`inline_basic_css`: ``basic.css`` written into ``theme.css`` in place of its
  ``@import`` (one request less on the way to the first paint).
- :func:`drop_source_maps`: ``*.map`` deleted, their ``sourceMappingURL`` comments removed.
- :func:`revise_digests`: pages point at the changed stylesheets with a new ``?digest=``, so a
  browser that cached the theme's originals for good fetches them again.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

MAP_COMMENT = re.compile(rb"\n?(?://# sourceMappingURL=[^\n]*|/\*# sourceMappingURL=[^*]*\*/)\s*$")
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


def inline_basic_css(static: Path) -> None:
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


def drop_source_maps(folder: Path) -> None:
    """Delete the ``*.map`` files under ``folder`` and the comments that point at them."""
    for path in folder.rglob("*.map"):
        path.unlink()
    for path in [*folder.rglob("*.js"), *folder.rglob("*.mjs"), *folder.rglob("*.css")]:
        data = path.read_bytes()
        cleaned = MAP_COMMENT.sub(b"\n", data[-1000:])
        if cleaned != data[-1000:]:
            # A new file, not a write through the old one: the live site (lite/) is hard-linked
            # to its build in _build/lite, which must stay as built.
            path.unlink()
            path.write_bytes(data[:-1000] + cleaned)


# The theme's back-to-top button measures the header as bootstrap.js runs, which forces the
# page's whole first layout inside that script (one long task, the largest of a chapter's
# load). The header is sticky, so its bottom is the same at the first scroll: measured then.
BACK_TO_TOP_EAGER = ('var e=document.getElementsByClassName("bd-header")[0].getBoundingClientRect();'
                     'window.addEventListener("scroll",function(){this.oldScroll>this.scrollY&&this.scrollY>e.bottom')
BACK_TO_TOP_LAZY = ('var e=null;window.addEventListener("scroll",function(){'
                    'e=e||document.getElementsByClassName("bd-header")[0].getBoundingClientRect();'
                    'this.oldScroll>this.scrollY&&this.scrollY>e.bottom')


def lazy_back_to_top(static: Path) -> None:
    """The theme's ``scripts/bootstrap.js`` measuring the header at the first scroll, not at load.
    Fails, naming the file, when the theme's script no longer holds the code this replaces
    (UPGRADING.md)."""
    script = static / "scripts" / "bootstrap.js"
    text = script.read_text(encoding="utf-8")
    if BACK_TO_TOP_LAZY in text:
        return
    if text.count(BACK_TO_TOP_EAGER) != 1:
        raise RuntimeError(f"{script}: the theme's back-to-top code changed (calijack looks for "
                           f"{BACK_TO_TOP_EAGER[:60]!r}…): see UPGRADING.md, pydata-sphinx-theme")
    script.write_text(text.replace(BACK_TO_TOP_EAGER, BACK_TO_TOP_LAZY), encoding="utf-8")


def revise_digests(site: Path, stylesheets: list[str]) -> None:
    """Give each of ``stylesheets`` (paths under ``_static``) a ``?digest=`` of its content in
    every page of ``site``: the theme's digest names its own files, not these."""
    static = site / "_static"
    digests = {name: hashlib.sha256((static / name).read_bytes()).hexdigest()[:20]
               for name in stylesheets if (static / name).is_file()}
    if not digests:
        return
    pattern = re.compile(r"(_static/(" + "|".join(map(re.escape, digests)) + r"))\?digest=\w+")
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        revised = pattern.sub(lambda m: f"{m.group(1)}?digest={digests[m.group(2)]}", text)
        if revised != text:
            page.write_text(revised, encoding="utf-8")
