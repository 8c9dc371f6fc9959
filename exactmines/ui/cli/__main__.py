"""``python -m exactmines.ui.cli``: the same as the ``exactmines`` command."""

import sys

from exactmines.ui.cli import main

sys.exit(main())
