"""The class service (``calijack.classsvc``): its handlers with a real database (SQLite in a
temporary folder), the hub's authentication replaced only where it asks the hub who a token
belongs to (``HubOAuth.get_user``). Learners keep their own document; only the teacher's scope
reaches the class; bad input gets one sentence and changes nothing."""

from __future__ import annotations

import csv
import html
import io
import json
import threading


from calijack import progress
from calijack.classsvc import db_url
from calijack.classsvc.app import TEACHER_SCOPE
from calijack.classsvc.review import Reviews
from calijack.classsvc.store import Store, stamp
from calijack.review import review
from calijack.text_class import say
from classsvc_case import ACCESS, PREFIX, ServiceCase  # noqa: E402  (beside this file)
from test_progress import DRILLS, SESSIONS, _deal  # noqa: E402  (beside this file)

USERS = {  # token -> the hub's model of its owner
    "ann-token": {"kind": "user", "name": "ann", "scopes": [ACCESS]},
    "bo-token": {"kind": "user", "name": "bo", "scopes": [ACCESS]},
    "teacher-token": {"kind": "user", "name": "teacher", "scopes": [ACCESS, TEACHER_SCOPE]},
    "outsider-token": {"kind": "user", "name": "eve", "scopes": []},  # no access to the service
    "service-token": {"kind": "service", "name": "other", "scopes": [ACCESS]},
}


def document(checks=(), deals=(), drills=(), stars=None):
    doc = progress.empty()
    for key, first in checks:
        doc["checks"][key] = {"first": first, "solved": True}
    for number, session in enumerate(deals, start=1):
        entry = _deal(session, f"2026-12-01T10:0{number}:00Z", number)
        doc["deals"].append(entry)
        totals = doc["opponents"].setdefault("casual", dict.fromkeys(("deals", "for", "against", "won", "lost"), 0))
        mine = entry["points"][entry["seat"]]
        totals["deals"] += 1
        totals["for"] += mine
        totals["against"] += sum(entry["points"]) - mine
    doc["drills"] = [dict(d, step=0, due="2000-01-01") for d in drills]
    if stars is not None:
        doc["puzzles"]["7"] = {"best": stars, "tries": 0, "hint": False}
    return doc


REVIEW_WORLDS = 4  # the coach's verdicts over few worlds: the same code, a fraction of a second


class ServiceTest(ServiceCase):
    USERS = USERS

    def app_options(self):
        self.reviews = Reviews(worlds=REVIEW_WORLDS)
        return {"reviews": self.reviews}

    def tearDown(self):
        self.reviews.close()
        super().tearDown()

    def call(self, method, path, token=None, body=None):
        headers = {"Authorization": f"token {token}"} if token else {}
        answer = self.fetch(PREFIX + path, method=method, headers=headers, body=body, follow_redirects=False,
                            allow_nonstandard_methods=True)
        return answer.code, answer.body.decode()

    def put(self, token, doc):
        return self.call("PUT", "api/progress", token, doc if isinstance(doc, str) else json.dumps(doc))

    def test_a_learner_writes_and_reads_their_own_and_a_write_merges(self):
        assert json.loads(self.call("GET", "api/progress", "ann-token")[1]) == {"document": None}
        laptop = document(checks=[("book/03_legal_play#1", True)], stars=1)
        phone = document(checks=[("book/04_drawing#2", False)], deals=[SESSIONS[0]], stars=3)
        assert self.put("ann-token", laptop)[0] == 200
        status, body = self.put("ann-token", phone)
        merged = json.loads(body)["document"]
        assert status == 200 and merged == progress.merge(laptop, phone)
        assert json.loads(self.call("GET", "api/progress", "ann-token")[1])["document"] == merged
        assert merged["puzzles"]["7"]["best"] == 3 and len(merged["checks"]) == 2
        # bo sees nothing of ann's
        assert json.loads(self.call("GET", "api/progress", "bo-token")[1]) == {"document": None}
        # Reset: ann's copy goes
        assert self.call("DELETE", "api/progress", "ann-token")[0] == 204
        assert self.store.get("ann") is None

    def test_bad_input_gets_one_sentence_and_changes_nothing(self):
        kept = document(checks=[("book/03_legal_play#1", True)])
        self.put("ann-token", kept)
        before = self.store.get("ann")
        too_new = dict(kept, version=progress.VERSION + 1)
        bad_schema = dict(kept, checks={"book/03#1": {"first": "yes", "solved": True}})
        for body in ("", "{", "[1, 2]", json.dumps(too_new), json.dumps(bad_schema),
                     "x" * (progress.MAX_CHARS + 1), json.dumps({"format": "calijack-progress", "version": 2})):
            status, answer = self.put("ann-token", body)
            error = json.loads(answer)["error"]
            assert status == 400, (body[:40], status)
            assert error.count(".") >= 1 and "\n" not in error and "Traceback" not in error, error
        assert "newer version" in json.loads(self.put("ann-token", too_new)[1])["error"]
        assert self.store.get("ann") == before

    def test_no_token_another_learners_token_and_a_service_are_refused(self):
        doc = document(checks=[("book/03_legal_play#1", True)])
        assert self.put(None, doc)[0] == 403  # no token: a write is refused, not redirected
        assert self.call("GET", "api/progress")[0] == 302  # a read is sent to the hub's sign-in
        assert self.put("outsider-token", doc)[0] == 403  # not granted the service
        assert self.put("service-token", doc)[0] == 403
        assert json.loads(self.put("service-token", doc)[1])["error"] == say("not_yours")
        # The URL names nobody: bo's token writes bo's document, whatever the body holds.
        self.put("bo-token", doc)
        assert self.store.get("ann") is None and self.store.get("bo")[0] == doc
        for path in ("api/progress/ann", "api/learners/ann"):
            assert self.call("PUT", path, "bo-token", json.dumps(doc))[0] == 404
        assert self.store.get("ann") is None

    def test_only_the_teacher_reaches_the_class(self):
        self.put("ann-token", document(checks=[("book/03_legal_play#1", True), ("book/03_legal_play#2", False)],
                                       deals=[SESSIONS[0], SESSIONS[1]], drills=DRILLS[:1], stars=2))
        self.put("bo-token", document())
        for path in ("", "class.csv", "learner/ann", "learner/ann/deal/1.json"):
            status, body = self.call("GET", path, "ann-token")
            assert status == 403 and say("not_teacher") in html.unescape(body), path
            assert self.call("GET", path, "teacher-token")[0] == 200, path
        status, page = self.call("GET", "", "teacher-token")
        assert page.count("<tr>") == 3  # the heading and two learners
        assert "data-answered='2' data-first='1'" in page and "data-queued='1' data-due='1'" in page
        rows = list(csv.reader(io.StringIO(self.call("GET", "class.csv", "teacher-token")[1])))
        assert [r[0] for r in rows[1:]] == ["ann", "bo"]
        ann = dict(zip(rows[0], rows[1]))
        points = sum(d["points"][d["seat"]] for d in self.store.get("ann")[0]["deals"])
        assert (ann["checks answered"], ann["checks right at the first try"], ann["puzzle stars"]) == ("2", "1", "2")
        assert ann["deals finished"] == "2" and f"Casual: 2 deals, {points / 2:.2f} a deal" in ann[
            "deals per level (mean points a deal)"]
        assert (ann["mistakes queued"], ann["mistakes due today"]) == ("1", "1")
        # sorted by deals, most first
        status, page = self.call("GET", "?sort=deals&order=desc", "teacher-token")
        assert page.index(">ann</a>") < page.index(">bo</a>") and "aria-sort='descending'" in page
        status, page = self.call("GET", "?sort=deals&order=asc", "teacher-token")
        assert page.index(">bo</a>") < page.index(">ann</a>")

    def test_the_teacher_removes_one_learners_data_and_nobody_else_can(self):
        self.put("ann-token", document(checks=[("book/03_legal_play#1", True)]))
        self.put("bo-token", document())
        assert self.call("POST", "learner/ann/delete", "bo-token", "")[0] == 403
        assert self.store.get("ann") is not None
        assert self.call("POST", "learner/ann/delete", "teacher-token", "")[0] == 200
        assert self.store.get("ann") is None and self.store.get("bo") is not None
        status, body = self.call("GET", "learner/ann", "teacher-token")
        assert status == 404 and say("no_learner", name="ann") in html.unescape(body)
        assert self.call("GET", "learner/%3Cscript%3E", "teacher-token")[0] == 404

    def test_the_teacher_reviews_a_learners_deal_on_the_board_and_nobody_else_can(self):
        self.put("ann-token", document(deals=[SESSIONS[0], SESSIONS[1]]))
        status, page = self.call("GET", "learner/ann", "teacher-token")
        assert status == 200 and f"href='{PREFIX}learner/ann/deal/2'" in page
        # deal 2 is the older one, SESSIONS[0]'s: the page holds the engine's review of ann's plays
        entry, state = progress.read_deal(self.store.get("ann")[0]["deals"][0])
        expected = review(state, seats=[entry["seat"]], samples=REVIEW_WORLDS, seed=0)
        status, page = self.call("GET", "learner/ann/deal/2", "teacher-token")
        assert status == 200, page
        board = json.loads(page.split("id='cj-review-data'>", 1)[1].split("</script>", 1)[0])
        assert len(board["steps"]) == len(expected) == len(state.plays) // 2
        assert [s["mistake"] for s in board["steps"]] == [r.mistake for r in expected] and any(r.mistake for r in expected)
        assert board["index"] == next(k for k, r in enumerate(expected) if r.mistake)
        assert f"trick {expected[0].trick}, ann played {expected[0].card}" in board["steps"][0]["label"]
        assert "</" not in page.split("id='cj-review-data'>", 1)[1].split("</script>", 1)[0]
        script = page.split("<script type='module'>", 1)[1].split("</script>", 1)[0]
        assert "function render(" in script and "function cjArrowTarget(" in script and "save_changes" in script
        # asked again: the review kept in memory, not worked out twice
        assert self.call("GET", "learner/ann/deal/2", "teacher-token")[0] == 200 and len(self.reviews._kept) == 1
        # a learner is refused, even for their own deal; an unknown deal or learner: one sentence
        status, body = self.call("GET", "learner/ann/deal/2", "ann-token")
        assert status == 403 and say("not_teacher") in html.unescape(body)
        for path, sentence in (("learner/ann/deal/9", say("no_deal", name="ann", number=9)),
                               ("learner/ann/deal/0", say("no_deal", name="ann", number=0)),
                               ("learner/zed/deal/1", say("no_learner", name="zed"))):
            status, body = self.call("GET", path, "teacher-token")
            assert status == 404 and sentence in html.unescape(body) and "Traceback" not in body, path
        assert len(self.reviews._kept) == 1

    def test_a_learner_sees_their_own_row_and_resets_only_their_own_progress(self):
        ann = document(checks=[("book/03_legal_play#1", True), ("book/03_legal_play#2", False)],
                       deals=[SESSIONS[0]], stars=2)
        self.put("ann-token", ann)
        self.put("bo-token", document(checks=[("book/04_drawing#1", True)]))
        bo_before = self.store.get("bo")
        status, page = self.call("GET", "me", "ann-token")
        assert status == 200 and "data-answered='2' data-first='1'" in page and "data-stars='2'" in page
        assert say("me_reset_what") in html.unescape(page) and "name='_xsrf'" in page
        assert "book/04_drawing" not in page
        # Bad input: no tick, a service, no token: one sentence, nothing removed
        status, body = self.call("POST", "me/reset", "ann-token", "")
        assert status == 400 and say("reset_unconfirmed") in html.unescape(body)
        assert self.call("POST", "me/reset", "service-token", "confirm=yes")[0] == 403
        assert self.call("POST", "me/reset", None, "confirm=yes")[0] == 403
        assert self.store.get("ann") is not None and self.store.reset_at("ann") is None
        # ann's reset, the body naming bo: ann's progress goes, bo's stays
        status, page = self.call("POST", "me/reset", "ann-token", "confirm=yes&learner=bo&name=bo")
        assert status == 200 and say("me_reset_done") in html.unescape(page)
        assert f"data-key='{progress.KEY}'" in page and "localStorage.removeItem" in page
        assert self.store.get("ann") is None and self.store.get("bo") == bo_before
        assert self.store.reset_at("bo") is None and self.store.reset_at("ann") is not None
        for path in ("me/bo/reset", "learner/bo/reset", "api/progress/bo"):
            assert self.call("POST", path, "ann-token", "confirm=yes")[0] in (403, 404), path
        assert self.store.get("bo") == bo_before
        # Another device's copy from before the reset does not come back; new progress does
        status, body = self.put("ann-token", ann)
        at = stamp(self.store.reset_at("ann"))
        assert status == 409 and json.loads(body)["error"] == say("before_reset", when=at[:16].replace("T", " "))
        assert self.store.get("ann") is None
        fresh = document(checks=[("book/05_scoring#1", True)])
        fresh["deals"] = [dict(ann["deals"][0], when=at, id="fedcba9876543210/1")]
        fresh["opponents"] = ann["opponents"]
        assert self.put("ann-token", fresh)[0] == 200 and self.store.get("ann")[0] == progress.read(fresh)
        status, page = self.call("GET", "me", "ann-token")
        assert status == 200 and "data-answered='1' data-first='1'" in page


def test_two_writes_at_the_same_moment_are_both_kept(tmp_path):
    url = f"sqlite:///{tmp_path}/class.sqlite"
    Store(url).close()
    docs = [document(checks=[(f"book/03_legal_play#{i}", True)]) for i in range(1, 9)]
    stores = [Store(url) for _ in docs]  # one connection each, as separate processes would have
    threads = [threading.Thread(target=s.put, args=("ann", d)) for s, d in zip(stores, docs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    kept = stores[0].get("ann")[0]
    assert sorted(kept["checks"]) == sorted(k for d in docs for k in d["checks"])
    for s in stores:
        s.close()


def test_the_database_is_sqlite_in_the_working_folder_unless_configured(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert db_url(env={}) == f"sqlite:///{tmp_path / 'calijack-class.sqlite'}"
    assert db_url(env={"CALIJACK_CLASS_DB": "postgresql://db/class"}) == "postgresql://db/class"
    assert db_url("sqlite:///x.sqlite", env={"CALIJACK_CLASS_DB": "y"}) == "sqlite:///x.sqlite"


def test_the_benchmark_runs_at_a_tiny_size():
    """bench/classsvc.py (the full sizes are its business): every write kept, none failed."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "bench" / "classsvc.py"
    spec = importlib.util.spec_from_file_location("bench_classsvc", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    report = bench.run(2, 2, None, SESSIONS)
    assert report["writes"] == 4 and report["failures"] == 0 and report["db_bytes_per_learner"] > 0
    assert report["write_ms_p95"] >= report["write_ms_p50"] > 0


def test_what_is_kept_outlives_the_service(tmp_path):
    """The service stopped and started again (the hub restarted): every document is still there."""
    url = f"sqlite:///{tmp_path}/class.sqlite"
    first = Store(url)
    doc = document(checks=[("book/03_legal_play#1", True)], deals=[SESSIONS[0]], drills=DRILLS[:1], stars=3)
    first.put("ann", doc)
    first.close()
    again = Store(url)
    assert again.get("ann")[0] == doc and [name for name, _, _ in again.all()] == ["ann"]
    again.close()


def test_the_hub_benchmark_sends_what_a_page_sends(tmp_path, monkeypatch):
    """bench/class_sync.py's learner (its runs are the lead's business): every write it sends, one a
    play, is a document the service reads and keeps; the deal's end is kept with its totals."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "bench" / "class_sync.py"
    spec = importlib.util.spec_from_file_location("bench_class_sync", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    [(games, entry)] = bench.played_deals(1)
    # The bench sends at most one write every 5 s; here one a second (the document's times are to
    # the second, and the merge keeps either of two games saved in the same second).
    seconds = iter(range(10**6))
    monkeypatch.setattr(bench, "_stamp", lambda _now: f"2026-12-03T10:{(s := next(seconds)) // 60:02d}:{s % 60:02d}Z")
    assert len(games) + 1 == 26  # the learner's 26 plays: a write after each, the last one ends the deal
    page, store = bench.Page(7), Store(f"sqlite:///{tmp_path}/class.sqlite")
    for game in games:
        kept = store.put("ann", page.after_play(0, game))
        assert kept["game"]["record"] == game["record"] and kept["deals"] == []
    kept = store.put("ann", page.after_deal(0, entry))
    assert kept["game"] is None and [d["id"] for d in kept["deals"]] == [f"{7:08x}{0:08x}/1"]
    assert kept["opponents"]["casual"]["deals"] == 1 and kept["checks"]
    store.close()


def test_a_copy_stored_by_an_older_service_is_read_and_brought_up_to_date_before_a_merge(tmp_path):
    """The store reads its own copies only when an older version of the service wrote them (its
    merge trusts what it wrote itself): a version-2 copy in the database (no deals against
    classmates) merges with a new one into a current document, nothing lost."""
    import sqlite3

    from calijack.progress import VERSION

    url = f"sqlite:///{tmp_path}/class.sqlite"
    store = Store(url)
    store.put("ann", document(checks=[("book/03_legal_play#1", True)]))
    old = {key: value for key, value in document(checks=[("book/03_legal_play#1", True)]).items() if key != "people"}
    old["version"] = 2
    with sqlite3.connect(tmp_path / "class.sqlite") as db:
        assert db.execute("update calijack_progress set document = ? where learner = 'ann'",
                          (json.dumps(old),)).rowcount == 1
    merged = store.put("ann", document(checks=[("book/03_legal_play#2", False)]))
    assert merged["version"] == VERSION and merged["people"] == {"totals": {}, "deals": []}
    assert sorted(merged["checks"]) == ["book/03_legal_play#1", "book/03_legal_play#2"]
    assert store.get("ann")[0] == merged
    store.close()
