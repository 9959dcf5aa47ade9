"""Play against the agents: a game for people, in the terminal and in the browser.

The modules, bottom up:

* ``session``: one game between a person and an agent (or two people) in kaggle-environments,
  with take-back, its record in a run directory and its Kaggle replay;
* ``column_values``: each column's proven value in a position, within a time limit, and the
  words people read for it ("win in 3", "draw", "loss in 2");
* ``terminal``: the game in a terminal, drawn in colour, the person typing columns
  (``connectx play human solver``);
* ``server``: what the page's JSON API does (games, moves, analyses, uploaded episodes), apart
  from HTTP; ``http_app``: Starlette and uvicorn serving it and ``static/`` (the page) on this
  machine (``connectx serve``).
"""
