#!/usr/bin/env python3
"""Time random play of OpenSpiel's ``hearts`` driven from Python (complete games per second).

The code is :mod:`calijack.openspiel_hearts`, so that ``calijack bench`` finds it in any
install; this script runs it from a source checkout::

    python bench/openspiel_hearts.py [--seconds S] [--seed N] [--json]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from calijack.openspiel_hearts import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
