"""The sandbox's side of the progress store: the game kept after every play, and given back.

A helper of :class:`calijack.widgets.sandbox.Sandbox` that owns its state (whether the store
has spoken, the game's id, the game offered back, what was last sent) and acts on the view only
through what its constructor is given: the session, the card table and the view's callbacks.
The card table's script tells the sandbox once what the page's progress store holds
(:meth:`ProgressKeeper.stored`): a saved unfinished game is read by Python, record and all
(:func:`calijack.progress.read_game`), and only then offered back, **Continue your game** or
**New deal**; a past deal the progress page asked for (``?review=ID``) opens with its review.
After every action the game as it stands is sent to the page to keep (:meth:`ProgressKeeper.keep`), and a
deal just finished goes to the store's past deals and totals. A game is kept under an id of
its own: a new match, a loaded record or a deal played on from a reviewed one starts another.
"""

from __future__ import annotations

import json

from .. import progress
from ..play import available_opponents
from ..text_progress import say as progress_words

__all__ = ["ProgressKeeper"]


class ProgressKeeper:
    """The sandbox's side of the progress store (see the module docstring).

    ``say(text, cls, announce=False)`` writes the table's message line; ``render(message)``
    shows the session as it is now; ``practise(entries)`` sets up the queued mistakes due today;
    ``review()`` shows the review of the finished deal; ``show_opponent(name)`` shows the
    session's opponent in the view's picker; ``loaded()`` brings the view's other settings in
    line with a game just loaded into the session.
    """

    def __init__(self, session, table, *, say, render, practise, review, show_opponent, loaded) -> None:
        self.session = session
        self.table = table
        self._say = say
        self._render = render
        self._practise = practise
        self._review = review
        self._show_opponent = show_opponent
        self._loaded = loaded
        # Nothing is saved until the page has said what it holds (a saved game is offered first);
        # then this game is saved under ``_game_id`` (None: not saved, e.g. a past deal opened
        # for review).
        self._ready = False
        self._game_id: str | None = None
        self._offered = None  # a saved game offered back (progress.SavedGame), until chosen
        self._finished_now = False
        self._kept_text: str | None = None

    @property
    def game_id(self) -> str | None:
        """The id the game is kept under, or None while it is not kept."""
        return self._game_id

    @property
    def offered(self):
        """The saved game offered back (a :class:`calijack.progress.SavedGame`) until the learner
        chooses, else None: until then the table's other actions wait."""
        return self._offered

    def note_play(self, finished: bool) -> None:
        """A card was played; ``finished``: it ended the deal (the next :meth:`keep` files it)."""
        self._finished_now = finished

    def new_game(self) -> None:
        """A game of its own starts (once the store has spoken): kept under a new id."""
        if self._ready:
            self._game_id, self._kept_text = progress.new_game_id(), None

    def new_game_unless_kept(self) -> None:
        """On to a next deal: a game of its own if this one is not kept (a past deal reviewed)."""
        if self._game_id is None:
            self.new_game()

    def stored(self, game, review, drills=None) -> None:
        """What the page's progress store holds, unchecked: a saved game is offered back once
        Python has read it; a past deal asked for by the progress page opens with its review;
        the queued mistakes due today, asked for by the Practice chapter, are set up to practise."""
        if self._ready:  # a second view of this sandbox: the first one has told
            return
        self._ready = True
        if drills is not None:
            self.new_game()
            self._practise(drills)  # the saved game stays as it is in the store
            return
        if review is not None:
            self._open_review(review)
            return
        if game is None:
            self.new_game()
            return
        try:
            saved = progress.read_game(game, available_opponents())
            if saved.seat != self.session.seat:
                raise progress.ProgressError("record", f"it was played from seat {saved.seat}")
        except progress.ProgressError as error:
            self.new_game()
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

    def continue_game(self) -> None:
        """The offer's **Continue your game**."""
        saved, self._offered = self._offered, None
        self.table.offer = {}
        if saved is None:
            return
        self.session.load(saved.record, seed=saved.seed)
        self.session.set_opponent(saved.opponent)
        self._show_opponent(saved.opponent)
        self._game_id, self._kept_text = saved.id, None
        self._loaded()
        self._render(progress_words("continued") + " " + self.session.prompt())

    def fresh(self) -> None:
        """The offer's **New deal**."""
        self._offered = None
        self.table.offer = {}
        self.new_game()
        self._render(self.session.prompt())

    def _open_review(self, review) -> None:
        if isinstance(review, dict) and "missing" in review:
            self.new_game()
            self._say(progress_words("review_missing"), "cj-info", announce=True)
            return
        try:
            entry, _state = progress.read_deal(review)
            if entry["seat"] != self.session.seat:
                raise progress.ProgressError("record", f"it was played from seat {entry['seat']}")
        except progress.ProgressError as error:
            self.new_game()
            self._say(progress_words("review_bad", reason=error), "cj-info", announce=True)
            return
        self.session.load(entry["record"])
        if entry["opponent"] in available_opponents():
            self.session.set_opponent(entry["opponent"])
            self._show_opponent(entry["opponent"])
        self._game_id = None  # a past deal: nothing is saved until a new game starts
        self._loaded()
        self._render(progress_words("review_opened", when=entry["when"][:10]))
        self._review()

    def keep(self) -> None:
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
