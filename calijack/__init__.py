"""California Jack: the rules engine, game records, computer opponents and views.

>>> from calijack import Deal, Rules
>>> state = Deal.random(7).start()
>>> state = state.play(state.legal_cards()[0])
"""

from .cards import DECK, Card, CardError, Rank, Suit, parse_card, parse_suit
from .core import Duty
from .match import Match
from .records import RecordError
from .rules import STANDARD, RuleError, Rules
from .scoring import Award, DealResult
from .state import Deal, DealError, IllegalPlay, State, Trick, Verdict
from .view import View, view

__all__ = [
    "DECK", "Card", "CardError", "Rank", "Suit", "parse_card", "parse_suit", "Duty", "Match",
    "RecordError", "STANDARD", "RuleError", "Rules", "Award", "DealResult", "Deal", "DealError",
    "IllegalPlay", "State", "Trick", "Verdict", "View", "view",
]
