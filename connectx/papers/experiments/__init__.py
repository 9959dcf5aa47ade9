"""The experiments as data and their playing: what each paper ran and claimed, and the harness's matches for it.

* ``design``: the types (a cell, a claim and how it is tested, an experiment, a run's profile);
* ``sheoran``, ``kang``: each paper's experiments and claims;
* ``catalogue``: every experiment of the report in its order, in a quick and a full profile;
* ``runner``: plays every cell as a resumable match and reads what the games measured.
"""
