"""The progress document: its schema, reading it (every bad case told apart), versions, and the
parts the live sandbox hands to Python (a saved game, a past deal), all held to the reference.

The schema is checked against the reference JSON Schema implementation (PyPI ``jsonschema``):
documents hypothesis builds, valid or damaged, get the same verdict from it and from
:mod:`calijack.schemalite` (which Python and the page's script both use).
"""

from __future__ import annotations

import copy
import json
import random
import re

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calijack import progress
from calijack.play import Session
from calijack.progress import ProgressError, read
from calijack.records import deal_record
from calijack.schemalite import KEYWORDS, SchemaError, check
from calijack.state import Deal
from calijack.text_progress import say as say_progress



def _ecma_pattern(validator, pattern, instance, schema):
    # JSON Schema's patterns are ECMA 262's, where "$" is the end of the text; the reference
    # implementation uses Python's re, whose "$" also matches before a final newline.
    if validator.is_type(instance, "string") and not re.search(pattern.removesuffix("$") + r"\Z", instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


REFERENCE = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": _ecma_pattern})(progress.schema())


def config(examples: int):
    return settings(max_examples=examples, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def finished_session(seed: int) -> Session:
    session = Session(seed=seed, opponent="casual")
    rng = random.Random(seed)
    while not session.finished:
        session.play(rng.choice(session.state.legal_cards()))
    return session


SESSIONS = [finished_session(seed) for seed in range(3)]
GAME_ID = "0123456789abcdef"

# -- documents, as the store writes them --------------------------------------------------------

ids = st.text("abcdefghijklmnopqrstuvwxyz0123456789_./-", min_size=1, max_size=20)
check_ids = st.builds(lambda page, n: f"{page}#{n}", ids, st.integers(1, 999))
checks = st.dictionaries(check_ids, st.fixed_dictionaries({"first": st.booleans(), "solved": st.booleans()}),
                         max_size=5)
puzzles = st.dictionaries(st.integers(1, 9999).map(str),
                          st.fixed_dictionaries({"best": st.integers(0, 3), "tries": st.integers(0, 1000),
                                                 "hint": st.booleans()}), max_size=5)
names = st.sampled_from(["heuristic", "random", "search", "Beginner", "Casual player"])
counts = st.integers(0, 10**9)
opponents = st.dictionaries(names, st.fixed_dictionaries({k: counts for k in ("deals", "for", "against", "won",
                                                                             "lost")}), max_size=3)
whens = st.sampled_from(["2026-12-01T10:00:00Z", "2027-01-31T23:59:59.123Z"])


def _deal(session, when, number):
    return dict(progress.deal_entry(session, GAME_ID), when=when, id=f"{GAME_ID}/{number}")


deals = st.lists(st.builds(_deal, st.sampled_from(SESSIONS), whens, st.integers(1, 999)), max_size=3)


def _game(seed: int, plays: int) -> dict:
    session = Session(seed=seed, opponent="casual")
    for _ in range(plays):
        if session.finished:
            break
        session.play(session.state.legal_cards()[0])
    return dict(progress.game_entry(session, GAME_ID), saved="2026-12-01T10:00:00Z")


games = st.one_of(st.none(), st.builds(_game, st.integers(0, 10**6), st.integers(0, 4)))


def _drills():
    """Queue entries of a finished deal's mistakes, as the sandbox sends them (few worlds: cheap)."""
    from calijack.drill import drills
    from calijack.retry import queue_entry

    return [queue_entry(d) for d in drills(SESSIONS[0].state, 0, samples=4)]


DRILLS = _drills()
days = st.dates().map(lambda d: d.isoformat()).filter(lambda t: len(t) == 10)
drills = st.lists(st.builds(lambda e, step, due: dict(e, step=step, due=due), st.sampled_from(DRILLS),
                            st.integers(0, len(progress.DRILL_DAYS) - 1), days), max_size=3)
classmates = st.sampled_from(["bo", "learner2", "ann.lee"])
people = st.builds(lambda t, d, who: {"totals": t, "deals": [dict(e, opponent=who) for e in d]},
                   st.dictionaries(classmates, st.fixed_dictionaries({k: counts for k in ("deals", "for", "against",
                                                                                          "won", "lost")}), max_size=2),
                   deals, classmates)
documents = st.builds(lambda c, p, o, d, g, q, m: {"format": progress.FORMAT, "version": progress.VERSION, "checks": c,
                                                    "puzzles": p, "opponents": o, "deals": d, "game": g, "drills": q,
                                                    "people": m},
                      checks, puzzles, opponents, deals, games, drills, people)

# -- damage: any part of a document replaced by any JSON value -----------------------------------

junk = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                 max_size=3), max_leaves=8)


def paths(value, here=()):
    yield here
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, here + (key,))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            yield from paths(item, here + (k,))


def damaged(doc, where, value):
    doc = copy.deepcopy(doc)
    if not where:
        return value
    parent = doc
    for key in where[:-1]:
        parent = parent[key]
    parent[where[-1]] = value
    return doc


# -- the schema ----------------------------------------------------------------------------------

def _keywords(schema):
    for key, value in schema.items():
        yield key, value
        if key in ("properties",):
            for sub in value.values():
                yield from _keywords(sub)
        elif key in ("items", "additionalProperties", "propertyNames") and isinstance(value, dict):
            yield from _keywords(value)
        elif key == "anyOf":
            for sub in value:
                yield from _keywords(sub)


def test_the_schema_is_a_json_schema_of_only_the_keywords_both_checkers_know():
    jsonschema.Draft202012Validator.check_schema(progress.schema())
    used = dict(_keywords(progress.schema()))
    assert set(used) <= KEYWORDS, set(used) - KEYWORDS
    for key, value in _keywords(progress.schema()):
        if key == "pattern":
            assert value.startswith("^") and value.endswith("$") and value.isascii(), value


@config(60)
@given(documents)
def test_documents_the_store_writes_read_back_unchanged(doc):
    REFERENCE.validate(doc)
    text = json.dumps(doc, separators=(",", ":"))
    assert text.isascii()
    assert read(text) == doc
    assert read(doc) == doc


@config(250)
@given(documents, st.data())
def test_a_damaged_document_is_read_or_refused_as_the_reference_says(doc, data):
    where = data.draw(st.sampled_from(list(paths(doc))))
    bad = damaged(doc, where, data.draw(junk))
    try:
        got = read(json.dumps(bad))
    except ProgressError as error:
        assert error.kind in {"foreign", "too_new", "schema"}, error.kind
        assert str(error) and "\n" not in str(error)
        if error.kind == "schema" and isinstance(bad, dict) and bad.get("format") == progress.FORMAT:
            assert not REFERENCE.is_valid(bad), str(error)
    else:
        assert REFERENCE.is_valid(bad) and got == bad


# Texts that are no document this book reads, and why (a ProgressError's kind): the Python
# reader and the page's script (test_the_page_script_reads_every_case_as_python_does) both.
BAD_TEXTS = [
    ("", "empty"), ("  \n", "empty"), ("{", "not_json"), ('{"format": NaN}', "not_json"),
    ("[1, 2]", "foreign"), ('"calijack-progress"', "foreign"), ('{"format": "other", "version": 1}', "foreign"),
    ('{"format": "calijack-progress"}', "foreign"), ('{"format": "calijack-progress", "version": true}', "foreign"),
    ('{"format": "calijack-progress", "version": 0}', "foreign"),
    ('{"format": "calijack-progress", "version": 99}', "too_new"),
    # One version past this one, and otherwise a good document of this version.
    (json.dumps(dict(progress.empty(), version=progress.VERSION + 1)), "too_new"),
    ('{"format": "calijack-progress", "version": 1}', "schema"),
    ("[" * 100_000 + "]" * 100_000, "not_json"),   # too deep for Python to read: refused all the same
    ("x" * (progress.MAX_CHARS + 1), "too_big"),
]


@pytest.mark.parametrize("text, kind", BAD_TEXTS)
def test_each_bad_case_is_told_in_one_sentence(text, kind):
    with pytest.raises(ProgressError) as caught:
        read(text)
    assert caught.value.kind == kind
    assert str(caught.value) and "\n" not in str(caught.value) and len(str(caught.value)) < 200


def test_a_too_new_document_says_which_versions_this_book_reads():
    with pytest.raises(ProgressError, match=f"version 7; this one reads versions up to {progress.VERSION}"):
        read(dict(progress.empty(), version=7))


def test_a_document_one_version_too_new_is_refused_though_it_fits_this_version():
    # Read as this version, its newer parts would be lost or taken for something else.
    newer = dict(progress.empty(), version=progress.VERSION + 1,
                 checks={"book/01#1": {"first": True, "solved": True}})
    assert REFERENCE.is_valid(dict(newer, version=progress.VERSION))
    with pytest.raises(ProgressError) as caught:
        read(json.dumps(newer))
    assert caught.value.kind == "too_new"
    assert str(caught.value) == say_progress("reason_too_new", version=progress.VERSION + 1, known=progress.VERSION)


def test_the_largest_document_the_schema_allows_stays_under_the_cap():
    """However many deals are played, the document cannot pass MAX_CHARS: every part is bounded."""
    biggest = biggest_document()
    REFERENCE.validate(biggest)
    assert len(json.dumps(biggest, separators=(",", ":"))) < progress.MAX_CHARS


def biggest_document() -> dict:
    sections = progress.SECTIONS
    doc = progress.empty()
    longest_page = "a" * 80
    doc["checks"] = {f"{longest_page[:-len(str(k))]}{k}#{k % 1000}": {"first": True, "solved": False}
                     for k in range(sections["checks"].schema["maxProperties"])}
    doc["puzzles"] = {str(9999 - k): {"best": 3, "tries": 1000, "hint": False}
                      for k in range(sections["puzzles"].schema["maxProperties"])}
    doc["opponents"] = {f"P{k:039d}": {n: 10**9 for n in ("deals", "for", "against", "won", "lost")}
                        for k in range(sections["opponents"].schema["maxProperties"])}
    three = finished_session_3()
    entry = dict(progress.deal_entry(three, GAME_ID), when="2026-12-01T10:00:00.123456Z", id=f"{'f' * 32}/999")
    entry["record"]["rules"] = {f"{'o' * 31}{chr(97 + k)}": "v" * 40 for k in range(26)}
    doc["deals"] = [entry] * progress.KEPT_DEALS
    body = {key: entry["record"][key] for key in ("hands", "stock", "plays")}
    doc["game"] = {"id": "f" * 32, "saved": entry["when"], "opponent": "P" * 40, "seat": 2, "seed": "9" * 19,
                   "deal": 100, "trick": 26, "tricks": 26,
                   "record": {"rules": entry["record"]["rules"], "first_dealer": 0, "deals": [body] * 100}}
    cards = [card for hand in entry["record"]["hands"] for card in hand][:26]
    longest = dict(DRILLS[0], seat=2, record=entry["record"], accept=cards, step=len(progress.DRILL_DAYS) - 1,
                   values={card: -0.12345678901234567 for card in cards}, due="2026-12-31")
    doc["drills"] = [longest] * progress.KEPT_DRILLS
    return doc


def finished_session_3() -> Session:
    session = Session(seed=5, opponent="casual", rules={"players": 3})
    while not session.finished:
        session.play(session.state.legal_cards()[0])
    return session


# -- versions ------------------------------------------------------------------------------------

def test_a_newer_version_reads_an_older_document_by_adding_its_sections_empty(monkeypatch):
    current = progress.VERSION
    older = dict(progress.empty(), checks={"book/01#1": {"first": True, "solved": True}})
    later = progress.Section(current + 1, {}, {"type": "object", "maxProperties": 10})
    monkeypatch.setattr(progress.document, "VERSION", current + 1)  # the one place it is read from
    monkeypatch.setitem(progress.SECTIONS, "later", later)
    upgraded = read(json.dumps(older))
    assert upgraded["version"] == current + 1 and upgraded["later"] == {} and upgraded["checks"] == older["checks"]
    assert "later" not in progress.schema(current)["properties"] and "later" in progress.schema(current + 1)["required"]
    # An older document may not hold a newer version's section; a document of that version must.
    with pytest.raises(ProgressError, match="unknown entry"):
        read(dict(older, later={}))
    with pytest.raises(ProgressError, match='has no "later"'):
        read(dict(older, version=current + 1))
    assert json.loads(json.dumps(progress.config()))["sections"]["later"] == {"since": current + 1, "empty": {}}


def test_a_version_1_document_reads_with_an_empty_practice_queue():
    version_1 = {key: value for key, value in progress.empty().items() if key not in ("drills", "people")}
    version_1.update(version=1, checks={"book/01#1": {"first": True, "solved": True}})
    upgraded = read(json.dumps(version_1))
    assert upgraded["version"] == progress.VERSION and upgraded["drills"] == [] and upgraded["checks"] == version_1["checks"]
    assert upgraded["people"] == {"totals": {}, "deals": []}
    with pytest.raises(ProgressError, match="unknown entry"):          # version 1 had no queue
        read(dict(version_1, drills=[]))
    with pytest.raises(ProgressError, match='has no "drills"'):        # version 2 must have one
        read(dict(version_1, version=2))


def test_a_version_2_document_reads_with_no_deals_against_classmates():
    version_2 = {key: value for key, value in progress.empty().items() if key != "people"}
    version_2.update(version=2, checks={"book/01#1": {"first": True, "solved": True}})
    upgraded = read(json.dumps(version_2))
    assert upgraded["version"] == 3 and upgraded["people"] == {"totals": {}, "deals": []}
    with pytest.raises(ProgressError, match="unknown entry"):          # version 2 had no people
        read(dict(version_2, people={"totals": {}, "deals": []}))
    with pytest.raises(ProgressError, match='has no "people"'):        # version 3 must have it
        read(dict(version_2, version=3))


# -- what the live sandbox hands to Python --------------------------------------------------------

def test_a_saved_game_is_read_with_its_record_replayed():
    game = _game(7, 3)
    saved = progress.read_game(game, ("casual",))
    assert saved.seed == 7 and saved.record == game["record"] and len(saved.read.plays) == len(game["record"]["plays"])


def _not_in_hand(game):
    game["record"]["plays"][0] = game["record"]["hands"][1][0]   # seat 0 leads seed 7's deal


def _twice(game):
    game["record"]["hands"][0][0] = game["record"]["hands"][1][0]


@pytest.mark.parametrize("change, says", [
    (_not_in_hand, "trick 1, seat 0"),
    (_twice, "twice"),
    (lambda g: g.__setitem__("seat", 2), "seat 2"),
    (lambda g: g.__setitem__("opponent", "nobody"), "nobody"),
    (lambda g: g.__setitem__("seed", "7e3"), "seed"),
    (lambda g: g.__setitem__("extra", 1), "unknown entry"),
    (lambda g: g["record"].__setitem__("plays", [["7C"]]), "plays"),
])
def test_a_bad_saved_game_is_refused_with_its_reason(change, says):
    game = _game(7, 3)
    change(game)
    with pytest.raises(ProgressError) as caught:
        progress.read_game(game, ("casual",))
    assert says in str(caught.value), str(caught.value)


def test_a_past_deal_must_be_finished():
    entry = _deal(SESSIONS[0], "2026-12-01T10:00:00Z", 1)
    assert progress.read_deal(entry)[1].finished
    unfinished = dict(entry, record=deal_record(Deal.random(3).start()))
    with pytest.raises(ProgressError, match="not finished"):
        progress.read_deal(unfinished)


def test_the_checker_agrees_with_the_reference_on_small_cases():
    for value, schema in [(2.0, {"type": "integer"}), (True, {"type": "integer"}), (None, {"enum": [None]}),
                          (0, {"enum": [False]}), ("é", {"maxLength": 1}), ("a", {"pattern": "^a$"}),
                          ({"constructor": 1}, {"properties": {}, "additionalProperties": False})]:
        ours = True
        try:
            check(value, schema)
        except SchemaError:
            ours = False
        assert ours == jsonschema.Draft202012Validator(schema).is_valid(value), (value, schema)
    # "$" is the end of the text, as in ECMA 262 (the standard's dialect, and the page's): the
    # reference, on Python's re, also lets a final newline through.
    with pytest.raises(SchemaError):
        check("a\n", {"pattern": "^a$"})


def test_the_script_carries_the_constants_and_sentences_once():
    script = progress.script()
    assert "/*CONFIG*/" not in script and script.count(progress.KEY) >= 1
    constants = json.loads(script.split("(typeof globalThis !== \"undefined\" ? globalThis : window, ")[1]
                           .rsplit(");", 1)[0])
    assert constants == json.loads(json.dumps(progress.config()))


def test_each_puzzle_has_a_hint_and_carries_its_number_for_the_store():
    from calijack.puzzles import load, theme
    from calijack.text_coach import PUZZLE_HINTS
    from calijack.widgets.practice import HINT_CLASS, practice_set

    puzzles = load()[:4]
    box = practice_set(puzzles)
    for puzzle, item in zip(puzzles, box.questions):
        assert f"cj-puzzle-n-{puzzle.number}" in item._dom_classes
        hint = item.hint
        assert HINT_CLASS in hint._dom_classes
        assert item.children.index(hint) == item.children.index(item.control) + 1   # under the cards
        assert "cj-quiz-control" not in hint.control._dom_classes and hint.control.index is None
        said = PUZZLE_HINTS[theme(puzzle.state, item.rating, puzzle.answer)]
        assert said in hint.stack.children[0].value
        assert str(puzzle.answer) not in said        # a hint, not the answer


def one_past_each_limit() -> dict:
    """A document one step past each of the schema's limits, by name (each refused alone)."""
    base = read(json.dumps(biggest_document()))
    entry, game = base["deals"][0], base["game"]
    past = {
        "deals": dict(base, deals=[entry] * (progress.KEPT_DEALS + 1)),
        "checks": dict(base, checks=dict(base["checks"], **{"book/x#1": {"first": True, "solved": True}})),
        "hands": dict(base, deals=[dict(entry, record=dict(entry["record"], hands=entry["record"]["hands"] * 2))]),
        "plays": dict(base, deals=[dict(entry, record=dict(entry["record"], plays=entry["record"]["plays"] * 2))]),
        "rule": dict(base, deals=[dict(entry, record=dict(entry["record"], rules={"game": "v" * 41}))]),
        "match": dict(base, game=dict(game, record=dict(game["record"], deals=game["record"]["deals"] * 2))),
        "deal": dict(base, game=dict(game, deal=101)),
        "drills": dict(base, drills=base["drills"] + base["drills"][:1]),
        "step": dict(base, drills=[dict(base["drills"][0], step=len(progress.DRILL_DAYS))]),
        "due": dict(base, drills=[dict(base["drills"][0], due="2026-12-1")]),
        "stars": dict(base, puzzles={"1": {"best": 4, "tries": 0, "hint": False}}),
        "id": dict(base, checks={"b" * 81 + "#1": {"first": True, "solved": True}}),
    }
    return past


@pytest.mark.parametrize("limit", list(one_past_each_limit()))
def test_one_past_each_limit_is_refused(limit):
    doc = one_past_each_limit()[limit]
    assert not REFERENCE.is_valid(doc)
    with pytest.raises(ProgressError) as caught:
        read(json.dumps(doc))
    assert caught.value.kind == "schema"


# -- the page's script under Node: the same verdicts as Python's reader ----------------------------

NODE_DRIVER = """
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map((text) => globalThis.calijackProgress.parse(text))));
"""


def good_texts() -> list[str]:
    """Documents the book reads: this version's, empty and full, and an older one."""
    version_1 = {key: value for key, value in progress.empty().items() if key not in ("drills", "people")}
    version_1.update(version=1, checks={"book/01#1": {"first": True, "solved": False}})
    return [json.dumps(progress.empty()), "\ufeff" + json.dumps(progress.empty(), indent=1),
            json.dumps(version_1), json.dumps(biggest_document())]


def test_the_page_script_reads_every_case_as_python_does(tmp_path):
    """calijack/widgets/progress.js, as the pages get it (progress.script()), run under Node on
    the reader's good and bad documents (BAD_TEXTS, one past each limit): the same document,
    or the same kind of refusal with the same sentence."""
    import shutil
    import subprocess

    node = shutil.which("node")
    assert node, "node is missing: install Node.js (`make npm` installs Debian's npm, which brings it)"
    texts = good_texts() + [text for text, _ in BAD_TEXTS] + [json.dumps(doc) for doc in one_past_each_limit().values()]
    script = tmp_path / "progress-check.js"
    script.write_text(progress.script() + "\n" + NODE_DRIVER, encoding="utf-8")
    done = subprocess.run([node, str(script)], input=json.dumps(texts), capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    verdicts = json.loads(done.stdout)
    assert len(verdicts) == len(texts)
    for k, (text, verdict) in enumerate(zip(texts, verdicts)):
        try:
            python = {"doc": read(text)}
        except ProgressError as error:
            python = {"kind": error.kind, "reason": str(error)}
        if text.startswith("[" * 1000) and "doc" not in verdict:
            # Deeper than Python's recursion limit: Python cannot parse it ("not JSON"), the
            # browser can ("not a progress file"). Both refuse it, in one sentence each.
            assert python["kind"] == "not_json" and verdict["kind"] == "foreign", (verdict, python)
            continue
        assert verdict == python, f"case {k} ({text[:60]!r}…): Node {verdict}, Python {python}"
    assert sum("doc" in v for v in verdicts) == len(good_texts())
