"""``make test-fast`` collects ``tests/`` and ``tests/browser/`` in one run. With pytest's
default import mode two test modules of one name cannot both be collected there ("import file
mismatch"), so every test module's name is unique across the folders."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_two_test_modules_share_a_name():
    names = Counter(path.name for path in TESTS.rglob("*.py") if path.name != "__init__.py"
                    and path.name != "conftest.py" and "__pycache__" not in path.parts)
    assert sorted(name for name, count in names.items() if count > 1) == []
