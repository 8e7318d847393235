"""The book's chapters as source files: structure the build cannot check on its own.

Executing a chapter runs its hidden ``assert`` cells (the build does that); these tests check
the rest without a build: every chapter is a MyST notebook, its headings never skip a
level, every rule chapter both shows a rule with an engine demo and checks it with a hidden
``assert``, every code cell is collapsed or hidden, every number glued from the engine is
used on its page and every number still typed in the prose is checked by an ``assert`` beside
its claim, every mention of an account links to the Sources page, and every cross-reference,
glossary term and demo a page names exists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parent.parent / "book"
RULE_CHAPTERS = ["01_aim", "02_deal", "03_legal_play", "04_drawing", "05_scoring",
                 "06_ending", "07_worked_example", "08_context_variants"]
REFERENCE = ["sources", "rules_reference", "records"]
NOTEBOOK_PAGES = ["intro"] + RULE_CHAPTERS + ["practice", "progress", "strategy", "variants", "faq", "rules_reference",
                                              "records"]
# For teachers and hosts (plain Markdown: no engine claims).
GUIDES = ["teaching", "publishing"]
ALL_PAGES = NOTEBOOK_PAGES + ["lessons", "glossary", "sources"] + GUIDES
NOTEBOOKS = sorted((BOOK.parent / "notebooks").glob("[0-9][0-9]_*.ipynb"))
# Tags that keep a code cell out of the reader's way: folded behind "Show code", or not shown.
COLLAPSED = {"hide-input", "hide-cell", "remove-input", "remove-cell"}

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
    hidden = [body for tags, body in found if "remove-cell" in tags]
    # A collapsed cell ("Show code") is one click away: it counts as shown.
    shown = [body for tags, body in found if not tags & {"remove-cell", "remove-input"}]
    assert any(re.search(r"^\s*assert ", body, re.M) for body in hidden), \
        f"{page}.md has no hidden assert cell"
    assert any(re.search(r"\brender\.\w+\(|\bquiz\.\w+\(", body) for body in shown), \
        f"{page}.md shows no picture drawn by the engine (with its code one click away)"
    assert any(re.search(r"\b(demos|walkthrough)\.\w+\(|\bstepper\(", body) for _, body in found), \
        f"{page}.md has no engine-driven demo"


@pytest.mark.parametrize("page", NOTEBOOK_PAGES)
def test_every_code_cell_is_collapsed(page):
    """A beginner meets the game first: no page shows code until the reader asks for it."""
    for number, (tags, body) in enumerate(cells(read(page)), 1):
        first = body.strip().splitlines()[0] if body.strip() else ""
        assert tags & COLLAPSED, (f"{page}.md, code cell {number} ({first!r}) is shown open: tag it "
                                  "hide-input (a 'Show code' button) or remove-cell (setup, asserts)")


# glue("name", …) or a page's own helper glue_something("name", …); a helper named
# glue_estimate also glues name_low and name_high (the ends of the 95% interval).
GLUE = re.compile(r"""\b(glue(?:_\w+)?)\(\s*["'](\w+)["']""")
GLUE_ROLE = re.compile(r"\{glue(?::\w+)?\}`([\w.-]+?)(?::[^`]*)?`")


def glued_names(page: str) -> set[str]:
    """The names a page's code glues."""
    names = set()
    for body in CELL.findall(read(page)):
        for helper, name in GLUE.findall(body):
            names.add(name)
            if helper == "glue_estimate":
                names |= {name + "_low", name + "_high"}
    return names


@pytest.mark.parametrize("page", NOTEBOOK_PAGES)
def test_glue_names_are_written_out(page):
    """Every glue() names its value with a literal, so the next test can find it (helpers aside)."""
    for body in CELL.findall(read(page)):
        for call in re.findall(r"\bglue\((.{0,30})", body):
            literal = re.match(r"""\s*["']\w+["']""", call)
            assert literal or re.search(r"^def glue_\w+\(", body, re.M), \
                f"{page}.md: glue({call}…) has no literal name"


@pytest.mark.parametrize("page", NOTEBOOK_PAGES)
def test_every_glued_value_is_used_on_its_page(page):
    text = read(page)
    used = set(GLUE_ROLE.findall(prose_with_dropdowns(text)))
    glued = glued_names(page)
    assert not glued - used, f"{page}.md glues {sorted(glued - used)} but never shows them"
    assert not used - glued, f"{page}.md shows {sorted(used - glued)}, which no cell glues"


def prose_with_dropdowns(text: str) -> str:
    """The page without front matter and code cells; directive bodies (dropdowns) are kept."""
    text = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)
    return CELL.sub("", text)


ACCOUNT = re.compile(r"\b00[0-4]\b|Foster's \*?(?:Complete )?Hoyle\*?")
ACCOUNT_LINK = re.compile(r"\{ref\}`([^`<]*)<(source-(?:00[0-4]|foster))>`|\[([^\]]*)\]\(#(source-00[0-4])\)")


def unlinked_accounts(text: str) -> list[str]:
    """Mentions of an account (000 to 004, Foster's Hoyle) that are not a link to it."""
    bad = []
    for match in ACCOUNT_LINK.finditer(text):
        label, target = (match.group(1), match.group(2)) if match.group(2) else (match.group(3), match.group(4))
        named = ACCOUNT.findall(label)
        wanted = target.replace("source-", "")
        if not named or any((n if n.startswith("00") else "foster") != wanted for n in named):
            bad.append(match.group(0))
    rest = ACCOUNT_LINK.sub("", text)
    rest = re.sub(r"`[^`]*`", "", rest)       # code such as `"002, 003"` is not prose
    bad += [m.group(0) for m in ACCOUNT.finditer(rest)]
    return bad


@pytest.mark.parametrize("page", [p for p in ALL_PAGES if p != "sources"])
def test_every_mention_of_an_account_links_to_the_sources_page(page):
    bad = unlinked_accounts(prose_with_dropdowns(read(page)))
    assert not bad, f"{page}.md mentions an account without linking to it on the Sources page: {bad}"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_lesson_mention_of_an_account_links_to_the_sources_page(notebook):
    import json

    markdown = "\n".join("".join(c["source"]) for c in json.loads(notebook.read_text(encoding="utf-8"))["cells"]
                         if c["cell_type"] == "markdown")
    bad = unlinked_accounts(markdown)
    assert not bad, f"{notebook.name} mentions an account without linking to the Sources page: {bad}"


def test_the_link_check_can_fail():
    assert unlinked_accounts("as account 002 says") == ["002"]
    assert unlinked_accounts("see {ref}`account 003 <source-002>`") == ["{ref}`account 003 <source-002>`"]
    assert unlinked_accounts("see {ref}`account 002 <source-002>` and [001](#source-001)") == []
    assert unlinked_accounts("Foster's *Hoyle* says") == ["Foster's *Hoyle*"]
    assert unlinked_accounts("Foster's *Complete Hoyle* says") == ["Foster's *Complete Hoyle*"]
    assert unlinked_accounts("{ref}`Foster's Complete Hoyle <source-foster>`") == []


# Numbers a sentence may type without an assert: the "95%" of every 95% interval, years.
TYPED_OK = re.compile(r"^(95%|1[89]\d\d)$")


def typed_numbers(text: str) -> set[str]:
    """Numbers typed in the prose (not glued, not a card such as 10♥, not a rank list or list marker)."""
    text = prose_with_dropdowns(text)
    text = re.sub(r"\{[\w:]+\}`[^`]*`", "", text)          # roles: glue, ref, term
    text = re.sub(r"`[^`]*`", "", text)                    # inline code
    text = re.sub(r"(10|[2-9AKQJ])[♠♥♦♣]", "", text)        # cards
    text = text.replace("A K Q J 10 9 8 7 6 5 4 3 2", "")  # the rank order
    text = re.sub(r"^\s*\d+\. ", "", text, flags=re.M)      # numbered lists
    text = re.sub(r"^\(\S+\)=$", "", text, flags=re.M)       # labels
    return {n for n in re.findall(r"(?<![\w-])\d+(?:[.,]\d+)?%?", text) if not TYPED_OK.match(n)}


HEADING = re.compile(r"^#{1,6} \S")
SEED = re.compile(r"\bseed (\d+)")
NUMBER_TOKEN = r"(?<![\w.]){}(?![\w])"


def blocks(text: str) -> list[tuple[str, str]]:
    """The page in order, as ``("prose", paragraph)``, ``("heading", line)`` and ``("cell", source)``."""
    body = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)
    out, start = [], 0
    for match in CELL.finditer(body):
        out += _paragraphs(body[start:match.start()])
        out.append(("cell", match.group(1)))
        start = match.end()
    return out + _paragraphs(body[start:])


def _paragraphs(text: str) -> list[tuple[str, str]]:
    return [("heading" if HEADING.match(part.strip()) else "prose", part)
            for part in re.split(r"\n\s*\n", text) if part.strip()]


def _asserts(source: str) -> str:
    return "\n".join(line for line in source.splitlines() if line.strip().startswith("assert"))


def unbacked_numbers(text: str) -> list[tuple[str, str]]:
    """Numbers typed in a paragraph that the cells beside it do not check: ``(number, paragraph)``.

    A number is backed when it appears in an ``assert`` of the nearest cell with asserts before
    or after its paragraph, within its section (no heading between). A seed ("the deal with
    seed 3") names which deal a demo shows: it is backed when the next cell's code uses it.
    """
    found = blocks(text)
    unbacked = []
    for i, (kind, paragraph) in enumerate(found):
        numbers = typed_numbers(paragraph)
        if kind != "prose" or not numbers:
            continue
        near, following = [], None
        for step in (1, -1):
            j = i + step
            while 0 <= j < len(found) and found[j][0] != "heading":
                if found[j][0] == "cell":
                    if step == 1 and following is None:
                        following = found[j][1]
                    if _asserts(found[j][1]):
                        near.append(_asserts(found[j][1]))
                        break
                j += step
        seeds = set(SEED.findall(paragraph))
        for number in sorted(numbers):
            if number in seeds and following is not None:
                backed = re.search(NUMBER_TOKEN.format(re.escape(number)), following)
            else:
                token = NUMBER_TOKEN.format(re.escape(number.rstrip("%")))
                backed = any(re.search(token, checks) for checks in near)
            if not backed:
                unbacked.append((number, " ".join(paragraph.split())[:90]))
    return unbacked


@pytest.mark.parametrize("page", NOTEBOOK_PAGES)
def test_numbers_typed_in_the_prose_are_asserted_beside_their_claim(page):
    """A number the engine does not fill in (glue) is checked where it is claimed: by an assert
    in the cell that backs its paragraph, not by the same digits anywhere on the page."""
    unbacked = unbacked_numbers(read(page))
    assert not unbacked, f"{page}.md types numbers that no assert beside them checks: {unbacked}"


def test_the_number_check_can_fail():
    cell = "```{{code-cell}} ipython3\n:tags: [remove-cell]\n\n{}\n```\n"
    backed = "# A\n\nThe pack holds 52 cards.\n\n" + cell.format("assert len(DECK) == 52")
    assert unbacked_numbers(backed) == []
    # The same digits in an assert of another section, or in a cell's code outside an assert, do not count.
    elsewhere = ("# A\n\nThe pack holds 52 cards.\n\n" + cell.format("x = 52") + "\n## B\n\n"
                 + cell.format("assert len(DECK) == 52"))
    assert unbacked_numbers(elsewhere) == [("52", "The pack holds 52 cards.")]
    seed = "# A\n\nThe deal with seed 3 is shown.\n\n" + cell.format("end = played(3)")
    assert unbacked_numbers(seed) == [] and unbacked_numbers(seed.replace("played(3)", "played(4)"))


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
    assert files.get("Reference") == [f"book/{p}" for p in REFERENCE]
    assert files.get("Teaching and publishing") == [f"book/{p}" for p in GUIDES]
