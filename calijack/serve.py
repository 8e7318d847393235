"""Serve the built book and the Voilà lessons, on this machine only (127.0.0.1).

    python -m calijack.serve --book _build/html --book-port 8000 --voila-port 8866

- The book: the static site in ``--book``, served as a real host serves it (gzip, MIME
  types, cache headers: :mod:`calijack.static_server`).
- The lessons: Voilà over the ``--notebooks`` folder (tree mode), with a pool of pre-heated
  kernels for every notebook in it (Voilà 0.5 pre-heats each notebook found under its root
  folder when it is given a folder), idle kernels culled, and calijack's Voilà template,
  which loads nothing from another host.

Ctrl-C (or SIGTERM) stops both; Voilà shuts its kernels down first.

The helpers :func:`voila_command` and :func:`voila_env` are the one place that says how
calijack runs Voilà; the browser tests use them too.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from calijack.static_server import make_server

HOST = "127.0.0.1"
# calijack's Voilà template (calijack/jupyter_data/voila/templates/calijack): the "lab"
# template without its links to cdn.jsdelivr.net (Font Awesome, which Voilà also bundles).
JUPYTER_DATA = Path(__file__).resolve().parent / "jupyter_data"
VOILA_TEMPLATE = "calijack"
# JupyterLab extensions installed in the environment that Voilà must not load in its page:
# jupyterlab-jupytext (comes with jupytext) throws "The getter for the shared module is not
# a function" (@jupyterlab/docmanager is not shared by Voilà's front end). It is a JupyterLab
# editor extension and has nothing to do in a lesson.
VOILA_EXTENSION_DENYLIST = ("jupyterlab-jupytext",)
# A static file of Voilà's front end: it answers (HEAD) as soon as Voilà listens, without
# starting a kernel.
VOILA_PROBE = "voila/static/voila.js"


def voila_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for a Voilà process: calijack's template folder first on JUPYTER_PATH."""
    env = dict(os.environ if base is None else base)
    paths = [str(JUPYTER_DATA)]
    if env.get("JUPYTER_PATH"):
        paths.append(env["JUPYTER_PATH"])
    env["JUPYTER_PATH"] = os.pathsep.join(paths)
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


def voila_command(
    target: str | os.PathLike,
    port: int,
    *,
    pool_size: int = 0,
    cull_idle_timeout: int = 0,
    cull_interval: int = 60,
    log_level: str | None = None,
    extra_args: Sequence[str] = (),
) -> list[str]:
    """The command line running Voilà on ``target`` (a notebook or a folder) on 127.0.0.1.

    ``pool_size`` > 0 pre-heats that many kernels per notebook (``--preheat_kernel``);
    ``cull_idle_timeout`` > 0 (seconds) shuts down kernels idle that long, checked every
    ``cull_interval`` seconds. The port is fixed (no silent fallback to another one).
    """
    cmd = [
        sys.executable,
        "-m",
        "voila",
        str(target),
        "--no-browser",
        f"--Voila.ip={HOST}",
        f"--port={port}",
        "--Voila.port_retries=0",
        f"--template={VOILA_TEMPLATE}",
        # Folder mode: the server-rendered lesson list (calijack's tree.html), not the
        # JupyterLab one, which loads the widget manager without a kernel and logs errors.
        "--VoilaConfiguration.classic_tree=True",
        *(f"--VoilaConfiguration.extension_denylist={name}" for name in VOILA_EXTENSION_DENYLIST),
    ]
    if pool_size > 0:
        cmd += ["--preheat_kernel=True", f"--pool_size={pool_size}"]
    if cull_idle_timeout > 0:
        cmd += [
            f"--MappingKernelManager.cull_idle_timeout={cull_idle_timeout}",
            f"--MappingKernelManager.cull_interval={cull_interval}",
        ]
    if log_level:
        cmd.append(f"--Voila.log_level={log_level}")
    cmd += list(extra_args)
    return cmd


def wait_for_http(
    url: str,
    timeout: float,
    process: subprocess.Popen | None = None,
    stop: threading.Event | None = None,
) -> bool:
    """True once ``url`` gives any HTTP answer to HEAD; False on timeout, if ``process``
    exits or ``stop`` is set."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            return False
        if stop is not None and stop.is_set():
            return False
        try:
            with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=2):
                return True
        except urllib.error.HTTPError:
            return True
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    return False


def stop_process_group(process: subprocess.Popen, timeout: float = 20) -> None:
    """SIGTERM to the process (its own session), wait, then SIGKILL what is left of the group."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


def _fail(message: str, code: int = 2) -> int:
    print(f"calijack.serve: {message}", file=sys.stderr)
    return code


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m calijack.serve",
        description="Serve the built book and the Voilà lessons on 127.0.0.1.",
    )
    parser.add_argument("--book", type=Path, default=Path("_build/html"),
                        help="the built book (default: _build/html)")
    parser.add_argument("--book-port", type=int, default=8000)
    parser.add_argument("--notebooks", type=Path, default=Path("notebooks"),
                        help="the lessons folder served by Voilà (default: notebooks)")
    parser.add_argument("--voila-port", type=int, default=8866)
    parser.add_argument("--pool-size", type=int, default=1,
                        help="pre-heated kernels kept ready per notebook (0: no pre-heating)")
    parser.add_argument("--cull-idle-timeout", type=int, default=1800,
                        help="seconds after which an idle kernel is shut down (0: never)")
    parser.add_argument("--cull-interval", type=int, default=60,
                        help="seconds between checks for idle kernels")
    parser.add_argument("--voila-log-level", default="WARN",
                        help="Voilà's log level (default: WARN; INFO shows every kernel)")
    parser.add_argument("--startup-timeout", type=float, default=120)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    book = args.book.resolve()
    if not (book / "index.html").is_file():
        return _fail(
            f"the book is not built: {book / 'index.html'} is missing.\n"
            "Build it first with `make book` (or `make serve`, which builds it)."
        )
    notebooks = args.notebooks.resolve()
    if not notebooks.is_dir():
        return _fail(f"the lessons folder {notebooks} does not exist.")
    lessons = sorted(
        p.relative_to(notebooks).as_posix()
        for p in notebooks.rglob("*.ipynb")
        if ".ipynb_checkpoints" not in p.parts
    )

    try:
        book_server = make_server(book, args.book_port, HOST)
    except OSError as exc:
        return _fail(f"cannot serve the book on {HOST}:{args.book_port}: {exc.strerror}.", 1)
    book_thread = threading.Thread(target=book_server.serve_forever, name="book", daemon=True)

    stop = threading.Event()

    def on_signal(signum, frame) -> None:
        stop.set()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)

    cmd = voila_command(
        notebooks,
        args.voila_port,
        pool_size=max(args.pool_size, 0),
        cull_idle_timeout=max(args.cull_idle_timeout, 0),
        cull_interval=max(args.cull_interval, 1),
        log_level=args.voila_log_level,
    )
    # Own session: the terminal's Ctrl-C reaches only us; we stop Voilà with SIGTERM, on
    # which it shuts its kernels down.
    voila = subprocess.Popen(cmd, cwd=notebooks, env=voila_env(), start_new_session=True,
                             stdin=subprocess.DEVNULL)
    book_thread.start()
    code = 0
    try:
        voila_url = f"http://{HOST}:{args.voila_port}/"
        if not wait_for_http(voila_url + VOILA_PROBE, args.startup_timeout, voila, stop):
            if stop.is_set():
                return 0
            if voila.poll() is not None:
                return _fail(f"Voilà exited with code {voila.returncode} (see its log above).", 1)
            return _fail(f"Voilà did not answer on {voila_url} within "
                         f"{args.startup_timeout:.0f} s.", 1)
        book_url = f"http://{HOST}:{book_server.server_address[1]}/"
        pool = (f"{args.pool_size} pre-heated kernel(s) per lesson" if args.pool_size > 0
                else "no pre-heated kernels")
        cull = (f"idle kernels stopped after {args.cull_idle_timeout} s"
                if args.cull_idle_timeout > 0 else "no idle culling")
        print("\ncalijack is being served on this machine only:\n", flush=True)
        print(f"  The book:     {book_url}")
        print(f"  The lessons:  {voila_url}   (Voilà; {pool}; {cull})")
        for name in lessons:
            print(f"                {voila_url}voila/render/{name}")
        if not lessons:
            print(f"                (no notebooks in {notebooks} yet)")
        print("\nPress Ctrl-C to stop both.\n", flush=True)
        while not stop.wait(0.5):
            if voila.poll() is not None:
                code = _fail(f"Voilà stopped unexpectedly (exit code {voila.returncode}).", 1)
                break
    finally:
        print("\ncalijack.serve: stopping…", file=sys.stderr, flush=True)
        stop_process_group(voila)
        book_server.shutdown()
        book_server.server_close()
        book_thread.join(timeout=5)
    return code


if __name__ == "__main__":
    sys.exit(main())
