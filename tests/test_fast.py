"""The fast path and the rich API share one set of rules: same seeded deals, same cards, same points."""

import random

import pytest

from calijack import DECK, Deal, IllegalPlay, Rules, core, fast
from calijack.rules import RuleError
from calijack.cards import cards_of

DEALS = 200


def test_fast_path_plays_the_same_deals(eng, option_rules):
    rules = option_rules
    for seed in range(DEALS):
        dealer = seed % rules.players
        plays: list[int] = []
        fast_rng = random.Random(seed)
        points, pips = fast.random_deal(fast_rng, rules, dealer, plays=plays)

        rng = random.Random(seed)
        _, hands, stock, trump = core.shuffle(rng, rules)
        deal = eng.seeded_deal(random.Random(seed), rules, dealer)
        assert [[c.index for c in h] for h in deal.hands] == hands
        assert [c.index for c in deal.stock] == stock and deal.trump == trump
        state = deal.start()
        while not state.finished:
            legal = cards_of(state.legal_mask())
            state = state.play(legal[core.pick(rng, len(legal))])

        assert plays == [c.index for c in state.plays], seed
        assert len(plays) == 52 - 52 % rules.players
        result = state.result()
        assert points == {a.name: a.seat for a in result.awards}, seed
        assert pips == result.pips == tuple(state.pips(s) for s in range(rules.players))
        assert fast_rng.random() == rng.random()  # both consumed the generator alike


def test_fast_path_reads_the_rules(eng):
    # The same seed gives different plays when a rule of play changes, the same when only scoring does.
    def plays_of(rules, seed):
        plays = []
        fast.random_deal(random.Random(seed), rules, 0, plays=plays)
        return plays

    differ = sum(plays_of(Rules(), s) != plays_of(Rules(void_duty="any"), s) for s in range(50))
    assert differ > 10
    assert all(plays_of(Rules(), s) == plays_of(Rules(high_low="held", shasta_point=True), s) for s in range(50))
    assert all(len(plays_of(Rules(players=3), s)) == 51 for s in range(20))


def test_fast_random_deal_without_a_play_list():
    points, pips = fast.random_deal(random.Random(1))
    assert set(points) == {"high", "low", "jack", "game"} and sum(pips) == 80


def test_random_match_reaches_the_target():
    for seed in range(20):
        winner, scores, deals = fast.random_match(random.Random(seed), Rules(target=5))
        assert scores[winner] == 5 and max(scores) == 5 and deals >= 2


def test_deals_per_second_reports_a_rate():
    report = fast.deals_per_second(0.05)
    assert report["deals"] >= 100 and report["deals_per_second"] > 0 and report["seconds"] >= 0.05


def test_bit_helpers_agree_with_the_cards():
    rng = random.Random(0)
    for _ in range(200):
        mask = rng.getrandbits(52)
        assert core.bit_list(mask) == tuple(c.index for c in cards_of(mask))
        assert core.pips_of(mask) == sum(c.value for c in cards_of(mask))
        assert core.popcount(mask) == len(cards_of(mask))
    assert core.pick(random.Random(3), 5) in range(5)
    assert core.draw_seats(1, 2) == (1, 0) and core.draw_seats(2, 3) == (2, 0, 1)
    assert len(DECK) == 52


@pytest.mark.parametrize("options", [{}, {"players": 3}, {"void_duty": "any"}, {"trump_from": "cut"}])
def test_play_random_matches_the_fast_path_card_for_card(options):
    """``State.play_random`` draws from the same stream as ``fast.random_deal``: one seed, one deal."""
    rules = Rules.from_dict(options)
    for seed in range(60):
        plays: list[int] = []
        fast.random_deal(random.Random(seed), rules, dealer=0, plays=plays)
        rng = random.Random(seed)
        end = Deal.random(rng, rules, dealer=0).start().play_random(rng)
        assert end.finished and [card.index for card in end.plays] == plays


def test_play_random_stops_after_the_tricks_asked_for():
    state = Deal.random(5).start().play_random(5, tricks=4)
    assert len(state.tricks) == 4 and not state.trick


def test_with_rules_keeps_the_cards_and_changes_the_rules():
    deal = Deal.random(9)
    closed = deal.with_rules(stock="closed")
    assert (closed.hands, closed.stock, closed.dealer, closed.trump) == (deal.hands, deal.stock, deal.dealer, deal.trump)
    assert closed.rules == Rules(stock="closed")
    cut = Deal.random(9, Rules(trump_from="cut"))
    assert cut.with_rules(game="ten_of_trumps").trump == cut.trump


def test_a_state_under_other_rules_keeps_its_cards_and_plays():
    played = Deal.random(4).start().play_random(4)
    held = played.with_rules(high_low="held", shasta_point=True)
    assert held.plays == played.plays and held.deal.hands == played.deal.hands
    assert held.rules == Rules(high_low="held", shasta_point=True)
    assert [a.name for a in held.result().awards] == ["high", "low", "jack", "game", "nine"]
    assert held.result().pips == played.result().pips   # the same tricks, so the same card values


def test_a_state_under_other_rules_refuses_plays_those_rules_forbid():
    # Under void_duty=any a player with no clubs may keep its trumps; the standard rules then
    # refuse that play, with the engine's reason.
    for seed in range(200):
        state = Deal.random(seed, Rules(void_duty="any")).start()
        strict = state.deal.with_rules(void_duty="must_trump").start()
        while not state.finished:
            illegal = [c for c in state.legal_cards() if c not in strict.legal_cards()]
            if illegal:
                with pytest.raises(IllegalPlay, match="must trump"):
                    state.play(illegal[0]).with_rules(void_duty="must_trump")
                return
            card = state.legal_cards()[0]
            state, strict = state.play(card), strict.play(card)
    pytest.fail("no position where the void duty differs")


def test_fast_random_deal_takes_a_dict_of_options_and_names_a_bad_one():
    as_dict = fast.random_deal(random.Random(3), {"players": 3})
    assert as_dict == fast.random_deal(random.Random(3), Rules.from_dict({"players": 3}))
    with pytest.raises(RuleError, match="colour"):
        fast.random_deal(random.Random(3), {"colour": "red"})
