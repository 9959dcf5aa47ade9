"""The exact solver's room: what bounds a position's score, in C where it can, in Python everywhere.

The modules, bottom up:

* ``score_range``: a proven ``[lower, upper]`` range of a score (exact when the ends meet) and its words;
* ``user_cache`` and ``build`` (with ``solver.c``): the per-user cache directory, and the C solver
  compiled into it on first use;
* ``native``: the compiled solver loaded through ctypes: a position and a limit in, the exact score or
  the bounds proven by then out (the book's tools call it directly);
* ``native_search`` and ``python_search``: bound a position's score within a deadline, with the C
  solver (on a thread of its own, stopped at the deadline or by Ctrl-C) or with the pure-Python search;
* ``interface``: the one ``Solver`` interface of those two, and ``make_solver``, the one place that
  picks between them.
"""
