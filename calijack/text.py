"""Plain-text accounts of deals and matches, for the terminal (``calijack replay``)."""

from __future__ import annotations

from .cards import sort_cards
from .match import Match
from .scoring import DealResult
from .state import State

__all__ = ["deal_text", "result_text", "replay_text"]


def _cards(cards, trump=None) -> str:
    return " ".join(str(c) for c in (sort_cards(cards, trump) if trump is not None else cards))


def result_text(result: DealResult) -> list[str]:
    """The scoring breakdown: each point, who earned it and why, and the card values itemised."""
    lines = ["Scoring:"]
    for award in result.awards:
        who = "nobody" if award.seat is None else f"seat {award.seat}"
        lines.append(f"  {award.title:<14} {who:<8} {award.detail}")
    for seat, cards in enumerate(result.counted):
        items = " + ".join(f"{c} {c.value}" for c in cards) or "no counting cards"
        lines.append(f"  card values, seat {seat}: {items} = {result.pips[seat]}")
    points = ", ".join(f"seat {s} {p}" for s, p in enumerate(result.points))
    lines.append(f"  match points this deal: {points}")
    return lines


def deal_text(state: State) -> list[str]:
    """A deal trick by trick, with the draws and, once finished, the scoring."""
    deal, n = state.deal, state.players
    lines = []
    options = state.rules.describe()
    lines.append("Rules: standard" if not options else "Rules: " + "; ".join(options))
    how = f"the turned card {deal.turned}" if deal.turned else "the cut"
    lines.append(f"Dealer: seat {deal.dealer}. Trump: {state.trump.plural} {state.trump} (set by {how}).")
    for seat, hand in enumerate(deal.hands):
        lines.append(f"Seat {seat} is dealt: {_cards(hand, state.trump)}")
    lines.append(f"Stock: {len(deal.stock)} cards, {deal.stock[0]} on top.")
    for number, trick in enumerate(state.tricks + ((state.current,) if state.trick else ()), 1):
        plays = ", ".join(f"seat {trick.seat_of(k, n)} {c}" for k, c in enumerate(trick.cards))
        line = f"Trick {number:>2}: {plays}"
        if trick.winner is not None:
            line += f"; seat {trick.winner} wins"
            if trick.draws:
                line += "; draws: " + ", ".join(f"seat {s} {c}" for s, c in
                                                zip(trick.drawers(n), trick.draws))
        lines.append(line)
    if state.finished:
        if state.dead_card is not None:
            lines.append(f"Left out of play: {state.dead_card}.")
        lines.extend(result_text(state.result()))
    else:
        lines.append(f"In progress: trick {state.trick_number}, seat {state.to_play} to play; "
                     f"legal: {_cards(state.legal_cards())}")
    return lines


def replay_text(record) -> str:
    """The whole account of a deal state or a match record."""
    if isinstance(record, State):
        return "\n".join(deal_text(record))
    match = Match(record.rules, record.first_dealer)
    lines = []
    for k, state in enumerate(record.states, 1):
        lines.append(f"=== Deal {k} ===")
        lines.extend(deal_text(state))
        if state.finished:
            match = match.add(state.result())
            counted = ", ".join(match.counted[-1]) or "none"
            lines.append(f"Match score: {' - '.join(map(str, match.scores))} (points counted: {counted})")
    if match.winner is not None:
        lines.append(f"Seat {match.winner} wins the match, reaching {record.rules.target}.")
    else:
        lines.append(f"Match in progress: {' - '.join(map(str, match.scores))}, playing to {record.rules.target}.")
    return "\n".join(lines)
