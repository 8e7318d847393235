"""The learner's progress: one versioned JSON document, kept in the reader's browser.

Everything a learner has done is kept in the browser's ``localStorage`` under one key
(:data:`KEY`), as one JSON document. Nothing is sent anywhere. This package is the one place
that says what the document holds, one job a module:

- :mod:`calijack.progress.document`: its :data:`VERSION`, its :data:`SECTIONS` and their JSON
  Schema (:func:`schema`), its limits;
- :mod:`calijack.progress.reader`: how a document is read, and how a newer version reads an
  older one (:func:`read`); and the parts the live sandbox hands over, checked
  (:func:`read_game`, :func:`read_deal`), records included;
- :mod:`calijack.progress.entries`: the entries the live sandbox writes (:func:`game_entry`,
  :func:`deal_entry`);
- :mod:`calijack.progress.browser`: the browser's side. That is
  ``calijack/widgets/progress.js``, one small script used by the static book, the live book
  (Pyodide) and the Voilà lessons; it receives these constants and the learner's sentences
  (:mod:`calijack.text_progress`) from :func:`script`, never a copy (:func:`page_script` adds
  ``progress-watch.js``, which remembers a book page's quick checks and puzzles);
- :mod:`calijack.progress.merge`: two documents made one, nothing lost (:func:`merge`: the class
  service of the hub merges what a learner's browsers send);
- :mod:`calijack.progress.cli`: the command line.

``python -m calijack.progress check FILE`` checks a downloaded progress file;
``python -m calijack.progress schema`` prints the schema.

Everything is imported from here (``from calijack.progress import read``).
"""

from __future__ import annotations

# Names the one-module progress.py had, kept for whoever reads them from here: the learner's
# sentences the browser's script receives, and the schema checker.
from ..schemalite import check
from ..text_progress import TEXTS
from .browser import SCRIPT, config, opponent_labels, page_script, script
from .cli import main
from .document import (
    DRILL,
    DRILL_DAYS,
    FORMAT,
    KEPT_DEALS,
    KEPT_DRILLS,
    KEY,
    MAX_CHARS,
    SECTIONS,
    VERSION,
    Section,
    empty,
    schema,
)
from .entries import deal_entry, game_entry, new_game_id
from .merge import merge
from .reader import ProgressError, SavedGame, read, read_deal, read_game

__all__ = ["KEY", "FORMAT", "VERSION", "MAX_CHARS", "KEPT_DEALS", "KEPT_DRILLS", "DRILL_DAYS", "DRILL", "SECTIONS", "ProgressError", "SavedGame",
           "schema", "read", "empty", "read_game", "read_deal", "game_entry", "deal_entry", "new_game_id",
           "config", "script", "page_script", "SCRIPT", "merge"]
