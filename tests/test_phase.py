"""``tests/phase.py``: the summary of ``make test`` names each failed test beside the total."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PHASE = Path(__file__).resolve().parent / "phase.py"


def test_the_summary_names_each_failed_test_next_to_the_total(tmp_path: Path) -> None:
    (tmp_path / "test_sample.py").write_text(
        "def test_fine():\n    pass\n\n"
        "def test_wrong():\n    assert 1 == 2, 'one is not two\\nsecond line'\n\n"
        "class TestBox:\n    def test_broken(self):\n        raise RuntimeError('boom')\n")
    record = tmp_path / "record"
    env = {"PHASE_RECORD": str(record), "PATH": "/usr/bin:/bin"}

    def phase(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(PHASE), *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)

    assert phase("start").returncode == 0
    phase("sample", "--", sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
          str(tmp_path / "test_sample.py"))
    done = phase("summary")
    assert done.returncode == 1
    tail = done.stdout.strip().splitlines()[-3:]
    assert tail == ["    sample: test_sample::test_wrong: AssertionError: one is not two",
                    "    sample: test_sample.TestBox::test_broken: RuntimeError: boom",
                    "total: 1 passed, 2 failed, 0 skipped"], done.stdout
