"""No page is built from half a widget state (book/_ext/complete_widgets.py): a notebook run
whose state lacks a model it names runs again, then fails; a page whose state lacks one fails
the build. CI after stop 29 served lesson 8 with a puzzle missing from its state."""

from __future__ import annotations

import asyncio
import json
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest
from ipywidgets.embed import dependency_state
from nbclient.exceptions import CellExecutionError
from sphinx.errors import ExtensionError

from calijack.widgets.static import chooser

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import calijack_speed  # noqa: E402
import complete_widgets  # noqa: E402

STATE = complete_widgets.STATE_TYPE
VIEW = complete_widgets.VIEW_TYPE


def demo_state():
    demo = chooser(["<p>a</p>", "<p>b</p>"], ["A", "B"])
    return demo, dependency_state([demo, *demo.links])


def test_a_whole_state_lacks_nothing():
    demo, state = demo_state()
    assert complete_widgets.missing_models(state, [demo.model_id]) == []


def test_a_child_a_link_end_or_a_view_missing_from_the_state_is_named():
    demo, state = demo_state()
    frame = demo.stack.children[1].model_id
    link = demo.links[0].model_id
    without_frame = {k: v for k, v in state.items() if k != frame}
    assert complete_widgets.missing_models(without_frame, [demo.model_id]) == [frame]
    # A link names its two ends as ["IPY_MODEL_…", "index"]: they count as named too.
    control = demo.control.model_id
    without_control = {k: v for k, v in state.items() if k != control}
    assert control in complete_widgets.missing_models(without_control)
    assert link in state and complete_widgets.missing_models(state, ["f" * 32]) == ["f" * 32]


def test_a_notebook_lacking_a_model_its_output_shows_is_caught():
    demo, state = demo_state()
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("demo")
    cell.outputs = [nbformat.v4.new_output("display_data", data={VIEW: {"model_id": demo.model_id}})]
    nb.cells = [cell]
    assert complete_widgets.notebook_missing(nb) == [demo.model_id]  # no state at all
    nb.metadata["widgets"] = {STATE: {"state": state, "version_major": 2, "version_minor": 0}}
    assert complete_widgets.notebook_missing(nb) == []
    nb.metadata["widgets"][STATE]["state"] = {k: v for k, v in state.items() if k != demo.model_id}
    assert complete_widgets.notebook_missing(nb) == [demo.model_id]


class FakeClient:
    """What the wrapper reads of nbclient's client: its notebook, resources and wait."""

    def __init__(self, results):
        self.results = list(results)
        self.runs = 0
        self.iopub_timeout = 4
        self.resources = {"metadata": {"path": "/book/notebooks"}}
        self.nb = None


async def fake_execute(self):
    self.runs += 1
    self.nb = self.results.pop(0)
    return self.nb


def notebook(missing: bool):
    nb = nbformat.v4.new_notebook()
    state = {"a" * 32: {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_" + "b" * 32]}}}
    if not missing:
        state["b" * 32] = {"model_name": "HTMLModel", "state": {}}
    nb.metadata["widgets"] = {STATE: {"state": state}}
    return nb


def test_an_incomplete_run_runs_again_and_says_so():
    said = []
    client = FakeClient([notebook(True), notebook(False)])
    run = complete_widgets.complete_runs(fake_execute, said.append)
    nb = asyncio.run(run(client))
    assert client.runs == 2 and nb is client.nb and complete_widgets.notebook_missing(nb) == []
    assert len(said) == 1 and "b" * 32 in said[0] and "run 1 of 3" in said[0] and "/book/notebooks" in said[0]
    assert client.iopub_timeout == complete_widgets.IOPUB_WAIT


def test_a_run_that_stays_incomplete_fails_with_the_missing_models():
    said = []
    client = FakeClient([notebook(True)] * 3)
    run = complete_widgets.complete_runs(fake_execute, said.append)
    with pytest.raises(CellExecutionError, match="lacks 1 model .bbbb"):
        asyncio.run(run(client))
    assert client.runs == 3 and len(said) == 2


def test_a_whole_run_runs_once():
    said = []
    client = FakeClient([notebook(False)])
    asyncio.run(complete_widgets.complete_runs(fake_execute, said.append)(client))
    assert client.runs == 1 and said == []


# A notebook whose first run (and only its first) sends a box naming a model that does not
# exist, as a run that lost a message would look: with the check installed, nbclient's own
# execute (what jupyter-cache calls) runs it again and keeps the whole second run.
FLAKY = textwrap.dedent("""
    import pathlib
    import ipywidgets as widgets
    box = widgets.VBox([widgets.HTML("hello")])
    marker = pathlib.Path({marker!r})
    if not marker.exists():
        marker.write_text("first run")
        box.comm.send({{"method": "update", "state": {{"children": ["IPY_MODEL_{ghost}"]}}, "buffer_paths": []}})
    box
""")


def test_nbclient_runs_a_notebook_that_lost_a_model_again(tmp_path, monkeypatch):
    from nbclient import execute
    from nbclient.client import NotebookClient

    for name in ("async_execute", "execute"):  # put back after the test
        monkeypatch.setattr(NotebookClient, name, getattr(NotebookClient, name))
    said = []
    complete_widgets.install(said.append)
    assert not complete_widgets.install(said.append)  # once only
    ghost = "0" * 32
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(FLAKY.format(marker=str(tmp_path / "ran"), ghost=ghost))]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    execute(nb, cwd=str(tmp_path), timeout=120)
    # The first run's state named the ghost; the log says so, and the kept run is whole.
    assert any(ghost in line and "run 1 of 3" in line for line in said), said
    assert complete_widgets.notebook_missing(nb) == []
    state = nb.metadata["widgets"][STATE]["state"]
    boxes = [m for m in state.values() if m["model_name"] == "VBoxModel"]
    assert len(boxes) == 1 and boxes[0]["state"]["children"][0][len("IPY_MODEL_"):] in state


def test_a_page_whose_state_lacks_a_model_fails_the_build(tmp_path):
    demo, state = demo_state()
    frame = demo.stack.children[0].model_id
    broken = {k: v for k, v in state.items() if k != frame}
    data = json.dumps({"version_major": 2, "version_minor": 0, "model_id": demo.model_id})
    body = f'<p>Text.</p><script type="{VIEW}">{data}</script>'
    script = SimpleNamespace(attributes={"type": STATE, "body": json.dumps({"state": broken})})
    app = SimpleNamespace(outdir=str(tmp_path), builder=SimpleNamespace(cj_widget_version="v"),
                          add_css_file=lambda *a, **k: None, add_js_file=lambda *a, **k: None)
    context = {"body": body, "script_files": [script], "metatags": "", "pathto": lambda name, _: name}
    with pytest.raises(ExtensionError, match=rf"notebooks/08_practice: .*lacks 1 model \({frame}\)"):
        calijack_speed._on_page_context(app, "notebooks/08_practice", "page.html", context, None)
    # The whole state goes through, and the page gets its picture.
    script.attributes["body"] = json.dumps({"state": state})
    context = {"body": body, "script_files": [script], "metatags": "", "pathto": lambda name, _: name}
    calijack_speed._on_page_context(app, "notebooks/08_practice", "page.html", context, None)
    assert 'class="cj-demo"' in context["body"]
