"""The book's speed tooling without a browser: the demo pictures, the template filters, the
after-build trimming, the vendored widget modules (book/_ext/*.py)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from ipywidgets.embed import dependency_state

from calijack.widgets.static import chooser, stepper

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import calijack_speed  # noqa: E402
import demo_pictures  # noqa: E402
import site_trim  # noqa: E402
import vendor_widgets  # noqa: E402

WIDGETS_JS = ROOT / "book" / "_widgets_js"


def state_of(*demos) -> dict:
    models = []
    for demo in demos:
        models += [demo, *demo.links]
    return dependency_state(models)


def view_tag(model_id: str) -> str:
    data = json.dumps({"version_major": 2, "version_minor": 0, "model_id": model_id})
    return f'<script type="application/vnd.jupyter.widget-view+json">{data}</script>'


def test_picture_of_a_stepper_shows_its_first_frame_and_an_inert_slider():
    demo = stepper(["<p>first</p>", "<p>second</p>"], labels=["Deal", "Lead"], description="Step")
    pic = demo_pictures.picture(state_of(demo), demo.model_id)
    assert "first" in pic and "second" not in pic
    assert '<div class="cj-frame-label" data-frame="0">Deal</div>' in pic
    assert "Lead" not in pic
    # The control's own classes come along, so the site's rules for it size the picture too.
    assert 'class="cj-pic-control cj-pic-slider cj-static-control"' in pic and ">Step</span>" in pic
    assert "<input" not in pic and "<button" not in pic  # nothing to click or tab to
    assert "Loading the demo" in pic


def test_picture_of_a_chooser_draws_every_option_and_marks_the_chosen_one():
    demo = chooser(["<p>a</p>", "<p>b</p>", "<p>c</p>"], ["J♠", "7♥", "A<♦>"], description="Play")
    pic = demo_pictures.picture(state_of(demo), demo.model_id)
    buttons = re.findall(r'<span class="cj-pic-button widget-toggle-button( cj-pic-on)?">(.*?)</span>', pic)
    assert buttons == [(" cj-pic-on", "J♠"), ("", "7♥"), ("", "A&lt;♦&gt;")]
    assert 'class="cj-pic-control cj-pic-toggles cj-static-control"' in pic
    assert '<div class="cj-frame" data-frame="0"><p>a</p></div>' in pic
    assert "<p>b</p>" not in pic


def test_add_pictures_wraps_each_view_and_leaves_unknown_ones_a_loading_line():
    demo = stepper(["<p>x</p>"])
    body = "<p>Text</p>" + view_tag(demo.model_id) + view_tag("no-such-model")
    out = demo_pictures.add_pictures(body, state_of(demo))
    demos = re.findall(r'<div class="cj-demo" data-cj-model="([^"]+)">'
                       r'<div class="cj-demo-placeholder">(.*?)</div><script', out, re.S)
    assert [d[0] for d in demos] == [demo.model_id, "no-such-model"]
    # Each picture opens with the button that starts it for a reader the page cannot see.
    assert all(d[1].startswith(demo_pictures.START) for d in demos)
    assert out.count('type="application/vnd.jupyter.widget-view+json"') == 2
    assert "Loading the demo" in out.split("no-such-model", 2)[1]


def test_filters_drop_and_defer_scripts():
    head = ('<script defer src="../_static/scripts/fontawesome.js?digest=1"></script>\n'
            '<link rel="preload" as="script" href="../_static/scripts/bootstrap.js" />\n'
            '<script src="../_static/searchtools.js"></script>')
    dropped = calijack_speed.drop_scripts(head, "fontawesome.js")
    assert "fontawesome" not in dropped and "bootstrap.js" in dropped
    deferred = calijack_speed.defer_scripts(head, "searchtools.js")
    assert '<script defer src="../_static/searchtools.js">' in deferred


def test_first_paragraph_becomes_a_short_description():
    body = "<h1>T</h1><p>California <em>Jack</em> &amp; friends " + "word " * 60 + "</p>"
    text = calijack_speed._first_paragraph(body)
    assert text.startswith("California Jack & friends word") and len(text) <= 160
    assert text.endswith("…")


def test_strip_css_maps_removes_only_the_map_item():
    src = ('x=[e.id,"a{color:red}","",{version:3,sources:["w://a.css"],names:[],'
           'mappings:"AAAA",sourcesContent:["a{color:red}\\n/* } ] \\" */"],sourceRoot:""}],'
           'y="{version:3,sources:[ in a string"')
    out, count = vendor_widgets.strip_css_maps(src)
    assert count == 1
    assert out == 'x=[e.id,"a{color:red}",""],y="{version:3,sources:[ in a string"'


def test_split_modules_finds_named_defines():
    bundle = ('/*! a */\ndefine("m/a",["module"],(e=>1));\n//# sourceMappingURL=a.js.map\n\n'
              'define("m/b",[],(()=>2));\n//# sourceMappingURL=b.js.map\n'
              '(()=>{window.require(["m/a"])})();\n//# sourceMappingURL=r.js.map\n')
    modules = vendor_widgets.split_modules(bundle)
    assert list(modules) == ["m/a", "m/b"]
    assert "sourceMappingURL" not in "".join(modules.values())


@pytest.mark.parametrize(("module_id", "name"), sorted(vendor_widgets.MODULES.items()))
def test_vendored_modules_are_named_amd_modules_without_source_maps(module_id, name):
    code = (WIDGETS_JS / name).read_text(encoding="utf-8")
    assert code.startswith("/*! For license information please see embed.js.LICENSE.txt */")
    assert re.search(r'^define\("' + re.escape(module_id) + '"', code, re.M)
    assert "//# sourceMappingURL" not in code
    assert "{version:3,sources:[" not in code


def test_the_loader_knows_every_vendored_module():
    loader = (WIDGETS_JS / "cj-widget-loader.js").read_text(encoding="utf-8")
    for module_id, name in vendor_widgets.MODULES.items():
        assert f'"{module_id}": "{name.removesuffix(".js")}"' in loader
    assert not (WIDGETS_JS / "embed-amd.js").exists()  # the 3.6 MB bundle is not shipped


def test_widget_version_changes_with_the_code(tmp_path):
    (tmp_path / "require.js").write_text("r")
    (tmp_path / "jupyter-widgets-base.js").write_text("a")
    first = calijack_speed.widget_version(tmp_path)
    (tmp_path / "cj-widgets.css").write_text("not widget code")
    assert calijack_speed.widget_version(tmp_path) == first
    (tmp_path / "jupyter-widgets-base.js").write_text("b")
    assert calijack_speed.widget_version(tmp_path) != first


def test_icon_codepoints_keep_named_icons_and_the_themes_own_glyphs():
    css = ('.fa-bars:before,.fa-navicon:before{content:"\\f0c9"}.fa-futbol:before{content:"\\f1e3"}'
           '.fa-xmark:before{content:"\\f00d"}'
           ':root{--pst-icon-bell:"\uf0f3"}.toc:after{content:"\\f078";font:var(--fa-font-solid)}')
    pages = [b'<i class="fa-solid fa-bars"></i>', b'x.classList="fa-solid fa-xmark"']
    assert site_trim.icon_codepoints(css, pages) == {0xF0C9, 0xF00D, 0xF0F3, 0xF078}
    assert site_trim.icon_codepoints(css, []) == {0xF0F3, 0xF078}


def test_after_build_steps_rewrite_the_output(tmp_path):
    static = tmp_path / "_static"
    (static / "styles").mkdir(parents=True)
    (static / "basic.css").write_text("div.x{background:url(file.png)}\n", encoding="utf-8")
    (static / "styles" / "theme.css").write_text('/* t */\n@import "../basic.css";\n')
    (static / "app.js").write_text("run();\n//# sourceMappingURL=app.js.map\n")
    (static / "app.js.map").write_text("{}")
    page = tmp_path / "index.html"
    page.write_text('<link href="_static/styles/theme.css?digest=55c26ed414f5f8a31ebb">'
                    '<link href="_static/other.css?digest=55c26ed414f5f8a31ebb">')
    site_trim.inline_basic_css(static)
    site_trim.drop_source_maps(static)
    site_trim.revise_digests(tmp_path, ["styles/theme.css"])
    theme = (static / "styles" / "theme.css").read_text()
    assert "@import" not in theme and "url(../file.png)" in theme
    assert (static / "app.js").read_text() == "run();\n"
    assert not (static / "app.js.map").exists()
    html_text = page.read_text()
    assert "theme.css?digest=55c26ed414f5f8a31ebb" not in html_text
    assert "other.css?digest=55c26ed414f5f8a31ebb" in html_text  # untouched
    assert re.search(r"theme\.css\?digest=[0-9a-f]{20}", html_text)


def test_dropping_source_maps_leaves_a_hard_linked_original_as_built(tmp_path):
    """lite/ is hard-linked to _build/lite: the site's copy loses its map comment, the build's keeps it."""
    built, site = tmp_path / "built", tmp_path / "site"
    built.mkdir()
    site.mkdir()
    text = b"export const a = 1;\n//# sourceMappingURL=a.mjs.map\n"
    (built / "a.mjs").write_bytes(text)
    (site / "a.mjs").hardlink_to(built / "a.mjs")
    (site / "a.mjs.map").write_text("{}")
    site_trim.drop_source_maps(site)
    assert (site / "a.mjs").read_bytes() == b"export const a = 1;\n"
    assert (built / "a.mjs").read_bytes() == text
    assert not (site / "a.mjs.map").exists()


def test_only_named_widget_states_are_kept(tmp_path):
    """An incremental build leaves the state file of a demo that changed: the build's last
    step drops every state no page names, and keeps the named ones."""
    folder = tmp_path / calijack_speed.STATE_DIR
    folder.mkdir(parents=True)
    (tmp_path / "book").mkdir()
    kept, stale, live = "0123456789abcdef.json", "fedcba9876543210.json", "00000000000000aa.json"
    for name in (kept, stale, live):
        (folder / name).write_text("{}")
    (tmp_path / "book" / "page.html").write_text(f'<script data-cj-state="../_static/cj-widget-state/{kept}">')
    # The live site's own files are not pages of the book: a name there keeps nothing.
    (tmp_path / "lite").mkdir()
    (tmp_path / "lite" / "index.html").write_text(f"cj-widget-state/{live}")
    calijack_speed._drop_unused_states(tmp_path)
    assert sorted(p.name for p in folder.iterdir()) == [kept]


def _drawings(page: str) -> list[str]:
    """Each card of a page as the reader sees it: outer tag's label and card, and the drawing
    itself (a ``<use>`` replaced by what it points at)."""
    from calijack.render.compact import _DEF, _REF, _SHEET_DIV

    defs = {}
    for sheet in _SHEET_DIV.finditer(page):
        for key, body in _DEF.findall(sheet.group(1)):
            defs.setdefault(key, body)
    shown = _SHEET_DIV.sub("", page)
    out = []
    for head, body in re.findall(r'<svg\b([^>]*class="cj-card[^>]*)>(.*?)</svg>', shown, re.S):
        body = _REF.sub(lambda m: defs[m.group(1)], body)
        out.append((re.search(r'aria-label="[^"]*"', head).group(0), body))
    return out


def test_a_page_draws_each_card_once_and_shows_the_same_cards():
    from calijack import Card
    from calijack.render.cardsvg import card_svg
    from calijack.render.compact import SHEET_CLASS, share_page
    from calijack.render.style import fragment

    def output(*codes):  # a cell's HTML output: the stylesheet and cards drawn in full
        return str(fragment("".join(card_svg(Card.parse(c)) for c in codes), "cj-hand"))

    from calijack.widgets.demo_base import build

    frames = [output("AS", "7C"), output("7C", "2D")]
    demo = build(frames.__getitem__, 2, static=True, labels=["one", "two"])  # its own sheet, both frames
    assert demo.sheet.value.count("<g id=") == 3
    state = state_of(demo)
    body = (output("7C", "7C", "QH") + "<p>Text between.</p>" + output("QH")
            + demo_pictures.add_pictures(view_tag(demo.model_id), state))
    page = share_page(body)

    assert page.count(f'class="{SHEET_CLASS}"') == 1, "one sheet for the whole page"
    assert page.startswith(f'<div class="{SHEET_CLASS}"')
    style = re.findall(r"<style>", page)
    assert len(style) == 1, f"the stylesheet once, not {len(style)} times"
    assert _drawings(page) == _drawings(body), "every card still shows the same drawing and label"
    keys = re.findall(r'<g id="(cj-d[0-9a-f]{10})">', page)
    used = set(re.findall(r'<use href="#(cj-d[0-9a-f]{10})"/>', page))
    assert sorted(keys) == sorted(used), "the sheet holds exactly the drawings the page shows"
    # 7C drawn three times, QH twice, AS once (the picture shows the stepper's first frame;
    # its second frame's 2D is not on the page until the demo runs)
    assert len(keys) == 3 and len(page) < len(body) / 2
    assert "Text between." in page
    # a page without cards or stylesheet is left as it is
    plain = '<p>Rules.</p><svg class="x" viewBox="0 0 1 1"><path d="M0 0"/></svg>'
    assert share_page(plain) == plain


def test_the_back_to_top_button_measures_the_header_at_the_first_scroll(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    script = scripts / "bootstrap.js"
    script.write_text("a();" + site_trim.BACK_TO_TOP_EAGER + "?b:c})", encoding="utf-8")
    site_trim.lazy_back_to_top(tmp_path)
    text = script.read_text(encoding="utf-8")
    assert site_trim.BACK_TO_TOP_EAGER not in text and text.count(site_trim.BACK_TO_TOP_LAZY) == 1
    site_trim.lazy_back_to_top(tmp_path)  # a second build leaves it as it is
    assert script.read_text(encoding="utf-8") == text
    script.write_text("a();something else", encoding="utf-8")
    with pytest.raises(RuntimeError, match="back-to-top code changed"):
        site_trim.lazy_back_to_top(tmp_path)


def test_pictures_load_when_the_reader_comes_to_them(tmp_path):
    png = tmp_path / "chart.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + (13).to_bytes(4, "big") + b"IHDR"
                    + (380).to_bytes(4, "big") + (379).to_bytes(4, "big") + bytes(5))
    assert calijack_speed.png_size(png) == (380, 379)
    (tmp_path / "not.png").write_bytes(b"GIF89a" + bytes(30))
    assert calijack_speed.png_size(tmp_path / "not.png") is None
    assert calijack_speed.png_size(tmp_path / "missing.png") is None
    body = ('<p>text</p><img alt="A chart" src="../_images/ab12.png" />'
            '<img src="../_images/other.png">'
            '<img src="x.png" loading="eager" />'
            '<img src="../_images/ab12.png" width="10" />')
    out = calijack_speed.lazy_images(body, {"ab12.png": (380, 379)})
    assert out == ('<p>text</p><img alt="A chart" src="../_images/ab12.png" loading="lazy" decoding="async"'
                   ' width="380" height="379" />'
                   '<img src="../_images/other.png" loading="lazy" decoding="async" />'
                   '<img src="x.png" loading="eager" />'
                   '<img src="../_images/ab12.png" width="10" loading="lazy" decoding="async" />')
