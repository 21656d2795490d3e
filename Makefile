# streaming-hub developer entry points.  Run from the repository root.
#   make install      create .venv and install the project (+ dev extras)
#   make stack        start the local Kafka / PostgreSQL / RabbitMQ / moto stack (DB=citus: and a Citus cluster)
#   make stack-down   stop what `make stack` started (DB=citus: the Citus cluster's three servers only)
#   make migrate      apply database migrations (the `hub` database, which `make dev` uses)
#   make migrate-test create (when missing) and migrate the `hub_test` database
#   make test         run the test suite on its own `hub_test` database (PYTEST_ARGS="-k foo -x" to narrow it)
#   make dev          run the hub in the foreground against the local stack
#   make bench        run every bench/*.py script in turn
#   make bench-compare REF=<commit>  the hot-path benches on the working tree and on REF, interleaved, with ratios
#   make bench-ordered ordered delivery per key beside the unordered path (bench/ordered.py)
#   make bench-noisy  one tenant's flood or hanging destination beside quiet tenants (bench/noisy.py)
#   make openapi      regenerate schemas/openapi.json from the app
#   make client       regenerate the Python client (clients/python) from schemas/openapi.json, build its wheel and sdist
#   make chaos        the chaos ledger: 30 faults from a seeded schedule (SEED=n replays one; FAULTS=n; RATE=events/s)
#   make fuzz         schemathesis: 10,000+ generated requests with stateful links, then the tally (on `hub_test`;
#                     SEED=n replays a run)
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON      ?= python3
VENV        := .venv
VENV_PY     := $(VENV)/bin/python
STAMP       := $(VENV)/.installed
LOCAL_DIR   := $(or $(HUB_LOCAL_DIR),.local)
ENV_FILE    := $(LOCAL_DIR)/env
PYTEST_ARGS ?=
# The database of `make test` and `make fuzz`: what tests leave behind (subscriptions to names that
# do not resolve, due jobs) never reaches the delivery workers of `make dev`, which use `hub`.
TEST_DATABASE ?= hub_test

# Export the stack's addresses (written by deploy/local/stack.sh) to python steps: each one the environment
# leaves unset. A variable the operator exported wins over the file (deploy/local/fill-env.sh).
# DB=citus: HUB_DATABASE_URL names the coordinator of the Citus cluster (deploy/local/citus-stack.sh, its env
# file read first, so it wins over the stack's); the other services are the shared stack's. docs/scaling.md.
DB          ?=
CITUS       := $(filter citus,$(DB))
CITUS_ENV   := $(LOCAL_DIR)/citus-pg/env
WITH_ENV := $(if $(CITUS),. deploy/local/fill-env.sh "$(CITUS_ENV)";) . deploy/local/fill-env.sh "$(ENV_FILE)";
# The same, with HUB_DATABASE_URL naming the test database (the URL's last path segment swapped).
WITH_TEST_ENV := $(WITH_ENV) HUB_DATABASE_URL="$${HUB_DATABASE_URL%/*}/$(TEST_DATABASE)";

.PHONY: help install stack stack-down migrate migrate-test test dev bench bench-compare bench-ordered bench-noisy openapi client fuzz chaos

help:
	@sed -n 's/^#   //p' $(firstword $(MAKEFILE_LIST))

install: $(STAMP)

$(VENV_PY):
	$(PYTHON) -m venv $(VENV)

# Re-installs only when a pyproject.toml is newer than the stamp. The Python client (clients/python) is
# installed too: its tests run it against the live hub.
$(STAMP): pyproject.toml clients/python/pyproject.toml | $(VENV_PY)
	$(VENV_PY) -m pip install -e '.[dev]' -e ./clients/python
	@touch $@

stack: install
	bash deploy/local/stack.sh
	$(if $(CITUS),bash deploy/local/citus-stack.sh)

stack-down:
	$(if $(CITUS),bash deploy/local/citus-stack.sh down,bash deploy/local/stack-down.sh)

migrate: stack
	$(WITH_ENV) $(VENV)/bin/hub migrate

# Creates the test database when missing, then migrates it.
migrate-test: stack
	$(if $(CITUS),bash deploy/local/citus-stack.sh database "$(TEST_DATABASE)")
	$(WITH_TEST_ENV) $(VENV)/bin/hub migrate --create-database

# pytest's exit code is the recipe's exit code; 5 (no tests collected) fails too. The console tests
# drive Debian's chromium (installed here when missing; Playwright never downloads a browser); the
# alerting rules are checked with promtool (Debian's prometheus package, likewise).
test: stack migrate-test
	bash deploy/local/tools.sh chromium promtool
	$(WITH_TEST_ENV) $(VENV_PY) -m pytest $(PYTEST_ARGS)

dev: stack migrate
	$(WITH_ENV) exec $(VENV)/bin/hub dev

bench: stack migrate
	@shopt -s nullglob; scripts=(bench/[!_]*.py); \
	if [ $${#scripts[@]} -eq 0 ]; then echo "bench: no bench/*.py scripts found" >&2; exit 1; fi; \
	$(WITH_ENV) for s in "$${scripts[@]}"; do [ "$$s" = bench/compare.py ] && continue; echo "== $$s"; $(VENV_PY) "$$s"; done

# REF's clone and virtualenv live under .local/compare (made once); ROUNDS interleaved rounds (default 2).
bench-compare: stack migrate
	@if [ -z "$(REF)" ]; then echo "bench-compare: name the commit to compare with: make bench-compare REF=<commit>" >&2; exit 2; fi
	bash deploy/local/tools.sh wrk nginx
	$(WITH_ENV) $(VENV_PY) bench/compare.py --ref "$(REF)" --rounds "$(or $(ROUNDS),2)" $(if $(BENCHES),--benches "$(BENCHES)")

bench-ordered: stack migrate
	bash deploy/local/tools.sh wrk nginx
	$(WITH_ENV) $(VENV_PY) bench/ordered.py $(BENCH_ARGS)

bench-noisy: stack migrate
	bash deploy/local/tools.sh nginx
	$(WITH_ENV) $(VENV_PY) bench/noisy.py $(BENCH_ARGS)

# Needs no stack: the document comes from the routes alone.
openapi: install
	$(VENV)/bin/hub openapi --output schemas/openapi.json

# Needs no stack: openapi-python-client (pinned in the dev extras) writes streaming_hub_client anew (with the
# py.typed marker it does not write); the hand-written layer (clients/python/streaming_hub) is left alone. Then
# the wheel and the sdist, in clients/python/dist. N73, N96.
CLIENT_PACKAGE := clients/python/streaming_hub_client
client: install
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/openapi-python-client generate --path schemas/openapi.json \
	  --meta none --config clients/python/generator.yaml --output-path $(CLIENT_PACKAGE) --overwrite
	touch $(CLIENT_PACKAGE)/py.typed
	$(VENV_PY) -m build --no-isolation --sdist --wheel --outdir clients/python/dist clients/python

fuzz: stack migrate-test
	$(WITH_TEST_ENV) $(VENV_PY) -m tests.contract.fuzz $(if $(SEED),--seed $(SEED))

# Its own PostgreSQL, Kafka and RabbitMQ (private, restarted by the faults); its own moto (a child process)
# for SQS and EventBridge. docs/chaos.md.
SEED   ?=
FAULTS ?= 30
chaos: stack
	$(WITH_ENV) $(VENV_PY) -m chaos --faults $(FAULTS) $(if $(SEED),--seed $(SEED)) $(if $(RATE),--rate $(RATE))
