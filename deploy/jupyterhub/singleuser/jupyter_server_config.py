"""A learner's server under calijack's JupyterHub: Voilà and nothing else, run as the lessons run.

Every learner's server starts through ``start.py`` beside this file (on one machine and in the
Zero to JupyterHub image alike), which puts this folder on ``JUPYTER_CONFIG_PATH``: the
single-user server (``jupyterhub-singleuser``, a Jupyter server) reads this file.

Voilà runs here as the server's extension, not as its own application: its page, executor and
kernels take their settings from the *server's* configuration. So calijack's Voilà settings
(``calijack/serve/jupyter_config/voila.py``: the template, no tracebacks, the timeouts, the kernel rules)
are loaded into it from that one file, and the few that belong to Voilà's own application are
carried over to the server here: the kernel manager and the Host check.

The teacher's own server (the hub's ``teacher`` role: the hub sets ``CALIJACK_SERVER_LAB=1`` for
it alone) is JupyterLab as well, where the teacher opens a lesson's notebook to adapt it. A
learner's server is Voilà only: no JupyterLab, and its notebooks cannot be written (see
``LessonsOnly``).
"""

import os

from jupyter_core.paths import jupyter_config_path
from jupyter_server.extension.config import ExtensionConfigManager
from jupyterhub.singleuser.extension import JupyterHubAuthorizer

from calijack.serve import JUPYTER_CONFIG

c = get_config()  # noqa: F821 - defined by traitlets' config loader

# The same settings file as `make serve` (it also puts calijack's template folder on JUPYTER_PATH).
load_subconfig("voila.py", str(JUPYTER_CONFIG))  # noqa: F821 - defined by traitlets' config loader

# The teacher's own server, given JupyterLab by the hub (jupyterhub_config.py's _prepare).
TEACHER = os.environ.get("CALIJACK_SERVER_LAB") == "1"

# The kernel rules (calijack.serve.classroom): idle kernels go, a page whose kernel is stopped is
# told. The teacher's kernels are JupyterLab's, with their tracebacks: a lesson being adapted.
if TEACHER:
    c.MappingKernelManager.allow_tracebacks = True
else:
    c.ServerApp.kernel_manager_class = c.VoilaConfiguration.multi_kernel_manager_class

# The Host check: a request naming a host other than this machine (or the hub's name, given by
# the hub) gets 403. JupyterHub turns the server's own check off; tornado_settings win over it.
_host_check = dict(c.Voila.tornado_settings)
_name = os.environ.get("CALIJACK_HUB_HOST_NAME", "")
_host_check["local_hostnames"] = [*_host_check["local_hostnames"], *([_name] if _name else [])]
# And no MathJax from cdnjs: Voilà's own application leaves its MathJax address unset (None), so
# its page loads none; as a server's extension the page falls back to cdnjs unless the server's
# settings carry the same None.
c.ServerApp.tornado_settings = {**_host_check, "mathjax_url": None, "mathjax_config": None}

# Voilà and nothing else: no JupyterLab, no terminal, no editor extension at the learner's URL.
# The teacher's server keeps JupyterLab and what it brings; no terminal there either.
_KEPT = ("voila", "jupyterhub", *(("jupyterlab", "jupyter_lsp", "notebook_shim") if TEACHER else ()))
_extensions = ExtensionConfigManager(read_config_path=jupyter_config_path()).get_jpserver_extensions()
c.ServerApp.jpserver_extensions = {name: False for name in _extensions if not name.startswith(_KEPT)}
c.ServerApp.terminals_enabled = False


class LessonsOnly(JupyterHubAuthorizer):
    """A learner's server: the hub's check of who may use it, and no writing of its files (the
    server's file API would otherwise save, rename or delete the lessons in the learner's folder)."""

    def is_authorized(self, handler, user, action, resource):
        if resource == "contents" and action == "write":
            return False
        return super().is_authorized(handler, user, action, resource)


if not TEACHER:
    c.ServerApp.authorizer_class = LessonsOnly

# A learner's server runs as the hub's Unix user (SimpleLocalProcessSpawner): as root when the hub
# is run as root, which `make hub` warns about (CI machines run everything as root).
c.ServerApp.allow_root = True
