# cabo-log developer tasks. Everything runs inside a local virtualenv (.venv).
VENV  := .venv
PY    := $(VENV)/bin/python
BIN   := $(VENV)/bin
STAMP := $(VENV)/.installed

.DEFAULT_GOAL := test
.PHONY: install test lint typecheck demo clean

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

demo: $(STAMP)
	@set -e; for f in sample_games/*.jsonl; do \
		[ -e "$$f" ] || continue; \
		echo "== $$f"; \
		$(BIN)/cabo-log replay "$$f"; \
	done
	@mkdir -p build
	@echo "== load sample_games into build/demo.duckdb (re-runs skip unchanged games)"
	@$(BIN)/cabo-log load sample_games/*.jsonl --db build/demo.duckdb
	@for r in cabo_call_success power_usage score_distribution; do \
		echo "== report $$r"; \
		$(BIN)/cabo-log report $$r --db build/demo.duckdb || exit 1; \
	done

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis artifacts
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
