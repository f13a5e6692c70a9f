#!/usr/bin/env bash
# Replays curated scenarios on a real Apache Kafka cluster and compares with the model.
#
#   scripts/kafka-check.sh [--runs N | --at-phases MS,MS,...] [--no-report | --merge] [--compare-only]
#                          [SCENARIO ... | all]    # names as in scenarios/, without .json
#
# --at-phases runs each scenario once per phase listed, with t = 0 placed so that the leader's
# (broker 0's) ISR check falls that many ms after it (scenario-format.md, "Phases"): how a
# scenario whose sweep splits is checked on both sides of each boundary. Without it, t = 0 falls
# wherever it falls. Either way every broker's beat is read from its log and the model is run there.
#
# Kafka's answers stay in target/kafka-check/ (NAME.kafkaI.json, with the driver's log), so that
# --compare-only compares them again without a cluster (after a change to the comparison).
#
# Default: the subset s01 (happy path), s03 (a stalled follower, answered at the ISR shrink) and s06
# (NOT_ENOUGH_REPLICAS before the append), each run twice on Kafka. `all` replays every curated
# scenario. Kafka comes from Maven Central (tools/kafka-check/pom.xml, one pinned release) into
# ~/.cache/purgatory-playground/kafka-VERSION, outside git; each run starts a fresh KRaft cluster
# (tools/kafka-check/KafkaCheck.java) and stops every process it started by its PID.
# Prints a table and writes docs/kafka-check.md and docs/kafka-check.json (the page's marks), unless
# --no-report (scripts/test.sh's subset); with --merge, only these scenarios' rows and sections are
# replaced in the report there is. A what-if scenario (one with a `compare` field) is checked
# twice over: as written, and its second run as `purgatory apply` prints it, named NAME.b.
# Exits 1 when any scenario disagrees.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

invocation="scripts/kafka-check.sh${*:+ $*}"
runs=2
at_phases=()
report=
compare_only=
names=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --at-phases)
            IFS=, read -r -a at_phases <<< "$2"
            for phi in "${at_phases[@]}"; do [[ $phi =~ ^[0-9]+$ ]] || die "--at-phases takes phases in ms, such as 2000,8000,13700; found '$phi'"; done
            runs=${#at_phases[@]}; shift 2 ;;
        --no-report) report=--no-report; shift ;;
        --merge) report=--merge; shift ;;
        --compare-only) compare_only=1; shift ;;
        all) for f in scenarios/[swx]*.json; do names+=("$(basename "$f" .json)"); done; shift ;;
        *) names+=("$1"); shift ;;
    esac
done
if [[ ${#names[@]} -eq 0 ]]; then
    names=(s01-happy-path s03-stalled-follower-completes-at-isr-shrink s06-pre-append-not-enough-replicas)
fi

command -v java >/dev/null || die "java not found (Java 17 or newer; scripts/setup.sh installs it)"
command -v mvn >/dev/null || die "mvn not found (scripts/setup.sh installs it)"
version=$(kafka_version)
jars=$(kafka_jars)
say "kafka-check: Kafka jars: $(resolve_kafka_jars)"
cargo build --release --quiet --bin purgatory

work=$ROOT/target/kafka-check
mkdir -p "$work"
start=$SECONDS
lines=()
# Replays FILE (the scenario called NAME) on Kafka and compares; its verdict line goes to `lines`.
check() {
    local name=$1 file=$2
    target/release/purgatory run "$file" > "$work/$name.model.json"
    local outs=() todo=$runs i t0 aligned line out
    if [[ -n $compare_only ]]; then
        for out in "$work/$name".kafka*.json; do [[ -f $out ]] && outs+=("$out"); done
        todo=0
    else
        rm -f "$work/$name".kafka*
    fi
    for ((i = 1; i <= todo; i++)); do
        t0=$SECONDS
        aligned=()
        [[ ${#at_phases[@]} -gt 0 ]] && aligned=("--isr-phase=${at_phases[i - 1]}")
        if timeout 900 java -cp "$jars/*" tools/kafka-check/KafkaCheck.java "$file" "$work/$name.kafka$i.json" "${aligned[@]}" > "$work/$name.kafka$i.log" 2>&1; then
            outs+=("$work/$name.kafka$i.json")
            say "kafka-check: $name run $i on Kafka${aligned:+ (${aligned[0]#--})}: $((SECONDS - t0)) s"
        else
            say "kafka-check: $name run $i could not be driven:"
            grep -v '^log4j:' "$work/$name.kafka$i.log" | tail -5
        fi
    done
    if [[ ${#outs[@]} -eq 0 ]]; then
        lines+=("{\"scenario\":\"$name\",\"verdict\":\"could-not-drive\",\"runs\":0,\"fields\":[]}")
    else
        if ! line=$(node scripts/kafka-compare.mjs "$file" "$work/$name.model.json" "${outs[@]}"); then
            line="{\"scenario\":\"$name\",\"verdict\":\"disagree\",\"runs\":${#outs[@]},\"fields\":[],\"reason\":\"the comparison failed (its error is above)\"}"
        fi
        lines+=("$line")
    fi
}

for name in "${names[@]}"; do
    file=scenarios/$name.json
    [[ -f $file ]] || die "no scenario $file"
    check "$name" "$file"
    # A what-if (a `compare` field) is two runs, and Kafka is asked about both: the second is the
    # scenario `purgatory apply` prints, checked as NAME.b.
    if node -e 'process.exit(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).compare ? 0 : 1)' "$file"; then
        if target/release/purgatory apply "$file" \
            | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => { const o = JSON.parse(s); o.name += ".b"; console.log(JSON.stringify(o, null, 2)); })' \
            > "$work/$name.b.json"; then
            check "$name.b" "$work/$name.b.json"
        else
            lines+=("{\"scenario\":\"$name.b\",\"verdict\":\"disagree\",\"runs\":0,\"fields\":[],\"reason\":\"purgatory apply could not write the second run (its error is above)\"}")
        fi
    fi
done
printf '%s\n' "${lines[@]}" > "$work/verdicts.jsonl"
node scripts/kafka-report.mjs "$work/verdicts.jsonl" "$version" "$invocation" "$((SECONDS - start))" $report
# The scenario's own verdict (each line starts with it; its fields have verdicts of their own).
! grep -q '^{"scenario":"[^"]*","verdict":"disagree"' "$work/verdicts.jsonl"
