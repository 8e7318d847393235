"""The Python examples of README.md and PYPI.md (the package's long description) run as
written: each file's ```python blocks, in order, in one namespace, with their output kept."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks(text: str) -> list[str]:
    return BLOCK.findall(text)


def run_blocks(blocks: list[str], name: str) -> str:
    namespace: dict = {"__name__": f"{name}_example"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for i, block in enumerate(blocks):
            exec(compile(block, f"{name} python block {i + 1}", "exec"), namespace)
    return out.getvalue()


@pytest.mark.parametrize("name", ["README.md", "PYPI.md"])
def test_the_python_examples_run(name):
    blocks = python_blocks((ROOT / name).read_text(encoding="utf-8"))
    assert blocks, f"{name} has no python example"
    printed = run_blocks(blocks, name).splitlines()
    # The example prints each card's verdict, then the deal's points (a tuple of two).
    assert any(" True " in line for line in printed), printed[:3]
    assert re.fullmatch(r"\(\d+, \d+\)", printed[-1]), printed[-1]


def test_a_broken_example_fails():
    with pytest.raises(ImportError):
        run_blocks(["from calijack import NoSuchThing\n"], "broken")
    assert python_blocks("text\n```python\nx = 1\n```\n```sh\nmake\n```\n") == ["x = 1\n"]
