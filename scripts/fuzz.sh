#!/usr/bin/env bash
# Fuzzes every parser of untrusted input with libFuzzer and AddressSanitizer (docs/reliability.md):
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# builds the targets of Fuzz/Targets (LAYERCAST_FUZZ=1, -sanitize=fuzzer,address, in
# .build-fuzz), then runs each for SECONDS (default 60) from its committed seed corpus
# (Fuzz/corpus/TARGET, read only: new inputs go to .build-fuzz/corpus/TARGET). Prints each
# target's executions, coverage and corpus size; exits non-zero when any target crashes, leaks,
# times out or runs out of memory, leaving the input in .build-fuzz/crashes/TARGET/.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=${1:-60}
shift || true
targets=("$@")
(( ${#targets[@]} > 0 )) || targets=(FuzzClientMessage FuzzJoinRequest FuzzAdminBody FuzzPlayerToken FuzzSampleDocument)
[[ $seconds =~ ^[0-9]+$ ]] && (( seconds > 0 )) || { echo "fuzz.sh: SECONDS must be a positive integer" >&2; exit 2; }

scratch=.build-fuzz
# One product at a time (the modules they share are built once). lld: gold cannot link ASan here.
for target in "${targets[@]}"; do
    echo "+ LAYERCAST_FUZZ=1 swift build --scratch-path $scratch -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld --product $target"
    LAYERCAST_FUZZ=1 swift build --scratch-path "$scratch" -c debug -Xswiftc -sanitize=fuzzer,address \
        -Xswiftc -use-ld=lld --product "$target" 2>&1 | { grep -v "Cannot export local symbol" || true; }
done

# The largest input each target reads (ClientMessage.maxBytes is 4096; sample documents are bigger).
max_len() {
    case $1 in
        FuzzSampleDocument) echo 16384 ;;
        FuzzPlayerToken) echo 3072 ;;
        *) echo 4200 ;;
    esac
}

failed=()
for target in "${targets[@]}"; do
    seeds=Fuzz/corpus/$target
    corpus=$scratch/corpus/$target
    crashes=$scratch/crashes/$target
    log=$scratch/logs/$target.log
    mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
    echo "+ $scratch/debug/$target -max_total_time=$seconds $corpus $seeds"
    status=0
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
        "$scratch/debug/$target" -max_total_time="$seconds" -max_len="$(max_len "$target")" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" "$seeds" >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    units=$(find "$corpus" -type f | wc -l)
    if (( status != 0 )); then
        failed+=("$target")
        echo "fuzz.sh: $target FAILED (exit $status) after ${runs:-?} runs; input in $crashes/, log $log:"
        grep -E 'ERROR|SUMMARY|Fatal error|Test unit written' "$log" | head -20
    else
        echo "fuzz.sh: $target ok: ${seconds} s, ${runs:-?} runs (${speed:-?}/s), cov ${cov:-?}, ft ${ft:-?}, corpus $units, crashes 0"
    fi
done

if (( ${#failed[@]} > 0 )); then
    echo "fuzz.sh: crashes in ${failed[*]}"
    exit 1
fi
echo "fuzz.sh: ${#targets[@]} targets, ${seconds} s each, no crash"
