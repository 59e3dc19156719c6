PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

demo: $(BIN)/python
	$(BIN)/pip install --quiet -e ".[demo]"
	$(BIN)/python examples/quickstart.py

test: $(BIN)/python
	$(BIN)/pip install --quiet -e ".[test]"
	$(BIN)/python -m pytest -n 2 tests cellax

bench: $(BIN)/python
	$(BIN)/pip install --quiet -e ".[test,bench]"
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build *.egg-info
