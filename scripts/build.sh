#!/usr/bin/env bash
# Builds the native core and CLI (wasm-core/build/pagelab) and the static
# visualizer into web/dist (npm run build): installs what it needs (gcc,
# emscripten, npm dependencies), compiles the core to WebAssembly
# (wasm-core/wasm.mk) and bundles the page with Vite.  The result is plain
# files with relative paths: it works offline from any static web server.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh wasm node
make -s -C wasm-core
make -s -C wasm-core -f wasm.mk
(cd web && npx --no-install vite build --logLevel warn)
printf 'build: static site in web/dist (%s files)\n' "$(find web/dist -type f | wc -l)"
