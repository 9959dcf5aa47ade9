"""Move-by-move analysis of a finished game: every column's exact value at every ply.

The modules, bottom up (the searches they ask are ``connectx.solver``'s):

* ``games``: a game read from a Kaggle episode JSON, a harness game record or a move string,
  into one ``Game`` value that carries its ``BoardSpec``;
* ``exact_scores`` (with ``data/``) and ``solved_cache``: the exact scores of 7x6 openings that ship
  with the package, and the persistent cache of what analyses have found (bounds and estimates too);
* ``cached_solver``: the one way every analysis asks the solver about a position, through that cache;
* ``agreement`` and ``game_analysis``: one value per position across a game, and the analysis of a
  game, ply by ply, and its JSON form;
* ``text_report`` and ``html_page``: the analysis for the terminal and as a self-contained page.
"""
