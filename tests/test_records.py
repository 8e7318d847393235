"""Game records (RECORDS.md): reading, checking, writing, and the replay JSON object."""

import json
from pathlib import Path

import pytest

from calijack import DECK, Rules, State
from calijack.records import (MatchRecord, RecordError, deal_record, dumps, load, loads, match_record,
                              read_record, replay_json)

DATA = Path(__file__).parent / "data" / "records"
ERRORS = json.loads((DATA / "errors.json").read_text(encoding="utf-8"))
GOOD = sorted(p.name for p in DATA.glob("good_*.json"))

# The --json example of RECORDS.md, exactly as written there.
EXAMPLE_OUTPUT = {
    "trump": "H",
    "tricks": [
        {"leader": 1, "cards": ["7C", "2H"],
         "legal": [["3D", "4D", "5S", "7C", "AS", "KS"], ["2H"]],
         "winner": 0, "draws": ["JH", "QD"]}
    ],
    "finished": False,
    "to_play": 0,
    "legal": ["8D", "9S", "AD", "JH", "KD", "QS"],
    "result": None,
}


def same_game(one: State, other: State):
    assert one.deal == other.deal and one.plays == other.plays and one.tricks == other.tricks
    assert one == other
    if one.finished:
        assert one.result() == other.result()


def all_codes(obj):
    """Every card string in a replay object (cards, legal, draws)."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key in ("cards", "draws", "legal"):
                yield from (c for v in value for c in (v if isinstance(v, list) else [v]))
            else:
                yield from all_codes(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from all_codes(value)


def normalised(legal_lists):
    return [sorted(x) for x in legal_lists]


@pytest.mark.parametrize("name", ["good_example.json", "good_spellings.json"])
def test_records_md_example(name):
    out = replay_json(load(DATA / name))
    assert out == EXAMPLE_OUTPUT
    assert normalised(out["tricks"][0]["legal"]) == normalised(EXAMPLE_OUTPUT["tricks"][0]["legal"])


def test_the_cli_tests_compare_with_the_same_example():
    assert json.loads((DATA / "example_output.json").read_text()) == EXAMPLE_OUTPUT


def test_records_md_example_as_literally_written_is_refused():
    # RECORDS.md gives seat 0 the 7♣ hand with dealer 0, so seat 1 (who leads) cannot play 7♣.
    data = json.loads((DATA / "good_example.json").read_text())
    data["hands"].reverse()
    with pytest.raises(RecordError) as caught:
        read_record(data)
    assert (caught.value.trick, caught.value.seat, caught.value.card) == (1, 1, "7C")


def test_spellings_are_written_back_as_two_ascii_characters():
    state = load(DATA / "good_spellings.json")
    record = deal_record(state)
    assert record == {**json.loads((DATA / "good_example.json").read_text()), "rules": {}}
    for card in record["hands"][0] + record["hands"][1] + record["stock"] + record["plays"]:
        assert len(card) == 2 and card.isascii() and card == card.upper()
    assert "10" not in dumps(record) and "♥" not in dumps(record)


@pytest.mark.parametrize("name", GOOD)
def test_good_records_round_trip(name):
    text = (DATA / name).read_text(encoding="utf-8")
    record = loads(text)
    if isinstance(record, State):
        written = deal_record(record)
        again = loads(dumps(written))
        same_game(record, again)
        assert deal_record(again) == written
    else:
        assert isinstance(record, MatchRecord)
        written = match_record(record.rules, record.first_dealer, record.states)
        again = loads(dumps(written))
        assert again.rules == record.rules and again.first_dealer == record.first_dealer
        assert len(again.states) == len(record.states)
        for one, other in zip(record.states, again.states):
            same_game(one, other)
        assert again.match() == record.match()
    out = replay_json(record)
    assert json.loads(json.dumps(out)) == out
    for code in all_codes(out):
        assert len(code) == 2 and code.isascii() and code in {c.code for c in DECK}


@pytest.mark.parametrize("name", GOOD)
def test_replay_object_follows_the_game(name):
    record = load(DATA / name)
    states = [record] if isinstance(record, State) else list(record.states)
    outs = [replay_json(record)] if isinstance(record, State) else replay_json(record)["deals"]
    for state, out in zip(states, outs):
        assert out["trump"] == state.trump.letter and out["finished"] == state.finished
        assert len(out["tricks"]) == len(state.tricks) + bool(state.trick)
        walk = state.deal.start()
        for number, trick in enumerate(out["tricks"]):
            for card, legal in zip(trick["cards"], trick["legal"]):
                assert sorted(legal) == sorted(c.code for c in walk.legal_cards()) and card in legal
                walk = walk.play(card)
            if number < len(state.tricks):
                assert trick["winner"] == state.tricks[number].winner
                assert trick["draws"] == [c.code for c in state.tricks[number].draws]
                assert len(trick["draws"]) == (state.players if number < state.rules.draws else 0)
            else:
                assert "winner" not in trick and "draws" not in trick
        if state.finished:
            assert out["to_play"] is None and out["legal"] == []
            result = state.result()
            assert out["result"] == {**{a.name: a.seat for a in result.awards},
                                     "pips": list(result.pips), "points": list(result.points)}
        else:
            assert out["to_play"] == state.to_play and out["result"] is None
            assert sorted(out["legal"]) == sorted(c.code for c in state.legal_cards())


def test_three_player_and_shasta_record():
    record = load(DATA / "good_three.json")
    assert record.rules == Rules(players=3, shasta_point=True) and record.finished
    out = replay_json(record)
    assert len(out["tricks"]) == 17 and set(out["result"]) >= {"nine"}
    assert len(out["result"]["pips"]) == 3 and all(len(t["cards"]) == 3 for t in out["tricks"])


def test_cut_record_names_trump():
    data = json.loads((DATA / "good_cut.json").read_text())
    assert data["rules"] == {"stock": "closed", "trump_from": "cut"} and "trump" in data
    state = read_record(data)
    assert state.trump.letter == data["trump"] and deal_record(state)["trump"] == data["trump"]


def test_match_won_with_both_seats_crossing():
    record = load(DATA / "good_match_won.json")
    out = replay_json(record)
    scores, crossing = [0, 0], False
    for state, deal in zip(record.states, out["deals"]):
        result = state.result()
        earned = list(result.points)
        if all(scores[s] + earned[s] >= 10 for s in (0, 1)):
            crossing = True
        for award in result.awards:  # strict order, stopping at the target
            if award.seat is not None:
                scores[award.seat] += 1
                if scores[award.seat] == 10:
                    break
        assert deal["scores"] == scores
    assert crossing and out["winner"] == scores.index(10) and max(scores) == 10 and min(scores) < 10
    assert record.match().winner == out["winner"] and list(record.match().scores) == scores


def test_match_in_progress():
    record = load(DATA / "good_match_in_progress.json")
    out = replay_json(record)
    assert record.rules == Rules(target=7) and record.first_dealer == 1
    assert [s.dealer for s in record.states] == [1, 0, 1]
    assert out["winner"] is None and out["deals"][-1]["finished"] is False
    assert out["deals"][-1]["result"] is None and out["deals"][-1]["scores"] == out["deals"][-2]["scores"]
    assert len(out["deals"][-1]["tricks"]) == 5 and len(out["deals"][-1]["tricks"][-1]["cards"]) == 1


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_bad_records(name, tmp_path):
    expected = ERRORS[name]
    path = tmp_path / name if expected.get("missing") else DATA / name
    with pytest.raises(RecordError) as caught:
        load(path)
    error = caught.value
    for words in expected["contains"]:
        assert words in error.message
    assert "\n" not in error.message and str(error) == error.message
    assert (error.trick, error.seat, error.card) == (expected["trick"], expected["seat"], expected["card"])
    assert error.to_json() == {"error": {"message": error.message, "trick": expected["trick"],
                                         "seat": expected["seat"], "card": expected["card"]}}


@pytest.mark.parametrize("text,words", [
    ("", "not valid JSON"),
    ('{"dealer": ' + "1" * 5000 + "}", "not valid JSON"),
    ('{"rules": [], "dealer": 0}', "'rules' must be an object"),
    ('{"hands": [], "stock": []}', "the record has no 'dealer'"),
    ('{"dealer": 0, "stock": []}', "the deal has no 'hands'"),
    ('{"dealer": true, "hands": [], "stock": []}', "'dealer' must be a seat from 0 to 1, not true"),
    ('{"first_dealer": 0, "deals": []}', "'deals' must be a non-empty list"),
    ('{"deals": [{}]}', "the record has no 'first_dealer'"),
    ('{"first_dealer": 0, "deals": [{"hands": [], "stock": [], "rules": {}}]}', "deal 1: unknown field 'rules'"),
    ('{"first_dealer": 0, "deals": [7]}', "deal 1: a deal must be a JSON object"),
])
def test_more_bad_records(text, words):
    with pytest.raises(RecordError, match=words.replace("(", r"\(")):
        loads(text)


def test_plays_must_be_a_list():
    data = json.loads((DATA / "good_example.json").read_text())
    data["plays"] = "7C 2H"
    with pytest.raises(RecordError, match="'plays' must be a list of cards"):
        read_record(data)


def test_a_record_without_plays_is_a_deal_not_yet_begun():
    data = json.loads((DATA / "good_example.json").read_text())
    del data["plays"]
    state = read_record(data)
    assert state.plays == [] and state.to_play == 1 and deal_record(state)["plays"] == []


def test_dumps_is_compact_and_stable():
    state = load(DATA / "good_deal.json")
    text = dumps(deal_record(state))
    assert " " not in text and dumps(deal_record(loads(text))) == text
    assert loads(text) == state


def test_the_json_example_is_the_one_records_md_shows():
    """RECORDS.md (at the repository's root) shows the --json object of its example record."""
    import re

    text = (Path(__file__).resolve().parent.parent / "RECORDS.md").read_text(encoding="utf-8")
    blocks = [json.loads(b) for b in re.findall(r"^```json\n(.*?)^```", text, re.S | re.M) if '"trump"' in b]
    assert blocks == [EXAMPLE_OUTPUT]


def test_a_game_under_way_gives_a_deal_or_a_match_record_and_refuses_another_kind():
    """records.game_record, which the sandbox's Session and the table for two both use."""
    from calijack import records
    from calijack.friend import Friend, FriendError
    from calijack.play import Session, SessionError

    for game, error in ((Session(seed=7), SessionError), (Friend(("Ann", "Bo"), seed=7), FriendError)):
        state = game.state
        while not state.finished:
            state = state.play(state.legal_cards()[0])
        done, first = (), state.dealer
        assert records.game_record(state.rules, first, done, state) == records.deal_record(state)
        assert records.game_record(state.rules, first, (state,), state) == records.match_record(
            state.rules, first, (state, state))
        with pytest.raises(error, match=r"A record is a 'deal' or a 'match' record, not 'hand'\."):
            records.game_record(state.rules, first, done, state, "hand", error=error)
        with pytest.raises(error, match="not 'hand'"):
            if isinstance(game, Friend):
                while not game.finished:
                    if game.hidden:
                        game.reveal()
                    game.play(game.state.legal_cards()[0])
            game.record("hand")
    with pytest.raises(records.RecordError, match="not 'hand'"):
        records.game_record(state.rules, first, (), state, "hand")
