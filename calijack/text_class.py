"""The sentences of the class service (``calijack/classsvc/``): the teacher's pages and its refusals.

Every sentence the class service shows or answers is worded here, and only here (the
learner's own sentences about syncing are with the rest of their progress sentences, in
:mod:`calijack.text_progress`). ``{name}`` fields are filled by :func:`say`.
"""

from __future__ import annotations

import re

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
    "delete": "Remove {name}'s progress",
    "delete_confirm": "Remove all of {name}'s progress from the class's server? Their own browsers keep "
                      "their copy. This cannot be undone.",
    "deleted": "{name}'s progress was removed from the class's server.",
}
"""Every template, by key (``{name}`` fields)."""

_FIELD = re.compile(r"\{([a-z_]+)\}")


def say(key: str, **fields) -> str:
    """Template ``key`` of :data:`TEXTS` with its ``{name}`` fields filled."""
    return _FIELD.sub(lambda m: str(fields[m.group(1)]), TEXTS[key])
