"""The worked example of the rules (hearts trump, J♥ on top), replayed card for card.

The deal is built with :meth:`Deal.from_cards`: A (seat 0) did not deal and leads 7♣; B
(seat 1) has no clubs and trumps with 2♥; the stock starts J♥, Q♦. Every fact the steps
state (who leads, what is legal and why, who wins, who draws what, who gets Low, the card
values) is read from the engine, so a wrong engine or a wrong sentence fails the tests.
"""

from __future__ import annotations

import random
from functools import lru_cache

from .. import render
from ..cards import DECK, parse_card
from ..state import Deal, State
from .demo_base import build, esc, para
from .demo_basics import card_grid
from .demo_deal import play_out

__all__ = ["worked_example", "worked_deal", "worked_steps", "WORKED_NAMES", "WORKED_PILE",
           "WORKED_LEAD", "WORKED_ANSWER"]

WORKED_NAMES = ("A", "B")
WORKED_LEAD, WORKED_ANSWER = parse_card("7C"), parse_card("2H")
# A: a low club to lead, keeping the ace and ten of clubs. B: no clubs, two small trumps.
_HANDS = (("7C", "AC", "TC", "QS", "3S", "4D"), ("2H", "8H", "KS", "TS", "9D", "5D"))
_TOP = ("JH", "QD", "6S")
# A captured pile from some other deal: two tens, an ace, a king and a queen.
WORKED_PILE = tuple(parse_card(c) for c in ("TS", "TD", "AC", "KH", "QS"))
_REST_SEED = 8   # shuffles the stock below its first three cards
_PLAY_SEED = 3   # the random legal plays that finish the deal in step 5


@lru_cache(maxsize=1)
def worked_deal() -> Deal:
    """The worked example's deal: B (seat 1) dealt, hearts trump with J♥ then Q♦ on the stock."""
    used = {parse_card(c) for c in (*_HANDS[0], *_HANDS[1], *_TOP)}
    rest = [c for c in DECK if c not in used]
    random.Random(_REST_SEED).shuffle(rest)
    return Deal.from_cards(_HANDS, [*_TOP, *rest], dealer=1)


def _table(state: State, seat: int, note: str | None = None) -> str:
    return render.table_html(state.view(seat), reveal=state, names=WORKED_NAMES, note=note)


def worked_steps() -> list[tuple[str, str]]:
    """The steps of the worked example: ``(title, html)`` pairs, every fact from the engine."""
    a, b = WORKED_NAMES
    deal = worked_deal()
    start = deal.start()
    led = start.play(WORKED_LEAD)
    after = led.play(WORKED_ANSWER)
    trick = after.tricks[0]
    winner, loser = trick.drawers(after.players)
    first, second = trick.draws
    legal = led.legal_cards()
    answer = led.explain(WORKED_ANSWER)
    refused = next(v for v in led.verdicts() if not v.legal)
    final = play_out(after, _PLAY_SEED)
    low = final.result().winner_of("low")
    pile_total = sum(c.value for c in WORKED_PILE)
    pack = sum(c.value for c in DECK)
    steps = []

    steps.append(("The table", para(
        f"{esc(WORKED_NAMES[deal.dealer])} dealt, so <b>{esc(WORKED_NAMES[deal.first_leader])}</b> "
        f"leads first. The stock lies face up with <b>{esc(deal.turned)}</b> on top, which makes "
        f"<b>{start.trump.plural}</b> trump for the whole deal.",
        f"Keep an eye on that {esc(deal.turned)}: it is not a mere marker. It is the next card anyone "
        f"draws, and whoever wins the first trick will take it home.",
    ) + _table(start, 0)))

    steps.append((f"{a} leads {WORKED_LEAD}", para(
        f"{a} opens with <b>{esc(WORKED_LEAD)}</b>, a small club that risks nothing "
        f"(the engine: “{esc(start.explain(WORKED_LEAD).reason)}”).",
        f"Now it is {b}'s turn, and {b} holds no clubs at all. The engine allows only "
        f"{esc(' and '.join(str(c) for c in legal))}: “{esc(answer.reason)}” Any other card, "
        f"such as {esc(refused.card)}, is refused: “{esc(refused.reason)}”",
    ) + _table(led, 1)))

    best = trick.cards[(trick.winner - trick.leader) % after.players]
    steps.append((f"{b} trumps with {WORKED_ANSWER}", para(
        f"{b} plays <b>{esc(WORKED_ANSWER)}</b>, the smallest trump. Even the lowest trump beats any "
        f"club, so <b>{esc(WORKED_NAMES[trick.winner])}</b> wins the trick with {esc(best)} and "
        f"will lead the next one.",
        f"The two cards, {esc(trick.cards[0])} and {esc(trick.cards[1])}, go into "
        f"{esc(WORKED_NAMES[trick.winner])}'s pile of won cards.",
    ) + render.trick_html(trick.cards, trick.leader, after.players, names=WORKED_NAMES)))

    steps.append(("The draws", para(
        f"The stock refills both hands, winner first. <b>{esc(WORKED_NAMES[winner])}</b> takes the "
        f"exposed <b>{esc(first)}</b>, and that uncovers <b>{esc(second)}</b>, which "
        f"<b>{esc(WORKED_NAMES[loser])}</b> takes. Now {esc(after.stock_top)} shows on top.",
        f"Both draws happened in the open: {a} knows {b} holds "
        f"{esc(', '.join(map(str, after.view(0).known[1])))}, and {b} knows {a} holds "
        f"{esc(', '.join(map(str, after.view(1).known[0])))}. Each hand is back to "
        f"{len(after.hand(0))} cards.",
    ) + _table(after, 0)))

    steps.append((f"Low will go to {WORKED_NAMES[low]}", para(
        f"{esc(WORKED_ANSWER)} is the two of trumps, the Low card. It now sits in "
        f"{esc(WORKED_NAMES[trick.winner])}'s won pile, where nothing can take it away, so when the "
        f"deal ends Low belongs to <b>{esc(WORKED_NAMES[low])}</b> whatever happens in between.",
        f"Below is one way the other {final.rules.tricks - len(after.tricks)} tricks could go (both "
        "players picking legal cards at random): "
        f"the score sheet duly gives Low to {esc(WORKED_NAMES[low])}.",
    ) + render.score_sheet_html(final.result(), names=WORKED_NAMES)))

    values = " + ".join(str(c.value) for c in WORKED_PILE)
    steps.append(("29 towards Game", '<div class="cj-root">' + para(
        "A separate little example, from some other deal: a player's won cards include these five, "
        "and the rest of that pile is worth nothing.",
        f"Card values: {values} = <b>{pile_total}</b>. That total counts <i>towards Game</i>: it is "
        f"compared with the other player's total, and the higher total earns one match point.",
        f"So it is {pile_total} towards Game, <b>not {pile_total} match points</b>. In fact, with "
        f"{pack} in the whole pack, the other player would hold the remaining {pack - pile_total} and "
        f"take Game.",
    ) + card_grid(WORKED_PILE) + "</div>"))
    return steps


def worked_example(static: bool = True):
    """The worked example of the rules, one step per slider position, with an explanation each."""
    steps = worked_steps()
    labels = [f"Step {k} of {len(steps)}: {title}" for k, (title, _) in enumerate(steps, 1)]
    return build(lambda i: steps[i][1], len(steps), static=static, labels=labels, description="Step")
