"""The command line: ``python -m calijack replay FILE [--json]``, ``review``, ``drill``, ``compare``,
``simulate``.

(The benchmark is ``bench/speed.py`` in the repository, run by ``make bench``.)
"""

from __future__ import annotations

import argparse
import json
import os
import sys

__all__ = ["main", "load_record"]

EXIT_BAD_RECORD = 1   # RECORDS.md: a record that cannot be replayed
EXIT_NO_OUTPUT = 74   # standard output could not take the output (EX_IOERR of sysexits.h)


class _Stop(Exception):
    """End the command now with ``status``; whatever had to be said is said."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


class _OutputFailed(Exception):
    """Standard output refused the output; ``reason`` is ``None`` when the reader simply left."""

    def __init__(self, reason: str | None):
        super().__init__(reason)
        self.reason = reason


def _tell(command: str, message: str) -> None:
    """One line on standard error: ``calijack COMMAND: message``."""
    if sys.stderr is None:  # started with stderr closed: the exit status alone speaks
        return
    try:
        print(f"calijack {command}: {message}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _drop_stdout() -> None:
    # What the failed write left in Python's buffer would fail again, noisily, at exit:
    # point standard output at the null device so that last flush succeeds.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _write(text: str, ascii_text=None) -> None:
    """Write ``text`` and a newline to standard output now, flushed; :class:`_OutputFailed` if it cannot.

    On a terminal that cannot encode a character, ``ascii_text()`` (or backslash escapes) is
    written instead.
    """
    out = sys.stdout
    if out is None:
        raise _OutputFailed("it is closed")
    try:
        try:
            out.write(text + "\n")
        except UnicodeEncodeError:
            encoding = out.encoding or "ascii"
            out.write(ascii_text() if ascii_text else
                      (text + "\n").encode(encoding, "backslashreplace").decode(encoding))
        out.flush()
    except BrokenPipeError:
        _drop_stdout()
        raise _OutputFailed(None) from None
    except OSError as error:
        _drop_stdout()
        raise _OutputFailed(error.strerror or str(error)) from None


def _print(text: str) -> None:
    """Print text for a person (suit symbols escaped on a narrow terminal)."""
    _write(text)


def _print_json(data) -> None:
    """Print one JSON object on one line (escaped to ASCII on a narrow terminal)."""
    _write(json.dumps(data, ensure_ascii=False), lambda: json.dumps(data) + "\n")


def load_record(path: str, command: str, as_json: bool):
    """Read a record file for a subcommand, or report why not and stop with status 1.

    The report is RECORDS.md's: one bounded line on standard error, and with ``--json`` the
    ``{"error": …}`` object on standard output. The status is 1 whatever becomes of
    standard output (closed early, or full).
    """
    from .records import RecordError, load

    try:
        return load(path)
    except RecordError as error:
        _refuse(command, error, as_json)


def _refuse(command: str, error, as_json: bool):
    """Report a :class:`~calijack.records.RecordError` as RECORDS.md says, and stop with status 1."""
    _tell(command, error.message)
    if as_json:
        try:
            _print_json(error.to_json())
        except _OutputFailed:
            pass  # the line above already said what is wrong with the record
    raise _Stop(EXIT_BAD_RECORD) from None


def _replay(args) -> int:
    from .records import replay_json
    from .text import replay_text

    record = load_record(args.file, "replay", args.json)
    if args.json:
        _print_json(replay_json(record))
    else:
        _print(replay_text(record))
    return 0


def _review(args) -> int:
    """``calijack review``: every play of a record rated; bad records as ``replay`` reports them."""
    from .review import review, review_json
    from .text_coach import review_lines

    record, states = _states_and_seat(args, "review")
    seats = None if args.seat is None else (args.seat,)
    reviews = [review(state, seats, samples=args.samples, seed=args.seed) for state in states]
    if args.json:
        _print_json(_one_or_deals(record, [review_json(r) for r in reviews]))
    else:
        for k, r in enumerate(reviews, 1):
            _print("\n".join(review_lines(r, f"=== Deal {k} ===" if len(reviews) > 1 else None)))
    return 0


def _states_and_seat(args, command: str):
    """The record's deals and the checked ``--seat`` (``replay``'s answer for a bad one)."""
    from .records import MatchRecord, RecordError

    record = load_record(args.file, command, args.json)
    states = record.states if isinstance(record, MatchRecord) else (record,)
    players = states[0].players
    if args.seat is not None and not 0 <= args.seat < players:
        _refuse(command, RecordError(f"--seat must be a seat from 0 to {players - 1} for this record, "
                                     f"not {args.seat}", seat=args.seat), args.json)
    return record, states


def _one_or_deals(record, deals: list) -> dict:
    from .records import MatchRecord

    return deals[0] if len(deals) == 1 and not isinstance(record, MatchRecord) else {"deals": deals}


def _drill(args) -> int:
    """``calijack drill``: each mistake of one seat as a position to try again."""
    from .drill import drills
    from .text_coach import drill_lines

    record, states = _states_and_seat(args, "drill")
    found = [drills(state, args.seat, samples=args.samples, seed=args.seed) for state in states]
    if args.json:
        _print_json(_one_or_deals(record, [{"drills": [d.to_json() for d in ds]} for ds in found]))
    else:
        for k, ds in enumerate(found, 1):
            _print("\n".join(drill_lines(ds, args.seat, f"=== Deal {k} ===" if len(found) > 1 else None)))
    return 0


def _compare(args) -> int:
    """``calijack compare``: the seat's points beside the computer's with the same cards."""
    from .drill import compare, position_rng
    from .match import Match
    from .players import PlayerError
    from .records import RecordError
    from .text_coach import compare_line

    record, states = _states_and_seat(args, "compare")
    for k, state in enumerate(states):
        if not state.finished:
            _refuse("compare", RecordError(f"the deal is not finished (trick {state.trick_number} of "
                                           f"{state.rules.tricks}): only a finished deal can be compared",
                                           trick=state.trick_number, deal=k if len(states) > 1 else None),
                    args.json)
    match = Match(states[0].rules, states[0].dealer)
    out = []
    for k, state in enumerate(states):
        try:
            out.append(compare(state, args.seat, args.opponent, position_rng(args.seed, k), match.scores))
        except PlayerError as error:
            _refuse("compare", RecordError(str(error)), args.json)
        match = match.add(state.result())
    if args.json:
        _print_json(_one_or_deals(record, [c.to_json() for c in out]))
    else:
        _print("\n".join(compare_line(c) for c in out))
    return 0


def _samples(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 2:
        raise argparse.ArgumentTypeError(f"samples must be a whole number of at least 2, not {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="calijack", description="California Jack: replay, review, simulate")
    sub = parser.add_subparsers(dest="command", required=True)

    replay = sub.add_parser("replay", help="check and replay a game record (RECORDS.md)")
    replay.add_argument("file", help="a deal or match record (JSON)")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.set_defaults(run=_replay)

    from .review import DEFAULT_SAMPLES

    # The sampled worlds that estimate a play's value: review and drill take the same two
    # options, so a drill of a review's mistakes can ask for the very same values.
    worlds = argparse.ArgumentParser(add_help=False)
    worlds.add_argument("--samples", type=_samples, default=DEFAULT_SAMPLES,
                        help=f"worlds per estimated play (default {DEFAULT_SAMPLES})")
    worlds.add_argument("--seed", type=int, default=0, help="seed of the sampled worlds (default 0)")

    rate = sub.add_parser("review", parents=[worlds],
                          help="rate every play of a record: each legal card's value, mistakes marked")
    rate.add_argument("file", help="a deal or match record (JSON)")
    rate.add_argument("--json", action="store_true", help="print one JSON object")
    rate.add_argument("--seat", type=int, default=None, help="review only this seat's plays")
    rate.set_defaults(run=_review)

    from .drill import COMPUTER

    drill = sub.add_parser("drill", parents=[worlds],
                           help="one seat's mistakes as positions to try again (the review's values)")
    drill.add_argument("file", help="a deal or match record (JSON)")
    drill.add_argument("--seat", type=int, required=True, help="the seat whose mistakes to drill")
    drill.add_argument("--json", action="store_true", help="print one JSON object")
    drill.set_defaults(run=_drill)

    same = sub.add_parser("compare", help="a seat's points beside the computer's, with the same cards")
    same.add_argument("file", help="a finished deal or match record (JSON)")
    same.add_argument("--seat", type=int, required=True, help="the seat the computer takes over")
    same.add_argument("--opponent", default=COMPUTER, help=f"the other seats' player (default {COMPUTER})")
    same.add_argument("--seed", type=int, default=0, help="seed of every choice (default 0)")
    same.add_argument("--json", action="store_true", help="print one JSON object")
    same.set_defaults(run=_compare)

    try:
        from .simulate import register
    except ImportError:  # the simulate command arrives with the opponents
        pass
    else:
        register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    from .text import say

    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except _Stop as stop:
        return stop.status
    except _OutputFailed as failed:
        if failed.reason is None:  # the reader left (a closed pipe, as with | head): not a fault
            return 0
        _tell(args.command, say("no_output", reason=failed.reason))
        return EXIT_NO_OUTPUT
    except KeyboardInterrupt:
        print("calijack: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _drop_stdout()
        return 0


if __name__ == "__main__":
    sys.exit(main())
