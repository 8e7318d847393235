# calijack: `make serve` and `make test` each work alone on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
BOOK_PORT ?= 8000
VOILA_PORT ?= 8866

.PHONY: env chromium book test serve bench lighthouse lock clean

$(STAMP): requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

env: $(STAMP)

# Browser tests use Debian's Chromium; Playwright cannot download a browser here.
chromium:
	@if command -v chromium >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else echo "chromium is missing: run 'sudo apt-get install chromium' (or make test as root)" >&2; exit 1; fi

# The published book, built with warnings as errors.
book: env
	$(VENV)/bin/jupyter-book build . -W -n --keep-going

test: env chromium book
	$(PY) -m pytest

serve: env book
	@$(PY) -m calijack.serve --book _build/html --book-port $(BOOK_PORT) --voila-port $(VOILA_PORT)

bench: env
	$(PY) -m pip install --quiet --disable-pip-version-check -r bench/requirements.txt
	$(PY) -m calijack bench --json

# Page speed of the built book: Lighthouse (pinned in bench/lighthouse) on every page, with budgets.
lighthouse: env chromium book
	npm ci --prefix bench/lighthouse --no-audit --no-fund --silent
	$(PY) bench/lighthouse.py

lock:
	$(PYTHON) -m venv /tmp/calijack-lock && /tmp/calijack-lock/bin/pip install -q -r requirements.in \
	  && { echo "# Exact pins of every package (pip freeze of requirements.in). Regenerate with: make lock"; \
	       /tmp/calijack-lock/bin/pip freeze; } > requirements.txt

clean:
	rm -rf _build $(VENV)
