# Deckyard. `make install` once, then `make run` or `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
DATABASE_URL ?= postgresql://postgres@127.0.0.1:5432/postgres
AMQP_URI ?= amqp://guest:guest@127.0.0.1:5672/
export DATABASE_URL AMQP_URI

.PHONY: install engines engines-clean lock machine bench-machine browser-machine deploy-machine run migrate test test-browser test-durations test-unit lint typecheck bench token fuzz faults soak web web-api

# The locked dependencies (hashes checked), then the project itself without resolving again.
$(BIN)/deckyard: pyproject.toml requirements/dev.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q --require-hashes -r requirements/dev.lock
	$(BIN)/pip install -q --no-deps -e .
	touch $@

# The web client is built too when Node is installed (web/README.md); without Node the
# platform still installs, and `make web` says what is missing.
NPM := $(shell command -v npm)
install: $(BIN)/deckyard engines $(if $(NPM),web)

# The game engines (games/) compiled with mypyc, in place next to their sources
# (deckyard/engines.py; docs/performance.md, "Engines compiled"): again when a source
# changed, else nothing. Without them the same sources run as Python (`make engines-clean`).
ENGINE_SOURCES := $(shell find games -name '*.py' 2>/dev/null)
games/engines.digest: $(BIN)/deckyard $(ENGINE_SOURCES) deckyard/engines.py
	$(BIN)/python -m deckyard.engines
	touch $@

engines: games/engines.digest

engines-clean:
	$(BIN)/python -m deckyard.engines --clean

# The browser client (web/): npm ci when the lock file changed, a build when a source did;
# nothing when neither (a second `make install` does not touch web/).
WEB_SOURCES := $(shell find web/src -type f 2>/dev/null) web/index.html web/vite.config.ts \
	web/tsconfig.json web/.env gateway/dev_signing_key.pem
web/node_modules/.package-lock.json: web/package-lock.json web/package.json
	@command -v npm >/dev/null || { echo "web: Node.js and npm are needed (apt-get install nodejs npm)"; exit 1; }
	cd web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
	touch $@

web/dist/index.html: web/node_modules/.package-lock.json $(WEB_SOURCES)
	cd web && npm run --silent build

web: web/dist/index.html

# After the gateway's routes change: its OpenAPI document into web/openapi.json, then the
# client's types from it (commit both).
web-api: install
	$(BIN)/python web/scripts/dump_openapi.py
	cd web && npm run --silent api

# Rewrite the lock files after a change to the dependencies in pyproject.toml.
lock:
	$(PYTHON) -m venv .lock-venv && .lock-venv/bin/pip install -q pip-tools
	.lock-venv/bin/pip-compile -q --generate-hashes --strip-extras --allow-unsafe -o requirements/runtime.lock pyproject.toml
	.lock-venv/bin/pip-compile -q --generate-hashes --strip-extras --allow-unsafe --extra dev -o requirements/dev.lock pyproject.toml
	.lock-venv/bin/pip-compile -q --generate-hashes --strip-extras --allow-unsafe -o requirements/engines.lock requirements/engines.in
	rm -rf .lock-venv

# PostgreSQL and RabbitMQ answering, PostGIS installed: starts or installs what is missing
# on this machine, and says in one line each what it could not do (scripts/prepare-machine).
machine:
	@bash scripts/prepare-machine

# The benchmarks' load generator too (wrk, from Debian's packages).
bench-machine:
	@bash scripts/prepare-machine wrk

# Debian's chromium for the browser tests (nothing is downloaded at test time).
browser-machine:
	@bash scripts/prepare-machine chromium

# kubectl, whose kustomize renders deploy/k8s's overlays for the manifest tests, and
# promtool, which checks and unit-tests the alert rules (deploy/monitoring/alerts.test.yml).
deploy-machine:
	@bash scripts/prepare-machine kubectl promtool

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
# Two pytest processes side by side (scripts/run-tests), their files dealt by measured
# seconds (tests/sharding.py, tests/durations.json); TEST_SHARDS=1 runs one. Of the
# browser journeys only the smoke subset runs (the rest is marked browser_full).
test: machine browser-machine deploy-machine lint typecheck web
	REQUIRE_SERVICES=$${REQUIRE_SERVICES-1} TEST_SHARDS=$${TEST_SHARDS-2} PYTHON=$(BIN)/python bash scripts/run-tests -m "not browser_full"

# Every browser journey (tests/e2e/web): the smoke subset and the browser_full ones, in
# Debian's chromium against the real stack. SCREENSHOTS_DIR=docs/client also saves a
# phone-sized screenshot of each screen the journeys pass (docs/client.md shows them).
test-browser: machine browser-machine install web
	REQUIRE_SERVICES=$${REQUIRE_SERVICES-1} TEST_SHARDS=$${TEST_SHARDS-2} PYTHON=$(BIN)/python bash scripts/run-tests tests/e2e/web

# Measure each test file's seconds into tests/durations.json (the deal of the shards):
# after a change that makes a file much slower or faster, run this and commit the file.
test-durations: machine browser-machine install web
	REQUIRE_SERVICES=$${REQUIRE_SERVICES-1} TEST_SHARDS=$${TEST_SHARDS-2} TEST_DURATIONS_OUT=tests/durations.json PYTHON=$(BIN)/python bash scripts/run-tests

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
