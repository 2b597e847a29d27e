# neotoma-agent-wasm: build, package and test.
#
#   make demo    chat demo on the embedded store at http://127.0.0.1:8080
#   make test    install what is missing, then run every test (what CI runs)
#
# Steps: setup, lint, test-rust, test-wasm (node, chrome, worker), pkg, test-node, test-panic,
# bench, clean.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

# cargo-installed tools (wasm-bindgen, wasm-bindgen-test-runner, wasm-pack) live here.
export PATH := $(if $(CARGO_HOME),$(CARGO_HOME),$(HOME)/.cargo)/bin:$(PATH)

# The wasm tests are tests/web.rs only; the other integration tests are host-only.
WASM_TEST_TARGETS := $(if $(wildcard tests/web.rs),--test web,)

.PHONY: help setup lint test-rust test-wasm test-wasm-node test-wasm-chrome test-wasm-worker \
        pkg test-types test-node test-panic test demo bench clean distclean

help:
	@echo "make demo   - build the package and serve the chat demo at http://127.0.0.1:8080"
	@echo "make test   - setup, lint, test-rust, test-wasm, pkg, test-node, test-panic (what CI runs)"
	@echo "make bench  - every figure of README's Measured table, one table (target/bench/latest.json)"
	@echo "other targets: setup lint test-rust test-wasm test-wasm-{node,chrome,worker} pkg test-node test-panic bench clean distclean"

setup:
	scripts/setup.sh

lint:
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown --features test-panic --lib $(WASM_TEST_TARGETS) -- -D warnings

test-rust:
	cargo test --workspace

test-wasm: test-wasm-node test-wasm-chrome test-wasm-worker

test-wasm-node:
	scripts/test-wasm.sh node

test-wasm-chrome:
	scripts/test-wasm.sh chrome

test-wasm-worker:
	scripts/test-wasm.sh worker

pkg:
	node scripts/build-pkg.mjs

# The published .d.ts against a strict TypeScript program using (and misusing) the whole API.
test-types:
	node_modules/.bin/tsc -p tests/types/tsconfig.json
	@echo "[test-types] tests/types/usage.ts type-checks against pkg/neotoma_agent_wasm.d.ts"

# The test files start the local Neotoma server (tests/server/) themselves.
# Builds the package first only if it is missing: run `make pkg test-node` after changing Rust code.
test-node:
	@if [ ! -f pkg/package.json ] || [ ! -e node_modules/neotoma-agent-wasm/package.json ]; then \
	  $(MAKE) --no-print-directory pkg; fi
	node --test tests/node/

# A Rust panic is logged and the module recovers: a test build with the `test-panic` feature
# (target/pkg-test-panic, never published) against tests/panic/; checks pkg/ has no such export.
test-panic:
	@if [ ! -f pkg/package.json ]; then $(MAKE) --no-print-directory pkg; fi
	PKG_FEATURES=test-panic PKG_OUT_DIR=target/pkg-test-panic node scripts/build-pkg.mjs
	node --test tests/panic/

# In order, stopping at the first failure; each step's time is printed.
test:
	@t0=$$(date +%s); \
	for t in setup lint test-rust test-wasm pkg test-types test-node test-panic; do \
	  s=$$(date +%s); echo "=== make $$t"; \
	  $(MAKE) --no-print-directory $$t || { echo "=== make $$t: FAILED after $$(( $$(date +%s) - s )) s"; exit 1; }; \
	  echo "=== make $$t: ok in $$(( $$(date +%s) - s )) s"; \
	done; \
	echo "=== make test: all steps ok in $$(( $$(date +%s) - t0 )) s"

# The size budget only warns here (it fails `make pkg` and `make test`).
demo:
	$(MAKE) --no-print-directory setup
	PKG_SIZE_BUDGET=warn $(MAKE) --no-print-directory pkg
	node scripts/serve-demo.mjs

# README's "Measured" table in one command (round trips, throughput, start-up, scaling, memory,
# extraction, size): printed, and written to target/bench/latest.json and latest.md. Builds the
# package first (incremental, ~25 s): a pkg/ left from an older commit would be measured
# instead of the working tree. See scripts/bench/run.mjs for the parts;
# `node scripts/bench/run.mjs --only size,memory` runs some (on the pkg/ there is).
bench: setup pkg
	node scripts/bench/run.mjs

clean:
	cargo clean
	rm -rf pkg
	rm -f node_modules/neotoma-agent-wasm

distclean: clean
	rm -rf node_modules
