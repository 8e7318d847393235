"""Voilà reads this file when it is started here: calijack's lesson settings, from one place."""

from pathlib import Path

load_subconfig("voila.py", str(Path(__file__).resolve().parent / "calijack" / "jupyter_config"))  # noqa: F821
