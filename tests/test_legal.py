"""Legal play: every duty, the learner sentences, refusals that leave the state unchanged."""

import dataclasses
import random

import pytest

from calijack import Duty, IllegalPlay, Rules, Suit, core, parse_suit
from calijack.cards import SUIT_MASK, cards_of, mask_of, parse_card

# Hearts are trump (J♥ on top of the stock). Dealer 0, so seat 1 leads ``lead`` and seat 0
# answers holding ``hand``. Columns: lead, hand, duty, legal cards, duty phrase, then the
# sentence for a refused card and for each kind of allowed card.
DUTIES = {
    "trump lead holding trumps": (
        "5H", "2H 9H 3C 4C KS AD", Duty.FOLLOW_TRUMP, "2H 9H", "must follow trumps (hearts)",
        {"3C": "Trumps (hearts) were led and you hold one: you must play a trump.",
         "2H": "Trumps were led: you follow with a trump."}),
    "trump lead without trumps": (
        "5H", "3C 4C KS AD 5D 6S", Duty.FREE_NO_TRUMP, "3C 4C KS AD 5D 6S", None,
        {"KS": "Trumps were led but you have none: any card may be played."}),
    "plain lead holding the suit": (
        "7C", "3C 9H 2H KS AD 4D", Duty.FOLLOW_OR_TRUMP, "3C 9H 2H", "must follow clubs or play a trump",
        {"KS": "You hold clubs: play a club or a trump (hearts).",
         "4D": "You hold clubs: play a club or a trump (hearts).",
         "3C": "You follow clubs.",
         "9H": "A trump may be played even while you hold clubs."}),
    "void in the led suit holding trumps": (
        "7C", "2H KS AD 4D 9S 8D", Duty.MUST_TRUMP, "2H", "has no clubs but holds a trump, so must trump",
        {"KS": "You have no clubs but hold trumps: you must trump (play a heart).",
         "2H": "You have no clubs, so you must trump."}),
    "holding neither": (
        "7C", "KS AD 4D 9S 8D 3S", Duty.FREE_NOTHING, "KS AD 4D 9S 8D 3S", None,
        {"KS": "You have neither clubs nor trumps: any card may be played."}),
}

LEADER_HAND = "7C 5H AS QS 6D 7D"


def answer(eng, lead, hand, rules=Rules()):
    """The position after seat 1 leads ``lead`` against seat 0 holding ``hand`` (hearts trump)."""
    state = eng.make_deal([hand.split(), LEADER_HAND.split()], ["JH"], dealer=0, rules=rules).start()
    assert state.to_play == 1 and state.trump is Suit.HEARTS
    state = state.play(lead)
    assert state.to_play == 0
    return state


@pytest.mark.parametrize("row", DUTIES, ids=list(DUTIES))
def test_duty_table(eng, row):
    lead, hand, duty, legal, phrase, sentences = DUTIES[row]
    state = answer(eng, lead, hand)
    assert set(state.legal_cards()) == set(eng.cards(legal))
    assert state.legal_mask() == mask_of(eng.cards(legal))
    verdicts = {v.card.code: v for v in state.verdicts()}
    assert set(verdicts) == set(hand.split())
    for code, verdict in verdicts.items():
        assert verdict.duty is duty
        assert verdict.legal == (code in legal.split())
    for code, sentence in sentences.items():
        assert state.explain(code).reason == sentence
        assert verdicts[code].reason == sentence


@pytest.mark.parametrize("row", DUTIES, ids=list(DUTIES))
def test_every_refused_card_raises_with_the_sentence_and_changes_nothing(eng, row):
    lead, hand, duty, legal, phrase, _ = DUTIES[row]
    state = answer(eng, lead, hand)
    snapshot = dataclasses.replace(state)
    refused = [c for c in hand.split() if c not in legal.split()]
    assert bool(refused) == (phrase is not None)
    for code in refused:
        with pytest.raises(IllegalPlay) as caught:
            state.play(code)
        error = caught.value
        assert isinstance(error, ValueError)
        assert str(error) == state.explain(code).reason
        assert (error.card.code, error.seat, error.trick, error.duty, error.kind) == (code, 0, 1, phrase, "duty")
        assert state == snapshot and state.plays == [parse_card(lead)]
    for code in legal.split():  # and every legal card is taken
        after = state.play(code)
        assert after.tricks[0].cards == (parse_card(lead), parse_card(code))


def test_leading_any_card(eng):
    state = eng.make_deal([LEADER_HAND.split(), "2H KS AD 4D 9S 8D".split()], ["JH"], dealer=1).start()
    assert state.to_play == 0
    assert state.legal_cards() == state.hand(0)
    for verdict in state.verdicts():
        assert verdict.legal and verdict.duty is Duty.LEAD
        assert verdict.reason == "You are leading: any card may be led."


def test_void_duty_any_frees_the_void_player(eng):
    state = answer(eng, "7C", "2H KS AD 4D 9S 8D", Rules(void_duty="any"))
    assert set(state.legal_cards()) == set(eng.cards("2H KS AD 4D 9S 8D"))
    for verdict in state.verdicts():
        assert verdict.legal and verdict.duty is Duty.FREE_VOID
        assert verdict.reason == "You have no clubs; under this rule you may play any card, trump or not."
    assert state.play("KS").tricks[0].winner == 1


@pytest.mark.parametrize("row", ["trump lead holding trumps", "plain lead holding the suit"])
def test_void_duty_any_changes_nothing_else(eng, row):
    lead, hand, duty, legal, _, _ = DUTIES[row]
    state = answer(eng, lead, hand, Rules(void_duty="any"))
    assert set(state.legal_cards()) == set(eng.cards(legal))
    assert {v.duty for v in state.verdicts()} == {duty}


@pytest.mark.parametrize("trump,lead,hand,refused,sentence", [
    ("S", "5D", "2D 3S 4C 5C 6C 7C", "4C", "You hold diamonds: play a diamond or a trump (spades)."),
    ("D", "5S", "2D 3D 4C 5C 6C 7C", "4C", "You have no spades but hold trumps: you must trump (play a diamond)."),
    ("C", "5C", "2C 3D 4D 5D 6D 7D", "3D", "Trumps (clubs) were led and you hold one: you must play a trump."),
])
def test_sentences_name_the_suits_in_play(eng, trump, lead, hand, refused, sentence):
    top = next(c.code for c in eng.cards("AC AD AS") if c.suit.letter == trump)
    leader = [lead] + [c for c in "KH QH JH TH 9H".split()]
    state = eng.make_deal([hand.split(), leader], [top], dealer=0).start().play(lead)
    with pytest.raises(IllegalPlay) as caught:
        state.play(refused)
    assert str(caught.value) == sentence


def test_not_in_hand_not_a_card_and_finished(eng):
    state = answer(eng, "7C", "3C 9H 2H KS AD 4D")
    snapshot = dataclasses.replace(state)
    with pytest.raises(IllegalPlay) as caught:
        state.play("AS")  # the leader holds it
    assert str(caught.value) == "You do not hold A♠."
    assert (caught.value.kind, caught.value.seat, caught.value.trick, caught.value.duty) == ("not_in_hand", 0, 1, None)
    with pytest.raises(IllegalPlay) as caught:
        state.play("ZZ")
    assert caught.value.kind == "not_a_card" and "'ZZ'" in str(caught.value)
    with pytest.raises(IllegalPlay, match="You do not hold"):
        state.explain("AS")
    assert state == snapshot
    done = eng.play_first_legal(state)
    with pytest.raises(IllegalPlay) as caught:
        done.play(done.plays[0])
    assert caught.value.kind == "finished" and str(caught.value) == "The deal is over: every trick has been played."
    assert done.legal_cards() == [] and done.verdicts() == [] and done.to_play is None


# core.duty / core.allowed on masks, hearts (2) trump: the same table without a State.
@pytest.mark.parametrize("lead,hand,void_any,duty,legal", [
    (None, "2H 3C", False, Duty.LEAD, "2H 3C"),
    ("5H", "2H 9H 3C", False, Duty.FOLLOW_TRUMP, "2H 9H"),
    ("5H", "3C 4D", False, Duty.FREE_NO_TRUMP, "3C 4D"),
    ("7C", "3C 9H 4D", False, Duty.FOLLOW_OR_TRUMP, "3C 9H"),
    ("7C", "3C 9H 4D", True, Duty.FOLLOW_OR_TRUMP, "3C 9H"),
    ("7C", "9H 4D", False, Duty.MUST_TRUMP, "9H"),
    ("7C", "9H 4D", True, Duty.FREE_VOID, "9H 4D"),
    ("7C", "4D 5S", False, Duty.FREE_NOTHING, "4D 5S"),
    ("7C", "4D 5S", True, Duty.FREE_NOTHING, "4D 5S"),
])
def test_core_duty_table(eng, lead, hand, void_any, duty, legal):
    led = parse_card(lead).index if lead else -1
    mask = mask_of(eng.cards(hand))
    assert core.duty(mask, led, Suit.HEARTS, void_any) == duty
    assert core.legal_mask(mask, led, Suit.HEARTS, void_any) == mask_of(eng.cards(legal))


@pytest.mark.parametrize("trick,trump,winner", [
    ("7C 9C", "H", 1), ("9C 7C", "H", 0), ("7C AD", "H", 0), ("7C 2H", "H", 1), ("AC 2H", "H", 1),
    ("2H AC", "H", 0), ("5H 4H", "H", 0), ("5H 6H", "H", 1), ("AS KS", "S", 0),
    ("7C 2H 3H", "H", 2), ("7C 3H 2H", "H", 1), ("7C AD 8C", "H", 2), ("7C 8C AD", "H", 1),
    ("7C 2H AC", "H", 1), ("5D 4D 3D", "H", 0), ("5D AS KH", "H", 2),
])
def test_trick_winner_table(eng, trick, trump, winner):
    assert core.trick_winner([c.index for c in eng.cards(trick)], parse_suit(trump)) == winner


def test_three_players_duties_against_the_led_suit(eng):
    # Seat 1 leads 7♣, seat 2 trumps, seat 0 still holds clubs: a club or a trump, no overtrumping duty.
    rules = Rules(players=3)
    state = eng.make_deal([["3C", "2H", "KS", "AD", "4D", "9S"], ["7C", "AS", "QS", "3D", "5D", "5S"],
                           ["9H", "KD", "QD", "8S", "7S", "6S"]], ["JH"], dealer=0, rules=rules).start()
    assert state.to_play == 1
    state = state.play("7C")
    assert state.to_play == 2 and set(state.legal_cards()) == set(eng.cards("9H"))
    state = state.play("9H")
    assert state.to_play == 0 and set(state.legal_cards()) == set(eng.cards("3C 2H"))
    with pytest.raises(IllegalPlay, match=r"^You hold clubs: play a club or a trump \(hearts\)\.$"):
        state.play("KS")
    assert state.play("3C").tricks[0].winner == 2


def test_duties_hold_after_the_stock_is_gone(eng):
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = eng.seeded_deal(rng).start()
        while not state.finished:
            if len(state.tricks) >= 20 and state.trick:
                assert state.stock == ()
                led = state.trick[0] // 13
                hand = state.hands[state.to_play]
                trumps = hand & SUIT_MASK[state.trump]
                follow = hand & SUIT_MASK[led]
                others = hand & ~trumps & ~follow
                if led != state.trump and follow and others:
                    card = cards_of(others)[0]
                    with pytest.raises(IllegalPlay, match="You hold"):
                        state.play(card)
                    checked += 1
                if led != state.trump and not follow and trumps and others:
                    with pytest.raises(IllegalPlay, match="you must trump"):
                        state.play(cards_of(others)[0])
                    checked += 1
            legal = cards_of(state.legal_mask())
            state = state.play(legal[core.pick(rng, len(legal))])
    assert checked >= 20


# Hearts are trump. What one card played to a trick proves its player did not hold.
@pytest.mark.parametrize("lead,card,void_any,missing", [
    ("5H", "3H", False, ""),            # followed trumps
    ("5H", "3C", False, "H"),           # did not follow trumps: holds none
    ("7C", "3C", False, ""),            # followed the led suit
    ("7C", "2H", False, ""),            # trumped: allowed even while holding clubs
    ("7C", "KS", False, "CH"),          # neither followed nor trumped: no clubs, and no trumps
    ("7C", "KS", True, "C"),            # under void_duty=any a trump may be kept back
])
def test_voids_shown_by_a_play(lead, card, void_any, missing):
    shown = core.voids_shown(parse_card(card).index, parse_card(lead).index, Suit.HEARTS, void_any)
    assert shown == sum(SUIT_MASK[parse_suit(s)] for s in missing)
