"""The seed papers' experiments, reproduced through the harness (``connectx report``).

* ``experiments``: the papers' experiments and claims as data, in a quick and a full profile;
* ``runner``: plays every cell as a resumable match (``evaluation``) and reads what the games measured;
* ``verdicts``: holds each claim against those games;
* ``markdown``: writes the report and its figures.
"""
