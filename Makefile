# Two commands for a fresh machine: `make run` and `make test`. Both set themselves up.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-slow bench setup clean compile browser docs mutate balance-report native

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	@# setuptools 68 or newer builds wheels by itself (pyproject.toml; tests/test_tools.py installs without isolation)
	$(BIN)/pip install --quiet --upgrade pip 'setuptools>=68'
	@# setuptools' notice about editable installs is a UserWarning: not shown
	PYTHONWARNINGS=ignore::UserWarning $(BIN)/pip install --quiet -e '.[test,rl,web,sim,ray,native]'
	touch $(STAMP)

setup: $(STAMP)

## make run: compile the built-in packs and play a seeded 4-player family game between greedy agents
run: $(STAMP)
	$(BIN)/agricola compile
	$(BIN)/agricola play --pack revised-family --players 4 --seed 1 --agents greedy
	$(BIN)/agricola docs --pack revised --out build/docs/revised
	@echo "The rules reference of the revised pack: open build/docs/revised/index.html in a browser"

## make browser: Debian's Chromium, for the docs' browser tests and `agricola docs --pdf` (installed when missing)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser:
	@if [ -x /usr/bin/chromium ] || [ -n "$$AGRICOLA_CHROMIUM" ]; then :; else \
	  echo "installing Debian's chromium (needed by tests/test_docs_browser.py and agricola docs --pdf)"; \
	  $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q chromium; \
	fi

## make native: the runtime compiled with mypyc into build/native, as one group, profile-guided (rebuilt, about four minutes on
## 2 cores, when any runtime source changed; until then the runtime runs from its sources). Installs gcc
## when there is no C compiler.
native: $(STAMP)
	@command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1 || { \
	  echo "installing Debian's gcc (needed to compile the runtime with mypyc)"; \
	  $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q gcc; }
	@$(BIN)/python -c "import mypyc.build" 2>/dev/null || PYTHONWARNINGS=ignore::UserWarning $(BIN)/pip install --quiet -e '.[native]'
	$(BIN)/python tools/native.py

## make docs: the rules reference of the default pack, as HTML and PDF, in build/docs/revised
docs: $(STAMP) browser
	$(BIN)/agricola docs --pack revised --out build/docs/revised --pdf

## make test: the default (fast) test suite
test: $(STAMP) browser native
	$(BIN)/python -m pytest

## make test-slow: long property runs and big simulations
test-slow: $(STAMP) native
	$(BIN)/python -m pytest -m slow

## make mutate: mutation testing with mutmut (not part of CI); writes build/mutation.json; stops after
## MUTATE_BUDGET seconds and goes on from there the next time (README, "Mutation testing")
MUTATE_BUDGET ?= 3600
MUTATE_MODULES ?=
MUTATE_TESTS ?=
MUTATE_SAMPLE ?= 0
MUTATE_SEED ?= 0
mutate: $(STAMP) browser
	@$(BIN)/python -c "import mutmut" 2>/dev/null || PYTHONWARNINGS=ignore::UserWarning $(BIN)/pip install --quiet -e '.[test,rl,web,sim,ray,mutation]'
	$(BIN)/python tools/mutate.py --budget $(MUTATE_BUDGET) $(foreach m,$(MUTATE_MODULES),--module $(m)) \
	  $(foreach t,$(MUTATE_TESTS),--tests $(t)) --sample $(MUTATE_SAMPLE) --seed $(MUTATE_SEED)

## make balance-report: 20,000 4-player games of revised between greedy agents (resumable: run it again after
## a stop), then their balance report in build/balance/revised-4p.html (hours on 2 cores; docs/simulation.md)
BALANCE_GAMES ?= 20000
BALANCE_AGENTS ?= greedy
balance-report: $(STAMP)
	nice -n 10 $(BIN)/agricola simulate --pack revised --players 4 --games $(BALANCE_GAMES) --agents $(BALANCE_AGENTS) \
	  --seed 1 --batch 50 --out build/sim/revised-4p-$(BALANCE_AGENTS)
	$(BIN)/agricola balance build/sim/revised-4p-$(BALANCE_AGENTS) --out build/balance/revised-4p.html

## make bench: writes build/bench.json
bench: $(STAMP) native
	$(BIN)/python -m compiler.bench --out build/bench.json

compile: $(STAMP)
	$(BIN)/agricola compile --pack revised
	$(BIN)/agricola compile --pack revised-family
	$(BIN)/agricola compile --pack original
	$(BIN)/agricola compile --pack original-family

clean:
	rm -rf build $(VENV)
