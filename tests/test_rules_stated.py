"""The rules as RULES.md states them, on hand-built positions, through every engine path.

Each table row is a position built by hand beside the outcome RULES.md gives for it, worked
out by hand: who leads first, who wins a trick, who scores Game (ties included), how a deal's
points are counted towards the target, and the turned jack. No row depends on a seed, and no
expected value is computed with the engine's own expressions. Each rule is asked of every
path that applies it: the rich API (``State``, ``Match``), the search's ``World``, guesses
and solver, the fast path and the match objective. A random deal is the one thing the fast
paths cannot be handed, so there the rule is checked on what a few seeds deal, whatever it is.
"""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from calijack import DECK, Award, DealResult, Match, Rules, core, fast
from calijack.cards import mask_of, parse_card
from calijack.players.drive import fast_deal
from calijack.players.equity import MatchObjective
from calijack.players.solver import Solver, utility
from calijack.players.worlds import World, sample

TURNED = "9H"   # the stock's top card in the rows below unless they say otherwise: hearts are trump


def world_of_deal(deal) -> World:
    """The search's world at the start of a hand-built deal."""
    return World.start([[c.index for c in h] for h in deal.hands], deal.stock_index, deal.dealer,
                       int(deal.trump), deal.rules)


# -- who leads first ----------------------------------------------------------------------------

# (players, dealer, the seats in playing order in the first trick). "The non-dealer leads
# first"; with three, play passes to the leader's left (seat + 1), and the seat after the
# dealer leads.
FIRST_TRICK = [
    (2, 0, (1, 0)),
    (2, 1, (0, 1)),
    (3, 0, (1, 2, 0)),
    (3, 1, (2, 0, 1)),
    (3, 2, (0, 1, 2)),
]
# One suit per seat, so the first card played says who played it.
ONE_SUIT = ["2C 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 7D", "2S 3S 4S 5S 6S 7S"]


@pytest.mark.parametrize("players,dealer,order", FIRST_TRICK,
                         ids=[f"{p}players-dealer{d}" for p, d, _ in FIRST_TRICK])
def test_the_seat_after_the_dealer_leads_first(eng, players, dealer, order):
    rules = Rules(players=players)
    leader = order[0]
    deal = eng.make_deal([h.split() for h in ONE_SUIT[:players]], [TURNED], dealer, rules)
    state = deal.start()
    assert deal.first_leader == state.leader == state.to_play == leader
    for seat in order:                       # each seat in turn plays its lowest card
        assert state.to_play == seat
        state = state.play(ONE_SUIT[seat].split()[0])
    assert state.tricks[0].leader == leader
    assert [state.tricks[0].seat_of(k, players) for k in range(players)] == list(order)

    world = world_of_deal(deal)              # the search's world
    assert world.to_play == leader
    for seat in order:
        assert world.to_play == seat
        world.play(parse_card(ONE_SUIT[seat].split()[0]).index)

    first = deal.start().play(ONE_SUIT[leader].split()[0])
    for viewer in range(players):            # a guess replays the card from the leader's hand
        guess = sample(first.view(viewer), random.Random(viewer))
        assert guess.consistent and guess.world.to_play == order[1]
        assert parse_card(ONE_SUIT[leader].split()[0]).index in guess.deal_hands[leader]

    assert Match(rules, dealer).next_deal(1).start().to_play == leader
    for seed in range(3):                    # the fast paths: the first card is the leader's
        _, hands, _, _ = core.shuffle(random.Random(seed), rules)
        plays: list[int] = []
        fast.random_deal(random.Random(seed), rules, dealer, plays)
        assert plays[0] in hands[leader]
        assert fast_deal(random.Random(seed), rules, dealer, ("random",) * players)[2][0] in hands[leader]


# -- who wins a trick ---------------------------------------------------------------------------

# Hearts are trump (9♥ turned); seat 0 dealt, so seat 1 leads. (cards in playing order, the
# position of the winning card.) "The higher trump wins; without trumps the higher card of the
# led suit wins": a card of a third suit never does. Every trick holds a card of value or a
# point's card, so that who wins it changes the solver's value too.
TRICKS = {
    "a trump takes the suit led": (2, "7C 2H", 1),
    "the higher card of the suit led": (2, "7C KC", 1),
    "a lower card of the suit led loses": (2, "QC 3C", 0),
    "a third suit never wins, even an ace": (2, "7C AD", 0),
    "the higher trump": (2, "5H TH", 1),
    "a lower trump loses": (2, "KH 2H", 0),
    "a plain ace does not take a trump lead": (2, "5H AC", 0),
    "three: the last seat trumps": (3, "7C AD 2H", 2),
    "three: the suit led, higher": (3, "7C 8C AD", 1),
    "three: the higher of two trumps": (3, "7C 2H 3H", 2),
    "three: two third suits": (3, "7C KS AD", 0),
}
# Cards that put no duty in the way of the rows above (no clubs, no hearts), one set per seat.
FILLERS = ["2S 3S 4S 5S 6S", "2D 3D 4D 5D 6D", "7S 8S 9S 7D 8D"]


def trick_deal(eng, players: int, cards: str):
    """A deal in which seat 1 leads the first card of ``cards`` and the others answer in turn."""
    order = [(1 + k) % players for k in range(players)]   # seat 1, then to its left
    hands = [None] * players
    for seat, card in zip(order, cards.split()):
        hands[seat] = [card] + FILLERS[seat].split()
    return eng.make_deal(hands, [TURNED], 0, Rules(players=players)), order


@pytest.mark.parametrize("row", TRICKS, ids=list(TRICKS))
def test_who_wins_a_trick(eng, row):
    players, cards, position = TRICKS[row]
    deal, order = trick_deal(eng, players, cards)
    winner = order[position]
    played = eng.cards(cards)
    assert core.trick_winner([c.index for c in played], deal.trump) == position

    state = deal.start().play_all(played)    # the rich API: the winner takes the cards, draws first, leads
    trick = state.tricks[0]
    assert trick.winner == winner and trick.winning_card == played[position]
    assert set(state.captured(winner)) == set(played) and state.to_play == winner
    assert trick.draws[0] == parse_card(TURNED) and parse_card(TURNED) in state.hand(winner)

    world = world_of_deal(deal)              # the search's world
    for card in played:
        world.play(card.index)
    assert world.leader == winner and world.piles[winner] == mask_of(played) and world.trick == []
    assert world.hands[winner] >> parse_card(TURNED).index & 1

    # The solver, with this trick the last of the deal: its value is the one of the winner
    # taking these cards (and nothing else captured), whoever it plays for.
    last = World([1 << c.index for c in (played[order.index(s)] for s in range(players))], (), 0,
                 [0] * players, [0] * players, 1, [], deal.rules.tricks - 1, players, int(deal.trump),
                 False, deal.rules.draws, deal.rules.tricks)
    piles = [0] * players
    piles[winner] = mask_of(played)
    for me in range(players):
        points, pips = core.award_points(deal.rules, int(deal.trump), 0, piles, [0] * players, -1)
        assert Solver(deal.rules, 0, -1, me).value(last) == utility(points, pips, me, players)


# -- Game, and a tie for the highest card values ------------------------------------------------

# Card values: 10 = 10, A = 4, K = 3, Q = 2, J = 1 (20 a suit, 80 the pack). (players, the
# cards each seat captured, their values worked out by hand, who scores Game.) "At 40-40
# nobody scores it"; with three, "a tie for highest scores nothing".
ALL = {suit: " ".join(rank + suit for rank in "23456789TJQKA") for suit in "CDHS"}
GAME = {
    "40-40: nobody": (2, [ALL["C"] + " " + ALL["H"], ALL["D"] + " " + ALL["S"]], (40, 40), None),
    "41-39: the higher": (2, [ALL["C"] + " " + ALL["H"] + " JD", ALL["S"] + " " + ALL["D"].replace(" JD", "")],
                          (41, 39), 0),
    "39-41: the higher": (2, [ALL["C"] + " " + ALL["H"].replace(" JH", ""), ALL["D"] + " " + ALL["S"] + " JH"],
                          (39, 41), 1),
    "three: a three-way tie at the top": (3, ["TC AC KC QC JC 2C AS QD", "TH AH KH QH JH 2H KS KD",
                                              "TS TD AD JS JD 2S 2D"], (26, 26, 26), None),
    "three: two tie at the top": (3, ["TC AC KC QC JC TS", "TH AH KH QH JH TD", "AS KS QS JS AD KD QD JD"],
                                  (30, 30, 20), None),
    "three: a tie below the top does not matter": (3, ["TC AC KC QC JC TH AH KH QH JH",
                                                       "TS AS KS QS JS", "TD AD KD QD JD"], (40, 20, 20), 0),
}


def finished(eng, rules: Rules, top: str = TURNED, dealer: int = 0, trump: str | None = None):
    """A finished hand-built deal whose stock's top card is ``top`` (its captured cards are then
    replaced by each test's own)."""
    n = rules.players
    rest = [c.code for c in DECK if c.code != top]
    hands = [rest[6 * s:6 * s + 6] for s in range(n)]
    return eng.play_first_legal(eng.make_deal(hands, [top], dealer, rules, trump).start())


@pytest.mark.parametrize("row", GAME, ids=list(GAME))
def test_game_goes_to_the_single_highest_card_values(eng, row):
    players, captured, pips, winner = GAME[row]
    rules = Rules(players=players)
    piles = tuple(mask_of(eng.cards(cards)) for cards in captured)
    assert not piles[0] & piles[1] and (players == 2 or not (piles[0] | piles[1]) & piles[2])
    points, values = core.award_points(rules, 2, 0, piles, piles, parse_card(TURNED).index)
    assert values == pips and points["game"] == winner
    result = dataclasses.replace(finished(eng, rules), piles=piles).result()
    assert result.pips == pips and result.winner_of("game") == winner
    if winner is None:
        assert "nobody scores Game" in next(a.detail for a in result.awards if a.name == "game")


# -- counting towards the target ----------------------------------------------------------------

# (rules, match score before the deal, who earned High, Low, Jack, Game (and the nine) this
# deal, the match winner, the score after, the points counted.) "Points are counted strictly
# in the order High, Low, Jack, Game, and the match ends the moment a player reaches the
# target: points later in the order are not counted."
STANDARD = Rules()
COUNTING = {
    "High first": (STANDARD, (9, 9), (1, 0, 0, 0), 1, (9, 10), ("high",)),
    "nobody's High: Low next": (STANDARD, (9, 9), (None, 0, 1, 1), 0, (10, 9), ("low",)),
    "reached at Low: Jack and Game not counted": (STANDARD, (8, 9), (0, 0, 1, 1), 0, (10, 9), ("high", "low")),
    "the seat behind gets there first": (STANDARD, (9, 7), (1, 1, 1, 0), 1, (9, 10), ("high", "low", "jack")),
    "Jack before Game": (STANDARD, (9, 9), (None, None, 0, 1), 0, (10, 9), ("jack",)),
    "Game last": (STANDARD, (9, 9), (None, None, None, 1), 1, (9, 10), ("game",)),
    "nobody scores": (STANDARD, (9, 9), (None, None, None, None), None, (9, 9), ()),
    "nobody reaches it": (STANDARD, (5, 6), (0, 1, 0, None), None, (7, 7), ("high", "low", "jack")),
    "a match to 7": (Rules(target=7), (6, 5), (1, 1, 0, 0), 1, (6, 7), ("high", "low")),
    "a match to 1": (Rules(target=1), (0, 0), (None, 1, 0, 0), 1, (0, 1), ("low",)),
    "the nine after Game": (Rules(shasta_point=True), (9, 9), (None, None, None, 1, 0), 1, (9, 10), ("game",)),
    "the nine, last": (Rules(shasta_point=True), (9, 9), (None, None, None, None, 0), 0, (10, 9), ("nine",)),
    "three players": (Rules(players=3), (9, 9, 8), (2, 2, 1, 0), 2, (9, 9, 10), ("high", "low")),
}
# Who deals each deal of a match whose first dealer is seat 1: the deal passes to the next seat.
DEALERS = {2: (1, 0), 3: (1, 2, 0)}


def deal_result(rules: Rules, owners) -> DealResult:
    """A deal's result from the seat earning each point in counting order (None: nobody)."""
    awards = tuple(Award(name, seat, None, "hand-built") for name, seat in zip(rules.point_names, owners))
    return DealResult(awards, (0,) * rules.players, ((),) * rules.players)


def scripted_match(rules: Rules, before, owners):
    """``fast.random_match`` from first dealer 1, its deals scripted: one High per point of
    ``before``, then ``owners``, then (if nobody has won) High to seat 0 until it wins. Returns
    the match's answer and the dealers the deals were asked for."""
    n = rules.players
    deals = [tuple(seat if name == "high" else None for name in rules.point_names)
             for seat in range(n) for _ in range(before[seat])]
    deals.append(tuple(owners))
    deals += [tuple(0 if name == "high" else None for name in rules.point_names)] * rules.target
    dealers, script = [], iter(deals)

    def random_deal(rng, rules_, dealer):
        dealers.append(dealer)
        return dict(zip(rules.point_names, next(script))), (0,) * n

    original = fast.random_deal
    fast.random_deal = random_deal
    try:
        return fast.random_match(random.Random(0), rules, 1), dealers
    finally:
        fast.random_deal = original


@pytest.mark.parametrize("row", COUNTING, ids=list(COUNTING))
def test_points_are_counted_in_order_up_to_the_target(row):
    rules, before, owners, winner, after, counted = COUNTING[row]
    assert core.count_points(before, owners, rules.target)[:2] == (after, winner)

    match = Match(rules, 0, scores=before).add(deal_result(rules, owners))
    assert (match.winner, match.scores, match.counted[-1]) == (winner, after, counted)

    (won_by, scores, deals), dealers = scripted_match(rules, before, owners)
    played = sum(before) + 1
    if winner is not None:
        assert (won_by, scores, deals) == (winner, after, played)
    else:  # the match goes on: seat 0 then takes High deal after deal
        assert won_by == 0 and scores == (rules.target,) + after[1:]
        assert deals == played + rules.target - after[0]
    assert dealers == [d for d, _ in zip(itertools.cycle(DEALERS[rules.players]), range(deals))]

    points = dict(zip(rules.point_names, owners))
    for me in range(rules.players):
        value = MatchObjective(rules, before, me, blend=0.0)(points, (0,) * rules.players)
        if winner is not None:
            assert value == (1.0 if me == winner else 0.0)
        else:
            assert 0.0 < value < 1.0


def test_two_players_never_reach_the_target_together():
    # Every way the points of one deal can fall, from every score a point or three short of the target.
    for target in (1, 2, 3, 10):
        rules = Rules(target=target)
        for before in itertools.product(range(max(0, target - 3), target), repeat=2):
            for owners in itertools.product((0, 1, None), repeat=4):
                after, winner, _ = core.count_points(before, owners, target)
                assert min(after) < target and (winner is None) == (max(after) < target)
                match = Match(rules, 0, scores=before).add(deal_result(rules, owners))
                assert min(match.scores) < target and match.winner == winner


# -- the turned jack ----------------------------------------------------------------------------

# (rules, the stock's top card, the suit a cut chose (if it did), dealer, who captured the
# trump jack, who scores Jack, whether the turn (not the capture) decided it). The house option
# (account 001): "if the card that sets trump is the jack, the Jack point goes to the dealer,
# whoever captures that card"; the standard rules give no point for turning a jack.
TURNED_JACK = Rules(turned_jack=True)
JACK = {
    "the turned jack is the dealer's": (TURNED_JACK, "JH", None, 0, 1, 0, True),
    "the other dealer": (TURNED_JACK, "JH", None, 1, 0, 1, True),
    "the dealer captures it too": (TURNED_JACK, "JH", None, 0, 0, 0, True),
    "a trump jack that was not turned": (TURNED_JACK, "9H", None, 0, 1, 1, False),
    "a cut set trump: nothing was turned": (Rules(turned_jack=True, trump_from="cut"), "JH", "H", 0, 1, 1, False),
    "standard rules: no point for the turn": (STANDARD, "JH", None, 0, 1, 1, False),
    "three players": (Rules(turned_jack=True, players=3), "JH", None, 2, 0, 2, True),
    "three players, not turned": (Rules(turned_jack=True, players=3), "9H", None, 2, 0, 0, False),
}


@pytest.mark.parametrize("row", JACK, ids=list(JACK))
def test_only_the_turned_trump_jack_scores_for_the_dealer(eng, row):
    rules, top, cut, dealer, capturer, scorer, by_turn = JACK[row]
    jack = parse_card("JH")
    piles = [0] * rules.players
    piles[capturer] = jack.bit
    state = finished(eng, rules, top, dealer, cut)
    assert int(state.trump) == 2
    result = dataclasses.replace(state, piles=tuple(piles)).result()
    assert result.winner_of("jack") == scorer
    assert [a.name for a in result.awards] == ["high", "low", "jack", "game"]   # in its usual place
    turned = parse_card(top).index if cut is None else -1
    points, _ = core.award_points(rules, 2, dealer, piles, piles, turned)
    assert points["jack"] == scorer
    # What the search fights for: the jack's capture matters unless the turn decided the point.
    assert bool(core.capture_mask(rules, 2, turned) & jack.bit) is not by_turn
