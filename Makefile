# Deckyard. `make install` once, then `make run` or `make test`.
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
DATABASE_URL ?= postgresql://postgres@127.0.0.1:5432/postgres
AMQP_URI ?= amqp://guest:guest@127.0.0.1:5672/
export DATABASE_URL AMQP_URI

.PHONY: install run migrate test test-unit lint typecheck bench token fuzz faults soak

$(BIN)/deckyard: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[dev]"
	touch $@

install: $(BIN)/deckyard

# Every service and the gateway against the local PostgreSQL and RabbitMQ (migrates first).
run: install
	DEV_AUTH=$${DEV_AUTH-1} $(BIN)/deckyard run

migrate: install
	$(BIN)/deckyard migrate

# ruff, then the import contracts of pyproject.toml (games pure, services apart).
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: install
	$(BIN)/mypy

# The whole suite: lint, types, then unit, integration and e2e tests on the real stack.
test: lint typecheck
	REQUIRE_SERVICES=$${REQUIRE_SERVICES-1} $(BIN)/python -m pytest

# Only the tests that need nothing running.
test-unit: install
	$(BIN)/python -m pytest tests/unit

# Every benchmark in one go (~4-6 min), one table: stock nameko baseline, gateway hot paths
# (/me, answers, battle actions), the reward pipeline and the engine (bench/README.md).
bench: install
	$(BIN)/python bench/run.py

# Long runs, not part of `make test` (docs/reliability.md has their figures).
# The API fuzzer at full length: every operation, at least 2,000 generated cases.
fuzz: install
	FUZZ_EXAMPLES=$${FUZZ_EXAMPLES-100} REQUIRE_SERVICES=1 $(BIN)/python -m pytest tests/e2e/test_fuzz_api.py -q

# Faults under load: SIGKILL of cards, RabbitMQ and PostgreSQL restarts; prints the counts.
faults: install
	$(BIN)/python bench/faults

# Ten minutes of GET /me at half its measured maximum: errors and memory growth.
soak: install
	$(BIN)/python bench/soak.py
