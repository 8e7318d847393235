"""Demos over a whole deal: drawing and knowledge, scoring under options, replay, variants."""

from __future__ import annotations

import random

from .. import core, render
from ..render.base import seat_names
from ..rules import OPTIONS, Rules, RuleError
from ..state import Deal, State
from ..text import Narrator, article, counted, option_name
from .demo_base import build, esc, para
from .demo_basics import check_state

__all__ = ["drawing_demo", "scoring_demo", "deal_replay", "variants_demo", "variant_end", "play_out", "same_cards"]

# Options that change who scores, not how cards are played: (option, value to try).
SCORING_OPTIONS = (("high_low", "held"), ("game", "ten_of_trumps"), ("shasta_point", True),
                   ("turned_jack", True))


def play_out(state: State, seed: int = 0) -> State:
    """Play the deal to its end with legal cards chosen at random (seeded, so reproducible)."""
    rng = random.Random(seed)
    while not state.finished:
        legal = state.legal_cards()
        state = state.play(legal[core.pick(rng, len(legal))])
    return state


def same_cards(deal: Deal, rules: Rules) -> Deal:
    """The same cards, dealer and trump under other rule options (same number of players)."""
    return Deal(rules, deal.dealer, deal.hands, deal.stock, deal.trump)


def _check_seat(seat: object, state: State, who: str) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise ValueError(f"{who}: seat must be a seat number from 0 to {state.players - 1}, not {seat!r}")
    return seat


def _option_label(name: str, value) -> str:
    return option_name(name, value)


def _whose(words: Narrator, seat: int, start: bool = False) -> str:
    """A seat's possessive in a sentence: "your", "your opponent's", "Left's"."""
    who = words.who(seat, start)
    return ("Your" if start else "your") if seat == words.viewer else f"{who}'s"


# -- drawing ------------------------------------------------------------------------------------

def _knowledge(view, o: int, names, title: str) -> str:
    known = list(view.known[o])
    cards = known + [None] * view.hidden_counts[o]
    seen = ", ".join(str(c) for c in known) or "nothing yet"
    return render.hand_html(cards, label=f"{title}: {seen}")


def _cards_text(cards) -> str:
    return esc(", ".join(str(c) for c in cards)) or "none"


def _drawing_frame(state: State, twin: Deal, seat: int, k: int) -> str:
    n, rules = state.players, state.rules
    names = seat_names(n, seat)
    words = Narrator(n, seat)
    now = state.rewind(k * n)
    other = twin.start().play_all(now.plays)
    view, other_view = now.view(seat), other.view(seat)
    here, there = _option_label("stock", rules.stock), _option_label("stock", twin.rules.stock)
    lines = []
    if k == 0:
        lines.append(f"Before the first trick: the stock's top card, {esc(now.stock_top)}, is in plain "
                     f"sight, and nobody knows a single card of anyone else's hand.")
    else:
        trick = now.tricks[-1]
        seen = view.tricks[-1].draws
        draws = []
        for pos, (drawer, card) in enumerate(zip(trick.drawers(n), trick.draws)):
            how = "the exposed top card" if pos == 0 else "the next card of the stock"
            if seen[pos] is None:
                how += f", which {words.who(seat, start=False)} did not see"
            draws.append(f"{esc(words.who(drawer, start=False))} took {esc(card)} ({how})")
        lines.append(f"Trick {k}: {esc(words.who(trick.winner, start=False))} won it. Then {'; '.join(draws)}.")
    if now.stock_top is not None:
        lines.append(f"Stock: {len(now.stock)} cards, {esc(now.stock_top)} showing on top.")
    else:
        lines.append(f"The stock is used up: the last {counted(rules.tricks - len(now.tricks), 'trick is', 'tricks are')} "
                     f"played without drawing.")
    for o in range(n):
        if o != seat:
            lines.append(f"{esc(words.does(o, 'know'))} these cards of {esc(_whose(words, seat))} "
                         f"hand: {_cards_text(now.view(o).known[seat])} ({here}); "
                         f"{_cards_text(other.view(o).known[seat])} with {article(there)}.")
    parts = [para(*lines)]
    for o in range(n):
        if o == seat:
            continue
        parts.append('<div class="cj-row">'
                     + _knowledge(view, o, names, f"What {words.does(seat, 'know', start=False)} of "
                                                  f"{_whose(words, o)} hand, {here}")
                     + _knowledge(other_view, o, names, f"… with {article(there)} instead")
                     + render.hand_html(now.hand(o), marks={c: "known" for c in view.known[o]},
                                        label=f"{_whose(words, o, start=True)} real hand (eye: seen drawn, {here})")
                     + "</div>")
    return f'<div class="cj-root">{"".join(parts)}</div>'


def drawing_demo(state: State, seat: int = 0, static: bool = True):
    """Step through the tricks with draws: what ``seat`` knows of the other hands, beside the truth.

    Frames: the start, then one per completed trick while the stock lasts. Each compares the
    deal's stock rule with the other one (exposed or closed) on the same cards and plays.
    """
    state = check_state(state, "drawing_demo")
    seat = _check_seat(seat, state, "drawing_demo")
    rules = state.rules
    twin = same_cards(state.deal, rules.with_(stock="exposed" if rules.stock_closed else "closed"))
    count = 1 + min(len(state.tricks), rules.draws)
    labels = ["Before the first trick"] + [f"After trick {k}" for k in range(1, count)]
    return build(lambda k: _drawing_frame(state, twin, seat, k), count, static=static, labels=labels,
                 description="Trick")


# -- scoring ------------------------------------------------------------------------------------

def _changes(base, result, names) -> list[str]:
    before = {a.name: a for a in base.awards}
    lines = []
    for award in result.awards:
        was = before.get(award.name)
        who = names[award.seat] if award.seat is not None else "nobody"
        if was is None:
            lines.append(f"New point {esc(award.title)}: {esc(who)}.")
        elif was.seat != award.seat:
            old = names[was.seat] if was.seat is not None else "nobody"
            lines.append(f"{esc(award.title)} moves from {esc(old)} to {esc(who)}.")
    return lines or ["No point changes hands in this deal."]


def scoring_demo(state: State, static: bool = True):
    """The score sheet of a finished deal, with toggles for the rule options that change scoring."""
    state = check_state(state, "scoring_demo")
    if not state.finished:
        raise ValueError(f"scoring_demo needs a finished deal, but trick {state.trick_number} of "
                         f"{state.rules.tricks} is still to be played")
    rules, plays = state.rules, state.plays
    names = seat_names(state.players, 0)
    choices: list[tuple[str | None, object]] = [(None, None)]
    for name, value in SCORING_OPTIONS:
        choices.append((name, OPTIONS[name].standard if getattr(rules, name) == value else value))
    results = {}

    def result_of(i: int):
        if i not in results:
            name, value = choices[i]
            scored = state if name is None else same_cards(state.deal, rules.with_(**{name: value})).start().play_all(plays)
            results[i] = scored.result()
        return results[i]

    def frame(i: int) -> str:
        name, value = choices[i]
        result = result_of(i)
        if name is None:
            kind = "standard rules" if rules.is_standard else "these rules: " + "; ".join(rules.describe())
            lines = [f"The deal as played, under {esc(kind)}. Each point is one match point; the card "
                     "values only decide who earns Game."]
        else:
            option = OPTIONS[name]
            what = option.variant if value != option.standard else f"back to the standard rule ({option.summary})"
            lines = [f"Same cards, same plays; only this changes: {esc(what)} "
                     f"(account {esc(option.source)})."] + _changes(result_of(0), result, names)
        points = ", ".join(f"{esc(names[s])} {p}" for s, p in enumerate(result.points))
        lines.append(f"Match points this deal: {points}.")
        return para(*lines) + render.score_sheet_html(result, names=names)

    options = ["As played"] + [_option_label(n, v) for n, v in choices[1:]]
    return build(frame, len(choices), static=static, options=options, description="Scoring rule")


# -- replay -------------------------------------------------------------------------------------

def deal_replay(state: State, seat: int = 0, static: bool = True, reveal: bool = True, simple: bool = False):
    """A slider over every play of a deal (the start, then one frame per card played).

    ``simple=True`` draws the table for a first look at the game (no trump bar, no trick count,
    no card values: see :func:`calijack.render.table_html`)."""
    state = check_state(state, "deal_replay")
    seat = _check_seat(seat, state, "deal_replay")
    n, plays = state.players, state.plays
    names = seat_names(n, seat)
    tricks = state.tricks + (state.current,)
    labels = ["The deal"]
    for k, card in enumerate(plays):
        who = names[tricks[k // n].seat_of(k % n, n)]
        labels.append(f"Trick {k // n + 1}: {who} {'plays' if k % n else 'leads'} {card}")
    positions = {0: state.deal.start()}

    def position(k: int) -> State:
        if k not in positions:
            positions[k] = position(k - 1).play(plays[k - 1]) if k - 1 in positions else state.rewind(k)
        return positions[k]

    def frame(k: int) -> str:
        now = position(k)
        return render.table_html(now.view(seat), reveal=now if reveal else None, names=names, simple=simple)

    return build(frame, len(plays) + 1, static=static, labels=labels, description="Play")


# -- variants -----------------------------------------------------------------------------------

def variant_end(seed: int, rules: Rules) -> State:
    """The deal with ``seed`` (the sandbox's: its cards and dealer) under ``rules``, played out
    with legal cards chosen at random from ``random.Random(seed)``: what :func:`variants_demo`
    shows, for a page to state facts about."""
    deal = same_cards(Deal.random(seed, Rules(players=rules.players)), rules)
    return play_out(deal.start(), seed)


def variants_demo(seed: int, options: list[dict], static: bool = True):
    """The same deal under several sets of rule options, each played out the same seeded way
    (:func:`variant_end`)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"variants_demo: seed must be a whole number, not {seed!r}")
    if isinstance(options, (str, bytes, dict)) or not isinstance(options, (list, tuple)) or not options:
        raise ValueError("variants_demo needs a non-empty list of rule options, such as "
                         "[{}, {'void_duty': 'any'}]")
    all_rules = []
    for k, chosen in enumerate(options):
        try:
            all_rules.append(Rules.from_dict(chosen))
        except RuleError as error:
            raise ValueError(f"variants_demo: options[{k}]: {error}") from None
    if len(set(all_rules)) != len(all_rules):
        raise ValueError("variants_demo: two entries of options give the same rules")
    labels = ["Standard" if r.is_standard else ", ".join(_option_label(k, v) for k, v in r.to_dict().items())
              for r in all_rules]
    ends = {}

    def end(i: int) -> State:
        if i not in ends:
            ends[i] = variant_end(seed, all_rules[i])
        return ends[i]

    def frame(i: int) -> str:
        rules, final = all_rules[i], end(i)
        names = seat_names(final.players, 0)
        dealer = Narrator(final.players, 0).who(final.dealer, start=False)
        lines = ["Rules: " + (esc("; ".join(rules.describe())) if not rules.is_standard else "standard") + ".",
                 f"Deal {seed}: {esc(dealer)} dealt; trump {final.trump.plural}. Both "
                 f"players choose among their legal cards at random, the same random way every time."]
        if i:
            first = end(0)
            same = next((k for k, (a, b) in enumerate(zip(first.plays, final.plays)) if a != b), None)
            if final.players != first.players:
                lines.append("With a different number of players the cards are dealt afresh.")
            elif same is None:
                lines.append(f"Every card is played exactly as under “{esc(labels[0])}”.")
            elif same == 0:
                lines.append(f"The very first play differs from “{esc(labels[0])}” "
                             f"({esc(first.plays[0])} there, {esc(final.plays[0])} here).")
            else:
                lines.append(f"The first {counted(same, 'play matches', 'plays match')} “{esc(labels[0])}”; "
                             f"play {same + 1} differs ({esc(first.plays[same])} there, {esc(final.plays[same])} here).")
        return para(*lines) + render.score_sheet_html(final.result(), names=names)

    return build(frame, len(all_rules), static=static, options=labels, description="Rules")
