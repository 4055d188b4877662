#!/usr/bin/env bash
# Builds one libFuzzer target and runs it on its seed corpus (issue 13 §7, CONVENTIONS.md rule 10).
#
#   Fuzz/run.sh TARGET [SECONDS | -runs=N] [extra libFuzzer flags...]
#
# TARGET is FuzzCSV, FuzzXML, FuzzRules, FuzzExpression or FuzzPattern. SECONDS (default 60)
# becomes -max_total_time; -runs=N stops after N executions instead. The corpus libFuzzer grows
# lives in Fuzz/work/TARGET (not committed), seeded from Fuzz/Corpus/TARGET; a crash, leak,
# sanitizer report or slow unit is written to Fuzz/crashes/TARGET/ and ends the run with a
# non-zero status. Replay one with: Fuzz/run.sh TARGET -runs=1 Fuzz/crashes/TARGET/crash-…
# Environment: CONFIG=debug|release (default release), NICE (default 19: the cores are shared).
set -euo pipefail
caller=$PWD
cd "$(dirname "$0")"

targets="FuzzCSV FuzzXML FuzzRules FuzzExpression FuzzPattern"
target=${1:-}
if [[ -z "$target" || " $targets " != *" $target "* ]]; then
    echo "usage: Fuzz/run.sh TARGET [SECONDS|-runs=N] [libFuzzer flags...]; TARGET is one of: $targets" >&2
    exit 64
fi
shift
limit=(-max_total_time=60)
if [[ $# -gt 0 ]]; then
    case "$1" in
        -runs=*) limit=("$1") ;;
        ''|*[!0-9]*) ;;                    # not a number: a libFuzzer flag or an input, passed on
        *) limit=(-max_total_time="$1") ;;
    esac
    [[ "$1" == -runs=* || "$1" =~ ^[0-9]+$ ]] && shift
fi
config=${CONFIG:-release}

# The exact spelling matters (CONVENTIONS.md rule 10): `--sanitize=fuzzer --sanitize=address`
# drops one of the two, and `-Xswiftc -sanitize=fuzzer` alone builds a binary that does nothing.
nice -n "${NICE:-19}" swift build -c "$config" --product "$target" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address

mkdir -p "work/$target" "crashes/$target"
corpus=("work/$target" "Corpus/$target")
args=()
for arg in "$@"; do
    path=$arg
    [[ "$path" == /* ]] || path=$caller/$arg
    if [[ "$arg" != -* && -f "$path" ]]; then
        args+=("$(realpath "$path")"); corpus=()      # replaying files: run just those
    else
        args+=("$arg")
    fi
done
# SWIFT_BACKTRACE=enable=no: else Swift's backtracer takes the crash and libFuzzer writes no file.
export SWIFT_BACKTRACE=enable=no
# -detect_leaks=0: the Swift runtime's caches and the CSV reader's threads make libFuzzer see an
# unbalanced malloc count on nearly every input, and the leak scan it then runs each time cut
# FuzzCSV from ~1,400 to ~130 executions per second. Pass -detect_leaks=1 to look for leaks.
exec nice -n "${NICE:-19}" ".build/$config/$target" "${limit[@]}" -timeout=10 -rss_limit_mb=4096 -detect_leaks=0 \
    -print_final_stats=1 -artifact_prefix="crashes/$target/" ${args[@]+"${args[@]}"} ${corpus[@]+"${corpus[@]}"}
