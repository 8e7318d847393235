"""``python -m calijack replay`` as a user runs it: exit status, streams, JSON."""

import json
import os
from pathlib import Path

import pytest

from calijack.records import load, replay_json

DATA = Path(__file__).parent / "data" / "records"
ERRORS = json.loads((DATA / "errors.json").read_text(encoding="utf-8"))
GOOD = sorted(p.name for p in DATA.glob("good_*.json"))

# The kinds of bad record the issue lists; each is also run without --json.
LISTED = ["bad_json.json", "bad_unknown_option.json", "bad_option_value.json", "bad_repeated_card.json",
          "bad_malformed_card.json", "bad_hand_count.json", "bad_stock_count.json",
          "bad_illegal_play.json", "bad_not_in_hand.json", "bad_too_many_plays.json",
          "bad_match_after_won.json", "bad_match_unfinished.json", "missing.json"]


def no_traceback(proc):
    assert "Traceback" not in proc.stdout and "Traceback" not in proc.stderr


def test_replay_json_of_the_records_md_example(eng):
    proc = eng.run_cli("replay", DATA / "good_example.json", "--json")
    no_traceback(proc)
    assert proc.returncode == 0 and proc.stderr == ""
    assert json.loads(proc.stdout) == json.loads((DATA / "example_output.json").read_text())
    assert proc.stdout.count("\n") == 1  # one JSON object


@pytest.mark.parametrize("name", GOOD)
def test_replay_json_of_good_records(eng, name):
    proc = eng.run_cli("replay", DATA / name, "--json")
    no_traceback(proc)
    assert proc.returncode == 0 and proc.stderr == ""
    assert json.loads(proc.stdout) == replay_json(load(DATA / name))


def test_replay_text_of_the_example(eng):
    proc = eng.run_cli("replay", DATA / "good_example.json")
    no_traceback(proc)
    assert proc.returncode == 0 and proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert "Dealer: seat 0. Trump: hearts ♥ (set by the turned card J♥)." in lines
    assert "Trick  1: seat 1 7♣, seat 0 2♥; seat 0 wins; draws: seat 0 J♥, seat 1 Q♦" in lines
    assert lines[-1].startswith("In progress: trick 2, seat 0 to play; legal: ")


def test_replay_text_of_a_finished_deal(eng):
    proc = eng.run_cli("replay", DATA / "good_deal.json")
    no_traceback(proc)
    assert proc.returncode == 0
    state = load(DATA / "good_deal.json")
    result = state.result()
    text = proc.stdout
    assert text.count("\nTrick ") == 26 and "Scoring:" in text
    for award in result.awards:
        assert award.detail in text
    assert f"match points this deal: seat 0 {result.points[0]}, seat 1 {result.points[1]}" in text
    assert f"= {result.pips[0]}" in text and f"= {result.pips[1]}" in text


def test_replay_of_a_match_decided_by_the_strict_order(eng):
    record = load(DATA / "good_match_won.json")
    match = record.match()
    last = record.states[-1].result()
    before = [sum(r.points[s] for r in match.results[:-1]) for s in (0, 1)]  # counted in full
    # Both seats had enough points in the last deal to reach 10; the order picked the winner.
    assert all(before[s] + last.points[s] >= 10 for s in (0, 1))
    proc = eng.run_cli("replay", DATA / "good_match_won.json", "--json")
    no_traceback(proc)
    out = json.loads(proc.stdout)
    assert proc.returncode == 0 and out["winner"] == match.winner
    assert out["deals"][-1]["scores"] == list(match.scores) and max(match.scores) == 10 > min(match.scores)
    text = eng.run_cli("replay", DATA / "good_match_won.json").stdout
    assert f"Seat {match.winner} wins the match, reaching 10." in text
    assert f"Match score: {match.scores[0]} - {match.scores[1]} (points counted: " in text


def check_error(proc, expected, json_mode):
    no_traceback(proc)
    assert proc.returncode == 1
    err = proc.stderr.splitlines()
    assert len(err) == 1 and err[0].startswith("calijack replay: ")
    message = err[0][len("calijack replay: "):]
    for words in expected["contains"]:
        assert words in message
    if json_mode:
        out = json.loads(proc.stdout)
        assert out == {"error": {"message": message, "trick": expected["trick"], "seat": expected["seat"],
                                 "card": expected["card"]}}
    else:
        assert proc.stdout == ""


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_bad_records_json(eng, tmp_path, name):
    expected = ERRORS[name]
    path = tmp_path / name if expected.get("missing") else DATA / name
    check_error(eng.run_cli("replay", path, "--json"), expected, True)


@pytest.mark.parametrize("name", LISTED)
def test_bad_records_text(eng, tmp_path, name):
    expected = ERRORS[name]
    path = tmp_path / name if expected.get("missing") else DATA / name
    check_error(eng.run_cli("replay", path), expected, False)


def test_illegal_play_names_the_duty(eng):
    proc = eng.run_cli("replay", DATA / "bad_illegal_play.json", "--json")
    error = json.loads(proc.stdout)["error"]
    assert "must follow clubs or play a trump" in error["message"] and error["trick"] >= 3
    assert error["message"].startswith(f"trick {error['trick']}, seat {error['seat']}: {error['card']} ")


def test_messages_with_suit_symbols_survive_an_ascii_terminal(eng, tmp_path):
    data = json.loads((DATA / "good_example.json").read_text())
    data["hands"][0][0] = "Z♥"
    path = eng.write_record(tmp_path, data)
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    proc = eng.run_cli("replay", path, "--json", env=env)
    no_traceback(proc)
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"] == {
        "message": "hands[0][0]: 'Z♥' is not a card (write a rank then a suit, such as JH or 10♥)",
        "trick": None, "seat": 0, "card": "Z♥"}
    proc = eng.run_cli("replay", DATA / "good_deal.json", env=env)
    no_traceback(proc)
    assert proc.returncode == 0 and "Scoring:" in proc.stdout


@pytest.mark.parametrize("command", ["review", "drill"])
def test_review_and_drill_take_the_same_sampling_options(command, capsys):
    # One declaration of --samples and --seed (a parent parser) for both commands.
    from calijack.__main__ import build_parser
    from calijack.review import DEFAULT_SAMPLES

    parser = build_parser()
    given = parser.parse_args([command, "game.json", "--seat", "0", "--samples", "7", "--seed", "3"])
    assert (given.samples, given.seed) == (7, 3)
    default = parser.parse_args([command, "game.json", "--seat", "0"])
    assert (default.samples, default.seed) == (DEFAULT_SAMPLES, 0)
    with pytest.raises(SystemExit) as refused:
        parser.parse_args([command, "game.json", "--seat", "0", "--samples", "1"])
    assert refused.value.code == 2
    assert "samples must be a whole number of at least 2, not '1'" in capsys.readouterr().err
