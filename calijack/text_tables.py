"""The sentences of a table on the hub: two classmates playing each other across two devices.

Part of the narrator (:mod:`calijack.text`): every sentence the hub's tables say (the room of
:mod:`calijack.tables`, the lobby and the table pages of the class service) is worded here, and
only here. What happens at the table itself (plays, tricks, draws, the end of a deal) is told
by the pass-and-play narrator (:mod:`calijack.text_friend`), with each seat called by its
player's name.
"""

from __future__ import annotations

from .text import _FORMATTER

__all__ = ["TEXTS", "say"]

TEXTS = {
    # -- refusals: one sentence each, and nothing changes -------------------------------------------
    "not_json": "That message could not be read, so nothing changed.",
    "too_big": "That message is longer than {limit} characters, so nothing changed.",
    "no_type": "That message does not say what to do, so nothing changed.",
    "unknown_type": "The table does not know what {value!r} means, so nothing changed.",
    "no_table": "There is no table {value!r} (it may have ended), so nothing changed.",
    "not_seated": "You do not sit at this table, so your move was not played.",
    "full": "This table already has two players, so you cannot join it.",
    "already_seated": "You already sit at this table.",
    "own_table": "You cannot play yourself: send the link to a classmate.",
    "too_many": "You already have {limit} tables open: finish or leave one first.",
    "stale": "The table moved on since your page last heard from it, so that move was not played; "
             "here is the table as it is now.",
    "no_seq": "That move does not say which moment of the table it was made at, so nothing changed.",
    "not_a_card": "{value!r} is not a card, so nothing changed.",
    "not_your_card": "{card} is not in your hand, so nothing changed.",
    "not_your_turn": "It is {name}'s turn, not yours, so nothing changed.",
    "waiting": "Your classmate has not joined yet, so no card can be played.",
    "deal_over": "The deal is over, so no card can be played.",
    "deal_going": "Finish this deal first: trick {trick} of {tricks} is being played.",
    "match_over": "The match is over: {name} reached {target}.",
    "not_gone": "{name} is still at the table, or left only a moment ago: the computer takes the seat "
                "after {seconds} seconds away.",
    "computer_plays": "The computer plays your seat now, so your move was not played.",
    "invite_self": "Pick a classmate, not yourself.",
    "invite_name": "{value!r} is not a classmate's name on this hub.",
    "not_teacher": "Only the class's teacher may watch a table.",
    "bad_origin": "Only a page of this hub may connect to its tables.",
    # -- what the table says --------------------------------------------------------------------------
    "waiting_for": "Waiting for a classmate to join: send them this table's link.",
    "waiting_invited": "Waiting for {name} to join.",
    "joined": "{name} joined the table.",
    "your_turn": "Your turn to {act} (trick {trick} of {tricks}). Legal cards are highlighted.",
    "their_turn": "{name} is to {act} (trick {trick} of {tricks}).",
    "deal_done": "The deal is over. {points} Choose \u201cNext deal\u201d to play on.",
    "deal_final": "The deal is over. {points} This table was for one deal.",
    "match_done": "The match is over: {name} reached {target}.",
    "away": "{name} lost the connection; the table waits for them.",
    "gone": "{name} has been away for {seconds} seconds: you may finish against the computer.",
    "taken": "The computer ({level}) plays {name}'s seat from now on.",
    "back": "{name} is back at the table.",
    # -- the pages -------------------------------------------------------------------------------------
    "lobby_title": "Play a classmate",
    "lobby_intro": "Open a table, then send its link to a classmate, or pick a classmate who is online.",
    "open": "Open a table",
    "open_with": "Invite {name}",
    "online_head": "Classmates online",
    "online_none": "No other classmate is online right now.",
    "yours_head": "Your tables",
    "yours_none": "You have no table open.",
    "invites_head": "Tables you are invited to",
    "invites_none": "Nobody has invited you yet.",
    "table_line": "Table with {who}: {status}",
    "nobody_yet": "nobody yet",
    "status_waiting": "waiting for a player",
    "status_playing": "deal {deal}, trick {trick} of {tricks}",
    "status_over": "match over",
    "table_title": "California Jack: a table on the hub",
    "watch_title": "Watching a table",
    "your_hand": "Your hand",
    "their_hand": "{name}'s hand: {count} cards",
    "trick_head": "The trick",
    "trick_empty": "No card played yet in this trick.",
    "stock": "The stock: {count} cards, {top} on top.",
    "stock_empty": "The stock is empty.",
    "trump": "Trump: {suit}",
    "scores": "Match points: {scores} (first to {target}).",
    "log_label": "What happened lately",
    "next_deal": "Next deal",
    "take_over": "Finish against the computer",
    "lobby_link": "Back to the tables",
    "link_label": "The table's link, to send to a classmate",
    "connecting": "Connecting to the table\u2026",
    "reconnecting": "The connection dropped; trying again in {seconds} seconds\u2026",
    "played_head": "Cards played so far",
    "sheet_head": "Score sheet",
    "sheet_point": "Point",
    "sheet_who": "Scored by",
    "sheet_why": "Why",
    "sheet_nobody": "nobody",
    "watch_link": "Watch",
    "tables_head": "Tables in play",
    "tables_none": "No table is in play.",
    "watch_line": "{names}: {status}",
}
"""Every sentence of the hub's tables, by key (``{value!r}`` quotes what was sent, bounded)."""


def say(key: str, **fields) -> str:
    """One of :data:`TEXTS`, filled in (a ``!r`` field quoted and bounded to one short line)."""
    return _FORMATTER.format(TEXTS[key], **fields)
