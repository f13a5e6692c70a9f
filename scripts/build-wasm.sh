#!/usr/bin/env bash
# Builds the shipping .wasm and its JS glue into www/pkg: wasm-pack at opt-level "s" (its own
# wasm-opt pass is off in Cargo.toml), then npm's wasm-opt -O3 once (binaryen 132; Debian's 108
# breaks the module: every exported table gets index 0 and the page dies at init, while
# `wasm-pack test` still passes, since tests never run wasm-opt).
#
#   scripts/build-wasm.sh             the shipping module, www/pkg
#   scripts/build-wasm.sh --bench     the same build with the `workload` feature (Kafka's purgatory
#                                     workload for www/bench.html), www/bench-pkg; same flags, so
#                                     the bench times the shipping code generation
#   scripts/build-wasm.sh --bench-z   the alternative that is not shipped, for the bench to measure
#                                     beside it: the whole crate at opt-level "z", `wasm-opt -Os`,
#                                     with the `workload` feature, www/bench-pkg-z (the level the
#                                     module shipped at under the old 165 KB budget)
#   scripts/build-wasm.sh --test-hooks
#                                     the shipping flags plus the `test-hooks` feature (a panic on
#                                     request, `__trapForTests`), target/test-hooks-pkg: for the
#                                     tests of what follows a trap; never served
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

# The flags the shipped module is built with (docs/benchmarks.md: "The .wasm: size and speed").
# Opt-level "s" by measurement (issue 27): with the idle fast-forward in the page's model, level 3
# makes the module 279,509 B gzipped (budget 262,144) and level 2 274,185 B; "s" makes it
# 241,459 B at 1.27x native on the purgatory workload (`BENCH_ONLY=workload node e2e/bench.mjs`,
# 5 rounds; goal <= 1.5x; level 3 was 1.10x without the fast-forward).
OPT_LEVEL=s
# --low-memory-unused: binaryen may fold constant offsets into loads and stores on the assumption
# that addresses below 1 KiB are never used. Rust's wasm32 layout puts the shadow stack at the
# bottom of memory, starting at 1 MiB and growing down, so those addresses would be reached only
# by a stack within 1 KiB of overflowing it.
# Never --ignore-implicit-traps (-tnh): binaryen could then drop the loads src/plumbing/prefetch.rs
# issues to overlap cache misses, which it keeps only because a load may trap.
WASM_OPT_FLAGS=(-O3 --low-memory-unused)

out=www/pkg
cargo_args=()
case "${1:-}" in
    "") ;;
    --bench)
        out=www/bench-pkg
        cargo_args=(-- --features workload)
        ;;
    --bench-z)
        out=www/bench-pkg-z
        cargo_args=(-- --features workload)
        OPT_LEVEL=z
        # -Os rather than -Oz: binaryen's -Oz makes the module fewer bytes but more of them after
        # gzip, at the same speed.
        WASM_OPT_FLAGS=(-Os --converge --low-memory-unused)
        ;;
    --test-hooks)
        out=target/test-hooks-pkg
        cargo_args=(-- --features test-hooks)
        ;;
    *) die "unknown option '$1' (none, --bench, --bench-z or --test-hooks)" ;;
esac

CARGO_PROFILE_RELEASE_OPT_LEVEL=$OPT_LEVEL wasm-pack --log-level warn build --target web --out-dir "$out" --release --no-pack "${cargo_args[@]}"
wasm-opt "${WASM_OPT_FLAGS[@]}" --strip-producers "$out/purgatory_playground_bg.wasm" -o "$out/purgatory_playground_bg.wasm"
