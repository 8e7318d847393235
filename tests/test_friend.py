"""Play a friend (pass-and-play): the game's turns, its hidden screen, refusals, hints, the
record and the review (calijack.friend), and the table widget over it (calijack.widgets.friend),
operated the way the page does."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from calijack import records
from calijack.friend import Friend, FriendError, check_names
from calijack.review import review
from calijack.rules import Rules
from calijack.state import IllegalPlay
from calijack.text_friend import NAME_LIMIT

NAMES = ("Ann", "Bo")


def first_legal(game: Friend):
    return game.state.legal_cards()[0]


def secrets(game: Friend, seat: int) -> set:
    """The cards ``seat`` holds that the other player has not seen: they may show only to ``seat``."""
    other = 1 - seat
    return set(game.state.hand(seat)) - set(game.state.view(other).known[seat])


def card_words(cards) -> list[str]:
    """Every way a page may write a card: "J♥", "JH", "Jack of hearts"."""
    return [w for c in cards for w in (str(c), c.code, c.name)]


def play_out(game: Friend, stop=lambda g: False):
    """Play the first legal card at each turn, tapping through each pass screen; returns each
    pass screen met with the secrets of both hands at that moment."""
    met = []
    while not game.finished and not stop(game):
        if game.hidden:
            met.append((game.pass_screen(), secrets(game, 0) | secrets(game, 1)))
            game.reveal()
            continue
        game.play(first_legal(game))
    return met


# -- the game ---------------------------------------------------------------------------------

def test_a_deal_starts_hidden_and_hides_after_every_play_that_hands_the_turn_over():
    game = Friend(NAMES, seed=7)
    assert game.hidden and game.visible_view() is None and game.verdicts() == []
    screen = game.pass_screen()
    assert screen.name == NAMES[game.to_play]
    assert screen.title == f"Pass to {screen.name}, then tap."
    assert screen.button == f"I am {screen.name}: show my cards"
    hides = 0
    while not game.finished:
        if game.hidden:
            game.reveal()
            hides += 1
        assert game.visible_view().seat == game.to_play and game.verdicts()
        before = game.to_play
        game.play(first_legal(game))
        # Hidden exactly when the other player is to play next (and the deal goes on).
        assert game.hidden == (not game.finished and game.to_play != before)
    assert hides >= game.rules.tricks  # the deal's start, then at least once a trick
    assert not game.hidden and game.pass_screen() is None
    assert game.visible_view().hand == ()  # at the end both may look: every hand is empty


def test_no_pass_screen_tells_a_card_of_either_hand_that_is_not_known_to_both():
    for rules in (Rules(), Rules(stock="closed")):
        game = Friend(NAMES, seed=11, rules=rules)
        met = play_out(game)
        assert len(met) > 20
        for screen, hidden_cards in met:
            text = " ".join((screen.title, screen.button, *screen.lines))
            leaks = [w for w in card_words(hidden_cards) if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]
            assert leaks == [], (rules, text)


def test_the_pass_screen_says_who_won_the_last_trick_and_what_each_drew_as_both_saw_it():
    game = Friend(NAMES, seed=7, rules=Rules(stock="closed"))
    play_out(game, stop=lambda g: g.hidden and len(g.state.tricks) >= 1 and not g.state.trick)
    screen = game.pass_screen()
    trick = game.state.tricks[-1]
    winner, loser = NAMES[trick.winner], NAMES[1 - trick.winner]
    last = next(line for line in screen.lines if line.startswith("Trick 1:"))
    assert last == f"Trick 1: {winner} won with {trick.winning_card} and drew {trick.draws[0]}; {loser} drew an unseen card."
    assert f"{screen.name} is to lead" in " ".join(screen.lines)


def test_the_first_pass_screen_says_the_trump_and_whether_hints_are_on():
    off = Friend(NAMES, hints=(True, False), seed=3).pass_screen()
    on = Friend(NAMES, hints=(True, True), seed=3).pass_screen()
    assert any("Hints are off" in line for line in off.lines) and any("Hints are on" in line for line in on.lines)
    assert any("trumps are" in line for line in on.lines)


def test_a_click_while_hidden_is_one_sentence_and_changes_nothing():
    game = Friend(NAMES, seed=7)
    state = game.state
    for act in (lambda: game.play(first_legal(game)), game.hint_text):
        with pytest.raises(FriendError) as refused:
            act()
        assert game.state is state and game.hidden
    assert str(refused.value).count(".") == 1 and "\n" not in str(refused.value)
    assert str(refused.value).startswith(("The cards are hidden", "Hints are off"))
    game.reveal()
    with pytest.raises(FriendError, match=r"^Ann's cards are already showing\.$|^Bo's cards are already showing\.$"):
        game.reveal()
    assert game.state is state and not game.hidden


def test_a_card_not_theirs_or_illegal_is_refused_with_the_engines_reason_and_changes_nothing():
    game = Friend(NAMES, seed=7)
    game.reveal()
    state, seat = game.state, game.to_play
    theirs = game.state.hand(1 - seat)[0]
    with pytest.raises(IllegalPlay) as refused:
        game.play(theirs)
    # Said without telling whose card it is.
    assert str(refused.value) == f"You do not hold {theirs}." and NAMES[1 - seat] not in str(refused.value)
    with pytest.raises(IllegalPlay):
        game.play("ZZ")
    assert game.state is state and not game.hidden
    # A card a duty forbids: the engine's own sentence.
    play_out(game, stop=lambda g: not g.hidden and any(not v.legal for v in g.verdicts()))
    refused_card = next(v for v in game.verdicts() if not v.legal)
    state = game.state
    with pytest.raises(IllegalPlay) as refused:
        game.play(refused_card.card)
    assert str(refused.value) == refused_card.reason and game.state is state and not game.hidden


def test_hints_are_off_unless_both_agree():
    for hints in ((False, False), (True, False), (False, True)):
        game = Friend(NAMES, hints=hints, seed=5)
        game.reveal()
        with pytest.raises(FriendError, match="^Hints are off: both players have to agree"):
            game.hint()
    game = Friend(NAMES, hints=(True, True), seed=5)
    game.reveal()
    card, text = game.hint_text()
    assert card in game.state.legal_cards() and text.startswith(f"Hint for {NAMES[game.to_play]}: play {card}.")


@pytest.mark.parametrize("names, says", [
    (("Ann",), "needs two names, not 1"),
    ("AnnBo", "needs two names, not 1"),
    (("", "Bo"), "The first player needs a name."),
    (("Ann", "   "), "The second player needs a name."),
    (("Ann", 7), "A name is text, not 7."),
    (("Ann", "x" * (NAME_LIMIT + 1)), f"A name has at most {NAME_LIMIT} characters"),
    (("Ann", "B\x07o"), "holds a control character"),
    (("Ann", " ann "), "both are called 'ann'"),
])
def test_bad_names_are_one_sentence(names, says):
    with pytest.raises(FriendError) as refused:
        Friend(names, seed=1)
    assert says in str(refused.value) and "\n" not in str(refused.value)


def test_names_are_trimmed_and_other_bad_input_is_refused():
    assert check_names(["  Ann  Lee ", "Bo"]) == ("Ann Lee", "Bo")
    with pytest.raises(FriendError, match="seats two players, but these rules are for 3"):
        Friend(NAMES, rules={"players": 3})
    with pytest.raises(FriendError, match="yes or no"):
        Friend(NAMES, hints=("yes", True))
    with pytest.raises(FriendError, match="A seed is a whole number"):
        Friend(NAMES, seed=-4)


def test_the_finished_deal_is_a_record_that_replays_to_the_same_deal_and_the_match_goes_on():
    game = Friend(NAMES, seed=9)
    play_out(game, stop=lambda g: len(g.state.plays) == 5)
    with pytest.raises(FriendError, match="^A record shows both hands"):
        game.record()
    with pytest.raises(FriendError, match="^Finish this deal first"):
        game.next_deal()
    play_out(game)
    read = records.loads(game.record_json())
    assert read.plays == game.state.plays and read.deal == game.state.deal and read.finished
    first = game.state
    game.next_deal()
    assert game.deal_number == 2 and game.hidden and game.state.dealer != first.dealer
    play_out(game)
    match = records.loads(game.record_json())
    assert [s.plays for s in match.states] == [first.plays, game.state.plays]


def test_the_review_rates_each_players_plays_from_that_players_own_side():
    game = Friend(NAMES, seed=4)
    with pytest.raises(FriendError, match="^The review comes once the deal is over"):
        game.review(2)
    play_out(game)
    reviews = game.review(samples=2)
    plays = {seat: [] for seat in (0, 1)}
    walk = game.state.deal.start()
    for card in game.state.plays:
        plays[walk.to_play].append(card)
        walk = walk.play(card)
    for seat in (0, 1):
        assert [r.card for r in reviews[seat]] == plays[seat] and {r.seat for r in reviews[seat]} == {seat}
        # The very ratings the sandbox's review gives that seat alone: each play is rated from
        # the view of the seat that made it.
        alone = review(game.state, seats=[seat], samples=2, seed=game.seed * 1000)
        assert [r.rating.values for r in reviews[seat]] == [r.rating.values for r in alone]


# -- the widget -------------------------------------------------------------------------------

_BUTTON = re.compile(r'class="cj-play([^"]*)" data-card="(\w+)"')


def table(names=NAMES, hints=(False, False), seed=7):
    from calijack.widgets.friend import FriendTable

    ft = FriendTable(seed=seed)
    for field, name in zip(ft.name_inputs, names):
        field.value = name
    for box, agreed in zip(ft.hint_boxes, hints):
        box.value = agreed
    ft.start()
    return ft


def message(ft) -> str:
    return unescape(re.sub(r"<[^>]+>", "", ft.table.message_html))


def page_text(ft) -> str:
    """Everything the table widget puts in the page: its HTML (with every label) and what it announced last."""
    return unescape(ft.table.table_html + ft.table.message_html + ft.table.sheet_html
                    + (ft.table.announced[-1] if ft.table.announced else ""))


def test_the_widget_hides_both_hands_between_turns_and_plays_a_whole_deal():
    ft = table()
    game = ft.game
    assert ft.setup.layout.display == "none" and ft.game_box.layout.display == "flex"
    seen_pass = 0
    while not game.finished:
        if game.hidden:
            seen_pass += 1
            html = page_text(ft)
            assert 'data-phase="pass"' in html and "cj-play" not in html and "Your hand" not in html
            hidden_cards = secrets(game, 0) | secrets(game, 1)
            assert [w for w in card_words(hidden_cards) if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", html)] == []
            assert 'data-action="reveal"' in html and ft.table.actions == {}
            ft.press("reveal")
            continue
        shown = [code for _cls, code in _BUTTON.findall(ft.table.table_html)]
        assert shown == [c.code for c in game.state.hand(game.to_play)]
        legal = [code for cls, code in _BUTTON.findall(ft.table.table_html) if "cj-can" in cls.split()]
        ft.play(legal[0])
    assert seen_pass > game.rules.tricks
    assert "Score sheet" in ft.table.sheet_html and ft.end_box.layout.display == "flex"
    assert set(ft.table.actions) == {"review", "next"}


def test_a_click_while_hidden_on_the_page_is_one_sentence_and_changes_nothing():
    ft = table()
    before = ft.table.table_html
    hand = ft.game.state.hand(ft.game.to_play)
    ft.play(hand[0])
    assert message(ft).startswith("The cards are hidden:") and ft.table.table_html == before
    ft.table._receive(ft.table, {"action": "steal"})
    assert message(ft) == "That click was not understood, so nothing was played."
    ft.press("undo")  # a sandbox action this table does not have
    assert message(ft) == "That button does nothing at this table, so nothing changed."
    assert ft.table.table_html == before and ft.game.hidden and not ft.game.state.plays


def test_an_illegal_card_on_the_page_says_why_and_the_hint_needs_both():
    ft = table(hints=(True, False))
    ft.press("reveal")
    assert "hint" not in ft.table.actions
    ft.press("hint")
    assert message(ft).startswith("Hints are off")
    play_out(ft.game, stop=lambda g: not g.hidden and any(not v.legal for v in g.verdicts()))
    ft._render()
    refused = next(v for v in ft.game.verdicts() if not v.legal)
    before = ft.table.table_html
    ft.play(refused.card)
    assert message(ft) == f"{refused.card} cannot be played. {refused.reason}" and ft.table.table_html == before

    both = table(hints=(True, True))
    both.press("reveal")
    assert both.table.actions == {"hint": True}
    both.press("hint")
    hinted = both.game.hint().card
    assert message(both).startswith(f"Hint for {NAMES[both.game.to_play]}: play {hinted}.")
    assert f'cj-hinted" data-card="{hinted.code}"' in both.table.table_html
    # Played, and passed: the hint's words leave the page with the hand (the announcement too).
    legal = both.game.state.legal_cards()
    both.play(legal[0])
    if both.game.hidden:
        assert "Hint for" not in page_text(both)


def test_bad_names_in_the_form_are_one_sentence_and_nothing_starts():
    from calijack.widgets.friend import FriendTable

    ft = FriendTable(seed=3)
    ft.name_inputs[1].value = "ann"
    ft.name_inputs[0].value = "Ann"
    ft.start()
    assert ft.game is None and "both are called 'ann'" in unescape(ft.setup_message.value)
    assert ft.game_box.layout.display == "none"


def test_review_shows_both_players_and_the_record_is_the_deal(monkeypatch):
    monkeypatch.setenv("CALIJACK_REVIEW_SAMPLES", "2")
    ft = table(seed=4)
    play_out(ft.game)
    ft._render()
    ft.press("review")
    reviews = ft.game.review(2)
    for seat, name in enumerate(NAMES):
        assert len(ft.review_boards[seat].steps) == len(reviews[seat])
        assert f"{name}'s plays, each shown as {name} saw the table" in unescape(ft.review_heads[seat].value)
    assert message(ft).startswith("The review is ready: Ann: ") and "review" not in ft.table.actions
    ft.save_button.click()
    assert json.loads(ft.record_text.value) == ft.game.record()
    ft.new_game_button.click()
    assert ft.game is None and ft.setup.layout.display == "flex"


def test_the_books_preview_shows_the_screens_in_order_without_a_button():
    from calijack.widgets.friend import friend_preview

    demo = friend_preview(seed=7, plays=4)
    frames = [w.value for w in demo.stack.children]
    assert 'data-phase="pass"' in frames[0] and 'data-phase="play"' in frames[1]
    assert all("<button" not in f for f in frames)
    assert "Pass to Ann, then tap." in frames[0]
