# cabo-log tasks. Everything runs inside a local virtualenv (.venv).
#   make install   cabo-log and what it needs to run, nothing else (then: make demo)
#   make dev       that plus the developers' tools: pytest, Playwright, mypy, ruff, ...
#   make test      make dev, then ruff, mypy and pytest
VENV  := .venv
PY    := $(VENV)/bin/python
BIN   := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.DEFAULT_GOAL := test
.PHONY: install dev test lint typecheck demo clean compiled events

# Create the virtualenv only when it is missing.
$(PY):
	python3 -m venv $(VENV)

# What a user's install is built from: after a `git pull` that changed any of it, `make install`
# builds it again (a compiled install does not run the sources, so a stale one would run old
# code). A development venv (`make dev`) is editable and runs the sources as they are.
SOURCES := pyproject.toml setup.py $(shell find engine cabo_log -type f -not -path '*/__pycache__/*' -not -name '*.so' 2>/dev/null)
ifeq ($(wildcard $(DEV_STAMP)),)
INSTALL_DEPS := $(SOURCES)
else
INSTALL_DEPS := pyproject.toml
endif

# For a user, cabo-log as `pip install .` builds it (compiled with mypyc where a C compiler is
# there) and what it needs to run...
$(STAMP): $(INSTALL_DEPS) | $(PY)
	$(PY) -m pip install -q .
	touch $@

# ... and for a developer an editable, pure install (edits run as written) with the test extra.
$(DEV_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP) $@

install: $(STAMP)

dev: $(DEV_STAMP)

lint: $(DEV_STAMP)
	$(BIN)/ruff check .

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

test: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(PY) tools/build_compiled.py || [ $$? -eq 3 ]
	$(BIN)/pytest

# The compiled build that tests/test_compiled*.py compare with the sources, installed into
# build/compiled (the development install is editable and pure). A no-op while the sources are
# unchanged; without a C compiler it says so and those tests are skipped.
compiled: $(DEV_STAMP)
	$(PY) tools/build_compiled.py || [ $$? -eq 3 ]

# Write the modules that follow from engine/spec.py (event classes, parsers, builders, the fast
# decoder's structs and sizes, the simulator's line text); tests/test_event_spec.py checks them.
events: $(DEV_STAMP)
	$(PY) tools/gen_events.py

# A short first run: the sample games loaded into DuckDB, one line per game, three reports, and
# one timeline page (its path is printed last). Re-runs skip unchanged games.
DEMO_DB := build/demo.duckdb
DEMO_GAMES := SELECT g.game_id AS game, g.ruleset, g.rounds, CASE WHEN g.complete THEN \
	array_to_string(g.winners, ', ') ELSE '(in progress)' END AS winners, \
	string_agg(p.player || ' ' || p.final_score || CASE WHEN p.forfeited THEN ' (left)' \
	ELSE '' END, ', ' ORDER BY p.seat) AS final_scores \
	FROM games g JOIN game_players p USING (game_id) GROUP BY ALL ORDER BY g.game_id

demo: $(STAMP)
	@mkdir -p build
	@echo "== load sample_games/*.jsonl into $(DEMO_DB)"
	@$(BIN)/cabo-log load sample_games/*.jsonl --db $(DEMO_DB) --quiet
	@echo; echo "== the games (cabo-log sql)"
	@$(BIN)/cabo-log sql "$(DEMO_GAMES)" --db $(DEMO_DB)
	@for r in cabo_call_success power_usage score_distribution; do \
		echo; echo "== cabo-log report $$r"; \
		$(BIN)/cabo-log report $$r --db $(DEMO_DB) || exit 1; \
	done
	@echo; echo "== a timeline page to open in a browser"
	@$(BIN)/cabo-log timeline sample_games/edition1-kamikaze.jsonl -o build/edition1-kamikaze.html

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis artifacts
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
