# Every target works on a fresh machine with only Python 3.11: `make install` bootstraps uv into
# .tools/ and creates the lean project environment in .venv/ from the committed uv.lock.
# The interpreter's real path, not a version manager's shim: uv recreates .venv whenever the path differs.
PYTHON ?= $(shell for p in python3.11 python3; do command -v $$p >/dev/null && exec $$p -c 'import sys; print(sys.executable)'; done)
UV_VERSION := 0.13.9
UV := .tools/bin/uv
VENV := .venv
BIN := $(VENV)/bin
export UV_PYTHON_DOWNLOADS := never

.PHONY: install install-cluster install-dev test test-quick test-oldest demo lint docs bench bench-long fuzz clean submission core report book opening-scores statistics-reference notebook

$(UV):
	$(PYTHON) -m venv .tools
	.tools/bin/pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

$(VENV)/.installed: pyproject.toml uv.lock | $(UV)
	$(UV) sync --frozen --inexact --compile-bytecode --python $(PYTHON)
	@touch $@

install: $(VENV)/.installed

# Dask's distributed for `--cluster` (the optional extra `cluster`), added to .venv.
install-cluster: install
	$(UV) sync --frozen --inexact --compile-bytecode --extra cluster --python $(PYTHON)

# The tests' tools (the `dev` group) and the cluster extra the tests start, added to .venv.
install-dev: install
	$(UV) sync --frozen --inexact --compile-bytecode --extra cluster --group dev --python $(PYTHON)

test: install-dev
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || echo "make test: no chromium/chromedriver, so the browser tests (tests/test_play_browser.py) are SKIPPED; install them: apt-get install -y chromium chromium-driver"
	$(BIN)/python -m pytest -rs

# The suite without the tests that play real kaggle-environments games: a quick check while editing.
test-quick: install-dev
	$(BIN)/python -m pytest -m "not games"

# The declared dependencies' oldest versions, installed as a Kaggle notebook installs the wheel (part of `make test`).
test-oldest: install-dev
	$(BIN)/python -m pytest tests/test_oldest_dependencies.py

demo: install
	$(BIN)/connectx play solver kaggle:negamax --seed 1 --html out/demo/game.html --json out/demo/game.json
	$(BIN)/connectx match minimax kaggle:negamax -n 10 --jobs 2 --openings 2 --replays --out out/demo/match $$(test -f out/demo/match/run.json && echo --resume)
	$(BIN)/connectx replay out/demo/match --game 0 -o out/demo/match-game0.html
	$(MAKE) --no-print-directory submission
	@echo "Watch the games: open out/demo/game.html and out/demo/match-game0.html in a browser."
	@echo "The match table is in out/demo/match/report.md; the submission to upload is out/submission.py."
	@echo "Play the solver yourself: $(BIN)/connectx play human solver (in this terminal),"
	@echo "or $(BIN)/connectx serve (in a browser)."

# Every folder of Python (the docs' code blocks and scripts included), checked and format-checked alike.
LINTED := connectx book tests benchmarks docs examples

# mypy reads every package the code imports: the cluster extra's distributed is typed, so it is installed too.
lint: docs
	$(UV) sync --frozen --inexact --extra cluster --group lint --python $(PYTHON)
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/mypy

# The documentation pages (docs/, mkdocs.yml) into out/docs/; any warning fails the build: a dead
# link or anchor between pages, a page left out of the navigation.
docs: install
	$(UV) sync --frozen --inexact --group docs --python $(PYTHON)
	$(BIN)/mkdocs build --strict --site-dir out/docs

# The quick figures, about 10 minutes on 2 cores: the searches' speed, the solver on the position
# files it solves within a second and its nodes counted in C, the harness's throughput, what the
# late-move reductions save, how the evaluation orders exactly solved positions.
bench: install
	$(BIN)/python -m benchmarks.negamax_speed
	$(BIN)/python -m benchmarks.minimax_speed
	$(BIN)/python -m benchmarks.mcts_speed
	$(BIN)/python -m benchmarks.harness_throughput
	$(BIN)/python -m benchmarks.tally_cost
	$(BIN)/python -m benchmarks.solver_positions --files Test_L3_R1 Test_L2_R1 Test_L2_R2 Test_L1_R1 --limit 50 \
		--cap 10 --results out/bench/solver_positions_quick.jsonl
	$(BIN)/python -m benchmarks.solver_nodes Test_L1_R2 Test_L1_R3 --limit 100
	$(BIN)/python -m benchmarks.open_board_reductions
	$(BIN)/python -m benchmarks.evaluation_ranking
	$(BIN)/python -m benchmarks.solve_speed
	$(BIN)/python -m benchmarks.page_load

# The long experiments, many hours in all on 2 cores; each is resumable (run it again to continue).
# Real games on Kaggle's clock: the papers' agents and the solver against their opponents (hours each),
# the solver from the book's edge against perfect play (hours), the solver on boards without a book
# (about 5.5 hours). Then the solver on the hard position files (about 15 minutes), the built submission
# asked each of the first 200 positions of Test_L1_R1-R3 as Kaggle asks it, with its compiled solver and
# (50 of each) with the pure-Python fallback (about 20 minutes), every agent's submission built and
# validated (a few minutes per agent) and the evaluation's weights fitted.
bench-long: install
	$(BIN)/python -m benchmarks.minimax_mcts_vs_kaggle minimax --resume
	$(BIN)/python -m benchmarks.minimax_mcts_vs_kaggle mcts --resume
	$(BIN)/python -m benchmarks.solver_strength --resume
	$(BIN)/python -m benchmarks.solver_frontier --resume
	$(BIN)/python -m benchmarks.other_boards --resume
	$(BIN)/python -m benchmarks.second_seat --resume
	$(BIN)/python -m benchmarks.ladder_vs_round_robin
	$(BIN)/python -m benchmarks.solver_positions --files Test_L1_R2 Test_L1_R3 --limit 50 --cap 10 \
		--results out/bench/solver_positions.jsonl
	$(BIN)/python -m benchmarks.kaggle_positions --results out/bench/kaggle_positions.jsonl
	$(BIN)/python -m benchmarks.kaggle_positions --core python --limit 50 --results out/bench/kaggle_positions_python.jsonl
	$(BIN)/python -m benchmarks.submission_report
	$(BIN)/python -m benchmarks.evaluation_ranking --fit

# Every agent on 10,000 random positions and board sizes through Kaggle's call (about 1.5 h on 2 cores;
# resumable: run it again to continue). It prints illegal moves, faults and late moves (all must be 0).
fuzz: install
	$(BIN)/python -m benchmarks.fuzz --resume

# The strongest agent with its defaults, its opening book embedded (the build fails while
# agents/data/opening_book_7x6x4.bin is missing). solver spends up to 8 s of Kaggle's 60 s overage
# bank on a hard move by design, so validation lets later moves do that while 20 s stay in the bank.
SUBMISSION_AGENT ?= solver

submission: install
	$(BIN)/connectx build $(SUBMISSION_AGENT) -o out/submission.py
	$(BIN)/connectx validate out/submission.py --overage-reserve 20 --strict

# The compiled solver the agents ship (connectx/agents/data/solver_core_linux_x86_64.so), rebuilt from
# connectx/agents/data/solver.c by the ziglang wheel's cross compiler: the same bytes on any machine, for
# Kaggle's Linux x86-64 with glibc 2.28 or newer. Commit it with the source; the suite checks they match.
core: install-dev
	$(BIN)/python -m connectx.solver.shipped_library

# The seed papers' experiments at full size into reports/full/ (hours on 2 cores; resumable: run it
# again to continue). `connectx report --quick` is the smoke run into reports/quick/ (minutes).
report: install
	$(BIN)/connectx report --out reports

# The 7x6 opening book (needs a C compiler): continues from the committed checkpoint, so it only
# solves what is missing (about 2 hours from nothing on 2 cores; rerun it if its budget stops it),
# then writes the analysis's table of exact opening scores (package data) from the checkpoints, the
# agents' file of the opening scores the second seat's trap reads, and refreshes the sample of exact
# scores the tests check the book against.
book: install
	$(BIN)/python -m book.generate
	$(BIN)/python -m book.opening_table
	$(BIN)/python -m book.agent_scores
	$(BIN)/python -m book.make_sample

# Every 7x6 position of ply 6 solved exactly by the C solver, for the analysis's opening (8,231
# positions, 8.3 hours of worker time on 2 shared cores at low priority; resumable: stop it any time and run it
# again, its gzip checkpoint in book/solved/ is committed), then the table of exact scores rebuilt
# from it. The book's tools run from a clone: they are not part of the installed package.
opening-scores: install
	$(BIN)/python -m book.opening_scores
	$(BIN)/python -m book.opening_table
	$(BIN)/python -m book.agent_scores

# The reference values the statistics are tested against (tests/reference/statistics_reference.json),
# computed by SciPy and statsmodels in an environment of their own (the project's keeps SciPy out), from
# the stored games of three of the report's claims (tests/reference/claim_games.json).
statistics-reference: install
	$(BIN)/python tests/reference/make_claim_games.py
	$(UV) venv --quiet --allow-existing --python $(PYTHON) .tools/reference
	$(UV) pip install --quiet --no-config --python .tools/reference/bin/python scipy==1.17.1 statsmodels==0.15.0
	.tools/reference/bin/python tests/reference/make_statistics_reference.py

# Everything .gitignore names (the environments, out/, caches, builds): one list of what is generated.
clean:
	git clean -fdX

# The example notebook run again beside a Kaggle user's files, its outputs stored in it (commit them).
notebook: install-dev
	$(BIN)/python examples/execute_notebook.py
