"""Move-by-move analysis of a finished game: every column's exact value at every ply.

The modules, bottom up:

* ``games``: a game read from a Kaggle episode JSON, a harness game record or a move string,
  into one ``Game`` value;
* ``score_range``: a proven ``[lower, upper]`` range of a score (exact when the ends meet);
* ``python_solver`` and ``native_solver``: bound a position's score within a deadline, with the
  pure-Python search or the book's C search; ``solvers`` picks one;
* ``book_scores`` and ``solved_cache``: the persistent cache of solved positions, seeded with
  the opening book's exact scores;
* ``game_analysis``: the analysis of a game, ply by ply, and its JSON form;
* ``text_report`` and ``html_page``: the analysis for the terminal and as a self-contained page.
"""
