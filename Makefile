# perudo-rules: two commands from a fresh machine with only python3 and make.
#   make spec   builds the docs environment, prints the Italian-vs-Spanish comparison, builds the HTML spec
#   make spec-data  recomputes the divergence witnesses the spec shows (docs/_data/witnesses.json)
#   make test   builds the environment with the test extras and peers and runs the whole suite
#               (in parallel: WORKERS=auto by default, WORKERS=0 for one process)
#   make compiled       the compiled build (mypyc, needs a C compiler) in build/compiled
#   make test-compiled  the rules and hostile-input tests again, against the compiled build
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
# pytest-xdist workers for make test (auto: one per core); the docs tests share one worker.
WORKERS ?= auto

.PHONY: spec spec-data test lint mutants bench clean compiled test-compiled catalogs generate

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
	$(PY) -m pip install --quiet -e '.[ray]' || echo "note: ray could not be installed; the Ray backend's tests will skip"
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

# The divergence witnesses the spec shows, computed ahead into docs/_data/witnesses.json
# (language-neutral: one search serves every language). Run it after changing a variant
# file, the knob table, the engine or the witness search: tests/test_witness_data.py fails
# while the file is stale, and the build searches a pair the file lacks, with a warning.
spec-data: $(VENV)/.docs
	$(PY) -m perudo_rules.sphinxext.witnessdata --docs docs

# The message catalogues (perudo_rules/locale, docs/locale): extract, merge, compile.
catalogs: $(VENV)/.installed
	$(PY) tools/catalogs.py update
	$(PY) tools/catalogs.py compile
	$(PY) tools/catalogs.py docs
	$(PY) tools/catalogs.py check

# Every file generated from the knob table (the JSON Schemas in spec/, Ruleset's typed fields)
# and the catalogues' update and compilation: what a new knob asks for (docs/architecture.rst).
generate: $(VENV)/.installed
	$(PY) tools/generate.py

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/mypy

test: lint
	$(PY) -m pytest -n $(WORKERS) --dist loadgroup

# The compiled build: PERUDO_COMPILE=1 makes the wheel's build hook (hatch_build.py) compile
# perudo_rules.base.version.COMPILED_MODULES with mypyc. The wheel goes to dist/compiled and is
# unpacked into build/compiled, which `make test-compiled` and `make bench` put first on
# the path; the venv and the checkout are not changed.
COMPILED := build/compiled
compiled: $(COMPILED)/.built

$(COMPILED)/.built: $(VENV)/.installed pyproject.toml hatch_build.py $(shell find perudo_rules -name "*.py")
	rm -rf $(COMPILED) dist/compiled
	PERUDO_COMPILE=1 $(PY) -m pip wheel --quiet --no-deps --no-build-isolation -w dist/compiled .
	$(PY) -m pip install --quiet --no-deps --target $(COMPILED) dist/compiled/perudo_rules-*.whl
	touch $@

# The rules tests (scenarios, properties, the step API, the fast path, the front ends and
# the differential tests) against the compiled build; PERUDO_EXPECT_COMPILED makes
# tests/test_compiled.py fail unless every module of COMPILED_MODULES is compiled.
# Then the hostile-input tests and the build parity tests (issue 33, item 11): a compiled
# function checks the types it declares, so both builds must be shown to refuse and accept
# the same inputs with the same exceptions (re-rolls and leaves are where they differed).
# The OpenSpiel adapter's positions and tensors are compiled too: its tests run here as well.
COMPILED_TESTS ?= tests/test_compiled.py tests/test_scenarios.py tests/test_properties.py \
  tests/test_stateful.py tests/test_kernel.py tests/test_engine.py tests/test_fastplay.py \
  tests/test_frontends.py tests/test_visibility.py tests/test_openspiel_diff.py \
  tests/test_textarena_diff.py tests/test_openspiel.py tests/test_pettingzoo.py \
  tests/test_record.py tests/test_gamejson.py tests/test_bots.py tests/test_simulate.py README.md \
  tests/test_build_parity.py tests/test_hostile.py tests/test_hostile_state.py \
  tests/test_server_inputs.py tests/test_parse_linear.py tests/test_state_errors.py \
  tests/test_limits.py tests/test_cli_hostile.py tests/test_leave.py tests/test_reroll.py \
  tests/test_hostile_records.py tests/test_hostile_ids.py tests/test_openspiel_fast.py \
  tests/test_openspiel_recall.py tests/test_openspiel_pickle.py tests/test_openspiel_import.py \
  tests/test_openspiel_tensor.py
test-compiled: compiled
	PYTHONSAFEPATH=1 PYTHONPATH=$(CURDIR)/$(COMPILED):$(CURDIR) PERUDO_EXPECT_COMPILED=1 \
	  $(PY) -m pytest -n $(WORKERS) --dist loadgroup -p no:cacheprovider $(COMPILED_TESTS)

mutants: $(VENV)/.installed
	$(PY) .ci/mutants.py

# make bench: the peers' RL loop needs Shimmy (the bench extra); the compiled figures need
# the compiled build, made first (a C compiler is needed; without one only the pure figures).
$(VENV)/.bench: $(VENV)/.installed
	$(PY) -m pip install --quiet -e '.[bench]' || echo "note: the bench extra could not be installed; R1 will skip"
	touch $@

# One run: benchmarks/compiled.py measures the pure package and the compiled build and prints
# both side by side (OpenSpiel's game as ratios, the seed editions as rates), with the targets;
# then benchmarks/raybench.py: simulate's games/s/core locally and through Ray, and Ray's
# overhead per task.
# A missed target makes the run fail (exit 1), after every figure, the Ray ones too.
bench: $(VENV)/.bench
	@status=0; \
	if $(MAKE) --no-print-directory compiled; then $(PY) benchmarks/compiled.py || status=$$?; \
	  else echo "note: the compiled build failed (no C compiler?): compiled figures skipped"; \
	  $(PY) benchmarks/run.py || status=$$?; fi; \
	$(PY) benchmarks/raybench.py || echo "note: the Ray figures (benchmarks/raybench.py) failed"; \
	exit $$status

clean:
	rm -rf $(VENV) docs/_build .pytest_cache .mypy_cache .ruff_cache .hypothesis dist build
