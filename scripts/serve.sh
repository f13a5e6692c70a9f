#!/usr/bin/env bash
# Build the wasm and serve the page: scripts/serve.sh [PORT]
# Installs what is missing (scripts/setup.sh), builds www/pkg with npm's wasm-opt, then serves the
# repo root on 127.0.0.1 at PORT (default 8000, or the next free port) until Ctrl-C.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

want=${1:-8000}
if ! [[ "$want" =~ ^[0-9]+$ ]] || ((want < 1 || want > 65535)); then
    die "usage: scripts/serve.sh [PORT]"
fi

"$ROOT/scripts/setup.sh"
say "serve: building the wasm (npm run build)"
npm run --silent build

# Trap 8: a leftover server on the port would make ours exit and the page would be an old build.
port=$(free_port_from "$want") || die "no free port from $want to $((want + 199))"
[[ "$port" == "$want" ]] || say "serve: port $want is busy, using $port"

# A keep-alive static server (scripts/static-server.mjs) serving the repo root: index.html, the
# docs article and the bundle in dist/.
node "$ROOT/scripts/static-server.mjs" "$ROOT" "$port" &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

wait_for_server "$pid" "$port" || die "the server on port $port did not come up (is something else there?)"
say ""
say "serve: the playground         http://127.0.0.1:$port/"
say "serve: the docs article       http://127.0.0.1:$port/docs/"
say "serve: 中文文章               http://127.0.0.1:$port/docs/zh-CN/"
say "serve: files to embed         $ROOT/dist/ (purgatory-playground.js + .wasm; purgatory-playground.html self-contained)"
say "serve: Ctrl-C to stop"
wait "$pid"
