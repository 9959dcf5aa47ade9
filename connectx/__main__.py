"""``python -m connectx``: the same program as the ``connectx`` command."""

import sys

from connectx.cli.main import main

sys.exit(main())
