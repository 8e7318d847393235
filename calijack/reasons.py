"""Why a card may or may not be played, in the words the sandbox shows a learner.

Legality itself comes from :func:`calijack.core.duty` and :func:`calijack.core.allowed`;
this module only puts the duty that binds into words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import core
from .cards import Card, Suit
from .core import Duty

if TYPE_CHECKING:
    from .state import IllegalPlay, State, Verdict

__all__ = ["verdict", "refusal", "duty_phrase"]


def duty_phrase(binding: Duty, led: Suit, trump: Suit) -> str | None:
    """The short name of a binding duty, as a record checker reports it."""
    return {
        Duty.FOLLOW_TRUMP: f"must follow trumps ({trump.plural})",
        Duty.FOLLOW_OR_TRUMP: f"must follow {led.plural} or play a trump",
        Duty.MUST_TRUMP: f"has no {led.plural} but holds a trump, so must trump",
    }.get(binding)


def _refused(binding: Duty, led: Suit, trump: Suit) -> str:
    if binding == Duty.FOLLOW_TRUMP:
        return f"Trumps ({trump.plural}) were led and you hold one: you must play a trump."
    if binding == Duty.FOLLOW_OR_TRUMP:
        return f"You hold {led.plural}: play a {led.singular} or a trump ({trump.plural})."
    return f"You have no {led.plural} but hold trumps: you must trump (play a {trump.singular})."


def _allowed(binding: Duty, card: Card, led: Suit, trump: Suit) -> str:
    if binding == Duty.LEAD:
        return "You are leading: any card may be led."
    if binding == Duty.FOLLOW_TRUMP:
        return "Trumps were led: you follow with a trump."
    if binding == Duty.FREE_NO_TRUMP:
        return "Trumps were led but you have none: any card may be played."
    if binding == Duty.FOLLOW_OR_TRUMP:
        if card.suit == led:
            return f"You follow {led.plural}."
        return f"A trump may be played even while you hold {led.plural}."
    if binding == Duty.MUST_TRUMP:
        return f"You have no {led.plural}, so you must trump."
    if binding == Duty.FREE_VOID:
        return f"You have no {led.plural}; under this rule you may play any card, trump or not."
    return f"You have neither {led.plural} nor trumps: any card may be played."


def verdict(state: "State", card: Card) -> "Verdict":
    """Legal or not for the seat to play, with the reason; raises if it cannot be played at all."""
    from .state import Verdict

    problem = _not_playable(state, card)
    if problem is not None:
        raise problem
    seat = state.to_play
    binding = Duty(state._duty(seat))
    led = Suit(state.trick[0] // 13) if state.trick else card.suit
    legal = bool(core.allowed(binding, card.bit, led, state.trump))
    text = _allowed(binding, card, led, state.trump) if legal else _refused(binding, led, state.trump)
    return Verdict(card, legal, text, binding)


def _not_playable(state: "State", card: Card) -> "IllegalPlay | None":
    from .state import IllegalPlay

    seat = state.to_play
    if seat is None:
        return IllegalPlay("The deal is over: every card has been played.", card=card,
                           seat=None, trick=None, kind="finished")
    if not state.hands[seat] & card.bit:
        return IllegalPlay(f"You do not hold {card}.", card=card, seat=seat,
                           trick=state.trick_number, kind="not_in_hand")
    return None


def refusal(state: "State", card: Card) -> "IllegalPlay | None":
    """``None`` if ``card`` may be played now, else the :class:`IllegalPlay` to raise."""
    from .state import IllegalPlay

    problem = _not_playable(state, card)
    if problem is not None:
        return problem
    judged = verdict(state, card)
    if judged.legal:
        return None
    led = Suit(state.trick[0] // 13)
    return IllegalPlay(judged.reason, card=card, seat=state.to_play, trick=state.trick_number,
                       duty=duty_phrase(judged.duty, led, state.trump))
