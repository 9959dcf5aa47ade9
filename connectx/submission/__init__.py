"""From a registered agent to one file Kaggle accepts, and the local proof that it does.

``bundler`` (with ``module_graph``, ``namespace`` and ``embedded_data``) turns an agent spec into
the source of a self-contained submission; ``validator`` runs that file the way Kaggle does, in
a process (``isolated_runner``) that cannot import our packages. ``connectx build`` and
``connectx validate`` are their command-line faces.
"""
