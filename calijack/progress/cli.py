"""The learner's progress on the command line: check a downloaded file, print the schema.

``python -m calijack.progress check FILE`` checks a progress file (what **Download my
progress** saves); ``python -m calijack.progress schema`` prints the document's JSON Schema.
"""

from __future__ import annotations

import argparse
import json
import sys

from .document import MAX_CHARS, schema
from .reader import ProgressError, read


def main(argv: list[str] | None = None) -> int:
    """``python -m calijack.progress check FILE`` / ``schema``."""
    parser = argparse.ArgumentParser(prog="python -m calijack.progress", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("schema", help="print the document's JSON Schema")
    checker = sub.add_parser("check", help="check a progress file (Download my progress)")
    checker.add_argument("file")
    args = parser.parse_args(argv)
    if args.command == "schema":
        print(json.dumps(schema(), indent=1))
        return 0
    try:
        with open(args.file, "rb") as f:
            raw = f.read(MAX_CHARS * 4 + 1)
        doc = read(raw)
    except OSError as error:
        print(f"calijack progress: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 1
    except ProgressError as error:
        print(f"calijack progress: {args.file} cannot be read: {error}", file=sys.stderr)
        return 1
    print(f"{args.file}: a progress document, version {doc['version']}: {len(doc['checks'])} quick checks, "
          f"{len(doc['puzzles'])} puzzles, {len(doc['deals'])} deals kept, {len(doc['drills'])} mistakes to practise, "
          f"{'an' if doc['game'] else 'no'} unfinished game")
    return 0
