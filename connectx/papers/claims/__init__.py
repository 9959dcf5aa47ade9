"""Each claim held against the games: the scores of its cells, its test, and the verdict rule over all of them.

* ``cell_scores``: a cell's (or several cells') clustered win rate or score;
* ``rate_claims``, ``trends``, ``move_claims``, ``sensitivity``: the evidence each kind of claim brings;
* ``verdicts``: the one rule that turns that evidence into verdicts; ``claim_tests`` runs it over every claim;
* ``shared_games``: the cells of different experiments whose claims rest on the same games;
* ``p_value_text``: how a p-value is written, in the evidence and in the report.
"""
