"""One playing card as inline SVG: real faces with pips, backs, and the three marks.

Every shape is drawn here (suit pips are paths, not font glyphs), so a card looks the
same in Jupyter, Voilà and the static book, with no external fonts or images. The card
is drawn on a 250 × 350 grid (a 2.5 × 3.5 inch card) and scaled to ``width``.
"""

from __future__ import annotations

from functools import lru_cache

from ..cards import Card, Rank, Suit
from .base import Html, esc

__all__ = ["card_svg", "card_html", "suit_svg", "suit_color", "MARKS", "PIP_LAYOUT", "COMPACT_BELOW"]

W, H = 250, 350
COMPACT_BELOW = 50  # pixels: narrower cards use the compact face
SERIF = "Georgia, 'DejaVu Serif', 'Times New Roman', serif"
MARKS = ("legal", "illegal", "known")
_MARK_WORDS = {"legal": "legal", "illegal": "illegal", "known": "known to your opponent"}

RED, BLACK, GREEN, BLUE = "#c2132b", "#1b1b1f", "#12793a", "#1c5bbf"

# Suit shapes on a 100 × 100 box, centred on (50, 50).
_HEART = ("M50 93C46 86 30 72 16 58C5 47 0 38 0 27C0 12 11 3 25 3C36 3 45 9 50 19"
          "C55 9 64 3 75 3C89 3 100 12 100 27C100 38 95 47 84 58C70 72 54 86 50 93Z")
_DIAMOND = "M50 0C60 18 73 35 86 50C73 65 60 82 50 100C40 82 27 65 14 50C27 35 40 18 50 0Z"
_SPADE = ("M50 0C56 15 72 28 86 40C97 50 100 58 100 66C100 80 89 88 77 88C67 88 59 83 54 76"
          "C55 87 59 94 67 100H33C41 94 45 87 46 76C41 83 33 88 23 88C11 88 0 80 0 66"
          "C0 58 3 50 14 40C28 28 44 15 50 0Z")
# The club: stem and three leaves (plus a boss) as one path, every part wound the same way
# so the default non-zero fill joins them.
_CLUB = ("M46 52C46 78 42 91 31 100H69C58 91 54 78 54 52Z"
         "M28 25a22 22 0 1 0 44 0a22 22 0 1 0-44 0Z"
         "M4 59a22 22 0 1 0 44 0a22 22 0 1 0-44 0Z"
         "M52 59a22 22 0 1 0 44 0a22 22 0 1 0-44 0Z"
         "M38 52a12 12 0 1 0 24 0a12 12 0 1 0-24 0Z")
_SHAPES = (_CLUB, _DIAMOND, _HEART, _SPADE)


def suit_color(suit: Suit, four_color: bool = False) -> str:
    """The ink of a suit: red or black, or clubs green and diamonds blue in a four-colour deck."""
    if four_color and suit is Suit.CLUBS:
        return GREEN
    if four_color and suit is Suit.DIAMONDS:
        return BLUE
    return RED if suit.is_red else BLACK


def _pip(suit: Suit, x: float, y: float, size: float, *, flip: bool = False, cls: str = "cj-pip") -> str:
    s = size / 100
    rot = f"rotate(180 {x:.4g} {y:.4g})" if flip else ""
    return (f'<path class="{cls}" transform="{rot}translate({x - size / 2:.4g} {y - size / 2:.4g})'
            f'scale({s:g})" d="{_SHAPES[suit]}"/>')


# Where the pips of 2–10 sit, as on a real card: (column, row) with columns left/centre/
# right and rows from 0 (top) to 1 (bottom); pips below the middle are drawn upside down.
_L, _C, _R = 0, 1, 2
PIP_LAYOUT: dict[int, tuple[tuple[int, float], ...]] = {
    2: ((_C, 0), (_C, 1)),
    3: ((_C, 0), (_C, .5), (_C, 1)),
    4: ((_L, 0), (_R, 0), (_L, 1), (_R, 1)),
    5: ((_L, 0), (_R, 0), (_C, .5), (_L, 1), (_R, 1)),
    6: ((_L, 0), (_R, 0), (_L, .5), (_R, .5), (_L, 1), (_R, 1)),
    7: ((_L, 0), (_R, 0), (_C, .25), (_L, .5), (_R, .5), (_L, 1), (_R, 1)),
    8: ((_L, 0), (_R, 0), (_C, .25), (_L, .5), (_R, .5), (_C, .75), (_L, 1), (_R, 1)),
    9: ((_L, 0), (_R, 0), (_L, 1 / 3), (_R, 1 / 3), (_C, .5), (_L, 2 / 3), (_R, 2 / 3),
        (_L, 1), (_R, 1)),
    10: ((_L, 0), (_R, 0), (_C, 1 / 6), (_L, 1 / 3), (_R, 1 / 3), (_L, 2 / 3), (_R, 2 / 3),
         (_C, 5 / 6), (_L, 1), (_R, 1)),
}
_COLS = (80, 125, 170)
_TOP, _BOTTOM = 72, 278


def _pips(card: Card) -> str:
    count = card.rank + 2
    size = 50 if count < 9 else 44
    out = []
    for col, row in PIP_LAYOUT[count]:
        y = _TOP + row * (_BOTTOM - _TOP)
        out.append(_pip(card.suit, _COLS[col], y, size, flip=row > .5))
    return "".join(out)


def _ace(card: Card, ink: str) -> str:
    if card.suit is Suit.SPADES:  # the ace of spades carries the ornament, as on a real pack
        return (f'<ellipse cx="125" cy="175" rx="72" ry="82" fill="none" stroke="{ink}" '
                f'stroke-width="2.5" opacity=".35"/>' + _pip(card.suit, 125, 172, 118))
    return _pip(card.suit, 125, 175, 96)


_COURT_TINT = {Suit.CLUBS: "#f3f0e4", Suit.DIAMONDS: "#fbeee6", Suit.HEARTS: "#fbeee6", Suit.SPADES: "#f3f0e4"}


def _crown(rank: Rank, ink: str) -> str:
    # A small emblem above the letter: crown (K), coronet (Q), feathered cap (J).
    if rank is Rank.KING:
        d = "M-30 16L-34-14L-16 2L0-20L16 2L34-14L30 16Z"
        dots = "M-34-14m-5 0a5 5 0 1 0 10 0a5 5 0 1 0-10 0M0-20m-5 0a5 5 0 1 0 10 0a5 5 0 1 0-10 0M34-14m-5 0a5 5 0 1 0 10 0a5 5 0 1 0-10 0"
    elif rank is Rank.QUEEN:
        d = "M-28 16L-30-2L-14 6L0-10L14 6L30-2L28 16Z"
        dots = "M0-10m-6 0a6 6 0 1 0 12 0a6 6 0 1 0-12 0"
    else:  # a page's cap with a feather
        d = "M-26 16C-26-4-12-10 0-10C12-10 26-4 26 16Z"
        dots = "M2-9C4-24 12-34 22-38C20-26 14-16 10-7Z"
    return f'<path d="{d}" fill="{ink}"/><path d="{dots}" fill="{ink}"/>'


def _court(card: Card, ink: str, four_color: bool) -> str:
    # Each half of the frame holds the emblem, the letter and a big suit sign beside it: the
    # sign is what tells J♦ from J♥ at a glance, so it is as tall as the letter.
    tint = _COURT_TINT[card.suit]
    half = (f'<g transform="translate(104 86)">{_crown(card.rank, ink)}</g>'
            f'<text x="104" y="164" font-size="70">{card.rank.label}</text>'
            + _pip(card.suit, 158, 130, 56, cls="cj-court-pip"))
    return (f'<rect x="58" y="50" width="134" height="250" rx="6" fill="{tint}" '
            f'stroke="{ink}" stroke-width="3"/>'
            f'<rect x="64" y="56" width="122" height="238" rx="3" fill="none" stroke="{ink}" '
            f'stroke-width="1.2" opacity=".45"/>'
            f'<path d="M64 182L186 168" stroke="{ink}" stroke-width="1.5" opacity=".55"/>'
            f'{half}<g transform="rotate(180 125 175)">{half}</g>')


def _index(card: Card, ink: str) -> str:
    label = card.rank.label
    size, spacing = (44, ' letter-spacing="-4"') if label == "10" else (52, "")
    corner = (f'<text x="29" y="56" font-size="{size}"{spacing}>{label}</text>'
              + _pip(card.suit, 29, 88, 38, cls="cj-index-pip"))
    return corner + f'<g transform="rotate(180 125 175)">{corner}</g>'


def _back() -> str:
    # A diagonal lattice clipped by hand to the inner panel (no clipPath: no ids needed).
    x0, y0, x1, y1 = 20, 20, 230, 330
    lines = []
    for c in range(-300, 340, 26):
        lo, hi = max(x0, y0 - c), min(x1, y1 - c)          # y = x + c
        if lo < hi:
            lines.append(f"M{lo} {lo + c}L{hi} {hi + c}")
    for c in range(40, 570, 26):
        lo, hi = max(x0, c - y1), min(x1, c - y0)          # y = c - x
        if lo < hi:
            lines.append(f"M{lo} {c - lo}L{hi} {c - hi}")
    lattice = "".join(lines)
    return ('<rect x="14" y="14" width="222" height="322" rx="10" fill="#1f3f86"/>'
            f'<path d="{lattice}" stroke="#4a70c4" stroke-width="4" fill="none"/>'
            '<rect x="14" y="14" width="222" height="322" rx="10" fill="none" stroke="#fff" '
            'stroke-width="5"/>'
            '<ellipse cx="125" cy="175" rx="46" ry="34" fill="#fdfaf0" stroke="#c9a43a" stroke-width="4"/>'
            f'<text x="125" y="189" text-anchor="middle" font-family="{SERIF}" font-size="40" '
            'font-style="italic" font-weight="bold" fill="#1f3f86">CJ</text>')


_BACK = _back()


def _mark_list(mark) -> list[str]:
    if mark is None:
        return []
    words = mark.split() if isinstance(mark, str) else list(mark)
    for word in words:
        if word not in MARKS:
            raise ValueError(f"mark must be one of {', '.join(MARKS)} (or None), not {word!r}")
    return words


def _eye() -> str:
    # "known to your opponent": a violet badge with an open eye, top right.
    return ('<g class="cj-eye" transform="translate(212 38)">'
            '<circle r="28" fill="#6b3fc4" stroke="#fff" stroke-width="4"/>'
            '<path d="M-18 0C-10-11 10-11 18 0C10 11-10 11-18 0Z" fill="#fff"/>'
            '<circle r="6.5" fill="#6b3fc4"/></g>')


def _compact(card: Card) -> str:
    # Small cards (piles, fans, the score sheet) show a large index and one big pip, as card
    # games on small screens do: ten pips at 40 px are noise, and a fan shows only the left edge.
    label = card.rank.label
    size, spacing = (76, ' letter-spacing="-7"') if label == "10" else (96, "")
    return (f'<text x="14" y="92" text-anchor="start" font-size="{size}"{spacing}>'
            f'{label}</text>' + _pip(card.suit, 52, 146, 68, cls="cj-index-pip")
            + _pip(card.suit, 164, 262, 116, cls="cj-big-pip"))


def card_svg(card: Card | None, *, mark=None, four_color: bool = False, width: int = 64) -> Html:
    """A card face (rank and suit pips) as inline SVG, or the back when ``card`` is ``None``.

    ``mark`` is ``None``, ``"legal"``, ``"illegal"`` or ``"known"`` (or several, space-separated).
    Below ``COMPACT_BELOW`` pixels wide a face shows a large index and one big pip instead.
    """
    return _card_svg(card, tuple(_mark_list(mark)), bool(four_color), int(width))


@lru_cache(maxsize=4096)
def _card_svg(card: Card | None, marks: tuple[str, ...], four_color: bool, width: int) -> Html:
    if width < 8:
        raise ValueError(f"width must be at least 8 pixels, not {width}")
    height = round(width * H / W)
    if card is None:
        name, data, body = "face-down card", "", _BACK
    else:
        ink = suit_color(card.suit, four_color)
        name, data = card.name, f' data-card="{card.code}"'
        if width < COMPACT_BELOW:
            art = _compact(card)
        elif card.rank is Rank.ACE:
            art = _ace(card, ink)
        elif card.rank >= Rank.JACK:
            art = _court(card, ink, four_color)
        else:
            art = _pips(card)
        index = "" if width < COMPACT_BELOW else _index(card, ink)
        body = (f'<g fill="{ink}" font-family="{SERIF}" font-weight="bold" text-anchor="middle">'
                f'{index}{art}</g>')
    label = ", ".join([name] + [_MARK_WORDS[m] for m in marks])
    classes = " ".join(["cj-card"] + [f"cj-{m}" for m in marks])
    edge, edge_w = ("#e0a000", 9) if "legal" in marks else ("#9a9a9a", 2.5)
    inset = edge_w / 2
    face = (f'<rect x="{inset:g}" y="{inset:g}" width="{W - edge_w:g}" height="{H - edge_w:g}" '
            f'rx="16" fill="#fffef9" stroke="{edge}" stroke-width="{edge_w:g}"/>')
    extra = ""
    if "illegal" in marks:
        extra += f'<rect width="{W}" height="{H}" rx="16" fill="#4a4a52" opacity=".5"/>'
    if "known" in marks:
        extra += _eye()
    return Html(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{classes}" role="img" '
        f'aria-label="{esc(label)}"{data} width="{width}" height="{height}" '
        f'viewBox="0 0 {W} {H}" style="vertical-align:middle"><title>{esc(label)}</title>'
        f'{face}{body}{extra}</svg>')


def card_html(card: Card | None, **kw) -> Html:
    """One card shown inline in text (what ``Card._repr_html_`` displays)."""
    return Html(f'<span class="cj-card-inline" style="display:inline-block;margin:2px">'
                f'{card_svg(card, **kw)}</span>')


def suit_svg(suit: Suit, *, size: int = 20, four_color: bool = False) -> Html:
    """A suit symbol drawn as a small SVG (used for the trump indicator)."""
    return Html(f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
                f'viewBox="0 0 100 100" role="img" aria-label="{suit.plural}" '
                f'style="vertical-align:middle"><title>{suit.plural}</title>'
                f'<path fill="{suit_color(suit, four_color)}" d="{_SHAPES[suit]}"/></svg>')
