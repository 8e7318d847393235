"""Trying one's mistakes again: the engine's :class:`~calijack.retry.Retry` (two tries, then the
answer; any card within half a point of the best is right), the queue entries it gives the
progress store and reads back (checked), and the sandbox's drill at the table, in Python.

The browser's side (the store's schedule, Due today on the Practice page) is
``tests/browser/test_drills_live.py``'s.
"""

from __future__ import annotations

import copy
import json

import pytest

from calijack import progress
from calijack.drill import ACCEPT, drills
from calijack.retry import TRIES, Retry, RetryError, queue_entry, read_entry
from calijack.widgets.sandbox import Sandbox
from test_progress import SESSIONS
from test_sandbox_progress import first_legal, tell

SAMPLES = 4  # few worlds: these tests check the drill's logic, not the coach's judgement


@pytest.fixture(scope="module")
def deal_drills():
    found = drills(SESSIONS[2].state, 1, samples=SAMPLES)  # a seat with clear mistakes, one with two right answers
    assert len(found) >= 2, "the fixture deal must have two mistakes to try"
    return found


def wrong_cards(drill):
    return [card for card in drill.values if card not in drill.accept]


def test_a_card_within_half_a_point_of_the_best_is_right_and_settles_the_mistake(deal_drills):
    drill = next(d for d in deal_drills if len(d.accept) > 1)
    retry = Retry([drill])
    close = drill.accept[-1]
    assert drill.values[drill.best] - drill.values[close] < ACCEPT
    verdict = retry.pick(close)
    assert verdict.right and verdict.settled and str(close) in verdict.text and verdict.text.startswith("Right")
    assert retry.missed == []
    with pytest.raises(RetryError, match="settled"):          # no second answer to a settled one
        retry.pick(drill.best)


def test_a_wrong_pick_gets_its_value_and_one_more_try_without_the_answer_then_the_answer(deal_drills):
    drill = deal_drills[0]
    retry = Retry(deal_drills)
    wrong = wrong_cards(drill)[0]
    first = retry.pick(wrong)
    assert not first.right and not first.settled
    assert str(drill.best) not in first.text                  # the answer is not given away
    assert str(wrong) in first.text and "One more try" in first.text
    for _ in range(TRIES - 1):
        last = retry.pick(wrong)
    assert last.settled and not last.right and f"The answer: {drill.best}" in last.text
    assert retry.missed == [drill]                            # missed at the first try: queued


def test_right_at_the_second_try_still_counts_as_missed(deal_drills):
    drill = deal_drills[0]
    retry = Retry(deal_drills)
    retry.pick(wrong_cards(drill)[0])
    assert retry.pick(drill.best).right
    assert retry.missed == [drill] and retry.first == {0: False}


def test_an_illegal_card_is_refused_with_the_engines_reason_and_costs_no_try(deal_drills):
    drill = deal_drills[0]
    position = drill.position
    illegal = next((c for c in position.hand(position.to_play) if c not in drill.values), None)
    not_held = next(c for c in position.hand(1 - position.to_play))
    retry = Retry(deal_drills)
    for card in [c for c in (illegal, not_held) if c is not None]:
        with pytest.raises(RetryError):
            retry.pick(card)
    with pytest.raises(RetryError, match="not a card"):
        retry.pick("ZZ")
    assert retry.wrong == 0 and retry.first == {} and not retry.settled


def test_next_moves_on_only_to_the_next_mistake_and_the_summary_counts(deal_drills):
    retry = Retry(deal_drills)
    for k, drill in enumerate(deal_drills):
        assert retry.at == k and retry.prompt().startswith(f"Mistake {k + 1} of {len(deal_drills)}")
        retry.pick(drill.best if k else wrong_cards(drill)[0])
        if k == 0:
            retry.pick(drill.best)
        assert retry.next() == (k < len(deal_drills) - 1)
    assert retry.at == len(deal_drills) - 1
    summary = retry.summary()
    assert f"{len(deal_drills) - 1} of {len(deal_drills)} mistakes right at the first try" in summary
    assert "The one you missed" in summary
    with pytest.raises(ValueError):
        Retry([])


def test_a_queue_entry_fits_the_store_and_reads_back_as_the_same_drill(deal_drills):
    for drill in deal_drills:
        entry = queue_entry(drill)
        progress.check(dict(entry, step=0, due="2026-12-02"), progress.SECTIONS["drills"].schema["items"])
        back = read_entry(json.loads(json.dumps(entry)))
        assert (back.position.plays, back.best, back.accept, back.values, back.played) == \
            (drill.position.plays, drill.best, drill.accept, drill.values, drill.played)
    assert len({queue_entry(d)["id"] for d in deal_drills}) == len(deal_drills)
    assert queue_entry(deal_drills[0]) == queue_entry(deal_drills[0])   # the same mistake: the same entry


def _accept_far(entry):
    entry["accept"].append(min(entry["values"], key=entry["values"].get))


def _best_not_top(entry):
    entry["best"] = min(entry["values"], key=entry["values"].get)


def _best_not_accepted(entry):
    entry["accept"].remove(entry["best"])


def _card_missing(entry):
    entry["values"].pop(next(iter(entry["values"])))


def _other_seat(entry):
    entry["seat"] = 1 - entry["seat"]


def _illegal_record(entry):
    entry["record"]["plays"].append(entry["record"]["plays"][-1] if entry["record"]["plays"] else "AS")


@pytest.mark.parametrize("damage", [_accept_far, _best_not_top, _best_not_accepted, _card_missing, _other_seat,
                                    _illegal_record])
def test_a_queue_entry_that_does_not_fit_its_position_is_refused(deal_drills, damage):
    two = [d for d in deal_drills if len(d.accept) > 1]
    assert two, "the fixture deal must have a mistake with two right answers"
    entry = copy.deepcopy(queue_entry(two[-1]))
    damage(entry)
    with pytest.raises(progress.ProgressError):
        read_entry(entry)


# -- the sandbox ---------------------------------------------------------------------------------

@pytest.fixture()
def reviewed(monkeypatch):
    """A sandbox whose first deal was played badly (the first legal card each time) and reviewed."""
    monkeypatch.setenv("CALIJACK_REVIEW_SAMPLES", str(SAMPLES))
    sandbox = Sandbox(seed=7, delay=0)
    tell(sandbox)
    assert "drill" not in sandbox.table.actions
    while not sandbox.session.finished:
        sandbox.play(first_legal(sandbox))
    assert "drill" not in sandbox.table.actions                # not before the review
    sandbox.press("review")
    assert sandbox.table.actions.get("drill") and sandbox.tries.drills
    return sandbox


def test_the_sandbox_sets_each_mistake_up_again_and_queues_what_is_missed(reviewed):
    sandbox = reviewed
    kept = len(sandbox.table.stored)
    sandbox.press("drill")
    drill = sandbox.tries.retry.current
    assert sandbox.table.actions == {"drill_next": False, "drill_stop": True}
    assert f'data-plays="{len(drill.position.plays)}"' in sandbox.table.table_html
    assert "Mistake 1 of" in sandbox.table.message_html
    sandbox.play(wrong_cards(drill)[0].code)
    assert sandbox.table.stored[kept:] == [{"store": "drill", "entry": queue_entry(drill)}]
    sandbox.play(wrong_cards(drill)[0].code)
    assert "The answer" in sandbox.table.message_html and sandbox.table.actions["drill_next"]
    sandbox.press("drill_next")
    second = sandbox.tries.retry.current
    sandbox.play(second.best.code)
    assert "Right" in sandbox.table.message_html
    assert len(sandbox.table.stored) == kept + 1                 # a right answer queues nothing
    sandbox.press("drill_stop")
    assert sandbox.tries.retry is None and sandbox.table.actions.get("drill") and sandbox.session.finished
    assert 'data-plays="' + str(len(sandbox.session.state.plays)) in sandbox.table.table_html


def test_next_mistake_before_an_answer_and_a_drill_without_a_review_are_refused_in_words(reviewed):
    sandbox = reviewed
    sandbox.press("drill")
    at = sandbox.tries.retry.at
    sandbox.press("drill_next")
    assert sandbox.tries.retry.at == at and "Answer this one first" in sandbox.table.message_html
    sandbox.press("undo")                                       # back into the deal: the drill ends
    assert sandbox.tries.retry is None and not sandbox.session.finished
    sandbox.press("drill")
    assert "nothing to try again" in sandbox.table.message_html and sandbox.tries.retry is None


# -- practising the queue ------------------------------------------------------------------------

def test_the_schedule_moves_one_step_on_after_a_right_answer_and_goes_back_after_a_miss():
    from calijack.progress import DRILL_DAYS
    from calijack.retry import next_step

    last = len(DRILL_DAYS) - 1
    assert [next_step(k, True) for k in range(last + 1)] == [*range(1, last + 1), last]
    assert [next_step(k, False) for k in range(last + 1)] == [0] * (last + 1)
    assert DRILL_DAYS == (1, 3, 7, 21)


def test_a_hint_costs_a_star_and_a_second_try_too(deal_drills):
    drill = deal_drills[0]
    retry = Retry([drill])
    hint = retry.hint()
    assert str(drill.best) not in hint and "costs a star" in hint
    retry.pick(drill.best)
    assert retry.stars() == 2
    retry = Retry([drill])
    retry.pick(drill.best)
    assert retry.stars() == 3
    retry = Retry([drill])
    retry.pick(wrong_cards(drill)[0])
    retry.pick(drill.best)
    assert retry.stars() == 2
    retry = Retry([drill])
    for _ in range(TRIES):
        retry.pick(wrong_cards(drill)[0])
    assert retry.stars() == 0


def test_the_queue_due_today_is_practised_at_the_table_and_each_answer_moves_it(deal_drills):
    entries = [dict(queue_entry(d), step=1, due="2026-12-02") for d in deal_drills[:2]]
    sandbox = Sandbox(seed=8, delay=0)
    sandbox.table._receive(sandbox.table, {"action": "stored", "json": json.dumps(
        {"game": None, "review": None, "drills": entries + [{"id": "not a drill"}]})})
    assert "Some of your queued mistakes (1)" in sandbox.table.message_html
    assert sandbox.table.actions == {"hint": True, "drill_next": False, "drill_stop": True}
    sandbox.play(deal_drills[0].best.code)                          # right, no hint: one step on
    assert sandbox.table.stored[-1] == {"store": "drill_answer", "id": entries[0]["id"], "step": 2}
    assert "3 stars of 3: it comes back in 7 days" in sandbox.table.message_html
    sandbox.press("drill_next")
    for _ in range(TRIES):                                          # missed: back to the start
        sandbox.play(wrong_cards(deal_drills[1])[0].code)
    assert sandbox.table.stored[-1] == {"store": "drill_answer", "id": entries[1]["id"], "step": 0}
    assert [m["store"] for m in sandbox.table.stored] == ["drill_answer"] * 2   # nothing queued twice
    sandbox.press("drill_stop")
    assert sandbox.tries.retry is None and not sandbox.session.finished


def test_nothing_due_or_nothing_readable_gives_the_fresh_deal_and_a_sentence():
    for drills in ([], "junk", [{"id": 1}]):
        sandbox = Sandbox(seed=8, delay=0)
        sandbox.table._receive(sandbox.table, {"action": "stored", "json": json.dumps(
            {"game": None, "review": None, "drills": drills})})
        assert sandbox.tries.retry is None and "None of your queued mistakes is due today" in sandbox.table.message_html
        assert sandbox.table.actions.get("hint") is True                # the deal, ready to play


# -- the same cards, played by the computer --------------------------------------------------------

def test_the_sandbox_compares_the_deal_with_the_computers_and_steps_through_it():
    from calijack.drill import COMPUTER, compare, position_rng
    from calijack.records import read_record

    sandbox = Sandbox(seed=7, delay=0)
    tell(sandbox)
    assert "compare" not in sandbox.table.actions                       # only once the deal is over
    while not sandbox.session.finished:
        sandbox.play(first_legal(sandbox))
    assert sandbox.table.actions.get("compare")
    sandbox.press("compare")
    got = sandbox.compared()
    s = sandbox.session
    # The learner's points as the deal scored them; the computer's deal replays legally, with the
    # same cards, and is the one the engine's compare gives (the sandbox's seeding, the strongest player).
    assert got.you == s.result.points[s.seat]
    again = compare(s.state, s.seat, s.opponent, position_rng(s.seed, 0), s.match_before.scores, computer=COMPUTER)
    assert got == again and read_record(again.to_json()["record"]).plays == got.state.plays
    assert got.state.deal == s.state.deal
    assert f"You scored {got.you}. The computer, with your cards against the same opponent, scored " \
           f"{got.computer}." in sandbox.table.message_html.replace("&#x27;", "'")
    sandbox.replay_slider.value = 5
    assert "with your cards, every card face up: after card 5" in sandbox.replay_view.value.replace("&#x27;", "'")
    assert f"({got.state.plays[4]})" in sandbox.replay_view.value
