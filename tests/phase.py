"""``make test``'s phases, each timed: ``python tests/phase.py NAME -- COMMAND...`` runs COMMAND.

Each phase's wall time goes to ``_build/phases.json`` (created by ``phase.py start``) and is
printed as the phase ends, failed or not, so anyone can see where the minutes of a run go.
A phase that runs pytest is given ``--junitxml`` (unless ``--no-junit``); ``phase.py summary``
then prints the phases' times, each failed test (its id and the first line of its message), and
one closing line that adds up every pytest phase: ``total: N passed, N failed, N skipped``. The
failed tests come last, next to the total, because a CI log is often read from its tail.

Standard library only: the first phase (the environment) runs before there is a virtualenv.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Where the record goes: _build/phases, or PHASE_RECORD (tests/test_phase.py runs it aside).
RECORD = Path(os.environ.get("PHASE_RECORD") or ROOT / "_build" / "phases")


def _record() -> list[dict]:
    path = RECORD / "phases.json"
    return json.loads(path.read_text()) if path.is_file() else []


def _save(entries: list[dict]) -> None:
    RECORD.mkdir(parents=True, exist_ok=True)
    (RECORD / "phases.json").write_text(json.dumps(entries, indent=1))


def _clock(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest:02d} s" if minutes else f"{rest} s"


def _counts(root: ET.Element) -> dict[str, int]:
    """passed/failed/skipped from a JUnit file's root (errors count as failed)."""
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    total = {"tests": 0, "failed": 0, "skipped": 0}
    for suite in suites:
        total["tests"] += int(suite.get("tests", 0))
        total["failed"] += int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        total["skipped"] += int(suite.get("skipped", 0))
    return {"passed": total["tests"] - total["failed"] - total["skipped"],
            "failed": total["failed"], "skipped": total["skipped"]}


def _failures(root: ET.Element) -> list[str]:
    """``module.Class::test: first line of the message`` for each failed or erroring test of a JUnit file's root."""
    lines = []
    for case in root.iter("testcase"):
        for problem in (*case.findall("failure"), *case.findall("error")):
            where = case.get("classname", "")
            message = (problem.get("message") or problem.text or "").strip().splitlines()
            first = message[0][:300] if message else "(no message)"
            lines.append(f"{where}::{case.get('name')}: {first}")
    return lines


def run(name: str, command: list[str], junit: bool) -> int:
    entries = _record()
    slug = "".join(ch if ch.isalnum() else "-" for ch in name.lower())
    xml = RECORD / f"{slug}.xml"
    if junit and "pytest" in command:
        xml.unlink(missing_ok=True)
        command = [*command, f"--junitxml={xml}"]
    print(f"\n==> make test: {name}", flush=True)
    start = time.monotonic()
    code = subprocess.call(command)
    seconds = time.monotonic() - start
    entry = {"phase": name, "seconds": round(seconds, 1), "exit": code}
    if junit and xml.is_file():
        root = ET.parse(xml).getroot()
        entry["counts"], entry["failures"] = _counts(root), _failures(root)
    entries.append(entry)
    _save(entries)
    state = "done" if code == 0 else f"FAILED (exit {code})"
    print(f"==> make test: {name}: {state} in {_clock(seconds)}", flush=True)
    return code


def summary() -> int:
    entries = _record()
    width = max((len(e["phase"]) for e in entries), default=0)
    print("\n==> make test: where the time went")
    for e in entries:
        print(f"    {e['phase']:<{width}}  {_clock(e['seconds']):>12}")
    print(f"    {'all':<{width}}  {_clock(sum(e['seconds'] for e in entries)):>12}")
    failures = [f"    {e['phase']}: {line}" for e in entries for line in e.get("failures", [])]
    if failures:
        print("failed:")
        print("\n".join(failures))
    totals = {"passed": 0, "failed": 0, "skipped": 0}
    for e in entries:
        for key, value in e.get("counts", {}).items():
            totals[key] += value
    print(f"total: {totals['passed']} passed, {totals['failed']} failed, "
          f"{totals['skipped']} skipped", flush=True)
    return 0 if totals["failed"] == 0 and all(e["exit"] == 0 for e in entries) else 1


def main(argv: list[str]) -> int:
    if argv == ["start"]:
        _save([])
        return 0
    if argv == ["summary"]:
        return summary()
    junit = "--no-junit" not in argv
    argv = [a for a in argv if a != "--no-junit"]
    if len(argv) < 3 or argv[1] != "--":
        print("usage: phase.py start | summary | NAME [--no-junit] -- COMMAND...", file=sys.stderr)
        return 2
    return run(argv[0], argv[2:], junit)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
