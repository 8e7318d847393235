"""What JupyterLite's kernel worker sets at start (``_PIPLITE_URLS``, ``_PIPLITE_DISABLE_PYPI``),
and an ``install`` that says why nothing is installed (see the package's docstring)."""

_PIPLITE_URLS: list[str] = []
_PIPLITE_DISABLE_PYPI = True

REFUSAL = ("The live lessons install no packages: everything they use is already loaded. "
           "To try other packages, run the lessons in Jupyter on your own machine.")


async def install(*args, **kwargs) -> None:
    """Refuse, in words (the kernel shows the message as the cell's error)."""
    raise RuntimeError(REFUSAL)
