"""Serve the built book and the Voilà lessons, on this machine only (127.0.0.1) by default.

    python -m calijack.serve --book _build/html --book-port 8000 --voila-port 8866

``calijack.serve`` is the repository's serving side, not part of the engine: it serves this
checkout's built book and lessons, needs the ``lessons`` extra (Voilà, WhiteNoise, waitress),
and is left out of the wheel. Besides this module: :mod:`calijack.serve.static` (the book's
static server), :mod:`calijack.serve.classroom` (Voilà's kernel rules for a class), and the
Voilà configuration and template in ``jupyter_config/`` and ``jupyter_data/``.

- The book: the static site in ``--book``, served as a real host serves it (Brotli or gzip,
  MIME types, among them ``.wasm`` and ``.mjs`` for the live lessons' Python, cache headers:
  :mod:`calijack.serve.static`).
- The lessons: Voilà over the ``--notebooks`` folder (tree mode), run with calijack's Voilà
  configuration (``calijack/serve/jupyter_config/voila.py``: its template, which loads nothing
  from another host; the Host check; no tracebacks; timeouts; the kernel rules of
  ``calijack.serve.classroom``). This module adds what a class needs: pre-heated kernels (more for
  the sandbox, ``--sandbox-pool``), a cap on lesson pages (``--max-learners``), idle limits,
  a token (``--token``) and, with both a token and a name, the network (``--listen``).

Ctrl-C (or SIGTERM) stops both; Voilà shuts its kernels down first.

The helpers :func:`voila_command` and :func:`voila_env` are the one place that says how
calijack runs Voilà; the browser tests and the benchmarks use them too.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from calijack.extras import require

require("lessons", __name__)

from calijack.serve import static  # noqa: E402 - once the extra is known to be there

HOST = "127.0.0.1"
# calijack's Voilà configuration (calijack/serve/jupyter_config/voila.py): its template, the Host
# check, no tracebacks, the timeouts, the kernel cap and the idle limits. Voilà finds it on
# JUPYTER_CONFIG_PATH; the repository's top-level voila.py loads it too.
JUPYTER_CONFIG = Path(__file__).resolve().parent / "jupyter_config"
# calijack's Voilà template (calijack/serve/jupyter_data/voila/templates/calijack): the "lab"
# template without its links to cdn.jsdelivr.net, with the "lessons are full" page and the
# "lost its connection" notice.
JUPYTER_DATA = Path(__file__).resolve().parent / "jupyter_data"
# A static file of Voilà's front end: it answers (HEAD) as soon as Voilà listens, without
# starting a kernel.
VOILA_PROBE = "voila/static/voila.js"
# The sandbox lesson: it has its own pool of pre-heated kernels (--sandbox-pool).
SANDBOX = "07_sandbox.ipynb"


def _prepend(env: dict[str, str], name: str, folder: Path) -> None:
    paths = [p for p in env.get(name, "").split(os.pathsep) if p]
    if str(folder) not in paths:
        env[name] = os.pathsep.join([str(folder), *paths])


def voila_env(base: dict[str, str] | None = None, token: str | None = None) -> dict[str, str]:
    """The environment for a Voilà process: calijack's configuration first on
    JUPYTER_CONFIG_PATH, its template folder first on JUPYTER_PATH, and the token if any
    (in the environment, not on the command line, where other users of the machine see it)."""
    env = dict(os.environ if base is None else base)
    _prepend(env, "JUPYTER_CONFIG_PATH", JUPYTER_CONFIG)
    _prepend(env, "JUPYTER_PATH", JUPYTER_DATA)
    if token:
        env["JUPYTER_TOKEN"] = token
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


def voila_command(
    target: str | os.PathLike,
    port: int,
    *,
    pool_size: int = 0,
    pool_sizes: dict[str, int] | None = None,
    max_learners: int | None = None,
    cull_idle_timeout: int | None = None,
    cull_connected_timeout: int | None = None,
    cull_interval: int | None = None,
    page_connect_timeout: int | None = None,
    host_names: Sequence[str] = (),
    ip: str = HOST,
    log_level: str | None = None,
    extra_args: Sequence[str] = (),
) -> list[str]:
    """The command line running Voilà on ``target`` (a notebook or a folder) on ``ip``
    (127.0.0.1 unless told otherwise).

    Everything else comes from calijack's Voilà configuration (run it with :func:`voila_env`);
    an option left ``None`` keeps the configuration's value. ``pool_size`` > 0 pre-heats that
    many kernels per notebook, ``pool_sizes`` names lessons with pools of their own (either
    turns pre-heating on); ``max_learners`` caps the lesson pages served at once;
    ``cull_idle_timeout`` and ``cull_connected_timeout`` (seconds) shut down idle kernels with
    no page, and with a page still connected; ``page_connect_timeout`` (seconds) is how long a
    lesson page has to connect to its kernel before that kernel counts as one with no page; ``host_names`` are names besides localhost that
    the Host check lets through. The port is fixed (no silent fallback to another one).
    """
    cmd = [
        sys.executable,
        "-m",
        "voila",
        str(target),
        "--no-browser",
        f"--Voila.ip={ip}",
        f"--port={port}",
        "--Voila.port_retries=0",
    ]
    pools = {name: size for name, size in (pool_sizes or {}).items() if size >= 0}
    if pool_size > 0 or any(pools.values()):
        cmd += ["--preheat_kernel=True", f"--pool_size={max(pool_size, 0)}"]
        cmd += [f"--LessonKernelManager.pool_sizes={name}={size}" for name, size in pools.items()]
    settings = {
        "LessonKernelManager.max_learners": max_learners,
        "MappingKernelManager.cull_idle_timeout": cull_idle_timeout,
        "LessonKernelManager.cull_connected_timeout": cull_connected_timeout,
        "MappingKernelManager.cull_interval": cull_interval,
        "LessonKernelManager.page_connect_timeout": page_connect_timeout,
    }
    cmd += [f"--{name}={value}" for name, value in settings.items() if value is not None]
    if host_names:  # the configuration's Host check, with more names (a Python literal)
        settings_ = {"allow_remote_access": False, "local_hostnames": ["localhost", *host_names]}
        cmd.append(f"--Voila.tornado_settings={settings_!r}")
    if log_level:
        cmd.append(f"--Voila.log_level={log_level}")
    cmd += list(extra_args)
    return cmd


def free_port(host: str = HOST) -> int:
    """A TCP port free on ``host`` now (the system picks it), for a server started next."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


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


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The options of ``python -m calijack.serve``."""
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
    lessons = parser.add_argument_group("the lessons (Voilà)")
    lessons.add_argument("--pool-size", type=int, default=1,
                         help="pre-heated kernels kept ready for each lesson (default 1; 0: none)")
    lessons.add_argument("--sandbox-pool", type=int, default=3,
                         help=f"pre-heated kernels kept ready for the sandbox ({SANDBOX}); for a "
                              "class, about the number of learners (default 3)")
    lessons.add_argument("--max-learners", type=int, default=40,
                         help="lesson pages served at once; past this a newcomer is asked to "
                              "try again in a minute (default 40; 0: no limit)")
    lessons.add_argument("--cull-idle-timeout", type=int, default=600,
                         help="seconds after which an idle kernel with no page open is shut "
                              "down (default 600; 0: never)")
    lessons.add_argument("--cull-connected-timeout", type=int, default=3600,
                         help="seconds after which an idle kernel is shut down although its "
                              "page is still open (default 3600; 0: never)")
    lessons.add_argument("--cull-interval", type=int, default=60,
                         help="seconds between checks for idle kernels")
    lessons.add_argument("--token", nargs="?", const="", default=None, metavar="TOKEN",
                         help="ask for a token before any lesson (a shared machine, a network): "
                              "TOKEN, or $JUPYTER_TOKEN, or a random one; the lesson links "
                              "printed carry it")
    lessons.add_argument("--listen", default=HOST, metavar="ADDRESS",
                         help="address the lessons listen on (default 127.0.0.1: this machine "
                              "only); any other address needs --token and --host-name")
    lessons.add_argument("--host-name", action="append", default=[], metavar="NAME",
                         help="a name learners use to reach this machine (repeatable); other "
                              "Host headers are refused (403)")
    lessons.add_argument("--voila-log-level", default="WARN",
                         help="Voilà's log level (default: WARN; INFO shows every kernel)")
    parser.add_argument("--startup-timeout", type=float, default=120)
    return parser.parse_args(argv)


def lessons_command(args: argparse.Namespace) -> list[str]:
    """The Voilà command ``main`` runs for the lessons, from its parsed options (the load
    benchmark starts the same server)."""
    return voila_command(
        args.notebooks.resolve(),
        args.voila_port,
        pool_size=max(args.pool_size, 0),
        pool_sizes={SANDBOX: max(args.sandbox_pool, 0)},
        max_learners=max(args.max_learners, 0),
        cull_idle_timeout=max(args.cull_idle_timeout, 0),
        cull_connected_timeout=max(args.cull_connected_timeout, 0),
        cull_interval=max(args.cull_interval, 1),
        host_names=args.host_name,
        ip=args.listen,
        log_level=args.voila_log_level,
    )


def lessons_token(args: argparse.Namespace) -> str | None:
    """The token the lessons ask for: --token's value, else $JUPYTER_TOKEN, else a random one;
    None without --token."""
    if args.token is None:
        return None
    return args.token or os.environ.get("JUPYTER_TOKEN") or secrets.token_urlsafe(18)


def _check_listen(args: argparse.Namespace) -> str | None:
    """Why the lessons may not listen where asked (None: they may)."""
    if args.listen in (HOST, "localhost", "::1"):
        return None
    if args.token is None:
        return (f"--listen {args.listen} opens the lessons to the network: add --token, so only "
                "learners given the link get in.")
    if not args.host_name:
        return (f"--listen {args.listen}: add --host-name with the name learners type to reach "
                "this machine (requests naming another host are refused).")
    return None


def _lessons_summary(args: argparse.Namespace) -> str:
    pools = f"{args.sandbox_pool} pre-heated kernel(s) for the sandbox, {args.pool_size} per other lesson"
    cap = f"at most {args.max_learners} pages at once" if args.max_learners > 0 else "no page limit"
    cull = (f"idle kernels stopped after {args.cull_idle_timeout} s, {args.cull_connected_timeout} s "
            "with the page open" if args.cull_idle_timeout > 0 else "no idle culling")
    return f"Voilà; {pools}; {cap}; {cull}"


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the book and the lessons until Ctrl-C."""
    args = parse_args(argv)
    book = args.book.resolve()
    if not (book / "index.html").is_file():
        return _fail(
            f"the book is not built: {book / 'index.html'} is missing.\n"
            "Build it first with `make book` (or `make serve`, which builds it)."
        )
    notebooks = args.notebooks.resolve()
    if not notebooks.is_dir():
        return _fail(f"the lessons folder {notebooks} does not exist.")
    refused = _check_listen(args)
    if refused:
        return _fail(refused)
    lessons = sorted(
        p.relative_to(notebooks).as_posix()
        for p in notebooks.rglob("*.ipynb")
        if ".ipynb_checkpoints" not in p.parts
    )

    try:
        book_server = static.make_server(static.make_app(book), args.book_port, HOST)
    except OSError as exc:
        return _fail(f"cannot serve the book on {HOST}:{args.book_port}: {exc.strerror}.", 1)
    book_thread = threading.Thread(target=book_server.run, name="book", daemon=True)

    stop = threading.Event()

    def on_signal(signum, frame) -> None:
        stop.set()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)

    token = lessons_token(args)
    # Own session: the terminal's Ctrl-C reaches only us; we stop Voilà with SIGTERM, on
    # which it shuts its kernels down.
    voila = subprocess.Popen(lessons_command(args), cwd=notebooks, env=voila_env(token=token),
                             start_new_session=True, stdin=subprocess.DEVNULL)
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
        book_url = f"http://{HOST}:{book_server.effective_port}/"
        public = f"http://{args.host_name[0]}:{args.voila_port}/" if args.listen != HOST else voila_url
        query = f"?token={token}" if token else ""
        where = "on this machine only" if args.listen == HOST else f"on {args.listen}"
        print(f"\ncalijack is being served {where}:\n", flush=True)
        print(f"  The book:     {book_url}")
        print(f"  The lessons:  {public}{query}")
        print(f"                ({_lessons_summary(args)})")
        for name in lessons:
            print(f"                {public}voila/render/{name}{query}")
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
        static.stop(book_server, book_thread)
    return code

