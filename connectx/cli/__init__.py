"""The ``connectx`` command line: ``main`` (the parser), one module per command, and what commands share.

Commands: ``agents``, ``play``, ``match``, ``tournament``, ``replay``, ``report``, ``build``,
``validate``, ``solve``, ``analyze`` and ``serve``. Shared: ``options`` (option types, board and
run options, input checks) and ``progress`` (the live progress bar). No command imports another,
and nothing but ``python -m connectx`` imports ``cli``: it is the top layer, the only one that prints.
"""
