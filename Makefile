# perudo-rules: two commands from a fresh machine with only python3 and make.
#   make spec   builds the docs environment, prints the Italian-vs-Spanish comparison, builds the HTML spec
#   make test   builds the environment with the test extras and peers and runs the whole suite
#               (in parallel: WORKERS=auto by default, WORKERS=0 for one process)
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
# pytest-xdist workers for make test (auto: one per core); the docs tests share one worker.
WORKERS ?= auto

.PHONY: spec test lint mutants bench clean catalogs

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# make spec: what the docs build imports (Sphinx, Furo; matplotlib for the simulation plot).
# No RL peer: the conformance page certifies those installed and names the extra of the rest.
$(VENV)/.docs: pyproject.toml | $(BIN)/activate
	$(PY) -m pip install --quiet -e '.[docs,plot]'
	touch $@

# make test: the docs environment (the suite builds the docs), the test extras and the peers.
# TextArena (the differential test's peer) is installed without its LLM clients: first the
# three libraries its environment module needs to import, then the package alone (the extra
# perudo-rules[textarena] installs them all). Keep it the last install: pip checks the
# requirements of what depends on the packages it installs and would report those clients.
$(VENV)/.installed: pyproject.toml $(VENV)/.docs
	$(PY) -m pip install --quiet -e '.[test]'
	$(PY) -m pip install --quiet -e '.[openspiel]' || echo "note: open_spiel could not be installed; its tests will skip"
	$(PY) -m pip install --quiet -e '.[pettingzoo]' || echo "note: pettingzoo could not be installed; its tests will skip"
	( $(PY) -m pip install --quiet nltk rich websockets && \
	  $(PY) -m pip install --quiet --no-deps 'textarena>=0.7.4,<0.8' ) || echo "note: textarena could not be installed; its differential test will skip"
	touch $@

# The spec in English (docs/_build/html), Italian and Spanish (docs/_build/html/it, .../es).
SPEC_LANGS ?= it es

spec: $(VENV)/.docs
	$(BIN)/perudo-rules compare italian spanish
	@if [ -f docs/conf.py ]; then \
	  $(BIN)/sphinx-build -W --keep-going -q -b html docs docs/_build/html && \
	  for lang in $(SPEC_LANGS); do \
	    $(BIN)/sphinx-build -W --keep-going -q -b html -D language=$$lang \
	      -d docs/_build/doctrees-$$lang docs docs/_build/html/$$lang || exit 1; \
	  done && \
	  echo "HTML spec: $(CURDIR)/docs/_build/html/index.html (it/, es/ beside it)"; \
	fi

# The message catalogues (perudo_rules/locale, docs/locale): extract, merge, compile.
catalogs: $(VENV)/.installed
	$(PY) tools/catalogs.py update
	$(PY) tools/catalogs.py compile
	$(PY) tools/catalogs.py docs
	$(PY) tools/catalogs.py check

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/mypy

test: lint
	$(PY) -m pytest -n $(WORKERS) --dist loadgroup

mutants: $(VENV)/.installed
	$(PY) .ci/mutants.py

bench: $(VENV)/.installed
	$(PY) benchmarks/run.py
	$(PY) benchmarks/compiled.py

clean:
	rm -rf $(VENV) docs/_build .pytest_cache .mypy_cache .ruff_cache .hypothesis dist build
