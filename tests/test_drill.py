"""Learning from one's own deals: ``calijack drill`` against ``calijack review``, and ``calijack
compare`` against ``calijack replay``, on random records of two and three players; both keep
``replay``'s error contract for a bad record or a bad ``--seat``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calijack import Deal, Rules
from calijack.__main__ import main
from calijack.drill import ACCEPT, COMPUTER, compare, drills, position_rng
from calijack.players import get_player
from calijack.records import deal_record, load, loads, replay_json
from calijack.review import MISTAKE

DATA = Path(__file__).parent / "data" / "records"
ERRORS = json.loads((DATA / "errors.json").read_text(encoding="utf-8"))
SAMPLES = 6  # few worlds: these tests check agreement, not the coach's judgement


def random_record(seed: int, rules: Rules, player: str = "random"):
    """A finished deal played by ``player`` at every seat, each choice seeded by its position."""
    rng_for = position_rng(seed)
    players = [get_player(player) for _ in range(rules.players)]
    state = Deal.random(seed, rules).start()
    while not state.finished:
        state = state.play(players[state.to_play].choose(state.view(state.to_play), rng_for(state)).card)
    return state


def run_main(capsys, *args):
    status = main([str(a) for a in args])
    out = capsys.readouterr()
    return status, out.out, out.err


CASES = [(seed, Rules(players=players)) for seed, players in ((1, 2), (2, 2), (3, 3))]


@pytest.mark.parametrize("seed,rules", CASES, ids=["two-1", "two-2", "three"])
def test_drill_gives_the_reviews_values_for_every_mistake_and_nothing_else(capsys, tmp_path, seed, rules):
    state = random_record(seed, rules)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal_record(state)), encoding="utf-8")
    for seat in range(rules.players):
        status, out, err = run_main(capsys, "review", path, "--seat", seat, "--samples", SAMPLES, "--json")
        assert status == 0, err
        reviewed = json.loads(out)["plays"]
        status, out, err = run_main(capsys, "drill", path, "--seat", seat, "--samples", SAMPLES, "--json")
        assert status == 0, err
        found = json.loads(out)["drills"]
        mistakes = [p for p in reviewed if p["verdict"] == "mistake"]
        assert all(p["loss"] >= MISTAKE for p in mistakes)
        # Plays too close to call cost about half a point (within one spread of it, either side)
        # on the estimate, but are never drilled.
        close = [p for p in reviewed if p["verdict"] == "too close"]
        assert all(abs(p["loss"] - MISTAKE) < p["spread"][p["card"]] + 0.005 and not p["exact"] for p in close)
        assert [d["play"] for d in found] == [p["index"] for p in mistakes]
        for drill, play in zip(found, mistakes):
            assert drill["values"] == play["values"] and drill["played"] == play["card"]
            # The position is the record up to (not including) the play, and replays legally.
            position = loads(json.dumps(drill["position"]))
            assert len(position.plays) == drill["play"] and position.to_play == seat
            assert [c.code for c in position.plays] == [c.code for c in state.plays[:drill["play"]]]
            assert sorted(drill["values"]) == sorted(c.code for c in position.legal_cards())
            top = max(drill["values"].values())
            assert drill["best"] in play["best"] and drill["values"][drill["best"]] == top
            # Within half a point of the best, as the values are shown (two decimals).
            assert drill["accept"] == [c for c, v in drill["values"].items() if round(top - v, 2) < ACCEPT]
            assert drill["played"] not in drill["accept"] and drill["best"] in drill["accept"]


def test_a_random_player_makes_mistakes_to_drill(capsys):
    # The agreement test above would pass on empty lists: make sure its deals hold mistakes.
    state = random_record(1, Rules())
    assert sum(len(drills(state, seat, samples=SAMPLES)) for seat in (0, 1)) >= 3


def test_drill_of_a_match_record_drills_every_deal(capsys):
    record = load(DATA / "good_match_won.json")
    status, out, _ = run_main(capsys, "drill", DATA / "good_match_won.json", "--seat", 1,
                              "--samples", 2, "--json")
    assert status == 0 and len(json.loads(out)["deals"]) == len(record.states)


@pytest.mark.parametrize("seed,rules", CASES, ids=["two-1", "two-2", "three"])
def test_compare_gives_replays_points_and_a_legal_deal_with_the_same_cards(capsys, tmp_path, seed, rules):
    state = random_record(seed, rules)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal_record(state)), encoding="utf-8")
    points = replay_json(state)["result"]["points"]
    seat = seed % rules.players
    status, out, err = run_main(capsys, "compare", path, "--seat", seat, "--opponent", "random", "--json")
    assert status == 0, err
    got = json.loads(out)
    assert got["seat"] == seat and got["you"] == points[seat]
    computer = loads(json.dumps(got["record"]))  # replays legally, or loads raises
    assert computer.finished and got["computer"] == replay_json(computer)["result"]["points"][seat]
    mine = deal_record(state)
    assert {k: got["record"][k] for k in ("rules", "dealer", "hands", "stock")} == \
        {k: mine[k] for k in ("rules", "dealer", "hands", "stock")}
    # Run again: the same deal, card for card.
    assert run_main(capsys, "compare", path, "--seat", seat, "--opponent", "random", "--json")[1] == out


def test_the_computers_own_deal_compares_equal_to_itself():
    # A deal the computer played itself, against the same opponent and seeded by position the
    # same way, is played again card for card: the comparison really replays the same choices.
    rules = Rules()
    rng_for = position_rng(4)
    players = [get_player(COMPUTER, samples=8), get_player("heuristic")]
    state = Deal.random(4, rules).start()
    while not state.finished:
        state = state.play(players[state.to_play].choose(state.view(state.to_play), rng_for(state)).card)
    same = compare(state, 0, "heuristic", rng_for, computer=players[0])
    assert same.state.plays == state.plays and same.computer == same.you


def test_compare_of_a_match_record_shows_every_deal_with_the_score_before_it(capsys):
    path = DATA / "good_match_won.json"
    status, out, _ = run_main(capsys, "compare", path, "--seat", 0, "--opponent", "random", "--json")
    deals = json.loads(out)["deals"]
    replayed = replay_json(load(path))["deals"]
    assert status == 0 and [d["you"] for d in deals] == [d["result"]["points"][0] for d in replayed]


@pytest.mark.parametrize("command", ["drill", "compare"])
@pytest.mark.parametrize("name", sorted(ERRORS))
def test_bad_records_get_replays_answer(capsys, tmp_path, command, name):
    expected = ERRORS[name]
    path = tmp_path / name if expected.get("missing") else DATA / name
    for args in (["--json"], []):
        status, out, err = run_main(capsys, command, path, "--seat", 0, *args)
        replay = run_main(capsys, "replay", path, *args)
        assert status == replay[0] == 1
        assert err.replace(f"calijack {command}: ", "calijack replay: ") == replay[2] and err.count("\n") == 1
        assert out == replay[1]


@pytest.mark.parametrize("command", ["drill", "compare", "review"])
def test_a_seat_the_record_has_not_is_refused_as_review_refuses_it(capsys, command):
    status, out, err = run_main(capsys, command, DATA / "good_deal.json", "--seat", 2, "--json")
    assert status == 1 and err == f"calijack {command}: --seat must be a seat from 0 to 1 for this record, not 2\n"
    assert json.loads(out) == {"error": {"message": err.split(": ", 1)[1].strip(), "trick": None, "seat": 2,
                                         "card": None}}


def test_an_unfinished_deal_cannot_be_compared(capsys):
    status, out, err = run_main(capsys, "compare", DATA / "good_match_in_progress.json", "--seat", 0, "--json")
    error = json.loads(out)["error"]
    assert status == 1 and "is not finished" in error["message"] and error["trick"] >= 1
    assert err == f"calijack compare: {error['message']}\n"


def test_an_unknown_opponent_is_named(capsys):
    status, out, err = run_main(capsys, "compare", DATA / "good_deal.json", "--seat", 0, "--opponent", "nobody")
    assert status == 1 and "unknown player 'nobody'" in err and "Traceback" not in err


def test_drill_and_compare_for_a_person(capsys):
    status, out, _ = run_main(capsys, "drill", DATA / "good_deal.json", "--seat", 0, "--samples", 4)
    assert status == 0 and "accepted:" in out
    status, out, _ = run_main(capsys, "compare", DATA / "good_deal.json", "--seat", 1, "--opponent", "random")
    assert status == 0 and out.startswith("Seat 1 scored ") and "The computer, with the same cards" in out


@pytest.mark.parametrize("seed", [3, 11, 2024])
def test_the_sandbox_and_same_cards_seed_the_computer_alike(seed):
    """Every card the sandbox's computer played (a random opponent: any other draw would change
    it) is the card that opponent picks with the generator "Same cards, played by the computer"
    uses for that position (calijack.players.position_rng), in deal 1 and in deal 2."""
    from calijack.play import Session

    session = Session(seed=seed, opponent="random")
    opponent = get_player("random")
    for deal_number in (0, 1):
        scores = session.match.scores  # the match before this deal, as the computer saw it
        while not session.state.finished:
            session.play(session.state.legal_cards()[-1])
        state, checked = session.state, 0
        walk = state.deal.start()
        for card in state.plays:
            if walk.to_play != session.seat:
                view = walk.view(walk.to_play).with_scores(scores)
                assert opponent.choose(view, position_rng(seed, deal_number)(walk)).card == card
                checked += 1
            walk = walk.play(card)
        assert checked >= 8  # the computer's half of the deal
        session.next_deal()
