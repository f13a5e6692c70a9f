#!/usr/bin/env bash
# Refuse a wasm-opt older than 110 (trap 1: Debian's binaryen 108 silently breaks the .wasm's
# exported tables) and a missing one (trap 2: wasm-pack then tries to download binaryen).
# Checks the wasm-opt that `npm run build` will use: node_modules/.bin first on PATH.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MIN=110
bin=$(command -v wasm-opt || true)
[[ -n "$bin" ]] || die "no wasm-opt on PATH (npm's binaryen is missing: run 'npm ci'); wasm-pack would try to download one and fail"
out=$("$bin" --version 2>&1 || true)
ver=$(sed -n 's/.*version[ _]\([0-9][0-9]*\).*/\1/p' <<<"$out" | head -n1)
[[ -n "$ver" ]] || die "cannot read the version of $bin (it said: $out)"
if ((ver < MIN)); then
    die "$bin is wasm-opt $ver, older than $MIN: it breaks the .wasm (exported tables all get index 0). Run 'npm ci' so node_modules/.bin/wasm-opt (binaryen 132) comes first, or remove Debian's binaryen."
fi
say "wasm-opt $ver ($bin) ok"
