"""Games, matches and tournaments between agents in the real kaggle-environments engine, and their statistics.

The modules, bottom up (each imports only those above it, and nothing of ``cli`` or ``papers``):

* ``engine``: the only module that imports ``kaggle_environments``; the board, agents resolved
  from their specs and seeded per seat, Kaggle's verdict on a finished game;
* ``game``: one game in a watched process of its own, and its ``GameRecord`` (moves, faults,
  time and the agents' search statistics per move);
* ``results_store``: a run's directory (its plan and one JSON line per game), resumable;
* ``scheduling``: where games run (any ``concurrent.futures.Executor``);
* ``statistics``: pure functions from results to intervals, Elo, SPRT and rating fits;
* ``match`` and ``tournament``: colour-swapped pairs, shared openings, summaries;
* ``results_text`` and ``plots``: the tables, Markdown and figures people read;
* ``replays``: a recorded game as the Kaggle viewer's HTML page.

Every layer returns frozen values and prints nothing; only the command line prints.
"""
