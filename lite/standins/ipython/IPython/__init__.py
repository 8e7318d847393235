"""calijack's stand-in for IPython in the live lessons (``lite/wheels.py``, ``STAND_INS``).

The live page runs its lessons without a Jupyter kernel (``lite/kernel/live.py``), so there is
never an IPython shell: ``get_ipython()`` is ``None``, as it is in plain Python. ipywidgets
imports IPython only for the few names below, and they behave here as IPython's own do when no
shell is running. The real package (189 KB compressed, with ten packages it needs) would be a
second of a phone's first "Play live" on a slow network.

What this stand-in provides is exactly what ipywidgets 8 and the lessons import:
``tests/test_live_runner.py`` reads every ``IPython`` import of the packages the live lessons load
and fails, naming the import, if one of them asks for a name this stand-in lacks.
"""

from .core.getipython import get_ipython

__all__ = ["get_ipython"]
