"""The seed papers' experiments, reproduced through the harness (``connectx report``), in three rooms, each
importing only those before it (and the harness, ``connectx.evaluation``, whose ``statistics`` hold every test):

* ``experiments``: the experiments and claims as data, one module per paper, and the matches that play them;
* ``claims``: each claim's test on those games, and the one rule that turns the tests into verdicts;
* ``writing``: the report's Markdown, tables and figures.
"""
