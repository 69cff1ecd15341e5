# The two commands of the README. Both set up .venv themselves on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
DISCORD_PORT ?= 8010
# Two stamps: `make run` needs only the service's runtime dependencies (RUN_STAMP); `make test` and the
# developer targets add the test extra and the SDK on top of them (STAMP).
RUN_STAMP := $(VENV)/.installed-run
STAMP := $(VENV)/.installed
# npm ci writes this file: the JavaScript client's packages, from its committed lockfile.
JS_STAMP := client-js/node_modules/.package-lock.json
FOUNDRY := integrations/foundry-vtt
FOUNDRY_NODE := $(FOUNDRY)/node_modules/.package-lock.json
SPEC_LINT_NODE := tools/spec-lint/node_modules/.package-lock.json
WEB_NODE := tests/web/node_modules/.package-lock.json
DISCORD := integrations/discord
DISCORD_STAMP := $(VENV)/.installed-discord

.PHONY: run test test-fast bench openapi sdk generate messages golden clean js-client foundry discord

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(RUN_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet -e .
	touch $@

$(STAMP): $(RUN_STAMP) client/pyproject.toml $(DISCORD)/pyproject.toml
	$(BIN)/pip install --quiet -e '.[test]' -e './client[verify,async]' -e ./$(DISCORD)
	# A developer's clone checks commit subjects (tools/git-hooks/commit-msg); outside git, nothing to do.
	git config core.hooksPath tools/git-hooks 2>/dev/null || true
	touch $@

# The Discord app (integrations/discord) needs only the SDK beside the service's runtime dependencies.
$(DISCORD_STAMP): $(RUN_STAMP) client/pyproject.toml $(DISCORD)/pyproject.toml
	$(BIN)/pip install --quiet -e ./client -e ./$(DISCORD)
	touch $@

run: $(RUN_STAMP)
	PORT=$(PORT) exec $(BIN)/gunicorn --config deploy/gunicorn.conf.py 'service:create_app()'

# Three passes: the in-process tests, slow ones included, spread over the cores (pytest-xdist); then
# the browser and integration suites, one at a time, beside the live schemathesis run (its output
# follows theirs); then the other `system` tests alone (the deploy suite), whose load and timing
# tests want the machine to themselves. tests/conftest.py marks the suites that start servers,
# containers or browsers `system`; the later passes leave out test_schemathesis.py, whose cases
# schemathesis builds while collecting.
# (Not xdist's `--dist loadgroup`: with pytest 9.2 it no longer keeps a group on one worker.)
test: $(STAMP) $(JS_STAMP) $(FOUNDRY_NODE) $(SPEC_LINT_NODE) $(WEB_NODE)
	$(BIN)/ruff check .
	$(BIN)/vulture  # dead code; framework hooks in tools/vulture_whitelist.py
	$(BIN)/mypy service
	MYPYPATH=client $(BIN)/mypy --strict $(DISCORD)/wurfwerk_discord  # the SDK from its folder: its editable install hides it from mypy
	$(BIN)/python -m pytest -n 2 -m "not system"
	live_log=$$(mktemp); $(BIN)/python -m pytest tests/test_schemathesis_live.py >$$live_log 2>&1 & live=$$!; \
	$(BIN)/python -m pytest -m system tests/web tests/integrations; browsers=$$?; \
	wait $$live; live_status=$$?; cat $$live_log; rm -f $$live_log; \
	[ $$browsers -eq 0 ] && [ $$live_status -eq 0 ]
	$(BIN)/python -m pytest -m system --ignore=tests/web --ignore=tests/integrations \
	    --ignore=tests/test_schemathesis.py --ignore=tests/test_schemathesis_live.py

# The Discord app on $(DISCORD_PORT): DISCORD_PUBLIC_KEY (the application's, hex), WURFWERK_URL (the
# service, default http://localhost:8000), WURFWERK_API_KEY, WURFWERK_PUBLIC_URL (where people open /play).
# The service's gevent worker, so slow clients cost nothing (wurfwerk_discord/serving.py). README, "Discord".
discord: $(DISCORD_STAMP)
	DISCORD_PORT=$(DISCORD_PORT) exec $(BIN)/gunicorn --config python:wurfwerk_discord.serving \
	    'wurfwerk_discord:create_app()'

# The inner loop: lint, types and the in-process tests but the slow ones (schemathesis, spectral).
# `make test` runs them all, as CI does.
test-fast: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/vulture  # dead code; framework hooks in tools/vulture_whitelist.py
	$(BIN)/mypy service
	MYPYPATH=client $(BIN)/mypy --strict $(DISCORD)/wurfwerk_discord  # the SDK from its folder: its editable install hides it from mypy
	$(BIN)/python -m pytest -q -n 2 -m "not slow and not system"

bench: $(STAMP)
	$(BIN)/python -m bench.run

# Regenerate the committed spec from the code (a test fails when they differ).
openapi: $(STAMP)
	FLASK_APP='service:create_app()' $(BIN)/flask openapi write --format=yaml openapi.yaml

# The Python SDK's typed layer (client/wurfwerk/models.py, _operations.py) from the committed spec.
sdk: $(STAMP)
	$(BIN)/python client/generate.py

# Every generated surface, in order: the spec first, then what is generated from it. Run after a rebase
# instead of hand-merging generated files; tests fail when any of them drifts.
generate: $(STAMP)
	$(MAKE) openapi
	$(MAKE) sdk
	$(BIN)/python -c 'from pathlib import Path; from service.config import write_docs; write_docs(Path("."))'  # README's settings table, .env.example
	$(BIN)/python -c 'from pathlib import Path; from service.systems import discover, with_readme_table; readme = Path("README.md"); readme.write_text(with_readme_table(readme.read_text(), discover()))'  # README's systems table
	$(MAKE) js-client

$(JS_STAMP): client-js/package.json client-js/package-lock.json
	cd client-js && npm ci --no-audit --no-fund

# The JavaScript client's generated parts, from the committed spec: the operation table and method
# types, the request/response types (openapi-typescript) and the vendored copies of its four
# runtime packages (so browsers load it without a build step). tests/web/test_client_js.py checks all of them.
js-client: $(STAMP) $(JS_STAMP)
	$(BIN)/python client-js/scripts/generate_operations.py
	cd client-js && npx --no-install openapi-typescript ../openapi.yaml --default-non-nullable false --output src/openapi.d.ts --silent
	cp client-js/node_modules/canonicalize/lib/canonicalize.js client-js/src/vendor/canonicalize.js
	cp client-js/node_modules/@noble/ed25519/index.js client-js/src/vendor/noble-ed25519.js
	mkdir -p client-js/src/vendor/noble-hashes
	cd client-js/node_modules/@noble/hashes && cp sha2.js _md.js _u64.js utils.js hmac.js hkdf.js ../../../src/vendor/noble-hashes/
	mkdir -p client-js/src/vendor/noble-ciphers
	cd client-js/node_modules/@noble/ciphers && cp chacha.js _arx.js _poly1305.js utils.js ../../../src/vendor/noble-ciphers/

# The message catalogs: collect every message of the code into the template, then add new messages to
# each language's catalog (service/locale/<lang>/LC_MESSAGES/wurfwerk.po) for translating. A new
# language: $(BIN)/pybabel init -i service/locale/wurfwerk.pot -d service/locale -D wurfwerk -l <lang>
# The catalogs are wrapped at PO_WIDTH, so a regenerate changes only the entries that changed.
PO_WIDTH := 76
messages: $(STAMP)
	$(BIN)/pybabel extract --add-location=file --sort-output --omit-header --width=$(PO_WIDTH) -k marked:1c,2 -k say -k say_n:1,2 -k Template -k plural_template:1,2 -k LimitMessage -k advised -k advised_n:1,2 -o service/locale/wurfwerk.pot service
	$(BIN)/pybabel update --no-fuzzy-matching --ignore-obsolete --width=$(PO_WIDTH) -i service/locale/wurfwerk.pot -d service/locale -D wurfwerk

# Rewrite the golden file of every chat line (tests/i18n/golden/) after a deliberate change of wording.
golden: $(STAMP)
	WURFWERK_UPDATE_GOLDEN=1 $(BIN)/python -m pytest -q tests/i18n

# The Foundry VTT module (integrations/foundry-vtt): its npm tools for the tests (tsc with Foundry's
# types, playwright-core) from the committed lockfile, and `make foundry`, the release zip + manifest.
$(FOUNDRY_NODE): $(FOUNDRY)/package-lock.json
	cd $(FOUNDRY) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The spec linters tests/test_spec_lint.py runs (Spectral, Redocly), from their committed lockfile.
$(SPEC_LINT_NODE): tools/spec-lint/package-lock.json
	cd tools/spec-lint && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# axe-core for the browser tests' accessibility checks (tests/web/accessibility.py), from its lockfile.
$(WEB_NODE): tests/web/package-lock.json
	cd tests/web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# BASE_URL=https://…: where you publish dist/foundry/ (module.json's manifest and download point there).
foundry:
	BASE_URL='$(BASE_URL)' bash $(FOUNDRY)/release.sh dist/foundry

clean:
	rm -rf $(VENV) .pytest_cache client-js/node_modules $(FOUNDRY)/node_modules tools/spec-lint/node_modules \
	    tests/web/node_modules
