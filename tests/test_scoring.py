"""Scoring a deal: High, Low, Jack, Game, card values, and every scoring option."""

import dataclasses
import random

import pytest

from calijack import DECK, Card, Rank, Rules, core, fast
from calijack.cards import FULL_MASK, mask_of, parse_card
from calijack.scoring import POINT_TITLES, score
from calijack.text import result_text


def trump_card(state, rank: Rank) -> Card:
    return Card(rank, state.trump)


def capturer(state, card):
    """The seat whose won tricks hold ``card``, read from the tricks themselves."""
    owners = [t.winner for t in state.tricks if card in t.cards]
    return owners[0] if owners else None


def holder(state, card):
    """The seat that was dealt or drew ``card``, read from the deal and the tricks' draws."""
    for seat, hand in enumerate(state.deal.hands):
        if card in hand:
            return seat
    for trick in state.tricks:
        for seat, drawn in zip(trick.drawers(state.players), trick.draws):
            if drawn == card:
                return seat
    return None


def find(eng, rules, wanted, limit=4000, deal_ok=None, fast_ok=None):
    """The first seeded deal (played to the end) for which ``wanted(state)`` holds.

    ``deal_ok(deal)`` and ``fast_ok(points, pips)`` (the fast path's outcome of the same
    seed) skip hopeless seeds cheaply before the deal is played through ``State``.
    """
    for seed in range(limit):
        dealer = seed % rules.players
        if fast_ok and not fast_ok(*fast.random_deal(random.Random(seed), rules, dealer)):
            continue
        rng = random.Random(seed)
        deal = eng.seeded_deal(rng, rules, dealer)
        if deal_ok and not deal_ok(deal):
            continue
        state = eng.play_random(deal.start(), rng)
        if wanted(state):
            return seed, state
    raise AssertionError(f"no deal in {limit} seeds satisfies {wanted.__name__}")


def test_card_values_are_not_match_points(eng):
    pile = mask_of(eng.cards("TH TC AS KD QC"))
    assert core.pips_of(pile) == 29 == sum(c.value for c in eng.cards("TH TC AS KD QC"))
    done = eng.seeded_game(random.Random(0))
    result = score(dataclasses.replace(done, piles=(pile, FULL_MASK & ~pile)))
    assert result.pips == (29, 51)
    assert result.points[0] <= 3 and sum(result.points) == 4  # at most one point per award
    assert result.winner_of("game") == 1
    assert sorted(c.code for c in result.counted[0]) == sorted("TH TC AS KD QC".split())
    assert "= 29" in "\n".join(result_text(result))


def test_high_low_jack_go_to_the_capturer(eng):
    for seed in range(60):
        state = eng.seeded_game(random.Random(seed))
        result = state.result()
        assert [a.name for a in result.awards] == ["high", "low", "jack", "game"]
        for name, rank in (("high", Rank.ACE), ("low", Rank.TWO), ("jack", Rank.JACK)):
            card = trump_card(state, rank)
            award = next(a for a in result.awards if a.name == name)
            assert award.card == card and award.seat == capturer(state, card) is not None
            assert award.detail == f"seat {award.seat} captured {card}" and award.title == POINT_TITLES[name]
        pips = tuple(sum(c.value for t in state.tricks if t.winner == s for c in t.cards) for s in (0, 1))
        assert result.pips == pips and sum(pips) == 80
        game = None if pips[0] == pips[1] else (0 if pips[0] > pips[1] else 1)
        assert result.winner_of("game") == game
        assert result.points == tuple(sum(a.seat == s for a in result.awards) for s in (0, 1))


def test_forty_forty_scores_no_game(eng):
    seed, state = find(eng, Rules(), lambda s: s.result().pips == (40, 40),
                       fast_ok=lambda points, pips: pips == (40, 40))
    result = state.result()
    assert result.winner_of("game") is None and sum(result.points) == 3
    game = next(a for a in result.awards if a.name == "game")
    assert game.detail == "card values tied at the top (40 to 40): nobody scores Game"
    assert result.to_json()["game"] is None
    points, pips = fast.random_deal(random.Random(seed), Rules(), seed % 2)
    assert pips == (40, 40) and points["game"] is None


def test_high_low_held(eng):
    # Seat 1 leads 2♥ (trump) and seat 0 takes it with 9♥: captured gives Low to 0, held to 1.
    hands = [["9H", "AD", "KD", "QS", "9S", "8D"], ["2H", "AS", "KS", "3D", "4D", "5S"]]
    results = {}
    for rule in ("captured", "held"):
        state = eng.make_deal(hands, ["JH"], dealer=0, rules=Rules(high_low=rule)).start()
        state = eng.play_first_legal(state.play_all(["2H", "9H"]))
        results[rule] = state.result()
        assert state.tricks[0].winner == 0
    assert results["captured"].winner_of("low") == 0
    assert results["held"].winner_of("low") == 1
    assert next(a for a in results["held"].awards if a.name == "low").detail == "seat 1 held 2♥ (dealt or drawn)"


def test_high_low_held_counts_drawn_cards(eng):
    rules = Rules(high_low="held")
    for seed in range(60):
        state = eng.seeded_game(random.Random(seed), rules)
        result = state.result()
        assert result.winner_of("high") == holder(state, trump_card(state, Rank.ACE))
        assert result.winner_of("low") == holder(state, trump_card(state, Rank.TWO))
        assert result.winner_of("jack") == capturer(state, trump_card(state, Rank.JACK))


def test_game_by_ten_of_trumps(eng):
    rules = Rules(game="ten_of_trumps")

    def ten_beats_pips(state):
        pips = state.result().pips
        return capturer(state, trump_card(state, Rank.TEN)) != pips.index(max(pips))

    _, state = find(eng, rules, ten_beats_pips,
                    fast_ok=lambda points, pips: points["game"] != pips.index(max(pips)))
    result = state.result()
    ten = trump_card(state, Rank.TEN)
    assert result.winner_of("game") == capturer(state, ten)
    game = next(a for a in result.awards if a.name == "game")
    assert game.card == ten and game.detail == f"seat {game.seat} captured {ten}"


def test_turned_jack_scores_for_the_dealer(eng):
    rules = Rules(turned_jack=True)

    def jack_turned_and_taken_by_the_other(state):
        return (state.deal.turned.rank == Rank.JACK
                and capturer(state, state.deal.turned) != state.dealer)

    seed, state = find(eng, rules, jack_turned_and_taken_by_the_other,
                       deal_ok=lambda deal: deal.turned.rank == Rank.JACK)
    result = state.result()
    jack = state.deal.turned
    assert result.winner_of("jack") == state.dealer
    assert [a.name for a in result.awards] == ["high", "low", "jack", "game"]
    assert next(a for a in result.awards if a.name == "jack").detail == \
        f"{jack} was turned up to set trump: the dealer (seat {state.dealer}) scores Jack"
    # The same deal and plays under the standard profile give Jack to the capturer.
    plain = eng.seeded_game(random.Random(seed), Rules(), state.dealer)
    assert plain.plays == state.plays
    assert plain.result().winner_of("jack") == capturer(state, jack) != state.dealer


def test_turned_jack_changes_nothing_when_another_card_is_turned(eng):
    for seed in range(40):
        state = eng.seeded_game(random.Random(seed), Rules(turned_jack=True), seed % 2)
        if state.deal.turned.rank != Rank.JACK:
            assert state.result().winner_of("jack") == capturer(state, trump_card(state, Rank.JACK))


def test_shasta_point_is_the_nine_after_game(eng):
    rules = Rules(shasta_point=True)
    for seed in range(30):
        state = eng.seeded_game(random.Random(seed), rules)
        result = state.result()
        assert [a.name for a in result.awards] == ["high", "low", "jack", "game", "nine"]
        nine = trump_card(state, Rank.NINE)
        assert result.winner_of("nine") == capturer(state, nine)
        assert result.to_json()["nine"] == capturer(state, nine)
        assert next(a for a in result.awards if a.name == "nine").title == "Shasta (nine)"
    assert "nine" not in eng.seeded_game(random.Random(0)).result().to_json()


def test_unknown_point_name(eng):
    result = eng.seeded_game(random.Random(0)).result()
    with pytest.raises(KeyError, match="nine"):
        result.winner_of("nine")


def test_result_json(eng):
    state = eng.seeded_game(random.Random(2))
    result = state.result()
    out = result.to_json()
    assert set(out) == {"high", "low", "jack", "game", "pips", "points"}
    assert out["pips"] == list(result.pips) and out["points"] == list(result.points)
    for award in result.awards:
        assert out[award.name] == award.seat


def test_score_refuses_an_unfinished_deal(eng):
    state = eng.play_random(eng.seeded_deal(random.Random(1)).start(), random.Random(1), plays=51)
    with pytest.raises(ValueError, match="trick 26 of 26"):
        state.result()


# -- three players ------------------------------------------------------------------------------

@pytest.mark.parametrize("name,rank,rules", [
    ("high", Rank.ACE, Rules(players=3)),
    ("low", Rank.TWO, Rules(players=3)),
    ("jack", Rank.JACK, Rules(players=3)),
    ("game", Rank.TEN, Rules(players=3, game="ten_of_trumps")),
    ("nine", Rank.NINE, Rules(players=3, shasta_point=True)),
    ("high", Rank.ACE, Rules(players=3, high_low="held")),
])
def test_dead_card_scores_for_nobody(eng, name, rank, rules):
    _, state = find(eng, rules, lambda s: s.dead_card == trump_card(s, rank),
                    deal_ok=lambda deal: deal.stock[-1] == Card(rank, deal.trump))
    result = state.result()
    assert result.winner_of(name) is None
    award = next(a for a in result.awards if a.name == name)
    assert award.detail == f"{state.dead_card} was the card left out of play: nobody scores it"
    assert award.seat is None and award.card == state.dead_card


def test_three_player_game_tie_for_highest_scores_nothing(eng):
    def tie_at_top(state):
        pips = sorted(state.result().pips)
        return pips[2] == pips[1]

    _, state = find(eng, Rules(players=3), tie_at_top,
                    fast_ok=lambda points, pips: sorted(pips)[1] == max(pips))
    assert state.result().winner_of("game") is None
    assert sum(state.result().pips) == 80 - state.dead_card.value


def test_every_card_has_one_value():
    assert sum(c.value for c in DECK) == 80 == core.pips_of(FULL_MASK)
    assert core.pips_of(mask_of([parse_card("JH")])) == 1
