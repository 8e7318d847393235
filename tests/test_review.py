"""The coach's reviews: exact values against brute force, estimates reproducible from a seed,
the ``calijack review`` JSON shape and its error contract (the same as ``replay``'s)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from calijack import Card, Deal, Rules
from calijack.__main__ import main
from calijack.players import get_player, play_deal
from calijack.records import MAX_RECORD_BYTES, deal_record, load
from calijack.review import DEFAULT_SAMPLES, EXTRA, MISTAKE, exact_position, rate, review, review_json

DATA = Path(__file__).parent / "data" / "records"
ERRORS = json.loads((DATA / "errors.json").read_text(encoding="utf-8"))
TWO_PLAYER = {name: rules for name, rules in {
    "standard": Rules(), "void_any": Rules(void_duty="any"), "held": Rules(high_low="held"),
    "ten_of_trumps": Rules(game="ten_of_trumps"), "target7": Rules(target=7),
    "closed": Rules(stock="closed"), "turned_jack": Rules(turned_jack=True),
    "shasta": Rules(shasta_point=True), "cut": Rules(trump_from="cut"),
    "all": Rules(void_duty="any", high_low="held", stock="closed", turned_jack=True, shasta_point=True,
                 trump_from="cut", target=5),
}.items()}


def brute(state, me) -> int:
    """Plain minimax over engine states, scored by the engine's own result: the value the issue defines."""
    if state.finished:
        points = state.result().points
        return points[me] - max(points[s] for s in range(state.players) if s != me)
    values = [brute(state.play(card), me) for card in state.legal_cards()]
    return max(values) if state.to_play == me else min(values)


DIFFERING: dict[str, int] = {}  # per option: positions where the card played changes the value


@pytest.mark.parametrize("name", list(TWO_PLAYER))
def test_exact_values_equal_brute_force_minimax(name, eng):
    rules = TWO_PLAYER[name]
    checked = differing = 0
    for seed in range(6):
        for plays in (43, 45, 47):
            state = eng.random_position(rules, 1000 * seed + plays, plays)
            assert exact_position(state)
            rating = rate(state)
            me = state.to_play
            expected = {card: brute(state.play(card), me) for card in state.legal_cards()}
            assert rating.exact and rating.samples is None
            assert rating.values == expected, (name, seed, plays)
            assert all(isinstance(v, int) for v in rating.shown.values())
            checked += 1
            differing += len(set(expected.values())) > 1
    assert checked == 18
    DIFFERING[name] = differing


def test_the_brute_force_positions_include_cards_that_matter(eng):
    """The comparison above is not only of positions where every card is worth the same."""
    missing = [name for name in TWO_PLAYER if name not in DIFFERING]
    for name in missing:  # run alone, or on another worker than those: work the counts out here
        test_exact_values_equal_brute_force_minimax(name, eng)
    assert sum(DIFFERING.values()) >= 10, DIFFERING


def test_a_position_with_cards_left_in_the_stock_is_estimated(eng):
    state = eng.random_position(Rules(), 3, 38)
    assert not exact_position(state) and len(state.stock) == 2
    rating = rate(state, samples=12, rng=1)
    assert not rating.exact and rating.samples == 12
    assert set(rating.values) == set(state.legal_cards())
    assert all(len(runs) == 12 for runs in rating.per_world.values())
    three = eng.random_position(Rules(players=3), 3, 45)
    assert not exact_position(three) and not rate(three, samples=4).exact


def test_estimated_values_are_reproducible_from_a_seed(eng):
    state = eng.random_position(Rules(), 11, 9)
    first, again = rate(state, samples=25, rng=7), rate(state, samples=25, rng=7)
    assert first.values == again.values and first.per_world == again.per_world
    other = rate(state, samples=25, rng=8)
    assert other.values != first.values
    assert set(first.values) == set(state.legal_cards())


def finished(seed=5):
    heuristic = get_player("heuristic")
    return play_deal(Deal.random(seed), [heuristic, heuristic], random.Random(seed))


def test_a_review_of_one_seat_rates_its_plays_as_the_whole_review_does():
    state = finished().rewind(30)
    whole = review(state, samples=8, seed=3)
    mine = review(state, seats=[1], samples=8, seed=3)
    assert [r.index for r in whole] == list(range(30))
    assert [r.to_json() for r in mine] == [r.to_json() for r in whole if r.seat == 1]
    assert review(state, samples=8, seed=4)[0].rating.values != whole[0].rating.values


def test_the_json_of_each_play_has_the_issues_shape():
    state = finished(6)
    out = review_json(review(state, samples=6, seed=0))
    assert list(out) == ["plays"] and len(out["plays"]) == 52
    walk = state.deal.start()
    for k, play in enumerate(out["plays"]):
        assert list(play) == ["index", "trick", "seat", "card", "exact", "samples", "values", "best",
                              "loss", "comment", "spread", "verdict"]
        assert play["index"] == k and play["trick"] == walk.trick_number and play["seat"] == walk.to_play
        assert play["card"] == state.plays[k].code
        assert sorted(play["values"]) == sorted(c.code for c in walk.legal_cards())
        top = max(play["values"].values())
        assert play["best"] == [c for c, v in play["values"].items() if v == top]
        assert play["loss"] == pytest.approx(top - play["values"][play["card"]])
        assert play["exact"] == (k >= 40) and (play["samples"] is None) == play["exact"]
        if play["exact"]:
            assert all(type(v) is int for v in play["values"].values()) and type(play["loss"]) is int
        else:
            # More worlds where the verdict was unclear: doubled each time, up to EXTRA times.
            assert play["samples"] in [6 << k for k in range(EXTRA.bit_length())] and play["samples"] <= 6 * EXTRA
        assert play["comment"].endswith(".") and play["comment"].count(". ") == 0
        walk = walk.play(play["card"])


def test_mistakes_cost_half_a_point_and_name_the_better_card(eng):
    # An exact position where the card played matters: the comment names the best card and the cost.
    found = 0
    for seed in range(40):
        state = eng.random_position(Rules(), 500 + seed, 44)
        rating = rate(state)
        worst = min(rating.values, key=lambda c: (rating.values[c], c.index))
        if rating.loss(worst) < 1:
            continue
        played = state.play(worst)
        rest = played
        while not rest.finished:  # finish the deal any way: only the play under review matters
            rest = rest.play(rest.legal_cards()[0])
        play = next(r for r in review(rest, seats=[state.to_play], samples=4) if r.index == len(state.plays))
        assert play.mistake and play.loss >= MISTAKE and play.card == worst
        assert str(play.rating.best[0]) in play.comment and f"{worst} costs" in play.comment
        found += 1
        if found == 3:
            break
    assert found == 3


def test_review_cli_json_and_text(eng, tmp_path):
    state = finished(7).rewind(44)
    path = eng.write_record(tmp_path, deal_record(state))
    proc = eng.run_cli("review", path, "--json", "--seat", "1", "--samples", "5")
    assert proc.returncode == 0 and proc.stderr == "" and "Traceback" not in proc.stdout
    out = json.loads(proc.stdout)
    assert out == review_json(review(state, seats=[1], samples=5, seed=0))
    assert {p["seat"] for p in out["plays"]} == {1}
    text = eng.run_cli("review", path, "--samples", "5", "--seed", "2")
    assert text.returncode == 0 and text.stdout.count("\nTrick ") + text.stdout.startswith("Trick ") == 44
    assert "Seat 0: 22 plays" in text.stdout and "Seat 1: 22 plays" in text.stdout


def test_review_cli_of_a_match_record_reviews_every_deal(eng):
    record = load(DATA / "good_match_in_progress.json")
    proc = eng.run_cli("review", DATA / "good_match_in_progress.json", "--json", "--samples", "2", "--seat", "0")
    assert proc.returncode == 0
    out = json.loads(proc.stdout)
    assert len(out["deals"]) == len(record.states)
    assert [len(d["plays"]) for d in out["deals"]] == [
        sum(1 for r in review(s, seats=[0], samples=2)) for s in record.states]


def run_main(capsys, *args):
    """``calijack ARGS`` in this process (the command line's own ``main``): status, stdout, stderr."""
    status = main([str(a) for a in args])
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_review_reports_bad_records_as_replay_does(capsys, tmp_path, name):
    expected = ERRORS[name]
    path = tmp_path / name if expected.get("missing") else DATA / name
    for args in (["--json"], []):
        status, out, err = run_main(capsys, "review", path, *args)
        replay = run_main(capsys, "replay", path, *args)
        assert status == replay[0] == 1
        assert err.replace("calijack review: ", "calijack replay: ") == replay[2] and err.count("\n") == 1
        assert out == replay[1]  # the same {"error": …} object with --json, else nothing


def _both_commands(path, *args, stdout=subprocess.PIPE):
    """``review`` and ``replay`` on the same file, as a user runs them: (status, stdout, stderr) each."""
    runs = []
    for command in ("review", "replay"):
        proc = subprocess.run([sys.executable, "-m", "calijack", command, os.fsdecode(path), *args],
                              stdout=stdout, stderr=subprocess.PIPE, timeout=60)
        runs.append((proc.returncode, proc.stdout, proc.stderr.replace(f"calijack {command}: ".encode(), b"")))
    return runs


@pytest.mark.parametrize("kind", ["fifo", "directory", "device", "too_big"])
def test_review_refuses_hostile_files_exactly_as_replay_does(tmp_path, kind):
    path = {"directory": tmp_path, "device": Path("/dev/zero")}.get(kind, tmp_path / "record.json")
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "too_big":
        path.write_text(" " * (MAX_RECORD_BYTES + 1), encoding="utf-8")
    for args in ((), ("--json",)):
        review_run, replay_run = _both_commands(path, *args)
        assert review_run == replay_run and review_run[0] == 1, (review_run, replay_run)
        said = "a record may hold at most" if kind == "too_big" else "not a regular file"
        assert review_run[2].count(b"\n") == 1 and said.encode() in review_run[2]


@pytest.mark.parametrize("args", [(), ("--json",)])
def test_review_of_a_bad_record_to_a_full_disk_exits_1_as_replay_does(args):
    with open("/dev/full", "wb") as full:
        review_run, replay_run = _both_commands(DATA / "bad_illegal_play.json", *args, stdout=full)
    assert review_run == replay_run and review_run[0] == 1 and b"4D breaks a duty" in review_run[2]


def test_a_bad_record_from_the_command_line_gives_no_traceback(eng):
    proc = eng.run_cli("review", DATA / "bad_illegal_play.json", "--json")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr + proc.stdout
    error = json.loads(proc.stdout)["error"]
    assert "must follow clubs or play a trump" in error["message"] and error["trick"] >= 3
    assert proc.stderr == f"calijack review: {error['message']}\n"


def test_review_refuses_a_seat_or_a_sample_count_it_cannot_use(capsys):
    status, out, err = run_main(capsys, "review", DATA / "good_deal.json", "--seat", "2", "--json")
    assert status == 1 and err.startswith("calijack review: --seat must be a seat from 0 to 1")
    assert json.loads(out)["error"]["seat"] == 2
    with pytest.raises(SystemExit) as exit_:
        main(["review", str(DATA / "good_deal.json"), "--samples", "0"])
    assert exit_.value.code == 2 and "samples must be a whole number of at least 2" in capsys.readouterr().err


def test_rate_refuses_a_finished_deal_and_too_few_samples():
    state = finished(8)
    with pytest.raises(ValueError, match="over"):
        rate(state)
    with pytest.raises(ValueError, match="at least 2"):
        rate(state.rewind(3), samples=1)
    assert Card.parse("AS") in {Card.parse(c) for c in ("AS", "KS")}


def test_playouts_are_seeded_with_whole_numbers(monkeypatch, eng):
    """random.Random(0.25) gives other numbers on Python 3.12+ than on 3.11 (the browser's
    Python is 3.14): seeding the playouts with floats made the coach's verdicts differ between
    the live book and Voilà for the same deal. Whole-number seeds give the same on every Python."""
    seeds = []

    class Checked(random.Random):
        def __init__(self, x=None):
            seeds.append(x)
            assert not isinstance(x, float), f"random.Random({x!r}): a float seed depends on the Python version"
            super().__init__(x)

    monkeypatch.setattr(random, "Random", Checked)
    state = eng.random_position(Rules(), 3, 9)
    assert not exact_position(state)
    rate(state, samples=3, rng=1)
    get_player("search", samples=3).choose(state.view(state.to_play), Checked(2))
    assert len(seeds) >= 6  # the playouts' own generators were made, and checked


@pytest.mark.parametrize("text, most, expected", [
    (None, 1000, DEFAULT_SAMPLES), ("12", 1000, 12), (" 12 ", 1000, 12), ("300", 1000, 300),
    ("300", DEFAULT_SAMPLES, DEFAULT_SAMPLES), ("0", 1000, DEFAULT_SAMPLES), ("-5", 1000, DEFAULT_SAMPLES),
    ("abc", 1000, DEFAULT_SAMPLES), ("1.5", 1000, DEFAULT_SAMPLES), ("100000", 1000, DEFAULT_SAMPLES)])
def test_the_review_samples_setting_is_read_in_one_place_and_a_bad_one_is_ignored(text, most, expected):
    from calijack.review import SAMPLES_ENV, samples_setting

    env = {} if text is None else {SAMPLES_ENV: text}
    assert samples_setting(env, most=most) == expected
