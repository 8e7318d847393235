# calijack: `make serve` and `make test` each work alone on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
BOOK_PORT ?= 8000
VOILA_PORT ?= 8866
# The live site's archives: stored, for a host that compresses them (make serve does), or
# deflated, for a host that sends .zip and .whl as they are (book/publishing.md).
LITE_ARCHIVES ?= stored

.PHONY: env chromium npm lite book test test-fast serve lab bench lighthouse lock clean hub hub-env

# Copied to .venv/etc/jupyter/voila.py: any `voila` of the environment reads calijack's lesson
# settings (book/teaching.md: the lesson server).
VOILA_SETTINGS := calijack/serve/jupyter_config/environment/voila.py

# uv installs the pins of requirements.txt (the same packages pip would: a fresh environment in
# about 10 s, against a minute with pip); itself pinned, installed by the environment's own pip.
# The lock is complete (make lock), so nothing else is resolved (--no-deps, as pip-sync does):
# what is installed is exactly what requirements.txt pins. Left out on purpose (make lock's
# --unsafe-package): rfc3987-syntax (and its lark), which jsonschema's format checks import when
# present and which builds a grammar as it is imported: 1.8 s of CPU for every Jupyter server,
# hub, Voilà and nbclient process (jupyter_server.serverapp imports in 2.6 s with it, 0.6 s
# without); it checks the syntax of IRIs, which nothing here validates. UPGRADING.md.
UV_PIN := uv==0.13.9
UV := $(VENV)/bin/uv pip install --quiet --python $(PY)
$(STAMP): requirements.txt pyproject.toml $(VOILA_SETTINGS)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check $(UV_PIN)
	$(UV) --no-deps -r requirements.txt
	$(UV) --no-deps --no-build-isolation -e .
	mkdir -p $(VENV)/etc/jupyter && cp $(VOILA_SETTINGS) $(VENV)/etc/jupyter/voila.py
	touch $@

env: $(STAMP)

# Debian's Chromium: the browser tests drive its headless shell (chromium-headless-shell, the same
# version without the desktop window: less CPU a test), the benchmarks and Lighthouse the full browser.
# Playwright cannot download a browser here.
CHROMIUM_PACKAGES := chromium chromium-headless-shell
chromium:
	@if command -v chromium >/dev/null 2>&1 && command -v chromium-headless-shell >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(CHROMIUM_PACKAGES) >/dev/null; \
	else echo "Chromium is missing: run 'sudo apt-get install $(CHROMIUM_PACKAGES)' (or make test as root)" >&2; exit 1; fi

# npm fetches the Pyodide runtime (npm `pyodide`) for the live lessons: Debian's package if missing.
npm:
	@if command -v npm >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null; \
	else echo "npm is missing: run 'sudo apt-get install npm' (or make as root)" >&2; exit 1; fi

# The live lessons' static site (_build/lite): the Pyodide runtime, the kernel's wheels and worker,
# and the live page. Downloads are pinned and cached in _build/lite-cache (see lite/build_lite.py).
lite: env npm
	$(PY) lite/build_lite.py --archives $(LITE_ARCHIVES)

# The book's execution cache is keyed by each notebook's own code: when the engine changes,
# the cache and the read pages go, so every chapter runs (and asserts) again against the
# engine as it is now. (calijack/serve is not run by any page: a change there runs nothing again.)
ENGINE_FILES := $(shell find calijack -type f -not -path '*/__pycache__/*' -not -name '*.pyc' -not -path 'calijack/serve/*')
_build/.engine-stamp: $(ENGINE_FILES)
	rm -rf _build/.jupyter_cache _build/.doctrees
	mkdir -p _build && touch $@

# Sphinx writes the pages (and copies the stylesheets) only when a page is out of date: when
# the book's styles, extensions or settings change, the read pages go, so every page is
# written again (from the execution cache: nothing runs again).
STYLE_FILES := $(shell find book/_css book/_widgets_js book/_ext calijack/serve/jupyter_data/voila/templates/calijack/static -type f -not -path "*/__pycache__/*") _config.yml _toc.yml
_build/.style-stamp: $(STYLE_FILES)
	rm -rf _build/.doctrees
	mkdir -p _build && touch $@

# The published book, built with warnings as errors (the live site is copied in as lite/).
book: env lite _build/.engine-stamp _build/.style-stamp
	$(VENV)/bin/jupyter-book build . -W -n --keep-going

# Every test, in timed phases (tests/phase.py prints each one's time as it ends, then a table and
# one closing line for all of them): the environment; the book (the live site, then the chapters
# and lessons executed, two notebooks at a time); the tests that need no browser; the browser tests,
# two at a time, handed out one test at a time, the long ones first (pytest-xdist --dist loadgroup:
# each worker has its own Chromium, served book and servers, on ports of their own; the tests of one
# hub stay together; tests/browser/conftest.py); the lessons' notebooks (nbval), two at a time. A failed test
# phase does not stop the next one: the summary fails the run.
PHASE := $(PYTHON) tests/phase.py
TEST_WORKERS ?= 2
test:
	@$(PHASE) start
	@$(PHASE) environment -- $(MAKE) --no-print-directory env chromium hub-env
	@$(PHASE) book -- $(MAKE) --no-print-directory book
	-@$(PHASE) "tests without a browser" -- $(PY) -m pytest tests --ignore=tests/browser -n $(TEST_WORKERS) --durations=10
	-@$(PHASE) "browser tests" -- $(PY) -m pytest tests/browser -n $(TEST_WORKERS) --dist loadgroup --durations=15
	-@$(PHASE) notebooks -- $(PY) -m pytest notebooks -n $(TEST_WORKERS) --dist loadfile
	@$(PHASE) summary

# The quick loop while working on the engine or the widgets: every test that needs neither the
# built book, nor a browser, nor the package index (markers in pyproject.toml); no book build.
# `make test` (and CI) runs them all.
test-fast: env
	$(PY) -m pytest tests -m "not browser and not built_book and not packaging"

serve: env book
	@$(PY) -m calijack.serve --book _build/html --book-port $(BOOK_PORT) --voila-port $(VOILA_PORT)

# JupyterLab 4 over the lessons' notebooks, where a teacher adapts a lesson (book/teaching.md):
# 127.0.0.1 only, with a token; the address to open is printed (calijack/serve/lab.py).
LAB_PORT ?= 8888
lab: env
	@$(PY) -m calijack.serve.lab --notebooks notebooks --port $(LAB_PORT)

# OpenSpiel, the yardstick, comes with the test extra (requirements.txt).
bench: env
	$(PY) bench/speed.py --json

# Page speed of the built book: Lighthouse (pinned in bench/lighthouse) on every page, with budgets.
lighthouse: env chromium book
	npm ci --prefix bench/lighthouse --no-audit --no-fund --silent
	$(PY) bench/lighthouse.py

# calijack's JupyterHub on this machine (book/teaching.md): JupyterHub's pins on top of
# the environment's, and the proxy from npm (deploy/jupyterhub/package-lock.json). 127.0.0.1 only,
# unless given HUB_NAME (the name learners type), HUB_CERT and HUB_KEY (its HTTPS certificate).
HUB := deploy/jupyterhub
HUB_STAMP := $(VENV)/.hub-installed
HUB_LEARNERS ?= learners.txt
HUB_TEACHER ?= teacher
HUB_PORT ?= 8800
HUB_STATE ?= .hub
$(HUB_STAMP): $(STAMP) $(HUB)/requirements.txt
	$(UV) --no-deps -r $(HUB)/requirements.txt -c requirements.txt
	touch $@
$(HUB)/node_modules/.package-lock.json: $(HUB)/package-lock.json | npm
	npm ci --prefix $(HUB) --no-audit --no-fund --silent
hub-env: $(HUB_STAMP) $(HUB)/node_modules/.package-lock.json

hub: hub-env
	@$(PY) $(HUB)/hub.py --learners $(HUB_LEARNERS) --teacher $(HUB_TEACHER) --port $(HUB_PORT) \
	  --state $(HUB_STATE) $(if $(HUB_LISTEN),--listen $(HUB_LISTEN)) $(if $(HUB_NAME),--host-name $(HUB_NAME)) \
	  $(if $(HUB_CERT),--ssl-cert $(HUB_CERT)) $(if $(HUB_KEY),--ssl-key $(HUB_KEY))

# requirements.txt: every package make installs, pinned: pyproject.toml's dependencies with the
# extras make needs, and requirements.in (the book's tools). pip-compile (pip-tools, pinned here)
# keeps the pins requirements.txt has and resolves only what is new, so adding one package moves
# no other; `make lock UPGRADE=1` moves them all to the newest allowed. (calijack itself, which
# the extras name, is left out; setuptools is pinned like any other package.)
PIP_TOOLS := pip-tools==7.6.2
LOCK_VENV := $(or $(TMPDIR),/tmp)/calijack-lock
lock:
	test -x $(LOCK_VENV)/bin/pip || $(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/pip install --quiet --disable-pip-version-check $(PIP_TOOLS)
	CUSTOM_COMPILE_COMMAND="make lock" $(LOCK_VENV)/bin/pip-compile --quiet --strip-extras \
	  --no-emit-index-url --no-emit-find-links --unsafe-package calijack \
	  --unsafe-package rfc3987-syntax --unsafe-package lark $(if $(UPGRADE),--upgrade) \
	  --extra widgets --extra lessons --extra lab --extra openspiel --extra test \
	  --output-file requirements.txt pyproject.toml requirements.in

clean:
	rm -rf _build $(VENV)
