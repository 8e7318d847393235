"""``calijack replay`` and ``Session.load`` keep RECORDS.md's contract on hostile input (issue 13).

Every case runs ``python -m calijack replay`` in a subprocess, as a user or a tool would: a
bad record exits 1 with exactly one bounded line on standard error, no traceback, and with
``--json`` the ``{"error": …}`` object on standard output, whatever the record holds, whatever
the path is, and whatever becomes of standard output.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calijack.play import Session, SessionError
from calijack.records import MAX_DEPTH, MAX_RECORD_BYTES, RecordError, load, loads, read_record, replay_json

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "records"
GOOD = json.loads((DATA / "good_example.json").read_text(encoding="utf-8"))
LINE_LIMIT = 300 + len("calijack replay: ")   # the longest line a refusal may print
QUOTE_LIMIT = 80                              # the most characters of a value a message quotes
PREFIX = "calijack replay: "


def replay(path, *args: str, stdout=subprocess.PIPE, shell: str | None = None,
           timeout: float = 60) -> subprocess.CompletedProcess:
    """``python -m calijack replay PATH ARGS`` (or ``shell``, a bash line given the same as $0 $1 …)."""
    argv = [sys.executable, "-m", "calijack", "replay", os.fsdecode(path), *args]
    if shell is not None:
        argv = ["bash", "-c", shell, *argv]
    return subprocess.run(argv, stdout=stdout, stderr=subprocess.PIPE, cwd=ROOT, timeout=timeout)


def refused(proc: subprocess.CompletedProcess, json_mode: bool, *words: str, stdout_seen: bool = True) -> str:
    """Check RECORDS.md's "Bad records" contract; return the message."""
    err = proc.stderr.decode("utf-8")
    out = proc.stdout.decode("utf-8") if proc.stdout is not None else ""
    assert "Traceback" not in err and "Traceback" not in out and "Exception ignored" not in err
    assert proc.returncode == 1, (proc.returncode, err)
    lines = err.split("\n")
    assert len(lines) == 2 and lines[1] == "", err[:500]          # exactly one line, ended
    line = lines[0]
    assert line.startswith(PREFIX) and len(line) <= LINE_LIMIT, line[:500]
    assert line.isprintable()
    message = line[len(PREFIX):]
    for word in words:
        assert word in message, (word, message)
    if stdout_seen:
        if json_mode:
            assert out.count("\n") == 1 and len(out) <= 1000
            error = json.loads(out)["error"]
            assert error["message"] == message and set(error) == {"message", "trick", "seat", "card"}
            assert error["card"] is None or len(error["card"]) <= QUOTE_LIMIT
        else:
            assert out == ""
    return message


def both(proc_for, *words: str):
    """Run a case with and without ``--json``; both refuse the same way."""
    text = refused(proc_for(), False, *words)
    assert refused(proc_for("--json"), True, *words) == text
    return text


def nest(value, depth: int):
    """``value`` inside ``depth`` lists."""
    for _ in range(depth):
        value = [value]
    return value


def write(directory: Path, name: str, data: bytes | str | dict) -> Path:
    path = directory / name
    if isinstance(data, dict):
        data = json.dumps(data)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


# -- nesting -----------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    '{"dealer": ' + "[" * 987 + "]" * 987 + "}",     # passes json.loads, overflowed json.dumps
    '{"dealer": ' + "[" * 100_000 + "]" * 100_000 + "}",   # beyond json.loads's recursion
    "[" * 200_000,                                  # and never closed
    json.dumps({**GOOD, "hands": [nest("2H", 18), GOOD["hands"][1]]}),
], ids=["issue_987", "deep_100000", "unclosed", "deep_hand"])
def test_nesting_is_bounded_with_a_clear_message(tmp_path, text):
    path = write(tmp_path, "deep.json", text)
    both(lambda *a: replay(path, *a), f"nested more than {MAX_DEPTH} deep", "a record needs at most 5")


def test_nesting_at_the_limit_is_read_and_quoted_short(tmp_path):
    # 16 levels is allowed: the record is then refused for what it is, quoting a bounded value.
    path = write(tmp_path, "deep.json", '{"dealer": ' + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "}")
    message = both(lambda *a: replay(path, *a), "'dealer' must be a seat from 0 to 1, not [[[")
    assert len(message) < 120


# -- paths and files -------------------------------------------------------------------------

def test_a_path_with_a_newline_stays_one_line(tmp_path):
    missing = tmp_path / "a\nb.json"
    both(lambda *a: replay(missing, *a), "cannot read", "a\\nb.json", "No such file")
    bad = write(tmp_path, "c\nd\r\u2028.json", b'{"dealer": 0, "hands": "\xff"}')
    both(lambda *a: replay(bad, *a), "c\\nd\\r\\u2028.json", "is not UTF-8 text (byte 0xff at offset 24)")


def test_a_long_path_is_quoted_by_its_end(tmp_path):
    deep = tmp_path / ("d" * 200) / ("e" * 200)
    message = both(lambda *a: replay(deep / "missing.json", *a), "cannot read '…", "/missing.json'")
    assert len(message) < 140


def test_a_fifo_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "record.json"
    os.mkfifo(fifo)
    both(lambda *a: replay(fifo, *a, timeout=30), "is a pipe (FIFO), not a regular file")


@pytest.mark.parametrize("path, kind", [("/dev/zero", "a character device"), ("/dev/null", "a character device"),
                                        (".", "a directory")])
def test_devices_and_directories_are_refused(path, kind):
    both(lambda *a: replay(path, *a, timeout=30), f"is {kind}, not a regular file")


def test_a_link_to_a_device_is_refused(tmp_path):
    link = tmp_path / "record.json"
    link.symlink_to("/dev/zero")
    both(lambda *a: replay(link, *a, timeout=30), "is a character device")


def test_a_file_over_the_limit_is_refused_saying_the_limit(tmp_path):
    padded = json.dumps(GOOD) + " " * (MAX_RECORD_BYTES + 1 - len(json.dumps(GOOD)))
    path = write(tmp_path, "big.json", padded)
    both(lambda *a: replay(path, *a), "holds 1,048,577 bytes; a record may hold at most 1,048,576 bytes")
    at_limit = write(tmp_path, "ok.json", padded[:-1])
    proc = replay(at_limit, "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout) == replay_json(loads(json.dumps(GOOD)))


def test_a_ten_megabyte_card_is_refused_by_size(tmp_path):
    record = {**GOOD, "hands": [["A" * 10_000_000] + GOOD["hands"][0][1:], GOOD["hands"][1]]}
    path = write(tmp_path, "huge.json", record)
    message = both(lambda *a: replay(path, *a), "holds 10,000,", "at most 1,048,576 bytes")
    assert "AAAA" not in message


@pytest.mark.parametrize("where", ["card", "play", "field", "option", "value", "trump", "dealer"])
def test_long_values_are_quoted_short(tmp_path, where):
    long = "A" * 900_000 + "\n"
    record = json.loads(json.dumps(GOOD))
    if where == "card":
        record["hands"][0][0] = long
    elif where == "play":
        record["plays"] = ["7C", long]
    elif where == "field":
        record[long] = 1
    elif where == "option":
        record["rules"] = {long: 1}
    elif where == "value":
        record["rules"] = {"stock": long}
    elif where == "trump":
        record["rules"] = {"trump_from": "cut"}
        record["trump"] = long
    else:
        record["dealer"] = long
    path = write(tmp_path, "long.json", record)
    message = both(lambda *a: replay(path, *a), "'AAAA", "(900,001 characters)")
    assert message.count("A") < QUOTE_LIMIT
    out = json.loads(replay(path, "--json").stdout)["error"]
    assert out["card"] is None or (len(out["card"]) <= QUOTE_LIMIT and out["card"].startswith("AAAA"))


def test_huge_numbers_are_described_not_written_out(tmp_path):
    path = write(tmp_path, "n.json", '{"dealer": ' + "9" * 4000 + ', "hands": [], "stock": []}')
    message = both(lambda *a: replay(path, *a), "'dealer' must be a seat from 0 to 1, not a whole number of 4,000 digits")
    assert "9999" not in message
    beyond = write(tmp_path, "m.json", '{"dealer": ' + "9" * 5000 + "}")
    both(lambda *a: replay(beyond, *a), "not valid JSON")


def test_a_utf8_byte_order_mark_is_accepted(tmp_path):
    plain = replay(DATA / "good_deal.json", "--json")
    path = write(tmp_path, "bom.json", b"\xef\xbb\xbf" + (DATA / "good_deal.json").read_bytes())
    proc = replay(path, "--json")
    assert proc.returncode == 0 and proc.stderr == b"" and proc.stdout == plain.stdout
    bad = write(tmp_path, "bad.json", b"\xef\xbb\xbf" + (DATA / "bad_illegal_play.json").read_bytes())
    both(lambda *a: replay(bad, *a), "trick 3, seat 0: 4D breaks a duty")


# -- standard output -------------------------------------------------------------------------

@pytest.mark.parametrize("json_mode", [False, True])
def test_a_bad_record_exits_1_when_stdout_is_closed_early(json_mode):
    read, write_end = os.pipe()
    os.close(read)  # the reader is gone before anything is written (like "| true")
    try:
        proc = replay(DATA / "bad_illegal_play.json", *(["--json"] if json_mode else []), stdout=write_end)
    finally:
        os.close(write_end)
    refused(proc, json_mode, "4D breaks a duty", stdout_seen=False)


def test_a_bad_record_exits_1_through_a_real_shell_pipe_to_true():
    proc = replay(DATA / "bad_illegal_play.json", "--json", shell='"$0" "$@" | true; exit "${PIPESTATUS[0]}"')
    refused(proc, True, "4D breaks a duty", stdout_seen=False)


@pytest.mark.parametrize("json_mode", [False, True])
def test_a_bad_record_to_dev_full_is_one_line_and_exit_1(json_mode):
    with open("/dev/full", "wb") as full:
        proc = replay(DATA / "bad_illegal_play.json", *(["--json"] if json_mode else []), stdout=full)
    refused(proc, json_mode, "4D breaks a duty", stdout_seen=False)


@pytest.mark.parametrize("args", [(), ("--json",)])
def test_a_good_record_to_dev_full_says_so_and_fails(args):
    with open("/dev/full", "wb") as full:
        proc = replay(DATA / "good_match_won.json", *args, stdout=full)
    err = proc.stderr.decode()
    assert proc.returncode == 74 and "Traceback" not in err and "Exception ignored" not in err
    assert err == "calijack replay: cannot write to standard output: No space left on device\n"


def test_a_good_record_with_stdout_closed_says_so_and_fails():
    proc = replay(DATA / "good_deal.json", stdout=None, shell='exec "$0" "$@" >&-')
    assert proc.returncode == 74
    assert proc.stderr.decode() == "calijack replay: cannot write to standard output: it is closed\n"


def test_a_good_record_whose_reader_leaves_ends_quietly():
    # "| head -1": the reader stopped on purpose; nothing to report, no noise at exit.
    read, write_end = os.pipe()
    os.close(read)
    try:
        proc = replay(DATA / "good_match_won.json", stdout=write_end)
    finally:
        os.close(write_end)
    assert proc.returncode == 0 and proc.stderr == b""


# -- the sandbox's "load record" -----------------------------------------------------------

def _snapshot(session: Session):
    return (session.state, tuple(session.log), session.scores, session.deal_number, session.pending_rules)


def _cyclic() -> dict:
    record = json.loads(json.dumps(GOOD))
    record["hands"][0].append(record["hands"])
    return record


LOAD_CASES = {
    "issue_987": ('{"dealer": ' + "[" * 987 + "]" * 987 + "}", "nested more than 16 deep"),
    "deep_text": ("[" * 100_000, "nested more than 16 deep"),
    "deep_object": ({"dealer": 0, "hands": nest([], 20)}, "nested more than 16 deep"),
    "cyclic": (_cyclic(), "nested more than 16 deep"),
    "too_long": (" " * (MAX_RECORD_BYTES + 1), "a record may hold at most 1,048,576"),
    "long_card": ({**GOOD, "hands": [["Q" * 10_000_000] + GOOD["hands"][0][1:], GOOD["hands"][1]]},
                  "(10,000,000 characters) is not a card"),
    "long_key": ({**GOOD, "x\n" * 1_000_000: 0}, "unknown field 'x\\nx\\n"),
    "huge_dealer": ({**GOOD, "dealer": 10 ** 5000}, "not a whole number of 5,001 digits"),
    "not_text": (b"\xff\xfe", "the record is not UTF-8 text (byte 0xff at offset 0)"),
}


@pytest.mark.parametrize("name", sorted(LOAD_CASES))
def test_load_record_refuses_in_one_bounded_line_and_changes_nothing(name):
    record, words = LOAD_CASES[name]
    session = Session(seed=19, opponent="random")
    session.play(next(v.card for v in session.verdicts() if v.legal))
    before = _snapshot(session)
    with pytest.raises(SessionError) as caught:
        session.load(record)
    message = str(caught.value)
    assert message.startswith("That record cannot be loaded: ") and message.isprintable()
    assert len(message) <= 340 and "\n" not in message and words in message
    assert _snapshot(session) == before


def test_load_record_accepts_a_byte_order_mark():
    text = (DATA / "good_example.json").read_text(encoding="utf-8")
    session = Session(opponent="random").load("\ufeff" + text)
    assert session.state == loads(text) == loads(b"\xef\xbb\xbf" + text.encode())


# -- fuzz: whatever the record, the contract holds ---------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 60) | st.integers() | st.floats(allow_nan=True)
    | st.text(max_size=40) | st.sampled_from(["JH", "10♥", "th", "zz", "H", "cut", "any", "A" * 500]),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=30)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, path + (key,))
    elif isinstance(value, list):
        for k, child in enumerate(value):
            yield from _paths(child, path + (k,))


BASES = [json.loads((DATA / name).read_text(encoding="utf-8"))
         for name in ("good_example.json", "good_match_in_progress.json", "good_cut.json", "good_three.json")]


def _contract(error: RecordError):
    assert error.message.isprintable() and len(error.message) <= 300
    assert error.card is None or len(error.card) <= QUOTE_LIMIT
    assert json.loads(json.dumps(error.to_json())) == error.to_json()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(range(len(BASES))), pick=st.integers(0, 10 ** 6), value=JSON_VALUES)
def test_fuzzed_records_are_read_or_refused_in_one_bounded_line(base, pick, value):
    record = json.loads(json.dumps(BASES[base]))
    paths = list(_paths(record))[1:]
    path = paths[pick % len(paths)]
    target = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    try:
        read_record(record)
    except RecordError as error:
        _contract(error)


@settings(max_examples=300, deadline=None)
@given(base=st.sampled_from(range(len(BASES))), cuts=st.lists(st.tuples(st.integers(0, 10 ** 6), st.integers(0, 6),
                                                                       st.text(max_size=6)), max_size=4))
def test_fuzzed_record_text_is_read_or_refused_in_one_bounded_line(base, cuts):
    text = json.dumps(BASES[base])
    for at, drop, put in cuts:
        at %= len(text) + 1
        text = text[:at] + put + text[at + drop:]
    try:
        loads(text)
    except RecordError as error:
        _contract(error)


def test_the_records_used_by_the_fuzz_are_good():
    # The fuzz mutates good records, so a refusal there is the mutation's doing.
    for record in BASES:
        read_record(record)
    assert load(DATA / "good_example.json") == read_record(GOOD)
