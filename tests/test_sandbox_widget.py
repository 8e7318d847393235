"""The sandbox widget, operated the way clicks do: ``button.click()`` and setting values."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import re
from urllib.parse import unquote

import pytest

from calijack import Deal, Rules
from calijack.cards import DECK
from calijack.play import Session, available_opponents
from calijack.rules import OPTIONS
from calijack.widgets.sandbox import Sandbox


def sandbox(seed: int = 21, **options) -> Sandbox:
    """A sandbox with no pause between steps (clicks are handled at once)."""
    return Sandbox(seed=seed, opponent="random", delay=0, **options)


def shown_hand(sb: Sandbox):
    """The cards of the buttons in the hand row, in order."""
    by_button = {id(b): c for c, b in sb.card_buttons.items()}
    return [by_button[id(b)] for b in sb.hand_box.children]


def classes(sb: Sandbox, card) -> tuple[str, ...]:
    return sb.card_buttons[card]._dom_classes


def legal_shown(sb: Sandbox):
    return [c for c in shown_hand(sb) if "cj-legal" in classes(sb, c)]


def illegal_shown(sb: Sandbox):
    return [c for c in shown_hand(sb) if "cj-illegal" in classes(sb, c)]


def table_plays(sb: Sandbox) -> int:
    return int(re.search(r'data-plays="(\d+)"', sb.table.value).group(1))


def message(sb: Sandbox) -> str:
    return re.sub(r"<[^>]+>", "", sb.message.value).replace("&#x27;", "'")


def with_illegal() -> Sandbox:
    """A sandbox where an illegal card is shown, reached by clicking legal cards."""
    for seed in range(30, 130):
        sb = sandbox(seed)
        while not illegal_shown(sb) and not sb.session.finished:
            sb.card_buttons[legal_shown(sb)[0]].click()
        if illegal_shown(sb):
            return sb
    raise AssertionError("no illegal card shown in 100 deals")


def snapshot(sb: Sandbox):
    return sb.session.state, sb.table.value, tuple(shown_hand(sb)), sb.log_view.value


def test_the_widget_shows_the_sessions_hand_with_the_engines_verdicts():
    sb = with_illegal()
    assert "cj-sandbox" in sb._dom_classes
    state = sb.session.state
    assert shown_hand(sb) == state.hand(0)
    for verdict in state.verdicts():
        assert ("cj-legal" if verdict.legal else "cj-illegal") in classes(sb, verdict.card)
        assert sb.card_buttons[verdict.card].tooltip == verdict.reason
        assert sb.card_buttons[verdict.card].description == str(verdict.card)
    assert f'data-plays="{len(state.plays)}"' in sb.table.value


def test_every_control_has_its_class():
    sb = sandbox()
    for widget, cls in [(sb.hint_button, "cj-hint"), (sb.undo_button, "cj-undo"), (sb.message, "cj-message"),
                        (sb.new_deal_button, "cj-new-deal"), (sb.next_deal_button, "cj-next-deal"),
                        (sb.log_view, "cj-log"), (sb.seed_input, "cj-seed"), (sb.reveal_toggle, "cj-reveal"),
                        (sb.save_button, "cj-save"), (sb.load_button, "cj-load"), (sb.record_text, "cj-record"),
                        (sb.replay_slider, "cj-replay"), (sb.score_sheet, "cj-score")]:
        assert cls in widget._dom_classes
    assert all("cj-hand-card" in b._dom_classes for b in sb.card_buttons.values())
    assert set(sb.rule_controls) == set(OPTIONS)
    assert tuple(sb.opponent_picker.options) == available_opponents()


def test_clicking_a_legal_card_plays_it_and_the_computers_answer():
    sb = sandbox()
    mirror = Session(seed=21, opponent="random")
    card = legal_shown(sb)[0]
    sb.card_buttons[card].click()
    steps = mirror.play(card)
    assert sb.session.state == mirror.state
    assert table_plays(sb) == len(mirror.state.plays)
    assert shown_hand(sb) == mirror.hand
    assert card not in shown_hand(sb)
    for step in steps:  # what happened is on the table's note line
        assert step.text.replace("'", "&#x27;") in sb.table.value
    assert "Trick 1:" in sb.log_view.value


def test_clicking_an_illegal_card_shows_the_reason_and_plays_nothing():
    sb = with_illegal()
    card = illegal_shown(sb)[0]
    before = snapshot(sb)
    sb.card_buttons[card].click()
    assert snapshot(sb) == before
    assert message(sb) == f"{card} cannot be played. {sb.session.state.explain(card).reason}"
    assert "cj-reason" in sb.message.value


def test_a_double_click_plays_the_card_once():
    sb = sandbox()
    card = legal_shown(sb)[0]
    button = sb.card_buttons[card]
    button.click()
    after = snapshot(sb)
    button.click()  # the card is gone: nothing else is played in its place
    assert snapshot(sb) == after
    assert message(sb) == f"{card} is not in your hand any more."


def test_clicks_while_the_computer_is_playing_are_ignored():
    sb = sandbox()
    sb.busy = True
    before = snapshot(sb)
    for button in [sb.card_buttons[c] for c in shown_hand(sb)] + [sb.hint_button, sb.undo_button,
                                                                  sb.new_deal_button, sb.load_button]:
        button.click()
    assert snapshot(sb) == before
    assert "Wait a moment" in message(sb)


def test_in_a_live_kernel_steps_are_shown_one_by_one_and_a_second_click_is_ignored():
    async def scenario():
        sb = Sandbox(seed=7, opponent="random", delay=0.01)  # seed 7: the learner leads trick 1
        first, second = shown_hand(sb)[:2]
        frames = []
        sb.table.observe(lambda ch: frames.append(ch["new"]), "value")
        sb.card_buttons[first].click()
        assert sb.busy and "cj-busy" in sb._dom_classes
        sb.card_buttons[second].click()  # arrives while the computer's cards are shown
        while sb.busy:
            await asyncio.sleep(0.005)
        return sb, first, second, frames

    # A thread of its own: Playwright's session-wide browser (tests/browser, collected earlier)
    # keeps an event loop running in this thread, and asyncio.run refuses to nest.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        sb, first, second, frames = pool.submit(asyncio.run, scenario()).result()
    mirror = Session(seed=7, opponent="random")
    mirror.play(first)
    assert sb.session.state == mirror.state and second in shown_hand(sb)
    assert sb.ignored_clicks == 1 and 'data-ignored="1"' in sb.status.value
    assert len(frames) >= 2 and 'data-settled="0"' in frames[0] and 'data-settled="1"' in frames[-1]
    assert "cj-busy" not in sb._dom_classes


def test_undo_restores_the_exact_earlier_state():
    sb = sandbox()
    start = snapshot(sb)
    sb.undo_button.click()  # nothing to undo yet
    assert snapshot(sb) == start and "Nothing to undo" in message(sb)
    assert sb.undo_button.disabled
    sb.card_buttons[legal_shown(sb)[0]].click()
    middle = snapshot(sb)
    sb.card_buttons[legal_shown(sb)[0]].click()
    sb.undo_button.click()
    assert (sb.session.state, shown_hand(sb)) == (middle[0], list(middle[2]))
    assert table_plays(sb) == len(middle[0].plays)
    sb.undo_button.click()
    assert (sb.session.state, shown_hand(sb)) == (start[0], list(start[2]))
    assert table_plays(sb) == len(start[0].plays) and sb.undo_button.disabled


def test_hint_highlights_a_legal_card_with_its_reason():
    sb = with_illegal()
    sb.hint_button.click()
    hinted = [c for c in shown_hand(sb) if "cj-hinted" in classes(sb, c)]
    assert len(hinted) == 1 and hinted[0] in sb.session.state.legal_cards()
    assert message(sb).startswith(f"Hint: play {hinted[0]}. ")


def assert_sheet_matches(sheet: str, result) -> None:
    """Each point on the sheet is earned by the seat the engine's result says."""
    rows = re.findall(r'<tr class="cj-award" data-point="(\w+)">.*?data-seat="(\d*)"', sheet)
    assert rows == [(a.name, "" if a.seat is None else str(a.seat)) for a in result.awards]
    for seat, pips in enumerate(result.pips):
        assert f'<tr class="cj-seat-values" data-seat="{seat}">' in sheet
        assert re.search(rf'data-seat="{seat}">.*?cj-total" data-value="{pips}"', sheet, re.S)


def test_a_whole_deal_played_by_clicks_ends_with_the_score_sheet():
    sb = sandbox(22)
    assert sb.end_box.layout.display == "none"
    clicks = 0
    while not sb.session.finished:
        sb.card_buttons[legal_shown(sb)[0]].click()
        clicks += 1
    state = sb.session.state
    assert clicks >= 10 and len(state.tricks) == 26
    assert sb.end_box.layout.display == "flex"
    assert_sheet_matches(sb.score_sheet.value, state.result())
    assert "Match score" in sb.score_sheet.value
    assert sb.hint_button.disabled and not sb.next_deal_button.disabled
    assert shown_hand(sb) == []
    # Replay: the slider walks back through every card.
    assert sb.replay_slider.max == 52 and sb.replay_slider.value == 52
    sb.replay_slider.value = 0
    assert "the deal as dealt" in sb.replay_view.value
    sb.replay_slider.value = 3
    assert f"after card 3 of 52 ({state.plays[2]})" in sb.replay_view.value
    # Next deal carries the match on.
    sb.next_deal_button.click()
    assert sb.session.deal_number == 2 and sb.end_box.layout.display == "none"
    assert sb.session.match_before.scores == state.result().points


def test_next_deal_before_the_end_changes_nothing():
    sb = sandbox()
    before = snapshot(sb)
    assert sb.next_deal_button.disabled
    sb.next_deal_button.click()
    assert snapshot(sb) == before and "Finish this deal first" in message(sb)


def test_new_deal_uses_the_seed_and_the_rule_options():
    sb = sandbox()
    sb.rule_controls["stock"].value = "closed"
    sb.rule_controls["target"].value = 7
    assert sb.session.rules == Rules()  # the deal in progress keeps its rules
    assert "Next new deal" in message(sb)
    sb.seed_input.value = 99
    sb.new_deal_button.click()
    assert sb.session.rules == Rules(stock="closed", target=7)
    assert sb.session.state.deal == Deal.random(99, Rules(stock="closed", target=7))
    assert shown_hand(sb) == sb.session.hand


def test_a_bad_rule_value_is_explained_and_not_used():
    sb = sandbox()
    sb.rule_controls["target"].value = 0
    assert "target" in message(sb) and "at least 1" in message(sb)
    assert sb.session.pending_rules == Rules()


def test_three_players_from_the_rule_options():
    sb = sandbox()
    sb.rule_controls["players"].value = 3
    sb.new_deal_button.click()
    assert sb.session.rules.players == 3 and "Left" in sb.table.value and "Right" in sb.table.value


def test_show_all_cards_reveals_the_computers_hand():
    sb = sandbox()
    hidden = [c for c in sb.session.state.hand(1)]
    assert not all(f'data-card="{c.code}"' in sb.table.value for c in hidden)
    sb.reveal_toggle.value = True
    assert all(f'data-card="{c.code}"' in sb.table.value for c in hidden)


def test_opponent_chooser_switches_the_computer_player():
    sb = sandbox()
    sb.opponent_picker.value = available_opponents()[-1]
    assert sb.session.opponent == available_opponents()[-1]


def test_save_then_load_round_trips():
    sb = sandbox(23)
    for _ in range(3):
        sb.card_buttons[legal_shown(sb)[0]].click()
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
    sb.hint_button.click()
    assert "Something went wrong" in message(sb) and "Nothing was changed" in message(sb)
    assert snapshot(sb) == before


@pytest.mark.parametrize("card", [DECK[0], DECK[51]])
def test_buttons_belong_to_their_card_for_good(card):
    sb = sandbox()
    assert sb.card_buttons[card].description == str(card)
    assert ("cj-red" in sb.card_buttons[card]._dom_classes) == card.suit.is_red


def test_a_failing_computer_player_leaves_the_game_as_it_was(monkeypatch):
    sb = sandbox(7)  # the learner leads, so the computer must answer
    before = snapshot(sb)

    def broken(view, rng):
        raise RuntimeError("the computer player broke")

    monkeypatch.setattr(sb.session._opponent, "choose", broken)
    sb.card_buttons[legal_shown(sb)[0]].click()
    assert snapshot(sb) == before and "Nothing was changed" in message(sb)
    # A new deal in which the computer leads first: it fails there too, and nothing changes.
    sb.seed_input.value = next(k for k in range(8, 99) if Deal.random(k).first_leader == 1)
    sb.new_deal_button.click()
    assert snapshot(sb) == before and sb.session.seed == 7 and "Nothing was changed" in message(sb)
