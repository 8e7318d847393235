"""Why a card may or may not be played, in the words the sandbox shows a learner.

Legality itself comes from :func:`calijack.core.duty` and :func:`calijack.core.allowed`;
this module only puts the duty that binds into words, and says why a card is refused. It
sits below :mod:`calijack.state`: it works from a hand, the led card and the trump suit,
never from a position.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import core
from .cards import Card, Suit
from .core import Duty

__all__ = ["Verdict", "IllegalPlay", "verdict", "refusal", "not_a_card", "duty_phrase"]


class IllegalPlay(ValueError):
    """A card that may not be played now; ``str(error)`` is the learner's sentence.

    ``kind`` says which refusal it is: ``"duty"`` (a duty forbids it; ``duty`` is the short
    phrase naming it, such as ``"must follow clubs or play a trump"``), ``"not_in_hand"``,
    ``"finished"`` (the deal is over) or ``"not_a_card"``.
    """

    def __init__(self, message: str, *, card: Card | None, seat: int | None,
                 trick: int | None, duty: str | None = None, kind: str = "duty"):
        super().__init__(message)
        self.card, self.seat, self.trick, self.duty, self.kind = card, seat, trick, duty, kind


@dataclass(frozen=True)
class Verdict:
    """Whether a card in hand may be played now, and why, in a learner's words."""

    card: Card
    legal: bool
    reason: str
    duty: Duty


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


def verdict(card: Card, hand: int, led: int, trump: Suit, void_any: bool) -> Verdict:
    """Legal or not for a player holding ``hand`` (a mask with ``card``) when ``led`` was led (-1: leading)."""
    binding = Duty(core.duty(hand, led, trump, void_any))
    led_suit = Suit(led // 13) if led >= 0 else card.suit
    legal = bool(core.allowed(binding, card.bit, led_suit, trump))
    text = _allowed(binding, card, led_suit, trump) if legal else _refused(binding, led_suit, trump)
    return Verdict(card, legal, text, binding)


def refusal(card: Card, seat: int | None, trick: int | None, hand: int, led: int, trump: Suit,
            void_any: bool) -> IllegalPlay:
    """The :class:`IllegalPlay` for a card the seat to play may not play (``seat=None``: the deal is over).

    The one place a refusal is worded: the deal is over, the card is not in hand, or the duty
    that forbids it.
    """
    if seat is None:
        return IllegalPlay("The deal is over: every trick has been played.", card=card,
                           seat=None, trick=None, kind="finished")
    if not hand & card.bit:
        return IllegalPlay(f"You do not hold {card}.", card=card, seat=seat, trick=trick,
                           kind="not_in_hand")
    judged = verdict(card, hand, led, trump, void_any)
    return IllegalPlay(judged.reason, card=card, seat=seat, trick=trick,
                       duty=duty_phrase(judged.duty, Suit(led // 13), trump))


def not_a_card(error: Exception, seat: int | None, trick: int | None) -> IllegalPlay:
    """The refusal of something that is not a card at all (``error`` from parsing it)."""
    message = str(error)
    return IllegalPlay(f"{message[:1].upper()}{message[1:]}.", card=None, seat=seat, trick=trick,
                       kind="not_a_card")
