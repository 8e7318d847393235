"""calijack's Voilà settings for every Voilà started from this environment.

``make env`` copies this file to the environment's ``etc/jupyter/voila.py``: Voilà reads
``voila.py`` from each folder of ``jupyter --paths`` "config", and that one is among them for
any Voilà of the environment, wherever it is started. It loads the one real file,
``calijack/serve/jupyter_config/voila.py``, from the checkout calijack is installed from
(``make env`` installs it editable; the wheel has no ``calijack.serve``).
"""

from importlib.util import find_spec
from pathlib import Path

_calijack = find_spec("calijack")
if _calijack is not None and _calijack.origin:
    load_subconfig("voila.py", str(Path(_calijack.origin).parent / "serve" / "jupyter_config"))  # noqa: F821
