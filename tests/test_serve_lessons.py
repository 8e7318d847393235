"""How calijack runs Voilà: the command line, the configuration it reads, and refusals.

No server is started here (tests/browser/test_classroom.py does that): these check the
options and the configuration file themselves, which a server test could only see indirectly.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from traitlets.config.loader import PyFileConfigLoader

from calijack import serve

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _environment(monkeypatch):
    # Loading the configuration edits os.environ (JUPYTER_PATH, JUPYTER_TOKEN), as it does in
    # Voilà; both are put back after each test, whatever they were.
    for name in ("JUPYTER_PATH", "JUPYTER_TOKEN"):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)


def load(folder: Path):
    """The configuration ``voila.py`` in ``folder`` gives, as Voilà would load it."""
    return PyFileConfigLoader("voila.py", path=str(folder)).load_config()


def option(cmd: list[str], name: str) -> str | None:
    prefix = f"--{name}="
    found = [part[len(prefix):] for part in cmd if part.startswith(prefix)]
    return found[-1] if found else None


def test_the_configuration_locks_the_lessons_down():
    config = load(serve.JUPYTER_CONFIG)
    settings = config.Voila.tornado_settings
    assert settings["allow_remote_access"] is False and settings["local_hostnames"] == ["localhost"]
    assert config.VoilaConfiguration.show_tracebacks is False
    assert config.MappingKernelManager.allow_tracebacks is False
    assert "Traceback" not in config.MappingKernelManager.traceback_replacement_message
    assert config.VoilaConfiguration.template == "calijack"
    assert config.Voila.identity_provider_class == "calijack.serve.classroom.LessonIdentityProvider"
    assert "token" not in config.Voila  # no token unless asked for


def test_the_configuration_waits_for_slow_lessons_and_culls_idle_kernels():
    config = load(serve.JUPYTER_CONFIG)
    executor = config.VoilaExecutor
    assert executor.iopub_timeout >= 60 and executor.raise_on_iopub_timeout is True
    assert executor.timeout >= executor.iopub_timeout
    assert executor.skip_cells_with_tag == "book-only"
    assert config.MappingKernelManager.cull_idle_timeout == 600
    assert config.LessonKernelManager.cull_connected_timeout > 600
    assert config.VoilaConfiguration.multi_kernel_manager_class == "calijack.serve.classroom.LessonKernelManager"
    assert config.KernelRestarter.restart_limit == 0


def test_the_environment_settings_load_the_same_configuration():
    # make env copies calijack/serve/jupyter_config/environment/voila.py to .venv/etc/jupyter.
    assert load(serve.JUPYTER_CONFIG / "environment") == load(serve.JUPYTER_CONFIG)


def test_nothing_at_the_top_of_the_repository_shadows_voila():
    # `python -m voila` started there would import a voila.py found there instead of Voilà.
    assert not (REPO / "voila.py").exists() and not (REPO / "voila").exists()


def test_a_token_is_read_from_the_environment_and_kept_from_the_kernels(monkeypatch):
    monkeypatch.setenv("JUPYTER_TOKEN", "class-token")
    config = load(serve.JUPYTER_CONFIG)
    assert config.Voila.token == "class-token"
    assert "JUPYTER_TOKEN" not in os.environ  # kernels start from Voilà's environment


def test_the_configuration_puts_the_template_on_jupyter_path(monkeypatch):
    monkeypatch.setenv("JUPYTER_PATH", "/somewhere/else")
    load(serve.JUPYTER_CONFIG)
    assert os.environ["JUPYTER_PATH"].split(os.pathsep) == [str(serve.JUPYTER_DATA), "/somewhere/else"]


def test_voila_env_finds_the_configuration_and_carries_the_token():
    env = serve.voila_env({"JUPYTER_CONFIG_PATH": "/mine", "PATH": "/bin"}, token="t0k")
    assert env["JUPYTER_CONFIG_PATH"].split(os.pathsep) == [str(serve.JUPYTER_CONFIG), "/mine"]
    assert env["JUPYTER_PATH"] == str(serve.JUPYTER_DATA)
    assert env["JUPYTER_TOKEN"] == "t0k"
    again = serve.voila_env(env)
    assert again["JUPYTER_CONFIG_PATH"] == env["JUPYTER_CONFIG_PATH"]  # not added twice
    assert "JUPYTER_TOKEN" not in serve.voila_env({"PATH": "/bin"})


def test_the_lesson_server_command_from_serve_options():
    args = serve.parse_args(["--voila-port", "9555", "--notebooks", str(REPO / "notebooks")])
    cmd = serve.lessons_command(args)
    assert cmd[1:4] == ["-m", "voila", str(REPO / "notebooks")]
    assert option(cmd, "Voila.ip") == "127.0.0.1" and option(cmd, "port") == "9555"
    assert option(cmd, "preheat_kernel") == "True" and option(cmd, "pool_size") == "1"
    assert option(cmd, "LessonKernelManager.pool_sizes") == f"{serve.SANDBOX}=3"
    assert option(cmd, "LessonKernelManager.max_learners") == "40"
    assert option(cmd, "MappingKernelManager.cull_idle_timeout") == "600"
    assert option(cmd, "LessonKernelManager.cull_connected_timeout") == "3600"
    assert option(cmd, "Voila.tornado_settings") is None  # the configuration's Host check
    assert not any("token" in part for part in cmd)  # never on the command line


def test_no_pool_means_no_preheating_and_host_names_extend_the_check():
    cmd = serve.voila_command("nb.ipynb", 9556, host_names=["lessons.example"])
    assert option(cmd, "preheat_kernel") is None
    assert option(cmd, "LessonKernelManager.max_learners") is None  # the configuration's value
    settings = option(cmd, "Voila.tornado_settings")
    assert settings == "{'allow_remote_access': False, 'local_hostnames': ['localhost', 'lessons.example']}"
    cmd = serve.voila_command("nb.ipynb", 9556, pool_sizes={serve.SANDBOX: 4})
    assert option(cmd, "preheat_kernel") == "True" and option(cmd, "pool_size") == "0"


@pytest.mark.parametrize("argv, given, env, expected", [
    ([], None, None, None),
    (["--token", "abc"], "abc", None, "abc"),
    (["--token"], "", "from-env", "from-env"),
])
def test_the_token_option(monkeypatch, argv, given, env, expected):
    if env:
        monkeypatch.setenv("JUPYTER_TOKEN", env)
    args = serve.parse_args(argv)
    assert args.token == given
    assert serve.lessons_token(args) == expected


def test_a_random_token_when_none_is_given():
    args = serve.parse_args(["--token"])
    first, second = serve.lessons_token(args), serve.lessons_token(args)
    assert len(first) >= 20 and first != second


@pytest.mark.parametrize("argv, refusal", [
    (["--listen", "0.0.0.0"], "add --token"),
    (["--listen", "0.0.0.0", "--token"], "add --host-name"),
])
def test_listening_beyond_this_machine_needs_a_token_and_a_name(tmp_path, capsys, argv, refusal):
    book = tmp_path / "book"
    book.mkdir()
    (book / "index.html").write_text("<html></html>")
    code = serve.main(["--book", str(book), "--notebooks", str(tmp_path), *argv])
    assert code == 2
    assert refusal in capsys.readouterr().err


def test_listening_on_a_name_with_a_token_is_allowed():
    args = serve.parse_args(["--listen", "0.0.0.0", "--token", "--host-name", "teacher.local"])
    assert serve._check_listen(args) is None
    assert option(serve.lessons_command(args), "Voila.ip") == "0.0.0.0"
