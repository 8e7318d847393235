"""The sentences about the learner's progress: what is kept, the notes, the progress page.

Part of the narrator (:mod:`calijack.text`): every sentence a learner reads about their saved
progress is worded here, and only here. The browser reads the same table: the progress
store's script (``calijack/widgets/progress.js``) is given :data:`TEXTS` with the document's
constants (:func:`calijack.progress.config`), so the static book, the live book and Voilà
say the same words. A template's fields are ``{name}``, filled by :func:`say` here and by the
script's ``fill`` there; nothing else in a template is special.
"""

from __future__ import annotations

import re

__all__ = ["TEXTS", "say", "stars_words"]

TEXTS = {
    # -- one-line notes: where progress would be kept and cannot be -----------------------------
    "note_blocked": "This browser does not let the book keep anything, so your progress will not be kept.",
    "note_full": "This browser's storage for the book is full, so your latest progress was not kept.",
    "note_local": "Your progress is kept in this browser, on this device only.",
    "note_sync_paused": "Syncing your progress with the class is paused: it is kept in this browser, and "
                        "sent again at your next save.",
    "note_sync_reset": "Your progress was reset from another device, so the class's server no longer "
                       "takes this browser's older copy: to sync again, reset it here too, under the link "
                       "below.",
    "class_me": "Your progress on the hub, and Reset",
    "note_unreadable": "Your saved progress could not be read, so nothing new is kept until you reset it "
                       "on the Your progress page.",
    # -- why a document (kept, or a file given to Load progress) cannot be read -----------------
    "reason_empty": "it is empty",
    "reason_too_big": "it holds {size} characters, more than the {limit} a progress file may hold",
    "reason_not_json": "it is not JSON text",
    "reason_foreign": "it is not a calijack progress file",
    "reason_too_new": "it was written by a newer version of the book (version {version}; this one reads "
                      "versions up to {known})",
    "reason_schema": "the part {where} {what}",
    "reason_schema_top": "the document {what}",
    # -- the sandbox ----------------------------------------------------------------------------
    "offer": "You have an unfinished game against the {opponent} computer player: {where}.",
    "offer_where": "trick {trick} of {tricks}",
    "offer_where_match": "trick {trick} of {tricks} in deal {deal} of the match",
    "offer_where_over": "deal {deal} of the match is over",
    "continue": "Continue your game",
    "new_deal": "New deal",
    "offer_pending": "First choose: continue your unfinished game, or a new deal.",
    "continued": "Your game is back as you left it.",
    "game_bad": "Your unfinished game could not be read back ({reason}), so here is a new deal.",
    "review_opened": "Your deal of {when}, with the review of your plays under the table.",
    "review_missing": "That deal is no longer kept in this browser's progress.",
    "review_bad": "That deal cannot be reviewed: {reason}.",
    "review_starting": "Starting Python to review your deal…",
    # -- quick checks and puzzles, on their pages -----------------------------------------------
    "check_first": "You answered this one before: right at the first try.",
    "check_later": "You answered this one before (not right at the first try).",
    "puzzle_best": "Your best so far: {stars}.",
    "stars_0": "not solved yet",
    "stars_1": "1 star of 3",
    "stars_n": "{stars} stars of 3",
    # -- the progress page ----------------------------------------------------------------------
    "loading": "Reading your progress…",
    "page_unreadable": "Your saved progress could not be read: {reason}. Nothing else is affected. Download "
                       "it as it is to keep a copy, or reset it to start again.",
    "download_as_is": "Download it as it is",
    "reset_unreadable": "Reset my progress",
    "head_checks": "Quick checks",
    "head_puzzles": "Puzzles",
    "head_opponents": "Results per opponent",
    "head_people": "Results against classmates",
    "head_deals": "Past deals",
    "head_game": "Your unfinished game",
    "head_file": "Keep or move your progress",
    "checks_row": "{answered} of {total} answered, {first} right at the first try",
    "checks_none": "No quick check answered yet.",
    "puzzles_summary": "{solved} of {total} puzzles solved: {stars} stars of {most}.",
    "puzzle_label": "Puzzle {number}",
    "col_opponent": "Opponent",
    "col_deals": "Deals",
    "col_for": "Points for",
    "col_against": "Points against",
    "col_won": "Matches won",
    "col_lost": "Matches lost",
    "opponents_none": "No deal finished yet.",
    "people_none": "No deal against a classmate yet: on a class's hub, two learners can play each other.",
    "col_classmate": "Classmate",
    "deals_none": "No finished deal kept yet.",
    "deals_kept": "The last {kept} finished deals are kept, newest first.",
    "deal_line": "{when}, against the {opponent} computer player: you scored {you}, the computer {them}.",
    "deal_match_won": "You won the match.",
    "deal_match_lost": "The computer won the match.",
    "download_record": "Download record",
    "review": "Review",
    "game_line": "Against the {opponent} computer player: {where}. Saved {when}.",
    "game_none": "No unfinished game.",
    "game_continue": "Continue it in the sandbox",
    "download_progress": "Download my progress",
    "load_progress": "Load progress",
    "reset_section": "Reset {section}",
    "reset_all": "Reset all",
    "confirm_all": "Reset all your progress? Your quick checks, puzzle stars, mistakes to practise, results, "
                   "past deals and unfinished game are all cleared in this browser. This cannot be undone.",
    "confirm_all_class": "Reset all your progress? Your quick checks, puzzle stars, mistakes to practise, "
                         "results, past deals and unfinished game are all cleared in this browser and on the "
                         "class's server. This cannot be undone.",
    "confirm_section": "Reset {section}? It is cleared in this browser. This cannot be undone.",
    "confirm_load": "Replace the progress kept in this browser with the one in {name}? What this browser "
                    "keeps now is lost, unless you download it first.",
    "confirm_yes_reset": "Reset",
    "confirm_yes_load": "Replace",
    "confirm_no": "Cancel",
    "done_all": "All your progress was reset.",
    "done_section": "{section} reset.",
    "done_load": "Progress loaded from {name}.",
    "load_refused": "{name} cannot be loaded: {reason}. Nothing was changed.",
    "not_kept": "Nothing was changed: {note}",
    # -- the practice queue: mistakes missed again (the Practice chapter, the progress page) ------
    "head_drills": "Mistakes to practise",
    "due_today": "Due today: {due}",
    "due_none": "Nothing to practise again today. When you try your mistakes again in the sandbox's "
                "review, the ones you miss come back here: the next day, then after 3, 7 and 21 days.",
    "due_later": "The next one is due on {when}.",
    "due_some": "Each is one of your own mistakes, set up again at the table. A right answer brings it "
                "back later; a wrong one, tomorrow. A hint costs a star.",
    "due_practise": "Practise them in the sandbox",
    "drills_kept": "{queued} in your queue, {due} due today.",
    "drills_starting": "Starting Python to set up your mistakes again…",
    "drills_bad": "Some of your queued mistakes ({bad}) could not be read back, so they are left out.",
    "drills_none_due": "None of your queued mistakes is due today.",
}
"""Every template, by key (``{name}`` fields)."""

_FIELD = re.compile(r"\{([a-z_]+)\}")


def say(key: str, **fields) -> str:
    """Template ``key`` of :data:`TEXTS` with its ``{name}`` fields filled."""
    return _FIELD.sub(lambda m: str(fields[m.group(1)]), TEXTS[key])


def stars_words(stars: int) -> str:
    """"not solved yet", "1 star of 3", "2 stars of 3"…"""
    return say("stars_0") if stars <= 0 else say("stars_1") if stars == 1 else say("stars_n", stars=stars)
