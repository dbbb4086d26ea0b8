# The two commands: `make demo` (fresh machine -> a sample topology shown) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
DEMO_DB ?= $(CURDIR)/demo-store/demo.db

.PHONY: install demo test check lint typecheck unit bench clean completions fuzz

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,spark]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	DEMO_DB=$(DEMO_DB) bash demo/demo.sh

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check mqctl tests benchmarks migrations

typecheck: $(STAMP)
	$(BIN)/mypy

# pytest-xdist: one worker per core (TEST_WORKERS=0 for one process); the Spark tests share one worker
# (one JVM), the others are dealt out as workers free up.
TEST_WORKERS ?= auto
PYTEST := $(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadgroup

unit: $(STAMP)
	$(PYTEST)

test: lint typecheck unit

# The fast inner loop: lint, types, and the tests that need neither PostgreSQL nor a JVM nor the slow
# end-to-end ones, fuzz tests with 25 inputs each. `make test` (and CI) runs everything.
CHECK_MARKERS ?= not slow and not postgres and not spark
check: lint typecheck
	MQCTL_FUZZ_EXAMPLES=25 $(PYTEST) -m "$(CHECK_MARKERS)"

# Figures and how they were measured: docs/benchmarks.md. bench_explain generates (once, cached in
# ~/.cache/mqctl-bench) and imports 5,000 queue managers and 500,000 subscriptions: several minutes.
bench: $(STAMP)
	$(BIN)/python benchmarks/bench_subindex.py
	$(BIN)/python benchmarks/bench_selector.py
	$(BIN)/python benchmarks/bench_adversarial.py
	$(BIN)/python benchmarks/bench_import.py --runs 3
	$(BIN)/python benchmarks/bench_edit.py --runs 9
	$(BIN)/python benchmarks/bench_explain.py --runs 7
	$(BIN)/python benchmarks/bench_mesh.py
	$(BIN)/python benchmarks/bench_routing.py
	$(BIN)/python benchmarks/bench_validate.py
	$(BIN)/python benchmarks/bench_commands.py --runs 3
	$(BIN)/python benchmarks/bench_writers.py
	$(BIN)/python benchmarks/bench_spark_small.py
	$(BIN)/python benchmarks/bench_spark.py
	$(BIN)/python benchmarks/bench_snapshot_import.py
	$(BIN)/python benchmarks/bench_engine.py --engine-only --digest --task-rss
	$(BIN)/python benchmarks/bench_diff.py
	$(BIN)/python benchmarks/bench_plan.py
	$(BIN)/python benchmarks/bench_reconcile.py
	$(BIN)/python benchmarks/bench_display_import.py

completions: $(STAMP)
	$(BIN)/python -m mqctl.cli.completions completions

# docs/cli.md's option lists, generated from the commands (tests/cli/test_docgen.py checks them)
.PHONY: docs
docs: $(STAMP)
	$(BIN)/python -m mqctl.cli.docgen --write

clean:
	rm -rf $(VENV) demo-store .pytest_cache .mypy_cache .ruff_cache dist build

# A longer fuzz campaign of the tests in tests/fuzz (make test runs them with 100 inputs each).
# Figures of the last campaign: docs/reliability.md.
FUZZ_EXAMPLES ?= 3000
fuzz: $(STAMP)
	MQCTL_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/pytest -q tests/fuzz --hypothesis-show-statistics -p no:cacheprovider
