"""The sandbox and the progress store, in Python (no browser): what it has the page keep after
every play, the saved game offered back (Continue goes on exactly as if the game had never
stopped), what it refuses from the page, and a past deal opened for review.

The page's side is played by hand: ``table._receive`` is what a message from the page calls,
and ``table.stored`` lists what the sandbox had the page keep. The browser tests
(``tests/browser/test_progress_book.py``, ``test_progress_live.py``) do the same through the real page.
"""

from __future__ import annotations

import json
import random

import pytest

from calijack import progress
from calijack.play import Session
from calijack.widgets.sandbox import Sandbox

SEED = 7


def tell(sandbox: Sandbox, game=None, review=None) -> None:
    """What the page's store holds, as the card table's script sends it."""
    sandbox.table._receive(sandbox.table, {"action": "stored", "json": json.dumps({"game": game, "review": review})})


def first_legal(sandbox: Sandbox):
    return next(v.card for v in sandbox.session.verdicts() if v.legal)


def saved_game(sandbox: Sandbox) -> dict:
    """The game the page was last told to keep, as the store keeps it (with ``saved``)."""
    message = sandbox.table.stored[-1]
    return dict(message["game"], saved="2026-12-01T10:00:00Z")


def message(sandbox: Sandbox) -> str:
    return sandbox.table.message_html


def test_nothing_is_kept_before_the_page_has_told_what_it_holds():
    sandbox = Sandbox(seed=SEED, delay=0)
    sandbox.play(first_legal(sandbox))
    assert sandbox.table.stored == []


def test_the_game_is_kept_after_every_play_and_not_before_the_first():
    sandbox = Sandbox(seed=SEED, delay=0)
    tell(sandbox)
    assert sandbox.table.stored == []        # nothing of the learner's yet: an older save stays
    for k in range(3):
        sandbox.play(first_legal(sandbox))
        assert len(sandbox.table.stored) == k + 1
        kept = sandbox.table.stored[-1]
        assert kept["store"] == "game" and kept["game"]["record"] == sandbox.session.record()
        assert kept["game"]["trick"] == sandbox.session.state.trick_number
    sandbox.press("hint")                    # a hint changes nothing kept: nothing sent
    assert len(sandbox.table.stored) == 3
    sandbox.press("undo")
    assert sandbox.table.stored[-1]["game"]["record"] == sandbox.session.record()
    progress.read_game(saved_game(sandbox), ("casual",))


def test_a_finished_deal_is_kept_with_its_result_and_the_game_goes_on():
    sandbox = Sandbox(seed=SEED, delay=0)
    tell(sandbox)
    while not sandbox.session.finished:
        sandbox.play(first_legal(sandbox))
    kept = sandbox.table.stored[-1]
    assert kept["store"] == "finished"
    entry, state = progress.read_deal(dict(kept["entry"], when="2026-12-01T10:00:00Z"))
    assert entry["points"] == list(state.result().points) == list(sandbox.session.result.points)
    assert entry["id"] == f"{sandbox.keeper.game_id}/1" and entry["match"] is None
    assert kept["game"]["record"] == sandbox.session.record()      # the match goes on: Next deal
    sandbox.press("next")
    assert sandbox.table.stored[-1]["store"] == "game" and sandbox.table.stored[-1]["game"]["deal"] == 2


def test_continue_goes_on_exactly_as_the_game_would_have():
    first = Sandbox(seed=SEED, delay=0)
    tell(first)
    while not first.session.finished:
        first.play(first_legal(first))
    first.press("next")
    for _ in range(3):
        first.play(first_legal(first))
    game = saved_game(first)

    again = Sandbox(seed=99, delay=0)
    tell(again, game)
    assert "unfinished game against the Casual computer player" in again.table.offer["text"]
    assert "in deal 2 of the match" in again.table.offer["text"]
    again.play(first_legal(again))                    # no play while the choice is open
    assert "First choose" in message(again) and again.table.stored == []
    again.table.press("continue")
    assert again.table.offer == {} and "back as you left it" in message(again)
    assert again.session.record() == first.session.record() and again.session.seed == SEED
    # The same cards from here give the same answers, and the same next deal.
    rng = random.Random(1)
    while not first.session.match.finished and len(again.session.state.plays) < 60:
        if first.session.finished:
            first.press("next")
            again.press("next")
            continue
        card = rng.choice([v.card for v in first.session.verdicts() if v.legal])
        first.play(card)
        again.play(card)
        assert again.session.record() == first.session.record()
    ids = {m["game"]["id"] for m in again.table.stored if m["game"]}
    ids |= {m["entry"]["id"].split("/")[0] for m in again.table.stored if "entry" in m}
    assert ids == {game["id"]}                         # still the same game, kept under its id


def test_new_deal_keeps_the_fresh_deal_from_the_first_play():
    sandbox = Sandbox(seed=SEED, delay=0)
    game = dict(progress.game_entry(Session(seed=3), "0123456789abcdef"), saved="2026-12-01T10:00:00Z")
    game["record"]["plays"] = []
    tell(sandbox, game)
    assert sandbox.table.offer
    sandbox.table.press("fresh")
    assert sandbox.table.offer == {} and sandbox.table.stored == []
    sandbox.play(first_legal(sandbox))
    assert sandbox.table.stored[-1]["game"]["id"] != game["id"]


@pytest.mark.parametrize("game", [
    "junk", 7, [], {}, {"id": "x"}, {"record": {"deals": [[[[[]]]]]}},
])
def test_a_saved_game_that_cannot_be_read_gives_a_new_deal_and_a_sentence(game):
    sandbox = Sandbox(seed=SEED, delay=0)
    tell(sandbox, game)
    assert sandbox.table.offer == {}
    assert "could not be read back" in message(sandbox) and "Traceback" not in message(sandbox)
    sandbox.play(first_legal(sandbox))
    assert sandbox.table.stored                           # the new deal is kept from now on


def test_a_saved_game_with_an_illegal_play_is_refused():
    sandbox = Sandbox(seed=SEED, delay=0)
    game = dict(progress.game_entry(Session(seed=SEED), "0123456789abcdef"), saved="2026-12-01T10:00:00Z")
    record = game["record"]
    record["plays"] = [record["hands"][1][0]]             # seat 0 leads, with seat 1's card
    tell(sandbox, game)
    assert sandbox.table.offer == {} and "trick 1, seat 0" in message(sandbox)


def test_only_the_first_view_tells_the_sandbox_what_the_store_holds():
    sandbox = Sandbox(seed=SEED, delay=0)
    tell(sandbox)
    sandbox.play(first_legal(sandbox))
    tell(sandbox, saved_game(sandbox))                   # a second view of the same sandbox
    assert sandbox.table.offer == {}


def test_a_past_deal_opens_with_its_review_and_is_not_kept_again(monkeypatch):
    monkeypatch.setenv("CALIJACK_REVIEW_SAMPLES", "4")
    played = Sandbox(seed=SEED, delay=0)
    tell(played)
    while not played.session.finished:
        played.play(first_legal(played))
    entry = dict(played.table.stored[-1]["entry"], when="2026-12-01T10:00:00Z")

    sandbox = Sandbox(seed=SEED, delay=0)
    tell(sandbox, review=entry)
    assert sandbox.session.finished and sandbox.session.record("deal") == entry["record"]
    assert len(sandbox.review_board.steps) == 26
    assert sandbox.table.stored == []                    # reviewing changes nothing kept
    sandbox.press("next")                                # on from it: a game of its own
    assert sandbox.table.stored[-1]["game"]["id"] != entry["id"].split("/")[0]


@pytest.mark.parametrize("review, says", [
    ({"missing": "abc/1"}, "no longer kept"),
    ({"id": "0123456789abcdef/1"}, "cannot be reviewed"),
    ("junk", "cannot be reviewed"),
])
def test_a_past_deal_that_cannot_be_reviewed_is_said_so(review, says):
    sandbox = Sandbox(seed=SEED, delay=0)
    tell(sandbox, review=review)
    assert says in message(sandbox) and not sandbox.session.finished


@pytest.mark.parametrize("text", [None, 7, "{", "[]", "x" * 2_000_001, "[" * 10_000 + "]" * 10_000])
def test_what_is_not_json_from_the_page_is_refused_in_a_sentence(text):
    sandbox = Sandbox(seed=SEED, delay=0)
    sandbox.table._receive(sandbox.table, {"action": "stored", "json": text})
    assert "could not be read back" in message(sandbox) and sandbox.table.offer == {}


def test_the_messages_to_the_page_are_json():
    sandbox = Sandbox(seed=SEED, delay=0)
    tell(sandbox)
    sandbox.play(first_legal(sandbox))
    json.dumps(sandbox.table.stored)
