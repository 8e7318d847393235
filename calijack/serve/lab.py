"""JupyterLab over the lessons, on this machine only: where a teacher adapts a lesson (``make lab``).

    python -m calijack.serve.lab --notebooks notebooks --port 8888

JupyterLab 4 (the ``lab`` extra, pinned in requirements.txt) over the ``--notebooks`` folder, on
127.0.0.1, with a token of its own (random, kept out of the command line, which other users of the
machine can read) and the address to open, token included, printed once the server answers. The
widgets work as in Voilà: ipywidgets' and anywidget's JupyterLab extensions come with their
packages. Nothing is fetched from another host: no news feed, no check for a newer JupyterLab,
an extension manager that installs nothing. Ctrl-C stops the server and its kernels.

:func:`lab_command` and :func:`lab_env` are the one place that says how calijack runs JupyterLab:
``make lab`` runs them through :func:`main`, and the browser test (``tests/browser/test_lab.py``)
starts the same command.
"""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from calijack.extras import require

require("lab", __name__)

from calijack.serve import HOST, stop_process_group, voila_env, wait_for_http  # noqa: E402

# The path of a server's page that answers as soon as it listens, without starting a kernel.
LAB_PROBE = "static/favicons/favicon.ico"


def lab_command(folder: str | os.PathLike, port: int, ip: str = HOST) -> list[str]:
    """The command line running JupyterLab over ``folder`` on ``ip`` (127.0.0.1) and ``port``
    (fixed: no silent fallback to another one). Run it with :func:`lab_env`."""
    return [
        sys.executable, "-m", "jupyterlab",
        "--no-browser",
        f"--ServerApp.ip={ip}",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--ServerApp.root_dir={Path(folder).resolve()}",
        # Nothing from another host: JupyterLab's news feed, its check for a newer version (both
        # fetched by the server, and only when asked), and the extension manager's PyPI search.
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly",
        "--ServerApp.terminals_enabled=False",  # notebooks to adapt; no shell in the browser
        # As the lesson servers: a CI machine runs everything as root (JupyterLab warns of it).
        "--ServerApp.allow_root=True",
    ]


def lab_env(base: dict[str, str] | None = None, token: str | None = None) -> dict[str, str]:
    """The environment for JupyterLab: as for Voilà (calijack's Voilà settings and template, so
    the Voilà preview shows a lesson as learners see it), with the token if any."""
    return voila_env(base, token=token)


def lab_url(port: int, token: str, ip: str = HOST) -> str:
    """The address to open: JupyterLab, signed in by its token."""
    return f"http://{ip}:{port}/lab?token={token}"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m calijack.serve.lab", description=__doc__.split("\n")[0])
    parser.add_argument("--notebooks", type=Path, default=Path("notebooks"),
                        help="the folder JupyterLab opens (default: notebooks)")
    parser.add_argument("--port", type=int, default=8888, help="the port on 127.0.0.1 (default: 8888)")
    return parser.parse_args(argv)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.notebooks.is_dir():
        print(f"calijack lab: {args.notebooks} is not a folder of notebooks.", file=sys.stderr)
        return 2
    token = secrets.token_hex(24)
    process = subprocess.Popen(lab_command(args.notebooks, args.port), env=lab_env(token=token),
                               stdin=subprocess.DEVNULL, start_new_session=True)
    signal.signal(signal.SIGTERM, _interrupt)  # as Ctrl-C: the server stops below
    try:
        if wait_for_http(f"http://{HOST}:{args.port}/{LAB_PROBE}", 120, process):
            print(f"\nJupyterLab over {args.notebooks.resolve()}: open {lab_url(args.port, token)}"
                  "\n(Ctrl-C stops it.)\n", flush=True)
        return process.wait()
    except KeyboardInterrupt:
        return 0
    finally:
        stop_process_group(process)


if __name__ == "__main__":
    sys.exit(main())
