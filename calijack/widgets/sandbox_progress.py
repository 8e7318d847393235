"""The sandbox's side of the progress store: the game kept after every play, and given back.

Mixed into :class:`calijack.widgets.sandbox.Sandbox` (whose table, session and words it
uses). The card table's script tells the sandbox once what the page's progress store holds
(:meth:`KeepsProgress._on_stored`): a saved unfinished game is read by Python, record and all
(:func:`calijack.progress.read_game`), and only then offered back, **Continue your game** or
**New deal**; a past deal the progress page asked for (``?review=ID``) opens with its review.
After every action the game as it stands is sent to the page to keep (:meth:`_keep`), and a
deal just finished goes to the store's past deals and totals. A game is kept under an id of
its own: a new match, a loaded record or a deal played on from a reviewed one starts another.
"""

from __future__ import annotations

import json

from .. import progress
from ..play import available_opponents
from ..text_progress import say as progress_words

__all__ = ["KeepsProgress"]


class KeepsProgress:
    """The progress-store methods of the sandbox (see the module docstring)."""

    def _new_game(self) -> None:
        if self._store_ready:
            self._game_id, self._kept_text = progress.new_game_id(), None

    def _on_stored(self, game, review, drills=None) -> None:
        """What the page's progress store holds, unchecked: a saved game is offered back once
        Python has read it; a past deal asked for by the progress page opens with its review;
        the queued mistakes due today, asked for by the Practice chapter, are set up to practise."""
        if self._store_ready:  # a second view of this sandbox: the first one has told
            return
        self._store_ready = True
        if drills is not None:
            self._new_game()
            self._practise(drills)  # the saved game stays as it is in the store
            return
        if review is not None:
            self._open_review(review)
            return
        if game is None:
            self._new_game()
            return
        try:
            saved = progress.read_game(game, available_opponents())
            if saved.seat != self.session.seat:
                raise progress.ProgressError("record", f"it was played from seat {saved.seat}")
        except progress.ProgressError as error:
            self._new_game()
            self._say(progress_words("game_bad", reason=error), "cj-info", announce=True)
            return
        states = getattr(saved.read, "states", (saved.read,))
        last, deal = states[-1], len(states)
        trick = {"trick": min(last.trick_number, last.rules.tricks), "tricks": last.rules.tricks, "deal": deal}
        where = progress_words("offer_where_over" if last.finished else "offer_where_match" if deal > 1
                               else "offer_where", **trick)
        self._offered = saved
        self.table.offer = {"text": progress_words("offer", opponent=progress.opponent_labels().get(saved.opponent, saved.opponent), where=where),
                            "yes": progress_words("continue"), "no": progress_words("new_deal")}

    def _on_continue(self) -> None:
        saved, self._offered = self._offered, None
        self.table.offer = {}
        if saved is None:
            return
        self.session.load(saved.record, seed=saved.seed)
        self.session.set_opponent(saved.opponent)
        self.opponent_picker.value = saved.opponent
        self._game_id, self._kept_text = saved.id, None
        self._hinted = None
        self._sync_rule_controls()
        self._render(progress_words("continued") + " " + self.session.prompt())

    def _on_fresh(self) -> None:
        self._offered = None
        self.table.offer = {}
        self._new_game()
        self._render(self.session.prompt())

    def _open_review(self, review) -> None:
        if isinstance(review, dict) and "missing" in review:
            self._new_game()
            self._say(progress_words("review_missing"), "cj-info", announce=True)
            return
        try:
            entry, _state = progress.read_deal(review)
            if entry["seat"] != self.session.seat:
                raise progress.ProgressError("record", f"it was played from seat {entry['seat']}")
        except progress.ProgressError as error:
            self._new_game()
            self._say(progress_words("review_bad", reason=error), "cj-info", announce=True)
            return
        self.session.load(entry["record"])
        if entry["opponent"] in available_opponents():
            self.session.set_opponent(entry["opponent"])
            self.opponent_picker.value = entry["opponent"]
        self._game_id = None  # a past deal: nothing is saved until a new game starts
        self._hinted = None
        self._sync_rule_controls()
        self._render(progress_words("review_opened", when=entry["when"][:10]))
        self._on_review()

    def _keep(self) -> None:
        """Have the page keep the game as it is now (after every play), and a deal just finished."""
        finished, self._finished_now = self._finished_now, False
        s = self.session
        if self._game_id is None or self._offered is not None:
            return
        if s.deal_number == 1 and not s.can_undo and not s.finished:
            return  # nothing of the learner's in it yet: a saved game stays as it is
        game = None if s.match.finished else progress.game_entry(s, self._game_id)
        if finished and s.finished:
            message = {"store": "finished", "entry": progress.deal_entry(s, self._game_id), "game": game}
        else:
            message = {"store": "game", "game": game}
        text = json.dumps(message, sort_keys=True)
        if text != self._kept_text:
            self._kept_text = text
            self.table.store(message)

