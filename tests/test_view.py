"""What one seat knows: its hand, the draws it saw, the exposed stock top, and nothing else."""

import dataclasses
import random

import pytest

from calijack import DECK, DealError, Rules, View
from calijack.cards import parse_card

B_HAND = "2H AD KD QS 9S 8D"   # seat 0, the dealer
A_HAND = "7C AS KS 3D 4D 5S"   # seat 1 leads


def example(eng, rules=Rules()):
    return eng.make_deal([B_HAND.split(), A_HAND.split()], ["JH", "QD"], dealer=0, rules=rules).start()


def test_view_at_the_start(eng):
    state = example(eng)
    for seat in (0, 1):
        view = state.view(seat)
        assert isinstance(view, View) and view.seat == seat and view.rules == state.rules
        assert view.hand == tuple(state.hand(seat)) and view.hand_sizes == (6, 6)
        assert view.known == ((), ()) and view.trick == () and view.tricks == ()
        assert view.stock_top == parse_card("JH") and view.turned == parse_card("JH")
        assert view.stock_count == 40 and view.stock_hidden == 39 and view.dead_card is None
        assert view.leader == 1 and view.to_play == 1 and view.dealer == 0 and not view.finished
        assert view.hidden_counts == tuple(0 if s == seat else 6 for s in (0, 1))
        assert len(view.unseen) == 52 - 6 - 1 and parse_card("JH") not in view.unseen
        assert not set(view.unseen) & set(view.hand)
    assert state.view(1).legal == tuple(state.legal_cards()) and state.view(0).legal == ()


def test_exposed_stock_both_draws_are_seen(eng):
    state = example(eng).play_all(["7C", "2H"])
    for seat in (0, 1):
        view = state.view(seat)
        assert view.tricks[0].draws == tuple(eng.cards("JH QD"))
        assert view.tricks[0] == state.tricks[0]
        assert view.trick == () and view.played == tuple(eng.cards("7C 2H"))
    assert state.view(1).known == ((parse_card("JH"),), ())
    assert state.view(0).known == ((), (parse_card("QD"),))
    assert state.view(1).hidden_counts == (5, 0) and state.view(0).hidden_counts == (0, 5)
    assert state.view(0).captured(0) == state.captured(0) and state.view(1).pips(0) == state.pips(0) == 0


def test_closed_stock_the_losers_draw_is_unseen(eng):
    state = example(eng, Rules(stock="closed")).play_all(["7C", "2H"])  # seat 0 wins
    winner, loser = state.view(0), state.view(1)
    assert winner.tricks[0].draws == (parse_card("JH"), None)
    assert loser.tricks[0].draws == (parse_card("JH"), parse_card("QD"))
    assert winner.known == ((), ()) and loser.known == ((parse_card("JH"),), ())
    assert parse_card("QD") in winner.unseen and parse_card("QD") not in loser.unseen
    assert winner.stock_top == loser.stock_top == state.stock_top  # the new top is turned


def test_known_cards_leave_once_played(eng):
    state = example(eng).play_all(["7C", "2H"])
    assert state.view(1).known[0] == (parse_card("JH"),)
    state = state.play("JH")  # seat 0 leads the card everyone saw it draw
    assert state.view(1).known[0] == () and state.view(1).trick == (parse_card("JH"),)


def test_three_players_closed_stock(eng):
    rules = Rules(players=3, stock="closed")
    hands = ["2C 3C 4C 5C 6C 7C", "8C 9C TC JC QC KC", "AC 2D 3D 4D 5D 6D"]
    state = eng.make_deal([h.split() for h in hands], ["AS", "KS", "QS"], dealer=0, rules=rules).start()
    state = state.play_all(["8C", "AC", "2C"])  # seat 2 wins; draws: seat 2, seat 0, seat 1
    assert state.view(2).tricks[0].draws == (parse_card("AS"), None, None)
    assert state.view(0).tricks[0].draws == (parse_card("AS"), parse_card("KS"), None)
    assert state.view(1).tricks[0].draws == (parse_card("AS"), None, parse_card("QS"))
    assert state.view(0).known == ((), (), (parse_card("AS"),))
    assert state.view(0).hidden_counts == (0, 6, 5)


def test_three_players_exposed_stock_sees_every_draw(eng):
    rules = Rules(players=3)
    state = eng.seeded_game(random.Random(7), rules)
    view = state.view(1)
    assert view.tricks == state.tricks and view.finished and view.dead_card == state.dead_card
    assert view.unseen == [] and view.stock_count == 0 and view.stock_top is None


def test_a_finished_deal_shows_everything_played(eng):
    state = eng.seeded_game(random.Random(3), Rules(stock="closed"))
    for seat in (0, 1):
        view = state.view(seat)
        assert view.finished and view.legal == () and view.hand == ()
        assert sorted(view.played) == list(DECK) and view.unseen == []
        assert [view.pips(s) for s in (0, 1)] == [state.pips(s) for s in (0, 1)]


def test_views_are_values(eng):
    state = example(eng).play("7C")
    assert state.view(0) == state.view(0) and hash(state.view(0)) == hash(state.view(0))
    assert state.view(0) != state.view(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.view(0).seat = 1
    with pytest.raises(DealError, match="There is no seat 2: with 2 players the seats are 0 and 1"):
        state.view(2)


def test_an_unseen_swap_gives_the_same_view(eng):
    # Swap one of seat 1's cards with a stock card below the top: seat 0 cannot tell the deals apart.
    hands = [B_HAND.split(), A_HAND.split()]
    one = eng.make_deal(hands, ["JH", "QD", "2C"]).start()
    other = eng.make_deal([hands[0], ["2C", *hands[1][1:]]], ["JH", "QD", "7C"]).start()
    assert one.view(0) == other.view(0) and one.view(1) != other.view(1)
    one, other = one.play("AS"), other.play("AS")
    assert one.view(0) == other.view(0)


def test_closed_stock_changes_knowledge_not_play(eng):
    for seed in range(20):
        exposed = eng.seeded_game(random.Random(seed), Rules(), seed % 2)
        closed = eng.seeded_game(random.Random(seed), Rules(stock="closed"), seed % 2)
        assert closed.plays == exposed.plays and closed.tricks == exposed.tricks
        assert closed.result() == exposed.result()
        for seat in (0, 1):
            one = closed.rewind(10).view(seat)
            other = dataclasses.replace(exposed.rewind(10).view(seat), rules=closed.rules)
            # A seat misses a draw exactly when it won a trick: the loser's card is unseen.
            won = any(t.winner == seat for t in closed.tricks[:5])
            assert (one != other) == won
            assert one.hand == other.hand and one.legal == other.legal
