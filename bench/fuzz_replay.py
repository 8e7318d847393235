"""Fuzz ``calijack replay``: mutated records, in-process and in subprocesses; prints counts (not a test).

    .venv/bin/python bench/fuzz_replay.py [--records 3000] [--subprocess 300] [--seed 13] [--json]

Each record starts as one of ``tests/data/records/*.json`` and is mutated by one of:

- *value*: a node of the record replaced by a random JSON value (long strings, huge numbers,
  deep lists, wrong types, near-miss cards);
- *play*: the plays shuffled, cut, duplicated, or a card swapped for another (illegal plays);
- *text*: the JSON text cut, spliced, given a byte-order mark, stray bytes or invalid UTF-8.

Every record goes through ``calijack.__main__.main(["replay", FILE, "--json"])`` and the
sandbox's ``Session.load`` in this process, and ``--subprocess`` of them through ``python -m calijack replay`` (half with
``--json``). The contract of RECORDS.md is checked each time: exit 0 with one JSON object
and nothing on stderr, or exit 1 with exactly one line on stderr of at most 317 characters,
no traceback, and (with ``--json``) the ``{"error": …}`` object whose message is that line.
Anything else is a violation; the first few are printed. Bounded: it stops after the given
counts, writes only to a temporary folder, and starts no server.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from calijack import DECK  # noqa: E402
from calijack.__main__ import main  # noqa: E402
from calijack.play import Session, SessionError  # noqa: E402

DATA = ROOT / "tests" / "data" / "records"
PREFIX = "calijack replay: "
LINE_LIMIT = 300 + len(PREFIX)
CARDS = [c.code for c in DECK]


def _value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(14)
    if kind == 0:
        return "A" * rng.choice([81, 1000, 200_000]) + rng.choice(["", "\n", "♥"])
    if kind == 1:
        return rng.choice([10 ** rng.randrange(20, 4200), -1, 0, 1, 2, 3, 2 ** 63, 1.5, float("inf")])
    if kind == 2:
        value = rng.choice(CARDS)
        for _ in range(rng.choice([5, 15, 16, 17, 500, 990])):
            value = [value]
        return value
    if kind == 3:
        return rng.choice([None, True, False, "", " ", "\u2028", "\x00", "\ud800"])
    if kind == 4:
        return rng.choice(["10♥", "th", "JH ", "♠A", "1H", "JHH", "H", "cut", "any", "closed", "deals"])
    if kind == 5 and depth < 3:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(0, 8))]
    if kind == 6 and depth < 3:
        return {rng.choice(["rules", "dealer", "hands", "stock", "plays", "trump", "x" * 300, "\n"]):
                _value(rng, depth + 1) for _ in range(rng.randrange(0, 4))}
    if kind == 7:
        return rng.sample(CARDS, rng.choice([5, 6, 7, 34, 40, 41]))
    return rng.choice(CARDS)


def _nodes(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _nodes(child, path + (key,))
    elif isinstance(value, list):
        for k, child in enumerate(value):
            yield from _nodes(child, path + (k,))


def mutate_value(record, rng):
    """A node replaced by a random value (or a key added)."""
    paths = list(_nodes(record))
    path = rng.choice(paths)
    if not path:
        return _value(rng)
    parent = record
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = _value(rng)
    return record


def mutate_plays(record, rng):
    """The plays of a deal shuffled, cut, repeated, or one card changed."""
    deals = record["deals"] if isinstance(record.get("deals"), list) else [record]
    deal = rng.choice(deals)
    plays = list(deal.get("plays", []))
    action = rng.randrange(4)
    if action == 0 and plays:
        i, j = rng.randrange(len(plays)), rng.randrange(len(plays))
        plays[i], plays[j] = plays[j], plays[i]
    elif action == 1:
        plays = plays[:rng.randrange(len(plays) + 1)] * rng.choice([1, 2])
    elif action == 2 and plays:
        plays[rng.randrange(len(plays))] = rng.choice(CARDS)
    else:
        plays.append(rng.choice(CARDS))
    deal["plays"] = plays
    return record


def mutate_text(data: bytes, rng) -> bytes:
    """The JSON text cut, spliced, or given stray bytes."""
    for _ in range(rng.randrange(1, 4)):
        at = rng.randrange(len(data) + 1)
        action = rng.randrange(6)
        if action == 0:
            data = data[:at]
        elif action == 1:
            data = data[:at] + data[at + rng.randrange(1, 20):]
        elif action == 2:
            data = data[:at] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 6))) + data[at:]
        elif action == 3:
            data = b"\xef\xbb\xbf" + data
        elif action == 4:
            data = data[:at] + rng.choice([b"[", b"]", b"{", b"}", b",", b'"', b"\\", b"\xff", b"\xc3"]) + data[at:]
        else:
            data = data[:at] + data[at:at + rng.randrange(1, 200)] + data[at:]
    return data


def check(status: int, out: str, err: str, as_json: bool) -> str | None:
    """``None`` if the contract holds, else what broke it."""
    if "Traceback" in out or "Traceback" in err or "Exception ignored" in err:
        return "traceback"
    if status == 0:
        if err:
            return "exit 0 with stderr"
        if as_json:
            try:
                json.loads(out)
            except ValueError:
                return "exit 0 without one JSON object"
        return None
    if status != 1:
        return f"exit {status}"
    lines = err.split("\n")
    if len(lines) != 2 or lines[1] or not lines[0].startswith(PREFIX):
        return f"{len(lines) - 1} lines on stderr"
    if len(lines[0]) > LINE_LIMIT or not lines[0].isprintable():
        return f"stderr line of {len(lines[0])} characters"
    if as_json:
        try:
            error = json.loads(out)["error"]
        except (ValueError, KeyError, TypeError):
            return "no error object"
        if error["message"] != lines[0][len(PREFIX):] or (error["card"] is not None and len(error["card"]) > 80):
            return "error object differs from the line"
        if out.count("\n") != 1:
            return "error object not one line"
    elif out:
        return "stdout written for a bad record"
    return None


def in_process(path: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(["replay", str(path), "--json"])
        except BaseException as error:  # noqa: BLE001 - an escaped exception is a finding
            return -1, out.getvalue(), f"Traceback: {type(error).__name__}: {error}"[:500]
    return status, out.getvalue(), err.getvalue()


def sandbox_load(session: Session, data: bytes) -> str | None:
    """The sandbox's "load record" on the same text: loaded, or one bounded line; else what broke."""
    text = data.decode("utf-8", "replace")
    try:
        session.load(text)
    except SessionError as error:
        message = str(error)
        if len(message) > 340 or not message.isprintable():
            return f"load message of {len(message)} characters"
    except BaseException as error:  # noqa: BLE001 - an escaped exception is a finding
        return f"load raised {type(error).__name__}: {error}"[:300]
    return None


def run(records: int, subprocesses: int, seed: int) -> dict:
    """Mutate ``records`` records; run all in-process and ``subprocesses`` of them in subprocesses."""
    rng = random.Random(seed)
    bases = [(p.name, p.read_bytes()) for p in sorted(DATA.glob("*.json")) if p.name != "errors.json"]
    counts: Counter = Counter()
    violations: list[str] = []
    start = time.perf_counter()
    session = Session(seed=1, opponent="random")
    with tempfile.TemporaryDirectory(prefix="calijack-fuzz-") as folder:
        chosen = set(rng.sample(range(records), min(subprocesses, records)))
        for k in range(records):
            name, data = rng.choice(bases)
            how = rng.choice(["value", "play", "text"])
            try:
                record = json.loads(data)
                if how == "value":
                    data = json.dumps(mutate_value(record, rng), ensure_ascii=False).encode("utf-8", "surrogatepass")
                elif how == "play" and isinstance(record, dict):
                    data = json.dumps(mutate_plays(record, rng), ensure_ascii=False).encode("utf-8", "surrogatepass")
                else:
                    how = "text"
            except (ValueError, RecursionError):  # a base too deep for json itself: mutate its text
                how = "text"
            if how == "text":
                data = mutate_text(data, rng)
            path = Path(folder) / f"r{k}.json"
            path.write_bytes(data)
            status, out, err = in_process(path)
            broken = check(status, out, err, True)
            counts[f"in_process_{'violation' if broken else 'exit_' + str(status)}"] += 1
            counts[f"mutation_{how}"] += 1
            if broken:
                violations.append(f"in-process {how} from {name}: {broken}: {err[:200]!r}")
            broken = sandbox_load(session, data)
            counts[f"session_load_{'violation' if broken else 'ok'}"] += 1
            if broken:
                violations.append(f"Session.load {how} from {name}: {broken}")
            if k in chosen:
                as_json = len(chosen) % 2 == 0 or k % 2 == 0
                proc = subprocess.run([sys.executable, "-m", "calijack", "replay", str(path),
                                       *(["--json"] if as_json else [])],
                                      capture_output=True, cwd=ROOT, timeout=60)
                broken = check(proc.returncode, proc.stdout.decode("utf-8", "replace"),
                               proc.stderr.decode("utf-8", "replace"), as_json)
                counts[f"subprocess_{'violation' if broken else 'exit_' + str(proc.returncode)}"] += 1
                if broken:
                    violations.append(f"subprocess {how} from {name}: {broken}: {proc.stderr[:200]!r}")
            path.unlink()
    return {"records": records, "seed": seed, "seconds": round(time.perf_counter() - start, 1),
            **dict(sorted(counts.items())), "violations": len(violations), "first_violations": violations[:5]}


def cli() -> int:
    """Parse the options, fuzz, print the counts; exit 1 if the contract broke."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=3000, help="mutated records, all run in-process")
    parser.add_argument("--subprocess", type=int, default=300, help="of which also run as python -m calijack")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    report = run(args.records, args.subprocess, args.seed)
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    return 1 if report["violations"] else 0


if __name__ == "__main__":
    sys.exit(cli())
