"""Move-by-move analysis of a finished game: every column's exact value at every ply.

The modules, bottom up:

* ``games``: a game read from a Kaggle episode JSON, a harness game record or a move string,
  into one ``Game`` value;
* ``score_range``: a proven ``[lower, upper]`` range of a score (exact when the ends meet);
* ``native`` (with ``solver.c``): the C solver, compiled on first use into the user's cache
  (``user_cache``) and loaded through ctypes; the book's generator runs it too;
* ``python_solver`` and ``native_solver``: bound a position's score within a deadline, with the
  pure-Python search or the C one; ``solvers`` picks one;
* ``exact_scores`` (with ``data/``) and ``solved_cache``: the exact scores of 7x6 openings that ship
  with the package, and the persistent cache of the positions analyses have solved;
* ``game_analysis``: the analysis of a game, ply by ply, and its JSON form;
* ``text_report`` and ``html_page``: the analysis for the terminal and as a self-contained page.
"""
