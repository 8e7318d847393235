"""``IPython.core``: only what ipywidgets imports (see the package's docstring)."""
