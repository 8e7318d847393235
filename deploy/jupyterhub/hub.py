"""Start calijack's JupyterHub on this machine: ``make hub`` runs this file.

    python deploy/jupyterhub/hub.py --learners learners.txt [--teacher NAME] [--port 8800]
        [--state .hub] [--host-name NAME --ssl-cert FILE --ssl-key FILE [--listen ADDRESS]]
        [--no-class-service]

It checks what the teacher gave (the list of learners, where to listen), says in one line what
is wrong if anything is, then runs ``jupyterhub -f deploy/jupyterhub/jupyterhub_config.py`` with
the settings in its environment (``CALIJACK_HUB_*``). The configuration reads them back with
:meth:`Settings.from_env` and checks them again, so a hub started with ``jupyterhub -f`` by hand
refuses the same things. The hub listens on 127.0.0.1 only, unless it is given the name
learners type and an HTTPS certificate and key: then on the network (``--listen``, 0.0.0.0 by
default), over HTTPS only.

``hub.py forget NAME`` forgets a learner's password (they choose a new one at their next login):
what a teacher does for a learner who forgot theirs, at the machine, since the web pages give
nobody that power (see ``jupyterhub_config.py``).
"""

from __future__ import annotations

import argparse
import dataclasses
import dbm
import os
import re
import socket
import sys
from collections.abc import Sequence
from pathlib import Path

from calijack.serve import free_port

HERE = Path(__file__).resolve().parent
LOOPBACK = "127.0.0.1"
PROXY = HERE / "node_modules" / ".bin" / "configurable-http-proxy"
# A name is a folder of the state directory and part of every URL of its server: lower-case
# letters, digits, ".", "_" and "-", starting with a letter or a digit (JupyterHub lower-cases
# what learners type at the login, so the list is lower-cased too).
NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,39}")
PASSWORDS = "passwords.dbm"  # FirstUseAuthenticator's file of password hashes, in the state folder
_ENV = "CALIJACK_HUB_"


class Refused(ValueError):
    """The hub will not start with these settings (the message says why, in one line)."""


@dataclasses.dataclass
class Settings:
    """What ``make hub`` was given; every path absolute."""

    learners: Path
    teacher: str = "teacher"
    state: Path = Path(".hub")
    port: int = 8800
    listen: str = LOOPBACK
    host_name: str = ""
    ssl_cert: str = ""
    ssl_key: str = ""
    cull_timeout: int = 3600  # seconds a learner's server may sit idle before the culler stops it
    cull_every: int = 300  # seconds between the culler's rounds
    api_port: int = 0  # the hub's own API and the proxy's API: 127.0.0.1, a free port if 0
    proxy_api_port: int = 0
    class_port: int = 0  # the class service (calijack.classsvc): 127.0.0.1, a free port if 0
    class_service: int = 1  # 0: the hub runs without the class service (bench/hub.py compares the two)

    @property
    def network(self) -> bool:
        """True when the hub listens beyond this machine."""
        return self.listen not in (LOOPBACK, "localhost", "::1")

    @property
    def public_url(self) -> str:
        """The address learners type."""
        if self.network:
            return f"https://{self.host_name}:{self.port}/"
        return f"http://{LOOPBACK}:{self.port}/"

    @property
    def bind_url(self) -> str:
        """Where the proxy listens (JupyterHub's ``bind_url``)."""
        if self.network:
            return f"https://{self.listen}:{self.port}/"
        return f"http://{LOOPBACK}:{self.port}/"

    def refusal(self) -> str | None:
        """Why the hub may not start like this (None: it may)."""
        if self.network or self.host_name or self.ssl_cert or self.ssl_key:
            missing = [flag for flag, value in (("--host-name", self.host_name),
                                                ("--ssl-cert", self.ssl_cert),
                                                ("--ssl-key", self.ssl_key)) if not value]
            if missing:
                return ("the hub listens on the network only over HTTPS, under the name learners "
                        f"type: add {', '.join(missing)} (make hub: HUB_NAME, HUB_CERT, HUB_KEY), "
                        "or none of them for 127.0.0.1 only.")
            for flag, path in (("--ssl-cert", self.ssl_cert), ("--ssl-key", self.ssl_key)):
                if not Path(path).is_file():
                    return f"{flag} {path}: no such file."
        if not NAME.fullmatch(self.teacher):
            return f"--teacher {self.teacher!r}: {_name_rule()}"
        if self.cull_timeout < 1 or self.cull_every < 1:
            return "the culler's timeout and interval are seconds, at least 1."
        try:
            learners = read_learners(self.learners)
        except Refused as refused:
            return str(refused)
        if self.teacher in learners:
            return f"{self.teacher!r} is the teacher's name and also in {self.learners}: use another."
        return None

    def to_env(self) -> dict[str, str]:
        """The settings as environment variables, for ``jupyterhub_config.py``."""
        return {_ENV + field.name.upper(): str(getattr(self, field.name))
                for field in dataclasses.fields(self)}

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        """The settings ``to_env`` wrote (defaults for the ones missing, but no list of learners)."""
        env = os.environ if env is None else env
        values = {}
        for field in dataclasses.fields(cls):
            raw = env.get(_ENV + field.name.upper())
            if raw is None:
                continue
            values[field.name] = int(raw) if field.type == "int" else raw
        values["learners"] = Path(values.get("learners", "")).resolve()
        values["state"] = Path(values.get("state", cls.state)).resolve()
        return cls(**values)


def _name_rule() -> str:
    return ("a name is 1 to 40 lower-case letters, digits, '.', '_' or '-', starting with a letter "
            "or a digit.")


def read_learners(path: Path) -> list[str]:
    """The learners' names in ``path``: one a line; blank lines and ``#`` comments are skipped,
    names are lower-cased, repeats kept once. Raises :class:`Refused` with the line at fault."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise Refused(f"no list of learners at {path}: write one name a line there "
                      "(or give another file with --learners).") from None
    except (OSError, UnicodeDecodeError) as error:
        raise Refused(f"cannot read the list of learners {path}: {error}.") from None
    names: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        name = line.split("#", 1)[0].strip().lower()
        if not name:
            continue
        if not NAME.fullmatch(name):
            raise Refused(f"{path}, line {number}: {line.strip()[:60]!r} is not a name: {_name_rule()}")
        if name not in names:
            names.append(name)
    if not names:
        raise Refused(f"{path} names no learner: write one name a line.")
    return names


def port_taken(address: str, port: int) -> bool:
    """True if something already listens on ``address``:``port`` (then the proxy could not).

    With ``SO_REUSEADDR``, as the proxy itself listens: the connections a hub stopped a moment
    ago leaves waiting (TIME_WAIT) do not keep it from starting again on its port."""
    with socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((address, port))
        except OSError:
            return True
    return False


def forget(state: Path, name: str) -> str:
    """Forget ``name``'s password: their next login sets a new one. Returns what was done."""
    try:
        with dbm.open(str(state / PASSWORDS), "w") as passwords:
            if name.encode() not in passwords:
                return f"{name} has no password yet: their first login sets it."
            del passwords[name.encode()]
    except dbm.error:
        return f"no passwords in {state}: nobody has logged in yet."
    return f"{name}'s password is forgotten: their next login sets a new one."


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The options of ``hub.py`` (``make hub`` passes them from its variables)."""
    parser = argparse.ArgumentParser(prog="deploy/jupyterhub/hub.py",
                                     description="Start calijack's JupyterHub on this machine.")
    parser.add_argument("--state", type=Path, default=Path(".hub"),
                        help="folder of the hub's database, passwords and learners' folders (default .hub)")
    sub = parser.add_subparsers(dest="command")
    forget_ = sub.add_parser("forget", help="forget a learner's password (their next login sets a new one)")
    forget_.add_argument("name")
    parser.add_argument("--learners", type=Path, default=Path("learners.txt"),
                        help="the learners' names, one a line (default learners.txt)")
    parser.add_argument("--teacher", default="teacher", help="the teacher's account (default: teacher)")
    parser.add_argument("--port", type=int, default=8800, help="the port learners use (default 8800)")
    parser.add_argument("--listen", default=None, metavar="ADDRESS",
                        help="address to listen on (default 127.0.0.1; with --host-name: 0.0.0.0)")
    parser.add_argument("--host-name", default="", metavar="NAME", help="the name learners type")
    parser.add_argument("--ssl-cert", default="", metavar="FILE", help="HTTPS certificate for that name")
    parser.add_argument("--ssl-key", default="", metavar="FILE", help="its private key")
    parser.add_argument("--cull-timeout", type=int, default=3600,
                        help="seconds before an idle learner's server is stopped (default 3600)")
    parser.add_argument("--cull-every", type=int, default=300,
                        help="seconds between checks for idle servers (default 300)")
    parser.add_argument("--no-class-service", action="store_true",
                        help="run without the class service: no progress kept on the hub, no teacher's "
                             "page of the class (for comparison: bench/hub.py --class-service both)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Check the settings, then run JupyterHub (in the state folder) in place of this process."""
    args = parse_args(argv)
    state = args.state.resolve()
    if args.command == "forget":
        print(forget(state, args.name.lower()))
        return 0
    settings = Settings(
        learners=args.learners.resolve(), teacher=args.teacher.lower(), state=state, port=args.port,
        listen=args.listen or ("0.0.0.0" if args.host_name else LOOPBACK), host_name=args.host_name,
        ssl_cert=str(Path(args.ssl_cert).resolve()) if args.ssl_cert else "",
        ssl_key=str(Path(args.ssl_key).resolve()) if args.ssl_key else "",
        cull_timeout=args.cull_timeout, cull_every=args.cull_every,
        api_port=free_port(), proxy_api_port=free_port(),
        class_port=0 if args.no_class_service else free_port(), class_service=int(not args.no_class_service))
    refused = settings.refusal()
    if refused:
        print(f"make hub: {refused}", file=sys.stderr)
        return 2
    if port_taken(settings.listen, settings.port):
        print(f"make hub: port {settings.port} is in use on {settings.listen}: choose another "
              "(make hub HUB_PORT=…, or --port).", file=sys.stderr)
        return 2
    if not PROXY.exists():
        print(f"make hub: the proxy is not installed ({PROXY}): run `make hub`, which installs it.",
              file=sys.stderr)
        return 2
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        print("make hub: warning: run as root, every learner's server runs as root too; run it as an "
              "ordinary user.", file=sys.stderr)
    state.mkdir(parents=True, exist_ok=True)
    learners = read_learners(settings.learners)
    print(f"\ncalijack's JupyterHub: {settings.public_url}"
          f"{' (this machine only)' if not settings.network else ''}\n"
          f"  {len(learners)} learners from {settings.learners}; each sets a password at the first login.\n"
          f"  The teacher, {settings.teacher}: {settings.public_url}hub/admin\n"
          + (f"  The class's progress, for the teacher: {settings.public_url}services/calijack-class/\n"
             if settings.class_service else "  No class service (--no-class-service): progress stays in each browser.\n")
          + f"  State (database, passwords, learners' folders, the class's progress): {state}\n"
          "Press Ctrl-C to stop the hub and every learner's server.\n", flush=True)
    env = {**os.environ, **settings.to_env()}
    jupyterhub = [sys.executable, "-m", "jupyterhub", "-f", str(HERE / "jupyterhub_config.py")]
    os.chdir(state)  # the culler's and the proxy's files, and nothing left in the repository
    os.execve(sys.executable, jupyterhub, env)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
