"""Page checks for accessibility and small screens: axe-core, widths, tap targets.

Used through the ``page_checks`` fixture of ``conftest.py`` (and importable on their own).
"""

from __future__ import annotations

import pytest

# axe-core (the pinned axe-playwright-python injects its own copy: nothing is fetched).
SERIOUS = ("serious", "critical")


def axe_violations(page, context=None) -> list[str]:
    """axe-core's serious and critical violations on the page (or in ``context``), one line each."""
    from axe_playwright_python.sync_playwright import Axe

    # preload: false: axe's CSSOM preload fetches @import-ed sheets relative to the page, not
    # to the importing sheet (the theme's "../basic.css" becomes a 404 at the site's root, a
    # console error). Only the css-orientation-lock rule needs it.
    results = Axe().run(page, context=context, options={"resultTypes": ["violations"], "preload": False})
    lines = []
    for violation in results.response["violations"]:
        if violation.get("impact") not in SERIOUS:
            continue
        for node in violation["nodes"]:
            target = " ".join(str(t) for t in node.get("target", []))
            lines.append(f"{violation['impact']} {violation['id']}: {target} "
                         f"({node.get('failureSummary', '').splitlines()[-1:]})")
    return lines


def assert_accessible(page, where: str = "", context=None) -> None:
    """Fail on any serious or critical axe-core violation."""
    found = axe_violations(page, context)
    if found:
        pytest.fail(f"axe-core found on {where or 'the page'}:\n  " + "\n  ".join(found[:40]), pytrace=False)


# Visible elements whose right edge passes the viewport (inside no scrolling box of their own).
_TOO_WIDE_JS = """
() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (!el.checkVisibility() || el.closest(".cj-sr-only")) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (box.right > width + 1 || box.left < -1) {
      let clipped = false;
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (["auto", "scroll", "hidden", "clip"].includes(style.overflowX)) {
          const outer = up.getBoundingClientRect();
          if (outer.right <= width + 1 && outer.left >= -1) { clipped = true; break; }
        }
      }
      if (!clipped) out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join(".")} ` +
                             `[${Math.round(box.left)}, ${Math.round(box.right)}]`);
    }
  }
  return {width, scroll: document.documentElement.scrollWidth, out: out.slice(0, 20)};
}
"""


def too_wide(page) -> list[str]:
    """Elements wider than the viewport (or past its edges), and a page that scrolls sideways."""
    found = page.evaluate(_TOO_WIDE_JS)
    out = list(found["out"])
    if found["scroll"] > found["width"] + 1:
        out.insert(0, f"the page scrolls sideways: {found['scroll']} px wide in a {found['width']} px viewport")
    return out


# Interactive elements smaller than a fingertip (44 x 44 CSS px), inside ``root``.
_SMALL_TARGETS_JS = """
([root, least]) => {
  const out = [];
  const pick = "button, select, input:not([type=checkbox]), textarea, a[href], [role=slider], " +
               "[role=tab], [tabindex='0'], .widget-checkbox label, .jupyter-widget-Collapse-header";
  for (const el of document.querySelectorAll(root)) {
    for (const target of el.querySelectorAll(pick)) {
      if (!target.checkVisibility() || target.closest(".cj-sr-only")) continue;
      const box = target.getBoundingClientRect();
      if (box.width + 0.5 < least || box.height + 0.5 < least)
        out.push(`${target.tagName.toLowerCase()}.${[...target.classList].join(".")} ` +
                 `"${(target.getAttribute("aria-label") || target.textContent || "").trim().slice(0, 30)}" ` +
                 `${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return out;
}
"""


def small_targets(page, root: str = ".cj-sandbox", least: int = 44) -> list[str]:
    """Visible interactive elements under ``root`` smaller than ``least`` CSS px either way."""
    return page.evaluate(_SMALL_TARGETS_JS, [root, least])
