"""calijack's JupyterHub on one machine: each learner logs in and lands on the sandbox in Voilà.

``make hub`` starts it through ``hub.py``, which checks the teacher's settings and hands them over
in ``CALIJACK_HUB_*`` variables (read back here with ``hub.Settings.from_env``). The book's
page "Teaching with calijack" (``book/teaching.md``) says when to use it and what it gives.

- **Logins**: the learners named in a plain list, each choosing a password at the first login
  (``FirstUseAuthenticator``, which creates no account that is not on the list), and the teacher.
  No shared password, no open sign-up: a name not on the list gets the login page's refusal.
- **The teacher** has the admin page (who is there, whose server runs; start and stop servers)
  through the ``teacher`` role, but is *not* a JupyterHub admin, deliberately: the built-in
  admin role holds ``access:servers`` (open any learner's server) and ``tokens`` (act as any
  learner), and ``admin:users`` would let a teacher rename or re-create a learner and log in
  under that name. Nobody is an admin; a password is reset at the machine (``hub.py forget``).
- **The teacher's own server** opens in JupyterLab (``_prepare``: the teacher's role, marked for
  ``singleuser/jupyter_server_config.py``), over the teacher's copies of the lessons, which the
  next start keeps; a learner's server is Voilà only, and writes none of its files.
- **A server per learner**: ``SimpleLocalProcessSpawner`` starts each learner's Jupyter server
  (Voilà as its extension, with calijack's configuration: ``singleuser/``) as a process of its
  own, in a folder of its own, listening on 127.0.0.1, reached only through the proxy and only
  by its owner (the hub's OAuth). It gives no isolation below that: every server runs as the
  hub's own Unix user, so a learner who runs code in their kernel (Voilà's page runs none, but
  the kernel's websocket takes any message) can read the hub's files. Fine for a class on a
  teacher's machine; for learners who may try, use a spawner that gives each learner a Unix
  user and limits (``systemdspawner.SystemdSpawner``: users made by The Littlest JupyterHub, or
  on the fly with ``dynamic_users = True``; systemd's memory and processor limits) or a
  container (Zero to JupyterHub: ``deploy/z2jh``).
- **The class service** (``calijack.classsvc``, a service the hub starts and stops): each
  learner's progress kept under their account in a database (SQLite in the state folder), the
  lesson pages syncing to it, and the teacher's page of the class, in the hub's Services menu.
  Only the teacher's role holds its scope ``custom:calijack-class:teacher``. ``hub.py
  --no-class-service`` leaves it out (and its scopes, and the pages' sync), for comparison.
- **Idle servers stop**: ``jupyterhub-idle-culler``, as a hub service, stops a learner's server
  idle for ``cull_timeout`` seconds; logging out stops it at once.
"""

import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from hub import PASSWORDS, PROXY, Settings, read_learners  # noqa: E402  (beside this file)

from calijack.classsvc.app import NAME as CLASS, TEACHER_SCOPE  # noqa: E402
from calijack.serve import SANDBOX, free_port  # noqa: E402

c = get_config()  # noqa: F821 - defined by traitlets' config loader

settings = Settings.from_env()
_refused = settings.refusal()
if _refused:
    raise SystemExit(f"calijack hub: {_refused}")
STATE = settings.state
LEARNERS = read_learners(settings.learners)
TEACHER = settings.teacher

# -- Where it listens ---------------------------------------------------------------------------
# The proxy takes the learners' requests: 127.0.0.1, or the network over HTTPS only (hub.py
# refuses anything else). The hub's API, the proxy's API and the learners' servers stay on
# 127.0.0.1, on ports of their own.
c.JupyterHub.bind_url = settings.bind_url
if settings.network:
    c.JupyterHub.ssl_cert = settings.ssl_cert
    c.JupyterHub.ssl_key = settings.ssl_key
    c.JupyterHub.public_url = settings.public_url
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{settings.api_port}"
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{settings.proxy_api_port}"
c.ConfigurableHTTPProxy.command = [str(PROXY)]  # npm configurable-http-proxy, pinned (package-lock.json)
c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.JupyterHub.cleanup_servers = True  # the hub stopped, every learner's server stops too

# -- Who gets in -------------------------------------------------------------------------------
c.JupyterHub.authenticator_class = "firstuseauthenticator.FirstUseAuthenticator"
c.FirstUseAuthenticator.create_users = False  # a name not in the hub's list is refused
c.FirstUseAuthenticator.dbm_path = str(STATE / PASSWORDS)
c.Authenticator.allowed_users = {*LEARNERS, TEACHER}
c.Authenticator.allow_all = False
c.Authenticator.allow_existing_users = False  # the list is the truth: a name taken off it is out
c.Authenticator.admin_users = set()  # see the teacher's role
c.Authenticator.username_pattern = r"^[a-z0-9][a-z0-9._-]{0,39}$"  # hub.NAME: a name is a folder

# ``hub.py --no-class-service`` (settings.class_service 0): no class service, nor its scopes, nor
# the lesson pages' sync (bench/hub.py compares the hub with and without it).
CLASS_ON = bool(settings.class_service)
CLASS_SCOPES = [f"access:services!service={CLASS}"] if CLASS_ON else []
c.JupyterHub.custom_scopes = {
    TEACHER_SCOPE: {"description": "The class's progress: every learner's row, their last deals, the CSV; "
                                   "removing one learner's data."},
} if CLASS_ON else {}
c.JupyterHub.load_roles = [
    {
        "name": "user",  # everyone signed in: their own things, and their own progress in the class service
        "description": "Standard user privileges, and one's own progress kept by the class service.",
        "scopes": ["self", *CLASS_SCOPES],
    },
    {
        "name": "teacher",
        "description": "The admin page: who is there and whose server runs; start and stop them; the class's progress.",
        # No access:servers, tokens, admin:users or shares: no way into a learner's server.
        "scopes": ["admin-ui", "list:users", "read:users", "servers",
                   *CLASS_SCOPES, *([TEACHER_SCOPE] if CLASS_ON else [])],
        "users": [TEACHER],
    },
    {
        "name": "idle-culler",
        "description": "Stop learners' servers left idle.",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    },
]


def _landing(handler):
    """The teacher lands on the admin page; a learner (None) on their own server, started at once."""
    user = handler.current_user
    return "/hub/admin" if user is not None and user.name == TEACHER else None


c.JupyterHub.default_url = _landing
c.JupyterHub.shutdown_on_logout = True

# -- Each learner's server ---------------------------------------------------------------------
c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
c.SimpleLocalProcessSpawner.home_dir_template = str(STATE / "learners" / "{username}")
# singleuser/start.py: JupyterHub's single-user server, configured by singleuser/ (Voilà alone,
# with calijack's lesson settings), with calijack's Voilà folders; this environment's Python.
c.Spawner.cmd = [sys.executable, str(HERE / "singleuser" / "start.py")]
c.Spawner.default_url = f"/voila/render/{SANDBOX}"
c.Spawner.environment = {
    "CALIJACK_HUB_HOST_NAME": settings.host_name,  # for the Host check
}
if CLASS_ON:  # the lesson pages sync the learner's progress with the class service, on the hub's origin
    c.Spawner.environment["CALIJACK_CLASS_URL"] = f"/services/{CLASS}/"
# Two settings of the sandbox pass from the hub's environment to each learner's kernel, when
# set (the tests shorten both): CALIJACK_SANDBOX_DELAY, the seconds the computer pauses before
# its card, and CALIJACK_REVIEW_SAMPLES, the guesses the coach takes per play.
c.Spawner.env_keep.extend(["CALIJACK_SANDBOX_DELAY", "CALIJACK_REVIEW_SAMPLES"])
# The learner's folder holds no configuration that counts.
c.Spawner.disable_user_config = True
# Thirty servers starting at once on two cores take a while: slow is slow, not failed.
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 180

_LESSONS = HERE.parents[1] / "notebooks"  # the repository's lessons


LAB_ROLE = "teacher"  # the role whose holders' own servers are JupyterLab too (see below)


def opens_lab(spawner) -> bool:
    """Whether ``spawner``'s user holds the teacher's role: their server offers JupyterLab."""
    return any(role.name == LAB_ROLE for role in spawner.user.roles)


def _prepare(spawner):
    """A learner gets a fresh copy of the lessons: what their server holds stays theirs.

    The teacher's own server is JupyterLab as well (singleuser/jupyter_server_config.py reads
    ``CALIJACK_SERVER_LAB``) and opens on it, over the teacher's copies of the lessons: the lessons
    the teacher does not have yet are copied in, the ones being adapted are kept. A learner's
    server stays Voilà only."""
    home = Path(spawner.home_dir)
    home.mkdir(parents=True, exist_ok=True)
    teacher = opens_lab(spawner)
    for lesson in _LESSONS.glob("*.ipynb"):
        if not (teacher and (home / lesson.name).exists()):
            shutil.copyfile(lesson, home / lesson.name)
    if teacher:
        spawner.default_url = "/lab"
        spawner.environment = {**spawner.environment, "CALIJACK_SERVER_LAB": "1"}


c.Spawner.pre_spawn_hook = _prepare

# -- Idle servers ----------------------------------------------------------------------------------
# The hub learns of a learner's activity from their server and from the proxy, every few minutes
# by default: at least four times per idle timeout here, so that the culler, which decides on
# what the hub knows, takes no learner still playing for idle.
ACTIVITY_INTERVAL = max(1, min(300, settings.cull_timeout // 4))
c.Spawner.environment["JUPYTERHUB_ACTIVITY_INTERVAL"] = str(ACTIVITY_INTERVAL)
c.JupyterHub.last_activity_interval = ACTIVITY_INTERVAL
_CULLER = {
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler",
                f"--timeout={settings.cull_timeout}", f"--cull-every={settings.cull_every}"],
}
_CLASS_SERVICE = {
    # The class service (calijack/classsvc/): started and stopped with the hub, reached at
    # /services/calijack-class/ through the proxy, listed in the hub's Services menu.
    "name": CLASS,
    "url": f"http://127.0.0.1:{settings.class_port or free_port()}",
    "command": [sys.executable, "-m", "calijack.classsvc",
                "--db", f"sqlite:///{STATE / 'calijack-class.sqlite'}"],
    "cwd": str(STATE),
    "display": True,
    "info": {"description": "The class's progress, for the teacher"},
    "oauth_no_confirm": True,  # the hub's own service: no "authorize this application?" page
    # The teacher's token carries the teacher's scope; a learner's has none of it.
    "oauth_client_allowed_scopes": [TEACHER_SCOPE],
}
c.JupyterHub.services = [_CULLER, _CLASS_SERVICE] if CLASS_ON else [_CULLER]
