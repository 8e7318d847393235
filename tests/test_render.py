"""Render: card SVGs, hands, the table and score sheets, parsed and checked for structure.

The table tests include the information-leak check: a seat's table never names a card it
has not seen, and ``reveal=state`` shows every card.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html import escape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from calijack import DECK, STANDARD, Card, Deal, Rank, Rules, Suit, parse_card, render
from calijack.render.cardsvg import BLUE, GREEN, PIP_LAYOUT

SVG = "{http://www.w3.org/2000/svg}"


def parse(html: str) -> ET.Element:
    """A fragment as XML: the renderers write well-formed markup, so any slip fails here."""
    return ET.fromstring(f"<root>{html}</root>")


def cards_in(html: str) -> list[str]:
    """The ``data-card`` codes of every card drawn, in document order."""
    return [el.get("data-card") for el in parse(html).iter() if el.get("data-card")]


def classes(el: ET.Element) -> set[str]:
    return set((el.get("class") or "").split())


def card_svgs(html: str) -> list[ET.Element]:
    return [el for el in parse(html).iter(f"{SVG}svg") if "cj-card" in classes(el)]


def pips(svg: str) -> int:
    return sum(1 for el in ET.fromstring(svg).iter() if "cj-pip" in classes(el))


class TagCounter(HTMLParser):
    """Counts start tags with the standard library's HTML parser (a second, lenient reader)."""

    def __init__(self):
        super().__init__()
        self.tags: dict[str, int] = {}

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1


def tags(html: str) -> dict[str, int]:
    counter = TagCounter()
    counter.feed(html)
    return counter.tags


def play_to(state, plays: int, seed: int = 0):
    rng = random.Random(seed)
    for _ in range(plays):
        if state.finished:
            break
        state = state.play(rng.choice(state.legal_cards()))
    return state


# -- cards ---------------------------------------------------------------------------------

@pytest.mark.parametrize("card", DECK, ids=[c.code for c in DECK])
def test_every_card_is_an_accessible_svg(card):
    svg = card_svgs(render.card_svg(card))
    assert len(svg) == 1
    root = svg[0]
    assert root.get("role") == "img"
    assert root.get("aria-label") == card.name
    assert root.get("data-card") == card.code
    assert root.find(f"{SVG}title").text == card.name
    assert root.get("width") == "64" and root.get("height") == "90"
    # no external resources: no images, no links, no fonts
    assert "href" not in render.card_svg(card) and "<image" not in render.card_svg(card)


@pytest.mark.parametrize("rank", range(2, 11))
def test_pip_count_of_each_number_card(rank):
    for suit in Suit:
        card = Card(rank - 2, suit)
        assert pips(render.card_svg(card)) == rank, card
        assert len(PIP_LAYOUT[rank]) == rank


def test_pip_layout_is_symmetric_like_a_real_card():
    # A real seven is the six plus one pip above the middle; every other count is symmetric.
    assert sorted(PIP_LAYOUT[7]) == sorted(PIP_LAYOUT[6] + ((1, .25),))
    for count, layout in PIP_LAYOUT.items():
        if count == 7:
            continue
        mirrored = sorted((2 - col, round(1 - row, 6)) for col, row in layout)
        assert mirrored == sorted((col, round(row, 6)) for col, row in layout), count


def test_aces_and_courts():
    for suit in Suit:
        assert pips(render.card_svg(Card(Rank.ACE, suit))) == 1
        for rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
            svg = render.card_svg(Card(rank, suit))
            assert pips(svg) == 0
            assert f">{rank.letter}</text>" in svg


def test_corner_index_shows_the_rank_label():
    assert ">10</text>" in render.card_svg(parse_card("10S"))
    assert ">T</text>" not in render.card_svg(parse_card("10S"))


def test_card_back_has_no_identity():
    root = card_svgs(render.card_svg(None))[0]
    assert root.get("aria-label") == "face-down card"
    assert root.get("data-card") is None and root.get("role") == "img"


@pytest.mark.parametrize("mark,word", [("legal", "legal"), ("illegal", "illegal"),
                                       ("known", "known to your opponent")])
def test_marks_give_class_and_words(mark, word):
    root = card_svgs(render.card_svg(parse_card("JH"), mark=mark))[0]
    assert {"cj-card", f"cj-{mark}"} <= classes(root)
    assert root.get("aria-label") == f"Jack of hearts, {word}"
    plain = render.card_svg(parse_card("JH"))
    assert render.card_svg(parse_card("JH"), mark=mark) != plain


def test_two_marks_at_once():
    root = card_svgs(render.card_svg(parse_card("2S"), mark="legal known"))[0]
    assert {"cj-legal", "cj-known"} <= classes(root)
    assert root.get("aria-label") == "Two of spades, legal, known to your opponent"


def test_bad_mark_is_refused():
    with pytest.raises(ValueError, match="mark must be one of"):
        render.card_svg(parse_card("2S"), mark="shiny")


def test_colours_two_and_four():
    def inks(svg):
        return {el.get("fill") for el in ET.fromstring(svg).iter() if el.get("fill", "").startswith("#")}
    clubs, diamonds = parse_card("5C"), parse_card("5D")
    assert GREEN not in inks(render.card_svg(clubs)) and BLUE not in inks(render.card_svg(diamonds))
    assert GREEN in inks(render.card_svg(clubs, four_color=True))
    assert BLUE in inks(render.card_svg(diamonds, four_color=True))
    assert render.card_svg(parse_card("5H"), four_color=True) == render.card_svg(parse_card("5H"))


def test_width_scales_the_card():
    root = card_svgs(render.card_svg(parse_card("AS"), width=100))[0]
    assert (root.get("width"), root.get("height")) == ("100", "140")


def test_html_is_a_displayable_str():
    out = render.card_svg(parse_card("AS"))
    assert isinstance(out, str) and out._repr_html_() == str(out)


# -- hands and tricks -------------------------------------------------------------------------

def test_hand_html_draws_each_card_with_its_mark():
    hand = [parse_card(c) for c in ("AS", "10H", "2C")] + [None]
    html = render.hand_html(hand, marks={hand[0]: "legal", hand[1]: "illegal"}, label="Your hand")
    assert cards_in(html) == ["AS", "TH", "2C"]
    svgs = card_svgs(html)
    assert len(svgs) == 4 and "cj-legal" in classes(svgs[0]) and "cj-illegal" in classes(svgs[1])
    assert not classes(svgs[2]) & {"cj-legal", "cj-illegal", "cj-known"}
    assert "Your hand" in html and tags(html)["style"] == 1


def test_trick_html_names_who_played_each_card():
    html = render.trick_html([parse_card("7C"), parse_card("2H")], leader=1, players=2,
                             names=("Ann", "Bob"))
    root = parse(html)
    items = root.findall(".//li")
    assert [cards_in(ET.tostring(li, encoding="unicode")) for li in items] == [["7C"], ["2H"]]
    assert "Bob" in "".join(items[0].itertext()) and "Ann" in "".join(items[1].itertext())


def test_trick_html_refuses_bad_input():
    with pytest.raises(ValueError, match="leader"):
        render.trick_html([], leader=2, players=2)
    with pytest.raises(ValueError, match="at most 2"):
        render.trick_html([parse_card(c) for c in ("2C", "3C", "4C")], leader=0, players=2)


# -- the table ------------------------------------------------------------------------------

TABLE_RULES = [STANDARD, Rules(stock="closed"), Rules(players=3), Rules(players=3, stock="closed")]


def positions():
    for rules in TABLE_RULES:
        for seed in range(3):
            start = Deal.random(seed, rules=rules).start()
            for plays in (0, 1, 7, 20, 35, 200):
                yield rules, play_to(start, plays, seed)


@pytest.mark.parametrize("rules", TABLE_RULES, ids=["standard", "closed", "three", "three_closed"])
def test_table_never_shows_an_unseen_card(rules):
    checked = 0
    for seed in range(4):
        state = Deal.random(seed, rules=rules).start()
        for plays in (0, 1, 5, 12, 30, 45):
            state_k = play_to(state, plays, seed)
            for seat in range(rules.players):
                view = state_k.view(seat)
                html = render.table_html(view)
                shown = set(cards_in(html))
                hidden = set(view.unseen)
                # every card in another hand that this seat did not see drawn, and the stock below the top
                for other in range(rules.players):
                    if other != seat:
                        assert hidden >= set(state_k.hand(other)) - set(view.known[other])
                assert hidden >= set(state_k.stock[1:])
                for card in hidden:
                    assert card.code not in shown, (seed, plays, seat, card)
                    assert f'aria-label="{card.name}' not in html
                    assert f"<title>{card.name}" not in html
                checked += len(hidden)
                # and the cards it does know are all there
                assert set(view.hand) | {c for k in view.known for c in k} <= {parse_card(c) for c in shown}
    assert checked > 500


def test_opponent_shows_backs_for_unseen_cards():
    state = play_to(Deal.random(11).start(), 8, 3)
    view = state.view(0)
    html = render.table_html(view)
    backs = [el for el in card_svgs(html) if el.get("aria-label") == "face-down card"]
    assert len(backs) == view.hidden_counts[1] > 0
    assert "cj-opp" in html


def test_reveal_shows_every_card_face_up():
    for rules, state in positions():
        view = state.view(0)
        html = render.table_html(view, reveal=state)
        shown = set(cards_in(html))
        for seat in range(rules.players):
            assert {c.code for c in state.hand(seat)} <= shown
        assert {c.code for c in state.stock} <= shown
        assert not any(el.get("aria-label") == "face-down card" for el in card_svgs(html))


def test_a_revealed_stock_is_folded_under_one_line():
    state = Deal.random(7).start()
    folded = parse(render.table_html(state.view(0), reveal=state))
    (box,) = [el for el in folded.iter("details") if "cj-stock-below" in classes(el)]
    assert box.get("open") is None
    assert "".join(box.find("summary").itertext()) == "The stock below the top: 39 cards, in order (revealed)"
    assert cards_in(ET.tostring(box, encoding="unicode")) == [c.code for c in state.stock[1:]]
    opened = render.table_html(state.view(0), reveal=state, fold_stock=False)
    assert "<details" not in opened and set(cards_in(opened)) >= {c.code for c in state.stock}


def test_a_simple_table_leaves_out_what_a_first_look_has_not_met():
    state = Deal.random(7).start().play_random(7, tricks=3)
    full = render.table_html(state.view(0), reveal=state)
    simple = render.table_html(state.view(0), reveal=state, simple=True)
    for taught_later in ("cj-bar", "cj-values", "Trump", " of 26", "card values"):
        assert taught_later in full and taught_later not in simple.split("</style>")[-1], taught_later
    assert cards_in(simple) == cards_in(full)          # every card is still drawn


def test_table_marks_legal_and_illegal_for_the_seat_to_play():
    for _, state in positions():
        if state.finished:
            continue
        seat = state.to_play
        html = render.table_html(state.view(seat))
        legal = {c.code for c in state.legal_cards()}
        for el in card_svgs(html):
            code = el.get("data-card")
            if code in {c.code for c in state.hand(seat)}:
                assert ("cj-legal" in classes(el)) == (code in legal)
                assert ("cj-illegal" in classes(el)) == (code not in legal)
        waiting = (seat + 1) % state.players
        assert not any(classes(el) & {"cj-legal", "cj-illegal"}
                       for el in card_svgs(render.table_html(state.view(waiting))))


def test_table_marks_the_cards_the_opponent_saw_drawn():
    seen_some = 0
    for rules, state in positions():
        for seat in range(rules.players):
            html = render.table_html(state.view(seat))
            marked = {el.get("data-card") for el in card_svgs(html) if "cj-known" in classes(el)}
            # the engine's own answer: what each other seat's view knows of this seat's hand
            truth = {c.code for other in range(rules.players) if other != seat
                     for c in state.view(other).known[seat]}
            assert marked == truth, (rules, seat)
            seen_some += len(truth)
    assert seen_some > 0


def test_table_shows_stock_trump_trick_piles_and_scores():
    state = play_to(Deal.random(5).start(), 9, 5)  # mid-trick: one card led
    view = state.view(state.to_play)
    html = render.table_html(view, scores=(3, 7), target=10, note="Your turn.")
    text = "".join(parse(html).itertext())
    assert f"{view.stock_count} cards" in text and view.stock_top.code in cards_in(html)
    assert f"Trump" in text and state.trump.plural in text
    assert view.trick[0].code in cards_in(html)
    assert f"Trick {state.trick_number} of 26" in text
    for seat in range(2):
        pip_tags = [el for el in parse(html).iter() if el.get("data-pips") == str(view.pips(seat))]
        assert pip_tags, seat
        assert {c.code for c in view.captured(seat)} <= set(cards_in(html))
    assert "Match points: You 3 · Opponent 7 (first to 10)" in text
    assert "card values" in text and "Your turn." in text
    assert tags(html)["style"] == 1


def test_table_names_follow_the_viewer_and_can_be_given():
    state = Deal.random(2).start()
    text1 = "".join(parse(render.table_html(state.view(1), scores=(4, 6))).itertext())
    assert "Opponent 4 · You 6" in text1
    text = "".join(parse(render.table_html(state.view(0), names=("Ann", "Bob"), scores=(1, 2))).itertext())
    assert "Ann 1 · Bob 2" in text
    with pytest.raises(ValueError, match="one name per seat"):
        render.table_html(state.view(0), names=("Ann",))
    with pytest.raises(ValueError, match="one score per seat"):
        render.table_html(state.view(0), scores=(1, 2, 3))


def test_three_players_show_the_dead_card():
    state = play_to(Deal.random(4, rules=Rules(players=3)).start(), 3 * 11, 4)
    assert state.dead_card is not None
    html = render.table_html(state.view(0))
    assert state.dead_card.code in cards_in(html) and "Out of play" in html
    assert len(parse(html).findall(".//*[@class='cj-seat cj-opp']")) == 2


# -- the score sheet ----------------------------------------------------------------------------

def finished(seed, rules=STANDARD):
    return play_to(Deal.random(seed, rules=rules).start(), 10_000, seed)


@pytest.mark.parametrize("rules", [STANDARD, Rules(players=3), Rules(shasta_point=True, game="ten_of_trumps")],
                         ids=["standard", "three", "shasta_ten"])
def test_score_sheet_lists_each_award_and_itemises_values(rules):
    for seed in range(3):
        result = finished(seed, rules).result()
        names = tuple(f"P{s}" for s in range(rules.players))
        html = render.score_sheet_html(result, names=names)
        root = parse(html)
        rows = [el for el in root.iter("tr") if "cj-award" in classes(el)]
        assert [r.get("data-point") for r in rows] == [a.name for a in result.awards]
        for row, award in zip(rows, result.awards):
            text = "".join(row.itertext())
            assert award.title in text
            assert (names[award.seat] if award.seat is not None else "nobody") in text
            assert cards_in(ET.tostring(row, encoding="unicode")) == ([award.card.code] if award.card else [])
        for seat in range(rules.players):
            row = root.find(f".//tr[@data-seat='{seat}']")
            values = [int(el.get("data-value")) for el in row.iter() if "cj-val" in classes(el)]
            total = [int(el.get("data-value")) for el in row.iter() if "cj-total" in classes(el)]
            assert values == [c.value for c in result.counted[seat]]
            assert total == [sum(values)] == [result.pips[seat]]
        points = [el.text for el in root.find(".//tfoot").iter() if "cj-mp" in classes(el)]
        assert points == [str(p) for p in result.points]


def test_score_sheet_keeps_card_values_and_match_points_apart():
    result = finished(1).result()
    html = render.score_sheet_html(result, match_scores=(6, 9), target=10)
    root = parse(html)
    captions = [c.text for c in root.iter("caption")]
    assert captions == ["Match points this deal", "Card values captured (towards the Game point)"]
    assert "not match points" in html
    text = "".join(root.itertext())
    assert "Match score (first to 10)" in text
    # the two quantities wear different badges: card values gold (cj-cv), match points green (cj-mp)
    values_table = root.find(".//table[@class='cj-card-values']")
    assert not any("cj-mp" in classes(el) for el in values_table.iter())
    assert [int(el.text) for el in values_table.iter() if "cj-total" in classes(el)] == list(result.pips)
    for row in root.find(".//table[@class='cj-points']").iter("tr"):
        if any("cj-cv" in classes(el) for el in row.iter()):
            assert row.get("data-point") == "game" and "card values" in ET.tostring(row, encoding="unicode")


def test_score_sheet_shows_points_never_counted_as_not_counted():
    """A deal that ends the match: points after the winning one are marked and left out of the totals."""
    from calijack import Match

    result = Deal.random(1).start().play_random(1).result()
    assert result.points == (3, 1) and result.winner_of("high") == 1
    after = Match(STANDARD, first_dealer=0, scores=(8, 9)).add(result)
    assert after.counted[-1] == ("high",) and after.scores == (8, 10)
    root = parse(render.score_sheet_html(result, match_scores=after.scores, target=10, counted=after.counted[-1]))
    rows = {r.get("data-point"): r for r in root.iter("tr") if "cj-award" in classes(r)}
    assert [p for p, r in rows.items() if r.get("data-counted") == "false"] == ["low", "jack", "game"]
    assert rows["high"].get("data-counted") == "true" and "not counted" not in "".join(rows["high"].itertext())
    assert all("not counted" in "".join(rows[p].itertext()) for p in ("low", "jack", "game"))
    foot = root.find(".//tfoot")
    assert [el.text for el in foot.iter() if "cj-mp" in classes(el)] == ["0", "1"]
    text = " ".join("".join(foot.itertext()).split())
    assert "Match points counted" in text
    assert "Low, Jack and Game are not counted: the match was won before their turn came." in text
    # Without the match's count, or when every point counts, nothing is marked.
    for sheet in (render.score_sheet_html(result),
                  render.score_sheet_html(result, counted=("high", "low", "jack", "game"))):
        rows = [r for r in parse(sheet).iter("tr") if "cj-award" in classes(r)]
        assert len(rows) == 4 and all(r.get("data-counted") != "false" for r in rows)
        assert not any("not counted" in "".join(r.itertext()) for r in parse(sheet).iter("tr"))


def test_score_sheet_uses_names_in_the_reasons():
    result = finished(2).result()
    html = render.score_sheet_html(result, names=("Ann", "Bob"))
    assert "seat 0" not in html and "seat 1" not in html
    assert "Ann" in html and "Bob" in html


# -- fragments as a whole -------------------------------------------------------------------------

def fragments():
    state = play_to(Deal.random(9).start(), 13, 9)
    yield render.hand_html(state.hand(0))
    yield render.trick_html(state.current.cards, state.leader, 2)
    yield render.table_html(state.view(0), reveal=state)
    yield render.score_sheet_html(finished(9).result())


def test_fragments_are_self_contained():
    for html in fragments():
        found = tags(html)
        assert found.get("style") == 1
        assert not {"h1", "h2", "h3", "h4", "h5", "h6", "img", "script", "link"} & set(found)
        assert "@import" not in html and "url(" not in html and "@font-face" not in html
        assert re.findall(r"https?://[^\"']+", html) == ["http://www.w3.org/2000/svg"] * html.count("xmlns=")
        root = parse(html)[0]
        assert "cj-root" in classes(root)
        # every class we write is scoped
        for el in root.iter():
            for name in classes(el):
                assert name.startswith("cj-"), name


def test_repr_html_of_card_state_and_result():
    card = parse_card("QD")
    assert cards_in(card._repr_html_()) == ["QD"]
    state = play_to(Deal.random(3).start(), 5, 3)
    html = state._repr_html_()
    assert "cj-table" in html and {c.code for c in state.hand(0) + state.hand(1)} <= set(cards_in(html))
    done = finished(3)
    assert "cj-table" in done._repr_html_()
    assert "cj-sheet" in done.result()._repr_html_()


def test_importing_the_engine_does_not_import_render():
    code = ("import sys, calijack, calijack.cards, calijack.state, calijack.scoring, calijack.view;"
            "print('calijack.render' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_render_imports_no_widgets():
    code = ("import sys, calijack.render;"
            "print(sorted(m for m in ('IPython', 'ipywidgets') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_reveal_must_be_the_viewed_state():
    state = Deal.random(6).start()
    later = play_to(state, 3, 6)
    with pytest.raises(ValueError, match="reveal must be the state"):
        render.table_html(state.view(0), reveal=later)


# -- the live table's hand, and the one stylesheet ----------------------------------------------

def test_an_interactive_table_draws_your_cards_as_named_buttons():
    from calijack.play import Session
    from calijack.render.table import card_state

    session = Session(seed=30, opponent="random")
    while all(v.legal for v in session.verdicts()):
        session.play(next(v.card for v in session.verdicts() if v.legal))
    verdicts = session.verdicts()
    html = render.table_html(session.view, interactive=True, verdicts=verdicts, css=False)
    assert "<style>" not in html
    buttons = re.findall(r'<button type="button" class="cj-play([^"]*)" data-card="(\w+)"[^>]*aria-label="([^"]*)"',
                         html)
    assert [code for _c, code, _n in buttons] == [c.code for c in session.hand]
    for (cls, _code, name), verdict in zip(buttons, verdicts):
        assert ("cj-can" in cls.split()) == verdict.legal and ("cj-cannot" in cls.split()) == (not verdict.legal)
        assert escape(card_state(verdict.card, verdict)) == name or name.startswith(escape(card_state(verdict.card, verdict)))
    refused = next(v for v in verdicts if not v.legal)
    assert card_state(refused.card, refused).startswith(f"{refused.card.name}, not playable: you ")
    # Inside a button the drawing is decoration: the button carries the name.
    assert 'aria-hidden="true" focusable="false"' in html
    # Not the learner's turn: the cards are still buttons, and say so.
    assert card_state(session.hand[0]) == f"{session.hand[0].name}, not your turn yet"
    # The static table draws no button, so a page without a kernel offers nothing to press.
    assert "<button" not in render.table_html(session.view)


def test_one_stylesheet_file_styles_every_fragment():
    from calijack.render.style import CSS, CSS_PATH

    text = CSS_PATH.read_text(encoding="utf-8")
    assert ".cj-table{" in text and ".cj-play" in text and ".cj-explain" in text and ".cj-sandbox" in text
    assert "/*" not in CSS and f"<style>{CSS}</style>" in render.table_html(Deal.random(3).start().view(0))
    # No other stylesheet is kept as a Python string in the package.
    package = Path(render.__file__).resolve().parents[1]
    for path in package.rglob("*.py"):
        assert "<style>" + "\n" not in path.read_text(encoding="utf-8"), path
        assert "_CSS = " not in path.read_text(encoding="utf-8"), path


def test_court_cards_carry_a_big_suit_sign():
    svg = render.card_svg(Card.parse("JD"), width=64)
    sizes = [float(m) for m in re.findall(r'class="cj-court-pip"[^>]*scale\(([\d.]+)\)', svg)]
    assert sizes and min(sizes) >= 0.5  # at least half the court frame's width: J♦ and J♥ tell apart
