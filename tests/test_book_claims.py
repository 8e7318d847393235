"""The book's chapters as source files: structure the build cannot check on its own.

Executing a chapter runs its hidden ``assert`` cells (the build does that); these tests check
the rest without a build: every chapter is a MyST notebook, its headings never skip a
level, every rule chapter both shows a rule with an engine demo and checks it with a hidden
``assert``, and every cross-reference, glossary term and demo it names exists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parent.parent / "book"
RULE_CHAPTERS = ["01_aim", "02_deal", "03_legal_play", "04_drawing", "05_scoring",
                 "06_ending", "07_context_variants", "08_worked_example"]
NOTEBOOK_PAGES = ["intro"] + RULE_CHAPTERS + ["strategy", "variants", "faq"]
ALL_PAGES = NOTEBOOK_PAGES + ["lessons", "glossary"]

CELL = re.compile(r"^```\{code-cell\} ipython3\n(.*?)^```", re.S | re.M)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)


def read(page: str) -> str:
    return (BOOK / f"{page}.md").read_text(encoding="utf-8")


def prose(text: str) -> str:
    """The page without its front matter and fenced blocks (code cells, directives)."""
    text = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)
    return FENCE.sub("", text)


def cells(text: str) -> list[tuple[set[str], str]]:
    """Each code cell's tags and source."""
    out = []
    for body in CELL.findall(text):
        tags = re.search(r"^:tags: \[(.*?)\]|^tags: \[(.*?)\]", body, re.M)
        names = {t.strip() for t in (tags.group(1) or tags.group(2)).split(",")} if tags else set()
        out.append((names, body))
    return out


@pytest.mark.parametrize("page", NOTEBOOK_PAGES)
def test_page_is_a_myst_notebook(page):
    head = read(page).split("\n---\n", 1)[0]
    assert "format_name: myst" in head, f"{page}.md lacks the jupytext MyST header"
    assert re.search(r"kernelspec:\n(  .*\n)*  name: python3", head + "\n"), f"{page}.md: kernel"
    assert cells(read(page)), f"{page}.md has no code cell"


@pytest.mark.parametrize("page", ALL_PAGES)
def test_headings_one_title_and_no_skipped_level(page):
    levels = [len(m.group(1)) for m in re.finditer(r"^(#{1,6}) \S", prose(read(page)), re.M)]
    assert levels and levels[0] == 1, f"{page}.md must open with one '#' title"
    assert levels.count(1) == 1, f"{page}.md has {levels.count(1)} '#' titles"
    for before, after in zip(levels, levels[1:]):
        assert after <= before + 1, f"{page}.md jumps from level {before} to {after}"


@pytest.mark.parametrize("page", RULE_CHAPTERS)
def test_rule_chapter_shows_and_checks(page):
    found = cells(read(page))
    hidden = [body for tags, body in found if tags & {"remove-cell", "remove-input"}]
    shown = [body for tags, body in found if not tags & {"remove-cell", "remove-input"}]
    assert any(re.search(r"^\s*assert ", body, re.M) for body in hidden), \
        f"{page}.md has no hidden assert cell"
    assert any("calijack" in body for body in shown), f"{page}.md shows no engine call"
    assert any(re.search(r"\bdemos\.\w+\(|\bstepper\(", body) for _, body in found), \
        f"{page}.md has no engine-driven demo"


def test_every_demo_named_exists():
    from calijack.widgets import demos

    for page in NOTEBOOK_PAGES:
        for name in re.findall(r"\bdemos\.(\w+)\(", read(page)):
            assert name in demos.__all__, f"{page}.md calls demos.{name}, which does not exist"


def _glossary_terms() -> set[str]:
    block = re.search(r"```\{glossary\}\n(.*?)^```", read("glossary"), re.S | re.M).group(1)
    return {line.strip().lower() for line in block.splitlines() if line and not line[0].isspace()}


def _targets(role: str, text: str) -> list[str]:
    out = []
    for content in re.findall(r"\{" + role + r"\}`([^`]+)`", text):
        target = re.search(r"<([^>]+)>\s*$", content)
        out.append((target.group(1) if target else content).strip())
    return out


def test_cross_references_resolve():
    labels = set()
    for page in ALL_PAGES:
        labels.update(re.findall(r"^\(([\w-]+)\)=$", read(page), re.M))
    terms = _glossary_terms()
    assert {"trick", "trump", "stock", "lead", "follow", "game"} <= terms
    for page in ALL_PAGES:
        text = read(page)
        for label in _targets("ref", text):
            assert label in labels, f"{page}.md: {{ref}} to unknown label {label!r}"
        for term in _targets("term", text):
            assert term.lower() in terms, f"{page}.md: {{term}} {term!r} is not in the glossary"
        for doc in _targets("doc", text):
            assert (BOOK / f"{doc}.md").exists() or (BOOK / f"{doc}.ipynb").exists(), \
                f"{page}.md: {{doc}} to missing page {doc!r}"


def test_labels_are_unique():
    seen: dict[str, str] = {}
    for page in ALL_PAGES:
        for label in re.findall(r"^\(([\w-]+)\)=$", read(page), re.M):
            assert label not in seen, f"label {label!r} in both {seen[label]}.md and {page}.md"
            seen[label] = page


def test_table_of_contents_lists_every_page_in_its_part():
    toc = (BOOK.parent / "_toc.yml").read_text(encoding="utf-8")
    assert re.search(r"^root: book/intro$", toc, re.M)
    parts = re.split(r"^  - caption: ", toc, flags=re.M)[1:]
    files = {part.splitlines()[0].strip(): re.findall(r"- file: (\S+)", part) for part in parts}
    assert files.get("The rules") == [f"book/{page}" for page in RULE_CHAPTERS]
    lessons = files.get("Interactive lessons", [])
    assert lessons[:1] == ["book/lessons"]
    on_disk = sorted(p.stem for p in (BOOK.parent / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert lessons[1:] == [f"notebooks/{name}" for name in on_disk]
    assert files.get("Beyond the rules") == [f"book/{p}" for p in ("strategy", "variants", "faq", "glossary")]
