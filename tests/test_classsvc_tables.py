"""The class service's tables (calijack.classsvc.tables): websockets behind the hub's own
authentication, replaced only where it asks the hub who a token belongs to, as in
test_classsvc. Two learners play over real sockets; every frame a player's page receives is
checked for the other player's unseen cards; hostile messages get one sentence and change
nothing; a third learner, a stranger, another site and a learner at the teacher's watch are
refused; a finished deal lands in both players' progress, apart from the computer's."""

from __future__ import annotations

import csv
import io
import html
import json
import re

from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.testing import gen_test
from tornado.websocket import websocket_connect

from calijack.classsvc.app import TEACHER_SCOPE
from calijack.classsvc.tables import FRAME_LIMIT
from calijack.tables import MAX_MESSAGE, Room
from calijack.text_tables import say
from classsvc_case import ACCESS, PREFIX, ServiceCase  # noqa: E402  (beside this file)

USERS = {
    "ann-token": {"kind": "user", "name": "ann", "scopes": [ACCESS]},
    "bo-token": {"kind": "user", "name": "bo", "scopes": [ACCESS]},
    "cy-token": {"kind": "user", "name": "cy", "scopes": [ACCESS]},
    "teacher-token": {"kind": "user", "name": "teacher", "scopes": [ACCESS, TEACHER_SCOPE]},
    "outsider-token": {"kind": "user", "name": "eve", "scopes": []},
}
CODE = re.compile(r"\b[2-9TJQKA][SHDC]\b")


class Page:
    """One page's socket, keeping every frame it received (the wire, as the browser gets it)."""

    def __init__(self, connection):
        self.connection, self.frames = connection, []

    async def next(self):
        text = await self.connection.read_message()
        assert text is not None, "the connection closed"
        self.frames.append(text)
        return json.loads(text)

    def send(self, message):
        return self.connection.write_message(message if isinstance(message, str) else json.dumps(message))


class TablesTest(ServiceCase):
    USERS = USERS

    def setUp(self):
        self.room = Room(seed=7, gone_after=0.2)
        super().setUp()

    def app_options(self) -> dict:
        return {"room": self.room}

    async def page(self, path, token, origin=True):
        headers = {"Authorization": f"token {token}"} if token else {}
        if origin is True:
            headers["Origin"] = f"http://127.0.0.1:{self.get_http_port()}"
        elif origin:
            headers["Origin"] = origin
        url = f"ws://127.0.0.1:{self.get_http_port()}{PREFIX}{path}"
        return Page(await websocket_connect(HTTPRequest(url, headers=headers)))

    def get(self, path, token):
        return self.http_client.fetch(self.get_url(PREFIX + path), headers={"Authorization": f"token {token}"},
                                      raise_error=False, follow_redirects=False)

    async def seated(self):
        """ann opens a table from the lobby inviting bo, who is online; bo follows the link."""
        bo_lobby = await self.page("tables/ws", "bo-token")
        await bo_lobby.next()
        lobby = await self.page("tables/ws", "ann-token")
        assert (await lobby.next())["view"]["online"] == ["bo"]
        lobby.send({"type": "open", "invite": "bo"})
        opened = await lobby.next()
        assert opened["type"] == "opened" and opened["link"] == f"{PREFIX}tables/t/{opened['table']}"
        invited = await bo_lobby.next()
        while not invited["view"]["invites"]:
            invited = await bo_lobby.next()
        assert invited["view"]["invites"][0]["table"] == opened["table"]
        lobby.connection.close()
        bo_lobby.connection.close()
        table = opened["table"]
        ann = await self.page(f"tables/t/{table}/ws", "ann-token")
        first = await ann.next()
        assert first["view"]["status"] == "waiting"
        bo = await self.page(f"tables/t/{table}/ws", "bo-token")
        view_bo = (await bo.next())["view"]
        view_ann = (await ann.next())["view"]
        while view_ann["status"] == "waiting":
            view_ann = (await ann.next())["view"]
        return table, {"ann": ann, "bo": bo}, {"ann": view_ann, "bo": view_bo}

    async def play(self, table, pages, views, card=None):
        """The player to play plays (their first legal card); both pages get their new view."""
        mover = ("ann", "bo")[views["ann"]["to_play"]]
        pages[mover].send({"type": "play", "table": table, "seq": views[mover]["seq"],
                           "card": card or views[mover]["legal"][0]})
        for name in ("ann", "bo"):
            message = await pages[name].next()
            assert message["type"] == "view", message
            views[name] = message["view"]
        return mover

    def secrets(self, table, seat):
        state = self.room.tables[table].game.state
        return {c.code for c in state.hand(seat)} - {c.code for c in state.view(1 - seat).known[seat]}

    @gen_test(timeout=20)
    async def test_two_learners_play_and_no_frame_holds_the_other_hand(self):
        table, pages, views = await self.seated()
        assert views["ann"]["seat"] == 0 and views["bo"]["seat"] == 1 and views["ann"]["seq"] == views["bo"]["seq"]
        for _ in range(8):  # four tricks
            for seat, name in enumerate(("ann", "bo")):
                frame = pages[name].frames[-1]
                assert not set(CODE.findall(frame)) & self.secrets(table, 1 - seat), name
            await self.play(table, pages, views)
        assert views["ann"]["trick_number"] == 5 and len(views["ann"]["played"]) == 4
        assert views["ann"]["hand"] == [c.code for c in self.room.tables[table].game.state.hand(0)]
        # the teacher watches: the cards played, never a hand
        watch = await self.page(f"tables/watch/{table}/ws", "teacher-token")
        watched = await watch.next()
        hands = {c.code for s in (0, 1) for c in self.room.tables[table].game.state.hand(s)}
        assert watched["view"]["kind"] == "watch" and len(watched["view"]["played"]) == 4
        assert not set(CODE.findall(watch.frames[-1])) & hands
        cy = await self.page("tables/ws", "cy-token")  # the teacher watching is no classmate to invite
        assert (await cy.next())["view"]["online"] == ["ann", "bo"]
        answer = await self.get("", "teacher-token")
        assert f"tables/watch/{table}" in answer.body.decode() and "ann \u00b7 bo" in answer.body.decode()
        # a reload: the page goes, a new one comes, and sees the very same table
        pages["bo"].connection.close()
        again = await self.page(f"tables/t/{table}/ws", "bo-token")
        reloaded = (await again.next())["view"]
        assert reloaded["hand"] == views["bo"]["hand"] and reloaded["seq"] == views["bo"]["seq"]

    @gen_test(timeout=20)
    async def test_hostile_messages_get_one_sentence_and_change_nothing(self):
        table, pages, views = await self.seated()
        mover = ("ann", "bo")[views["ann"]["to_play"]]
        other = "bo" if mover == "ann" else "ann"
        before = json.dumps(self.room.seat_view(table, "ann")), json.dumps(self.room.seat_view(table, "bo"))
        theirs = views[other]["hand"][0]
        game = self.room.tables[table].game.state
        hostile = [
            ({"type": "play", "table": table, "seq": views[mover]["seq"], "card": theirs},
             say("not_your_card", card=self.room.tables[table].game.state.hand(1 - views[mover]["seat"])[0])),
            ({"type": "play", "table": table, "seq": views[mover]["seq"] - 1, "card": views[mover]["legal"][0]},
             say("stale")),
            ({"type": "play", "table": "A" * 22, "seq": 1, "card": "AS"}, say("no_table", value="A" * 22)),
            ({"type": "play", "table": table, "seq": views[mover]["seq"], "card": "AS", "pad": "x" * MAX_MESSAGE},
             say("too_big", limit=MAX_MESSAGE)),
            ("not json at all", say("not_json")),
            ({"type": "open"}, say("unknown_type", value="open")),  # tables open in the lobby only
        ]
        for message, sentence in hostile:
            pages[mover].send(message)
            answer = await pages[mover].next()
            assert answer["type"] == "error" and answer["error"] == sentence, (message, answer)
            assert answer["view"]["seq"] == views[mover]["seq"]
        # the other player, out of turn; and a move naming the other player changes nothing either
        pages[other].send({"type": "play", "table": table, "seq": views[other]["seq"], "card": theirs,
                           "user": mover, "seat": views[mover]["seat"]})
        answer = await pages[other].next()
        assert answer["error"] == say("not_your_turn", name=mover)
        assert (json.dumps(self.room.seat_view(table, "ann")), json.dumps(self.room.seat_view(table, "bo"))) == before
        # cy is not at this table: her move is refused, and her joining a full table too
        lobby = await self.page("tables/ws", "cy-token")
        await lobby.next()
        lobby.send({"type": "play", "table": table, "seq": views[mover]["seq"], "card": views[mover]["legal"][0]})
        assert (await lobby.next())["error"] == say("not_seated")
        third = await self.page(f"tables/t/{table}/ws", "cy-token")
        refusal = await third.next()
        assert refusal == {"type": "error", "error": say("full")}
        assert await third.connection.read_message() is None and third.connection.close_code == 4003
        # a frame past the limit closes the connection; nothing changed
        pages[mover].send("x" * (FRAME_LIMIT + 10))
        assert await pages[mover].connection.read_message() is None
        assert self.room.tables[table].seq == views[mover]["seq"] and self.room.tables[table].game.state == game

    @gen_test(timeout=20)
    async def test_strangers_other_sites_and_learners_at_the_watch_are_refused(self):
        table, pages, views = await self.seated()
        for path, token, origin in ((f"tables/t/{table}/ws", None, True),
                                    (f"tables/t/{table}/ws", "outsider-token", True),
                                    (f"tables/t/{table}/ws", "ann-token", "http://evil.example"),
                                    (f"tables/t/{table}/ws", "ann-token", None),
                                    (f"tables/watch/{table}/ws", "ann-token", True)):
            try:
                await self.page(path, token, origin)
            except HTTPClientError as error:
                assert error.code == 403, (path, token, origin)
            else:
                raise AssertionError(f"{path} opened for {token} from {origin}")
        refused = (await self.get("", "ann-token")).body.decode()  # the class's page sends a learner to the lobby
        assert f"href='{PREFIX}tables/'" in refused and say("lobby_title") in refused
        answer = await self.get(f"tables/watch/{table}", "ann-token")
        assert answer.code == 403 and say("not_teacher") in html.unescape(answer.body.decode())
        page = (await self.get(f"tables/t/{table}", "bo-token")).body.decode()
        assert "cj-config" in page and views["bo"]["hand"][0] not in CODE.findall(page)

    @gen_test(timeout=30)
    async def test_a_finished_deal_is_kept_in_both_players_progress(self):
        table, pages, views = await self.seated()
        while views["ann"]["status"] == "playing":
            await self.play(table, pages, views)
        for name, other in (("ann", "bo"), ("bo", "ann")):
            doc = self.store.get(name)[0]
            assert doc["version"] == 3 and doc["deals"] == [] and doc["opponents"] == {}
            assert [d["opponent"] for d in doc["people"]["deals"]] == [other]
            assert doc["people"]["totals"][other]["deals"] == 1
            assert doc["people"]["deals"][0]["points"] == views[name]["points"]
        # the teacher's table counts them apart from the deals against the computer
        page = (await self.get("", "teacher-token")).body.decode()
        assert page.count("data-people='1'") == 2 and page.count("data-deals='0'") == 2
        rows = list(csv.reader(io.StringIO((await self.get("class.csv", "teacher-token")).body.decode())))
        assert rows[0][-1] == "deals against classmates (mean points a deal)" and len(rows) == 3
        assert all(r[-1].startswith("1 deals, ") for r in rows[1:]), rows

    @gen_test(timeout=30)
    async def test_a_player_gone_for_good_and_the_deal_finished_against_the_computer(self):
        table, pages, views = await self.seated()
        await self.play(table, pages, views)
        pages["bo"].connection.close()  # bo leaves for good: ann finishes against the computer
        while not views["ann"].get("can_take_over"):
            views["ann"] = (await pages["ann"].next())["view"]
        pages["ann"].send({"type": "computer", "table": table, "seq": views["ann"]["seq"]})
        views["ann"] = (await pages["ann"].next())["view"]
        while views["ann"]["status"] == "playing":
            pages["ann"].send({"type": "play", "table": table, "seq": views["ann"]["seq"],
                               "card": views["ann"]["legal"][0]})
            views["ann"] = (await pages["ann"].next())["view"]
        ann = self.store.get("ann")[0]
        assert [d["opponent"] for d in ann["deals"]] == ["casual"] and ann["opponents"]["casual"]["deals"] == 1
        assert ann["people"] == {"totals": {}, "deals": []}  # not a deal against a classmate
        assert self.store.get("bo") is None  # bo did not finish it


def test_the_benchmark_runs_at_a_tiny_size():
    """bench/tables.py (the full sizes are its business): every move reaches the other screen."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "bench" / "tables.py"
    spec = importlib.util.spec_from_file_location("bench_tables", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    [report] = bench.run(sizes=(2,), moves=4)
    assert report["tables"] == 2 and report["moves"] == 8 and report["bytes_per_table"] > 0
    assert report["move_ms_p95"] >= report["move_ms_p50"] > 0
