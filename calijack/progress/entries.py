"""The entries the live sandbox writes into the progress store: its unfinished game
(the ``game`` section) and each finished deal (an entry of ``deals``)."""

from __future__ import annotations

import secrets


def new_game_id() -> str:
    """A new game's id: 16 random hex digits."""
    return secrets.token_hex(8)


def game_entry(session, game_id: str) -> dict:
    """The ``game`` section for ``session`` (a :class:`calijack.play.Session`), ``saved`` left to the store."""
    state = session.state
    return {"id": game_id, "opponent": session.opponent, "seat": session.seat, "seed": str(session.seed),
            "deal": session.deal_number, "trick": min(state.trick_number, state.rules.tricks),
            "tricks": state.rules.tricks, "record": session.record()}


def deal_entry(session, game_id: str) -> dict:
    """The ``deals`` entry for ``session``'s deal, just finished (``when`` left to the store)."""
    match = session.match
    outcome = None if not match.finished else "won" if match.winner == session.seat else "lost"
    return {"id": f"{game_id}/{session.deal_number}", "opponent": session.opponent, "seat": session.seat,
            "points": list(session.result.points), "match": outcome, "record": session.record("deal")}


def deal_totals(entry: dict) -> dict:
    """What one ``deals`` entry adds to its opponent's totals (the ``opponents`` section, and
    ``people``'s totals): one deal, the match points for and against, a match won or lost."""
    mine = entry["points"][entry["seat"]] if entry["seat"] < len(entry["points"]) else 0
    return {"deals": 1, "for": mine, "against": sum(entry["points"]) - mine,
            "won": int(entry["match"] == "won"), "lost": int(entry["match"] == "lost")}
