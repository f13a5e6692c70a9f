#!/usr/bin/env bash
# Builds the shipping .wasm and its JS glue into www/pkg: wasm-pack at opt-level "z" (its own
# wasm-opt pass is off in Cargo.toml), then npm's wasm-opt -Os once (binaryen 132; Debian's 108
# breaks the module, see shared/setup.md trap 1).
#
#   scripts/build-wasm.sh           the shipping module, www/pkg
#   scripts/build-wasm.sh --bench   the same build with the `workload` feature (Kafka's purgatory
#                                   workload for www/bench.html), www/bench-pkg; same flags, so
#                                   the bench times the shipping code generation
#   scripts/build-wasm.sh --bench-o3
#                                   the alternative that is not shipped, for the bench to measure
#                                   beside it: the whole crate at opt-level 3, `wasm-opt -O3`, with
#                                   the `workload` feature, www/bench-pkg-o3 (issue 12's speed goal
#                                   is met there in most rounds, at 197,550 B gzipped as a shipping
#                                   build, 32.5 KB over the size budget)
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

# The flags the shipped module is built with (docs/benchmarks.md: "The .wasm: size and speed").
OPT_LEVEL=z
# --low-memory-unused: binaryen may fold constant offsets into loads and stores on the assumption
# that addresses below 1 KiB are never used. Rust's wasm32 layout puts the shadow stack at the
# bottom of memory, starting at 1 MiB and growing down, so those addresses would be reached only
# by a stack within 1 KiB of overflowing it. 1.3 KB less gzipped (165,699 -> 164,388 B).
# -Os rather than -Oz: binaryen's -Oz makes the module fewer bytes but more of them after gzip
# (165,097 B against 164,808 B when this was chosen), at the same speed.
# Never --ignore-implicit-traps (-tnh): binaryen could then drop the loads src/plumbing/prefetch.rs issues
# to overlap cache misses, which it keeps only because a load may trap.
WASM_OPT_FLAGS=(-Os --converge --low-memory-unused)

out=www/pkg
cargo_args=()
case "${1:-}" in
    "") ;;
    --bench)
        out=www/bench-pkg
        cargo_args=(-- --features workload)
        ;;
    --bench-o3)
        out=www/bench-pkg-o3
        cargo_args=(-- --features workload)
        OPT_LEVEL=3
        WASM_OPT_FLAGS=(-O3 --low-memory-unused)
        ;;
    *) die "unknown option '$1' (none, --bench or --bench-o3)" ;;
esac

CARGO_PROFILE_RELEASE_OPT_LEVEL=$OPT_LEVEL wasm-pack --log-level warn build --target web --out-dir "$out" --release --no-pack "${cargo_args[@]}"
wasm-opt "${WASM_OPT_FLAGS[@]}" --strip-producers "$out/purgatory_playground_bg.wasm" -o "$out/purgatory_playground_bg.wasm"
