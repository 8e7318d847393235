"""``python -m calijack.classsvc``: the class service, as the hub starts it."""

import sys

from . import main

sys.exit(main())
