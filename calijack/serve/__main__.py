"""``python -m calijack.serve``: the book and the lessons (see :mod:`calijack.serve`)."""

import sys

from calijack.serve import main

sys.exit(main())
