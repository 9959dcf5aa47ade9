"""Play against the agents: a game for people, in the terminal and in the browser.

The modules, bottom up:

* ``session``: one game between a person and an agent (or two people) in kaggle-environments,
  with take-back, its record in a run directory and its Kaggle replay;
* ``column_values``: each column's value in a position, within a time limit, from the analysis
  engine (the page and the terminal's hint);
* ``terminal``: the game in a terminal, drawn in colour, the person typing columns
  (``connectx play human solver``);
* ``api``: what the page's JSON API does (games, moves, analyses, uploaded episodes), apart
  from HTTP; ``http_app``: Starlette and uvicorn serving it and ``static/`` (the page) on this
  machine (``connectx serve``).
"""
