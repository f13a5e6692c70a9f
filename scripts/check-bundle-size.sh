#!/usr/bin/env bash
# The embed's size budgets (issue 9), gzipped at level 9: the element's module
# dist/purgatory-playground.js within 62,000 bytes (60,000 until the markup tag, the Kafka check's
# mark and the phase-aware stories came; the house issue relaxes budgets that bend the code, so a
# clear form is written first and measured), the self-contained page (wasm inlined)
# dist/purgatory-playground.html within 260,000 bytes. Sizes are deterministic for a given
# toolchain, so this is a check, not a benchmark; it prints each size and its budget.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

over=0
check() {
    local file=$1 budget=$2 size
    [[ -f "$file" ]] || die "$file is missing: run 'npm run build' first"
    size=$(gzip -9c "$file" | wc -c)
    if ((size > budget)); then
        printf 'error: %s is %d bytes gzipped, over its budget of %d\n' "$file" "$size" "$budget" >&2
        over=1
    else
        say "$file: $size bytes gzipped (budget $budget)"
    fi
}
check dist/purgatory-playground.js 62000
check dist/purgatory-playground.html 260000
exit "$over"
