"""Start a learner's server: JupyterHub's single-user server, with calijack's Voilà folders.

The command of every learner's server, on one machine (``jupyterhub_config.py``'s
``Spawner.cmd``) and in the Zero to JupyterHub image (``deploy/z2jh/values.yaml``'s
``singleuser.cmd``). It puts this folder (the server's configuration: Voilà alone, with
calijack's lesson settings) and calijack's own Voilà folders on the Jupyter paths, as
``calijack.serve.voila_env`` gives them to every Voilà calijack starts, then becomes
``python -m jupyterhub.singleuser`` with the arguments the spawner gave.

The folders must be in the environment before the server starts: with the hub's
``disable_user_config``, JupyterHub fixes the data path (where Voilà finds calijack's template)
before any configuration file runs.
"""

import os
import sys
from pathlib import Path

from calijack.serve import voila_env

HERE = Path(__file__).resolve().parent


def server_env(base: dict[str, str]) -> dict[str, str]:
    """``base`` with calijack's configuration folder and this one first on JUPYTER_CONFIG_PATH,
    and calijack's data folder first on JUPYTER_PATH."""
    paths = [p for p in base.get("JUPYTER_CONFIG_PATH", "").split(os.pathsep) if p]
    env = dict(base, JUPYTER_CONFIG_PATH=os.pathsep.join([str(HERE), *paths]))
    return voila_env(env)


if __name__ == "__main__":
    command = [sys.executable, "-m", "jupyterhub.singleuser", *sys.argv[1:]]
    os.execve(sys.executable, command, server_env(dict(os.environ)))
