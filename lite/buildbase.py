"""What every step of the live site's build shares (lite/build_lite.py runs them): where
the repository is, the Python of Pyodide, the one kind of error, a line of progress, a command
run, a file's SHA-256."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
PYTHON_VERSION = "3.14"


class BuildError(RuntimeError):
    """A step of the build failed; the message says which and what to do."""


def log(message: str) -> None:
    """One line of progress on standard error."""
    print(f"build_lite: {message}", file=sys.stderr, flush=True)


def run(cmd: list[str], **kwargs) -> None:
    """Run a command; a failure becomes a BuildError naming the command."""
    try:
        subprocess.run(cmd, check=True, **kwargs)
    except FileNotFoundError as exc:
        raise BuildError(f"{cmd[0]} is not installed ({exc}); see README.md, The two commands") from exc
    except subprocess.CalledProcessError as exc:
        raise BuildError(f"`{' '.join(map(str, cmd))}` failed with exit code {exc.returncode}") from exc


def sha256(path: Path) -> str:
    """The hex SHA-256 of a file."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
