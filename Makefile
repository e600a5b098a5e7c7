# cabo-log developer tasks. Everything runs inside a local virtualenv (.venv).
VENV  := .venv
PY    := $(VENV)/bin/python
BIN   := $(VENV)/bin
STAMP := $(VENV)/.installed

.DEFAULT_GOAL := test
.PHONY: install test lint typecheck demo clean compiled events

# Create the virtualenv only when it is missing.
$(PY):
	python3 -m venv $(VENV)

# (Re)install the project and its test tools only when pyproject.toml changed.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[test]'
	touch $@

install: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest

# Write the modules that follow from engine/spec.py (event classes, parsers, builders, the fast
# decoder's structs and sizes, the simulator's line text); tests/test_event_spec.py checks them.
events: $(STAMP)
	$(PY) tools/gen_events.py

# The optional mypyc-compiled engine, in build/mypyc (the pure engine stays the default; use it
# with PYTHONPATH=build/mypyc). Needs a C compiler and the Python headers; a no-op when built.
compiled: $(STAMP)
	$(PY) tools/build_compiled.py

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
