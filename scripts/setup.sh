#!/usr/bin/env bash
# Installs what the build and the tests need, and only what is missing (run by `make setup`).
# Idempotent: a second run takes about a second. Assumes Debian with rustup, Node 20+ and npm.
#
#   - rustup target wasm32-unknown-unknown (+ clippy, rustfmt components if missing)
#   - wasm-bindgen-cli at the exact wasm-bindgen version in Cargo.lock (also gives
#     wasm-bindgen-test-runner)
#   - wasm-pack 0.15.1
#   - Debian chromium + chromium-driver (headless browser tests)
#   - npm ci: binaryen (wasm-opt), playwright-core, smol-toml, miniflare 3 (workerd), deno, vite
#
# Only package registries are used (crates.io, Debian, npm): nothing downloads its own binaries.
set -euo pipefail
cd "$(dirname "$0")/.."

export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
WASM_PACK_VERSION=0.15.1

say() { printf '[setup] %s\n' "$*"; }
t0=$SECONDS

# --- Rust target and components ------------------------------------------------------------------
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi
# rust-src: the package's std is rebuilt for size (wasm-pack.toml [std], -Z build-std).
for comp in clippy rustfmt rust-src; do
  if ! rustup component list --installed | grep -q "^${comp}"; then
    say "rustup component add $comp"
    rustup component add "$comp"
  fi
done

# --- wasm-bindgen-cli: must match the wasm-bindgen crate in Cargo.lock exactly -------------------
wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ -z "$wb_version" ]; then
  echo "[setup] cannot read the wasm-bindgen version from Cargo.lock" >&2
  exit 1
fi
have_wb=$( (wasm-bindgen --version 2>/dev/null || true) | awk '{print $2}')
have_runner=$(command -v wasm-bindgen-test-runner || true)
if [ "$have_wb" != "$wb_version" ] || [ -z "$have_runner" ]; then
  say "cargo install wasm-bindgen-cli --version $wb_version (have: ${have_wb:-none}; ~3 min)"
  # No --locked: a dependency version locked by the published crate is missing from the index.
  cargo install wasm-bindgen-cli --version "$wb_version" --force
fi

# --- wasm-pack ---------------------------------------------------------------------------------------
have_wp=$( (wasm-pack --version 2>/dev/null || true) | awk '{print $2}')
if [ "$have_wp" != "$WASM_PACK_VERSION" ]; then
  say "cargo install wasm-pack --version $WASM_PACK_VERSION (have: ${have_wp:-none}; ~2 min)"
  cargo install wasm-pack --version "$WASM_PACK_VERSION" --force
fi

# --- Chromium + chromedriver (Debian's; never Debian's binaryen) ----------------------------------
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
  say "apt-get install chromium chromium-driver"
  $SUDO apt-get update
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium chromium-driver
fi

# --- npm dev tooling --------------------------------------------------------------------------------
# npm ci when node_modules is missing, older than the lock file, or lacks a package the lock file
# pins at that version (file times alone miss a devDependency added while node_modules was kept).
# --ignore-scripts: deno's and workerd's postinstall only relink their binaries, which npm ships as
# optional dependencies; the bin shims find them without it (and newer npm blocks those scripts by
# default anyway).
lock_installed() {
  node -e '
    const fs = require("fs");
    const want = JSON.parse(fs.readFileSync("package-lock.json", "utf8")).packages;
    const have = JSON.parse(fs.readFileSync("node_modules/.package-lock.json", "utf8")).packages;
    const missing = Object.entries(want).filter(([p, e]) => p && !e.optional && have[p]?.version !== e.version);
    if (missing.length) { console.error("[setup] not installed: " + missing.map(([p]) => p).slice(0, 5).join(", ")); process.exit(1); }
  '
}
if [ ! -f node_modules/.package-lock.json ] \
  || [ package-lock.json -nt node_modules/.package-lock.json ] \
  || [ package.json -nt node_modules/.package-lock.json ] \
  || [ ! -x node_modules/.bin/wasm-opt ] \
  || ! lock_installed; then
  say "npm ci"
  npm ci --ignore-scripts --no-audit --no-fund
fi

say "ok ($((SECONDS - t0)) s): wasm-bindgen $wb_version, $(wasm-pack --version), $(node_modules/.bin/wasm-opt --version), $(/usr/bin/chromium --version 2>/dev/null | head -n1)"
