"""Cards, suits and ranks: values, parsing and the canonical text forms.

A card is one of 52 interned values. Its ``index`` (``suit * 13 + rank``) is the bit it
occupies in the engine's card masks, so a hand is an ``int`` with one bit per card.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Iterable, Iterator

from .quoting import quoted

__all__ = [
    "Suit", "Rank", "Card", "CardError", "DECK", "SUIT_MASK", "FULL_MASK",
    "card_value", "cards_of", "mask_of", "parse_card", "parse_suit", "sort_cards",
]


class CardError(ValueError):
    """A string that does not name a card or a suit."""


class Suit(IntEnum):
    """The four suits; the order only fixes bit positions."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The record letter: ``C D H S``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The symbol shown to people: ``♣ ♦ ♥ ♠``."""
        return "♣♦♥♠"[self]

    @property
    def plural(self) -> str:
        """The suit's name in prose: ``clubs``."""
        return self.name.lower()

    @property
    def singular(self) -> str:
        """One card of the suit in prose: ``club``."""
        return self.plural[:-1]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    def __str__(self) -> str:
        return self.symbol


class Rank(IntEnum):
    """Ranks from low to high, so a larger rank wins a trick."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def letter(self) -> str:
        """The record character: ``2``…``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return "23456789TJQKA"[self]

    @property
    def label(self) -> str:
        """The rank shown to people: ``10`` rather than ``T``."""
        return "10" if self is Rank.TEN else self.letter

    @property
    def word(self) -> str:
        """The rank in prose: ``ten``, ``jack``, ``two``."""
        return self.name.lower()

    @property
    def pips(self) -> int:
        """Card value towards the Game point (10=10, A=4, K=3, Q=2, J=1, others 0)."""
        return _VALUES[self]

    def __str__(self) -> str:
        return self.label


# Card values towards Game, by rank number.
_VALUES = {0: 0, 1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 10, 9: 1, 10: 2, 11: 3, 12: 4}


class Card:
    """One of the 52 cards; ``Card.parse("J♥")``, ``str(card) == "J♥"``, ``card.code == "JH"``."""

    __slots__ = ("index", "suit", "rank")
    index: int
    suit: Suit
    rank: Rank

    def __new__(cls, rank: Rank | int, suit: Suit | int) -> "Card":
        return DECK[int(suit) * 13 + int(rank)]

    @classmethod
    def _make(cls, index: int) -> "Card":
        card = object.__new__(cls)
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "suit", Suit(index // 13))
        object.__setattr__(card, "rank", Rank(index % 13))
        return card

    def __setattr__(self, name, value):
        raise AttributeError("cards are immutable")

    def __reduce__(self):
        return (Card.from_index, (self.index,))

    @staticmethod
    def from_index(index: int) -> "Card":
        """The card at bit ``index`` (0–51)."""
        return DECK[index]

    @staticmethod
    def parse(text: str) -> "Card":
        """Read ``"JH"``, ``"10♥"``, ``"th"``…; raise :class:`CardError` otherwise."""
        return parse_card(text)

    @property
    def code(self) -> str:
        """The two-character record form: ``"JH"``, ``"TH"``."""
        return self.rank.letter + self.suit.letter

    @property
    def value(self) -> int:
        """Card value towards Game."""
        return _VALUES[self.rank]

    @property
    def bit(self) -> int:
        """This card's bit in a card mask."""
        return 1 << self.index

    @property
    def name(self) -> str:
        """The accessible name: ``"Jack of hearts"``."""
        return f"{self.rank.word.capitalize()} of {self.suit.plural}"

    def __str__(self) -> str:
        return self.rank.label + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __eq__(self, other):
        return self is other

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: "Card") -> bool:
        return self.index < other.index

    def _repr_html_(self) -> str:
        from . import render  # lazy: the engine never depends on rendering

        return render.card_html(self)


DECK: tuple[Card, ...] = tuple(Card._make(i) for i in range(52))
SUIT_MASK: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
FULL_MASK = (1 << 52) - 1

_RANK_TEXT = {r.letter: r for r in Rank} | {"10": Rank.TEN}
_SUIT_TEXT = {s.letter: s for s in Suit} | {s.symbol: s for s in Suit}
# Also accept the white (outline) suit symbols and the emoji variation selector.
_SUIT_TEXT |= {"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES}


def parse_suit(text: str) -> Suit:
    """Read a suit letter or symbol in any case: ``"H"``, ``"h"``, ``"♥"``."""
    if isinstance(text, Suit):
        return text
    if not isinstance(text, str):
        raise CardError(f"a suit must be a string, not {type(text).__name__}")
    key = text.strip().replace("\ufe0f", "").upper()
    try:
        return _SUIT_TEXT[key]
    except KeyError:
        raise CardError(f"{quoted(text)} is not a suit (use S, H, D, C or ♠ ♥ ♦ ♣)") from None


def parse_card(text: str) -> Card:
    """Read a card: a rank ``A K Q J T 10 9 … 2`` then a suit ``S H D C`` or ``♠ ♥ ♦ ♣``."""
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise CardError(f"a card must be a string, not {type(text).__name__}")
    key = text.strip().replace("\ufe0f", "").upper()
    rank = _RANK_TEXT.get(key[:-1]) if len(key) >= 2 else None
    suit = _SUIT_TEXT.get(key[-1:]) if rank is not None else None
    if rank is None or suit is None:
        raise CardError(f"{quoted(text)} is not a card (write a rank then a suit, such as JH or 10♥)")
    return DECK[suit * 13 + rank]


def card_value(card: Card | int) -> int:
    """Card value towards Game of a card or card index."""
    index = card.index if isinstance(card, Card) else card
    return _VALUES[index % 13]


def mask_of(cards: Iterable[Card | int]) -> int:
    """The card mask holding ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << (card.index if isinstance(card, Card) else card)
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, in index order (clubs 2 up to spades A)."""
    return [DECK[i] for i in _bits(mask)]


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# Display order: trumps first, then the others, each suit high to low.
def sort_cards(cards: Iterable[Card], trump: Suit | None = None) -> list[Card]:
    """Cards in the order a player would hold them: by suit (trumps first), high to low."""
    def key(card: Card):
        return (card.suit != trump, -card.suit, -card.rank)
    return sorted(cards, key=key)
