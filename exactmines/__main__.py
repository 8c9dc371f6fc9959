"""``python -m exactmines``: the same as the ``exactmines`` command."""

import sys

from .cli import main

sys.exit(main())
