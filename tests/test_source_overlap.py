"""The book and the lessons say things in their own words, never in the accounts' words.

Five written accounts of the game sit beside the project, in ``../shared/sources`` (checked
from the repository's parent folders upwards). This test fails on any run of eight or more
words that a page of ``book/`` or a lesson in ``notebooks/`` shares with one of them. Runs
made only of ranks and card values (``A K Q J 10 9 8``, ``10 = 10, A = 4``…) are facts
every account lists the same way, and do not count.

A clone of the project on its own has no ``../shared``; then, and only then, the test is
skipped, and says so.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUN = 8
# Words that may make up a run of ranks or card values: the rank letters and names, the
# numbers 0 to 10, and the words that join them in a list.
RANKS = {"a", "k", "q", "j", "t", "ace", "aces", "king", "kings", "queen", "queens", "jack",
         "jacks", "ten", "tens", "nine", "two", "high", "low", "to", "and", "then", "down",
         *(str(n) for n in range(11))}
WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def find_sources() -> Path | None:
    """The ``shared/sources`` folder beside the repository or one of its parents."""
    for parent in ROOT.parents:
        candidate = parent / "shared" / "sources"
        if candidate.is_dir() and any(candidate.glob("*.txt")):
            return candidate
    return None


SOURCES = find_sources()
pytestmark = pytest.mark.skipif(
    SOURCES is None,
    reason="../shared/sources (the five accounts of the game) is not beside this clone: "
           "nothing to compare the book's wording with",
)


def words(text: str) -> list[str]:
    """Lower-case words, with typographic quotes and dashes folded to plain ones."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\ufffd", "'")
    return WORD.findall(text)


def runs(tokens: list[str]) -> set[tuple[str, ...]]:
    return {tuple(tokens[i:i + RUN]) for i in range(len(tokens) - RUN + 1)}


def page_texts() -> dict[str, str]:
    """Every chapter's source, and every lesson's markdown and code, by path."""
    texts = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in sorted((ROOT / "book").glob("*.md"))}
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        texts[str(nb.relative_to(ROOT))] = "\n\n".join("".join(c["source"]) for c in cells)
    return texts


def shared_runs(text: str, source: set[tuple[str, ...]]) -> list[str]:
    """The runs of `text` found in `source`, merged into maximal passages, rank lists left out."""
    tokens = words(text)
    hits = [i for i in range(len(tokens) - RUN + 1)
            if tuple(tokens[i:i + RUN]) in source and not set(tokens[i:i + RUN]) <= RANKS]
    passages, start, end = [], None, None
    for i in hits:
        if start is not None and i <= end:
            end = i + RUN
            continue
        if start is not None:
            passages.append(" ".join(tokens[start:end]))
        start, end = i, i + RUN
    if start is not None:
        passages.append(" ".join(tokens[start:end]))
    return passages


@pytest.fixture(scope="module")
def source_runs() -> dict[str, set[tuple[str, ...]]]:
    return {p.name: runs(words(p.read_text(encoding="utf-8", errors="replace")))
            for p in sorted(SOURCES.glob("*.txt"))}


def test_there_are_pages_and_accounts(source_runs):
    assert len(source_runs) >= 5 and all(source_runs.values())
    assert len(page_texts()) >= 20


@pytest.mark.parametrize("page", sorted(page_texts()))
def test_no_run_of_eight_words_from_an_account(page, source_runs):
    text = page_texts()[page]
    found = [f"{name}: “{passage}”" for name, source in source_runs.items()
             for passage in shared_runs(text, source)]
    assert not found, f"{page} repeats an account word for word:\n  " + "\n  ".join(found)


def test_the_check_catches_a_copied_sentence(source_runs):
    """A sentence lifted from an account is caught; the same list of ranks is not."""
    name, source = next(iter(source_runs.items()))
    text = (SOURCES / name).read_text(encoding="utf-8", errors="replace")
    tokens = words(text)
    start = next(i for i in range(len(tokens)) if len(set(tokens[i:i + 12]) - RANKS) >= 6)
    copied = " ".join(tokens[start:start + 12])
    assert shared_runs("As the account puts it, " + copied + ".", source)
    assert not shared_runs("A K Q J 10 9 8 7 6 5 4 3 2, and 10 = 10, A = 4, K = 3, Q = 2, J = 1",
                           set().union(*source_runs.values()))
