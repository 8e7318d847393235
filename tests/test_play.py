"""The sandbox's logic (calijack.play.Session): every action, at the right and the wrong moment."""

from __future__ import annotations

import json
import types

import pytest

from calijack import DECK, Deal, IllegalPlay, Match, Rules, parse_card
from calijack.play import Session, SessionError, available_opponents
from calijack.records import read_record

# The worked example of source 000, section 08, as a record: hearts are trump (J♥ on top of
# the stock), seat 1 (A, the non-dealer) leads 7♣, seat 0 (B, void in clubs) holds 2♥.
B_HAND = ["2H", "AD", "KD", "QS", "9S", "8D"]
A_HAND = ["7C", "AS", "KS", "3D", "4D", "5S"]
TOP = ["JH", "QD"]


def worked_example(plays=("7C",), **rules) -> dict:
    """The worked example as a deal record, after ``plays``."""
    used = set(B_HAND + A_HAND + TOP)
    stock = TOP + [c.code for c in DECK if c.code not in used]
    return {"rules": rules, "dealer": 0, "hands": [B_HAND, A_HAND], "stock": stock, "plays": list(plays)}


def first_legal(session: Session):
    """The learner's first legal card, by the engine's verdicts."""
    return next(v.card for v in session.verdicts() if v.legal)


def play_until(session: Session, done) -> Session:
    """Play the first legal card until ``done(session)`` (or the deal ends)."""
    while not done(session) and not session.finished:
        session.play(first_legal(session))
    return session


def with_illegal(seed_from: int = 0, **options) -> Session:
    """A session where the learner holds at least one card it may not play now."""
    for seed in range(seed_from, seed_from + 200):
        session = play_until(Session(seed=seed, opponent="random", **options),
                             lambda s: any(not v.legal for v in s.verdicts()))
        if not session.finished:
            return session
    raise AssertionError("no position with an illegal card in 200 seeds")


def snapshot(session: Session):
    """Everything an action must leave alone when it is refused."""
    return (session.state, tuple(session.log), session.scores, session.deal_number, session.pending_rules,
            session.opponent)


# -- starting -----------------------------------------------------------------------------

def test_a_session_starts_from_the_seeds_deal_with_the_learner_to_play():
    session = Session(seed=3, opponent="random")
    assert session.state.deal == Deal.random(3)
    assert session.your_turn and not session.finished
    # Any cards already played were the computer's (it led first).
    assert all(t.seat_of(k, 2) == 1 for t in [session.state.current] for k in range(len(t.cards)))
    assert session.hand == session.state.hand(0)
    assert session.view == session.state.view(0)


def test_bad_settings_are_refused_in_plain_words():
    with pytest.raises(SessionError, match="target"):
        Session(seed=1, rules={"target": 0})
    with pytest.raises(SessionError, match="unknown rule option 'colour'"):
        Session(seed=1, rules={"colour": "red"})
    with pytest.raises(SessionError, match="seed"):
        Session(seed=-4)
    with pytest.raises(SessionError, match="no 'clever' computer player"):
        Session(seed=1, opponent="clever")
    with pytest.raises(SessionError, match="seat"):
        Session(seed=1, seat=2)


def test_verdicts_are_the_engines_and_name_every_card_in_hand():
    session = with_illegal()
    verdicts = session.verdicts()
    assert [v.card for v in verdicts] == session.hand
    assert verdicts == session.state.verdicts()
    assert any(v.legal for v in verdicts) and any(not v.legal for v in verdicts)


# -- playing ------------------------------------------------------------------------------

def test_a_legal_play_returns_every_step_until_the_learners_turn():
    session = Session(seed=11, opponent="random")
    before = session.state
    card = first_legal(session)
    steps = session.play(card)
    after = session.state
    assert steps[0].kind == "play" and steps[0].seat == 0 and steps[0].card is card
    assert steps[0].text in (f"You lead {card}.", f"You play {card}.")
    # The plays made are exactly the steps' cards, in order.
    made = after.plays[len(before.plays):]
    assert [s.card for s in steps if s.kind == "play"] == made
    assert all(s.seat == 1 for s in steps[1:] if s.kind == "play")
    # Each completed trick has its winner step and both draws, as the engine recorded them.
    done = after.tricks[len(before.tricks):]
    assert [s.seat for s in steps if s.kind == "trick"] == [t.winner for t in done]
    assert [s.card for s in steps if s.kind == "draw"] == [c for t in done for c in t.draws]
    assert session.your_turn


def test_an_illegal_card_raises_the_engines_reason_and_changes_nothing():
    session = with_illegal()
    card = next(v.card for v in session.verdicts() if not v.legal)
    before = snapshot(session)
    with pytest.raises(IllegalPlay) as error:
        session.play(card)
    assert str(error.value) == session.state.explain(card).reason
    assert snapshot(session) == before


@pytest.mark.parametrize("card, message", [("ZZ", "'ZZ' is not a card"), (None, "A card must be a string")])
def test_something_that_is_not_a_card_is_refused(card, message):
    session = Session(seed=2, opponent="random")
    before = snapshot(session)
    with pytest.raises(IllegalPlay, match=message) as error:
        session.play(card)
    assert error.value.kind == "not_a_card" and str(error.value).endswith(".")
    assert snapshot(session) == before


def test_a_card_not_held_is_refused_once_with_the_engines_sentence():
    session = Session(seed=2, opponent="random")
    other = next(c for c in DECK if c not in session.hand)
    before = snapshot(session)
    with pytest.raises(IllegalPlay) as error:
        session.play(other.code)
    assert (str(error.value), error.value.kind) == (f"You do not hold {other}.", "not_in_hand")
    assert snapshot(session) == before


def test_the_same_position_always_gets_the_same_replies():
    one, two = Session(seed=5), Session(seed=5)
    for _ in range(6):
        card = first_legal(one)
        assert [s.text for s in one.play(card)] == [s.text for s in two.play(card)]
    assert one.state == two.state


# -- the log, in plain words ----------------------------------------------------------------

def test_the_worked_example_in_the_log():
    session = Session(opponent="random").load(worked_example())
    assert session.your_turn and session.state.trick == (parse_card("7C").index,)
    steps = session.play("2H")
    assert [s.text for s in steps] == ["You play 2♥.", "You win the trick with 2♥.", "You draw J♥.",
                                       "Your opponent draws Q♦."]
    assert "You won with 2♥ and drew J♥; your opponent drew Q♦." in session.log
    assert "Trick 1: your opponent led 7♣, you played 2♥." in session.log


def test_with_the_closed_stock_the_opponents_draw_is_unseen():
    session = Session(opponent="random").load(worked_example(stock="closed"))
    steps = session.play("2H")
    draw = [s for s in steps if s.kind == "draw"]
    assert (draw[1].seat, draw[1].card, draw[1].text) == (1, None, "Your opponent draws an unseen card.")
    assert "You won with 2♥ and drew J♥; your opponent drew an unseen card." in session.log
    assert not any("Q♦" in line for line in session.log)


# -- hint and undo --------------------------------------------------------------------------

def test_a_hint_is_a_legal_card_with_a_reason_and_changes_nothing():
    session = with_illegal()
    before = snapshot(session)
    hint = session.hint()
    assert hint.card in session.state.legal_cards()
    assert hint.reason and hint.reason[0].isupper()
    assert snapshot(session) == before


def test_hint_and_opponent_come_from_the_players_table(monkeypatch):
    class Lowest:
        name = "lowest"

        def choose(self, view, rng):
            card = min(view.legal)
            return types.SimpleNamespace(card=card, reason=f"The lowest card, {card}.")

    monkeypatch.setattr("calijack.play.PLAYERS", {"lowest": Lowest})
    monkeypatch.setattr("calijack.play.get_player", lambda name: Lowest())
    assert available_opponents() == ("lowest",)
    session = Session(seed=8)
    assert session.opponent == "lowest"
    hint = session.hint()
    assert hint.card == min(session.state.legal_cards()) and hint.reason == f"The lowest card, {hint.card}."
    before = session.state
    steps = session.play(hint.card)
    for step in steps[1:]:
        if step.kind == "play":
            position = step.state.rewind(len(step.state.plays) - 1)
            assert step.card == min(position.legal_cards())
    assert session.state != before


def test_the_opponents_are_the_real_computer_players():
    from calijack.players import PLAYERS

    from calijack.players import LEVELS

    assert available_opponents() == tuple(LEVELS) == ("beginner", "casual", "strong", "expert")
    assert set(available_opponents()) < set(PLAYERS)
    assert Session(seed=4).opponent == "casual"                   # the default: the rules of thumb
    assert Session(seed=4, opponent="search").opponent == "search"  # the old names still work
    with pytest.raises(SessionError, match="no 'nobody' computer player"):
        Session(seed=4, opponent="nobody")


def test_undo_restores_the_exact_state_before_the_learners_last_card():
    session = Session(seed=9, opponent="random")
    history = []
    for _ in range(5):
        history.append(snapshot(session))
        session.play(first_legal(session))
    for before in reversed(history):
        assert session.can_undo
        session.undo()
        assert snapshot(session) == before
    with pytest.raises(SessionError, match="Nothing to undo"):
        session.undo()
    assert snapshot(session) == history[0]


def test_undo_after_the_last_card_takes_the_deals_points_back():
    session = Session(seed=10, opponent="random")
    play_until(session, lambda s: False)
    assert session.finished and sum(session.scores) > 0
    session.undo()
    assert not session.finished and session.scores == (0, 0) and session.result is None


def test_undo_reaches_back_past_a_loaded_record():
    session = Session(opponent="random").load(worked_example(plays=("7C", "2H")))
    session.undo()
    assert session.state.plays == [parse_card("7C")]


# -- the end of a deal, and the match ---------------------------------------------------------

def test_a_whole_deal_ends_with_the_engines_result_and_strict_match_totals():
    session = play_until(Session(seed=12, rules={"target": 1}, opponent="random"), lambda s: False)
    result = session.state.result()
    assert session.result == result
    assert session.match == Match(Rules(target=1), session.state.dealer).add(result)
    assert sum(session.scores) == 1  # the target of 1 stops the count at the first point
    assert session.match.finished and not session.can_continue
    assert session.log[-2].startswith("The deal is over.")
    assert "won the match" in session.log[-1]


def test_actions_at_the_wrong_moment_say_so_and_change_nothing():
    session = play_until(Session(seed=13, rules={"target": 1}, opponent="random"), lambda s: False)
    before = snapshot(session)
    for action, words in [(lambda: session.play(session.state.deal.hands[0][0]), "cannot play a card now"),
                          (session.hint, "cannot ask for a hint now"), (session.next_deal, "match is over"),
                          (session.advance, "match is over")]:
        with pytest.raises(SessionError, match=words):
            action()
        assert snapshot(session) == before
    fresh = Session(seed=13, opponent="random")
    with pytest.raises(SessionError, match="Finish this deal first"):
        fresh.next_deal()


def test_a_match_goes_on_deal_after_deal_with_the_deal_passing():
    session = Session(seed=14, rules={"target": 3}, opponent="random")
    dealers = []
    while True:
        dealers.append(session.state.dealer)
        play_until(session, lambda s: False)
        if not session.can_continue:
            break
        total = session.scores
        session.next_deal()
        assert session.scores == total and not session.finished
    assert max(session.scores) >= 3 and session.match.finished
    assert dealers == [(dealers[0] + k) % 2 for k in range(len(dealers))]
    assert len([line for line in session.log if line.startswith("Deal ")]) == len(dealers)


def test_rules_changed_mid_deal_apply_from_the_next_new_deal():
    session = Session(seed=15, opponent="random")
    session.play(first_legal(session))
    state = session.state
    session.set_rules({"stock": "closed", "shasta_point": True})
    assert session.state is state and session.rules == Rules()
    with pytest.raises(SessionError, match="void_duty"):
        session.set_rules({"void_duty": "sometimes"})
    assert session.pending_rules == Rules(stock="closed", shasta_point=True)
    session.new_deal(15)
    assert session.rules == Rules(stock="closed", shasta_point=True)
    assert session.state.deal == Deal.random(15, session.rules)


def test_three_players_each_for_themself():
    session = Session(seed=16, rules={"players": 3}, opponent="random")
    assert session.names == ("You", "Left", "Right")
    play_until(session, lambda s: False)
    assert session.finished and len(session.scores) == 3
    assert len(session.state.tricks) == 17


# -- records --------------------------------------------------------------------------------

def test_a_deal_record_round_trips():
    session = Session(seed=17, rules={"stock": "closed"}, opponent="random")
    for _ in range(4):
        session.play(first_legal(session))
    text = session.record_json()
    assert read_record(json.loads(text)) == session.state
    copy = Session(seed=1, opponent="random").load(text)
    assert copy.state == session.state and copy.rules == session.rules and copy.log == session.log


def test_a_match_record_round_trips_with_the_match_totals():
    session = Session(seed=18, opponent="random")
    play_until(session, lambda s: False)
    session.next_deal()
    session.play(first_legal(session))
    record = session.record()
    assert "deals" in record and len(record["deals"]) == 2
    copy = Session.from_record(record, opponent="random")
    assert copy.state == session.state and copy.deal_number == 2
    assert copy.match_before == session.match_before and copy.log == session.log


@pytest.mark.parametrize("text, words", [
    ("{not json", "not valid JSON"),
    (json.dumps({**worked_example(), "plays": ["7C", "AD"]}), "trick 1, seat 0"),
    (json.dumps({**worked_example(), "rules": {"stock": "glass"}}), "stock"),
    ("[1, 2]", "must be a JSON object"),
])
def test_a_bad_record_is_refused_in_plain_words_and_changes_nothing(text, words):
    session = Session(seed=19, opponent="random")
    session.play(first_legal(session))
    before = snapshot(session)
    with pytest.raises(SessionError) as error:
        session.load(text)
    assert str(error.value).startswith("That record cannot be loaded: ") and words in str(error.value)
    assert "Traceback" not in str(error.value)
    assert snapshot(session) == before


def test_a_record_stopped_on_the_computers_turn_waits_for_advance():
    session = Session(opponent="random").load(worked_example(plays=()))
    assert not session.your_turn and session.state.to_play == 1
    with pytest.raises(SessionError, match="your opponent's turn"):
        session.play("2H")
    steps = session.advance()
    assert steps and steps[0].seat == 1 and session.your_turn
