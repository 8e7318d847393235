"""The sentences of the class service (``calijack/classsvc/``): the teacher's pages and its refusals.

Every sentence the class service shows or answers is worded here, and only here (the
learner's own sentences about syncing are with the rest of their progress sentences, in
:mod:`calijack.text_progress`). ``{name}`` fields are filled by :func:`say`.
"""

from __future__ import annotations

import re

from .text_progress import TEXTS as PROGRESS_TEXTS

__all__ = ["TEXTS", "say"]

TEXTS = {
    # -- refusals: one sentence each, and nothing stored changes -----------------------------------
    "not_teacher": "Only the class's teacher may see this page.",
    "not_signed_in": "Sign in to the hub first: the class service knows you only through it.",
    "no_body": "The request holds no progress document.",
    "bad_document": "Nothing was stored: the progress document could not be read: {reason}.",
    "too_big": "Nothing was stored: the request holds more than {limit} characters.",
    "no_learner": "There is no progress kept for {name}.",
    "bad_name": "That is not a learner's name.",
    "not_yours": "You may only read and write your own progress.",
    "no_deal": "There is no deal {number} among {name}'s last finished deals.",
    "review_failed": "This deal could not be reviewed: {reason}.",
    "before_reset": "Nothing was stored: this copy holds progress from before your reset of {when} UTC; "
                    "open the class's page for you on this device and reset it there too.",
    "reset_unconfirmed": "Nothing was removed: tick the box to say you want your progress removed.",
    # -- the teacher's pages -----------------------------------------------------------------------
    "title": "Your class",
    "intro": "One row per learner who has saved progress on the hub. Choose a column's heading to sort by it.",
    "admin_link": "The hub's admin page: who is signed in and whose server runs",
    "csv_link": "Download the class as CSV",
    "none_yet": "No learner has saved any progress on the hub yet.",
    "col_learner": "Learner",
    "col_checks": "Quick checks: answered, right at the first try",
    "col_stars": "Puzzle stars",
    "col_deals": "Deals finished: mean points per deal",
    "col_people": "Deals against classmates: mean points per deal",
    "people_cell": "{deals} deals, {mean} a deal",
    "col_queue": "Mistakes to practise: queued, due today",
    "col_active": "Last active (UTC)",
    "checks_cell": "{answered} answered, {first} first try",
    "chapter_cell": "{chapter}: {answered}, {first}",
    "deals_cell": "{level}: {deals} deals, {mean} a deal",
    "queue_cell": "{queued} queued, {due} due today",
    "nothing": "none",
    "learner_title": "{name}'s progress",
    "learner_back": "Back to the class",
    "learner_deals": "Last finished deals, newest first",
    "learner_deal": "{when}, against {level}: {you} points to {them}.",
    "learner_record": "Download the record of this deal",
    "learner_none": "No finished deal kept.",
    "learner_review": "Review this deal",
    "review_title": "{name}'s deal: review",
    "review_back": "Back to {name}'s progress",
    "review_intro": "Step through {name}'s plays of this deal: each card's value beside the best card's, "
                    "worked out again now by the coach over {samples} guesses a play (the verdicts can "
                    "differ a little from the ones {name} saw).",
    "review_noscript": "The review board needs JavaScript to step through the plays.",
    "delete": "Remove {name}'s progress",
    "delete_confirm": "Remove all of {name}'s progress from the class's server? Their own browsers keep "
                      "their copy. This cannot be undone.",
    "deleted": "{name}'s progress was removed from the class's server.",
    # -- the learner's own page (their row, and their Reset) ---------------------------------------
    "me_title": "Your progress on the hub",
    "me_intro": "What the class's server keeps for you, {name}, in the words your teacher's table uses.",
    "me_none": "The class's server keeps no progress for you.",
    "me_deals": "Finished deals kept as records: {deals}.",
    "me_reset_title": "Reset",
    "me_reset_what": "Reset removes everything above from the class's server: your quick checks, puzzle "
                     "stars, finished deals and their totals, the practice queue, the unfinished game and "
                     "your deals against classmates. It also removes the copy this browser keeps for the "
                     "lessons. Your teacher will no longer see any of it, and it cannot be undone.",
    "me_reset_devices": "Another computer or phone where you opened the lessons keeps its own copy. The "
                        "server refuses that copy's finished deals and unfinished game from before the "
                        "reset, and its syncing stops; open this page there and reset it too. Its quick "
                        "checks, puzzle stars and practice queue carry no date, so a copy holding only "
                        "those would be kept again.",
    "me_reset_confirm": "I want all my progress removed from the class's server and from this browser",
    "me_reset_button": "Reset my progress",
    "me_reset_done": "Your progress was removed from the class's server.",
    "me_local_done": "This browser's copy was removed too.",
    "me_local_failed": "This browser's copy could not be removed: this browser blocks the site's storage.",
    "me_back": "Back to your progress",
    "me_link": PROGRESS_TEXTS["class_me"],  # one sentence: the lessons link to the page with it too
}
"""Every template, by key (``{name}`` fields)."""

_FIELD = re.compile(r"\{([a-z_]+)\}")


def say(key: str, **fields) -> str:
    """Template ``key`` of :data:`TEXTS` with its ``{name}`` fields filled."""
    return _FIELD.sub(lambda m: str(fields[m.group(1)]), TEXTS[key])
