"""Whole deals told one trick at a time: a slider over the table, with the story of each trick.

Three static-capable demos for the book (a slider or toggle buttons over precomputed frames,
see :func:`calijack.widgets.demo_base.build`), each read from the engine only:

- :func:`deal_story`: every trick of a deal, with who led, who won and why, the draws, the
  point cards as they are captured, the moment the stock runs out, then the score sheet and
  the match score;
- :func:`knowledge_story`: the table as one player sees it, trick after trick, with what that
  player knows of the other hand (the cards seen drawn) and what the other knows in return;
- :func:`score_sheets`: the score sheets of a few finished deals, one per button.

The sentences describe what the engine decided (the winner, the draws, the awards); no rule
is decided here.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import render
from ..match import Match
from ..render.base import seat_names
from ..state import State
from ..text import counted
from .demo_base import build, esc, para
from .demo_basics import check_state

__all__ = ["deal_story", "knowledge_story", "score_sheets", "trick_story"]

_POINT_RANKS = {"A": "High", "2": "Low", "J": "Jack"}
_RANK_NAMES = {"A": "ace", "2": "two", "J": "jack", "10": "ten"}


def _who(name: str, start: bool = False) -> str:
    """A seat's name inside a sentence: "you" and "your opponent" for the learner's own names."""
    word = {"You": "you", "Opponent": "your opponent"}.get(name, name)
    return esc(word[:1].upper() + word[1:] if start else word)


def _does(name: str, verb: str, start: bool = False) -> str:
    """``name`` doing ``verb`` (third person given: "leads"), agreeing with "you"."""
    return f"{_who(name, start)} {verb[:-1] if name == 'You' else verb}"


def _whose(name: str, start: bool = False) -> str:
    word = "your" if name == "You" else f"{_who(name)}'s"
    return esc(word[:1].upper() + word[1:]) if start else word


def _cards(cards) -> str:
    return ", ".join(str(c) for c in cards)


def _why(trick, trump, names, players: int) -> str:
    """Why the winning card took the trick (the winner itself comes from the engine)."""
    led = trick.cards[0]
    best = trick.cards[(trick.winner - trick.leader) % players]
    who = _does(names[trick.winner], "wins", start=True)
    if best is led and all(c.suit != led.suit and c.suit != trump for c in trick.cards[1:]):
        return f"{who} with {esc(best)}: a card of another suit cannot take the trick."
    if best.suit == trump and led.suit != trump:
        return f"{who} with {esc(best)}: a trump beats any card of the suit led."
    return f"{who} with {esc(best)}, the higher card of the suit led."


def trick_story(state: State, number: int, names: Sequence[str]) -> list[str]:
    """Sentences (HTML) telling trick ``number`` (from 1) of ``state``: plays, winner, draws."""
    n, trump, rules = state.players, state.trump, state.rules
    trick = state.tricks[number - 1]
    plays = [f"{_does(names[trick.seat_of(0, n)], 'leads', start=True)} {esc(trick.cards[0])}"]
    plays += [f"{_does(names[trick.seat_of(k, n)], 'plays')} {esc(c)}" for k, c in enumerate(trick.cards[1:], 1)]
    lines = ["; ".join(plays) + ". " + _why(trick, trump, names, n)]
    points = [c for c in trick.cards if c.suit == trump and c.rank.label in _POINT_RANKS]
    for card in points:
        lines.append(f"{_does(names[trick.winner], 'captures', start=True)} {esc(card)}, so the "
                     f"{_POINT_RANKS[card.rank.label]} point will be {_whose(names[trick.winner])}.")
    after = state.rewind(number * n)
    if trick.draws:
        drawn = []
        for s, c in zip(trick.drawers(n), trick.draws):
            note = (f" (the {_RANK_NAMES[c.rank.label]} of trumps)"
                    if c.suit == trump and c.rank.label in _RANK_NAMES else "")
            drawn.append(f"{_does(names[s], 'takes')} {esc(c)}{note}")
        left = len(after.stock)
        tail = (f" {counted(left, 'card is', 'cards are')} left in the stock, {esc(after.stock_top)} on top."
                if left else
                f" That was the last of the stock: the last {counted(rules.tricks - number, 'trick is', 'tricks are')} "
                "played from the hand, with no drawing.")
        lines.append("Drawing, winner first: " + "; ".join(drawn) + "." + tail)
    elif number < rules.tricks:
        lines.append(f"No drawing now. {counted(rules.tricks - number, 'trick')} to go.")
    values = ", ".join(f"{_who(names[s])} {after.pips(s)}" for s in range(n))
    lines.append(f"Card values captured so far: {values}.")
    return lines


def _table(state: State, seat: int, names, reveal: bool, scores=None) -> str:
    return render.table_html(state.view(seat), reveal=state if reveal else None, names=names,
                             scores=scores)


def deal_story(state: State, *, names: Sequence[str] | None = None, seat: int = 0, reveal: bool = True,
               match_scores: Sequence[int] | None = None, static: bool = True):
    """A slider over a finished deal: the table before the lead, each trick told, the score sheet.

    ``match_scores``: the match score before this deal (default 0 each); the last frame adds the
    deal's points in the strict order and says who deals next, or who won the match.
    """
    state = check_state(state, "deal_story")
    if not state.finished:
        raise ValueError("deal_story needs a finished deal: play it to the end first")
    n, rules = state.players, state.rules
    names = seat_names(n, seat, names)
    before = tuple(match_scores) if match_scores is not None else (0,) * n
    match = Match(rules, first_dealer=state.dealer, scores=before)
    after = match.add(state.result())
    tricks = len(state.tricks)
    labels = ["Before the first lead"] + [
        f"Trick {k} of {tricks}: {names[state.tricks[k - 1].winner]} wins" for k in range(1, tricks + 1)
    ] + ["The score sheet and the match score"]

    def frame(k: int) -> str:
        if k == 0:
            start = state.deal.start()
            return para(f"{_who(names[state.dealer], True)} dealt, "
                        f"so {_does(names[start.to_play], 'leads')}. "
                        f"The stock shows {esc(start.stock_top)}: {start.trump.plural} are trump.") + \
                _table(start, seat, names, reveal, before)
        if k <= tricks:
            return para(*trick_story(state, k, names)) + _table(state.rewind(k * n), seat, names, reveal, before)
        result = state.result()
        counted = ", ".join(a.title for a in result.awards if a.name in after.counted[-1])
        scores = ", ".join(f"{_who(names[s])} {after.scores[s]}" for s in range(n))
        lines = [f"Points counted, in order: {esc(counted) or 'none'}. The match score is now {scores}."]
        if after.winner is not None:
            lines.append(f"{_does(names[after.winner], 'reaches', start=True)} {rules.target} and "
                         f"{'win' if names[after.winner] == 'You' else 'wins'} the match.")
        else:
            lines.append(f"Nobody has reached {rules.target}, so the cards are gathered and shuffled, "
                         f"and {_does(names[after.dealer()], 'deals')} the next deal.")
        return para(*lines) + render.score_sheet_html(result, names=names, match_scores=after.scores,
                                                      target=rules.target, counted=after.counted[-1])

    return build(frame, tricks + 2, static=static, labels=labels, description="Step")


def _knowledge_lines(state: State, seat: int, names) -> list[str]:
    n = state.players
    lines = []
    for other in range(n):
        if other == seat:
            continue
        mine, theirs = state.view(seat), state.view(other)
        hidden = mine.hidden_counts[other]
        seen = _cards(mine.known[other])
        if seen:
            lines.append(f"{_does(names[seat], 'knows', start=True)} {esc(seen)} in {_whose(names[other])} "
                         f"hand (seen drawn, not yet played); the other {counted(hidden, 'is', 'are')} hidden.")
        else:
            lines.append(f"{_does(names[seat], 'knows', start=True)} none of {_whose(names[other])} cards: "
                         f"{'it is' if hidden == 1 else f'all {hidden} are'} hidden.")
        back = _cards(theirs.known[seat])
        lines.append(f"{_does(names[other], 'knows', start=True)} {esc(back) if back else 'none'} of "
                     f"{_whose(names[seat])} cards, the same way.")
    return lines


def knowledge_story(state: State, *, names: Sequence[str] | None = None, seat: int = 0,
                    tricks: int | None = None, static: bool = True, start: int = 0):
    """A slider over the first ``tricks`` tricks as ``seat`` sees the table, with what each side knows.

    ``start``: the frame shown first (0, before the first lead; 1, after the first trick's draws).
    """
    state = check_state(state, "knowledge_story")
    n = state.players
    names = seat_names(n, seat, names)
    count = len(state.tricks) if tricks is None else min(tricks, len(state.tricks))
    labels = ["Before the first lead"] + [f"After trick {k}" for k in range(1, count + 1)]

    def frame(k: int) -> str:
        now = state.rewind(k * n)
        head = trick_story(state, k, names)[:1] if k else [
            f"The deal begins. {_does(names[seat], 'holds', start=True)} six cards and "
            f"{'see' if names[seat] == 'You' else 'sees'} the top of the stock, "
            f"{esc(now.stock_top)}; every other card is hidden."]
        return para(*head, *_knowledge_lines(now, seat, names)) + _table(now, seat, names, False)

    return build(frame, count + 1, static=static, labels=labels, description="Trick", start=start)


def score_sheets(states: Sequence[State], *, names: Sequence[str] | None = None, static: bool = True):
    """Toggle buttons over the score sheets of finished deals ("Deal 1", "Deal 2", …)."""
    states = [check_state(s, "score_sheets") for s in states]
    if not states:
        raise ValueError("score_sheets needs at least one finished deal")
    for k, s in enumerate(states):
        if not s.finished:
            raise ValueError(f"score_sheets: deal {k + 1} is not finished")
    names = seat_names(states[0].players, 0, names)

    def frame(i: int) -> str:
        result = states[i].result()
        points = ", ".join(f"{esc(names[s])} {p}" for s, p in enumerate(result.points))
        return para(f"Trump: {states[i].trump.plural}. Match points from this deal: {points}.") + \
            render.score_sheet_html(result, names=names)

    options = [f"Deal {k}" for k in range(1, len(states) + 1)]
    return build(frame, len(states), static=static, options=options, description="Score sheet of")
