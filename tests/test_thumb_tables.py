"""The rules of thumb on precomputed orders (:class:`heuristic.Thumb`) pick exactly the card that the
orders written out card by card pick; the search's faster helpers change no play (issue 33)."""

from __future__ import annotations

import random

import pytest

from calijack import Deal, Rules, core
from calijack.cards import SUIT_MASK, Card, Rank, Suit
from calijack.players import heuristic
from calijack.players.heuristic import Stakes, keeps_low, rule_of_thumb, stakes
from calijack.players.inference import Reading
from calijack.players.search import rollout
from calijack.players.worlds import Sampler, World, sample


def _spelled_out(hand, legal, trick, trump, top, gone, stake, last, keep_low, bank=False):
    """The rules of thumb as they were written before the orders were tabled (the reference);
    ``bank``: the Expert's extra rule, last to play, a plain ten that wins a trick worth nothing."""
    def worth_drawing(top):
        return top >= 0 and (top // 13 == trump or core.pips_of(1 << top) >= 4)

    cards = core.bit_list(legal)
    if len(cards) == 1:
        return cards[0], "only"
    tmask = SUIT_MASK[trump]
    low_trump = trump * 13
    if not trick:
        if worth_drawing(top):
            unseen = [c for c in range(52) if not (gone | hand) >> c & 1 and c != top]  # an opponent may hold
            mine = [c for c in core.bit_list(hand) if c // 13 == trump]
            if mine and all(c < max(mine) for c in unseen if c // 13 == trump):
                return max(mine), "lead_master"
            for c in sorted(cards, key=lambda c: (stake[c], -(c % 13))):
                suit = c // 13
                if suit != trump and c % 13 != Rank.TEN and not any(u // 13 == suit and u > c for u in unseen):
                    return c, "lead_high"
        return min(cards, key=lambda c: (stake[c], c // 13 == trump, c % 13)), "lead_low"
    best = trick[core.trick_winner(trick, trump)]
    at_stake = sum(stake[c] for c in trick)
    winners = [c for c in cards if core.beats(c, best, trump)]
    if winners:
        if keep_low and last and (1 << low_trump) & legal and low_trump in winners:
            return low_trump, "win_low"
        fight = worth_drawing(top)
        if fight or at_stake > 0:
            def cost(c):
                is_trump = c // 13 == trump
                spare = keep_low and c == low_trump and not last
                return (spare, is_trump, -stake[c] if last else stake[c], c % 13)
            return min(winners, key=cost), "fight" if fight else "capture"
        tens = [c for c in winners if c % 13 == Rank.TEN and c // 13 != trump]
        if bank and last and tens:
            return max(tens), "bank"

    def waste(c):
        is_trump = c // 13 == trump
        precious = keep_low and is_trump and c % 13 <= Rank.FOUR
        return (stake[c], precious, is_trump, c % 13 == Rank.TEN, c % 13)
    return min(cards, key=waste), "lose"


RULES = [Rules(), Rules(game="ten_of_trumps"), Rules(high_low="held"), Rules(shasta_point=True, turned_jack=True)]


@pytest.mark.parametrize("bank", [False, True], ids=["casual", "bank"])
@pytest.mark.parametrize("rules", RULES, ids=lambda r: ",".join(r.to_dict()) or "standard")
def test_the_tabled_rules_of_thumb_pick_what_the_spelled_out_ones_pick(rules, bank):
    rng = random.Random(33)
    rules_seen = set()
    for _ in range(6000):
        trump = rng.randrange(4)
        turned = rng.choice([-1, trump * 13 + 9, trump * 13 + rng.randrange(13)])
        keep_low = rng.random() < 0.5 if rng.random() < 0.2 else keeps_low(rules, trump, turned)
        stake = stakes(rules, trump, rng.random() < 0.6, turned)
        deck = list(range(52))
        rng.shuffle(deck)
        hand = sum(1 << c for c in deck[:rng.randrange(1, 9)])
        trick = tuple(deck[20:20 + rng.randrange(3)])
        gone = hand | sum(1 << c for c in deck[30:30 + rng.randrange(20)])
        for c in trick:
            gone |= 1 << c
        top = rng.choice([-1, deck[10], deck[11]])
        if rng.random() < 0.3:  # the highest trump not played in hand (and so in ``gone``, as callers pass it)
            left = SUIT_MASK[trump] & ~gone
            if left:
                hand |= 1 << (left.bit_length() - 1)
                gone |= hand
        if rng.random() < 0.1:  # ``gone`` without the hand: the rules read the same
            gone &= ~hand
        legal = core.legal_mask(hand, trick[0] if trick else -1, trump, rules.void_any)
        last = rng.random() < 0.5
        args = (hand, legal, trick, trump, top, gone, stake, last, keep_low, bank)
        want = _spelled_out(*args)
        assert rule_of_thumb(*args) == want, args
        assert rule_of_thumb(hand, legal, list(trick), *args[3:]) == want  # a trick as a list reads the same
        rules_seen.add(want[1])
    assert rules_seen >= {"only", "lead_master", "lead_high", "lead_low", "fight", "capture", "lose"}
    assert ("bank" in rules_seen) is bank


def test_the_bank_rule_wins_a_worthless_trick_with_a_plain_ten_only_when_last():
    """Hearts trump; a worthless low club led, no card worth drawing on the stock: Casual loses
    the trick cheaply, the Expert's rules (``bank``) win it with the ten of clubs when last to play."""
    rules = Rules()
    trump = int(Suit.HEARTS)

    def card(code):
        return Card.parse(code).index

    hand = sum(1 << card(c) for c in ("TC", "3C", "5D"))
    trick = (card("2C"),)
    legal = core.legal_mask(hand, trick[0], trump, rules.void_any)
    stake = stakes(rules, trump, False)  # Game decided: the ten's card value is no stake
    keep = keeps_low(rules, trump)
    gone = hand | 1 << card("2C")
    top = card("4D")
    assert rule_of_thumb(hand, legal, trick, trump, top, gone, stake, True, keep) == (card("3C"), "lose")
    assert rule_of_thumb(hand, legal, trick, trump, top, gone, stake, True, keep, True) == (card("TC"), "bank")
    assert rule_of_thumb(hand, legal, trick, trump, top, gone, stake, False, keep, True)[1] == "lose"  # not last
    trumps = sum(1 << card(c) for c in ("TH", "3H"))  # a trump ten is never banked
    hearts = (card("2H"),)
    assert rule_of_thumb(trumps, trumps, hearts, trump, top, trumps | 1 << card("2H"), stake, True, keep,
                         True)[1] != "bank"


def test_tables_are_kept_per_stake_table_and_an_unknown_table_is_honoured():
    stake = stakes(Rules(), 2, True)
    assert heuristic.thumb_tables(stake, 2, True) is heuristic.thumb_tables(stake, 2, True)
    odd = tuple(range(52))  # not one of stakes()'s tables: the highest index is the most worth keeping
    legal = (1 << 3) | (1 << 40)
    assert rule_of_thumb(legal, legal, (), 0, -1, legal, odd, False, False) == (3, "lead_low")
    assert Stakes.of(Rules(), 2) is Stakes.of(Rules(), 2)


def test_the_cards_picked_are_kept_for_one_deal_and_bounded():
    Stakes.of(Rules(), 0, 7)  # whatever deal came before: let go
    worth = Stakes.of(Rules(), 1, 20)
    live = worth.thumbs[0]
    hand = (1 << 3) | (1 << 16) | (1 << 30)
    assert heuristic.thumb(hand, hand, (), -1, hand, False, live) == (3, "lead_low")
    assert live.lead_low == {hand: 3}
    Stakes.of(Rules(), 1, 20)  # the same deal's: kept
    assert live.lead_low == {hand: 3}
    Stakes.of(Rules(), 3, 40)  # another deal's: the first deal's picks are let go
    assert not live.lead_low
    for mask in range(1, 2 * live.lead_low.LIMIT):
        live.lead_low[mask]
    assert 0 < len(live.lead_low) <= live.lead_low.LIMIT


def _positions():
    for seed in range(1, 5):
        state = Deal.random(seed).start()
        rng = random.Random(seed)
        while not state.finished:
            if len(state.legal_cards()) > 1:
                yield state.view(state.to_play)
            state = state.play(rng.choice(state.legal_cards()))


def test_replay_plays_as_play_does_and_checks_each_card():
    for view in list(_positions())[::9]:
        guess = sample(view, random.Random(1))
        world = World.start(guess.deal_hands, guess.deal_stock, view.dealer, int(view.trump), view.rules)
        other = world.copy()
        assert world.replay([c.index for c in view.played]) is True
        for card in view.played:
            other.play(card.index)
        assert [getattr(world, a) for a in World.__slots__] == [getattr(other, a) for a in World.__slots__]
    start = World.start([[0, 1, 2, 3, 4, 5], [13, 14, 15, 16, 17, 18]], list(range(19, 52)), 1, 3, Rules())
    assert start.copy().replay([0, 13]) is True
    assert start.copy().replay([13]) is False  # seat 0 leads: seat 1's card is not in its hand


def test_a_sampler_guesses_as_sample_does_and_a_rollout_ends_as_the_world_says():
    for view in list(_positions())[::7]:
        one, two = random.Random(5), random.Random(5)
        sampler = Sampler(view)
        for _ in range(3):
            a, b = sampler.sample(one), sample(view, two)
            assert (a.deal_hands, a.deal_stock, a.consistent) == (b.deal_hands, b.deal_stock, b.consistent)
        world = a.world.copy()
        rollout(world, view.rules, view.dealer, view.turned.index, view.seat, random.Random(1), 0.1)
        assert world.finished and not world.trick and not any(world.hands)
        assert world.drawn == len(world.stock) and sum(map(core.popcount, world.piles)) == 52


def _replayed_likelihoods(guess, view, noises, bank=False):
    """The opponent's likelihoods by replaying the whole deal on the guess, play by play (the reference)."""
    trump = int(view.trump)
    turned = view.turned.index if view.turned is not None else -1
    world = World.start(guess.deal_hands, guess.deal_stock, view.dealer, trump, view.rules)
    worth = Stakes(view.rules, trump, turned)
    played, weights = 0, [1.0] * len(noises)
    for card in view.played:
        trick = world.trick
        seat = world.to_play
        if seat != view.seat:
            hand = world.hands[seat]
            legal = world.legal()
            count = core.popcount(legal)
            if count > 1:
                stake, _ = worth.now(world.piles)
                model, _ = rule_of_thumb(hand, legal, tuple(trick), trump, world.top, played | hand, stake,
                                         len(trick) == view.players - 1, keeps_low(view.rules, trump, turned), bank)
                for i, noise in enumerate(noises):
                    weights[i] *= (1 - noise if model == card.index else 0.0) + noise / count
        played |= card.bit
        world.play(card.index)
    return tuple(weights)


@pytest.mark.parametrize("bank", [False, True], ids=["casual", "bank"])
@pytest.mark.parametrize("options", [{}, {"stock": "closed"}, {"players": 3}, {"game": "ten_of_trumps"}])
def test_a_reading_weighs_each_guess_as_replaying_the_deal_does(options, bank):
    rules = Rules.from_dict(options)
    rng = random.Random(8)
    checked = 0
    for seed in range(3):
        state = Deal.random(seed, rules).start()
        while not state.finished:
            view = state.view(state.to_play)
            if len(state.plays) % 5 == 2 and view.played:
                reading, sampler = Reading(view, bank), Sampler(view)
                for _ in range(4):
                    guess = sampler.sample(rng)
                    for noises in ((0.0, 0.5, 1.0), (0.0,)):  # (0.0,) alone stops at the first play missed
                        assert reading.likelihoods(guess, noises) == _replayed_likelihoods(guess, view, noises, bank)
                    checked += 1
            state = state.play(rng.choice(state.legal_cards()))
    assert checked > 20


def test_the_kept_stakes_are_bounded(monkeypatch):
    # One Stakes per rules, trump and turned card: a simulation over many rule sets must not grow
    # the cache without end, and a deal asked for again still gets its own stakes.
    monkeypatch.setattr(heuristic, "KEPT", 5)
    monkeypatch.setattr(heuristic, "_WORTH", {})
    monkeypatch.setattr(heuristic, "_STAKES", {})
    for rules in RULES:
        for trump in range(4):
            for turned in (-1, trump * 13 + 9):
                worth = Stakes.of(rules, trump, turned)
                assert Stakes.of(rules, trump, turned) is worth
                assert worth.live == stakes(rules, trump, True, turned)
                assert len(heuristic._WORTH) <= 5 and len(heuristic._STAKES) <= 5
