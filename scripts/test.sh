#!/usr/bin/env bash
# Run every test, stopping at the first failure: install what is missing, rustfmt check, native
# tests (release), the wasm build (with wasm-opt) and the bundle, their size budgets, the page's
# markup and CSP rules, wasm tests in headless Chrome and Node, the Playwright end-to-end specs
# against a server on a free port, and the Kafka check's subset on a real Apache Kafka cluster.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-2}
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}

passed=0
start=$SECONDS

stage() {
    local name=$1
    shift
    local t0=$SECONDS
    printf '\n==== %s: %s\n' "$name" "$*"
    if "$@"; then
        passed=$((passed + 1))
        printf '==== %s: ok (%d s)\n' "$name" $((SECONDS - t0))
    else
        local rc=$?
        printf '\n==== %s: FAILED (exit %d, after %d s): %s\n' "$name" "$rc" $((SECONDS - t0)) "$*" >&2
        printf 'stages: %d passed, then %s failed (its own output above says which tests)\n' "$passed" "$name"
        exit 1
    fi
}

wasm_tests() {
    # Trap 5: without --headless the runner serves and waits forever; --chrome and --node together.
    # Trap 7: point at Debian's chromedriver so nothing is downloaded.
    local driver
    driver=$(command -v chromedriver) || { echo "chromedriver not found" >&2; return 1; }
    # Only the wasm test files, each where it runs (the native ones compile to empty wasm suites,
    # and a browser suite run under Node only prints that it skips itself).
    # Each line returns on failure: this function runs as an `if` condition (see `stage`), where
    # bash ignores `set -e`, so without the `|| return` only the last command's status counted.
    timeout 1800 wasm-pack --log-level warn test --headless --chrome --chromedriver "$driver" -- --test wasm_boundary || return
    timeout 1800 wasm-pack --log-level warn test --node -- --test wasm_node --test wasm_session || return
    # The shipped module (www/pkg, from the wasm-build stage) driven from JavaScript with hostile
    # arguments; it fails, never skips, when the build is missing.
    # The crate with its test hook (a panic on request) beside it, for the tests of a trap.
    scripts/build-wasm.sh --test-hooks || return
    timeout 600 node --test tests/hostile-args.test.mjs
}

stage setup scripts/setup.sh
stage fmt cargo fmt --all -- --check
stage native-tests cargo test --release
stage wasm-build npm run build
stage wasm-size scripts/check-wasm-size.sh
stage bundle-size scripts/check-bundle-size.sh
# The page's markup rules (html.js's tag, no other string sink in www/), the shipped pages' CSP
# (dist/ from the wasm-build stage), the Kafka check's comparison on documents made there, the
# catalogues, and the model's refusals read back (through www/pkg from the wasm-build stage).
stage node-tests node --test tests/html.test.mjs tests/markup-lint.test.mjs tests/csp.test.mjs tests/kafka-compare.test.mjs tests/i18n.test.mjs tests/error-words.test.mjs tests/markdown-page.test.mjs
stage wasm-tests wasm_tests
stage e2e npm run e2e
# The model against Apache Kafka itself: a real KRaft cluster from Maven Central's jars replays the
# subset (s01, s03, s06) twice and must agree field by field (about 5 minutes).
stage kafka-check scripts/kafka-check.sh --no-report
# Kafka's own purgatory replays a small schedule of the purgatory bench (issue 29) and must
# complete and expire the same requests as the crate's.
stage kafka-purgatory scripts/bench-kafka.sh --check

printf '\nstages: all %d passed in %d s (each stage above prints its own test counts)\n' "$passed" $((SECONDS - start))
