"""What calijack takes from other projects' insides: an upgrade that moves it fails here, by name.

Each check names the calijack file that leans on the internal and fails with a message that
starts ``upstream changed: ``, saying what is gone or different. UPGRADING.md says, for each
pinned dependency, what to check on a bump. (myst-nb's reader and client, which
``book/_ext/execute_ahead.py`` uses, are checked in ``tests/test_book_config.py``.)

No browser, no network. Pyodide's check reads the pinned npm package that ``make lite``
downloads into ``_build/lite-cache`` (``make book``, and so ``make test``, runs it first): it is
marked ``built_book``, so ``make test-fast`` leaves it out; every other check here runs in
``make test-fast``. (What the live lessons' runner takes from ipywidgets and comm is checked
in ``tests/test_live_runner.py``.)
"""

from __future__ import annotations

import importlib.util
import inspect
import re
import weakref
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PREFIX = "upstream changed: "


def parameters(function) -> list[str]:
    return list(inspect.signature(function).parameters)


def check_parameters(name: str, function, wanted: list[str]) -> None:
    """``function`` exists and its parameters begin with ``wanted``."""
    assert function is not None, f"{PREFIX}{name} is gone"
    assert parameters(function)[:len(wanted)] == wanted, f"{PREFIX}{name} takes {parameters(function)}, not {wanted}"


# ---------------------------------------------------------------------------------------------
# Voilà's pre-heated kernels (calijack/serve/classroom.py wraps their private methods)


def voila_preheating_class():
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    return voila_kernel_manager_factory(AsyncMappingKernelManager, True, 1)


def test_voila_pre_heating_still_has_what_the_lesson_server_wraps():
    voila = voila_preheating_class()
    own = voila.__dict__
    for name, wanted in {
        "get_pool_size": ["self", "notebook_name"],
        "get_rendered_notebook": ["self", "notebook_name", "extra_kernel_env_variables", "kwargs"],
        "_initialize": ["self", "notebook_path", "kernel_id", "kwargs"],
        "fill_if_needed": ["self", "delay", "notebook_name"],
    }.items():
        check_parameters(f"Voilà's VoilaKernelManager.{name}", own.get(name), wanted)
    assert inspect.iscoroutinefunction(own["_initialize"]), f"{PREFIX}Voilà's _initialize is no coroutine"
    assert "kernel_pools_config" in voila.class_traits(), f"{PREFIX}Voilà's kernel_pools_config is gone"
    # Its pools: {notebook name: [tasks]}, each task's result {"task": render task, "kernel_id": …},
    # and a learner gets the first task of the list.
    assert "self._pools" in inspect.getsource(own["__init__"]), f"{PREFIX}Voilà keeps no _pools"
    initialize = inspect.getsource(own["_initialize"])
    assert '"task"' in initialize and '"kernel_id"' in initialize, \
        f"{PREFIX}Voilà's _initialize no longer returns {{'task', 'kernel_id', …}}"
    assert re.search(r"self\._pools\[notebook_name\]\.pop\(0\)", inspect.getsource(own["get_rendered_notebook"])), \
        f"{PREFIX}Voilà's get_rendered_notebook no longer hands out the first pooled kernel"


def test_voila_marks_its_pre_heated_kernels_as_the_lesson_server_expects():
    from voila.utils import ENV_VARIABLE

    from calijack.serve import classroom

    assert getattr(ENV_VARIABLE, "VOILA_PREHEAT", None) == classroom._PREHEAT, \
        f"{PREFIX}Voilà's ENV_VARIABLE.VOILA_PREHEAT is not {classroom._PREHEAT!r}"
    assert 'ENV_VARIABLE.VOILA_PREHEAT] = "True"' in inspect.getsource(voila_preheating_class().fill_if_needed), \
        f"{PREFIX}Voilà no longer sets VOILA_PREHEAT=True in a pre-heated kernel's environment"
    import voila.handler

    assert hasattr(voila.handler, "BaseVoilaHandler"), f"{PREFIX}voila.handler.BaseVoilaHandler is gone"


def test_the_lesson_server_wraps_voila_pre_heating_class():
    # LessonKernelManager.__init_subclass__ wraps Voilà's methods only if they are there.
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    from calijack.serve.classroom import LessonKernelManager

    made = voila_kernel_manager_factory(LessonKernelManager, True, 1)
    voila = voila_preheating_class()
    for name in ("get_pool_size", "get_rendered_notebook", "_initialize"):
        wrapped = getattr(made.__dict__.get(name), "__wrapped__", None)
        assert wrapped is not None and wrapped.__qualname__ == voila.__dict__[name].__qualname__, \
            f"{PREFIX}calijack's wrapper of Voilà's {name} is not in place"


# ---------------------------------------------------------------------------------------------
# jupyter_server (calijack/serve/classroom.py)


def test_jupyter_server_still_has_what_the_lesson_server_uses():
    from jupyter_server.services.kernels import kernelmanager
    from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager, ServerKernelManager

    check_parameters("jupyter_server's MappingKernelManager._handle_kernel_died",
                     getattr(AsyncMappingKernelManager, "_handle_kernel_died", None), ["self", "kernel_id"])
    assert "self._handle_kernel_died(kernel_id)" in inspect.getsource(kernelmanager), \
        f"{PREFIX}jupyter_server no longer calls _handle_kernel_died when a kernel dies"
    check_parameters("jupyter_server's cull_kernel_if_idle",
                     getattr(AsyncMappingKernelManager, "cull_kernel_if_idle", None), ["self", "kernel_id"])
    assert '"connections"' in inspect.getsource(AsyncMappingKernelManager.kernel_model), \
        f"{PREFIX}jupyter_server's kernel_model has no 'connections'"
    for trait in ("last_activity", "execution_state"):
        assert trait in ServerKernelManager.class_traits(), f"{PREFIX}jupyter_server's kernels have no {trait}"
    assert isinstance(getattr(ZMQChannelsWebsocketConnection, "_open_sockets", None), (set, weakref.WeakSet)), \
        f"{PREFIX}jupyter_server's ZMQChannelsWebsocketConnection._open_sockets is gone"
    check_parameters("jupyter_server's ZMQChannelsWebsocketConnection._send_status_message",
                     getattr(ZMQChannelsWebsocketConnection, "_send_status_message", None), ["self", "status"])
    assert isinstance(getattr(ZMQChannelsWebsocketConnection, "kernel_id", None), property), \
        f"{PREFIX}jupyter_server's websocket connection has no kernel_id"


def test_jupyterhub_still_checks_a_learners_server_through_the_authorizer_lessons_only_extends():
    """deploy/jupyterhub/singleuser/jupyter_server_config.py's ``LessonsOnly`` subclasses the
    hub's authorizer of a single-user server and refuses contents writes before asking it: the
    class and the method it overrides must still be there, with the same parameters."""
    from jupyter_server.auth import Authorizer
    from jupyterhub.singleuser.extension import JupyterHubAuthorizer

    assert issubclass(JupyterHubAuthorizer, Authorizer), \
        f"{PREFIX}jupyterhub's JupyterHubAuthorizer is no longer a jupyter_server Authorizer"
    check_parameters("jupyterhub's JupyterHubAuthorizer.is_authorized",
                     getattr(JupyterHubAuthorizer, "is_authorized", None), ["self", "handler", "user", "action", "resource"])
    assert "is_authorized" in vars(JupyterHubAuthorizer), \
        f"{PREFIX}jupyterhub's JupyterHubAuthorizer no longer decides is_authorized itself"


# ---------------------------------------------------------------------------------------------
# nbclient (book/_ext/complete_widgets.py replaces NotebookClient.execute for the whole process)


def test_nbclient_still_runs_notebooks_through_what_complete_widgets_wraps():
    import jupyter_cache.executors.utils as cache_executors
    import nbclient
    import nbclient.util
    from nbclient.client import NotebookClient
    from nbclient.exceptions import CellExecutionError

    check_parameters("nbclient's NotebookClient.async_execute", getattr(NotebookClient, "async_execute", None),
                     ["self", "reset_kc"])
    assert inspect.iscoroutinefunction(NotebookClient.async_execute), \
        f"{PREFIX}nbclient's NotebookClient.async_execute is no coroutine"
    assert callable(getattr(NotebookClient, "execute", None)), f"{PREFIX}nbclient's NotebookClient.execute is gone"
    assert callable(getattr(nbclient.util, "run_sync", None)), f"{PREFIX}nbclient.util.run_sync is gone"
    for trait in ("iopub_timeout", "resources"):
        assert trait in NotebookClient.class_traits(), f"{PREFIX}nbclient's NotebookClient has no {trait}"
    assert "self.nb" in inspect.getsource(NotebookClient.__init__), f"{PREFIX}nbclient's NotebookClient keeps no self.nb"
    check_parameters("nbclient's CellExecutionError", CellExecutionError.__init__, ["self", "traceback", "ename", "evalue"])
    # jupyter-cache (the book's cache) runs a notebook with nbclient.execute, which makes a
    # NotebookClient and calls its execute: the method complete_widgets replaces.
    assert getattr(cache_executors, "executenb", None) is nbclient.execute, \
        f"{PREFIX}jupyter-cache no longer runs notebooks with nbclient.execute"
    assert re.search(r"NotebookClient\(.*\)\.execute\(\)", inspect.getsource(nbclient.execute)), \
        f"{PREFIX}nbclient.execute no longer calls NotebookClient(...).execute()"


# ---------------------------------------------------------------------------------------------
# Pyodide (lite/kernel/python.mjs keeps a started Python with options Pyodide marks @ignore)


def load_build_lite():
    spec = importlib.util.spec_from_file_location("build_lite", ROOT / "lite" / "build_lite.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.built_book
def test_pyodide_still_takes_the_snapshot_options_the_live_start_uses():
    build_lite = load_build_lite()
    package = ROOT / "_build" / "lite-cache" / "npm" / "node_modules" / "pyodide"
    if not (package / "pyodide.d.ts").is_file():
        pytest.fail(f"{package}/pyodide.d.ts is missing: run `make lite` (`make book` and `make test` do)",
                    pytrace=False)
    types = (package / "pyodide.d.ts").read_text(encoding="utf-8")
    python_mjs = (ROOT / "lite" / "kernel" / "python.mjs").read_text(encoding="utf-8")
    options = re.search(r"\ninterface PyodideConfig \{(.*?)\n\}", types, re.DOTALL)
    assert options, f"{PREFIX}pyodide {build_lite.PYODIDE_VERSION}'s pyodide.d.ts has no PyodideConfig (loadPyodide's options)"
    for option in ("indexURL", "convertNullToNone", "fsInit", "_makeSnapshot", "_loadSnapshot"):
        assert option in python_mjs, option  # what python.mjs gives loadPyodide
        assert re.search(rf"\n\t{option}\?:", options.group(1)), f"{PREFIX}Pyodide's loadPyodide takes no {option}"
    for method in ("makeMemorySnapshot", "loadPackage", "runPython", "runPythonAsync", "setStdout", "setStderr"):
        assert re.search(rf"\b{method}\(", types), f"{PREFIX}Pyodide has no {method}()"
    assert re.search(r"\bloadedPackages:", types), f"{PREFIX}Pyodide has no loadedPackages"
    assert re.search(r"\bbatched\??:", types), f"{PREFIX}Pyodide's setStdout/setStderr take no batched"


def test_the_themes_bootstrap_script_still_measures_the_header_as_site_trim_expects():
    import sys

    import pydata_sphinx_theme

    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    import site_trim

    script = Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static" / "scripts" / "bootstrap.js"
    assert script.is_file(), f"{PREFIX}pydata-sphinx-theme has no {script.name} where book/_ext/site_trim.py finds it"
    text = script.read_text(encoding="utf-8")
    assert text.count(site_trim.BACK_TO_TOP_EAGER) == 1, (
        f"{PREFIX}pydata-sphinx-theme's bootstrap.js no longer measures the header as "
        "book/_ext/site_trim.py's lazy_back_to_top rewrites it (UPGRADING.md)")


def test_the_environment_leaves_out_rfc3987_syntax_and_jupyter_servers_start_without_it():
    """The Makefile installs exactly the lock, which leaves rfc3987-syntax out (UPGRADING.md): it
    costs every Jupyter process 1.8 s of CPU as it is imported. A bump that brings it back, or a
    jsonschema that can no longer do without it, fails here by name."""
    import subprocess
    import sys

    assert importlib.util.find_spec("rfc3987_syntax") is None, (
        PREFIX + "rfc3987-syntax is installed again: a new pin depends on it; install with the "
        "Makefile (--no-deps) or see UPGRADING.md")
    lock = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    assert not re.search(r"^(rfc3987-syntax|lark)==", lock, re.M), PREFIX + "make lock pinned rfc3987-syntax again"
    done = subprocess.run([sys.executable, "-c", "import jsonschema, jupyter_events, jupyter_server.serverapp"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, PREFIX + "a Jupyter server no longer imports without rfc3987-syntax:\n" + done.stderr
