#!/usr/bin/env bash
# Instruction-count profile of auditor (callgrind): stable on a noisy, shared machine.
#
#   bash Benchmarks/profile.sh [ROWS=200000] [FORMAT=csv|sqlite] [JOBS=1]
#
# Generates ROWS rows (seed 7) into bench-data/profile-ROWS/ if needed, builds the release
# binary, and runs it under valgrind --tool=callgrind. Prints the program total, the top
# functions by self cost and by inclusive cost (demangled), and, with JOBS>1, the instructions
# of each thread (the calling thread reads and merges; workers evaluate: the larger of the two
# bounds the --jobs speedup). Output files go to Benchmarks/results/profile/.
#
# valgrind 3.19 (Debian 12) cannot read the DWARF 5 that Swift 6.3 emits ("unhandled dwarf2
# abbrev form code 0x25 ... Giving up"), so the profile runs on a copy of the binary with the
# debug sections stripped (objcopy --strip-debug): function names survive, line numbers do not.
set -euo pipefail
ROWS=${1:-200000}
FORMAT=${2:-csv}
JOBS=${3:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$HERE")
SHARED=${AUDITOR_BENCH_SHARED:-$(dirname "$REPO")/shared/bench}
DATA="$REPO/bench-data/profile-$ROWS"
OUT="$HERE/results/profile"
mkdir -p "$OUT"
command -v valgrind >/dev/null || { echo "valgrind missing: apt-get install -y valgrind" >&2; exit 2; }
if [ ! -f "$DATA/expected.json" ]; then
  python3 "$SHARED/gen.py" --rows "$ROWS" --seed 7 --out "$DATA" --formats csv,sqlite >&2
fi
(cd "$REPO" && swift build -c release --product auditor >&2)
objcopy --strip-debug "$REPO/.build/release/auditor" "$OUT/auditor-nodebug"
case "$FORMAT" in csv) SRC="$DATA/people.csv" ;; sqlite) SRC="$DATA/people.sqlite" ;;
  *) echo "FORMAT must be csv or sqlite" >&2; exit 64 ;; esac
CG="$OUT/callgrind.$FORMAT.$ROWS.j$JOBS.out"
rm -f "$CG" "$CG"-*
SEP=no; [ "$JOBS" -gt 1 ] && SEP=yes
set +e
valgrind --tool=callgrind --separate-threads=$SEP --callgrind-out-file="$CG" \
  "$OUT/auditor-nodebug" run "$REPO/rules/people.yml" --source "people=$SRC" \
  --format json --output "$OUT/report.json" -q --jobs "$JOBS" 2>"$OUT/valgrind.log"
status=$?
set -e
if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
  echo "auditor exited $status under valgrind; see $OUT/valgrind.log" >&2; exit 1
fi
python3 "$SHARED/check_report.py" "$DATA/expected.json" "$OUT/report.json" --format "$FORMAT" | tail -1
demangle() { if command -v swift >/dev/null; then swift demangle --simplified; else cat; fi; }
set +o pipefail
files="$CG"; [ "$SEP" = yes ] && files=$(ls "$CG"-* 2>/dev/null)
for f in $files; do
  [ -f "$f" ] || continue
  echo "=== $(basename "$f")"
  callgrind_annotate --auto=no "$f" 2>/dev/null | grep "PROGRAM TOTALS" || true
  echo "--- self"
  callgrind_annotate --auto=no "$f" 2>/dev/null | sed -n '/file:function/,$p' | sed -n '3,22p' | demangle | cut -c1-180
  echo "--- inclusive"
  callgrind_annotate --auto=no --inclusive=yes "$f" 2>/dev/null | sed -n '/file:function/,$p' | sed -n '3,40p' \
    | grep -v -e 'ld-linux' -e 'libc_start' -e 'below main' -e 'clone.S' -e 'pthread_create' -e '_dispatch_' \
    | demangle | cut -c1-180 | head -24
done
