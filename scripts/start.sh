#!/usr/bin/env bash
# npm start: builds the visualizer (scripts/build.sh) and serves it on
# http://localhost:PORT (PORT defaults to 5173; the next free port is taken
# when that one is busy).  Ctrl-C stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/build.sh
port=${PORT:-5173}
port_is_free() {
	node -e 'const s = require("net").createServer();
		s.once("error", () => process.exit(1));
		s.listen(+process.argv[1], "127.0.0.1", () => s.close(() => process.exit(0)));' "$1"
}
while ! port_is_free "$port"; do
	port=$((port + 1))
done
printf '\npagelab: the visualizer is at http://localhost:%d/\n\n' "$port"
cd web && exec npx --no-install vite preview --host 127.0.0.1 --port "$port" --strictPort
