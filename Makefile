PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test docs bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

demo: $(BIN)/python
	$(BIN)/pip install --quiet -e ".[demo]"
	$(BIN)/python examples/quickstart.py

test: $(BIN)/python
	$(BIN)/pip install --quiet -e ".[test]"
	$(BIN)/python -m pytest -n 2 tests cellax

docs: $(BIN)/python
	$(BIN)/pip install --quiet -e ".[docs]"
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict

bench: $(BIN)/python
	$(BIN)/pip install --quiet -e ".[test,bench]"
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build site *.egg-info
