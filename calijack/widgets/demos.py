"""The demos every chapter and lesson uses: each a widget, static (for the book) or live.

``static=True`` (the default) precomputes every frame from the engine and lets a slider or
toggle buttons pick one in the browser, with no kernel (see :mod:`calijack.widgets.static`);
``static=False`` draws the chosen frame from a Python callback (Jupyter, Voilà). Both modes
show the same HTML for the same position of the control. No rule lives here: legality,
reasons, winners, draws, knowledge and scoring all come from the engine.

Helpers the lessons use live beside them: ``demo_deal.play_out`` (finish a deal with seeded
random legal cards) and ``demo_worked.worked_deal`` (the worked example's cards).
"""

from __future__ import annotations

from .demo_basics import cards_demo, deal_demo, legal_explorer
from .demo_deal import deal_replay, drawing_demo, scoring_demo, variants_demo
from .demo_worked import worked_example

__all__ = ["cards_demo", "deal_demo", "legal_explorer", "drawing_demo", "scoring_demo",
           "worked_example", "deal_replay", "variants_demo"]
