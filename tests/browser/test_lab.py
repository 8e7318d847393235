"""``make lab``: JupyterLab 4 over the lessons, where a teacher adapts a lesson. The server is
started with the command ``make lab`` runs (``calijack.serve.lab``'s ``lab_command`` and
``lab_env``), over a copy of the sandbox lesson; the page opens the notebook, runs all its cells
from JupyterLab's Run menu, and the sandbox's table must offer a card to play, and play it.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess

import pytest
from playwright.sync_api import expect

from calijack.serve import SANDBOX, free_port, stop_process_group, wait_for_http
from calijack.serve.lab import LAB_PROBE, lab_command, lab_env
from conftest import LESSONS_ENV, REPO  # noqa: E402  (beside this file)
from test_classroom import play_a_card, wait_until  # noqa: E402  (beside this file)


def test_jupyterlab_runs_the_sandbox_lesson_and_its_table_takes_a_card(tmp_path, new_page):
    folder = tmp_path / "notebooks"  # a copy: running the lesson changes nothing in the repository
    folder.mkdir()
    shutil.copyfile(REPO / "notebooks" / SANDBOX, folder / SANDBOX)
    port, token = free_port(), secrets.token_hex(16)
    log_path = tmp_path / "lab.log"
    # JupyterLab's settings and workspaces of the test's own: none of this machine's user's.
    own = {"JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "settings"), "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces")}
    with open(log_path, "wb") as log:
        process = subprocess.Popen(lab_command(folder, port), cwd=folder, stdout=log, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, env=lab_env({**os.environ, **LESSONS_ENV, **own}, token),
                                   start_new_session=True)
    page = new_page()
    try:
        if not wait_for_http(f"http://127.0.0.1:{port}/{LAB_PROBE}", 60, process):
            pytest.fail(f"JupyterLab did not answer:\n{log_path.read_text(errors='replace')[-4000:]}",
                        pytrace=False)
        # The notebook's kernel starts as it opens; Run All waits for it to be up (asked for while
        # the kernel is still starting, JupyterLab asks which kernel to start).
        with page.expect_websocket(lambda ws: "/api/kernels/" in ws.url, timeout=60_000):
            page.goto(f"http://127.0.0.1:{port}/lab/tree/{SANDBOX}?token={token}")
        notebook = page.locator(".jp-NotebookPanel")
        wait_until(lambda: [k["execution_state"] for k in page.request.get(
            f"http://127.0.0.1:{port}/api/kernels?token={token}").json()] == ["idle"], 60, "the kernel did not start")
        expect(page.locator(".jp-StatusBar-Widget", has_text="| Idle")).to_be_visible(timeout=30_000)
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        # The sandbox's widget, drawn by ipywidgets' and anywidget's JupyterLab extensions. The run
        # ends at the last cell: JupyterLab hides the cells scrolled out of view, so back to it.
        page.wait_for_selector(".cj-sandbox .cj-you .cj-play.cj-can", state="attached", timeout=60_000)
        notebook.locator(".jp-Cell", has=page.locator(".cj-sandbox")).scroll_into_view_if_needed()
        page.wait_for_selector(".cj-sandbox .cj-you .cj-play.cj-can", timeout=15_000)
        text = page.locator(".jp-NotebookPanel").inner_text()
        assert "Error displaying widget" not in text and "model not found" not in text
        play_a_card(page)  # a playable card, played: the table shows one card more
    finally:
        page.context.close()  # before the server stops: no page left to lose its connection
        stop_process_group(process)
