"""calijack's Voilà configuration: the lessons, locked down and ready for a classroom.

Voilà reads ``voila.py`` and ``voila.json`` from the folder it is started in and from each
folder of ``jupyter --paths`` "config" (``JUPYTER_CONFIG_PATH`` first, then the environment's
``etc/jupyter``). ``calijack.serve.voila_env`` puts this folder on ``JUPYTER_CONFIG_PATH``
(``make serve``, the tests, the benchmarks), and ``make env`` puts a ``voila.py`` that loads
this file in the environment's ``etc/jupyter``, so a plain ``voila notebooks/…`` runs the same
way. (Not a ``voila.py`` at the top of the repository: ``python -m voila`` started there would
import it instead of Voilà.) Command-line options still win.
"""

import os
from pathlib import Path

c = get_config()  # noqa: F821 - defined by traitlets' config loader

# calijack's template (calijack/serve/jupyter_data/voila/templates/calijack): Voilà looks for
# templates on JUPYTER_PATH only, so this folder goes first on it, for Voilà and its kernels.
_data = str(Path(__file__).resolve().parent.parent / "jupyter_data")
_paths = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]
if _data not in _paths:
    os.environ["JUPYTER_PATH"] = os.pathsep.join([_data, *_paths])

c.VoilaConfiguration.template = "calijack"
# Folder mode: the server-rendered lesson list (calijack's tree.html), not JupyterLab's.
c.VoilaConfiguration.classic_tree = True
# jupyterlab-jupytext (from jupytext) throws in Voilà's page: an editor extension, not a lesson's.
c.VoilaConfiguration.extension_denylist = ["jupyterlab-jupytext"]

# -- Locked down ------------------------------------------------------------------------------
# Voilà turns Jupyter's Host check off (allow_remote_access=True): turned back on, a request
# whose Host is not this machine (127.0.0.1, ::1, localhost, or a name given with
# calijack.serve --host-name) gets 403, so a DNS-rebinding page cannot drive the lessons.
c.Voila.tornado_settings = {"allow_remote_access": False, "local_hostnames": ["localhost"]}
# No tracebacks reach the page: not from the notebook's cells, nor from the kernel afterwards.
c.VoilaConfiguration.show_tracebacks = False
c.MappingKernelManager.allow_tracebacks = False
c.MappingKernelManager.traceback_replacement_message = (
    "Something went wrong in the lesson. Reload the page to start again.")
c.VoilaExecutor.cell_error_instruction = "Reload the page to start the lesson again."
# A token (calijack.serve --token, or JUPYTER_TOKEN): read here and taken out of the
# environment, so the kernels Voilà starts do not inherit it.
if os.environ.get("JUPYTER_TOKEN"):
    c.Voila.token = os.environ.pop("JUPYTER_TOKEN")
c.Voila.identity_provider_class = "calijack.serve.classroom.LessonIdentityProvider"
# The login page asks for the token only (no "set a password" form: a learner has no use for it).
c.LessonIdentityProvider.allow_password_change = False

# -- A slow lesson is slow, never silently empty ------------------------------------------------
# nbclient waits 4 s by default for a cell's output after the kernel has answered, then goes on
# without it: under load the sandbox's cell came back empty. Wait long, and if even that runs
# out, the cell shows cell_timeout_instruction below instead of being left out in silence.
c.VoilaExecutor.iopub_timeout = 180
c.VoilaExecutor.raise_on_iopub_timeout = True
c.VoilaExecutor.timeout = 300
c.VoilaExecutor.startup_timeout = 180
c.MappingKernelManager.kernel_info_timeout = 180
c.VoilaExecutor.cell_timeout_instruction = "The lesson took too long to start: reload the page."
# Cells tagged "book-only" (the sandbox lesson's precomputed sample game: half its widgets) are
# for the static book; the template already hides them, so Voilà does not run them either.
c.VoilaExecutor.skip_cells_with_tag = "book-only"

# -- Kernels: a cap, and none left behind ------------------------------------------------------
c.VoilaConfiguration.multi_kernel_manager_class = "calijack.serve.classroom.LessonKernelManager"
c.LessonKernelManager.max_learners = 40
c.MappingKernelManager.cull_idle_timeout = 600  # no page connected: 10 minutes
c.LessonKernelManager.cull_connected_timeout = 3600  # a page open but idle: an hour
c.MappingKernelManager.cull_interval = 60
c.LessonKernelManager.page_connect_timeout = 60  # a page still loading keeps its kernel a minute
# A dead kernel is not restarted: the new one would hold none of the page's widgets. The page
# is told it died ("the lesson lost its connection — reload") and its seat is freed.
c.KernelRestarter.restart_limit = 0
