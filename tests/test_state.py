"""Deals and positions: the worked example, drawing, three players, the cut, validation."""

import dataclasses
import random

import pytest

from calijack import DECK, Deal, DealError, Rules, Suit
from calijack.cards import parse_card

# RECORDS.md's example, made consistent: B (seat 0) deals; A (seat 1) leads.
B_HAND = "2H AD KD QS 9S 8D"
A_HAND = "7C AS KS 3D 4D 5S"


def worked_example(eng, rules=Rules()):
    return eng.make_deal([B_HAND.split(), A_HAND.split()], ["JH", "QD"], dealer=0, rules=rules)


def test_worked_example_card_for_card(eng):
    deal = worked_example(eng)
    state = deal.start()
    assert state.trump is Suit.HEARTS and deal.turned == parse_card("JH")
    assert state.stock_top == parse_card("JH") and len(state.stock) == 40
    assert deal.first_leader == 1 and state.to_play == 1 and state.leader == 1  # A, the non-dealer
    state = state.play("7C")
    assert state.to_play == 0
    assert state.legal_cards() == [parse_card("2H")]  # B is void in clubs and must trump
    state = state.play("2H")
    trick = state.tricks[0]
    assert trick.cards == (parse_card("7C"), parse_card("2H"))
    assert trick.winner == 0 and state.leader == 0 and state.to_play == 0  # B wins and leads
    assert trick.draws == (parse_card("JH"), parse_card("QD")) and trick.drawers(2) == (0, 1)
    assert parse_card("JH") in state.hand(0) and parse_card("QD") in state.hand(1)
    assert state.stock_top == parse_card(DECK[0].code) and len(state.stock) == 38  # the next card shows
    assert state.captured(0) == [parse_card("2H"), parse_card("7C")] and state.captured(1) == []
    done = eng.play_first_legal(state)
    assert parse_card("2H") in done.captured(0)
    result = done.result()
    assert result.winner_of("low") == 0
    low = next(a for a in result.awards if a.name == "low")
    assert low.card == parse_card("2H") and low.detail == "seat 0 captured 2♥"


def test_each_trick_refills_both_hands_to_six(eng):
    state = worked_example(eng).start()
    rng = random.Random(3)
    for number in range(1, 27):
        assert [len(state.hand(s)) for s in (0, 1)] == [max(0, min(6, 26 - number + 1))] * 2
        assert state.trick_number == number and len(state.stock) == max(0, 40 - 2 * (number - 1))
        state = eng.play_random(state, rng, plays=2)
        trick = state.tricks[-1]
        assert len(trick.draws) == (2 if number <= 20 else 0)
        if number <= 20:  # the winner takes the exposed card, the loser the next
            top = worked_example(eng).stock[2 * (number - 1):2 * number]
            assert trick.draws == tuple(top) and trick.drawers(2) == (trick.winner, 1 - trick.winner)
            assert trick.draws[0] in state.hand(trick.winner) or trick.draws[0] in state.plays
    assert state.finished and len(state.tricks) == 26 and state.stock == () and state.stock_top is None
    assert state.trick_number == 26 and state.to_play is None and state.dead_card is None
    assert sorted(state.plays) == sorted(DECK)


def test_deal_random_is_reproducible_and_valid():
    assert Deal.random(11) == Deal.random(11) == Deal.random(random.Random(11))
    assert Deal.random(11) != Deal.random(12)
    deal = Deal.random(5, Rules(players=3))
    assert len(deal.hands) == 3 and len(deal.stock) == 34 and deal.dealer in (0, 1, 2)
    assert sorted([c for h in deal.hands for c in h] + list(deal.stock)) == list(DECK)
    assert Deal.random(5, dealer=1).dealer == 1


@pytest.mark.parametrize("players", [2, 3])
def test_a_seed_names_one_shuffle_whoever_deals(players):
    """The sandbox's seed 7 is the book's seed 7: naming the dealer never changes the cards."""
    rules = Rules(players=players)
    for seed in range(30):
        chosen = Deal.random(seed, rules)
        for dealer in range(players):
            named = Deal.random(seed, rules, dealer=dealer)
            assert (named.hands, named.stock, named.trump, named.dealer) == \
                (chosen.hands, chosen.stock, chosen.trump, dealer), (seed, dealer)


def test_rewind_and_play_all(eng):
    state = eng.play_random(Deal.random(8).start(), random.Random(8), plays=17)
    assert state.trick_number == 9 and len(state.current.cards) == 1
    assert state.rewind(17) == state
    assert state.rewind(4) == state.deal.start().play_all(state.plays[:4])
    assert state.rewind(0) == state.deal.start()
    assert state.plays == [c for t in state.tricks for c in t.cards] + list(state.current.cards)


@pytest.mark.parametrize("hands,stock,words", [
    ([["2C", "3C", "4C", "5C", "6C", "7C"]], None, "hands must hold 2 hands"),
    ([["2C", "3C", "4C", "5C", "6C"], ["7C", "8C", "9C", "TC", "JC", "QC"]], None, "hand of seat 0 must hold 6"),
    ([["2C", "3C", "4C", "5C", "6C", "7C"], ["7C", "8C", "9C", "TC", "JC", "QC"]], None, "7C appears twice"),
])
def test_bad_deals(hands, stock, words):
    if stock is None:
        used = {parse_card(c) for h in hands for c in h}
        stock = [c for c in DECK if c not in used][:40]
    with pytest.raises(DealError, match=words):
        Deal.from_cards(hands, stock)


def test_bad_stock_and_dealer(eng):
    deal = worked_example(eng)
    with pytest.raises(DealError, match="stock must hold 40 cards, not 39"):
        Deal.from_cards(deal.hands, deal.stock[:-1])
    with pytest.raises(DealError, match="dealer must be a seat from 0 to 1, not 2"):
        Deal.from_cards(deal.hands, deal.stock, dealer=2)
    with pytest.raises(DealError, match="only with trump_from 'cut'"):
        Deal.from_cards(deal.hands, deal.stock, trump="S")
    assert Deal.from_cards(deal.hands, deal.stock, trump="H") == deal


def test_state_is_frozen(eng):
    state = worked_example(eng).start()
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.leader = 0
    after = state.play("7C")
    assert state.plays == [] and after.plays == [parse_card("7C")]


# -- three players ----------------------------------------------------------------------------

THREE = Rules(players=3)
HANDS3 = ["2C 3C 4C 5C 6C 7C", "8C 9C TC JC QC KC", "AC 2D 3D 4D 5D 6D"]


def three_deal(eng, dealer=1, rules=THREE):
    return eng.make_deal([h.split() for h in HANDS3], ["AS", "KS", "QS"], dealer=dealer, rules=rules)


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_three_players_play_order_is_seat_plus_one(eng, dealer):
    state = three_deal(eng, dealer).start()
    leader = (dealer + 1) % 3
    assert state.leader == leader and state.to_play == leader
    for k in range(3):
        assert state.to_play == (leader + k) % 3
        state = state.play(state.legal_cards()[-1])
    trick = state.tricks[0]
    assert [trick.seat_of(k, 3) for k in range(3)] == [leader, (leader + 1) % 3, (leader + 2) % 3]


def test_three_players_draw_in_order_from_the_winner(eng):
    state = three_deal(eng, dealer=0).start()  # seat 1 leads
    state = state.play_all(["8C", "AC", "2C"])  # seat 2's A♣ wins
    trick = state.tricks[0]
    assert trick.winner == 2 and trick.drawers(3) == (2, 0, 1)
    assert trick.draws == tuple(eng.cards("AS KS QS"))
    assert parse_card("AS") in state.hand(2) and parse_card("KS") in state.hand(0)
    assert parse_card("QS") in state.hand(1)
    assert state.to_play == 2 and [len(state.hand(s)) for s in range(3)] == [6, 6, 6]
    assert state.trump is Suit.SPADES


def test_three_players_17_tricks_and_a_dead_card(eng):
    rng = random.Random(4)
    deal = three_deal(eng)
    state = deal.start()
    while not state.finished:
        if len(state.tricks) < 11:
            assert state.dead_card is None and len(state.stock) == 34 - 3 * len(state.tricks)
        state = eng.play_random(state, rng, plays=1)
    assert len(state.tricks) == 17 and len(state.plays) == 51
    assert all(len(t.draws) == (3 if k < 11 else 0) for k, t in enumerate(state.tricks))
    assert state.dead_card == deal.stock[-1] and state.stock == ()
    assert state.dead_card not in state.plays
    assert sorted(state.plays + [state.dead_card]) == list(DECK)
    assert sum(state.pips(s) for s in range(3)) == 80 - state.dead_card.value


def test_dead_card_shows_once_the_draws_are_over(eng):
    state = eng.play_random(three_deal(eng).start(), random.Random(1), plays=30)
    assert len(state.tricks) == 10 and state.dead_card is None and len(state.stock) == 4
    state = eng.play_random(state, random.Random(1), plays=3)
    assert len(state.tricks) == 11 and state.stock == () and state.dead_card == three_deal(eng).stock[33]


# -- trump from a cut -------------------------------------------------------------------------

def test_trump_from_cut(eng):
    rules = Rules(trump_from="cut")
    hands = [B_HAND.split(), A_HAND.split()]
    with pytest.raises(DealError, match="must name the trump suit"):
        eng.make_deal(hands, ["JH", "QD"], rules=rules)
    deal = eng.make_deal(hands, ["JH", "QD"], rules=rules, trump="♠")
    state = deal.start()
    assert state.trump is Suit.SPADES and deal.turned is None
    state = state.play("7C")  # seat 0 has no clubs but spades: must trump with a spade
    assert set(state.legal_cards()) == set(eng.cards("QS 9S"))
    state = state.play("9S")
    assert state.tricks[0].winner == 0 and state.tricks[0].draws == tuple(eng.cards("JH QD"))


def test_random_cut_is_any_suit():
    seen = {Deal.random(seed, Rules(trump_from="cut")).trump for seed in range(60)}
    assert seen == set(Suit)
    for seed in range(30):
        deal = Deal.random(seed, Rules(trump_from="cut"))
        assert deal.turned is None
        deal = Deal.random(seed)
        assert deal.trump is deal.stock[0].suit and deal.turned is deal.stock[0]
