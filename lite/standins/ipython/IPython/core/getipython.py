"""``IPython.core.getipython``: there is no shell in the live lessons."""


def get_ipython() -> None:
    """The running IPython shell: never one here (``lite/kernel/live.py`` runs the cells)."""
    return None
