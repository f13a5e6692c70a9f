# shellcheck shell=bash
# Sourced by the scripts in this folder: repo root, PATH, small helpers. Not meant to be run.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ROOT

# rustup's bin dir may be missing from PATH in a non-login shell (CI, cron).
if [[ -d "${CARGO_HOME:-$HOME/.cargo}/bin" && ":$PATH:" != *":${CARGO_HOME:-$HOME/.cargo}/bin:"* ]]; then
    PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
fi
# npm's binaryen (wasm-opt 132) must win over any Debian wasm-opt (108 breaks the .wasm: trap 1).
# `npm run` does this by itself; the scripts do it too so that every step sees the same tools.
if [[ ":$PATH:" != *":$ROOT/node_modules/.bin:"* ]]; then
    PATH="$ROOT/node_modules/.bin:$PATH"
fi
export PATH

say() { printf '%s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Run a command as root: directly when we are root, else through sudo when there is one.
as_root() {
    if [[ $(id -u) -eq 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        die "need root (or sudo) to run: $*"
    fi
}

# True when nothing listens on 127.0.0.1:PORT (we can bind it).
port_is_free() {
    python3 - "$1" <<'PY'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
# As http.server does: a port in TIME_WAIT is usable, one with a live listener is not.
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)
finally:
    s.close()
PY
}

# Print the first free loopback port at or above $1 (tries 200 ports).
free_port_from() {
    local p=$1 last=$(($1 + 200))
    while ((p < last)); do
        if port_is_free "$p"; then
            printf '%s\n' "$p"
            return 0
        fi
        p=$((p + 1))
    done
    return 1
}

# Wait until http://127.0.0.1:PORT/ answers while process PID is alive (trap 8: a server that
# failed to bind exits, and a leftover one on the port would answer instead of ours).
wait_for_server() {
    local pid=$1 port=$2
    for _ in $(seq 1 100); do
        kill -0 "$pid" 2>/dev/null || return 1
        if python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
            "http://127.0.0.1:$port/" >/dev/null 2>&1; then
            kill -0 "$pid" 2>/dev/null || return 1
            return 0
        fi
        sleep 0.1
    done
    return 1
}

# Apache Kafka's jars for the Kafka check (tools/kafka-check/pom.xml pins the release), in a cache
# folder outside git. `kafka_version` and `kafka_jars` print; `resolve_kafka_jars` fetches them from
# Maven Central when missing (94 jars, about 12 s) and says which it did.
kafka_version() { sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$ROOT/tools/kafka-check/pom.xml"; }
kafka_jars() { printf '%s\n' "${KAFKA_CHECK_JARS:-$HOME/.cache/purgatory-playground/kafka-$(kafka_version)}"; }
resolve_kafka_jars() {
    local dir version
    dir=$(kafka_jars)
    version=$(kafka_version)
    if [[ -f "$dir/kafka_2.13-$version.jar" ]]; then
        printf 'skip (%s)\n' "$dir"
        return
    fi
    mkdir -p "$dir"
    (cd "$ROOT/tools/kafka-check" && mvn -q -B dependency:copy-dependencies -DoutputDirectory="$dir") >&2
    printf 'resolved Apache Kafka %s into %s\n' "$version" "$dir"
}
