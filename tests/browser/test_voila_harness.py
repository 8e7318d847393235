"""The ``voila_app`` fixture works: a throwaway notebook, served by Voilà, answers a click.

Also asserts (through ``page``) that Voilà's page logs no console error and requests nothing
off 127.0.0.1.
"""

from __future__ import annotations

import nbformat
import pytest

pytestmark = pytest.mark.browser

CODE = '''\
import ipywidgets as widgets

label = widgets.Label("not clicked")
button = widgets.Button(description="Press me")

def on_click(_):
    label.value = "clicked"

button.on_click(on_click)
display(label)
button'''


def write_notebook(path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# Harness check"), nbformat.v4.new_code_cell(CODE)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return path


def test_voila_button_callback(voila_app, page, page_guard, tmp_path):
    app = voila_app(write_notebook(tmp_path / "harness.ipynb"))
    page.goto(app.url, wait_until="load")
    button = page.get_by_role("button", name="Press me")
    button.wait_for(state="visible", timeout=60_000)
    label = page.locator(".widget-label", has_text="not clicked")
    label.wait_for(state="visible")
    button.click()
    page.locator(".widget-label", has_text="clicked").filter(has_not_text="not").wait_for(
        state="visible", timeout=15_000
    )
    # The source is hidden by Voilà's default (strip_sources).
    assert "on_click" not in page.locator("body").inner_text()
    page_guard.assert_clean("served by Voilà")
