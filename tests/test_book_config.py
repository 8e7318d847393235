"""The book's Sphinx configuration loads every extension that _config.yml names.

Jupyter Book appends ``sphinx.local_extensions`` to its extension list, but ``sphinx.config``'s
own ``extensions`` then replaces that list: a local extension missing from it is silently never
loaded (complete_widgets was not, from stop 29 to issue 36, so a notebook run that lost a widget
model was never run again). Read through Jupyter Book's own config reader, as ``make book`` does.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from jupyter_book.config import get_final_config

ROOT = Path(__file__).resolve().parents[1]


def final_extensions() -> list[str]:
    config, _ = get_final_config(user_yaml=ROOT / "_config.yml", sourcedir=ROOT,
                                 cli_config={"latex_individualpages": False})
    return config["extensions"]


def test_every_local_extension_is_loaded():
    local = yaml.safe_load((ROOT / "_config.yml").read_text())["sphinx"]["local_extensions"]
    loaded = final_extensions()
    missing = [name for name in local if name not in loaded]
    assert not missing, f"local extensions that Sphinx would never load: {missing} (add them to sphinx.config.extensions)"
    for name, folder in local.items():
        assert (ROOT / folder / f"{name}.py").is_file(), f"{folder}/{name}.py is missing"


def test_the_widget_check_runs_before_the_notebooks_run_ahead():
    # execute_ahead's worker processes inherit complete_widgets' wrapper of nbclient only if
    # complete_widgets is set up first.
    loaded = final_extensions()
    assert loaded.index("complete_widgets") < loaded.index("execute_ahead")


def test_what_execute_ahead_takes_from_myst_nb_is_still_there():
    # book/_ext/execute_ahead.py runs notebooks through myst-nb's own reader and client, which are
    # not documented API: a myst-nb that moves them must fail here, by name, not deep in a build.
    import inspect

    from jupyter_cache.base import JupyterCacheAbstract
    from myst_nb.core import execute, nb_to_tokens, read
    from myst_nb.core.config import NbParserConfig

    wanted = {
        "myst_nb.core.read.create_nb_reader(path, md_config, nb_config, content)":
            (getattr(read, "create_nb_reader", None), ["path", "md_config", "nb_config", "content"]),
        "myst_nb.core.execute.create_client(notebook, source, nb_config, logger, read_fmt)":
            (getattr(execute, "create_client", None), ["notebook", "source", "nb_config", "logger", "read_fmt"]),
        "myst_nb.core.nb_to_tokens.nb_node_to_dict(node)": (getattr(nb_to_tokens, "nb_node_to_dict", None), ["node"]),
    }
    for name, (function, parameters) in wanted.items():
        assert function is not None, f"upstream changed: {name} is gone"
        assert list(inspect.signature(function).parameters)[:len(parameters)] == parameters, \
            f"upstream changed: {name} takes {list(inspect.signature(function).parameters)}"
    for attribute in ("copy", "execution_mode", "execution_cache_path", "metadata_key"):
        assert hasattr(NbParserConfig, attribute) or attribute in NbParserConfig.__dataclass_fields__, \
            f"upstream changed: myst-nb's NbParserConfig has no {attribute}"
    assert hasattr(JupyterCacheAbstract, "match_cache_notebook"), \
        "upstream changed: jupyter-cache's match_cache_notebook is gone"
