"""``python -m connectx``: the same program as the ``connectx`` command."""

import sys

from connectx.cli.main import main

status = main()
# A Ctrl-C that main caught while the standard library ran a string of code (dataclasses and namedtuple
# build methods with exec) leaves CPython's "unhandled KeyboardInterrupt" mark set, and `python -m` would
# end by SIGINT instead of with `status`; running any string clears the mark.
exec("")
sys.exit(status)
