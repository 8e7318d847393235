"""``IPython.core.interactiveshell``: ipywidgets' Output widget imports the class; no shell is
ever made here."""


class InteractiveShell:
    """IPython's shell class, never instantiated in the live lessons."""

    @classmethod
    def initialized(cls) -> bool:
        """Whether a shell was made: never."""
        return False
