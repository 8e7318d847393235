"""The wheel, installed alone in a fresh virtual environment: the engine with nothing but what
it declares, then the ``widgets`` extra.

The wheel is built from a copy of the sources (setuptools writes ``build/`` beside them) and
installed by pip from the package index, with ``requirements.txt`` as constraints (the
versions ``make`` pins; pip's own cache makes a second run quick). Everything runs from a
folder outside the repository, so nothing is imported from the source tree.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.packaging

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests" / "data" / "records" / "good_deal.json"
# What pyproject.toml names besides the package: its long description and its licence.
PACKAGE_FILES = ("pyproject.toml", "PYPI.md", "LICENSE")
SENTENCE = "calijack.widgets needs the 'widgets' extra: pip install 'calijack[widgets]'"


def run(*cmd, cwd: Path, check: bool = True) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=900)
    if check:
        assert proc.returncode == 0, f"{cmd}\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel of this tree, built from a copy of its sources."""
    source = tmp_path_factory.mktemp("source")
    for name in PACKAGE_FILES:
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "calijack", source / "calijack",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    dist = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
        "--disable-pip-version-check", "--wheel-dir", dist, source, cwd=source)
    (found,) = dist.glob("calijack-*.whl")
    return found


def pip_install(python: Path, requirement, cwd: Path) -> None:
    """Install ``requirement`` into the environment of ``python`` (which has no pip of its own:
    this one works on it), at the versions ``make`` pins."""
    run(sys.executable, "-m", "pip", "--python", python, "install", "--quiet",
        "--disable-pip-version-check", "--constraint", ROOT / "requirements.txt", requirement, cwd=cwd)


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory):
    """A fresh virtual environment with the wheel installed; returns (python, folder to run in)."""
    home = tmp_path_factory.mktemp("venv")
    run(sys.executable, "-m", "venv", "--without-pip", home / "env", cwd=home)
    python = home / "env" / "bin" / "python"
    pip_install(python, wheel, home)
    return python, home


def installed(python: Path, cwd: Path) -> set[str]:
    code = "import importlib.metadata as m, json; print(json.dumps([d.metadata['Name'] for d in m.distributions()]))"
    return {name.lower() for name in json.loads(run(python, "-c", code, cwd=cwd).stdout)}


def test_the_wheel_holds_the_engine_and_its_views_and_nothing_else(wheel):
    """Every file the repository tracks under calijack/ that the package ships, and nothing
    else: no serving code (calijack/serve, calijack/classsvc), no benchmark, no tests, no stray file."""
    with zipfile.ZipFile(wheel) as archive:
        files = set(archive.namelist())
        metadata = archive.read("calijack-0.1.0.dist-info/METADATA").decode()
    tracked = run("git", "ls-files", "calijack", cwd=ROOT).stdout.split()
    shipped = {path for path in tracked
               if not path.startswith(("calijack/serve/", "calijack/classsvc/"))
               and (path.endswith(".py") or path.startswith(("calijack/static/", "calijack/data/"))
                    or (path.startswith("calijack/widgets/") and path.endswith(".js")))}
    assert "calijack/serve/static.py" in tracked and "calijack/widgets/table.js" in shipped
    info = {"METADATA", "RECORD", "WHEEL", "entry_points.txt", "top_level.txt", "licenses/LICENSE"}
    assert files == shipped | {f"calijack-0.1.0.dist-info/{name}" for name in info}
    assert not [f for f in files if f.startswith(("calijack/serve", "calijack/classsvc", "bench", "tests"))]
    assert "License-Expression: MIT" in metadata.splitlines()
    # The long description is PYPI.md (true for a wheel: no make targets), not the README.
    assert (ROOT / "PYPI.md").read_text(encoding="utf-8").strip() in metadata
    assert "make " not in metadata.split("\n\n", 1)[1]
    requires = sorted(line for line in metadata.splitlines() if line.startswith("Requires-Dist: tqdm"))
    assert requires == ['Requires-Dist: tqdm>=4.60; sys_platform != "emscripten"']
    extras = {line.split(": ")[1] for line in metadata.splitlines() if line.startswith("Provides-Extra:")}
    assert extras == {"widgets", "lessons", "lab", "openspiel", "test"}


def test_the_engine_runs_with_nothing_but_what_it_declares(venv):
    python, cwd = venv
    assert installed(python, cwd) == {"calijack", "tqdm"}
    code = ("import calijack, json\n"
            "from calijack import Deal, Rules\n"
            "assert 'site-packages' in calijack.__file__, calijack.__file__\n"
            "state = Deal.random(7, Rules(target=7)).start()\n"
            "while not state.finished:\n"
            "    state = state.play(state.legal_cards()[0])\n"
            "print(json.dumps(state.result().points))")
    points = json.loads(run(python, "-c", code, cwd=cwd).stdout)
    assert len(points) == 2 and sum(points) >= 2  # every card is played: High and Low always score
    simulate = run(python, "-m", "calijack", "simulate", "heuristic", "random", "--matches", "2",
                   "--json", cwd=cwd)
    assert json.loads(simulate.stdout)["matches"] == 2
    replay = run(python, "-m", "calijack", "replay", RECORD, cwd=cwd)
    assert "Scoring:" in replay.stdout


def test_without_the_extra_the_widgets_say_which_to_install(venv):
    python, cwd = venv
    proc = run(python, "-c", "import calijack.widgets.sandbox", cwd=cwd, check=False)
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert last == f"calijack.extras.MissingExtra: {SENTENCE} (ipywidgets and anywidget not installed)"
    proc = run(python, "-m", "calijack.serve", cwd=cwd, check=False)
    assert proc.returncode == 1 and "No module named calijack.serve" in proc.stderr


def test_with_the_widgets_extra_the_sandbox_builds(venv, wheel):
    python, cwd = venv
    pip_install(python, f"{wheel}[widgets]", cwd)
    assert {"ipywidgets", "anywidget"} <= installed(python, cwd)
    code = ("from calijack.widgets.sandbox import Sandbox\n"
            "sb = Sandbox(seed=7, opponent='random', delay=0)\n"
            "print(sb.table.table_html.count('cj-play cj-can'), len(sb.table._esm))")
    legal, esm = map(int, run(python, "-c", code, cwd=cwd).stdout.split())
    assert legal >= 1 and esm > 1000  # legal cards on the table; its module, table.js, read
