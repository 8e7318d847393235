"""Cards: every accepted spelling, the canonical forms, values, masks and ordering."""

import pickle

import pytest

from calijack import DECK, Card, CardError, Rank, Suit, parse_card, parse_suit
from calijack.cards import card_value, cards_of, mask_of, sort_cards


@pytest.mark.parametrize("text", ["JH", "jh", "Jh", "jH", "J♥", "j♥", " JH ", "J♥\ufe0f", "J♡"])
def test_jack_of_hearts_spellings(text):
    card = parse_card(text)
    assert card is Card(Rank.JACK, Suit.HEARTS)
    assert card.code == "JH" and str(card) == "J♥" and card.name == "Jack of hearts"


@pytest.mark.parametrize("text", ["TH", "th", "tH", "10H", "10h", "10♥", "T♥", "t♥", "10♡"])
def test_ten_of_hearts_spellings(text):
    card = Card.parse(text)
    assert (card.rank, card.suit) == (Rank.TEN, Suit.HEARTS)
    assert card.code == "TH" and str(card) == "10♥"


@pytest.mark.parametrize("text,code", [
    ("AS", "AS"), ("a♠", "AS"), ("KD", "KD"), ("k♦", "KD"), ("QC", "QC"), ("q♣", "QC"),
    ("2c", "2C"), ("2♣", "2C"), ("9♢", "9D"), ("5♤", "5S"), ("7♧", "7C"), ("10s", "TS"),
])
def test_spellings_of_every_suit_and_rank(text, code):
    assert parse_card(text).code == code


def test_every_card_reads_back_from_each_output_form():
    for card in DECK:
        assert len(card.code) == 2 and card.code.isascii() and card.code == card.code.upper()
        for text in (card.code, card.code.lower(), str(card), card.rank.label + card.suit.letter.lower()):
            assert parse_card(text) is card, text


@pytest.mark.parametrize("text", ["", " ", "J", "H", "1H", "11H", "ZZ", "JX", "HJ", "♥J", "JHH",
                                  "10", "1 0H", "J H", "0H", "JOKER", "AH AS", "Jh!"])
def test_bad_spellings_name_the_input(text):
    with pytest.raises(CardError) as caught:
        parse_card(text)
    assert repr(text) in str(caught.value)
    assert "JH" in str(caught.value)  # it shows how to write a card


@pytest.mark.parametrize("value", [None, 7, 3.5, ["JH"], b"JH"])
def test_non_strings_are_refused_naming_the_type(value):
    with pytest.raises(CardError, match=type(value).__name__):
        parse_card(value)


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


@pytest.mark.parametrize("text,suit", [("H", Suit.HEARTS), ("h", Suit.HEARTS), ("♥", Suit.HEARTS),
                                       ("s", Suit.SPADES), ("♦", Suit.DIAMONDS), ("C", Suit.CLUBS)])
def test_parse_suit(text, suit):
    assert parse_suit(text) is suit


@pytest.mark.parametrize("text", ["", "X", "HH", "hearts", "1"])
def test_parse_suit_refuses(text):
    with pytest.raises(CardError, match=repr(text).replace("(", r"\(")):
        parse_suit(text)


def test_deck_has_52_distinct_interned_cards():
    assert len(DECK) == 52 and len(set(DECK)) == 52
    assert [c.index for c in DECK] == list(range(52))
    for card in DECK:
        assert Card(card.rank, card.suit) is card
        assert Card.from_index(card.index) is card
        assert card.index == card.suit * 13 + card.rank and card.bit == 1 << card.index
        assert pickle.loads(pickle.dumps(card)) is card


def test_cards_are_immutable():
    card = parse_card("JH")
    with pytest.raises(AttributeError):
        card.rank = Rank.ACE
    assert card.rank is Rank.JACK


def test_card_values_and_the_80_in_the_pack():
    expected = {"T": 10, "A": 4, "K": 3, "Q": 2, "J": 1}
    for card in DECK:
        assert card.value == expected.get(card.rank.letter, 0) == card.rank.pips == card_value(card)
        assert card_value(card.index) == card.value
    assert sum(c.value for c in DECK) == 80


def test_rank_order_for_tricks():
    order = "23456789TJQKA"
    assert [r.letter for r in sorted(Rank)] == list(order)
    assert Rank.TEN.label == "10" and Rank.TEN.word == "ten" and Rank.ACE.label == "A"


def test_suit_words_and_colours():
    assert [s.letter for s in Suit] == list("CDHS")
    assert [s.symbol for s in Suit] == list("♣♦♥♠")
    assert Suit.CLUBS.plural == "clubs" and Suit.CLUBS.singular == "club"
    assert Suit.HEARTS.singular == "heart" and Suit.SPADES.plural == "spades"
    assert [s.is_red for s in Suit] == [False, True, True, False]


def test_masks_round_trip():
    hand = [parse_card(c) for c in ("2C", "AS", "TH", "JD")]
    mask = mask_of(hand)
    assert mask == sum(c.bit for c in hand)
    assert cards_of(mask) == sorted(hand, key=lambda c: c.index)
    assert mask_of(c.index for c in hand) == mask
    assert cards_of(0) == [] and len(cards_of((1 << 52) - 1)) == 52


def test_sort_cards_trumps_first_high_to_low():
    hand = [parse_card(c) for c in ("2C", "AS", "TH", "JD", "3H", "KC")]
    assert [c.code for c in sort_cards(hand, Suit.HEARTS)] == ["TH", "3H", "AS", "JD", "KC", "2C"]
    assert [c.code for c in sort_cards(hand, Suit.CLUBS)] == ["KC", "2C", "AS", "TH", "3H", "JD"]
