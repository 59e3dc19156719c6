PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

LINT_PATHS := cellax tests benchmarks examples tools setup.py

.PHONY: demo lint test docs bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

demo: $(BIN)/python
	$(BIN)/pip install --quiet -e ".[demo]"
	$(BIN)/python examples/quickstart.py

# ruff (format and lint) and basedpyright in basic mode over the public API (tests/typecheck),
# all pinned in the test extra; then the suite, doctests included
lint: $(BIN)/python
	$(BIN)/pip install --quiet -e ".[test]"
	$(BIN)/ruff format --check $(LINT_PATHS)
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/basedpyright --pythonpath $(BIN)/python tests/typecheck

test: lint
	$(BIN)/python -m pytest -n 2 tests cellax

docs: $(BIN)/python
	$(BIN)/pip install --quiet -e ".[docs]"
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict

bench: $(BIN)/python
	$(BIN)/pip install --quiet -e ".[test,bench]"
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build site *.egg-info
