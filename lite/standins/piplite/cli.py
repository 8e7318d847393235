"""``%pip`` in the live kernel (pyodide-kernel's litetransform asks this module): refused in
words, as ``install`` is."""

from .piplite import REFUSAL


async def get_transformed_code(argv: list[str]) -> str:
    """The code a ``%pip`` line becomes: one that raises the refusal."""
    return f"raise RuntimeError({REFUSAL!r})"
