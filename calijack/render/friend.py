"""The screen between two players' turns: who is to play, and what both may know. No card of a hand.

Drawn from a :class:`calijack.friend.PassScreen` (read by its attributes). In the live table
the screen's button is the one control (``data-action="reveal"``, focused on arrival:
``data-focus``); in a static picture it is a line saying what the player does.
"""

from __future__ import annotations

from ..text_friend import say
from .base import Html, esc
from .style import fragment

__all__ = ["pass_html"]


def pass_html(screen, *, interactive: bool = True, css: bool = True) -> Html:
    """The pass screen: its title, its lines, and the button the next player taps."""
    lines = "".join(f"<li>{esc(line)}</li>" for line in screen.lines)
    if interactive:
        action = (f'<button type="button" class="cj-action cj-primary cj-pass-go" data-action="reveal" '
                  f'data-focus="1">{esc(screen.button)}</button>')
    else:
        action = f'<p class="cj-pass-tap">{esc(say("pass_tap", name=screen.name, button=screen.button))}</p>'
    body = (f'<p class="cj-pass-title">{esc(screen.title)}</p>'
            f'<ul class="cj-pass-lines">{"".join(lines)}</ul>{action}')
    return fragment(f'<div class="cj-pass" data-seat="{screen.seat}">{body}</div>', "cj-pass-box",
                    f"between turns: pass to {screen.name}", css=css)
