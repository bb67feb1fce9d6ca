# Deckyard. `make install` once, then `make run` or `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
DATABASE_URL ?= postgresql://postgres@127.0.0.1:5432/postgres
AMQP_URI ?= amqp://guest:guest@127.0.0.1:5672/
export DATABASE_URL AMQP_URI

.PHONY: install lock machine bench-machine run migrate test test-unit lint typecheck bench token fuzz faults soak

# The locked dependencies (hashes checked), then the project itself without resolving again.
$(BIN)/deckyard: pyproject.toml requirements/dev.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q --require-hashes -r requirements/dev.lock
	$(BIN)/pip install -q --no-deps -e .
	touch $@

install: $(BIN)/deckyard

# Rewrite the lock files after a change to the dependencies in pyproject.toml.
lock:
	$(PYTHON) -m venv .lock-venv && .lock-venv/bin/pip install -q pip-tools
	.lock-venv/bin/pip-compile -q --generate-hashes --strip-extras --allow-unsafe -o requirements/runtime.lock pyproject.toml
	.lock-venv/bin/pip-compile -q --generate-hashes --strip-extras --allow-unsafe --extra dev -o requirements/dev.lock pyproject.toml
	rm -rf .lock-venv

# PostgreSQL and RabbitMQ answering, PostGIS installed: starts or installs what is missing
# on this machine, and says in one line each what it could not do (scripts/prepare-machine).
machine:
	@bash scripts/prepare-machine

# The benchmarks' load generator too (wrk, from Debian's packages).
bench-machine:
	@bash scripts/prepare-machine wrk

# Every service and the gateway against the local PostgreSQL and RabbitMQ (migrates first).
run: machine install
	DEV_AUTH=$${DEV_AUTH-1} $(BIN)/deckyard run

migrate: machine install
	$(BIN)/deckyard migrate

# ruff, then the import contracts of pyproject.toml (games pure, services apart).
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: install
	$(BIN)/mypy

# The whole suite: lint, types, then unit, integration and e2e tests on the real stack.
test: machine lint typecheck
	REQUIRE_SERVICES=$${REQUIRE_SERVICES-1} $(BIN)/python -m pytest

# Only the tests that need nothing running.
test-unit: install
	$(BIN)/python -m pytest tests/unit

# Every benchmark in one go (~4-6 min), one table: stock nameko baseline, gateway hot paths
# (/me, answers, battle actions), the reward pipeline and the engine (bench/README.md).
bench: bench-machine install
	$(BIN)/python bench/run.py

# Long runs, not part of `make test` (docs/reliability.md has their figures).
# The API fuzzer at full length: every operation, at least 2,000 generated cases.
fuzz: machine install
	FUZZ_EXAMPLES=$${FUZZ_EXAMPLES-100} REQUIRE_SERVICES=1 $(BIN)/python -m pytest tests/e2e/platform/test_fuzz_api.py -q

# Faults under load: SIGKILL of cards, RabbitMQ and PostgreSQL restarts; prints the counts.
faults: machine install
	$(BIN)/python bench/faults

# Ten minutes of GET /me at half its measured maximum: errors and memory growth.
soak: bench-machine install
	$(BIN)/python bench/soak.py
