"""calijack.widgets.demos: frames from the engine, both modes alike, bad input refused.

Static mode: the frame count and each frame's facts are checked against engine calls, frames
differ, and the control is ``jslink``ed to the stack. Live mode: moving the control runs the
Python callback, which must show exactly the HTML of the static frame.
"""

from __future__ import annotations

import json
import re
from html import escape

import ipywidgets as widgets
import pytest
from ipywidgets.embed import dependency_state
from ipywidgets.widgets.widget_link import Link

from calijack import DECK, Card, Deal, Rules, Suit
from calijack.cards import sort_cards
from calijack.rules import OPTIONS
from calijack.widgets import demo_base
from calijack.widgets import demos
from calijack.widgets.demo_deal import SCORING_OPTIONS, play_out, same_cards
from calijack.widgets.demo_worked import WORKED_NAMES, WORKED_PILE, worked_deal, worked_steps
from calijack.widgets.demos import (cards_demo, deal_demo, deal_replay, drawing_demo, legal_explorer,
                                    scoring_demo, variants_demo, worked_example)
from calijack.widgets.static import StaticDemo

# The lessons' positions (notebooks/03_legal_play.ipynb and 05_scoring.ipynb use these too).
LEGAL_STATE = Deal.random(2).start().play("8C")
FINISHED = play_out(Deal.random(11).start(), 11)
PARTIAL = FINISHED.rewind(21)  # ten tricks and one card of the eleventh
VARIANTS = [{}, {"void_duty": "any"}, {"game": "ten_of_trumps"}, {"players": 3}]
BUDGET = 2_000_000  # bytes of widget state a page may embed

DEMOS = {
    "cards": lambda static: cards_demo(static=static),
    "deal": lambda static: deal_demo((1, 2, 3, 4), static=static),
    "legal": lambda static: legal_explorer(LEGAL_STATE, static=static),
    "drawing": lambda static: drawing_demo(FINISHED, 0, static=static),
    "scoring": lambda static: scoring_demo(FINISHED, static=static),
    "worked": lambda static: worked_example(static=static),
    "replay": lambda static: deal_replay(PARTIAL, 1, static=static),
    "variants": lambda static: variants_demo(11, VARIANTS, static=static),
}


def frames(demo) -> list[str]:
    """The HTML of every frame of a static demo, in order."""
    return [child.value for child in demo.stack.children]


def body(frame: str) -> str:
    """A frame's HTML without the wrapper the static stack adds."""
    match = re.fullmatch(r'<div class="cj-frame" data-frame="\d+">(.*)</div>', frame, re.DOTALL)
    assert match, frame[:200]
    return match.group(1)


def cards_in(html: str) -> list[Card]:
    """The cards drawn in ``html`` (by their ``data-card``), in order."""
    return [Card.parse(code) for code in re.findall(r'data-card="(\w\w)"', html)]


def move(demo, index: int) -> None:
    """Move a live demo's control as a learner would (slider value or toggle index)."""
    if isinstance(demo.control, widgets.IntSlider):
        demo.control.value = index
    else:
        demo.control.index = index


def page_bytes(demo) -> int:
    """The size of the widget state a page embeds for ``demo``."""
    return len(json.dumps(dependency_state(demo)))


@pytest.fixture(scope="module")
def static_demos():
    """Every demo built once in static mode (building is the slow part)."""
    return {name: make(True) for name, make in DEMOS.items()}


# -- every demo: structure, links, both modes alike ---------------------------------------------

def test_demos_module_offers_exactly_the_agreed_functions():
    assert sorted(demos.__all__) == sorted(["cards_demo", "deal_demo", "legal_explorer", "drawing_demo",
                                            "scoring_demo", "worked_example", "deal_replay",
                                            "variants_demo"])
    assert all(callable(getattr(demos, name)) for name in demos.__all__)


@pytest.mark.parametrize("name", DEMOS)
def test_static_frames_differ_and_control_is_linked(static_demos, name):
    demo = static_demos[name]
    assert isinstance(demo, StaticDemo)
    shown = frames(demo)
    assert len(shown) == demo.frame_count >= 1
    assert len(set(shown)) == len(shown), "two frames are identical"
    assert demo.control in demo.children and demo.stack in demo.children
    trait = "value" if isinstance(demo.control, widgets.IntSlider) else "index"
    ends = [(link.source, link.target) for link in demo.links]
    assert all(isinstance(link, Link) for link in demo.links)
    assert ((demo.control, trait), (demo.stack, "selected_index")) in ends
    if isinstance(demo.control, widgets.IntSlider):
        assert demo.control.max == len(shown) - 1
    else:
        assert len(demo.control.options) == len(shown)


@pytest.mark.parametrize("name", DEMOS)
def test_every_drawing_a_frame_uses_is_in_the_sheet(static_demos, name):
    demo = static_demos[name]
    assert demo.children[0] is demo.sheet
    defined = set(re.findall(r'<g id="(cj-d[0-9a-f]+)">', demo.sheet.value))
    used = set()
    for html in frames(demo) + ([demo.header.value] if demo.header else []):
        used |= set(re.findall(r'<use href="#(cj-d[0-9a-f]+)"/>', html))
        assert "<style>" not in html  # the one stylesheet lives in the sheet
    assert used and used <= defined


@pytest.mark.parametrize("name", DEMOS)
def test_live_mode_shows_the_static_frames(static_demos, name):
    static, live = static_demos[name], DEMOS[name](False)
    assert isinstance(live, demo_base.LiveDemo) and not isinstance(live, StaticDemo)
    expected = frames(static)
    assert live.frame_count == len(expected)
    assert type(live.control) is type(static.control)
    assert live.control.description == static.control.description
    if isinstance(static.control, widgets.IntSlider):
        assert (live.control.min, live.control.max) == (static.control.min, static.control.max)
    else:
        assert live.control.options == static.control.options
    assert live.frame.value == expected[0]
    order = list(range(1, len(expected))) + [0]
    for index in order[:12] + order[-3:]:
        move(live, index)
        assert live.frame.value == expected[index]
        if static.label_stack is not None:
            assert live.label.value == static.label_stack.children[index].value
    # Every drawing the live frames used has reached the live sheet.
    used = set(re.findall(r'<use href="#(cj-d[0-9a-f]+)"/>', live.frame.value))
    assert used <= set(re.findall(r'<g id="(cj-d[0-9a-f]+)">', live.sheet.value))


@pytest.mark.parametrize("name", DEMOS)
def test_page_weight_stays_under_budget(static_demos, name):
    assert page_bytes(static_demos[name]) < BUDGET


# -- the cards ------------------------------------------------------------------------------------

def test_cards_demo_shows_each_suit_in_rank_order_with_values(static_demos):
    demo = static_demos["cards"]
    shown = frames(demo)
    assert demo.frame_count == len(Suit) + 1
    for suit, frame in zip(Suit, shown):
        expected = sort_cards([c for c in DECK if c.suit == suit])
        assert cards_in(frame) == expected
        values = [int(v) for v in re.findall(r'class="cj-cv" data-value="(\d+)"', frame)]
        assert values == [c.value for c in expected]
        assert f"<b>{sum(values)}</b>" in frame
    counting = shown[-1]
    assert set(cards_in(counting)) == {c for c in DECK if c.value}
    assert f"<b>{sum(c.value for c in DECK)}</b>" in counting


# -- the deal ---------------------------------------------------------------------------------------

def test_deal_demo_one_frame_per_seed_with_the_engines_deal(static_demos):
    seeds = (1, 2, 3, 4)
    for seed, frame in zip(seeds, frames(static_demos["deal"]), strict=True):
        deal = Deal.random(seed)
        names = ("You", "Opponent")
        assert f"<b>{escape(str(deal.turned))}</b>" in frame
        assert f"<b>{deal.trump.plural}</b> are trump" in frame
        assert f"First to lead: <b>{names[deal.first_leader]}</b>" in frame
        assert f"Dealer: <b>{names[deal.dealer]}</b>" in frame
        shown = set(cards_in(frame))
        assert set(deal.hands[0]) | set(deal.hands[1]) | set(deal.stock) <= shown


@pytest.mark.parametrize("seeds", [(), [1, 1], ["1"], [True], "12", 3])
def test_deal_demo_refuses_bad_seeds(seeds):
    with pytest.raises(ValueError, match="deal_demo"):
        deal_demo(seeds)


# -- legal play -------------------------------------------------------------------------------------

def test_legal_explorer_one_option_per_card_with_the_engines_reason(static_demos):
    demo = static_demos["legal"]
    verdicts = LEGAL_STATE.verdicts()
    assert list(demo.control.options) == [str(v.card) for v in verdicts]
    assert {v.legal for v in verdicts} == {True, False}
    for verdict, frame in zip(verdicts, frames(demo), strict=True):
        assert escape(verdict.reason) in frame
        assert ("may be played" in frame) == verdict.legal
        if verdict.legal:  # the trick completes: the engine's winner is named
            trick = LEGAL_STATE.play(verdict.card).tricks[-1]
            assert f"<b>{('You', 'Your opponent')[trick.winner]}</b> would win it" in frame
            if trick.draws:  # the verb agrees with the winner
                assert f" would win it with {trick.cards[(trick.winner - trick.leader) % 2]} and "\
                       f"{('are', 'is')[trick.winner]} first to draw" in frame
            assert cards_in(frame)[-2:] == list(trick.cards)
    # The table above the toggles marks exactly the engine's legal cards.
    legal = set(re.findall(r'class="cj-card cj-legal"[^>]*data-card="(\w\w)"', demo.header.value))
    assert legal == {c.code for c in LEGAL_STATE.legal_cards()}


def test_legal_explorer_on_a_lead_names_the_card_winning_so_far():
    state = Deal.random(2).start()
    demo = legal_explorer(state)
    assert demo.frame_count == 6
    # The seat to play is "You" (the engine's reasons speak to it), the other "Opponent".
    for verdict, frame in zip(state.verdicts(), frames(demo), strict=True):
        assert verdict.legal
        assert f"{escape(str(verdict.card))} (You) would take the trick; Opponent plays next" in frame


def test_legal_explorer_refuses_a_finished_deal_or_no_state():
    with pytest.raises(ValueError, match="deal is over"):
        legal_explorer(FINISHED)
    with pytest.raises(ValueError, match="needs a State"):
        legal_explorer("8C")


# -- drawing --------------------------------------------------------------------------------------

def _rows(frame: str) -> list[list[Card]]:
    # Each hand row is a <ul class="cj-hand">: known cards face up, the rest face down.
    return [cards_in(ul) + [None] * ul.count('aria-label="face-down card"')
            for ul in re.findall(r'<ul class="cj-hand">(.*?)</ul>', frame, re.DOTALL)]


def test_drawing_demo_compares_knowledge_with_the_truth(static_demos):
    demo = static_demos["drawing"]
    rules = FINISHED.rules
    assert demo.frame_count == 1 + rules.draws == 1 + min(len(FINISHED.tricks), rules.draws)
    closed_deal = same_cards(FINISHED.deal, rules.with_(stock="closed"))
    differs = 0
    for k, frame in enumerate(frames(demo)):
        now = FINISHED.rewind(2 * k)
        closed = closed_deal.start().play_all(now.plays)
        exposed_row, closed_row, truth = _rows(frame)
        for row, view in ((exposed_row, now.view(0)), (closed_row, closed.view(0))):
            assert [c for c in row if c] == list(view.known[1])
            assert row.count(None) == view.hidden_counts[1]
        assert truth == now.hand(1)
        differs += exposed_row != closed_row
        if k:
            assert all(escape(str(c)) in frame for c in now.tricks[-1].draws)
    assert differs  # the closed stock hides something in this deal


def test_drawing_demo_on_a_deal_in_progress_and_bad_seats():
    assert drawing_demo(PARTIAL, 1).frame_count == 1 + len(PARTIAL.tricks)
    for seat in (2, -1, True, "0"):
        with pytest.raises(ValueError, match="seat must be"):
            drawing_demo(PARTIAL, seat)


# -- scoring ----------------------------------------------------------------------------------------

def test_scoring_demo_frames_follow_the_engines_results(static_demos):
    demo = static_demos["scoring"]
    shown = frames(demo)
    assert demo.frame_count == 1 + len(SCORING_OPTIONS)
    base = FINISHED.result()
    results = [base] + [same_cards(FINISHED.deal, FINISHED.rules.with_(**{n: v})).start()
                        .play_all(FINISHED.plays).result() for n, v in SCORING_OPTIONS]
    for (name, _), frame, result in zip([(None, None), *SCORING_OPTIONS], shown, results, strict=True):
        points = re.findall(r'data-point="(\w+)"', frame)
        assert points == [a.name for a in result.awards]
        line = ", ".join(f"{n} {p}" for n, p in zip(("You", "Opponent"), result.points))
        assert f"Match points this deal: {line}." in frame
        if name is not None:
            assert escape(OPTIONS[name].variant) in frame
            moved = any(a.seat != b.seat for a, b in zip(base.awards, result.awards))
            assert ("moves from" in frame) == moved
    assert "moves from" in "".join(shown)  # seed 11: some option does move a point


def test_scoring_demo_refuses_a_deal_in_progress():
    with pytest.raises(ValueError, match="needs a finished deal.*trick 11 of 26"):
        scoring_demo(PARTIAL)


# -- the worked example -------------------------------------------------------------------------

def test_worked_deal_matches_the_rules_text():
    deal = worked_deal()
    a, b = 0, 1
    assert deal.trump == Suit.HEARTS and deal.turned == Card.parse("JH")
    assert deal.first_leader == a and deal.dealer == b
    assert not [c for c in deal.hands[b] if c.suit == Suit.CLUBS]
    led = deal.start().play("7C")
    assert Card.parse("2H") in led.legal_cards() and led.explain("2H").legal
    after = led.play("2H")
    trick = after.tricks[0]
    assert trick.winner == b
    assert list(zip(trick.drawers(2), trick.draws)) == [(b, Card.parse("JH")), (a, Card.parse("QD"))]
    assert after.view(a).known[b] == (Card.parse("JH"),)
    assert play_out(after, 99).result().winner_of("low") == b
    assert sum(c.value for c in WORKED_PILE) == 29
    assert sorted(c.rank.label for c in WORKED_PILE) == sorted(["10", "10", "A", "K", "Q"])


def test_worked_example_steps_state_the_engines_facts(static_demos):
    demo = static_demos["worked"]
    steps = worked_steps()
    shown = [body(f) for f in frames(demo)]
    assert demo.frame_count == len(steps) == 6
    labels = [c.value for c in demo.label_stack.children]
    assert all(f"Step {k} of 6" in label for k, label in enumerate(labels, 1))
    led = worked_deal().start().play("7C")
    assert "<b>A</b> leads first" in shown[0] and "<b>J♥</b> on top" in shown[0]
    assert escape(led.explain("2H").reason) in shown[1]
    assert all(escape(v.reason) in shown[1] for v in led.verdicts()[:1])
    assert "<b>B</b> wins the trick" in shown[2] and cards_in(shown[2]) == [Card.parse("7C"), Card.parse("2H")]
    assert "<b>B</b> takes the exposed <b>J♥</b>" in shown[3] and "<b>Q♦</b>, which <b>A</b> takes" in shown[3]
    assert 'data-point="low"' in shown[4] and "belongs to <b>B</b>" in shown[4]
    assert "<b>29</b>" in shown[5] and "not 29 match points" in shown[5]
    assert cards_in(shown[5]) == list(WORKED_PILE)
    assert WORKED_NAMES == ("A", "B")


# -- replay and variants --------------------------------------------------------------------------

def test_deal_replay_has_one_frame_per_play(static_demos):
    demo = static_demos["replay"]
    plays = PARTIAL.plays
    shown = frames(demo)
    assert demo.frame_count == len(plays) + 1
    labels = [c.value for c in demo.label_stack.children]
    for k in range(1, len(shown)):
        assert escape(str(plays[k - 1])) in labels[k]
        assert plays[k - 1] in cards_in(shown[k])  # on the table: in the trick or a won pile
    full = deal_replay(FINISHED, reveal=False)
    assert full.frame_count == 53 and page_bytes(full) < BUDGET
    with pytest.raises(ValueError, match="seat must be"):
        deal_replay(PARTIAL, seat=5)


def test_variants_demo_plays_the_same_cards_under_each_rule_set(static_demos):
    demo = static_demos["variants"]
    shown = frames(demo)
    assert demo.frame_count == len(VARIANTS)
    for options, frame in zip(VARIANTS, shown, strict=True):
        rules = Rules.from_dict(options)
        final = play_out(same_cards(Deal.random(11, Rules(players=rules.players)), rules).start(), 11)
        assert re.findall(r'data-point="(\w+)"', frame) == [a.name for a in final.result().awards]
        assert [int(v) for v in re.findall(r'cj-total" data-value="(\d+)"', frame)] == list(final.result().pips)
    assert "plays match" in shown[1] or "exactly as" in shown[1]


@pytest.mark.parametrize("seed, options, message", [
    ("1", [{}], "seed must be"),
    (1, [], "non-empty list"),
    (1, {"void_duty": "any"}, "non-empty list"),
    (1, [{}, {"void_duty": "sometimes"}], r"options\[1\].*void_duty"),
    (1, [{"colour": 1}], r"options\[0\].*unknown rule option"),
    (1, [{}, {"target": 10}], "same rules"),
])
def test_variants_demo_refuses_bad_options(seed, options, message):
    with pytest.raises(ValueError, match=message):
        variants_demo(seed, options)
