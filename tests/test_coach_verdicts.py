"""Issue 33: the coach says how sure it is, and the Expert reads the opponent's plays.

- The uncertainty of a card's loss is the standard error of its paired difference to the best
  card over the same worlds; a play is a mistake only when it costs half a point clearly, else
  it is "too close to call", said in words and kept out of the drills and the practice queue.
- An unclear verdict draws more worlds, up to a budget, counted: the same seed gives the same
  verdicts. They try the card played, the best card and any card that may be half a point
  better than the card played, on the same worlds as a plain rating's. Exact values stay exact.
- The opponent model's likelihoods: a play the model never makes removes the guesses that
  require it; the Expert stays reproducible from its seed and within its counted budget.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from calijack import Deal, Rules
from calijack.cards import parse_card
from calijack.drill import drills_of
from calijack.players import get_player, play_deal
from calijack.players.base import Knowledge
from calijack.players.inference import MIXTURE, likelihood, likelihoods
from calijack.players.worlds import Guess, sample
from calijack.retry import queue_entry
from calijack.review import (MISTAKE, MISTAKE_CALL, RIVALS, SOUND, TOO_CLOSE, Z_MORE, Outcome, PlayReview, Rating,
                             exact_position, rate, review)
from calijack.text_coach import review_comment, review_lines

A, B, C = parse_card("AS"), parse_card("7H"), parse_card("2C")


def planted(best_runs, other_runs, third_runs=None) -> Rating:
    """An estimated rating with the given per-world values of A (best), B and C."""
    runs = {A: tuple(best_runs), B: tuple(other_runs)}
    if third_runs is not None:
        runs[C] = tuple(third_runs)
    values = {c: sum(r) / len(r) for c, r in runs.items()}
    outcomes = {c: Outcome(0.5, {"high": (0.5, 0.5)}) for c in runs}
    return Rating(0, False, len(best_runs), values, outcomes, True, None, runs)


def test_the_uncertainty_is_the_paired_standard_error_of_the_gap_to_the_best_card():
    # Values that swing wildly from world to world but keep the same gap: paired, no doubt at all.
    swing = [(-2) ** (k % 3) for k in range(40)]
    steady = planted([v + 1 for v in swing], swing)
    assert steady.stderr(B) == 0 and steady.verdict(B) == MISTAKE_CALL
    # A gap of 0 or 2 by turns: mean 1, spread 1 (sample sd 40/39 ** .5), 40 worlds.
    noisy = planted([2 if k % 2 else 0 for k in range(40)], [0] * 40)
    assert noisy.stderr(B) == pytest.approx(math.sqrt(40 / 39) / math.sqrt(40))
    assert noisy.spread[B] == round(noisy.stderr(B), 2) and noisy.spread[A] == 0
    assert noisy.stderr(A) == 0  # the best card against itself


def test_a_loss_of_half_a_point_is_a_mistake_only_when_clearly_so():
    n = 100
    clear = planted([1] * n, [0.2 if k % 2 else 0.0 for k in range(n)])      # loss 0.9, SE 0.01
    close = planted([1] * n, [1.8 if k % 2 else -1.0 for k in range(n)])     # loss 0.6, SE 0.14
    sound = planted([1] * n, [0.9] * n)                                      # loss 0.1
    assert clear.loss(B) == pytest.approx(0.9) and clear.verdict(B) == MISTAKE_CALL
    assert close.loss(B) == pytest.approx(0.6) and close.verdict(B) == TOO_CLOSE
    assert close.unclear(B) and not clear.unclear(B)
    assert sound.verdict(B) == SOUND and sound.verdict(A) == SOUND
    # The rule is the interval's, not the estimate's: with z = 0 the close play is a mistake.
    assert close.verdict(B, z=0) == MISTAKE_CALL


def test_a_loss_just_under_half_a_point_is_sound_only_when_clearly_so():
    n = 100
    under = planted([1] * n, [1.8 if k % 2 else -0.6 for k in range(n)])     # loss 0.4, SE 0.12
    steady = planted([1] * n, [0.7 if k % 2 else 0.5 for k in range(n)])     # loss 0.4, SE 0.01
    assert under.loss(B) == pytest.approx(0.4) and 0.1 < under.stderr(B) < 0.15
    # Either side of the half point, a gap within one standard error of it is too close to call.
    assert under.verdict(B) == TOO_CLOSE and not under.mistake(B)
    assert steady.loss(B) == pytest.approx(0.4) and steady.verdict(B) == SOUND
    assert under.verdict(B, z=0) == SOUND  # on the estimate alone it would be sound
    line = review_comment(B, under, 0)
    assert line.startswith("Too close to call:") and "either side" in line, line


def test_once_every_guess_allowed_is_drawn_the_best_estimate_decides_the_upper_side():
    n = 100
    over = planted([1] * n, [1.8 if k % 2 else -0.84 for k in range(n)])    # loss 0.52, SE 0.13
    under = planted([1] * n, [1.8 if k % 2 else -0.76 for k in range(n)])   # loss 0.48, SE 0.13
    assert over.loss(B) == pytest.approx(0.52) and under.loss(B) == pytest.approx(0.48)
    assert over.verdict(B) == TOO_CLOSE and under.verdict(B) == TOO_CLOSE  # more guesses may settle them
    spent_over, spent_under = replace(over, spent=True), replace(under, spent=True)
    # No more guesses to come: half a point or more on the best estimate is a mistake ...
    assert spent_over.verdict(B) == MISTAKE_CALL and spent_over.mistake(B)
    # ... and a loss under it is never called one: it stays too close to call, said in words.
    assert spent_under.verdict(B) == TOO_CLOSE and review_comment(B, spent_under, 0).startswith("Too close")
    # Clear verdicts do not move, and a clearly sound card stays sound.
    assert replace(planted([1] * n, [0.9] * n), spent=True).verdict(B) == SOUND


def test_a_rating_is_spent_only_when_the_extra_guesses_reached_the_cap(eng):
    state, card, seed = unclear_play(eng)
    assert not rate(state, 4, random.Random(seed)).spent                   # no extra guesses asked for
    assert not rate(state, 4, random.Random(seed), played=card).spent      # the cap is the first guesses
    capped = rate(state, 4, random.Random(seed), played=card, max_samples=6)
    assert capped.samples == 6 and capped.spent                         # still unclear at the cap
    wide = rate(state, 4, random.Random(seed), played=card, max_samples=4096)
    assert wide.samples < 4096 and not wide.spent and wide.verdict(card) != TOO_CLOSE


def test_a_play_too_close_to_call_is_said_in_words_and_never_drilled_or_queued(eng):
    state = eng.random_position(Rules(), 3, 12)
    card = state.legal_cards()[0]
    walk = state.play(card)
    n = 60
    close = planted([1] * n, [1.8 if k % 2 else -1.0 for k in range(n)])
    clear = planted([1] * n, [0.0] * n)
    sentence = review_comment(B, close, state.trump)
    assert sentence.startswith("Too close to call:") and "not counted as a mistake" in sentence
    assert sentence.count(". ") == 0 and sentence.endswith(".")
    assert not review_comment(B, clear, state.trump).startswith("Too close")
    reviews = [PlayReview(len(state.plays), 1, state.to_play, B, close, sentence),
               PlayReview(len(state.plays), 1, state.to_play, B, clear, "")]
    assert reviews[0].too_close and not reviews[0].mistake and reviews[1].mistake
    assert reviews[0].to_json()["verdict"] == "too close" and reviews[0].to_json()["spread"]["7H"] > 0
    assert "too close to call" in review_lines(reviews[:1])[0]
    # The drills (and so the practice queue, built from them) hold the clear mistake only.
    whole = walk.play(walk.legal_cards()[0])
    found = drills_of(whole, reviews[:1])
    assert found == []
    assert len(drills_of(whole, reviews[1:])) == 1 and queue_entry(drills_of(whole, reviews[1:])[0])


def unclear_play(eng):
    """A position and a card whose verdict is unclear at 4 worlds (found by looking, reproducibly)."""
    for seed in range(40):
        state = eng.random_position(Rules(), 700 + seed, 10)
        for card in state.legal_cards():
            if rate(state, 4, random.Random(seed)).unclear(card):
                return state, card, seed
    raise AssertionError("no unclear play in 40 positions")


def test_an_unclear_verdict_draws_more_worlds_up_to_the_budget_and_reproduces(eng):
    state, card, seed = unclear_play(eng)
    first = rate(state, 4, random.Random(seed), played=card, max_samples=16)
    assert first.samples in (8, 16)                      # more worlds, within the budget
    again = rate(state, 4, random.Random(seed), played=card, max_samples=16)
    assert again.samples == first.samples and again.values == first.values
    assert again.verdict(card) == first.verdict(card)
    # The first 4 worlds are the ones drawn without the extra guesses: same generator, drawn on.
    base = rate(state, 4, random.Random(seed))
    assert all(first.per_world[c][:4] == base.per_world[c] for c in base.values)
    # The budget is respected: at most max_samples, exactly so when it stays unclear.
    capped = rate(state, 4, random.Random(seed), played=card, max_samples=6)
    assert capped.samples in (4, 6) and capped.samples <= 6
    # Against the best alone, the best card is never unclear: no extra worlds for it. Looking at
    # its rivals too (the default), it gets more only when another card may be half a point better.
    best = base.best[0]
    assert rate(state, 4, random.Random(seed), played=best, max_samples=16, rivals=False).samples == 4
    looked = rate(state, 4, random.Random(seed), played=best, max_samples=16)
    assert RIVALS and (looked.samples > 4) == bool(base.rivals(best, Z_MORE))
    with pytest.raises(ValueError, match="max_samples"):
        rate(state, 4, 1, played=card, max_samples=3)


def test_the_extra_worlds_try_only_the_card_played_and_the_best_on_the_same_worlds(eng):
    state, card, seed = unclear_play(eng)
    extended = rate(state, 4, random.Random(seed), played=card, max_samples=16)
    drawn = extended.samples
    assert drawn > 4
    # Every card tried on the same worlds, drawn from the same generator in one go.
    whole = rate(state, drawn, random.Random(seed))
    compared = {card, extended.best[0]}
    for c in compared:  # the card played and the best: tried on every world drawn, in order
        assert extended.per_world[c] == whole.per_world[c]
    # Every other card: the first worlds, and any it was compared on while it was the best; its
    # value is the mean over those. Some cards were left out of the extra worlds.
    tried = 0
    for c, runs in extended.per_world.items():
        assert len(runs) >= 4 and runs == whole.per_world[c][:len(runs)]
        assert extended.values[c] == pytest.approx(sum(runs) / len(runs))
        tried += len(runs)
    assert tried < len(extended.values) * drawn


def test_a_review_counts_its_extra_worlds_and_exact_values_stay_exact():
    heuristic = get_player("heuristic")
    state = play_deal(Deal.random(8), [heuristic, get_player("random")], random.Random(8)).rewind(44)
    one = review(state, seats=[1], samples=3, seed=2, max_samples=9)
    two = review(state, seats=[1], samples=3, seed=2, max_samples=9)
    assert [r.to_json() for r in one] == [r.to_json() for r in two]
    estimated = [r.rating.samples for r in one if not r.rating.exact]
    assert all(s in (3, 6, 9) for s in estimated) and max(estimated) > 3
    exact = [r for r in one if r.rating.exact]
    assert exact and all(exact_position(state.rewind(r.index)) for r in exact)
    for r in exact:
        assert r.rating.samples is None and all(v == 0 for v in r.rating.spread.values())
        assert r.mistake == (r.loss >= MISTAKE) and not r.too_close


# -- the opponent model ------------------------------------------------------------------------

def _model_played_position():
    """A deal in which seat 1 played by the rules of thumb (the model) and seat 0 at random, to
    seat 0's turn after 17 plays or more: the deal, and seat 0's view."""
    rng = random.Random(4)
    deal = Deal.random(rng)
    players = [get_player("random"), get_player("heuristic")]
    state = deal.start()
    while len(state.plays) < 17:
        state = state.play(players[state.to_play].choose(state.view(state.to_play), rng).card)
    while state.to_play != 0:
        state = state.play(players[1].choose(state.view(1), rng).card)
    return deal, state.view(0)


def test_a_play_the_model_never_makes_rules_out_the_guesses_that_require_it():
    # Seat 1 plays by the rules of thumb (the model), seat 0 at random: seen from seat 0, the
    # true hands explain every play (likelihood 1 with no noise); guesses that do not are removed.
    deal, view = _model_played_position()
    truth = Guess(None, tuple(tuple(c.index for c in h) for h in deal.hands),
                  tuple(c.index for c in deal.stock), True)
    assert likelihood(truth, view, noise=0.0) == 1.0
    weights = []
    for k in range(30):
        guess = sample(view, random.Random(k))
        assert guess.consistent                               # impossible guesses are never drawn
        weights.append(likelihood(guess, view, noise=0.0))
    assert set(weights) <= {0.0, 1.0} and 0.0 in weights      # some guesses are removed …
    noisy = [likelihood(sample(view, random.Random(k)), view, noise=0.5) for k in range(30)]
    assert all(w > 0 for w in noisy) and len(set(noisy)) > 1  # … and with noise only weighed down


def test_a_mixture_of_opponents_keeps_the_guesses_one_model_rules_out():
    # The likelihoods under several shares come from one replay and equal each share's own;
    # a player at random (share 1) explains any play, so a guess that the rules of thumb alone
    # rule out keeps a weight under the mixture, and the Expert takes a list of shares.
    from calijack.players import PlayerError
    from calijack.players.expert import ExpertPlayer

    deal, view = _model_played_position()
    guesses = [sample(view, random.Random(k)) for k in range(30)]
    shares = (0.0,) + MIXTURE
    for guess in guesses:
        assert likelihoods(guess, view, shares) == tuple(likelihood(guess, view, x) for x in shares)
    ruled_out = [g for g in guesses if likelihood(g, view, 0.0) == 0.0]
    assert ruled_out and all(likelihoods(g, view, MIXTURE)[1] > 0 for g in ruled_out)
    assert ExpertPlayer(noise=list(MIXTURE)).noise == MIXTURE and ExpertPlayer(noise=0.5).noise == (0.5,)
    for bad in ([], [0.5, 2], [True]):
        with pytest.raises((ValueError, PlayerError), match="noise must be a share"):
            ExpertPlayer(noise=bad)
    player = ExpertPlayer(budget=3000, min_samples=1, max_samples=1000, noise=MIXTURE)
    first = player.choose(view, random.Random(1))
    assert ExpertPlayer(budget=3000, min_samples=1, max_samples=1000, noise=MIXTURE).choose(
        view, random.Random(1)) == first                      # reproducible from its seed


def test_the_expert_is_reproducible_and_spends_its_counted_budget(monkeypatch):
    from calijack.players import expert, worlds

    rng = random.Random(6)
    state = Deal.random(rng).start()
    for _ in range(9):
        state = state.play(state.legal_cards()[0])
    view = state.view(state.to_play)
    assert view.stock_count > expert.LATE_STOCK and len(view.legal) > 1
    made = []
    real = worlds.Sampler.sample
    monkeypatch.setattr(worlds.Sampler, "sample", lambda *a, **kw: made.append(1) or real(*a, **kw))
    # Reading the opponent's plays (noise set): each guess also pays for one replay of the plays so far.
    player = expert.ExpertPlayer(budget=3000, min_samples=1, max_samples=1000, noise=expert.NOISE)
    first = player.choose(view, random.Random(1))
    stats = dict(player.last_stats)
    k = len(view.legal)
    per_guess = (expert.GUESS_COST + k * (sum(view.hand_sizes) + view.stock_count) + len(view.played))
    assert len(made) == stats["worlds"] == 3000 // per_guess
    again = expert.ExpertPlayer(budget=3000, min_samples=1, max_samples=1000, noise=expert.NOISE).choose(
        view, random.Random(1))
    assert again == first and player.last_stats == stats
    assert 1 <= stats["effective"] <= stats["worlds"]
    # The default reads nothing: no replay to pay for, so more guesses on the same budget.
    made.clear()
    plain = expert.ExpertPlayer(budget=3000, min_samples=1, max_samples=1000)
    assert plain.noise is None
    decision = plain.choose(view, random.Random(1))
    assert len(made) == plain.last_stats["worlds"] == 3000 // (per_guess - len(view.played)) > stats["worlds"]
    assert expert.ExpertPlayer(budget=3000, min_samples=1, max_samples=1000).choose(view, random.Random(1)) == decision


def test_the_expert_solves_each_guess_late_in_the_stock_within_its_node_budget(monkeypatch):
    from calijack.players import expert

    monkeypatch.setattr(expert, "LATE_MIN", 2)  # two solved guesses are enough to check the count
    rng = random.Random(2)
    state = Deal.random(rng).start()
    while not (state.view(state.to_play).stock_count <= expert.LATE_STOCK and len(state.legal_cards()) > 1):
        state = state.play(state.legal_cards()[-1])
    view = state.view(state.to_play)
    assert 0 < view.stock_count <= expert.LATE_STOCK
    assert not expert.ExpertPlayer()._late(Knowledge.from_view(view))  # off by default
    player = expert.ExpertPlayer(solve_budget=2000, late_stock=expert.LATE_STOCK)
    decision = player.choose(view, random.Random(3))
    stats = player.last_stats
    # Each guess solved costs thousands of positions: the budget is spent at the fewest guesses.
    assert stats["mode"] == "solved guesses" and stats["worlds"] == expert.LATE_MIN and stats["nodes"] > 2000
    assert expert.ExpertPlayer(solve_budget=2000, late_stock=expert.LATE_STOCK).choose(view, random.Random(3)) == decision


def test_a_card_that_may_be_half_a_point_better_is_a_rival_even_when_it_is_not_the_best_so_far():
    n = 100
    # A is the best so far, 0.2 ahead of B and steady; C is 0.1 behind A on average but swings
    # by 3 points from world to world against B: it may well be half a point better than B.
    best = [1.0] * n
    played = [0.8] * n
    swinging = [3.9 if k % 2 else -2.1 for k in range(n)]  # mean 0.9
    rating = planted(best, played, swinging)
    assert rating.best == [A] and rating.loss(B) == pytest.approx(0.2)
    assert rating.stderr(B) == pytest.approx(0, abs=1e-12)  # against the best alone, nothing is unclear …
    assert not rating.unclear(B, 2.0)
    assert rating.rivals(B, 2.0) == [C]               # … but C may be 0.5 better than B
    assert rating.unclear(B, 2.0, rivals=True)
    assert rating.rivals(B, 0.0) == [] and not rating.unclear(B, 0.0, rivals=True)
    # A play clearly a mistake against the best is settled, whatever the rivals.
    clear = planted(best, [0.0] * n, swinging)
    assert clear.rivals(B, 2.0) == [A, C] and not clear.unclear(B, 2.0, rivals=True)
    # Exact values have no rivals.
    exact = Rating(0, True, None, {A: 1, B: 0}, {A: None, B: None}, True, None)
    assert exact.rivals(B) == [] and not exact.unclear(B, rivals=True)


def test_with_rivals_the_extra_worlds_settle_every_card_that_may_be_half_a_point_better(eng):
    # A play that only the rivals make unclear (found by looking, reproducibly).
    for seed in range(60):
        state = eng.random_position(Rules(), 900 + seed, 10)
        base = rate(state, 4, random.Random(seed))
        found = [c for c in state.legal_cards() if base.unclear(c, 2.0, rivals=True) and not base.unclear(c, 2.0)
                 and any(r != base.best[0] for r in base.rivals(c, 2.0))]
        if found:
            break
    else:
        raise AssertionError("no play made unclear by its rivals alone in 60 positions")
    card = found[0]
    plain = rate(state, 4, random.Random(seed), played=card, max_samples=32, z_more=2.0, rivals=False)
    assert plain.samples == 4                          # the best alone leaves nothing to settle
    wide = rate(state, 4, random.Random(seed), played=card, max_samples=32, z_more=2.0, rivals=True)
    assert wide.samples > 4
    again = rate(state, 4, random.Random(seed), played=card, max_samples=32, z_more=2.0, rivals=True)
    assert again.values == wide.values and again.samples == wide.samples
    # The card played and every card that was its rival were tried on the same worlds, drawn in
    # order from the same generator, as a plain rating of that many worlds.
    whole = rate(state, wide.samples, random.Random(seed))
    assert wide.per_world[card] == whole.per_world[card]
    for c, runs in wide.per_world.items():
        assert len(runs) >= 4 and runs == whole.per_world[c][:len(runs)]
    # Settled: at the cap, or no card left that may be half a point better without being clearly so.
    assert wide.samples == 32 or not wide.unclear(card, 2.0, rivals=True)
