"""calijack's stand-in for JupyterLite's ``piplite``: the live book installs no package.

Every package a live lesson imports is in the site already and loads with Python, and the
kernel may not reach a package index (``disablePyPIFallback``). The real ``piplite`` imports
``micropip`` (and, through it, a good part of the standard library) on every start, only to
install packages; this one keeps what the kernel sets at start and refuses an install with
a plain message. lite/build_lite.py puts it in the site in place of the real one.
"""

from .piplite import install

__version__ = "0.8.6"
__all__ = ["__version__", "install"]
