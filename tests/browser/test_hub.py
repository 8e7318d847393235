"""calijack's JupyterHub (``deploy/jupyterhub``, ``make hub``) holds a class: logins, a server per
learner, the teacher's page, idle servers stopped, and nobody in anyone else's server.

Each hub here is started the way ``make hub`` starts it (``deploy/jupyterhub/hub.py``), on
127.0.0.1 and free ports, with a state folder of the test's own and test accounts that choose
their password at the first login. The pages are guarded (``new_page``): a console error or a
request off 127.0.0.1 fails the test, so each refusal a test expects is taken off by name.
"""

from __future__ import annotations

import dataclasses
import csv
import html
import json
import os
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from calijack.serve import SANDBOX, free_port, stop_process_group
from a11y_checks import assert_accessible, too_wide  # noqa: E402  (beside this file)
from conftest import LESSONS_ENV, REVIEW_SAMPLES, guard_page  # noqa: E402  (beside this file)
from test_classroom import play_a_card, wait_for_sandbox, wait_until  # noqa: E402  (beside this file)
from test_sandbox import SEED, first_legal, press_card, settle  # noqa: E402  (beside this file)

REPO = Path(__file__).resolve().parents[2]
HUB = REPO / "deploy" / "jupyterhub" / "hub.py"
# Three learners show a class at once (each in their own server, none in another's); the
# full sizes (10, 30 learners) are bench/hub.py's.
LEARNERS = [f"learner{i}" for i in range(1, 4)]
TEACHER = "teacher"
LESSON = f"voila/render/{SANDBOX}"
INVALID = "Invalid username or password"
NOT_YOURS = "You do not have permission to access Server at /user/{}/"

CLASS_LIST = [*LEARNERS, "dave", "erin", "frank"]
CLASS = "services/calijack-class/"
LESSON_3 = "voila/render/03_legal_play.ipynb"

# One hub for the module (the ``hub`` fixture): its tests run on one worker (make test's
# --dist loadgroup).
pytestmark = pytest.mark.xdist_group("hub")


@dataclasses.dataclass
class Hub:
    url: str  # ends with "/"
    process: subprocess.Popen
    state: Path
    log_path: Path

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def api(self, path: str) -> tuple[int, str]:
        """GET the hub's ``path`` with no credentials: (status, body)."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")
        except (urllib.error.URLError, OSError):
            return 0, ""


def start_hub(folder: Path, names: list[str], *options: str, timeout: float = 90, port: int = 0) -> Hub:
    """``hub.py`` with ``names`` as learners, on 127.0.0.1 and ``port`` (a free one if 0), the
    lessons' test settings in its learners' kernels (shorter pauses, fewer guesses: passed on by
    the hub's ``env_keep``); returns when it answers."""
    folder.mkdir(parents=True, exist_ok=True)
    learners = folder / "learners.txt"
    learners.write_text("# the test's class\n" + "\n".join(names) + "\n")
    port = port or free_port()
    log_path = folder / "hub.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, str(HUB), "--state", str(folder / "state"), "--learners", str(learners),
             "--teacher", TEACHER, "--port", str(port), *options],
            cwd=REPO, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env={**os.environ, **LESSONS_ENV}, start_new_session=True)  # own group: stopping it stops the proxy and every server
    hub = Hub(f"http://127.0.0.1:{port}/", process, folder / "state", log_path)
    deadline = time.monotonic() + timeout
    while hub.api("hub/api/")[0] != 200:
        if process.poll() is not None or time.monotonic() > deadline:
            stop_process_group(process)
            pytest.fail(f"the hub did not start:\n{hub.log_text()[-4000:]}", pytrace=False)
        time.sleep(0.3)
    return hub


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    """A hub with the three learners of the class, two more for the bad-input test, and frank,
    who never logs in."""
    started = start_hub(tmp_path_factory.mktemp("hub"), CLASS_LIST)
    yield started
    stop_process_group(started.process, timeout=30)


_PASSWORDS: dict[str, str] = {}


def password(name: str) -> str:
    """``name``'s password, the same all through the module (a second login of one learner)."""
    return _PASSWORDS.setdefault(name, f"{name}-{secrets.token_hex(4)}")


def submit_login(page, hub: Hub, name: str, secret: str, next_url: str | None = None) -> int:
    """Open the hub's login page (with ``next=`` if given), sign in; the status of the answer."""
    query = "" if next_url is None else "?next=" + urllib.request.quote(next_url, safe="")
    page.goto(hub.url + "hub/login" + query)
    page.get_by_label("Username:").fill(name)
    page.get_by_label("Password:").fill(secret)
    with page.expect_response(lambda r: r.request.method == "POST" and "/hub/login" in r.url) as answer:
        page.get_by_role("button", name="Sign in").click()
    return answer.value.status


def take_expected_errors(page_guard, status: int, where: str, count: int = 1) -> None:
    """Chromium logs every response of status 400 or more: these ``count`` lines (a refusal the
    test asked for, at a URL containing ``where``) and only they are taken off the guard."""
    expected = [e for e in page_guard.console_errors if f"status of {status}" in e and where in e]
    assert len(expected) == count, (status, where, page_guard.console_errors)
    page_guard.console_errors[:] = [e for e in page_guard.console_errors if e not in expected]


def whoami(page, hub: Hub) -> tuple[int, dict]:
    """What the hub's API says of the page's signed-in user: (status, user model)."""
    answer = page.request.get(hub.url + "hub/api/user")
    return answer.status, (json.loads(answer.text()) if answer.status == 200 else {})


def _csv_rows(page, hub: Hub) -> dict[str, list[str]]:
    """The class's CSV, as the teacher downloads it: learner -> their row."""
    answer = page.request.get(hub.url + CLASS + "class.csv")
    assert answer.status == 200, answer.status
    rows = list(csv.reader(answer.text().splitlines()))
    from calijack.classsvc.summary import CSV_HEADER

    assert rows[0] == CSV_HEADER
    return {row[0]: row for row in rows[1:]}


def _restart(hub: Hub) -> None:
    """Stop the hub (its proxy, the class service and every server go with it) and start it
    again on the same port and state folder: what a restarted machine does."""
    stop_process_group(hub.process, timeout=30)
    again = start_hub(hub.state.parent, CLASS_LIST, port=int(hub.url.rsplit(":", 1)[1].strip("/")))
    hub.process, hub.log_path = again.process, again.log_path


def test_a_class_of_three_on_the_hub_and_the_teacher_sees_exactly_what_they_did(hub, new_page, page_guard):
    """Three learners log in at once, each to a sandbox of their own (none reaches another's
    server); each finishes the deal (the first legal card each time), misses a mistake tried
    again, and answers lesson 3's first quick check (learner2 wrongly at first). The teacher's
    page and CSV show exactly those numbers; a learner is refused the page and a classmate's
    data; learner2, in a new browser, finds everything; the hub and the class service restart
    and nothing is lost; the teacher opens one of the deals on the review board and removes
    learner3's data. The same deal for all three: the notebook's seed, mirrored here."""
    from calijack import progress
    from calijack.drill import drills_of
    from calijack.play import Session
    from calijack.progress.entries import deal_totals
    from calijack.retry import queue_entry
    from calijack.text_class import say
    from calijack.text_progress import TEXTS
    from calijack.text_progress import TEXTS as PROGRESS_TEXTS
    from calijack.widgets.lesson_checks import LEGAL_PLAY_PAGE

    pages = {name: new_page() for name in LEARNERS}
    for name, page in pages.items():  # every login form filled, then all sent at once
        page.goto(hub.url)
        page.get_by_label("Username:").fill(name)
        page.get_by_label("Password:").fill(password(name))
    for page in pages.values():
        page.get_by_role("button", name="Sign in").click(no_wait_after=True)
    for name, page in pages.items():
        wait_for_sandbox(page, timeout=180_000)
        assert page.url == hub.url + f"user/{name}/{LESSON}"
        assert page.locator(".cj-seed input").input_value() == str(SEED)
    # On the hub the table does not say that progress stays on this device.
    assert pages["learner1"].locator(".cj-table-view .cj-progress-note").inner_text() != TEXTS["note_local"]
    # Under the table, the link to the learner's own page of the class (followed from lesson 3 below).
    me_link = pages["learner1"].locator(".cj-table-view .cj-class-me-line a.cj-class-me")
    expect(me_link).to_have_text(TEXTS["class_me"])
    assert me_link.get_attribute("href").endswith(CLASS + "me")

    # Another learner's server, running: the hub refuses, and shows nothing of it.
    intruder = pages["learner1"]
    answer = intruder.goto(hub.url + f"user/learner2/{LESSON}")
    assert answer.status == 403
    expect(intruder.locator("body")).to_contain_text(NOT_YOURS.format("learner2"))
    assert intruder.locator(".cj-sandbox").count() == 0
    take_expected_errors(page_guard, 403, "/hub/api/oauth2/authorize")
    # A learner without a server: not even told whether it exists.
    answer = intruder.goto(hub.url + f"user/frank/{LESSON}")
    assert answer.status == 404 and intruder.locator(".cj-sandbox").count() == 0
    take_expected_errors(page_guard, 404, "/hub/user/frank/")
    intruder.goto(hub.url + f"user/learner1/{LESSON}")
    wait_for_sandbox(intruder)

    # Each plays the whole deal, the three at once, card by card as the mirrors do.
    mirrors = {name: Session(seed=SEED) for name in LEARNERS}
    while not mirrors[LEARNERS[0]].finished:
        for name, page in pages.items():
            card = first_legal(mirrors[name])
            press_card(page, card)
            mirrors[name].play(card)
        for name, page in pages.items():
            settle(page, mirrors[name])
    mirror = mirrors[LEARNERS[0]]
    found = drills_of(mirror.state, mirror.review(REVIEW_SAMPLES))  # as the learners' kernels review
    assert found, "the deal played must hold a mistake to try again"
    first = found[0]
    wrong = next(c for c in first.values if c not in first.accept)
    for page in pages.values():
        page.locator(".cj-review-deal").click()
    for page in pages.values():
        page.wait_for_selector('.cj-board[data-steps="26"]', timeout=90_000)
        page.locator(".cj-drill-start").click()
    for page in pages.values():  # the first mistake missed twice: the answer shown, and it is queued
        message = page.locator(".cj-message")
        expect(message).to_contain_text(f"Mistake 1 of {len(found)}", timeout=30_000)
        for _ in range(2):
            page.locator(f'.cj-drill-table .cj-you .cj-play[data-card="{wrong.code}"]').click()
        expect(message).to_contain_text(f"The answer: {first.best}")
        page.wait_for_function("calijackProgress.read().drills.length === 1")
        assert page.evaluate("calijackProgress.syncNow()") is True  # the service holds it all

    # Lesson 3's first quick check: right at once, except learner2 (wrong, then right).
    for name, page in pages.items():
        page.goto(hub.url + f"user/{name}/{LESSON_3}")
        question = page.locator(".cj-quiz .cj-quiz-question").first
        question.wait_for(timeout=90_000)
        if name == "learner2":
            question.locator(".cj-quiz-control button", has_text="Any card").click()
            expect(question.locator('.cj-quiz-feedback[data-right="false"]')).to_be_visible()
        question.locator(".cj-quiz-control button", has_text="My diamonds or my spade").click()
        page.wait_for_function("(id) => !!calijackProgress.read().checks[id]", arg=f"{LEGAL_PLAY_PAGE}#1")
        expect(page.locator(".cj-lesson-progress")).to_be_hidden()  # synced with the class: no note
        assert page.evaluate("calijackProgress.syncNow()") is True
    # The lessons link to the learner's own page of the class: what it keeps for them.
    me = pages["learner3"]
    assert_accessible(me, "lesson 3 on the hub, with its link to the learner's page")
    me.get_by_role("link", name=PROGRESS_TEXTS["class_me"]).click()
    me.wait_for_url(hub.url + CLASS + "me")
    expect(me.locator("dd[data-answered='1'][data-first='1']")).to_have_count(1)
    expect(me.locator("dd[data-queued='1'][data-due='0']")).to_have_count(1)

    # What each did, from the mirror alone: the teacher's numbers must be these.
    entry = progress.deal_entry(mirror, "0123456789abcdef")
    points = deal_totals(entry)["for"]
    level = progress.opponent_labels()[mirror.opponent]
    expected = {name: {"checks answered": "1", "checks right at the first try": "0" if name == "learner2" else "1",
                       "deals finished": "1", "deals per level (mean points a deal)": f"{level}: 1 deals, {points:.2f} a deal",
                       "checks per chapter": f"03_legal_play: 1 answered, {0 if name == 'learner2' else 1} first try",
                       "mistakes queued": "1", "mistakes due today": "0", "puzzle stars": "0"}
                for name in LEARNERS}
    assert queue_entry(first)["id"] == pages["learner1"].evaluate("calijackProgress.read().drills[0].id")

    teacher = new_page()
    assert submit_login(teacher, hub, TEACHER, password(TEACHER)) == 302
    teacher.wait_for_url(hub.url + "hub/admin*")
    for name in LEARNERS:  # the admin page lists the three with their servers running...
        row = teacher.locator("tr", has=teacher.get_by_text(name, exact=True))
        expect(row.get_by_role("button", name="Stop Server")).to_be_visible()
    # ...and its Services menu links to the class's page.
    expect(teacher.locator(f"a.dropdown-item[href='/{CLASS}']")).to_have_count(1)
    # The teacher is not let into a learner's server either (not a JupyterHub admin, deliberately).
    answer = teacher.goto(hub.url + f"user/learner3/{LESSON}")
    assert answer.status == 403 and teacher.locator(".cj-sandbox").count() == 0
    expect(teacher.locator("body")).to_contain_text(NOT_YOURS.format("learner3"))
    take_expected_errors(page_guard, 403, "/hub/api/oauth2/authorize")

    from calijack.classsvc.summary import CSV_HEADER

    def check_rows() -> dict[str, list[str]]:
        rows = _csv_rows(teacher, hub)
        assert sorted(rows) == LEARNERS, rows
        for name in LEARNERS:
            got = dict(zip(CSV_HEADER, rows[name]))
            assert {key: got[key] for key in expected[name]} == expected[name], (name, got)
        teacher.goto(hub.url + CLASS)
        for name in LEARNERS:
            row = teacher.locator("tr", has=teacher.get_by_role("link", name=name, exact=True))
            first_try = expected[name]["checks right at the first try"]
            expect(row.locator(f"[data-answered='1'][data-first='{first_try}']")).to_have_count(1)
            expect(row.locator("[data-deals='1']")).to_have_count(1)
            expect(row.locator("[data-queued='1'][data-due='0']")).to_have_count(1)
            expect(row).to_contain_text(f"{points:.2f}")
        return rows

    check_rows()
    expect(teacher.get_by_role("link", name=say("admin_link"))).to_be_visible()
    for width, height in ((390, 844), (1280, 800)):
        teacher.set_viewport_size({"width": width, "height": height})
        assert_accessible(teacher, f"the class's page at {width} px")
        assert too_wide(teacher) == [], width

    # A learner is refused the teacher's page, and the removal of a classmate's data.
    learner = pages["learner1"]
    answer = learner.goto(hub.url + CLASS)
    assert answer.status == 403
    expect(learner.locator("[role=alert]")).to_have_text(say("not_teacher"))
    take_expected_errors(page_guard, 403, "/" + CLASS)
    learner.goto(hub.url + f"user/learner1/{LESSON_3}")
    learner.locator(".cj-quiz").first.wait_for(timeout=90_000)
    learner.wait_for_function("!!document.getElementById('cj-class-sync')?.contentDocument?.body?.dataset?.xsrf")
    status, text = learner.evaluate("""async (url) => {
      const xsrf = document.getElementById("cj-class-sync").contentDocument.body.dataset.xsrf;
      const answer = await fetch(url, {method: "POST", credentials: "same-origin",
        headers: {"X-XSRFToken": xsrf, "Content-Type": "application/x-www-form-urlencoded"}, body: "confirm=1"});
      return [answer.status, await answer.text()]; }""", "/" + CLASS + "learner/learner2/delete")
    assert status == 403 and say("not_teacher") in html.unescape(text)
    take_expected_errors(page_guard, 403, "learner/learner2/delete")

    # learner2 in a new browser: the server's copy merged in as the lesson opens.
    learner2 = pages["learner2"]
    deal_id = learner2.evaluate("calijackProgress.read().deals[0].id")
    other = new_page()
    assert submit_login(other, hub, "learner2", password("learner2")) == 302
    # The lesson opens on the table, or first offers the game this learner left on the other
    # device (the deal after the finished one): either way, what the class holds is here.
    offer = other.get_by_role("button", name=TEXTS["continue"])
    try:
        expect(other.locator(".cj-sandbox .cj-you .cj-play.cj-can").or_(offer).first).to_be_visible(timeout=120_000)
    except AssertionError:
        pytest.fail(f"learner2's sandbox did not open in a new browser: {other.locator('body').inner_text()[:600]!r}",
                    pytrace=False)
    other.wait_for_function("(id) => { const d = calijackProgress.read();"
                            " return d.deals.length === 1 && d.deals[0].id === id && d.drills.length === 1"
                            " && Object.keys(d.checks).length === 1; }", arg=deal_id, timeout=30_000)
    assert other.evaluate("(id) => calijackProgress.read().checks[id].first", f"{LEGAL_PLAY_PAGE}#1") is False
    if offer.is_visible():  # the finished deal, as the other device left it: on to the next
        offer.click()
        expect(other.locator(".cj-next-deal")).to_be_visible(timeout=60_000)

    # The hub and the class service restart (the learners' pages closed: nothing in flight).
    browser1 = pages["learner1"].context  # learner1's browser, which keeps its copy and its sign-in
    for page in (*pages.values(), other):
        page.close()
    active = CSV_HEADER.index("last active (UTC)")

    def counted() -> dict[str, list[str]]:  # every column but the time of the last write
        return {name: row[:active] + row[active + 1:] for name, row in _csv_rows(teacher, hub).items()}

    before = counted()
    _restart(hub)
    wait_until(lambda: counted() == before, 30, "the class's rows changed across the restart")
    check_rows()  # the page and the CSV, from the restarted service: the very numbers

    # One of learner1's deals opens on the review board, worked out by the service, stepped by keys.
    teacher.goto(hub.url + CLASS + "learner/learner1")
    teacher.get_by_role("link", name=say("learner_review")).click()
    board = teacher.locator("#cj-review[data-steps]")
    expect(board).to_have_attribute("data-steps", str(len(mirror.state.plays) // 2), timeout=60_000)
    start = int(board.get_attribute("data-index"))
    teacher.locator(".cj-board-chip[aria-current=step]").focus()
    teacher.keyboard.press("ArrowLeft" if start else "ArrowRight")
    expect(board).to_have_attribute("data-index", str(start - 1 if start else 1))
    expect(teacher.locator(".cj-board-chip[aria-current=step]")).to_be_focused()
    expect(teacher.locator(".cj-board-frame .cj-review-title")).to_contain_text("learner1 played")
    for width, height in ((390, 844), (1280, 800)):
        teacher.set_viewport_size({"width": width, "height": height})
        assert_accessible(teacher, f"the review of learner1's deal at {width} px")
        assert too_wide(teacher) == [], width

    # learner1's own Reset, in their browser: the tick box first, then the class's copy and this
    # browser's go; axe-clean on a phone and a desk.
    mine = guard_page(browser1.new_page(), page_guard)
    mine.goto(hub.url + CLASS + "me")
    assert mine.evaluate("(key) => localStorage.getItem(key) !== null", progress.KEY)
    for width, height in ((390, 844), (1280, 800)):
        mine.set_viewport_size({"width": width, "height": height})
        assert_accessible(mine, f"a learner's own page at {width} px")
        assert too_wide(mine) == [], width
    mine.get_by_role("button", name=say("me_reset_button")).click()  # not ticked: the form refuses
    assert mine.url == hub.url + CLASS + "me"
    mine.get_by_label(say("me_reset_confirm")).check()
    mine.get_by_role("button", name=say("me_reset_button")).click()
    expect(mine.get_by_text(say("me_reset_done"))).to_be_visible()
    expect(mine.get_by_text(say("me_local_done"))).to_be_visible()
    assert mine.evaluate("(key) => localStorage.getItem(key)", progress.KEY) is None
    assert sorted(_csv_rows(teacher, hub)) == ["learner2", "learner3"]

    # The teacher removes learner3's data from their page (a form the hub's XSRF check lets through).
    teacher.goto(hub.url + CLASS + "learner/learner3")
    teacher.once("dialog", lambda dialog: dialog.accept())
    teacher.get_by_role("button", name=say("delete", name="learner3")).click()
    expect(teacher.get_by_role("status")).to_have_text(say("deleted", name="learner3"))
    assert sorted(_csv_rows(teacher, hub)) == ["learner2"]


def test_the_teachers_own_server_offers_jupyterlab_and_a_learners_does_not(hub, new_page):
    """The teacher's server opens on JupyterLab and may save a notebook; learner1's (running
    already when the first test has run) has no JupyterLab, and its file API writes nothing."""

    def server(name: str, landing: str):
        """``name`` signed in, their server started; the server's page ``landing`` (through the
        hub's sign-in to the server, which gives the page its cookies)."""
        page = new_page()
        assert submit_login(page, hub, name, password(name), next_url="/hub/spawn") == 302
        page.goto("about:blank")  # off the spawn page, whose own sign-in to the server would race ours
        wait_until(lambda: whoami(page, hub)[1].get("server") == f"/user/{name}/", 180, f"{name}'s server did not start")
        return page, page.request.get(hub.url + f"user/{name}/{landing}")

    def save(page, name: str) -> int:
        """PUT a notebook through the server's file API, with the server's XSRF token, as JupyterLab does."""
        xsrf = next(c["value"] for c in page.context.cookies() if c["name"] == "_xsrf")
        return page.request.put(hub.url + f"user/{name}/api/contents/adapted.ipynb",
                                headers={"X-XSRFToken": xsrf}, data={"type": "notebook", "content": {
                                    "cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}}).status

    teacher, lab = server(TEACHER, "")  # where the teacher's server opens
    assert lab.status == 200 and lab.url == hub.url + f"user/{TEACHER}/lab" and '"appName": "JupyterLab"' in lab.text()
    assert save(teacher, TEACHER) == 201
    learner, lessons = server("learner1", "voila/tree")  # Voilà's list of the lessons
    assert lessons.status == 200 and SANDBOX in lessons.text()
    for path in ("lab", "lab/tree/" + SANDBOX, "tree"):
        assert learner.request.get(hub.url + f"user/learner1/{path}").status == 404, path
    assert save(learner, "learner1") == 403
    assert not (hub.state / "learners" / "learner1" / "adapted.ipynb").exists()
    assert (hub.state / "learners" / TEACHER / "adapted.ipynb").exists()


def test_bad_logins_get_the_hubs_refusal_and_nobody_elses_server(hub, new_page, page_guard):
    # dave signs in (the first login sets his password) and his server starts; no lesson is
    # opened on it (the page leaves the spawn page), so the test spends no time rendering one.
    dave, secret = new_page(), password("dave")
    assert submit_login(dave, hub, "dave", secret) == 302
    wait_for_own_server(dave, hub, "dave")
    dave.goto("about:blank")
    wait_until(lambda: whoami(dave, hub)[1].get("server") == "/user/dave/", 180, "dave's server did not start")

    for name, wrong in (("dave", secret + "x"), ("mallory", "a-password")):  # wrong password, no such learner
        page = new_page()
        assert submit_login(page, hub, name, wrong) == 403
        expect(page.locator("body")).to_contain_text(INVALID)
        assert page.url.startswith(hub.url + "hub/login")
        assert page.locator(".cj-sandbox").count() == 0
        take_expected_errors(page_guard, 403, "/hub/login")
        assert whoami(page, hub)[0] == 403, f"{name} got signed in"
    assert not (hub.state / "learners" / "mallory").exists()

    # A login link forged to land in dave's server: erin signs in, and the hub refuses her there.
    erin, erins = new_page(), password("erin")
    assert submit_login(erin, hub, "erin", erins, next_url=f"/user/dave/{LESSON}") == 302
    erin.wait_for_url("**/hub/api/oauth2/authorize*")
    expect(erin.locator("body")).to_contain_text(NOT_YOURS.format("dave"))
    assert erin.locator(".cj-sandbox").count() == 0
    take_expected_errors(page_guard, 403, "/hub/api/oauth2/authorize")
    # One forged to lead off this machine: the hub drops it and sends erin to her own server
    # (a request leaving 127.0.0.1 would fail the test through the guard).
    erin.goto(hub.url + "hub/logout")
    assert submit_login(erin, hub, "erin", erins, next_url="https://evil.example/") == 302
    wait_for_own_server(erin, hub, "erin")
    assert whoami(erin, hub)[1]["name"] == "erin"


def wait_for_own_server(page, hub, name: str) -> None:
    """Wait until ``page`` shows ``name``'s spawn page or ``name``'s own server. A server that
    starts within a second sends the browser through the spawn page by redirects alone, so the
    page may never load there (the hub's log then shows spawn-pending 302 to /user/<name>/)."""
    own = (hub.url + f"hub/spawn-pending/{name}", hub.url + f"user/{name}/")
    page.wait_for_url(lambda url: url.startswith(own), timeout=180_000)


def test_the_culler_stops_an_idle_learners_server(tmp_path, new_page, page_guard):
    timeout = 12  # seconds idle; the hub hears of activity every timeout // 4 seconds
    hub = start_hub(tmp_path, ["gina"], f"--cull-timeout={timeout}", "--cull-every=2")
    try:
        page = new_page()
        assert submit_login(page, hub, "gina", password("gina")) == 302
        wait_for_sandbox(page, timeout=180_000)
        kernel = json.loads(page.locator("#jupyter-config-data").text_content())["kernelId"]
        play_a_card(page)
        last_move = time.monotonic()
        assert whoami(page, hub)[1]["server"] == "/user/gina/"
        # Nothing more from gina: the culler stops her server, and her page says so.
        wait_until(lambda: whoami(page, hub)[1]["server"] is None, 90,
                   "the culler did not stop the idle server")
        idle = time.monotonic() - last_move
        assert idle >= timeout - timeout // 4, f"stopped after {idle:.0f} s idle: not for being idle"
        assert "Culling server gina" in hub.log_text()
        expect(page.locator("#cj-lost")).to_be_visible(timeout=30_000)
        # The server went away under the page: Chromium logs the failed reconnection and the
        # hub's answers for the kernel it no longer has; those, and only those, are expected.
        page_guard.console_errors[:] = [e for e in page_guard.console_errors
                                        if f"/user/gina/api/kernels/{kernel}" not in e]
        assert page.evaluate("document.body.dataset.cjConnection") == "gone"
    finally:
        stop_process_group(hub.process, timeout=30)


def test_two_learners_play_each_other_at_a_table_and_the_teacher_watches(hub, browser, new_page, page_guard):
    """learner1 opens a table from the lobby (mouse, 1280 px) and learner2 follows its link on a
    phone (touch and keys, 390 px): they play three tricks, neither page ever showing a card the
    other was dealt and still holds; learner2 reloads and plays on; a forged move gets its
    sentence and changes nothing; learner3 is refused the full table; the teacher watches
    from the class's page; they play on to the end of the deal, and the score sheet is the same
    on the three screens. Many tables at once are bench/tables.py's."""
    from conftest import _guarded_page

    from calijack.cards import parse_card
    from calijack.text_tables import say

    lobby = "/" + CLASS + "tables/"
    ann = new_page()
    assert submit_login(ann, hub, "learner1", password("learner1"), next_url=lobby) == 302
    ann.wait_for_url(hub.url.rstrip("/") + lobby)
    expect(ann.locator("#cj-yours")).to_have_text(say("yours_none"))
    assert_accessible(ann, "the lobby")
    ann.get_by_role("button", name=say("open"), exact=True).click()
    ann.wait_for_url("**/tables/t/*")
    link = ann.locator("#cj-link").input_value()
    assert link == ann.url
    context, bo = _guarded_page(browser, page_guard, viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        assert submit_login(bo, hub, "learner2", password("learner2"), next_url=link.removeprefix(hub.url[:-1])) == 302
        bo.wait_for_url(link)
        pages = (ann, bo)
        for page in pages:
            expect(page.locator("#cj-app")).to_have_attribute("data-status", "playing")
        dealt = [set(p.locator("#cj-hand button").evaluate_all("b => b.map(x => x.dataset.card)")) for p in pages]
        assert len(dealt[0]) == len(dealt[1]) == 6 and not dealt[0] & dealt[1]
        for page, width in ((ann, 1280), (bo, 390)):
            assert_accessible(page, f"the table at {width} px")
            assert too_wide(page) == [], width

        def shown(page) -> str:
            return page.locator("body").inner_text() + " ".join(
                page.locator("[aria-label]").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"))

        def play(turn: int) -> None:
            seat = int(ann.locator("#cj-app").get_attribute("data-to-play"))
            page, seq = pages[seat], int(ann.locator("#cj-app").get_attribute("data-seq"))
            card = page.locator("#cj-hand button[aria-disabled='false']").first
            if seat == 0:
                card.click()                                  # mouse
            elif turn % 2:
                card.tap()                                    # touch
            else:
                card.focus()                                  # keyboard
                page.keyboard.press("Enter")
            for each in pages:
                expect(each.locator("#cj-app")).to_have_attribute("data-seq", str(seq + 1))
            for seat_, each in enumerate(pages):  # what the other was dealt and still holds: never here
                held = set(pages[1 - seat_].locator("#cj-hand button").evaluate_all(
                    "b => b.map(x => x.dataset.card)")) & dealt[1 - seat_]
                text = shown(each)
                for code in held:
                    card_ = parse_card(code)
                    assert str(card_) not in text.replace(" ", "") and card_.code not in text, (seat_, code)

        for turn in range(4):
            play(turn)
        bo.reload()  # a reload mid-deal: the same table, and play goes on
        expect(bo.locator("#cj-app")).to_have_attribute("data-seq", ann.locator("#cj-app").get_attribute("data-seq"))
        for turn in range(4, 6):
            play(turn)
        assert ann.locator("[data-scores]").get_attribute("data-scores") == bo.locator("[data-scores]").get_attribute("data-scores")

        # A forged move (a card of the other hand, sent by hand): one sentence, nothing changed.
        seq = ann.locator("#cj-app").get_attribute("data-seq")
        mover = int(ann.locator("#cj-app").get_attribute("data-to-play"))
        forger, other = pages[mover], pages[1 - mover]
        theirs = other.locator("#cj-hand button").first.get_attribute("data-card")
        forger.evaluate("([card, seq]) => calijackTables.send({type: 'play', table: location.pathname.split('/').pop(), "
                        "seq: Number(seq), card: card})", [theirs, seq])
        expect(forger.locator("#cj-alert")).to_have_text(say("not_your_card", card=parse_card(theirs)))
        assert forger.locator("#cj-app").get_attribute("data-seq") == seq
        assert other.locator(f"#cj-hand button[data-card='{theirs}']").count() == 1

        # A third learner follows the link: refused, in one sentence.
        cy = new_page()
        assert submit_login(cy, hub, "learner3", password("learner3"), next_url=link.removeprefix(hub.url[:-1])) == 302
        expect(cy.locator("#cj-alert")).to_have_text(say("full"))
        assert cy.locator("#cj-hand button").count() == 0

        # The teacher watches from the class's page: the cards played, no hand.
        teacher = new_page()
        assert submit_login(teacher, hub, TEACHER, password(TEACHER)) == 302
        teacher.wait_for_url(hub.url + "hub/admin*")
        teacher.goto(hub.url + CLASS)
        assert_accessible(teacher, "the class's page with a table in play")
        teacher.get_by_role("link", name=f"{say('watch_link')}: learner1 \u00b7 learner2").click()
        expect(teacher.locator("#cj-app ol li")).to_have_count(3)
        assert teacher.locator("#cj-hand").count() == 0
        hands = set().union(*[set(p.locator("#cj-hand button").evaluate_all("b => b.map(x => x.dataset.card)"))
                              for p in pages])
        assert not {str(parse_card(c)) for c in hands} & set(teacher.locator("#cj-app").inner_text().split())
        assert_accessible(teacher, "the teacher's watch")

        # On to the end of the deal (mouse on the desk, touch on the phone): the same score sheet
        # on both screens and on the teacher's.
        while ann.locator("#cj-app").get_attribute("data-status") == "playing":
            seat = int(ann.locator("#cj-app").get_attribute("data-to-play"))
            seq = int(ann.locator("#cj-app").get_attribute("data-seq"))
            card = pages[seat].locator("#cj-hand button[aria-disabled='false']").first
            card.click() if seat == 0 else card.tap()
            for each in pages:
                expect(each.locator("#cj-app")).to_have_attribute("data-seq", str(seq + 1))
        for each in (*pages, teacher):
            expect(each.locator("#cj-sheet tbody tr")).to_have_count(4)
        sheets = [each.locator("#cj-sheet").inner_text() for each in (*pages, teacher)]
        # The same sheet on the three screens, in the players' names (one of them may have
        # scored every point of a deal).
        assert sheets[0] == sheets[1] == sheets[2], sheets
        assert "learner1" in sheets[0] or "learner2" in sheets[0], sheets
        assert ann.locator("[data-scores]").get_attribute("data-scores") == bo.locator("[data-scores]").get_attribute("data-scores")
        assert_accessible(bo, "the score sheet at 390 px")
        assert too_wide(bo) == []
    finally:
        context.close()
