"""The hub's tables in the class service: a lobby, a table for two, the teacher watching.

The game is the room's (:class:`calijack.tables.Room`, one per service), never a page's. Each
page talks to it through a websocket (tornado's :class:`~tornado.websocket.WebSocketHandler`),
authenticated by the hub exactly as the service's other handlers are (``HubOAuth``: the cookie
of the hub's sign-in, or a hub token); the player is the hub's answer, never a word of the
message. A page's origin must be the service's own host; a message may hold at most
:data:`calijack.tables.MAX_MESSAGE` characters (tornado closes a connection whose frame passes
:data:`FRAME_LIMIT`). Every refusal comes back as ``{"type": "error", "error": sentence}``
with the table as it is, and nothing changes.

Routes, under the service's prefix:

- ``tables/``: the lobby page (open a table, classmates online, your tables, invitations);
  ``tables/ws`` its socket;
- ``tables/t/ID``: the table page; ``tables/t/ID/ws`` its socket (joins the free seat);
- ``tables/watch/ID`` and ``tables/watch/ID/ws``: the teacher's (the teacher's scope only).

Each finished deal goes into each player's progress document in the store: a deal against a
classmate into ``people``, one finished against the computer into ``deals`` and
``opponents``, as the sandbox's are.
"""

from __future__ import annotations

import html
import json
import logging
from pathlib import Path
from urllib.parse import urlparse

from jupyterhub.services.auth import HubOAuth, HubOAuthenticated
from tornado import web, websocket
from tornado.ioloop import IOLoop

from .. import progress
from ..progress.entries import deal_totals
from ..tables import Room, TableError
from ..text_class import say as class_say
from ..text_tables import TEXTS, say

log = logging.getLogger("calijack.classsvc.tables")

FRAME_LIMIT = 64 * 1024
"""The largest websocket frame tornado reads at all (the room refuses past MAX_MESSAGE, in a sentence)."""
SCRIPT = Path(__file__).with_name("tables.js")
STYLE = Path(__file__).with_name("tables.css")
_ID = r"([A-Za-z0-9_-]{10,64})"


class _Hub(HubOAuthenticated):
    """The hub's authentication, as the service's other handlers have it."""

    @property
    def hub_auth(self):
        given = self.settings.get("calijack_hub_auth")
        return given if given is not None else HubOAuth.instance()

    @property
    def room(self) -> Room:
        return self.settings["calijack_room"]

    def user_name(self) -> str | None:
        user = self.current_user
        return user["name"] if user and user.get("kind") == "user" else None

    def is_teacher(self) -> bool:
        """The caller holds the teacher's scope (the application's ``calijack_teacher_scope``)."""
        return self.settings["calijack_teacher_scope"] in set((self.current_user or {}).get("scopes", ()))


class Socket(_Hub, websocket.WebSocketHandler):
    """One page's connection: the lobby (no table), a seat (``tables/t/ID/ws``) or the teacher's watch."""

    mode = "lobby"

    def initialize(self, mode: str = "lobby") -> None:
        self.mode = mode
        self.table_id: str | None = None
        self.name: str | None = None

    async def get(self, *args, **kwargs):
        name = self.user_name()
        if name is None:  # no hub sign-in, or not a user: refused before the socket opens
            raise web.HTTPError(403, class_say("not_signed_in") if not self.current_user else class_say("not_yours"))
        if self.mode == "watch" and not self.is_teacher():
            raise web.HTTPError(403, say("not_teacher"))
        if not self.request.headers.get("Origin"):  # a browser always says; a page elsewhere is refused below
            raise web.HTTPError(403, say("bad_origin"))
        self.name = name
        return await super().get(*args, **kwargs)

    def write_error(self, status_code, **kwargs):
        reason = getattr(kwargs.get("exc_info", (None, None))[1], "log_message", None) or self._reason
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": reason}))

    def check_origin(self, origin: str) -> bool:
        """Only a page of this very host (the hub's, through its proxy) may open a socket."""
        host = self.request.headers.get("Host", "")
        return bool(origin) and urlparse(origin).netloc.lower() == host.lower()

    def get_compression_options(self):
        return None

    # -- the connection --------------------------------------------------------------------------
    def open(self, table_id: str | None = None):
        sockets = self.settings["calijack_sockets"]
        self.arrived = True
        if self.mode != "watch":  # the teacher watching is not a classmate to invite
            self.room.arrive(self.name)
        if self.mode == "lobby":
            sockets.setdefault(None, set()).add(self)
            broadcast_lobby(self.settings)
            return
        try:
            table = self.room.table(table_id)
        except TableError as refusal:
            return self._refuse(str(refusal), close=True)
        if self.mode == "seat" and table.seat_of(self.name) is None:
            try:
                self.room.join(self.name, table.id)
            except TableError as refusal:
                return self._refuse(str(refusal), close=True)
        self.table_id = table.id
        if self.mode == "seat":
            self.room.connect(table.id, self.name)
        sockets.setdefault(table.id, set()).add(self)
        changed(self.settings, table.id)

    def on_message(self, message):
        if self.mode == "watch":
            return self._refuse(say("not_seated"))
        room = self.room
        try:
            parsed = room.parse(message)
            if parsed["type"] == "open" and self.mode == "lobby":
                table = room.open(self.name, invite=parsed.get("invite"), match=parsed.get("match", True) is not False)
                self.write_message({"type": "opened", "table": table.id,
                                    "link": f"{self.settings['calijack_prefix']}tables/t/{table.id}"})
                broadcast_lobby(self.settings)
                return
            table = room.receive(self.name, message)
        except TableError as refusal:
            return self._refuse(str(refusal))
        changed(self.settings, table.id)

    def on_close(self):
        if not getattr(self, "arrived", False):
            return
        self.arrived = False
        sockets = self.settings["calijack_sockets"]
        sockets.get(self.table_id, set()).discard(self)
        if self.mode != "watch":
            self.room.depart(self.name)
        if self.mode == "seat" and self.table_id in self.room.tables:
            self.room.disconnect(self.table_id, self.name)
            table_id, settings = self.table_id, self.settings
            changed(settings, table_id)
            # once the player is gone for good, the other's page offers to finish against the computer
            IOLoop.current().call_later(self.room.gone_after + 0.5, changed, settings, table_id)
        broadcast_lobby(self.settings)

    # -- what this page is sent ---------------------------------------------------------------------
    def view(self) -> dict | None:
        room = self.room
        if self.mode == "lobby":
            return room.lobby_view(self.name)
        if self.table_id not in room.tables:
            return None
        if self.mode == "watch":
            return room.watch_view(self.table_id)
        return room.seat_view(self.table_id, self.name)

    def send(self, payload: dict) -> None:
        try:
            self.write_message(json.dumps(payload, separators=(",", ":")))
        except websocket.WebSocketClosedError:
            pass

    def _refuse(self, sentence: str, close: bool = False) -> None:
        payload = {"type": "error", "error": sentence}
        if not close:
            try:
                payload["view"] = self.view()
            except TableError:
                pass
        self.send(payload)
        if close:
            self.close(4000 + 3, sentence[:100])


def changed(settings: dict, table_id: str) -> None:
    """Every page of the table gets its own view; finished deals go into the players' progress."""
    for socket in list(settings["calijack_sockets"].get(table_id, ())):
        try:
            view = socket.view()
        except TableError:
            continue
        if view is not None:
            socket.send({"type": "view", "view": view})
    keep_results(settings)
    broadcast_lobby(settings)


def broadcast_lobby(settings: dict) -> None:
    for socket in list(settings["calijack_sockets"].get(None, ())):
        socket.send({"type": "view", "view": socket.view()})


def progress_of(result: dict) -> dict:
    """A progress document holding one finished deal of a table (merged into the learner's by the store)."""
    doc = progress.empty()
    entry = result["entry"]
    totals = deal_totals(entry)
    if result["people"]:
        doc["people"] = {"totals": {entry["opponent"]: totals}, "deals": [entry]}
    else:
        doc["deals"], doc["opponents"] = [entry], {entry["opponent"]: totals}
    return doc


def keep_results(settings: dict) -> None:
    store = settings["calijack_store"]
    for user, result in settings["calijack_room"].take_results():
        try:
            store.put(user, progress_of(result))
        except progress.ProgressError as error:  # a hub name the document cannot hold: logged, the game goes on
            log.warning("a table's deal was not kept for %s: %s", user, error)


# -- the pages -------------------------------------------------------------------------------------

class _Page(_Hub, web.RequestHandler):
    def write_error(self, status_code, **kwargs):
        _page = self.settings["calijack_page"]
        reason = getattr(kwargs.get("exc_info", (None, None))[1], "log_message", None) or self._reason
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(_page(str(status_code), f"<p role='alert'>{html.escape(reason)}</p>"))

    def page(self, mode: str, title: str, table_id: str | None = None) -> None:
        _page = self.settings["calijack_page"]  # the service's page, as its other pages are
        prefix = self.settings["calijack_prefix"]
        ws = {"lobby": "tables/ws", "seat": f"tables/t/{table_id}/ws", "watch": f"tables/watch/{table_id}/ws"}[mode]
        config = {"mode": mode, "socket": prefix + ws, "prefix": prefix, "table": table_id, "texts": TEXTS,
                  "you": self.user_name()}
        data = json.dumps(config, ensure_ascii=True).replace("</", "<\\/")
        body = (f"<h1 id='cj-title'>{html.escape(title)}</h1>"
                f"<p id='cj-status' role='status' aria-live='polite'>{html.escape(say('connecting'))}</p>"
                f"<div id='cj-alert' role='alert'></div><div id='cj-app'></div>"
                f"<script type='application/json' id='cj-config'>{data}</script>"
                f"<style>{STYLE.read_text(encoding='utf-8')}</style>"
                f"<script>{SCRIPT.read_text(encoding='utf-8')}</script>")
        self.write(_page(title, body))


class LobbyPage(_Page):
    @web.authenticated
    def get(self):
        if self.user_name() is None:
            raise web.HTTPError(403, class_say("not_yours"))
        self.page("lobby", say("lobby_title"))


class TablePage(_Page):
    @web.authenticated
    def get(self, table_id):
        if self.user_name() is None:
            raise web.HTTPError(403, class_say("not_yours"))
        self.page("seat", say("table_title"), table_id)


class WatchPage(_Page):
    @web.authenticated
    def get(self, table_id):
        if not self.is_teacher():
            raise web.HTTPError(403, say("not_teacher"))
        if table_id not in self.room.tables:
            raise web.HTTPError(404, say("no_table", value=table_id))
        self.page("watch", say("watch_title"), table_id)


def routes(prefix_pattern: str) -> list:
    p = prefix_pattern
    return [
        (p + r"tables/?", LobbyPage),
        (p + r"tables/ws", Socket, {"mode": "lobby"}),
        (p + rf"tables/t/{_ID}", TablePage),
        (p + rf"tables/t/{_ID}/ws", Socket, {"mode": "seat"}),
        (p + rf"tables/watch/{_ID}", WatchPage),
        (p + rf"tables/watch/{_ID}/ws", Socket, {"mode": "watch"}),
    ]


def settings(room: Room | None, teacher_scope: str, page) -> dict:
    """The application's settings for the tables: the room, the open sockets, the frame limit,
    the teacher's scope and the service's page (``page(title, body)``)."""
    return {"calijack_room": room if room is not None else Room(), "calijack_sockets": {},
            "websocket_max_message_size": FRAME_LIMIT, "calijack_teacher_scope": teacher_scope,
            "calijack_page": page}


def tables_section(room: Room, prefix: str) -> str:
    """The teacher's page's list of the tables in play, each with a Watch link."""
    e = html.escape
    items = []
    for t in room.in_play():
        if t["status"] == "waiting":
            status = say("status_waiting")
        elif t["status"] == "over":
            status = say("status_over")
        else:
            status = say("status_playing", deal=t["deal"], trick=t["trick"], tricks=t["tricks"])
        names = " \u00b7 ".join(t["players"])
        items.append(f"<li>{e(say('watch_line', names=names, status=status))} "
                     f"<a href='{e(prefix)}tables/watch/{e(t['table'])}' "
                     f"aria-label='{e(say('watch_link'))}: {e(names)}'>{e(say('watch_link'))}</a></li>")
    inner = f"<ul id='cj-tables'>{''.join(items)}</ul>" if items else f"<p>{e(say('tables_none'))}</p>"
    return f"<section aria-labelledby='cj-tables-head'><h2 id='cj-tables-head'>{e(say('tables_head'))}</h2>{inner}</section>"
