#!/usr/bin/env bash
# Install everything the build and the tests need, skipping what is already there, so a warm run
# costs seconds. Debian 12, as root (or with sudo). Each step says below what it is for.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

WASM_PACK_VERSION=0.15.1
start=$SECONDS
did=0

step() { printf 'setup: %-22s %s\n' "$1" "$2"; }

command -v cargo >/dev/null 2>&1 || die "cargo not found: install Rust with rustup first"
command -v rustup >/dev/null 2>&1 || die "rustup not found: install Rust with rustup first"

# --- Debian packages: Chromium + chromedriver (for wasm-pack test --chrome and Playwright),
#     Node/npm if absent. Never Debian's binaryen (its wasm-opt 108
#     breaks the module: see scripts/build-wasm.sh).
apt_pkgs=()
[[ -x /usr/bin/chromium ]] || apt_pkgs+=(chromium)
command -v chromedriver >/dev/null 2>&1 || apt_pkgs+=(chromium-driver)
command -v npm >/dev/null 2>&1 || apt_pkgs+=(nodejs npm)
command -v python3 >/dev/null 2>&1 || apt_pkgs+=(python3)
# Java 17+ and Maven for the Kafka check (a real cluster from Apache's jars).
java_major=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
((${java_major:-0} >= 17)) || apt_pkgs+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || apt_pkgs+=(maven)
# A CJK font, so that screenshots of the page in Chinese show real glyphs (WenQuanYi Micro Hei:
# 1.6 MB, where Noto CJK is 56 MB).
[[ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ]] || apt_pkgs+=(fonts-wqy-microhei)
if ((${#apt_pkgs[@]})); then
    step "apt" "installing ${apt_pkgs[*]}"
    export DEBIAN_FRONTEND=noninteractive
    as_root apt-get update -qq
    as_root apt-get install -y -qq "${apt_pkgs[@]}" >/dev/null
    did=1
else
    step "apt" "skip (chromium, chromedriver, npm, python3, java ${java_major}, maven, a CJK font present)"
fi

# --- Rust: wasm target and rustfmt.
if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    step "wasm32 target" "skip (installed)"
else
    step "wasm32 target" "installing"
    rustup target add wasm32-unknown-unknown
    did=1
fi
if rustup component list --installed | grep -q '^rustfmt'; then
    step "rustfmt" "skip (installed)"
else
    step "rustfmt" "installing"
    rustup component add rustfmt
    did=1
fi

# --- wasm-pack, pinned.
have=$(wasm-pack --version 2>/dev/null | awk '{print $2}' || true)
if [[ "$have" == "$WASM_PACK_VERSION" ]]; then
    step "wasm-pack" "skip ($have)"
else
    step "wasm-pack" "installing $WASM_PACK_VERSION (was: ${have:-none}; ~2.5 min)"
    cargo install wasm-pack --version "$WASM_PACK_VERSION" --locked --force
    did=1
fi

# --- wasm-bindgen-cli at exactly the wasm-bindgen of Cargo.lock (trap 3), without --locked (trap 4).
if ! grep -q '^name = "wasm-bindgen"$' Cargo.lock 2>/dev/null; then
    step "Cargo.lock" "resolving (no wasm-bindgen in it yet)"
    cargo metadata --format-version 1 >/dev/null
fi
want=$(cargo pkgid -p wasm-bindgen | sed 's/.*[#@]//')
[[ "$want" =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] || die "cannot read wasm-bindgen's version from Cargo.lock (got '$want')"
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [[ "$have" == "$want" ]]; then
    step "wasm-bindgen-cli" "skip ($have, as Cargo.lock)"
else
    step "wasm-bindgen-cli" "installing $want (was: ${have:-none}; ~2.5 min)"
    cargo install wasm-bindgen-cli --version "$want" --force
    did=1
fi

# --- npm packages (binaryen's wasm-opt, playwright-core), from package-lock.json.
marker=node_modules/.package-lock.json
if [[ -f "$marker" && ! package-lock.json -nt "$marker" && -x node_modules/.bin/wasm-opt && -d node_modules/playwright-core ]]; then
    step "npm packages" "skip (node_modules up to date)"
else
    step "npm packages" "npm ci"
    npm ci --no-audit --no-fund --loglevel=error
    touch "$marker"
    did=1
fi

# --- Apache Kafka's jars for the Kafka check (Maven Central, into a cache outside git).
kafka=$(resolve_kafka_jars)
step "kafka jars" "$kafka"
[[ $kafka == skip* ]] || did=1

# --- Refuse a wasm-opt older than 110 (trap 1) or none (trap 2).
printf 'setup: %-22s ' "wasm-opt"
"$ROOT/scripts/check-wasm-opt.sh"

if ((did)); then
    say "setup: done in $((SECONDS - start)) s"
else
    say "setup: nothing to do ($((SECONDS - start)) s)"
fi
