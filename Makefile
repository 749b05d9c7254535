# Papershelf: `make run` opens the app, `make test` runs the whole suite.
# Both create .venv and install the project into it on first use.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench lint clean install screenshot

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/papershelf

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest

bench: $(STAMP)
	$(PY) -m tests.bench $(BENCH_ARGS)

# The README's screenshot: the window on a fresh sample library, rendered offscreen.
screenshot: $(STAMP)
	rm -rf .screenshot-library && mkdir .screenshot-library
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/papershelf --library .screenshot-library/lib.sqlite \
		--screenshot resources/screenshots/main.png
	rm -rf .screenshot-library

lint: $(STAMP)
	$(VENV)/bin/ruff check desktop tests
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) build desktop/*.egg-info
