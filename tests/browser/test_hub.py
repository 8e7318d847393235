"""calijack's JupyterHub (``deploy/jupyterhub``, ``make hub``) holds a class: logins, a server per
learner, the teacher's page, idle servers stopped, and nobody in anyone else's server.

Each hub here is started the way ``make hub`` starts it (``deploy/jupyterhub/hub.py``), on
127.0.0.1 and free ports, with a state folder of the test's own and test accounts that choose
their password at the first login. The pages are guarded (``new_page``): a console error or a
request off 127.0.0.1 fails the test, so each refusal a test expects is taken off by name.
"""

from __future__ import annotations

import dataclasses
import json
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
from test_classroom import play_a_card, wait_for_sandbox, wait_until  # noqa: E402  (beside this file)

REPO = Path(__file__).resolve().parents[2]
HUB = REPO / "deploy" / "jupyterhub" / "hub.py"
# Three learners show a class at once (each in their own server, none in another's); the
# full sizes (10, 30 learners) are bench/hub.py's.
LEARNERS = [f"learner{i}" for i in range(1, 4)]
TEACHER = "teacher"
LESSON = f"voila/render/{SANDBOX}"
INVALID = "Invalid username or password"
NOT_YOURS = "You do not have permission to access Server at /user/{}/"

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


def start_hub(folder: Path, names: list[str], *options: str, timeout: float = 90) -> Hub:
    """``hub.py`` with ``names`` as learners, on 127.0.0.1 and a free port; returns when it answers."""
    folder.mkdir(parents=True, exist_ok=True)
    learners = folder / "learners.txt"
    learners.write_text("# the test's class\n" + "\n".join(names) + "\n")
    port = free_port()
    log_path = folder / "hub.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, str(HUB), "--state", str(folder / "state"), "--learners", str(learners),
             "--teacher", TEACHER, "--port", str(port), *options],
            cwd=REPO, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)  # own group: stopping it stops the proxy and every server
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
    """A hub with the three learners of the class, two more for the bad-input test, frank,
    who never logs in, and gwen, whose progress the class service keeps."""
    started = start_hub(tmp_path_factory.mktemp("hub"), [*LEARNERS, "dave", "erin", "frank", "gwen"])
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


def test_three_learners_at_once_each_in_their_own_sandbox(hub, new_page, page_guard):
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
    for page in pages.values():
        play_a_card(page)
        assert page.locator("#cj-lost").is_hidden()

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

    # The teacher lands on the admin page, which lists the three with their servers running...
    teacher = new_page()
    assert submit_login(teacher, hub, TEACHER, password(TEACHER)) == 302
    teacher.wait_for_url(hub.url + "hub/admin*")
    for name in LEARNERS:
        row = teacher.locator("tr", has=teacher.get_by_text(name, exact=True))
        expect(row.get_by_role("button", name="Stop Server")).to_be_visible()
    # ...but is not let into a learner's server either (not a JupyterHub admin, deliberately).
    answer = teacher.goto(hub.url + f"user/learner3/{LESSON}")
    assert answer.status == 403 and teacher.locator(".cj-sandbox").count() == 0
    expect(teacher.locator("body")).to_contain_text(NOT_YOURS.format("learner3"))
    take_expected_errors(page_guard, 403, "/hub/api/oauth2/authorize")


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
    dave.wait_for_url("**/hub/spawn-pending/dave")
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
    erin.wait_for_url("**/hub/spawn-pending/erin")
    assert whoami(erin, hub)[1]["name"] == "erin"


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


CLASS = "services/calijack-class/"


def test_a_learners_progress_on_the_hub_reaches_the_teacher_and_follows_them(hub, new_page, page_guard):
    """gwen answers a check and plays on the hub; the class service keeps it (through the hub's
    sign-in, synced by the page); the teacher's page and CSV show it; gwen is refused the
    teacher's page; in a new browser, her progress is back; one of her finished deals opens on
    the review board for the teacher."""
    from calijack.text_class import say
    from calijack.text_progress import TEXTS

    gwen = new_page()
    assert submit_login(gwen, hub, "gwen", password("gwen")) == 302
    wait_for_sandbox(gwen, timeout=180_000)
    gwen.evaluate("calijackProgress.answerCheck('book/03_legal_play#1', true)")
    play_a_card(gwen)  # the unfinished game is saved, and sent within a few seconds
    gwen.wait_for_function("calijackProgress.read().game !== null")  # the page has kept the game
    assert gwen.evaluate("calijackProgress.syncNow()") is True  # the service holds what the page holds
    # On the hub the page does not say that progress stays on this device.
    assert gwen.locator(".cj-table-view .cj-progress-note").inner_text() != TEXTS["note_local"]

    teacher = new_page()
    assert submit_login(teacher, hub, TEACHER, password(TEACHER)) == 302
    teacher.wait_for_url(hub.url + "hub/admin*")
    # The teacher lands on the admin page, whose Services menu links to the class's page.
    expect(teacher.locator(f"a.dropdown-item[href='/{CLASS}']")).to_have_count(1)
    row = teacher.locator("tr", has=teacher.get_by_role("link", name="gwen", exact=True))

    def shown() -> bool:
        teacher.goto(hub.url + CLASS)
        return row.count() == 1 and row.locator("[data-answered='1'][data-first='1']").count() == 1
    wait_until(shown, 20, "the teacher's page did not show gwen's check")
    expect(teacher.get_by_role("link", name=say("admin_link"))).to_be_visible()
    for width, height in ((390, 844), (1280, 800)):
        teacher.set_viewport_size({"width": width, "height": height})
        assert_accessible(teacher, f"the class's page at {width} px")
        assert too_wide(teacher) == [], width
    table = teacher.request.get(hub.url + CLASS + "class.csv").text().splitlines()
    assert table[1].startswith("gwen,1,1,"), table

    # gwen is not the teacher: the page refuses her, in one sentence.
    answer = gwen.goto(hub.url + CLASS)
    assert answer.status == 403
    expect(gwen.locator("[role=alert]")).to_have_text(say("not_teacher"))
    take_expected_errors(page_guard, 403, "/" + CLASS)
    # Her progress follows her: a new browser, the server's copy merged in as the lesson opens.
    other = new_page()
    assert submit_login(other, hub, "gwen", password("gwen")) == 302
    try:
        other.get_by_role("button", name=TEXTS["continue"]).click(timeout=120_000)  # her game, offered here
    except Exception:  # noqa: BLE001 - what the page holds says why
        held = other.evaluate("({status: calijackProgress.status(), game: calijackProgress.read().game !== null,"
                              " checks: Object.keys(calijackProgress.read().checks)})")
        pytest.fail(f"gwen's game was not offered in a new browser: {held}; the page says "
                    f"{other.locator('body').inner_text()[:600]!r}", pytrace=False)
    wait_for_sandbox(other, timeout=60_000)
    assert int(other.locator(".cj-sandbox-table").get_attribute("data-plays")) >= 1
    assert "book/03_legal_play#1" in other.evaluate("calijackProgress.read().checks")

    # One of gwen's finished deals (written to the service's database as a sync would) opens on
    # the review board: the review worked out by the service, stepped with the keyboard.
    from calijack import progress
    from calijack.classsvc.store import Store
    from calijack.play import Session
    from calijack.progress.entries import deal_totals

    deal = Session(seed=3, opponent="casual")
    while not deal.finished:
        deal.play(deal.state.legal_cards()[0])
    kept = progress.empty()
    kept["deals"] = [dict(progress.deal_entry(deal, "0123456789abcdef"), when="2026-01-01T10:00:00Z")]
    kept["opponents"] = {"casual": deal_totals(kept["deals"][0])}
    store = Store(f"sqlite:///{hub.state / 'calijack-class.sqlite'}")
    store.put("gwen", kept)
    store.close()
    teacher.goto(hub.url + CLASS + "learner/gwen")
    teacher.get_by_role("link", name=say("learner_review")).click()
    board = teacher.locator("#cj-review[data-steps]")
    expect(board).to_have_attribute("data-steps", str(len(deal.state.plays) // 2), timeout=60_000)
    first = int(board.get_attribute("data-index"))
    teacher.locator(".cj-board-chip[aria-current=step]").focus()
    teacher.keyboard.press("ArrowLeft" if first else "ArrowRight")
    expect(board).to_have_attribute("data-index", str(first - 1 if first else 1))
    expect(teacher.locator(".cj-board-chip[aria-current=step]")).to_be_focused()
    expect(teacher.locator(".cj-board-frame .cj-review-title")).to_contain_text("gwen played")
    for width, height in ((390, 844), (1280, 800)):
        teacher.set_viewport_size({"width": width, "height": height})
        assert_accessible(teacher, f"the review of gwen's deal at {width} px")
        assert too_wide(teacher) == [], width

    # The teacher removes gwen's data from her page (a form the hub's XSRF check lets through).
    # gwen has left first: a page of hers still open would send its copy back with its next
    # save (the teacher's removal keeps no reset time; a learner's own Reset does).
    gwen.close()
    other.close()
    teacher.goto(hub.url + CLASS + "learner/gwen")
    teacher.once("dialog", lambda dialog: dialog.accept())
    teacher.get_by_role("button", name=say("delete", name="gwen")).click()
    expect(teacher.get_by_role("status")).to_have_text(say("deleted", name="gwen"))
    teacher.goto(hub.url + CLASS)
    assert row.count() == 0


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
