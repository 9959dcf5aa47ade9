"""Play against the agents: a game for people, in the terminal and in the browser.

The modules, bottom up:

* ``session``: one game between a person and an agent (or two people) in kaggle-environments,
  with take-back, its record in a run directory and its Kaggle replay;
* ``column_values``: each column's proven value in a position, within a time limit, and the
  words people read for it ("win in 3", "draw", "loss in 2");
* ``terminal``: the game in a terminal, drawn in colour, the person typing columns;
* ``server`` and ``static/``: a local web page to play on, with the analysis of the position
  and of an uploaded episode.
"""
