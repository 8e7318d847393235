"""The Python API says what is wrong (issue 13): rules as a dict, seats, seeds, a won match.

Each refusal is the right error type (RuleError, DealError, SessionError), names the bad
value in at most about 80 characters, and leaves everything as it was.
"""

from __future__ import annotations

import random

import pytest

from calijack import Deal, DealError, Match, RuleError, Rules, State, view
from calijack.play import Session, SessionError
from calijack.state import SEED_LIMIT, check_seed
from calijack.text import say, seat_list

TWO_SEATS = "with 2 players the seats are 0 and 1"


def snapshot(session: Session):
    """Everything a refused action must leave alone."""
    return (session.state, tuple(session.log), session.scores, session.deal_number,
            session.pending_rules, session.can_undo)


def finish(session: Session) -> Session:
    """Play the learner's first legal card until the deal is over."""
    while not session.finished:
        session.play(next(v.card for v in session.verdicts() if v.legal))
    return session


# -- rules as a dict ------------------------------------------------------------------------

def test_deal_random_takes_a_dict_of_options():
    deal = Deal.random(1, {"target": 7})
    assert deal.rules == Rules(target=7) and deal == Deal.random(1, Rules(target=7))


@pytest.mark.parametrize("make", [
    lambda rules: Deal.random(1, rules),
    lambda rules: Deal.from_cards(Deal.random(1).hands, Deal.random(1).stock, rules=rules),
    lambda rules: Deal(rules, 0, Deal.random(1).hands, Deal.random(1).stock, Deal.random(1).trump),
    lambda rules: Deal.random(1).with_rules(rules),
    lambda rules: Deal.random(1).start().with_rules(rules),
    lambda rules: Match(rules),
    lambda rules: Match.random(1, rules),
], ids=["Deal.random", "Deal.from_cards", "Deal", "Deal.with_rules", "State.with_rules", "Match", "Match.random"])
def test_every_rules_taking_api_takes_a_dict_or_names_the_bad_option(make):
    made = make({"target": 7, "stock": "closed"})
    assert made.rules == Rules(target=7, stock="closed")
    with pytest.raises(RuleError, match="unknown rule option 'colour'"):
        make({"colour": "red"})
    with pytest.raises(RuleError, match="rule option 'stock' cannot be 'glass'"):
        make({"stock": "glass"})
    with pytest.raises(RuleError, match="rules must be a Rules or a dict of option names and values, not list"):
        make(["target", 7])


def test_a_hostile_option_is_named_in_a_short_line():
    with pytest.raises(RuleError) as caught:
        Deal.random(1, {"x" * 1_000_000: 1})
    assert len(str(caught.value)) < 260 and "(1,000,000 characters)" in str(caught.value)
    with pytest.raises(RuleError) as caught:
        Rules.of({"target": -10 ** 5000})
    assert str(caught.value) == ("rule option 'target' must be a whole number of at least 1, "
                                 "not a negative whole number of 5,001 digits")


def test_rules_of_passes_rules_through_and_none_is_standard():
    rules = Rules(target=3)
    assert Rules.of(rules) is rules and Rules.of(None) == Rules() and Rules.of({}) == Rules()


# -- seats --------------------------------------------------------------------------------

STATE = Deal.random(5).start().play_random(5, tricks=3)
THREE = Deal.random(5, {"players": 3}).start().play_random(5, tricks=3)


@pytest.mark.parametrize("ask", [
    lambda s, seat: s.hand(seat), lambda s, seat: s.captured(seat), lambda s, seat: s.pips(seat),
    lambda s, seat: s.view(seat), lambda s, seat: view(s, seat),
    lambda s, seat: s.view(0).captured(seat), lambda s, seat: s.view(0).pips(seat),
], ids=["hand", "captured", "pips", "State.view", "view", "View.captured", "View.pips"])
@pytest.mark.parametrize("seat, shown", [(2, "2"), (-1, "-1"), (-2, "-2"), ("0", "'0'"), (True, "True"),
                                         (1.0, "1.0"), (None, "None"), (10 ** 5000, "a whole number of 5,001 digits")],
                         ids=["2", "-1", "-2", "str", "True", "float", "None", "10**5000"])
def test_every_seat_is_checked_and_the_valid_seats_named(ask, seat, shown):
    with pytest.raises(DealError) as caught:
        ask(STATE, seat)
    message = str(caught.value)
    assert message.startswith(f"There is no seat {shown}") and message.endswith(f"{TWO_SEATS}.")
    assert len(message) < 120


def test_a_negative_seat_no_longer_names_the_other_seat():
    assert STATE.hand(1) != STATE.hand(0)
    with pytest.raises(DealError, match="There is no seat -1"):
        STATE.hand(-1)


def test_valid_seats_still_work_and_three_players_have_three():
    assert [len(STATE.hand(seat)) for seat in (0, 1)] == [6, 6]
    assert [len(THREE.hand(seat)) for seat in (0, 1, 2)] == [6, 6, 6]
    assert STATE.view(1).captured(0) == STATE.captured(0) and STATE.view(1).pips(1) == STATE.pips(1)
    with pytest.raises(DealError, match="There is no seat 3: with 3 players the seats are 0, 1 and 2."):
        THREE.hand(3)
    assert seat_list(3) == "0, 1 and 2"


@pytest.mark.parametrize("seat", [2, -1, "0", True, None])
def test_the_learners_seat_is_checked_in_the_engines_words(seat):
    with pytest.raises(SessionError) as caught:
        Session(seed=1, seat=seat, opponent="random")
    assert str(caught.value) == say("no_seat", seat=seat, players=2, seats="0 and 1")
    assert Session(seed=1, seat=2, rules={"players": 3}, opponent="random").seat == 2


def test_switching_to_fewer_seats_than_the_learners_is_refused():
    session = Session(seed=1, seat=2, rules={"players": 3}, opponent="random")
    before = snapshot(session)
    with pytest.raises(SessionError, match=f"There is no seat 2: {TWO_SEATS}."):
        session.set_rules({"players": 2})
    assert snapshot(session) == before


# -- seeds --------------------------------------------------------------------------------

BAD_SEEDS = [(10 ** 5000, "a whole number of 5,001 digits"), (-1, "-1"), (SEED_LIMIT, f"{SEED_LIMIT}"),
             (True, "True"), (1.5, "1.5"), ("7", "'7'"), ([1], "[1]")]


@pytest.mark.parametrize("seed, shown", BAD_SEEDS, ids=["10**5000", "-1", "2**63", "True", "1.5", "str", "list"])
@pytest.mark.parametrize("use", [
    lambda seed: Deal.random(seed), lambda seed: Deal.random(1).start().play_random(seed),
    lambda seed: Match.random(seed), lambda seed: check_seed(seed),
], ids=["Deal.random", "play_random", "Match.random", "check_seed"])
def test_engine_seeds_are_bounded_with_a_clear_message(use, seed, shown):
    with pytest.raises(DealError) as caught:
        use(seed)
    assert str(caught.value) == f"A seed is a whole number from 0 to 9,223,372,036,854,775,807, not {shown}."


@pytest.mark.parametrize("seed, shown", BAD_SEEDS, ids=["10**5000", "-1", "2**63", "True", "1.5", "str", "list"])
def test_session_seeds_are_bounded_and_refusals_change_nothing(seed, shown):
    with pytest.raises(SessionError, match=f"A seed is a whole number from 0 to 9,223,372,036,854,775,807, not "):
        Session(seed=seed, opponent="random")
    session = Session(seed=4, opponent="random")
    before = snapshot(session)
    with pytest.raises(SessionError) as caught:
        session.new_deal(seed)
    assert str(caught.value).endswith(f"not {shown}.") and snapshot(session) == before


def test_seeds_in_range_and_generators_still_work():
    assert Deal.random(SEED_LIMIT - 1) == Deal.random(SEED_LIMIT - 1) and Deal.random(0) != Deal.random(1)
    assert Deal.random(random.Random(2 ** 70)) == Deal.random(random.Random(2 ** 70))
    assert Session(seed=SEED_LIMIT - 1, opponent="random").seed == SEED_LIMIT - 1
    assert isinstance(Deal.random(None).start(), State)
    session = finish(Session(seed=SEED_LIMIT - 1, rules={"target": 30}, opponent="random"))
    session.next_deal()  # the next deal's generator is seeded from the seed's text
    assert session.deal_number == 2


# -- a won match stays won ----------------------------------------------------------------

def won() -> Session:
    session = finish(Session(seed=13, rules={"target": 1}, opponent="random"))
    assert session.match.finished
    return session


def test_undo_after_the_match_is_won_refuses_and_changes_nothing():
    session = won()
    before = snapshot(session)
    assert not session.can_undo
    with pytest.raises(SessionError) as caught:
        session.undo()
    winner = session.narrator.who(session.match.winner, start=False)
    assert str(caught.value) == (f"The match is over: {winner} reached 1; undo cannot go back past the end. "
                                 "Start a new deal to play again.")
    assert snapshot(session) == before and session.match.finished


def test_every_call_at_the_wrong_moment_after_the_match_says_so():
    session = won()
    before = snapshot(session)
    for action in (session.undo, session.hint, session.next_deal, session.advance,
                   lambda: session.play(session.state.deal.hands[0][0])):
        with pytest.raises(SessionError, match="match is over"):
            action()
        assert snapshot(session) == before
    session.new_deal(2)  # the way on: a new match
    assert not session.match.finished and session.deal_number == 1


def test_undo_at_the_end_of_a_deal_of_a_match_still_going_is_allowed():
    session = finish(Session(seed=10, opponent="random"))
    assert not session.match.finished and session.can_undo
    session.undo()
    assert not session.finished


def test_a_loaded_won_match_stays_won():
    session = won()
    copy = Session(opponent="random").load(session.record_json())
    assert copy.match.finished and not copy.can_undo
    with pytest.raises(SessionError, match="undo cannot go back past the end"):
        copy.undo()


# -- how a refusal quotes what it was given -------------------------------------------------

class _Hostile:
    def __repr__(self):
        raise RuntimeError("no")


def _cycle():
    items = []
    items.append(items)
    return items


@pytest.mark.parametrize("value, expected", [
    ("JH", "'JH'"),
    ("a\nb\u2028c\x00", "'a\\nb\\u2028c\\x00'"),
    ("Z" * 1000, "'" + "Z" * 48 + "…' (1,000 characters)"),
    (b"\xff" * 1000, "b'" + "\\xff" * 12 + "…' (1,000 bytes)"),
    ("\x01" * 40, "'" + "\\x01" * 12 + "\\…' (40 characters)"),
    (10 ** 5000, "a whole number of 5,001 digits"),
    (-(10 ** 60), "a negative whole number of 61 digits"),
    (_cycle(), "[[[[...]]]]"),
    (_Hostile(), "<_Hostile instance at 0x"),
], ids=["card", "controls", "long", "bytes", "escapes", "huge", "negative", "cycle", "hostile_repr"])
def test_quoted_is_one_short_line_whatever_the_value(value, expected):
    from calijack.quoting import quoted

    shown = quoted(value)
    assert shown.startswith(expected) and len(shown) <= 80 and shown.isprintable()
    assert shown == expected or isinstance(value, _Hostile)


def test_a_long_file_name_is_quoted_by_its_end():
    from calijack.quoting import quoted_path

    assert quoted_path("game.json") == "'game.json'"
    shown = quoted_path("/a" * 100 + "/x\ny.json")
    assert shown.startswith("'…") and shown.endswith("/x\\ny.json'") and len(shown) == 80
    assert len(quoted_path("\x01" * 1000)) == 80 and quoted_path("\x01" * 1000).endswith("\\x01'")
