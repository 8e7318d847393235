"""The command line: ``python -m calijack replay FILE [--json]``, ``review``, ``bench``, ``simulate``."""

from __future__ import annotations

import argparse
import json
import sys

__all__ = ["main"]


def _print(text: str) -> None:
    # Suit symbols need UTF-8; fall back to escapes rather than fail on a narrow terminal.
    try:
        print(text)
    except UnicodeEncodeError:
        print(text.encode(sys.stdout.encoding or "ascii", "backslashreplace").decode(sys.stdout.encoding or "ascii"))


def _print_json(data) -> None:
    # Messages may quote a card such as "10♥"; escape it rather than fail on a narrow stdout.
    try:
        print(json.dumps(data, ensure_ascii=False))
    except UnicodeEncodeError:
        print(json.dumps(data))


def _replay(args) -> int:
    from .records import RecordError, load, replay_json
    from .text import replay_text

    try:
        record = load(args.file)
    except RecordError as error:
        print(f"calijack replay: {error.message}", file=sys.stderr)
        if args.json:
            _print_json(error.to_json())
        return 1
    if args.json:
        _print_json(replay_json(record))
    else:
        _print(replay_text(record))
    return 0


def _review(args) -> int:
    """``calijack review``: every play of a record rated; bad records as ``replay`` reports them."""
    from .records import MatchRecord, RecordError, load
    from .review import review, review_json
    from .text_coach import review_lines

    try:
        record = load(args.file)
        states = record.states if isinstance(record, MatchRecord) else (record,)
        players = states[0].players
        if args.seat is not None and not 0 <= args.seat < players:
            raise RecordError(f"--seat must be a seat from 0 to {players - 1} for this record, not {args.seat}",
                              seat=args.seat)
    except RecordError as error:
        print(f"calijack review: {error.message}", file=sys.stderr)
        if args.json:
            _print_json(error.to_json())
        return 1
    seats = None if args.seat is None else (args.seat,)
    reviews = [review(state, seats, samples=args.samples, seed=args.seed) for state in states]
    if args.json:
        deals = [review_json(r) for r in reviews]
        _print_json(deals[0] if len(deals) == 1 and not isinstance(record, MatchRecord) else {"deals": deals})
    else:
        for k, r in enumerate(reviews, 1):
            _print("\n".join(review_lines(r, f"=== Deal {k} ===" if len(reviews) > 1 else None)))
    return 0


def _samples(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 2:
        raise argparse.ArgumentTypeError(f"samples must be a whole number of at least 2, not {text!r}")
    return value


def _bench(args) -> int:
    from .bench import run

    report = run(seconds=args.seconds, openspiel=not args.no_openspiel, rounds=args.rounds)
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="calijack", description="California Jack: replay, simulate, benchmark")
    sub = parser.add_subparsers(dest="command", required=True)

    replay = sub.add_parser("replay", help="check and replay a game record (RECORDS.md)")
    replay.add_argument("file", help="a deal or match record (JSON)")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.set_defaults(run=_replay)

    from .review import DEFAULT_SAMPLES

    rate = sub.add_parser("review", help="rate every play of a record: each legal card's value, mistakes marked")
    rate.add_argument("file", help="a deal or match record (JSON)")
    rate.add_argument("--json", action="store_true", help="print one JSON object")
    rate.add_argument("--seat", type=int, default=None, help="review only this seat's plays")
    rate.add_argument("--samples", type=_samples, default=DEFAULT_SAMPLES,
                      help=f"worlds per estimated play (default {DEFAULT_SAMPLES})")
    rate.add_argument("--seed", type=int, default=0, help="seed of the sampled worlds (default 0)")
    rate.set_defaults(run=_review)

    bench = sub.add_parser("bench", help="deals per second of the fast path, beside OpenSpiel hearts")
    bench.add_argument("--seconds", type=float, default=2.0, help="time per round and side")
    bench.add_argument("--rounds", type=int, default=5, help="alternating rounds (medians are compared)")
    bench.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel comparison")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(run=_bench)

    try:
        from .simulate import register
    except ImportError:  # the simulate command arrives with the opponents
        pass
    else:
        register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print("calijack: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
