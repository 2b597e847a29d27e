#!/usr/bin/env bash
# Runs the wasm tests (tests/web.rs only; the other integration tests are host-only) with
# wasm-bindgen-test-runner in one of three environments, and fails if the run reports 0 passed
# tests (a browser run that silently executes nothing is a known pitfall).
#
#   scripts/test-wasm.sh node     # Node (the default mode: tests/web.rs has no run_in_browser)
#   scripts/test-wasm.sh chrome   # headless Chromium, main thread (window)
#   scripts/test-wasm.sh worker   # headless Chromium, dedicated worker (no window)
#
# Extra arguments go to `cargo test` (e.g. a test-name filter after `--`).
# Chromium flags beyond the runner's own (headless, no-sandbox, disable-dev-shm-usage) are in
# webdriver.json. Output is kept in target/wasm-test-<mode>.log.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

mode=${1:?usage: scripts/test-wasm.sh node|chrome|worker [cargo test args]}
shift

# Exactly one runner mode may be set: clear any inherited ones.
unset WASM_BINDGEN_USE_BROWSER WASM_BINDGEN_USE_DEDICATED_WORKER WASM_BINDGEN_USE_SHARED_WORKER \
  WASM_BINDGEN_USE_SERVICE_WORKER WASM_BINDGEN_USE_DENO WASM_BINDGEN_USE_NODE_EXPERIMENTAL
case "$mode" in
  node) ;;
  chrome) export WASM_BINDGEN_USE_BROWSER=1 ;;
  worker) export WASM_BINDGEN_USE_DEDICATED_WORKER=1 ;;
  *) echo "unknown mode: $mode (node|chrome|worker)" >&2; exit 2 ;;
esac
if [ "$mode" != node ]; then
  export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
  export WASM_BINDGEN_TEST_WEBDRIVER_JSON="${WASM_BINDGEN_TEST_WEBDRIVER_JSON:-$PWD/webdriver.json}"
fi
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
# Per-test-binary timeout (s); the runner's default of 20 is tight on a loaded 2-core CI machine.
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-180}"

if [ ! -f tests/web.rs ]; then
  echo "[test-wasm] tests/web.rs is missing" >&2
  exit 1
fi

mkdir -p target
log="target/wasm-test-$mode.log"
t0=$SECONDS
set +e
cargo test --target wasm32-unknown-unknown --test web "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ]; then
  echo "[test-wasm] $mode: FAILED (exit $rc; log: $log)" >&2
  exit "$rc"
fi

# Sum "test result: ok. N passed; ..." lines (one per test binary).
passed=$( (grep -Eo 'test result: ok\. [0-9]+ passed' "$log" || true) | awk '{ s += $4 } END { print s + 0 }')
failed=$( (grep -Eo 'test result: [a-zA-Z]+\. [0-9]+ passed; [0-9]+ failed' "$log" || true) | awk '{ s += $6 } END { print s + 0 }')
if [ "$passed" -eq 0 ]; then
  echo "[test-wasm] $mode: FAILED: 0 tests passed (did the runner execute nothing? log: $log)" >&2
  exit 1
fi
echo "[test-wasm] $mode: $passed passed, $failed failed in $((SECONDS - t0)) s"
