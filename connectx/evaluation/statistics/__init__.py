"""Every statistic of the project, pure functions of counts, scores and games, one module a job.

* ``elo``: what matches and tournaments print: a score and its Elo with error bars, LOS,
  pentanomial pairs, the SPRT and a joint Elo fit, as chess engine testers compute them;
* ``rated_group``: which players a joint Elo fit can place, and how well the fit explains their games;
* ``clustered_scores``: a rate over games the design ties together, and how many independent games it is worth;
* ``hypothesis_tests``: p-values, trend, rate and equivalence tests, their powers, Holm and Benjamini-Hochberg,
  on which the papers' verdicts rest.
"""
