"""``python -m calijack.progress``: the command line (:mod:`calijack.progress.cli`)."""

import sys

from .cli import main

sys.exit(main())
