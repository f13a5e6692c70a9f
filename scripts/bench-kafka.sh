#!/usr/bin/env bash
# Kafka's own purgatory against the crate's, on the same schedule, in one run (issue 29):
#
#   scripts/bench-kafka.sh            6,000,000 requests (about 1 M pending), 3 rounds: about 8 min
#   BENCH_REQUESTS=600000 BENCH_ROUNDS=5 BENCH_DIAGNOSTIC=0 scripts/bench-kafka.sh
#
# Installs what is missing (scripts/setup.sh; Apache Kafka's jars from Maven Central through
# tools/kafka-check/pom.xml, the Kafka check's pinned release), builds the native example, the
# shipped wasm with the workload (scripts/build-wasm.sh --bench) and the Java side
# (tools/kafka-purgatory-bench, compiled against those jars into target/), writes the schedule
# once (target/kafka-purgatory-bench/schedule-N.bin, which Kafka's side reads; the native and
# wasm sides draw the same schedule from the same generator and seed), then runs
# e2e/bench-kafka.mjs: the three contenders interleaved, their rates, memory and ratios, the
# machine's memory bound, and the diagnostic with the purge out of the way. Exits 1 when the
# contenders' completed and expired counts differ. docs/benchmarks.md keeps the method and runs.
#
#   scripts/bench-kafka.sh --check    (a stage of scripts/test.sh, about 15 s) replays a schedule of
#                                     100,000 requests once natively and once in Kafka's purgatory and
#                                     fails unless both complete and expire the same requests
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

check=
case "${1:-}" in
    "") ;;
    --check) check=1 ;;
    *) die "unknown option '$1' (none or --check)" ;;
esac
requests=${BENCH_REQUESTS:-6000000}
[[ -n $check ]] && requests=100000
[[ $requests =~ ^[1-9][0-9]*$ ]] || die "BENCH_REQUESTS must be a positive whole number; found '$requests'"
[[ -n $check ]] || bash scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
command -v java >/dev/null || die "java not found (Java 17 or newer; scripts/setup.sh installs it)"
say "bench-kafka: Kafka jars: $(resolve_kafka_jars)"
out=target/kafka-purgatory-bench
mkdir -p "$out"
javac -d "$out" -cp "$(kafka_jars)/*" $(find tools/kafka-purgatory-bench -name '*.java')
cargo build --release --quiet --example purgatory_workload
schedule=$out/schedule-$requests.bin
target/release/examples/purgatory_workload "$requests" --write-schedule "$schedule"
if [[ -n $check ]]; then
    # completed and expired, as each side prints them after "outcome"
    native=$(target/release/examples/purgatory_workload "$requests" 1 | sed -n 's/.* outcome \([0-9]*\) \([0-9]*\) .*/\1 \2/p')
    kafka=$(echo run | java -Xmx1G -Dlog4j.configuration=file:tools/kafka-purgatory-bench/log4j.properties \
        -cp "$out:$(kafka_jars)/*" KafkaPurgatoryBench "$schedule" 2>/dev/null | sed -n 's/.* outcome \([0-9]*\) \([0-9]*\) .*/\1 \2/p')
    [[ -n $native && $native == "$kafka" ]] || die "completed and expired differ: the crate $native, Kafka ${kafka:-(no answer)}"
    say "bench-kafka --check: $requests requests, the crate and Kafka $(kafka_version)'s purgatory both completed and expired ${native/ / and }"
    exit 0
fi
scripts/build-wasm.sh --bench
KAFKA_VERSION=$(kafka_version) KAFKA_JARS=$(kafka_jars) BENCH_SCHEDULE=$schedule BENCH_REQUESTS=$requests \
    node e2e/bench-kafka.mjs
