"""The evaluation harness: games, matches, tournaments and ladders in the real kaggle-environments engine,
and their statistics.

The modules (they import ``connectx.agents`` and each other, never the command line), roughly bottom up:

* ``engine``: the only module that imports ``kaggle_environments``; the board, agents resolved
  from their specs and seeded per seat, Kaggle's verdict on a finished game;
* ``game_record``: what decides one game (``GameSpec``) and what came of it (``GameRecord``: moves,
  faults, time and the agents' search statistics per move), with its JSON form;
* ``game_in_process``: one game played in this process, each agent call announced and timed;
* ``game``: that game in a watched process of its own, killed when a move outlives the watchdog;
  ``move_journal``: the file in which that process notes each move for the watchdog;
* ``provenance``: the commit, code digest and machine each game records;
* ``output_paths``: the checks of a path before anything is written there;
* ``results_store``: a run's directory (its plan and one JSON line per game), resumable;
* ``scheduling``: where games run (any ``concurrent.futures.Executor``); ``cluster``: a Dask
  cluster as one such executor (``--cluster``);
* ``run_loop``: the one loop every run of games goes through: checks, resume, the code check,
  storing each game, the tally and stopping;
* ``statistics``: every statistic, pure functions from results: intervals, Elo, SPRT and rating fits
  for matches and tournaments, and the hypothesis tests the papers' verdicts rest on;
* ``match`` and ``tournament``: colour-swapped pairs, shared openings, summaries;
* ``ladder`` and ``ladder_pool``: episodes paired and rated as Kaggle's leaderboard does, against a pool
  of fallible opponents;
* ``results_text`` and ``plots``: the tables, Markdown and figures people read;
* ``replays``: a recorded game as the Kaggle viewer's HTML page.

Every layer returns frozen values and prints nothing; only the command line prints.
"""
