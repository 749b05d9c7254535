# Papershelf: `make run` opens the app, `make test` runs the whole suite.
# Both create .venv and install the project into it on first use.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench stress lint clean install screenshot translations translations-update \
	install-desktop uninstall-desktop bundle wheel

# The data the package carries (papershelf/data: seeds, icons, compiled translations, the
# launcher and metainfo) is staged from its sources by the build backend: into the wheel
# when one is built, into the checkout here (not committed). .qm files are never committed.
DATA := desktop/papershelf/data
DATA_SOURCES := $(wildcard seeds/*.txt resources/icons/*.svg resources/icons/*.png \
	resources/translations/*.ts packaging/linux/*.desktop packaging/linux/*.metainfo.xml) \
	packaging/papershelf_build.py
GUI_SOURCES := desktop/papershelf/gui/*.py desktop/papershelf/gui/features/*.py \
	desktop/papershelf/gui/reader/*.py
# The launcher's program; `make install-desktop PAPERSHELF_EXEC=$$PWD/dist/papershelf/papershelf`
# installs the launcher of a bundle instead of the venv's.
PAPERSHELF_EXEC ?= $(abspath $(VENV))/bin/papershelf
BUNDLE_DIST ?= dist
BUNDLE_WORK ?= build/pyinstaller

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

install: $(STAMP) translations

run: $(STAMP) translations
	$(VENV)/bin/papershelf

test: $(STAMP) translations
	bash .ci/system-packages
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest

bench: $(STAMP)
	$(PY) -m tests.bench $(BENCH_ARGS)

# Many programs on one library file (the window, command-line programs, the Connector's
# receiver), killed at random: 200 rounds, the table in tests/stress/last-results.md.
stress: $(STAMP) translations
	QT_QPA_PLATFORM=offscreen $(PY) -m tests.stress $(STRESS_ARGS)

# The README's screenshot: the window on a fresh sample library, rendered offscreen.
screenshot: $(STAMP) translations
	rm -rf .screenshot-library && mkdir .screenshot-library
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/papershelf --library .screenshot-library/lib.sqlite \
		--screenshot resources/screenshots/main.png
	rm -rf .screenshot-library

lint: $(STAMP)
	$(VENV)/bin/ruff check desktop tests
	$(VENV)/bin/mypy

translations: $(DATA)/.staged

# (`pip install -e` stages it too; this keeps it current when a source changes)
$(DATA)/.staged: $(DATA_SOURCES) | $(STAMP)
	$(PY) packaging/papershelf_build.py $(DATA) >/dev/null
	touch $@

# After changing user-visible strings: re-extract them (then translate the new ones in the
# zh_CN file, with Qt Linguist or a text editor). The English file holds plural forms only.
translations-update: $(STAMP)
	$(VENV)/bin/pyside6-lupdate -no-obsolete -locations relative -source-language en \
		-target-language zh_CN $(GUI_SOURCES) -ts resources/translations/papershelf_zh_CN.ts
	$(VENV)/bin/pyside6-lupdate -no-obsolete -locations relative -pluralonly \
		-source-language en -target-language en $(GUI_SOURCES) \
		-ts resources/translations/papershelf_en.ts

# The launcher, icons and metainfo for the current user ($$XDG_DATA_HOME, ~/.local/share),
# as an installed package does it: `papershelf --install-desktop`.
install-desktop: $(STAMP) translations
	"$(PAPERSHELF_EXEC)" --install-desktop

uninstall-desktop: $(STAMP) translations
	"$(PAPERSHELF_EXEC)" --uninstall-desktop

# The sdist and, built from it, the wheel (what `pipx install` takes), into $(WHEEL_DIST).
WHEEL_DIST ?= dist
wheel: $(STAMP)
	$(PY) -m build --outdir "$(WHEEL_DIST)" .

# A one-folder build with PyInstaller ($(BUNDLE_DIST)/papershelf/papershelf); PyInstaller and
# Pillow (for the Windows and macOS icons) are build-time requirements only.
bundle: $(STAMP) translations
	$(PY) -m pip install --quiet 'pyinstaller>=6.6' 'Pillow>=10.1'
	$(PY) -m PyInstaller --noconfirm --log-level WARN --distpath "$(BUNDLE_DIST)" \
		--workpath "$(BUNDLE_WORK)" packaging/pyinstaller/papershelf.spec

clean:
	rm -rf $(VENV) build desktop/*.egg-info $(DATA)
