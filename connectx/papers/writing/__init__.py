"""The report's writing: Markdown beside the papers' claims, its appendix, tables and figures.

* ``markdown``: the report and its appendix, from the recorded games;
* ``answer_section``: its first screen, every claim counted and listed once;
* ``figure_tables``: each experiment's table and figure in the paper's layout;
* ``ratings_section``: the joint Elo fit of the agents the games can place;
* ``report_format``: the files' names and how a paragraph is written.
"""
