"""The class service of calijack's JupyterHub: each learner's progress kept under their hub
account, and the teacher's view of the class.

A JupyterHub service (``deploy/jupyterhub/jupyterhub_config.py`` starts it with the hub;
``deploy/z2jh/values.yaml`` in the hub's pod). One job a module:

- :mod:`calijack.classsvc.store`: the learners' documents in a database (SQLAlchemy);
- :mod:`calijack.classsvc.summary`: a learner's row of the teacher's table;
- :mod:`calijack.classsvc.review`: a learner's deal reviewed for the teacher, in a process of its own;
- :mod:`calijack.classsvc.app`: the pages and the API, behind the hub's own authentication
  (the teacher's, and each learner's own page with their Reset).

    python -m calijack.classsvc [--db URL]

runs it as the hub runs a managed service: it listens where ``JUPYTERHUB_SERVICE_URL`` says and
serves under ``JUPYTERHUB_SERVICE_PREFIX``. The database is ``--db``, else the
``CALIJACK_CLASS_DB`` environment variable (any SQLAlchemy URL), else
``calijack-class.sqlite`` in the working folder (the hub's state folder). Not in the wheel: it
needs JupyterHub, which only the hub's environment has.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from urllib.parse import urlparse

DB_ENV = "CALIJACK_CLASS_DB"
DEFAULT_DB = "calijack-class.sqlite"


def db_url(given: str | None = None, env=None) -> str:
    """The database: ``given``, else $CALIJACK_CLASS_DB, else SQLite in the working folder."""
    env = os.environ if env is None else env
    return given or env.get(DB_ENV) or f"sqlite:///{Path(DEFAULT_DB).resolve()}"


def main(argv=None) -> int:
    from tornado.ioloop import IOLoop

    from .app import make_app
    from .store import Store

    parser = argparse.ArgumentParser(prog="python -m calijack.classsvc", description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=None, help=f"SQLAlchemy URL (default ${DB_ENV}, else ./{DEFAULT_DB})")
    parser.add_argument("--listen", default=None, metavar="ADDRESS",
                        help="the address to listen on (default: the host of $JUPYTERHUB_SERVICE_URL; "
                             "0.0.0.0 in the hub's pod, where that host is the hub's Kubernetes service)")
    args = parser.parse_args(argv)
    bind = urlparse(os.environ.get("JUPYTERHUB_SERVICE_URL", "http://127.0.0.1:10101"))
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/calijack-class/")
    hub = os.environ.get("JUPYTERHUB_BASE_URL", "/") + "hub/"
    app = make_app(Store(db_url(args.db)), prefix, hub)
    from ..progress import MAX_CHARS

    # A document is ASCII; a body past four bytes a character is refused before it is read whole.
    app.listen(bind.port, args.listen or bind.hostname, xheaders=True, max_body_size=4 * MAX_CHARS + 4096)
    IOLoop.current().start()
    return 0
