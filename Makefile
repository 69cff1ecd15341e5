# The two commands of the README. Both set up .venv themselves on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: run test bench openapi generate clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml client/pyproject.toml
	$(BIN)/pip install --quiet -e '.[test]' -e './client[verify]'
	touch $(STAMP)

run: $(STAMP)
	PORT=$(PORT) exec $(BIN)/gunicorn --config deploy/gunicorn.conf.py 'service:create_app()'

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m bench.run

# Regenerate the committed spec from the code (a test fails when they differ).
openapi: $(STAMP)
	FLASK_APP='service:create_app()' $(BIN)/flask openapi write --format=yaml openapi.yaml

# Every generated surface, in order: the spec first, then what is generated from it. Run after a rebase
# instead of hand-merging generated files; tests fail when any of them drifts.
generate: $(STAMP)
	$(MAKE) openapi
	$(BIN)/python -c 'from pathlib import Path; from service.config import write_docs; write_docs(Path("."))'  # README's settings table, .env.example

clean:
	rm -rf $(VENV) .pytest_cache
