"""The sandbox widget, operated the way the page does: the table's messages and setting values."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import re
from html import unescape
from urllib.parse import unquote

import ipywidgets as widgets
import pytest

from calijack import Deal, Rules
from calijack.cards import Card
from calijack.play import Session, available_opponents
from calijack.rules import OPTIONS
from calijack.widgets.sandbox import Sandbox
from calijack.widgets.table import CardTable

from ipywidgets.widgets.widget import _instances as widget_instances  # every live widget model, by id

_BUTTON = re.compile(r'<button type="button" class="cj-play([^"]*)" data-card="(\w+)" tabindex="(-?\d)" '
                     r'aria-label="([^"]*)"')


def sandbox(seed: int = 21, **options) -> Sandbox:
    """A sandbox with no pause between steps (clicks are handled at once)."""
    return Sandbox(seed=seed, opponent="random", delay=0, **options)


def buttons(sb: Sandbox) -> list[tuple[Card, set[str], str]]:
    """The card buttons on the table, in order: (card, classes, accessible name)."""
    return [(Card.parse(code), set(cls.split()), unescape(name))
            for cls, code, _tab, name in _BUTTON.findall(sb.table.table_html)]


def shown_hand(sb: Sandbox) -> list[Card]:
    return [card for card, _cls, _name in buttons(sb)]


def classes(sb: Sandbox, card) -> set[str]:
    return next(cls for c, cls, _name in buttons(sb) if c is card)


def legal_shown(sb: Sandbox):
    return [c for c, cls, _ in buttons(sb) if "cj-can" in cls]


def illegal_shown(sb: Sandbox):
    return [c for c, cls, _ in buttons(sb) if "cj-cannot" in cls]


def table_plays(sb: Sandbox) -> int:
    return int(re.search(r'data-plays="(\d+)"', sb.table.table_html).group(1))


def message(sb: Sandbox) -> str:
    return unescape(re.sub(r"<[^>]+>", "", sb.table.message_html))


def with_illegal() -> Sandbox:
    """A sandbox where an illegal card is shown, reached by clicking legal cards."""
    for seed in range(30, 130):
        sb = sandbox(seed)
        while not illegal_shown(sb) and not sb.session.finished:
            sb.play(legal_shown(sb)[0])
        if illegal_shown(sb):
            return sb
    raise AssertionError("no illegal card shown in 100 deals")


def snapshot(sb: Sandbox):
    return sb.session.state, sb.table.table_html, tuple(shown_hand(sb)), sb.log_view.value


def test_one_sandbox_creates_at_most_150_widget_models():
    before = set(widget_instances)
    sb = sandbox()
    made = set(widget_instances) - before
    # Issue 13: 30 learners' sandboxes start on one 2-core machine. It was 314 with a
    # button per card of the pack; the table is one widget now.
    assert 40 <= len(made) <= 150, len(made)
    assert sb.table.model_id in made


def test_the_hand_on_the_table_is_the_control_with_the_engines_verdicts():
    sb = with_illegal()
    assert "cj-sandbox" in sb._dom_classes
    state = sb.session.state
    assert shown_hand(sb) == state.hand(0)
    for verdict in state.verdicts():
        cls = classes(sb, verdict.card)
        name = next(n for c, _cls, n in buttons(sb) if c is verdict.card)
        if verdict.legal:
            assert "cj-can" in cls and name.startswith(f"{verdict.card.name}, playable")
        else:
            reason = verdict.reason.rstrip(".")
            assert "cj-cannot" in cls
            assert name.startswith(f"{verdict.card.name}, not playable: {reason[:1].lower()}{reason[1:]}")
    # One tab stop in the hand (the arrow keys move it).
    assert [tab for *_x, tab, _n in _BUTTON.findall(sb.table.table_html)].count("0") == 1
    assert f'data-plays="{len(state.plays)}"' in sb.table.table_html
    # The text-button hand is gone: no other widget shows the cards.
    assert not any(isinstance(w, widgets.Button) and re.fullmatch(r"(10|[2-9JQKA])[♣♦♥♠]", w.description)
                   for w in widget_instances.values())


def test_every_control_has_its_class():
    sb = sandbox()
    for widget, cls in [(sb.table, "cj-table-view"), (sb.new_deal_button, "cj-new-deal"),
                        (sb.log_view, "cj-log"), (sb.seed_input, "cj-seed"), (sb.reveal_toggle, "cj-reveal"),
                        (sb.four_color_toggle, "cj-four-color"),
                        (sb.save_button, "cj-save"), (sb.load_button, "cj-load"), (sb.record_text, "cj-record"),
                        (sb.replay_slider, "cj-replay"), (sb.end_box, "cj-end"),
                        (sb.opponent_about, "cj-opponent-about")]:
        assert cls in widget._dom_classes
    assert isinstance(sb.table, CardTable)
    assert sb.table.actions == {"hint": True, "undo": False}
    assert set(sb.rule_controls) == set(OPTIONS)
    # The levels by their labels, then the tool's player this sandbox was made with ("random").
    assert [value for _label, value in sb.opponent_picker.options] == [*available_opponents(), "random"]


def test_clicking_a_legal_card_plays_it_and_the_computers_answer():
    sb = sandbox()
    mirror = Session(seed=21, opponent="random")
    card = legal_shown(sb)[0]
    sb.play(card)
    steps = mirror.play(card)
    assert sb.session.state == mirror.state
    assert table_plays(sb) == len(mirror.state.plays)
    assert shown_hand(sb) == mirror.hand
    assert card not in shown_hand(sb)
    for step in steps:  # what happened is on the table's note line
        assert step.text.replace("'", "&#x27;") in sb.table.table_html
    assert "Trick 1:" in sb.log_view.value
    # The live region hears what the computer did, the trick's winner and the draws, not your own card.
    heard = sb.table.announced[-1]
    assert all(s.text in heard for s in steps if s.seat != 0 or s.kind != "play")
    assert f"You play {card}." not in heard and f"You lead {card}." not in heard


def test_clicking_an_illegal_card_shows_the_reason_and_plays_nothing():
    sb = with_illegal()
    card = illegal_shown(sb)[0]
    before = snapshot(sb)
    sb.play(card)
    assert snapshot(sb) == before
    assert message(sb) == f"{card} cannot be played. {sb.session.state.explain(card).reason}"
    assert "cj-reason" in sb.table.message_html
    assert sb.table.announced[-1] == message(sb)  # read out too


def test_a_double_click_plays_the_card_once():
    sb = sandbox()
    card = legal_shown(sb)[0]
    sb.play(card)
    after = snapshot(sb)
    sb.play(card)  # the card is gone: nothing else is played in its place
    assert snapshot(sb) == after
    assert message(sb) == f"{card} is not in your hand any more."


@pytest.mark.parametrize("content", [None, [], "play", {}, {"action": "cheat"}, {"action": "play"},
                                     {"action": "play", "card": 12}, {"action": "play", "card": "X" * 10_000},
                                     {"action": "play", "card": "ZZ"}])
def test_a_malformed_message_from_the_page_is_explained_and_changes_nothing(content):
    sb = sandbox()
    before = snapshot(sb)
    sb.table._receive(sb.table, content, [])
    assert snapshot(sb) == before
    assert "cj-error" in sb.table.message_html and "nothing was played" in message(sb).lower() or \
        "not a card" in message(sb).lower() or "card" in message(sb).lower()
    assert len(message(sb)) < 200


def test_clicks_while_the_computer_is_playing_are_ignored():
    sb = sandbox()
    sb.busy = True
    before = snapshot(sb)
    for card in shown_hand(sb):
        sb.play(card)
    for action in ("hint", "undo", "next"):
        sb.press(action)
    for button in (sb.new_deal_button, sb.load_button):
        button.click()
    assert snapshot(sb) == before
    assert "Wait a moment" in message(sb)


def test_in_a_live_kernel_steps_are_shown_one_by_one_and_a_second_click_is_ignored():
    async def scenario():
        sb = Sandbox(seed=7, opponent="random", delay=0.01)  # seed 7: the learner leads trick 1
        first, second = shown_hand(sb)[:2]
        frames = []
        sb.table.observe(lambda ch: frames.append(ch["new"]), "table_html")
        sb.play(first)
        assert sb.busy and sb.table.busy
        sb.play(second)  # arrives while the computer's cards are shown

        async def settled():
            while sb.busy:
                await asyncio.sleep(0.005)

        await asyncio.wait_for(settled(), timeout=60)  # steps that never settle fail the test, not the run
        return sb, first, second, frames

    # A thread of its own: Playwright's session-wide browser (tests/browser, collected earlier)
    # keeps an event loop running in this thread, and asyncio.run refuses to nest.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        sb, first, second, frames = pool.submit(asyncio.run, scenario()).result()
    mirror = Session(seed=7, opponent="random")
    mirror.play(first)
    assert sb.session.state == mirror.state and second in shown_hand(sb)
    assert sb.ignored_clicks == 1 and sb.table.status["ignored"] == 1 and sb.table.status["settled"] == 1
    assert len(frames) >= 2 and 'data-settled="0"' in frames[0] and 'data-settled="1"' in frames[-1]
    assert not sb.table.busy


def test_undo_restores_the_exact_earlier_state():
    sb = sandbox()
    start = snapshot(sb)
    sb.press("undo")  # nothing to undo yet
    assert snapshot(sb) == start and "Nothing to undo" in message(sb)
    assert not sb.table.actions["undo"]
    sb.play(legal_shown(sb)[0])
    middle = snapshot(sb)
    sb.play(legal_shown(sb)[0])
    sb.press("undo")
    assert (sb.session.state, shown_hand(sb)) == (middle[0], list(middle[2]))
    assert table_plays(sb) == len(middle[0].plays)
    sb.press("undo")
    assert (sb.session.state, shown_hand(sb)) == (start[0], list(start[2]))
    assert table_plays(sb) == len(start[0].plays) and not sb.table.actions["undo"]


def test_hint_highlights_a_legal_card_with_its_reason():
    sb = with_illegal()
    sb.press("hint")
    hinted = [c for c in shown_hand(sb) if "cj-hinted" in classes(sb, c)]
    assert len(hinted) == 1 and hinted[0] in sb.session.state.legal_cards()
    assert message(sb).startswith(f"Hint: play {hinted[0]}. ")
    name = next(n for c, _cls, n in buttons(sb) if c is hinted[0])
    assert name.startswith(f"{hinted[0].name}, playable, the hint's choice")


def assert_sheet_matches(sheet: str, result) -> None:
    """Each point on the sheet is earned by the seat the engine's result says."""
    rows = re.findall(r'<tr class="cj-award" data-point="(\w+)"[^>]*>.*?data-seat="(\d*)"', sheet)
    assert rows == [(a.name, "" if a.seat is None else str(a.seat)) for a in result.awards]
    for seat, pips in enumerate(result.pips):
        assert f'<tr class="cj-seat-values" data-seat="{seat}">' in sheet
        assert re.search(rf'data-seat="{seat}">.*?cj-total" data-value="{pips}"', sheet, re.S)


def test_a_whole_deal_played_by_clicks_ends_with_the_score_sheet():
    sb = sandbox(22)
    assert sb.end_box.layout.display == "none" and sb.table.sheet_html == ""
    clicks = 0
    while not sb.session.finished:
        assert "click or tap a card to play it" in sb.table.table_html
        sb.play(legal_shown(sb)[0])
        clicks += 1
    state = sb.session.state
    assert clicks >= 10 and len(state.tricks) == 26
    assert sb.end_box.layout.display == "flex"
    assert_sheet_matches(sb.table.sheet_html, state.result())
    assert "Match score" in sb.table.sheet_html
    assert sb.table.actions == {"hint": False, "undo": True, "next": True, "review": True, "compare": True}
    assert shown_hand(sb) == []
    assert "click or tap a card" not in sb.table.table_html  # nothing left to click
    # Replay: the slider walks back through every card.
    assert sb.replay_slider.max == 52 and sb.replay_slider.value == 52
    sb.replay_slider.value = 0
    assert "the deal as dealt" in sb.replay_view.value
    sb.replay_slider.value = 3
    assert f"after card 3 of 52 ({state.plays[2]})" in sb.replay_view.value
    # Next deal carries the match on.
    sb.press("next")
    assert sb.session.deal_number == 2 and sb.end_box.layout.display == "none"
    assert sb.session.match_before.scores == state.result().points


def test_next_deal_before_the_end_changes_nothing():
    sb = sandbox()
    before = snapshot(sb)
    assert "next" not in sb.table.actions  # not offered
    sb.press("next")
    assert snapshot(sb) == before and "Finish this deal first" in message(sb)


def test_new_deal_uses_the_seed_and_the_rule_options():
    sb = sandbox()
    sb.rule_controls["stock"].value = "closed"
    sb.rule_controls["target"].value = 7
    assert sb.session.rules == Rules()  # the deal in progress keeps its rules
    assert message(sb) == ("Next new deal: Match points needed to win: 7; "
                           "The card the trick's loser draws: is seen only by the loser.")
    sb.seed_input.value = 99
    sb.new_deal_button.click()
    assert sb.session.rules == Rules(stock="closed", target=7)
    assert sb.session.state.deal == Deal.random(99, Rules(stock="closed", target=7))
    assert shown_hand(sb) == sb.session.hand


def test_a_bad_rule_value_is_explained_and_not_used():
    sb = sandbox()
    sb.rule_controls["target"].value = 0
    assert "at least 1" in message(sb)
    assert sb.session.pending_rules == Rules()


def test_three_players_from_the_rule_options():
    sb = sandbox()
    sb.rule_controls["players"].value = 3
    sb.new_deal_button.click()
    assert sb.session.rules.players == 3 and "Left" in sb.table.table_html and "Right" in sb.table.table_html


def test_show_all_cards_reveals_the_computers_hand():
    sb = sandbox()
    hidden = [c for c in sb.session.state.hand(1)]
    assert not all(f'data-card="{c.code}"' in sb.table.table_html for c in hidden)
    sb.reveal_toggle.value = True
    assert all(f'data-card="{c.code}"' in sb.table.table_html for c in hidden)


def test_four_colour_suits_is_an_option():
    sb = sandbox()
    assert "#12793a" not in sb.table.table_html and "#1c5bbf" not in sb.table.table_html
    sb.four_color_toggle.value = True
    assert "#12793a" in sb.table.table_html or "#1c5bbf" in sb.table.table_html


def test_rule_options_speak_plain_words():
    sb = sandbox()
    shown = []
    for name, control in sb.rule_controls.items():
        shown.append(control.description)
        shown += [label for label, _value in getattr(control, "options", ())]
        assert control.description == OPTIONS[name].label
    text = " ".join(shown)
    for raw in ("void_duty", "high_low", "pips", "must_trump", "ten_of_trumps", "source", "002", "_"):
        assert raw not in text, raw
    assert "you may play anything" in text and "you must trump if you can (standard)" in text


def test_opponent_chooser_switches_the_computer_player():
    sb = sandbox()
    sb.opponent_picker.value = available_opponents()[-1]
    assert sb.session.opponent == available_opponents()[-1]


def test_opponent_chooser_offers_the_levels_and_says_how_each_plays():
    from calijack.players import LEVELS

    sb = Sandbox(seed=3, delay=0)
    assert sb.session.opponent == "casual" and sb.opponent_picker.value == "casual"
    assert [label for label, _value in sb.opponent_picker.options] == ["Beginner", "Casual", "Strong", "Expert"]
    assert unescape(sb.opponent_about.value) == f'<p class="cj-small">{LEVELS["casual"].about}</p>'
    for name, level in LEVELS.items():
        sb.opponent_picker.value = name
        assert sb.session.opponent == name and level.about in unescape(sb.opponent_about.value)
        assert f"You now play against the {level.label} computer player." in unescape(sb.table.message_html)


def test_save_then_load_round_trips():
    sb = sandbox(23)
    for _ in range(3):
        sb.play(legal_shown(sb)[0])
    sb.save_button.click()
    text = sb.record_text.value
    assert json.loads(text) == sb.session.record()
    href = re.search(r'href="data:application/json;charset=utf-8,([^"]+)"', sb.download.value).group(1)
    assert unquote(href) == text
    other = sandbox(5)
    other.record_text.value = text
    other.load_button.click()
    assert other.session.state == sb.session.state
    assert shown_hand(other) == shown_hand(sb) and "Record loaded" in message(other)


def test_loading_a_bad_record_explains_and_changes_nothing():
    sb = sandbox()
    before = snapshot(sb)
    for text in ["", "{", json.dumps({"dealer": 0, "hands": [], "stock": []})]:
        sb.record_text.value = text
        sb.load_button.click()
        assert snapshot(sb) == before
        assert message(sb).startswith("That record cannot be loaded: ")


def test_a_record_stopped_on_the_computers_turn_plays_on_when_loaded():
    session = Session(seed=24, opponent="random")
    for _ in range(3):
        session.play(next(v.card for v in session.verdicts() if v.legal))
    state = session.state
    # Cut the record just before a card of the computer's.
    cut = max(k for k in range(len(state.plays)) if state.rewind(k).to_play == 1)
    record = {**session.record(), "plays": [c.code for c in state.plays[:cut]]}
    sb = sandbox()
    sb.record_text.value = json.dumps(record)
    sb.load_button.click()
    assert sb.session.your_turn and len(sb.session.state.plays) > cut
    assert sb.session.state.plays[:cut] == state.plays[:cut]
    assert shown_hand(sb) == sb.session.hand


def test_no_error_reaches_the_learner_as_a_traceback(monkeypatch):
    sb = sandbox()
    before = snapshot(sb)

    def broken(*_args, **_kw):
        raise RuntimeError("boom")

    monkeypatch.setattr(sb.session, "hint", broken)
    sb.press("hint")
    assert "Something went wrong" in message(sb) and "Nothing was changed" in message(sb)
    assert snapshot(sb) == before


def test_an_unexpected_error_is_logged_with_its_traceback_and_the_learner_reads_one_sentence(monkeypatch, caplog):
    sb = sandbox()

    def broken(*_args, **_kw):
        raise RuntimeError("boom")

    monkeypatch.setattr(sb.session, "hint", broken)
    with caplog.at_level(logging.ERROR, logger="calijack.sandbox"):
        sb.press("hint")
    logged = [r for r in caplog.records if r.name == "calijack.sandbox"]
    assert len(logged) == 1 and logged[0].levelno == logging.ERROR
    assert logged[0].exc_info and isinstance(logged[0].exc_info[1], RuntimeError)
    assert "Traceback (most recent call last)" in caplog.text and "RuntimeError: boom" in caplog.text
    assert message(sb) == "Something went wrong (RuntimeError: boom). Nothing was changed."
    # The learner's own mistakes are answered, not logged.
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="calijack.sandbox"):
        sb.press("undo")
    assert "Nothing to undo" in message(sb)
    assert not [r for r in caplog.records if r.name == "calijack.sandbox"]


def test_a_failing_computer_player_leaves_the_game_as_it_was(monkeypatch):
    sb = sandbox(7)  # the learner leads, so the computer must answer
    before = snapshot(sb)

    def broken(view, rng):
        raise RuntimeError("the computer player broke")

    monkeypatch.setattr(sb.session._opponent, "choose", broken)
    sb.play(legal_shown(sb)[0])
    assert snapshot(sb) == before and "Nothing was changed" in message(sb)
    # A new deal in which the computer leads first: it fails there too, and nothing changes.
    sb.seed_input.value = next(k for k in range(8, 99) if Deal.random(k).first_leader == 1)
    sb.new_deal_button.click()
    assert snapshot(sb) == before and sb.session.seed == 7 and "Nothing was changed" in message(sb)


@pytest.mark.parametrize("text, expected", [(None, 0.35), ("0.05", 0.05), ("0", 0.0), ("abc", 0.35), ("-1", 0.35),
                                            ("nan", 0.35), ("inf", 0.35), ("9", 0.35)])
def test_the_computers_pause_setting_is_checked_and_a_bad_one_is_ignored(text, expected):
    from calijack.widgets.sandbox import DELAY, DELAY_ENV, delay_setting

    assert DELAY == 0.35
    assert delay_setting({} if text is None else {DELAY_ENV: text}) == expected
