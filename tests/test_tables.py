"""Tables on the hub (calijack.tables): two classmates at one table, the game on the server.

Opening and joining, each seat's view (never a card of the other hand that both did not see,
checked on the JSON a page would receive), the teacher's view (never a hand), moves checked
by the engine, stale moves, bad messages (one sentence, nothing changed), reconnecting, a
player gone for good and the computer finishing for them, and the progress entries of each
finished deal, whose record the engine replays to the server's very game."""

from __future__ import annotations

import json
import re

import pytest

from calijack import records
from calijack.reasons import IllegalPlay
from calijack.tables import Room, TableError
from calijack.text_tables import say

CODE = re.compile(r"\b[2-9TJQKA][SHDC]\b")


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def seated(seed=7, match=True, **options):
    clock = Clock()
    room = Room(clock=clock, seed=seed, gone_after=30, **options)
    for user in ("ann", "bo"):
        room.arrive(user)
    table = room.open("ann", invite="bo", match=match)
    room.join("bo", table.id)
    for user in ("ann", "bo"):
        room.connect(table.id, user)
    return room, table, clock


def move(room, user, table, kind="play", **fields):
    seq = fields.pop("seq", table.seq)
    return room.receive(user, json.dumps({"type": kind, "table": table.id, "seq": seq, **fields}))


def play_first_legal(room, table):
    user = table.seats[table.game.to_play]
    card = room.seat_view(table.id, user)["legal"][0]
    move(room, user, table, card=card)


def snapshot(room, table):
    return json.dumps([room.seat_view(table.id, "ann"), room.seat_view(table.id, "bo"), room.watch_view(table.id)])


def secret_codes(table, seat):
    """The cards ``seat`` holds that the other player never saw: only ``seat``'s page may hold them."""
    state = table.game.state
    return {c.code for c in state.hand(seat)} - {c.code for c in state.view(1 - seat).known[seat]}


def test_open_join_and_each_seat_sees_its_own_hand():
    room, table, _ = seated()
    ann, bo = room.seat_view(table.id, "ann"), room.seat_view(table.id, "bo")
    state = table.game.state
    assert ann["hand"] == [c.code for c in state.hand(0)] and bo["hand"] == [c.code for c in state.hand(1)]
    assert ann["seat"] == 0 and bo["seat"] == 1 and ann["status"] == "playing" and ann["seq"] == bo["seq"] == 1
    leader = state.to_play
    views = (ann, bo)
    assert views[leader]["legal"] and views[1 - leader]["legal"] == []
    assert views[leader]["prompt"].startswith("Your turn")
    assert len(table.id) >= 20 and table.id not in {t.game_id for t in room.tables.values()}
    assert room.lobby_view("ann")["tables"][0]["players"] == ["ann", "bo"]


def test_a_classmate_is_invited_from_those_online_and_sees_the_invitation():
    room = Room(clock=Clock())
    room.arrive("ann")
    with pytest.raises(TableError, match=re.escape(say("invite_name", value="bo"))):
        room.open("ann", invite="bo")  # bo is not online
    room.arrive("bo")
    assert room.online("ann") == ["bo"]
    with pytest.raises(TableError, match=re.escape(say("invite_self"))):
        room.open("ann", invite="ann")
    table = room.open("ann", invite="bo")
    assert [t["table"] for t in room.lobby_view("bo")["invites"]] == [table.id]
    room.depart("bo")
    assert room.online("ann") == []


def test_a_third_person_own_table_and_too_many_tables_are_refused():
    room, table, _ = seated()
    before = snapshot(room, table)
    with pytest.raises(TableError) as refused:
        room.join("cy", table.id)
    assert str(refused.value) == say("full")
    with pytest.raises(TableError) as refused:
        room.receive("cy", json.dumps({"type": "join", "table": table.id}))
    assert str(refused.value) == say("full") and snapshot(room, table) == before
    lone = Room(clock=Clock(), max_tables=2)
    first = lone.open("ann")
    with pytest.raises(TableError, match=re.escape(say("own_table"))):
        lone.join("ann", first.id)
    lone.open("ann")
    with pytest.raises(TableError, match=re.escape(say("too_many", limit=2))):
        lone.open("ann")
    assert len(lone.tables) == 2
    with pytest.raises(TableError, match="There is no table"):
        lone.join("bo", "not-a-table")


def test_bad_moves_get_one_sentence_and_change_nothing():
    room, table, _ = seated()
    state = table.game.state
    mover = table.seats[state.to_play]
    other = table.seats[1 - state.to_play]
    not_mine = state.hand(1 - state.to_play)[0].code
    cases = [
        (mover, json.dumps({"type": "play", "table": table.id, "seq": table.seq, "card": not_mine}),
         say("not_your_card", card=state.hand(1 - state.to_play)[0])),
        (other, json.dumps({"type": "play", "table": table.id, "seq": table.seq,
                            "card": room.seat_view(table.id, other)["hand"][0]}),
         say("not_your_turn", name=mover)),
        ("cy", json.dumps({"type": "play", "table": table.id, "seq": table.seq, "card": not_mine}),
         say("not_seated")),
        (mover, json.dumps({"type": "play", "table": table.id, "seq": table.seq - 1,
                            "card": room.seat_view(table.id, mover)["legal"][0]}), say("stale")),
        (mover, json.dumps({"type": "play", "table": table.id, "card": "AS"}), say("no_seq")),
        (mover, json.dumps({"type": "play", "table": table.id, "seq": True, "card": "AS"}), say("no_seq")),
        (mover, json.dumps({"type": "play", "table": table.id, "seq": table.seq, "card": "ZZ"}),
         say("not_a_card", value="ZZ")),
        (mover, json.dumps({"type": "play", "table": table.id, "seq": table.seq, "card": ["AS"]}),
         say("not_a_card", value=["AS"])),
        (mover, "{", say("not_json")),
        (mover, "[1, 2]", say("not_json")),
        (mover, b"\xff\xfe", say("not_json")),
        (mover, json.dumps({"table": table.id}), say("no_type")),
        (mover, json.dumps({"type": "shuffle", "table": table.id}), say("unknown_type", value="shuffle")),
        (mover, json.dumps({"type": "play", "table": "x" * 30, "seq": 1, "card": "AS"}),
         say("no_table", value="x" * 30)),
        (mover, json.dumps({"type": "play", "table": table.id, "seq": table.seq, "card": "AS", "pad": "x" * 3000}),
         say("too_big", limit=room.max_message)),
        (mover, json.dumps({"type": "next", "table": table.id, "seq": table.seq}),
         say("deal_going", trick=1, tricks=state.rules.tricks)),
        (mover, json.dumps({"type": "computer", "table": table.id, "seq": table.seq}),
         say("not_gone", name=other, seconds=30)),
        (mover, "[" * 100_000, say("too_big", limit=room.max_message)),
    ]
    before = snapshot(room, table)
    for user, text, sentence in cases:
        with pytest.raises(TableError) as refused:
            room.receive(user, text)
        message = str(refused.value)
        assert message == sentence, (text[:60], message)
        assert "\n" not in message and len(message) < 200 and message.endswith(".")
        assert snapshot(room, table) == before, text[:60]


def test_a_card_the_rules_forbid_is_refused_with_the_engines_reason():
    room, table, _ = seated()
    for _ in range(40):  # find a follower who holds a card that may not be played
        state = table.game.state
        if state.trick:
            seat = state.to_play
            illegal = [c for c in state.hand(seat) if c not in state.legal_cards()]
            if illegal:
                break
        play_first_legal(room, table)
    else:
        pytest.fail("no position with a forbidden card in 40 plays")
    before = snapshot(room, table)
    with pytest.raises(TableError) as refused:
        move(room, table.seats[seat], table, card=illegal[0].code)
    with pytest.raises(IllegalPlay) as engine:
        state.play(illegal[0])
    assert str(refused.value) == str(engine.value) and str(refused.value)
    assert snapshot(room, table) == before


def test_on_the_wire_no_page_holds_a_card_of_the_other_hand_before_it_is_shown():
    """Each seat's view and the teacher's, as JSON, through a whole deal: never a card of the
    other hand that the other player did not see (a card drawn face up from the stock both see),
    never a card of a hand in the teacher's."""
    room, table, _ = seated(seed=11)
    checked = 0
    while not table.game.finished:
        for seat, user in enumerate(table.seats):
            text = json.dumps(room.seat_view(table.id, user))
            shown = set(CODE.findall(text))
            assert not shown & secret_codes(table, 1 - seat), (user, shown & secret_codes(table, 1 - seat))
            assert set(room.seat_view(table.id, user)["hand"]) == {c.code for c in table.game.state.hand(seat)}
        hands = {c.code for s in (0, 1) for c in table.game.state.hand(s)}
        watched = set(CODE.findall(json.dumps(room.watch_view(table.id))))
        assert not watched & hands, watched & hands
        checked += 1
        play_first_legal(room, table)
    assert checked == 2 * table.game.rules.tricks


def test_a_stale_move_after_a_reload_is_refused_and_the_reload_sees_the_same_table():
    room, table, _ = seated()
    mover = table.seats[table.game.to_play]
    old = room.seat_view(table.id, mover)
    room.disconnect(table.id, mover)   # a reload: the page goes...
    room.connect(table.id, mover)      # ...and comes back
    assert room.seat_view(table.id, mover) == old
    move(room, mover, table, card=old["legal"][0], seq=old["seq"])
    # the old page's second tab sends the same moment's move again: stale
    before = snapshot(room, table)
    with pytest.raises(TableError, match="moved on"):
        move(room, mover, table, card=old["hand"][1], seq=old["seq"])
    assert snapshot(room, table) == before


def test_a_player_gone_for_good_lets_the_other_finish_against_the_computer():
    room, table, clock = seated(seed=3)
    play_first_legal(room, table)
    stayer, leaver = "ann", "bo"
    room.disconnect(table.id, leaver)
    assert "lost the connection" in room.seat_view(table.id, stayer)["prompt"] or \
        room.seat_view(table.id, stayer)["prompt"].startswith("Your turn")
    clock.now += 29
    assert not room.seat_view(table.id, stayer)["can_take_over"]
    with pytest.raises(TableError, match="still at the table"):
        move(room, stayer, table, kind="computer")
    clock.now += 2
    assert room.seat_view(table.id, stayer)["can_take_over"]
    move(room, stayer, table, kind="computer")
    assert table.computer == 1
    assert any("The computer (Casual) plays bo's seat" in m for m in room.seat_view(table.id, stayer)["messages"])
    # the leaver comes back: their moves are refused now
    room.connect(table.id, leaver)
    while not table.game.finished:
        assert table.game.to_play == 0  # the computer answered at once
        with pytest.raises(TableError, match=re.escape(say("computer_plays"))):
            move(room, leaver, table, card=(room.seat_view(table.id, leaver)["hand"] or ["AS"])[0])
        play_first_legal(room, table)
    results = room.take_results()
    assert [(user, r["people"], r["entry"]["opponent"]) for user, r in results] == [("ann", False, "casual")]


def test_each_finished_deal_gives_both_players_an_entry_whose_record_replays_the_servers_game():
    room, table, _ = seated(seed=5)
    while not table.game.finished:
        play_first_legal(room, table)
    results = room.take_results()
    assert [(u, r["people"], r["entry"]["opponent"], r["entry"]["seat"]) for u, r in results] == [
        ("ann", True, "bo", 0), ("bo", True, "ann", 1)]
    replayed = records.read_record(results[0][1]["entry"]["record"])
    assert replayed == table.game.state
    assert results[0][1]["entry"]["points"] == list(replayed.result().points)
    assert results[0][1]["entry"]["id"] == f"{table.game_id}/1"
    assert room.take_results() == []
    # the score sheet, the same for both seats and the watcher: each point, who scored it, why
    sheets = [room.seat_view(table.id, "ann")["sheet"], room.seat_view(table.id, "bo")["sheet"],
              room.watch_view(table.id)["sheet"]]
    assert sheets[0] == sheets[1] == sheets[2]
    awards = replayed.result().awards
    assert [(row["point"], row["seat"]) for row in sheets[0]] == [(a.name, a.seat) for a in awards]
    assert all(row["why"] and row["title"] for row in sheets[0])
    assert "ann" in " ".join(row["why"] for row in sheets[0]) or "bo" in " ".join(row["why"] for row in sheets[0])
    # the next deal of the match, and the views say the deal is over until then
    assert room.seat_view(table.id, "ann")["status"] == "deal_over"
    move(room, "bo", table, kind="next")
    assert table.game.deal_number == 2 and room.seat_view(table.id, "ann")["status"] == "playing"


def test_a_single_deal_table_ends_with_the_deal():
    room, table, _ = seated(seed=5, match=False)
    while not table.game.finished:
        play_first_legal(room, table)
    assert table.over and room.seat_view(table.id, "ann")["status"] == "over"
    with pytest.raises(TableError, match="The match is over"):
        move(room, "ann", table, kind="next")
    assert room.lobby_view("ann")["tables"] == []  # no longer counted among their open tables
