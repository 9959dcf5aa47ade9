"""The 7x6 opening book's generator (``make book``): development tools, never part of a submission.

``generate`` solves the positions the book's strategy reaches (``strategy``) with the C solver of
``connectx.solver.native``, level by level, resumably (``checkpoint``), and writes the book file
``agents/players/opening_book.py`` reads (``book_file``). ``opening_scores`` and ``exact_scores``
write the analysis's table of exact opening scores, ``make_sample`` the sample the tests check the
book against; ``check_solver`` checks the C solver against ``positions/``, and ``perfect_play`` is
the C solver as a Kaggle agent file, the opponent that tests the book's edge.
"""
