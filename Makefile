# Two commands for a fresh machine: `make run` and `make test`. Both set themselves up.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-slow bench setup clean compile

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

## make run: compile the built-in revised pack and play a seeded 4-player family game
run: $(STAMP)
	$(BIN)/agricola compile
	$(BIN)/agricola play --pack revised-family --players 4 --seed 1

## make test: the default (fast) test suite
test: $(STAMP)
	$(BIN)/python -m pytest

## make test-slow: long property runs and big simulations
test-slow: $(STAMP)
	$(BIN)/python -m pytest -m slow

## make bench: writes build/bench.json
bench: $(STAMP)
	$(BIN)/python -m runtime.bench --out build/bench.json

compile: $(STAMP)
	$(BIN)/agricola compile --pack revised
	$(BIN)/agricola compile --pack revised-family

clean:
	rm -rf build $(VENV)
