#!/usr/bin/env bash
# Builds the shipping .wasm and its JS glue into www/pkg: wasm-pack at opt-level "z", then npm's
# wasm-opt (binaryen 132; Debian's 108 breaks the module, see shared/setup.md trap 1).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
CARGO_PROFILE_RELEASE_OPT_LEVEL=z wasm-pack --log-level warn build --target web --out-dir www/pkg --release --no-pack
wasm-opt -Oz --converge --strip-producers www/pkg/purgatory_playground_bg.wasm -o www/pkg/purgatory_playground_bg.wasm
