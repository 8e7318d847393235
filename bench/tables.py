"""The hub's tables at a class's sizes (issue 35): a move to the other player's screen, and memory.

    python bench/tables.py [--tables 1 25] [--moves 40] [--json]

For each size, that many tables are opened and joined over real websockets to the class
service's application (``calijack.classsvc.app.make_app``, tornado, SQLite in a temporary
folder), every table's two players connected at once. Then every table plays ``--moves``
cards, all tables at the same time: each move is sent by the player to play, and its time is
taken when the *other* player's socket receives the new view. It prints the p50 and p95 of
those times, and the memory one table takes in the room (``tracemalloc``, a table with a deal
under way). In process: the hub's sign-in is stood in for at the hub boundary only (a token
per player, as the service's tests do) and there is no proxy, so a learner's round trip on
``make hub`` adds the proxy's hop to these figures.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jupyterhub.services.auth import HubOAuth  # noqa: E402
from tornado.httpclient import HTTPRequest  # noqa: E402
from tornado.httpserver import HTTPServer  # noqa: E402
from tornado.testing import bind_unused_port  # noqa: E402
from tornado.websocket import websocket_connect  # noqa: E402

from calijack.classsvc.app import NAME, make_app  # noqa: E402
from calijack.classsvc.store import Store  # noqa: E402
from calijack.tables import Room  # noqa: E402

PREFIX = f"/services/{NAME}/"
ACCESS = f"access:services!service={NAME}"


class BenchHub(HubOAuth):
    """The hub's answer to "whose token is this?": the token is ``bench-NAME``."""

    def get_user(self, handler, *, sync=True):
        token = handler.request.headers.get("Authorization", "").removeprefix("token ")
        if not token.startswith("bench-"):
            return None
        return copy.deepcopy({"kind": "user", "name": token.removeprefix("bench-"), "scopes": [ACCESS]})


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def _connect(port: int, path: str, user: str):
    headers = {"Authorization": f"token bench-{user}", "Origin": f"http://127.0.0.1:{port}"}
    return await websocket_connect(HTTPRequest(f"ws://127.0.0.1:{port}{PREFIX}{path}", headers=headers))


async def _latest(connection) -> dict:
    message = json.loads(await connection.read_message())
    return message.get("view") or {}


async def _table(port: int, index: int, moves: int, latencies: list[float]) -> int:
    first, second = f"a{index:03d}", f"b{index:03d}"
    lobby = await _connect(port, "tables/ws", first)
    await lobby.read_message()
    lobby.write_message(json.dumps({"type": "open"}))
    while True:
        opened = json.loads(await lobby.read_message())
        if opened["type"] == "opened":
            break
    lobby.close()
    pages = {first: await _connect(port, f"tables/t/{opened['table']}/ws", first)}
    await pages[first].read_message()
    pages[second] = await _connect(port, f"tables/t/{opened['table']}/ws", second)
    views = {second: await _latest(pages[second]), first: await _latest(pages[first])}
    while views[first].get("status") != "playing":
        views[first] = await _latest(pages[first])
    names = (first, second)
    played = 0
    for _ in range(moves):
        if views[first]["status"] != "playing":
            break
        mover = names[views[first]["to_play"]]
        other = names[1 - views[first]["to_play"]]
        begin = time.perf_counter()
        pages[mover].write_message(json.dumps({"type": "play", "table": opened["table"], "seq": views[mover]["seq"],
                                               "card": views[mover]["legal"][0]}))
        views[other] = await _latest(pages[other])
        latencies.append(time.perf_counter() - begin)
        views[mover] = await _latest(pages[mover])
        played += 1
    for page in pages.values():
        page.close()
    return played


async def _run(tables: int, moves: int) -> dict:
    folder = tempfile.TemporaryDirectory()
    store = Store(f"sqlite:///{folder.name}/class.sqlite")
    hub = BenchHub(api_token="not-used", api_url="http://127.0.0.1:9/hub/api", access_scopes={ACCESS},
                   base_url=PREFIX, oauth_client_id=f"service-{NAME}", hub_prefix="/hub/",
                   oauth_redirect_uri=f"http://127.0.0.1{PREFIX}oauth_callback")
    room = Room(max_tables=tables + 1)
    sock, port = bind_unused_port()
    server = HTTPServer(make_app(store, PREFIX, hub_auth=hub, room=room))
    server.add_sockets([sock])
    latencies: list[float] = []
    try:
        played = await asyncio.gather(*[_table(port, i, moves, latencies) for i in range(tables)])
    finally:
        server.stop()
        store.close()
        folder.cleanup()
    return {"tables": tables, "moves": sum(played), "move_ms_p50": round(_pct(latencies, .5) * 1000, 2),
            "move_ms_p95": round(_pct(latencies, .95) * 1000, 2)}


def table_bytes(count: int = 20, plays: int = 10) -> int:
    """The memory one table takes in the room: ``count`` tables, each ``plays`` cards into a deal."""
    room = Room(max_tables=count + 1)
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for i in range(count):
        room.arrive(f"b{i}")
        table = room.open(f"a{i}")
        room.join(f"b{i}", table.id)
        for _ in range(plays):
            seat = table.game.to_play
            user = table.seats[seat]
            view = room.seat_view(table.id, user)
            room.receive(user, json.dumps({"type": "play", "table": table.id, "seq": view["seq"],
                                           "card": view["legal"][0]}))
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    return max(0, grown // count)


def run(sizes=(1, 25), moves: int = 40) -> list[dict]:
    out = [asyncio.run(_run(size, moves)) for size in sizes]
    memory = table_bytes()
    for entry in out:
        entry["bytes_per_table"] = memory
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 25])
    parser.add_argument("--moves", type=int, default=40, help="cards each table plays (default 40)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = run(args.tables, args.moves)
    loadavg = Path("/proc/loadavg")
    load = loadavg.read_text().split()[:3] if loadavg.exists() else []
    if args.json:
        print(json.dumps({"sizes": report, "load": load}))
        return 0
    for entry in report:
        print(f"{entry['tables']:>3} tables: {entry['moves']} moves, move -> other screen "
              f"p50 {entry['move_ms_p50']} ms, p95 {entry['move_ms_p95']} ms; "
              f"{entry['bytes_per_table'] / 1024:.1f} KiB per table")
    print(f"load average: {' '.join(load)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
