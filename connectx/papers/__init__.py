"""The seed papers' experiments, reproduced through the harness (``connectx report``).

* ``design``, ``sheoran``, ``kang``, ``experiments``: the experiments and claims as data, one module per
  paper, gathered in a quick and a full profile;
* ``runner``: plays every cell as a resumable match (``evaluation``) and reads what the games measured;
* ``cell_scores``, ``rate_claims``, ``trends``, ``sensitivity``, ``move_claims``, ``claim_tests``: each
  claim's test on those games; ``verdicts``: the one rule that turns the tests into verdicts;
* ``markdown`` (with ``figure_tables``, ``ratings_section``, ``report_format``, ``shared_games``): the report.
"""
